// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop experiment --knob NAME --values A,B[,...]`: try a knob's
 * values in blocks of --period seconds, --rounds times over, in an order
 * that cancels a trend (ABBA, or random), all in one recording with each
 * change marked (the controls' audit entries); then each value's blocks
 * measured and tested (analysis/experiment.h).  Guard rails are checked
 * after every tick: a breach puts the knob back at once and ends it.
 *
 * The knob goes back on every exit: the end, a breach, Ctrl-C, SIGTERM
 * (record's own loop stops, then on_end puts it back, recorded).  For
 * SIGKILL or a power loss a restore record (STATE/experiment.restore,
 * STATE = var/lib/fragtop under the root) is written before the first
 * change; the next fragtop start, `fragtop experiment --restore`, or the
 * package's fragtop-restore.service at boot applies it and says so.  A
 * lock (STATE/experiment.lock) keeps a second experiment out.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/experiment.h"
#include "analysis/report.h"
#include "base/clock.h"
#include "cmd/cli.h"
#include "cmd/record.h"
#include "collectors/live.h"
#include "controls/control.h"
#include "controls/expstate.h"
#include "model/journal.h"
#include "model/knobwatch.h"
#include "render/experiment.h"

static struct {
	const char *knob, *values, *order, *metrics, *guards, *output, *judge;
	double period;
	uint64_t rounds, seed;
	bool json, restore, require_guards, force;
	struct ft_liveopts live;
} o;

static const struct ft_opt opts[] = {
	{ "knob", 'k', FT_OPT_STR, "NAME", "the knob to try (fragtop get lists them)",
	  .var = &o.knob },
	{ "values", 'V', FT_OPT_STR, "A,B[,...]",
	  "the values to try, 2 to 8; the knob's own value, when\n"
	  "among them, is the baseline the others are tested against", .var = &o.values },
	{ "period", 'p', FT_OPT_SECS, "SECS", "a block's length", 2, 86400, .var = &o.period,
	  .def = "60" },
	{ "rounds", 'r', FT_OPT_UINT, "N", "rounds: every value once a round", 1, 32,
	  .var = &o.rounds, .def = "4" },
	{ "order", 0, FT_OPT_STR, "ORDER",
	  "abba (rounds alternate direction: A B B A ...) or random", .var = &o.order,
	  .def = "abba" },
	{ "seed", 0, FT_OPT_UINT, "N",
	  "with --order random: the shuffle's seed (said in the output)", 0, 1e18,
	  .var = &o.seed },
	{ "metric", 'm', FT_OPT_STR, "M[,...]",
	  "compare's rows to test (fragtop compare --json names them);\n"
	  "the first decides the recommendation", .var = &o.metrics,
	  .def = "extfrag_fragmenting_per_s" },
	{ "guard", 'g', FT_OPT_STR, "G=LIMIT[,...]",
	  "guard rails: pressure (full avg10 %, default 20),\n"
	  "stall_p99 (direct compaction ms over a block, 500),\n"
	  "alloc_failures (kernel log, since the start, 0),\n"
	  "thp_fallback (% of a block's THP faults, 95); G=off turns one off", .var = &o.guards },
	{ "require-guards", 0, FT_OPT_FLAG, NULL,
	  "refuse to start when a guard rail lacks its input\n"
	  "(PSI, tracing, the kernel log, the THP counters)", .var = &o.require_guards },
	{ "output", 'o', FT_OPT_STR, "FILE", "the recording (overwritten)", .var = &o.output,
	  .def_help = "fragtop-experiment-KNOB-TIME.ftr here" },
	FT_OPT_JSON(o.json),
	{ "judge", 0, FT_OPT_STR, "FILE",
	  "test an experiment's recording again (other --metric, say):\n"
	  "its blocks are the intervals between its changes of the knob", .var = &o.judge },
	{ "restore", 0, FT_OPT_FLAG, NULL,
	  "apply a restore record an experiment killed left, and exit\n"
	  "(fragtop-restore.service runs this at boot); only while the\n"
	  "knob holds what the experiment left", .var = &o.restore },
	{ "force", 0, FT_OPT_FLAG, NULL,
	  "with --restore: put the original back even if someone changed\n"
	  "the knob since the experiment left it", .var = &o.force },
	FT_OPT_ROOT(o.live.root),
	FT_OPT_NO_TRACE(o.live.no_trace),
	FT_OPT_TRACE_BUFFER(o.live.trace_kb),
	FT_OPT_PTI_INTERVAL(o.live.pti_interval),
};

/* The experiment as it runs: record's hooks' context. */
struct exp {
	/* what the renderers print (analysis/experiment.h) */
	struct ft_exp_outcome;
	const char *names[FT_EXP_VALUES];
	struct ft_exp_guard_base gbase;
	struct ft_ctl ctl;
	struct ft_live *live;
	int cur;				/* the block running, -1 before */
	double block_t0;			/* its start, seconds from the first tick */
	int dir;				/* the state directory (controls/expstate.h) */
	char root[4096];			/* the root, resolved: the record says it */
	char left[FT_KNOB_TEXT];		/* the value the record says was written last */
	long long started_at;
	bool refused;				/* --require-guards, and a guard lacked its input */
};

/* What the renderers print of @e: its first member. */
static const struct ft_exp_outcome *outcome(const struct exp *e)
{
	_Static_assert(offsetof(struct exp, knob) == 0, "the outcome is struct exp's first member");
	return (const struct ft_exp_outcome *)e;
}

/*
 * The restore record (controls/expstate.h), rewritten before each write
 * of the knob: the value about to be written is "left", the one the knob
 * holds "before", so whenever it is killed the knob holds one of them.
 * 0 or -errno.
 */
static int note_record(struct exp *e, const char *next)
{
	struct ft_exp_record r = { .pid = (int)getpid(), .started = e->started_at };
	size_t n = 0;
	int k;

	snprintf(r.root, sizeof(r.root), "%s", e->root);
	snprintf(r.knob, sizeof(r.knob), "%s", e->knob->name);
	snprintf(r.original, sizeof(r.original), "%s", e->orig);
	for (k = 0; k < e->nv && n < sizeof(r.values); k++)
		n += (size_t)snprintf(r.values + n, sizeof(r.values) - n, "%s%s", k ? "," : "",
				      e->val[k]);
	snprintf(r.before, sizeof(r.before), "%s", e->left);
	snprintf(r.left, sizeof(r.left), "%s", next);
	snprintf(e->left, sizeof(e->left), "%s", next);
	return ft_ctl_exp_record_write(e->dir, &r);
}

/* Put the knob back; true when it reads back as it was. */
static bool put_back(struct exp *e)
{
	const struct ft_audit *a;

	/* killed while it writes: the knob holds one of the record's two */
	note_record(e, e->orig);
	a = ft_ctl_set_knob(&e->ctl, e->knob, e->orig);

	snprintf(e->restore_msg, sizeof(e->restore_msg), "%s put back to %s: %s", e->knob->name,
		 e->orig,
		 ft_ctl_outcome_names[a->outcome]);
	e->restored = a->outcome == FT_CTL_OK;
	return e->restored;
}

static void on_audit(void *ctx, const struct ft_audit *a)
{
	struct exp *e = ctx;
	char text[1024];
	int n = ft_audit_text(a, text, sizeof(text));

	if (e->live && n > 0)
		ft_live_audit(e->live, text,
			      (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

static double now_s(const struct ft_session *s)
{
	return (double)(s->tick_t_ns - s->first_t_ns) / 1e9;
}

/*
 * Start block @i: its value set (an audit entry in the recording), the guards counting from here.
 */
static bool start_block(struct exp *e, int i, const struct ft_session *s)
{
	const struct ft_audit *a;
	int err = note_record(e, e->val[e->sched[i]]);

	if (err) {	/* no write the record would not undo */
		snprintf(e->breach_why, sizeof(e->breach_why), "the restore record: %s",
			 strerror(-err));
		return false;
	}
	a = ft_ctl_set_knob(&e->ctl, e->knob, e->val[e->sched[i]]);

	if (a->outcome != FT_CTL_OK) {
		snprintf(e->breach_why, sizeof(e->breach_why), "setting %s=%s: %s", e->knob->name,
			 e->val[e->sched[i]], a->msg);
		return false;
	}
	e->cur = i;
	e->block_t0 = now_s(s);
	ft_exp_guard_begin(&e->gbase, s, false);
	if (!o.json)
		fprintf(stderr, "fragtop experiment: block %d of %d: %s=%s\n", i + 1, e->nb,
			e->knob->name,
			e->val[e->sched[i]]);
	return true;
}

/*
 * The plan in the recording (a note: ft_exp_run_of() reads the period
 * from it to tell a block cut short), and the guards that can be judged,
 * said; false when --require-guards and one lacks its input.
 */
static bool first_tick(struct exp *e, struct ft_live *l)
{
	const struct ft_session *s = &l->session;
	char text[512];
	int n, g;
	bool ok = true;

	n = snprintf(text, sizeof(text),
		     "how=" FT_EXP_PLAN_HOW "\noutcome=" FT_EXP_PLAN_HOW "\nknob=%s\n"
		     "by=experiment\nmsg=period=%g blocks=%d\n", e->knob->name, e->period, e->nb);
	ft_live_audit(l, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
	ft_exp_guard_inputs(&e->guards, s, e->gstate, e->gwhy);
	for (g = 0; g < FT_EXP_G_NR; g++)
		ok &= !(o.require_guards && e->gstate[g] < 0);
	{	/* said on stderr in every mode: the JSON has them too */
		fprintf(stderr, "fragtop experiment: guard rails:");
		for (g = 0; g < FT_EXP_G_NR; g++)
			fprintf(stderr, "%s %s %s%s%s", g ? ";" : "", ft_exp_guard_names[g],
				e->gstate[g] > 0 ? "on" : "OFF", e->gstate[g] > 0 ? "" : ": ",
				e->gwhy[g]);
		fputc('\n', stderr);
	}
	if (!ok)
		fprintf(stderr, "fragtop experiment: --require-guards: a guard rail lacks its "
				"input; nothing "
			"changed\n");
	e->refused = !ok;
	return ok;
}

/*
 * The knob read back at every tick: another value than the block's is
 * said at once with who wrote it (the change journal's claim, else
 * outside fragtop), and the block's value written again; the recording
 * then voids the block (FT_EXP_VOID_RULE, analysis/experiment_run.c).
 */
static void read_back(struct exp *e, const struct ft_session *s)
{
	const struct ft_knob_value *v = &s->knobs[e->knob - ft_knobs];
	const char *want = e->val[e->sched[e->cur]];
	const struct ft_session_audit *c;
	const struct ft_audit *a;
	char now[FT_KNOB_TEXT], who[96];

	if (v->err || !v->raw_len)
		return;
	ft_knob_value_text(e->knob, v, now, sizeof(now));
	if (!strcmp(now, want))
		return;
	c = ft_knob_claim(s, e->knob->name, now);
	if (c)
		snprintf(who, sizeof(who), "%s (pid %d, uid %u)", ft_journal_who(c->by), c->pid,
			 c->uid);
	else
		snprintf(who, sizeof(who), "someone outside fragtop (sysctl, a script)");
	e->disturbed++;
	a = ft_ctl_reassert(&e->ctl, e->knob, want);
	fprintf(stderr,
		"fragtop experiment: +%.0f s, block %d of %d: %s reads %s, not %s: written by %s; "
		"%s %s again: %s; this block will be void (%s)\n", now_s(s), e->cur + 1, e->nb,
		e->knob->name, now,
		want, who, a->outcome == FT_CTL_OK ? "wrote" : "could not write", want,
		ft_ctl_outcome_names[a->outcome], FT_EXP_VOID_RULE);
}

/* After every tick: the guards, the knob read back, then the block's end and the next one. */
static bool on_tick(void *ctx, struct ft_live *l)
{
	struct exp *e = ctx;
	const struct ft_session *s = &l->session;
	char why[200];
	int g;

	if (!e->started) {
		e->live = l;
		if (!first_tick(e, l))
			return false;	/* nothing changed */
		e->started = true;
		ft_exp_guard_begin(&e->gbase, s, true);
		return start_block(e, 0, s);
	}
	g = ft_exp_guard_check(&e->guards, &e->gbase, s, why, sizeof(why));
	if (g >= 0) {		/* the value back within this tick, and the experiment over */
		e->breach = g;
		e->breach_t = now_s(s);
		snprintf(e->breach_why, sizeof(e->breach_why), "guard %s breached: %s",
			 ft_exp_guard_names[g], why);
		put_back(e);
		return false;
	}
	read_back(e, s);
	if (now_s(s) - e->block_t0 < o.period - 0.25)
		return true;
	e->blocks[e->done++] = (struct ft_exp_block){ e->sched[e->cur], e->block_t0, now_s(s) };
	if (e->cur + 1 == e->nb) {
		e->ended_all = true;
		return false;
	}
	return start_block(e, e->cur + 1, s);
}

/* At the end, whatever ended it: the knob back before the recording closes (the entry in it). */
static void on_end(void *ctx, struct ft_live *l)
{
	struct exp *e = ctx;

	e->live = l;
	if (e->started && !e->restored)
		put_back(e);
}

/* --values: each checked against the knob's current value. */
static int parse_values(struct exp *e, const struct ft_knob_value *cur)
{
	char list[512], *save = NULL, *v, why[160];
	int node;

	snprintf(list, sizeof(list), "%s", o.values);
	for (v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (e->nv == FT_EXP_VALUES) {
			fprintf(stderr, "fragtop experiment: at most %d values\n", FT_EXP_VALUES);
			return -1;
		}
		if (ft_knob_validate(e->knob, v, cur, e->val[e->nv], &node, why, sizeof(why))) {
			fprintf(stderr, "fragtop experiment: --values: %s\n", why);
			return -1;
		}
		e->names[e->nv] = e->val[e->nv];
		e->nv++;
	}
	if (e->nv < 2) {
		fprintf(stderr, "fragtop experiment: --values: two values at least\n");
		return -1;
	}
	for (e->base = 0; e->base < e->nv && strcmp(e->val[e->base], e->orig); e->base++)
		;
	if (e->base == e->nv)
		e->base = 0;
	return 0;
}

/* --guard: NAME=LIMIT or NAME=off, over the defaults. */
static int parse_guards(struct exp *e)
{
	char list[512], *save = NULL, *g;
	int i;

	for (i = 0; i < FT_EXP_G_NR; i++)
		e->guards.limit[i] = ft_exp_guard_defaults[i];
	if (!o.guards)
		return 0;
	snprintf(list, sizeof(list), "%s", o.guards);
	for (g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(g, '='), *end;
		double v;

		for (i = 0; eq && i < FT_EXP_G_NR &&
		     strncmp(g, ft_exp_guard_names[i], (size_t)(eq - g)); i++)
			;
		if (!eq || i == FT_EXP_G_NR || strlen(ft_exp_guard_names[i]) != (size_t)(eq - g)) {
			fprintf(stderr, "fragtop experiment: --guard %s: not NAME=LIMIT with NAME "
					"pressure, stall_p99, "
				"alloc_failures or thp_fallback\n", g);
			return -1;
		}
		if (!strcmp(eq + 1, "off")) {
			e->guards.limit[i] = NAN;
			continue;
		}
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || !isfinite(v) || v < 0) {
			fprintf(stderr, "fragtop experiment: --guard %s: the limit is not a number "
					">= 0 (or off)\n", g);
			return -1;
		}
		e->guards.limit[i] = v;
	}
	return 0;
}

static int parse_metrics(int *m, int *nm)
{
	char list[512], *save = NULL, *k;

	snprintf(list, sizeof(list), "%s", o.metrics);
	*nm = 0;
	for (k = strtok_r(list, ",", &save); k && *nm < FT_EXP_METRICS;
	     k = strtok_r(NULL, ",", &save))
		if ((m[(*nm)++] = ft_exp_metric(k)) < 0) {
			fprintf(stderr, "fragtop experiment: --metric %s: no such row (fragtop "
					"compare --json lists "
				"them under rows[].metric)\n", k);
			return -1;
		}
	return *nm ? 0 : -1;
}

static char restore_note[512];	/* what the last ft_experiment_restore_pending() said */

const char *ft_experiment_restore_note(void)
{
	return restore_note;
}

__attribute__((format(printf, 1, 2)))
static void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(restore_note, sizeof(restore_note), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fragtop: %s\n", restore_note);
}

/*
 * Put @r's knob back to its original when it still holds what the experiment left (or @force). 0 or
 * 1.
 */
static int apply_record(int rootfd, int dir, const char *root, const struct ft_exp_record *r,
			bool force)
{
	const struct ft_knob *k = ft_knob_find(r->knob);
	struct ft_knob_value cur;
	char now[FT_KNOB_TEXT];
	struct ft_ctl *ctl;
	const struct ft_audit *a;
	int rc = 1;

	if (ft_ctl_read(rootfd, k, &cur)) {
		note("an experiment's restore record for %s is kept: the knob cannot be read",
		     r->knob);
		return 1;
	}
	ft_knob_value_text(k, &cur, now, sizeof(now));
	/* back already (killed while it put it back): nothing to do */
	if (!strcmp(now, r->original)) {
		ft_ctl_exp_record_remove(dir);
		return 0;
	}
	if (!force && strcmp(now, r->left) && strcmp(now, r->before)) {
		note("an experiment's restore record is kept: %s is %s, not the %s it left "
		     "(changed since); "
		     "`fragtop experiment --restore --force%s%s` puts %s back", r->knob, now,
		     r->left[0] ? r->left : "?",
		     strcmp(root, "/") ? " --root " : "", strcmp(root, "/") ? root : "",
		     r->original);
		return 1;
	}
	ctl = calloc(1, sizeof(*ctl));
	if (!ctl)
		return 1;
	ft_ctl_init(ctl, rootfd, NULL);
	ctl->by = "restore";
	ctl->experiment = true;		/* the experiment's own write, done for it */
	ctl->journal = !strcmp(root, "/");
	a = ft_ctl_set_knob(ctl, k, r->original);
	if (a->outcome == FT_CTL_OK) {
		ft_ctl_exp_record_remove(dir);
		note("an experiment ended without putting %s back: restored it to %s (was %s)",
		     r->knob, r->original,
		     a->old);
		rc = 0;
	} else {
		note("an experiment left %s changed; putting it back to %s failed: %s%s", r->knob,
		     r->original, a->msg,
		     geteuid() ? " (run fragtop as root)" : "");
	}
	free(ctl);
	return rc;
}

/*
 * A restore record left by an experiment that did not end (SIGKILL, a
 * power loss), under @root (controls/expstate.h): applied when none runs
 * and the knob still holds what it left (or @force), said on stderr.  0:
 * none or applied; 1: kept or refused (said why).
 */
int ft_experiment_restore_pending(const char *root, bool quiet, bool force)
{
	struct ft_exp_record r;
	char resolved[4096], why[160];
	int rootfd, dir, lock, pid, err, rc = 1;

	restore_note[0] = '\0';
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return quiet ? 0 : (note("%s: %s", root, strerror(errno)), 1);
	dir = ft_ctl_exp_dir(rootfd, false);
	if (dir < 0) {
		if (dir != -ENOENT)
			note("%s/" FT_EXP_STATE_DIR ": not used: %s", root,
			     dir == -ELOOP ? "a symbolic link on the way" :
			     dir == -EPERM ? "not root's own, or open to others (it must be "
					     "0700)" : strerror(-dir));
		else if (!quiet)
			fprintf(stderr, "fragtop: no experiment's knob to put back "
					"(%s/" FT_EXP_STATE_DIR ": none)\n", root);
		close(rootfd);
		return dir == -ENOENT ? 0 : 1;
	}
	if (ft_ctl_exp_running(dir, &pid)) {	/* its record is its own */
		if (!quiet)
			note("an experiment (pid %d) runs: its record is its own; nothing put back",
			     pid);
		close(dir);
		close(rootfd);
		return quiet ? 0 : 1;
	}
	err = ft_ctl_exp_record_read(dir, &r, why, sizeof(why));
	if (err == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "fragtop: no experiment's knob to put back "
					"(%s/" FT_EXP_STATE_DIR "/"
				FT_EXP_RECORD ": none)\n", root);
		rc = 0;
	} else if (err) {
		note("%s/" FT_EXP_STATE_DIR "/" FT_EXP_RECORD ": not applied: %s", root, why);
	} else if (!realpath(root, resolved) || strcmp(resolved, r.root)) {
		note("%s/" FT_EXP_STATE_DIR "/" FT_EXP_RECORD ": not applied: it belongs to the "
							      "root %.200s", root,
		     r.root[0] ? r.root : "(none said)");
	/* held while it applies: no experiment starts meanwhile */
	} else if ((lock = ft_ctl_exp_lock(dir)) >= 0) {
		rc = apply_record(rootfd, dir, root, &r, force);
		close(lock);
	}
	close(dir);
	close(rootfd);
	return rc;
}

/* What must hold before anything is written.  0, or 1 after saying why. */
static int refuse(struct exp *e, const char *root, int rootfd, struct ft_knob_value *cur)
{
	if (!strcmp(root, "/") && geteuid() != 0) {
		fprintf(stderr, "fragtop experiment: needs root: it writes %s\n", o.knob);
		return 1;
	}
	e->knob = ft_knob_find(o.knob);
	if (!e->knob || e->knob->type == FT_KNOB_TRIGGER || e->knob->per_node) {
		fprintf(stderr, "fragtop experiment: --knob %s: %s\n", o.knob,
			e->knob ? "a trigger, not a setting" : "no such knob (fragtop get lists "
							       "them)");
		return 1;
	}
	if (ft_ctl_read(rootfd, e->knob, cur)) {
		char why[160];

		fprintf(stderr, "fragtop experiment: %s: %s\n", e->knob->name,
			ft_knob_strerror(e->knob, cur->err, why, sizeof(why)));
		return 1;
	}
	ft_knob_value_text(e->knob, cur, e->orig, sizeof(e->orig));
	return 0;
}

/* Each value ran in two blocks at least that count: the test can be made. */
static bool enough(const struct exp *e)
{
	int n[FT_EXP_VALUES] = { 0 }, i;

	for (i = 0; i < e->done; i++)
		n[e->blocks[i].value] += !e->blocks[i].voided;
	for (i = 0; i < e->nv; i++)
		if (n[i] < 2)
			return false;
	return true;
}

static int blocks_of(struct exp *e, const char *file);

static int run_experiment(struct exp *e, const char *file, const int *metrics, int nm)
{
	struct ft_record_args a = {
		.live = o.live, .output = file, .interval = 1, .duration = o.period * e->nb + 5,
		.on_tick = on_tick, .on_end = on_end, .ctx = e,
	};
	struct ft_exp_result *r = NULL;
	int err;

	err = ft_record_headless(&a);
	if (e->started && !e->restored)
		/* the recorder failed: the knob back all the same, if not in the file */
		put_back(e);
	if (!e->started) {	/* nothing was changed: the record is no one's */
		ft_ctl_exp_record_remove(e->dir);
		return 1;
	}
	if (!e->restored && e->started) {
		fprintf(stderr,
			"fragtop experiment: %s; the restore record stays for the next start\n",
			e->restore_msg);
		return 1;
	}
	ft_ctl_exp_record_remove(e->dir);
	/*
	 * the verdict is --judge's over the same recording: its blocks, its ticks (one code path)
	 */
	if (!err && blocks_of(e, file))
		err = 1;
	if (!err && enough(e) && (r = calloc(1, sizeof(*r))) &&
	    ft_exp_judge(file, e->blocks, e->done, e->names, e->nv, e->base, metrics, nm, r)) {
		ft_exp_release(r);
		free(r);
		r = NULL;
		err = 1;
	}
	if (o.json)
		ft_render_experiment_json(stdout, outcome(e), r, file);
	else
		ft_render_experiment_text(stdout, outcome(e), r);
	if (r)
		ft_exp_release(r);
	free(r);
	return err || e->breach >= 0 || !e->ended_all ? 1 : 0;
}

/* A value's index in @e, added when new. */
static int value_index(struct exp *e, const char *v)
{
	int k;

	for (k = 0; k < e->nv && strcmp(e->val[k], v); k++)
		;
	if (k == e->nv && e->nv < FT_EXP_VALUES) {
		snprintf(e->val[k], sizeof(e->val[k]), "%s", v);
		e->names[k] = e->val[k];
		e->nv++;
	}
	return k < FT_EXP_VALUES ? k : -1;
}

/*
 * The blocks as the recording has them (analysis/experiment_run.c: the
 * same for a live run and --judge), each value's index @e's own.  0, or
 * 1 after saying why.
 */
static int blocks_of(struct exp *e, const char *file)
{
	struct ft_exp_run *r = calloc(1, sizeof(*r));
	char why[256];
	int i, err = 1;

	if (!r)
		return 1;
	if (ft_exp_run_of(file, e->knob ? e->knob->name : o.knob, r, why, sizeof(why))) {
		fprintf(stderr, "fragtop experiment: %s\n", why);
		goto out;
	}
	if (!e->knob) {		/* --judge: what the recording says */
		e->knob = ft_knob_find(r->knob);
		snprintf(e->orig, sizeof(e->orig), "%.31s", r->orig);
		e->period = !isnan(r->period) ? r->period :
			    (r->blocks[r->nb - 1].to_s - r->blocks[0].from_s) / r->nb;
		e->ended_all = e->restored = true;
		snprintf(e->restore_msg, sizeof(e->restore_msg), "%s put back to %s (as recorded)",
			 r->knob, r->last);
		if (!e->knob) {
			fprintf(stderr, "fragtop experiment: %s: no such knob in this fragtop\n",
				r->knob);
			goto out;
		}
	}
	for (i = 0; i < r->nb; i++) {
		e->blocks[i] = r->blocks[i];
		e->blocks[i].value = value_index(e, r->val[r->blocks[i].value]);
		if (e->blocks[i].value < 0)
			goto out;
		e->sched[i] = e->blocks[i].value;
	}
	e->done = r->nb;
	if (!e->nb)
		e->nb = r->nb;
	for (e->base = 0; e->base < e->nv && strcmp(e->val[e->base], e->orig); e->base++)
		;
	if (e->base == e->nv)
		e->base = 0;
	err = 0;
out:
	free(r);
	return err;
}

static int judge_only(const int *metrics, int nm)
{
	static struct exp e;
	struct ft_exp_result *r = calloc(1, sizeof(*r));
	int err;

	memset(&e, 0, sizeof(e));
	e.breach = -1;
	if (!r || blocks_of(&e, o.judge)) {
		free(r);
		return 1;
	}
	{	/* the order it ran in: ABBA's, or another (random) */
		int abba[FT_EXP_BLOCKS];

		e.order = e.nb % e.nv == 0 &&
		ft_exp_schedule(e.nv, e.nb / e.nv, FT_EXP_ABBA, 0, abba) == e.nb &&
			  !memcmp(abba, e.sched, (size_t)e.nb * sizeof(int)) ?
				  FT_EXP_ABBA : FT_EXP_RANDOM;
	}
	err = !enough(&e) ||
	ft_exp_judge(o.judge, e.blocks, e.done, e.names, e.nv, e.base, metrics, nm, r);
	if (o.json)
		ft_render_experiment_json(stdout, outcome(&e), err ? NULL : r, o.judge);
	else
		ft_render_experiment_text(stdout, outcome(&e), err ? NULL : r);
	ft_exp_release(r);
	free(r);
	return err ? 1 : 0;
}

/*
 * Before the first change: the controls set up as the experiment's, the
 * knob proved writable (its own value written back), the restore record
 * written.  0, or 1 after saying why (nothing changed).
 */
static int arm(struct exp *e, int rootfd)
{
	const struct ft_audit *a;
	int err;

	ft_ctl_init(&e->ctl, rootfd, NULL);
	e->ctl.by = "experiment";
	e->ctl.experiment = true;
	e->ctl.journal = !strcmp(o.live.root, "/");
	e->ctl.hook = on_audit;
	e->ctl.hook_ctx = e;
	a = ft_ctl_set_knob(&e->ctl, e->knob, e->orig);	/* a read-only /proc/sys, a container? */
	if (a->outcome != FT_CTL_OK) {
		fprintf(stderr, "fragtop experiment: cannot write %s: %s; nothing changed\n",
			e->knob->name, a->msg);
		return 1;
	}
	e->started_at = (long long)time(NULL);
	if ((err = note_record(e, e->orig))) {
		fprintf(stderr, "fragtop experiment: cannot write the restore record in "
				"%s/" FT_EXP_STATE_DIR ": %s; "
			"nothing changed\n", o.live.root, strerror(-err));
		return 1;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	static struct exp e;
	struct ft_knob_value cur;
	int metrics[FT_EXP_METRICS], nm, err, first, lock, rootfd;
	char file[4096];

	err = ft_cli_parse(&ft_cmd_experiment, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_experiment, "'%s': no operand expected",
					  argv[first]);
	/*
	 * A reader that went away (the ssh session that ran it dropped, `|&
	 * head`) must not end it with the tested value set: writes to it fail
	 * quietly instead, and the run goes on to put the knob back.
	 */
	signal(SIGPIPE, SIG_IGN);
	if (o.restore)
		return ft_experiment_restore_pending(o.live.root, false, o.force);
	if (o.force)
		return ft_cli_usage_error(&ft_cmd_experiment, "--force goes with --restore");
	if (o.judge)
		return parse_metrics(metrics, &nm) ? 1 : judge_only(metrics, nm);
	if (!o.knob || !o.values)
		return ft_cli_usage_error(&ft_cmd_experiment, "--knob and --values are needed");
	if (strcmp(o.order, "abba") && strcmp(o.order, "random"))
		return ft_cli_usage_error(&ft_cmd_experiment, "--order %s: abba or random",
					  o.order);
	memset(&e, 0, sizeof(e));
	e.breach = -1;
	e.cur = -1;
	e.order = strcmp(o.order, "random") ? FT_EXP_ABBA : FT_EXP_RANDOM;
	e.period = o.period;
	e.seed = o.seed ? o.seed : (uint64_t)ft_realtime_ns();
	rootfd = open(o.live.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		fprintf(stderr, "fragtop experiment: %s: %s\n", o.live.root, strerror(errno));
		return 1;
	}
	/*
	 * A killed one's restore record first: the knob's value read after
	 * it, or the value it left would be taken for the original and kept.
	 */
	ft_experiment_restore_pending(o.live.root, true, false);
	err = refuse(&e, o.live.root, rootfd, &cur) || parse_values(&e, &cur) || parse_guards(&e) ||
	      parse_metrics(metrics, &nm);
	if (!err && (e.nb = ft_exp_schedule(e.nv, (int)o.rounds, e.order, e.seed, e.sched)) < 0) {
		fprintf(stderr, "fragtop experiment: %d values x %llu rounds: at most %d blocks\n",
			e.nv,
			(unsigned long long)o.rounds, FT_EXP_BLOCKS);
		err = 1;
	}
	if (err) {
		close(rootfd);
		return 1;
	}
	if (!realpath(o.live.root, e.root) || (e.dir = ft_ctl_exp_dir(rootfd, true)) < 0) {
		err = e.root[0] ? e.dir : -errno;
		fprintf(stderr,
			"fragtop experiment: %s/" FT_EXP_STATE_DIR ": %s; nothing changed\n",
			o.live.root,
			err == -ELOOP ? "a symbolic link on the way: refused" : err == -EPERM ?
			"not root's own, or open to others (it must be 0700): "
			"refused" : strerror(-err));
		close(rootfd);
		return 1;
	}
	lock = ft_ctl_exp_lock(e.dir);
	if (lock < 0) {
		fprintf(stderr, "fragtop experiment: %s\n",
			lock == -EBUSY ? "another experiment runs (its lock is "
			"held): one at a time" : "cannot take the lock");
		close(e.dir);
		close(rootfd);
		return 1;
	}
	if (arm(&e, rootfd)) {
		close(lock);
		close(e.dir);
		close(rootfd);
		return 1;
	}
	if (o.output)
		snprintf(file, sizeof(file), "%s", o.output);
	else
		snprintf(file, sizeof(file), "fragtop-experiment-%s-%lld.ftr", e.knob->name,
			 (long long)time(NULL));
	fprintf(stderr, "fragtop experiment: %s from %s, %d blocks of %g s (about %.0f min); "
			"recording to %s; "
		"Ctrl-C ends it and puts the knob back\n", e.knob->name, e.orig, e.nb, o.period,
		e.nb * o.period / 60, file);
	err = run_experiment(&e, file, metrics, nm);
	close(lock);
	close(e.dir);
	close(rootfd);
	return err;
}

const struct ft_cmd ft_cmd_experiment = {
	.name = "experiment",
	.summary = "try a knob's values in blocks, test them, put the knob back",
	.about = "Alternates the values in blocks of --period seconds, --rounds times (ABBA:\n"
		 "A B B A ..., so a drift of the host weighs on each value alike), all in\n"
		 "one recording with each change marked.  Then per value and metric the\n"
		 "mean and sd over its blocks, and Welch's test against the baseline (the\n"
		 "knob's value when among them).  A value is recommended only at p < 0.05\n"
		 "on the first metric with no guard metric (direct compaction p99, THP\n"
		 "success, allocation stalls) worse.  Guard rails are checked every tick;\n"
		 "a breach puts the knob back at once and ends it, saying why.  The knob\n"
		 "goes back at the end, on Ctrl-C and SIGTERM; a restore record covers\n"
		 "SIGKILL and power loss (the next fragtop start applies it).  Needs root;\n"
		 "one experiment at a time.  Exit status: 0 ran, 1 stopped or failed.",
	FT_CMD_OPTS(opts),
	.run = run,
};
