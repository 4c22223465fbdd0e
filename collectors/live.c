// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/live.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/zero.h"
#include "model/cost.h"

/* Every read becomes an input: the tap sees it, then the session applies it. */
static void emit(struct ft_live *l, uint16_t type, uint16_t sub, uint64_t t_ns, const void *data,
		 size_t len)
{
	struct ft_rec_record in = {
		.type = type, .sub = sub, .len = (uint32_t)len, .t_ns = t_ns, .data = data,
	};

	if (l->tap)
		l->tap(l->tap_ctx, &in);
	ft_session_apply(&l->session, &in);
}

static void emit_err(struct ft_live *l, uint16_t type, uint16_t sub, uint64_t t_ns, int err)
{
	int32_t e = err;

	emit(l, type, sub | FT_INPUT_ERR, t_ns, &e, sizeof(e));
}

/* The trace's or the map's status (FT_RS_TRACE, FT_RS_MAP) as a SOURCE input: -errno, or 0. */
static void emit_status(struct ft_live *l, enum ft_rs what, int err)
{
	int32_t e = err;

	emit(l, FT_RR_SOURCE, (uint16_t)what, ft_now_ns(), &e, sizeof(e));
}

/* --stacks' state: a SOURCE input each tick, so each file of a series has it */
static void emit_stacks_status(struct ft_live *l, uint64_t t_ns)
{
	int32_t e = l->stacks_err;
	uint8_t b[8];

	if (!l->stacks_asked)
		return;
	memcpy(b, &e, 4);
	memcpy(b + 4, &l->stacks_per_sec, 4);
	emit(l, FT_RR_SOURCE, FT_RS_STACKS, t_ns, b, 8);
}

/* The per-size THP tree as a THP input; absent before 6.8 (or in a tree without it): no input, not an error. */
static void emit_thp(struct ft_live *l, uint64_t t_ns)
{
	char *buf = malloc(FT_LIVE_THP_TEXT);
	long n;

	if (!buf)
		return;
	n = ft_thp_src_read(&l->thp, l->procfs.rootfd, buf, FT_LIVE_THP_TEXT);
	if (n > 0)
		emit(l, FT_RR_THP, 0, t_ns, buf, (size_t)n);
	free(buf);
}

/* What this fragtop has cost so far (base/cost.h), as a SOURCE input. */
static void emit_cost(struct ft_live *l, uint64_t t_ns)
{
	uint8_t b[FT_COST_REC_LEN];
	struct ft_cost c;

	ft_cost_get(&c);
	emit(l, FT_RR_SOURCE, FT_RS_COST, t_ns, b, ft_cost_encode(&c, b, sizeof(b)));
}

/* Before a tick: memory, multi-size THP, the map scan's cost while it runs, and our own. */
static void emit_source_tick(struct ft_live *l, uint64_t t_ns)
{
	uint8_t b[40];

	ft_host_refresh(&l->host);
	if (l->host.mem_total_kb) {
		memcpy(b, &l->host.mem_total_kb, 8);
		memcpy(b + 8, &l->host.mem_avail_kb, 8);
		emit(l, FT_RR_SOURCE, FT_RS_MEMORY, t_ns, b, 16);
	}
	if (l->wants & FT_LIVE_WANT_THP)
		emit_thp(l, t_ns);
	if (l->map_scan && !l->map_err) {
		memcpy(b, &l->map_cpu, 8);
		memcpy(b + 8, &l->map_rescans, 8);
		memcpy(b + 16, &l->map_rescans_late, 8);
		memcpy(b + 24, &l->map_rescan_lag_max_ns, 8);
		memcpy(b + 32, &l->map_rescans_deferred, 8);
		emit(l, FT_RR_SOURCE, FT_RS_MAPSCAN, t_ns, b, 40);
	}
	emit_stacks_status(l, t_ns);
	if (l->pown_state) {	/* page_owner's state in every file of a series */
		int32_t e = l->pown_state < 0 ? l->pown_state : 0;

		emit(l, FT_RR_SOURCE, FT_RS_OWNER, t_ns, &e, 4);
	}
	emit_cost(l, t_ns);
}

static void read_knobs(struct ft_live *l, uint64_t t_ns);

void ft_live_want(struct ft_live *l, unsigned int wants)
{
	unsigned int gained = wants & ~l->wants;

	l->wants = wants;
	if (gained & FT_LIVE_WANT_SIZE_KNOBS)
		read_knobs(l, ft_now_ns());
	if (gained & FT_LIVE_WANT_THP)
		emit_thp(l, ft_now_ns());
	if (!(wants & FT_LIVE_WANT_THP))
		ft_thp_src_close(&l->thp);
}

/* The HOST input: what a reader of the session needs to know of the host. */
static size_t host_text(struct ft_live *l, char *buf, size_t sz)
{
	char boot[64] = "";
	long n = ft_file_slurp(l->procfs.rootfd, "proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	int len;

	if (n > 0 && boot[n - 1] == '\n')
		boot[n - 1] = '\0';
	len = snprintf(buf, sz,
		       "fragtop=%s\nhostname=%s\nrelease=%s\npage_size=%ld\npmd_order=%d\n"
		       "pageblock_order=%d\ncpus=%ld\nboot_id=%s\nroot=%s\n",
		       FT_VERSION, l->host.hostname, l->host.release, l->host.page_size,
		       l->host.pmd_order, l->session.sample.pageblock_order,
		       sysconf(_SC_NPROCESSORS_CONF), boot, l->root);
	return len < 0 ? 0 : (size_t)len >= sz ? sz - 1 : (size_t)len;
}

int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s)
{
	char host[2048];
	int err;

	ft_zero(l, sizeof(*l));	/* what the host does not fill stays out of RSS */
	snprintf(l->root, sizeof(l->root), "%s", root);
	err = ft_procfs_open(&l->procfs, root);
	if (err)
		return err;
	ft_host_open(&l->host, l->procfs.rootfd, !strcmp(root, "/"));
	ft_session_init(&l->session);
	emit(l, FT_RR_HOST, 0, ft_now_ns(), host, host_text(l, host, sizeof(host)));
	emit_status(l, FT_RS_TRACE, 0);	/* not asked for yet */
	emit_status(l, FT_RS_MAP, 0);
	l->kpf.flags_fd = l->kpf.count_fd = -1;
	l->map_cpu = FT_LIVE_MAP_CPU;
	l->wants = FT_LIVE_WANT_ALL;
	l->boost_slow = FT_LIVE_BOOST_SLOW;
	for (size_t i = 0; i < FT_SESSION_MAX_KNOBS; i++) {
		ft_file_init(&l->knob_file[i], i < ft_knobs_nr ? ft_knobs[i].path : "");
		l->knob_file[i].single = true;	/* a sysctl or a sysfs attribute */
		l->knob_file[i].cost = FT_COST_KNOBS;	/* a per-size one too, though under the THP tree */
	}
	ft_file_init(&l->boost_file, "proc/zoneinfo");
	pthread_mutex_init(&l->boost_lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&l->boost_wake, &ca);
		pthread_condattr_destroy(&ca);
	}
	l->boost_threaded = true;
	/* a captured tree does not change: no sampler unless asked */
	ft_live_boost_set(l, strcmp(root, "/") ? 0 : FT_LIVE_BOOST_HZ);
	l->pti_interval_ns = pti_interval_s > 0 ? (uint64_t)(pti_interval_s * 1e9) : 0;
	return 0;
}

void ft_live_close(struct ft_live *l)
{
	ft_trace_close(&l->trace);
	if (l->tracing)
		ft_procname_release(&l->procname);
	ft_cmdlines_release(&l->saved);
	l->tracing = false;
	ft_session_release(&l->session);
	ft_kpf_close(&l->kpf);
	ft_pown_close(&l->pown);
	free(l->pown_look.text);
	l->pown_look = (struct ft_pown_look){ 0 };
	l->pown_state = 0;
	for (size_t z = 0; z < FT_LIVE_MAP_ZONES; z++)
		free(l->map_queued[z]);
	ft_live_boost_set(l, 0);		/* the thread stopped before its file goes */
	ft_file_close(&l->boost_file);
	pthread_mutex_destroy(&l->boost_lock);
	pthread_cond_destroy(&l->boost_wake);
	free(l->iomem);
	l->iomem = NULL;
	ft_kallsyms_release(&l->ksyms);
	for (size_t i = 0; i < FT_SESSION_MAX_KNOBS; i++)
		ft_file_close(&l->knob_file[i]);
	ft_thp_src_release(&l->thp);
	ft_host_close(&l->host);
	ft_procfs_close(&l->procfs);
}

/*
 * Every knob's file, held open and read again from offset 0; one that
 * could not be opened (a knob this kernel lacks) is looked for again
 * every FT_LIVE_RETRY_NS, its error standing in between.
 */
static void read_knobs(struct ft_live *l, uint64_t t_ns)
{
	size_t max = sizeof(((struct ft_knob_value *)0)->raw), i;
	bool retry = !l->knob_retry_ns || t_ns - l->knob_retry_ns >= FT_LIVE_RETRY_NS;

	if (retry)
		l->knob_retry_ns = t_ns;
	for (i = 0; i < ft_knobs_nr && i < FT_SESSION_MAX_KNOBS; i++) {
		struct ft_file *f = &l->knob_file[i];
		long n;

		if (ft_knobs[i].type == FT_KNOB_TRIGGER || ft_knobs[i].per_node)
			continue;
		if (!(l->wants & FT_LIVE_WANT_SIZE_KNOBS) && ft_knob_per_size(&ft_knobs[i])) {
			ft_file_close(f);	/* while no view shows them: no descriptors either */
			continue;
		}
		n = f->fd < 0 && f->err == -ENOENT && !retry ? f->err : ft_file_read(f, l->procfs.rootfd);
		if (n >= 0) {
			emit(l, FT_RR_KNOB, (uint16_t)i, t_ns, f->buf, f->len < max ? f->len : max);
			l->knob_err[i] = 0;
		} else if (l->knob_err[i] != (int)n) {
			/* an absent knob is said once (and again to a new recording), not every tick */
			emit_err(l, FT_RR_KNOB, (uint16_t)i, t_ns, (int)n);
			l->knob_err[i] = (int)n;
		}
	}
}

void ft_live_read_knobs(struct ft_live *l)
{
	read_knobs(l, ft_now_ns());
}

void ft_live_audit(struct ft_live *l, const char *text, size_t len)
{
	emit(l, FT_RR_AUDIT, 0, ft_now_ns(), text, len);
}

static void on_page(void *ctx, int cpu, const void *buf, size_t len)
{
	struct ft_live *l = ctx;

	emit(l, FT_RR_TRACE_PAGE, (uint16_t)cpu, ft_now_ns(), buf, len);
}

static void emit_name(struct ft_live *l, int pid, const char *comm, uint16_t sub, uint64_t now)
{
	uint8_t rec[4 + 31];
	size_t n = strnlen(comm, 31);

	memcpy(rec, &(uint32_t){ (uint32_t)pid }, 4);
	memcpy(rec + 4, comm, n);
	emit(l, FT_RR_NAME, sub, now, rec, 4 + n);
}

/*
 * The cgroup of @pid from /proc/PID/cgroup: the memory controller's path
 * on a v1 or hybrid host (memcg is what reclaim and compaction work for),
 * else the unified hierarchy's ("0::").  0 when found.
 */
static int read_cgroup(struct ft_live *l, int pid, char *out, size_t sz)
{
	char rel[48], buf[4096], *line, *save = NULL;
	const char *unified = NULL, *memory = NULL;
	long n;

	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	n = ft_file_slurp(l->procfs.rootfd, rel, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ENOENT;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		if (c1[1] == ':')
			unified = c2 + 1;
		else if (!strncmp(c1 + 1, "memory:", 7))
			memory = c2 + 1;
	}
	if (memory && strcmp(memory, "/"))
		unified = memory;
	if (!unified)
		return -ENOENT;
	snprintf(out, sz, "%s", unified);
	return 0;
}

static void emit_group(struct ft_live *l, int pid, int tgid, uint64_t now)
{
	uint8_t g[8];

	memcpy(g, &(uint32_t){ (uint32_t)pid }, 4);
	memcpy(g + 4, &(uint32_t){ (uint32_t)tgid }, 4);
	emit(l, FT_RR_GROUP, 0, now, g, 8);
}

/* The thread group of @pid from /proc/PID/status ("Tgid:"), or 0. */
static int read_tgid(struct ft_live *l, int pid)
{
	char rel[48], buf[2048], *p;
	long n, v;

	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	n = ft_file_slurp(l->procfs.rootfd, rel, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:");
	if (!p)
		return 0;
	v = strtol(p + 6, NULL, 10);
	return v > 0 && v <= (1 << 22) ? (int)v : 0;
}

/*
 * The command of @pid from the tracer's saved_cmdlines: for a task that
 * made events and was gone before its /proc entry was read (a compiler
 * pass, a short script).  The kernel saves the command of each task that
 * recorded an event when it next switches out, so an exit is covered.
 * Read once per drain, and only when a task is gone unnamed.
 */
static const char *saved_name(struct ft_live *l, int pid)
{
	if (!l->saved_read) {
		char *buf;
		size_t len;

		l->saved_read = true;
		if (ft_trace_saved_cmdlines(&buf, &len) == 0) {
			ft_cmdlines_parse(buf, len, &l->saved);
			free(buf);
		} else {
			ft_cmdlines_release(&l->saved);
		}
	}
	return ft_cmdlines_find(&l->saved, pid);
}

/*
 * Name @pid, with its thread group (and leader) and cgroup; false if it is
 * gone (then named from saved_cmdlines when the tracer kept it).
 */
static bool name_one(struct ft_live *l, int pid, uint64_t now)
{
	const struct ft_procs *t = &l->session.events.procs;
	const char *comm = ft_procname_get(&l->procname, pid);
	char cg[128];
	int tgid;

	if (!strcmp(comm, "?")) {
		const char *c = saved_name(l, pid);

		if (c)
			emit_name(l, pid, c, 0, now);
		return false;
	}
	tgid = read_tgid(l, pid);
	emit_name(l, pid, comm, 0, now);
	if (tgid)
		emit_group(l, pid, tgid, now);
	/* a thread's process is named by its leader, which may have no event */
	if (tgid && tgid != pid) {
		const struct ft_proc *lead = ft_procs_find(t, tgid);

		if (!lead || !lead->comm[0]) {
			const char *lc = ft_procname_get(&l->procname, tgid);

			if (strcmp(lc, "?")) {
				emit_name(l, tgid, lc, 0, now);
				emit_group(l, tgid, tgid, now);
			}
		}
	}
	if (!read_cgroup(l, pid, cg, sizeof(cg))) {
		uint8_t rec[4 + 127];
		size_t len = strnlen(cg, 127);

		memcpy(rec, &(uint32_t){ (uint32_t)pid }, 4);
		memcpy(rec + 4, cg, len);
		emit(l, FT_RR_CGROUP, 0, now, rec, 4 + len);
	}
	return true;
}

/*
 * Name the processes the events named, while they live: a NAME input for
 * every row without a command, with its thread group and cgroup.  One
 * already gone is named from saved_cmdlines if it can be, and said to
 * have exited.
 */
static void name_pids(struct ft_live *l)
{
	const struct ft_session *s = &l->session;
	const struct ft_procs *t = &s->events.procs;
	uint64_t now = ft_now_ns();
	size_t k;
	int i, last = -1;

	l->saved_read = false;
	for (i = 0; i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];

		if (p->comm[0] || p->exited || p->pid <= 0)	/* pid 0: the idle task */
			continue;
		if (!name_one(l, p->pid, now))
			emit_name(l, p->pid, "", FT_NAME_EXITED, now);
	}
	/* the tasks of records waiting for the tick (session.trq): named while they live */
	for (k = 0; k < s->nr_trq; k++) {
		int pid = s->trq[k].pid;

		if (pid <= 0 || pid == last || ft_procs_find(t, pid))
			continue;
		last = pid;
		name_one(l, pid, now);
	}
}

/*
 * Once a tick: processes that have exited since are said so (NAME with
 * FT_NAME_EXITED), so their rows are marked and a reused pid starts a new
 * one; the name cache forgets them.
 */
static void reap_pids(struct ft_live *l)
{
	const struct ft_procs *t = &l->session.events.procs;
	uint64_t now = ft_now_ns();
	int i, pid;

	for (i = 0; i < t->nr; i++) {
		pid = t->p[i].pid;
		if (t->p[i].exited || pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		ft_procname_forget(&l->procname, pid);
		emit_name(l, pid, "", FT_NAME_EXITED, now);
	}
}

/*
 * A fallback below pageblock order came in with this drain (it waits in
 * the session's queue until the tick): the only kind after which the
 * kernel boosts a watermark (try_to_claim_block()), and only while
 * watermark_boost_factor is not 0.
 */
static bool boost_may_follow(struct ft_live *l)
{
	const struct ft_session *s = &l->session;
	const struct ft_knob *kb = ft_knob_find("watermark_boost_factor");
	long k = kb ? kb - ft_knobs : -1;
	bool found = false;
	size_t i;

	if (s->nr_trq < l->boost_seen_q)
		l->boost_seen_q = 0;	/* the queue was counted at a tick */
	for (i = l->boost_seen_q; i < s->nr_trq && !found; i++)
		found = s->trq[i].kind == FT_EV_EXTFRAG && s->events.pageblock_order >= 0 &&
			s->trq[i].u.extfrag.fallback_order < s->events.pageblock_order;
	l->boost_seen_q = s->nr_trq;
	if (k >= 0 && k < FT_SESSION_MAX_KNOBS && !s->knobs[k].err && s->knobs[k].raw_len && !s->knobs[k].num)
		return false;
	return found;
}

static void boost_read(struct ft_live *l, uint32_t weight);

/* ft_live_boost_on_trace()'s read, if one is due: @sign says a fallback just came (or a tick). */
static void boost_read_on_trace(struct ft_live *l, bool sign)
{
	uint64_t now = ft_now_ns(), period = 1000000000ull / l->boost_hz, gap;
	bool hot;

	pthread_mutex_lock(&l->boost_lock);
	hot = now < l->boost_hot_until;
	pthread_mutex_unlock(&l->boost_lock);
	if (!(sign || hot) || (l->boost_last_ns && now - l->boost_last_ns < period))
		return;
	/* it stands for the time since the last read (the first: one period) */
	gap = l->boost_last_ns ? (now - l->boost_last_ns) / period : 1;
	l->boost_last_ns = now;
	boost_read(l, (uint32_t)(gap < 1 ? 1 : gap > 1000000 ? 1000000 : gap));
}

/* /proc/kallsyms, read whole (it has no size) into the symbol table. */
static int read_kallsyms(struct ft_live *l)
{
	struct ft_file f;
	int err;

	ft_file_init(&f, "proc/kallsyms");
	err = ft_file_read(&f, l->procfs.rootfd);
	if (!err)
		err = ft_kallsyms_parse(f.buf, f.len, &l->ksyms);
	ft_file_close(&f);
	return err;
}

/*
 * Name the frames of the stacks the session interned since the last look:
 * a KSYM input for each address not named yet (addresses unnamed stay
 * hex; kallsyms hidden by kptr_restrict names none).
 */
static void name_stacks(struct ft_live *l)
{
	const struct ft_events *ev = &l->session.events;
	char name[FT_SYMNAME_LEN + 8], rec[8 + FT_SYMNAME_LEN];

	if (l->stacks_named >= ev->nr_stacks)
		return;
	if (l->ksyms_err > 0) {
		l->ksyms_err = read_kallsyms(l);
		if (l->ksyms_err)
			ft_diag(FT_DIAG_WARN, "kernel stacks stay unnamed: %s",
				l->ksyms_err == -ENOENT && l->ksyms.hidden ?
				"/proc/kallsyms hides its addresses (kernel.kptr_restrict)" :
				strerror(-l->ksyms_err));
	}
	for (; l->stacks_named < ev->nr_stacks; l->stacks_named++) {
		const struct ft_ev_stack *st = &ev->stacks[l->stacks_named];

		for (int i = 0; !l->ksyms_err && i < st->n; i++) {
			size_t n;

			if (ft_symnames_get(&l->session.syms, st->ip[i]))
				continue;
			n = ft_kallsyms_name(&l->ksyms, st->ip[i], name, sizeof(name));
			if (!n)
				continue;
			if (n >= FT_SYMNAME_LEN)
				n = FT_SYMNAME_LEN - 1;
			memcpy(rec, &st->ip[i], 8);
			memcpy(rec + 8, name, n);
			emit(l, FT_RR_KSYM, 0, ft_now_ns(), rec, 8 + n);
		}
	}
}

/* The trigger's count, given again once a second: so many stacks a second at most. */
static void stacks_rearm(struct ft_live *l)
{
	uint64_t now = ft_now_ns();
	int err;

	if (now - l->stacks_armed_ns < 1000000000ull)
		return;
	l->stacks_armed_ns = now;
	err = ft_trace_stacks_rearm(&l->trace);
	if (err < 0 && !l->stacks_err) {
		l->stacks_err = err;
		ft_diag(FT_DIAG_WARN, "kernel stacks stopped: the trigger could not be set again: %s",
			strerror(-err));
	}
}

void ft_live_trace_poll(struct ft_live *l)
{
	if (!l->tracing)
		return;
	ft_trace_drain(&l->trace, on_page, l);
	if (l->trace.stacks) {
		name_stacks(l);
		stacks_rearm(l);
	}
	if (!l->no_names)
		name_pids(l);
	if (l->boost_running && boost_may_follow(l))
		ft_live_boost_heat(l);
	else if (l->boost_on_trace && l->boost_hz)
		boost_read_on_trace(l, boost_may_follow(l));
}

static uint64_t lost_now(struct ft_live *l)
{
	const struct ft_tracedec *d = &l->session.dec;

	return ft_trace_lost(&l->trace) + d->missed + d->missed_unknown;
}

static void emit_batch(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *flags,
		       const uint64_t *counts)
{
	struct ft_live *l = ctx;
	uint8_t *buf;

	if (words > (FT_REC_CHUNK_MAX / 2 - 8) / 16)
		return;
	buf = malloc(8 + words * 16);
	if (!buf)
		return;
	memcpy(buf, &pfn, 8);
	memcpy(buf + 8, flags, words * 8);
	memcpy(buf + 8 + words * 8, counts, words * 8);
	emit(l, FT_RR_KPF,
	     (uint16_t)(zone | (l->kpf.rescan ? FT_KPF_RESCAN : 0) | (l->kpf.sampling ? FT_KPF_SAMPLE : 0)),
	     ft_now_ns(), buf,
	     8 + words * 16);
	free(buf);
}

static int map_open(struct ft_live *l)
{
	char *buf;
	long n;
	int err;

	if (l->kpf.flags_fd >= 0)
		return 0;
	err = ft_kpf_open(&l->kpf, l->procfs.rootfd);
	if (err) {
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags%s%s",
			err == -EACCES || err == -EPERM ? " " : ": ",
			err == -EACCES || err == -EPERM ? "needs root" : strerror(-err));
		return err;
	}
	l->kpf.emit = emit_batch;
	l->kpf.emit_ctx = l;
	buf = malloc(1 << 20);
	if (buf) {
		n = ft_file_slurp(l->procfs.rootfd, "proc/iomem", buf, 1 << 20);
		if (n > 0) {
			l->iomem = buf;
			l->iomem_len = (size_t)n;
			emit(l, FT_RR_IOMEM, 0, ft_now_ns(), buf, (size_t)n);
		} else {
			free(buf);
		}
		if (!l->session.map.ram.known)
			ft_diag(FT_DIAG_INFO, "pageblock map: no RAM ranges from /proc/iomem; "
				"holes show only where the kernel says NOPAGE");
	}
	return 0;
}

int ft_live_map_enable(struct ft_live *l, bool on)
{
	l->map_scan = on;
	l->map_last_ns = 0;
	l->map_proc_ns = 0;
	/* rescans are for fallbacks from now on (the pass covers the older ones) */
	l->map_fb_seen = l->session.events.fb_head;
	l->map_rescan_lag_max_ns = 0;
	l->map_rescans = l->map_rescans_late = l->map_rescans_deferred = 0;
	if (!on) {
		l->kpf.rescanning = false;	/* R's pass ends with the map: nothing reads it meanwhile */
		return 0;
	}
	if (l->map_err)
		return l->map_err;
	l->map_err = map_open(l);
	emit_status(l, FT_RS_MAP, l->map_err);
	return l->map_err;
}

/*
 * Queue the blocks the fallbacks traced since the last look named (once
 * each: a bit per block), for a rescan before the round-robin goes on.
 */
static void map_queue_fallbacks(struct ft_live *l)
{
	const struct ft_events *ev = &l->session.events;
	const struct ft_pbmap *m = &l->session.map;
	uint64_t h = l->map_fb_seen;

	if (ev->fb_head - h > FT_EV_FB_RING) {	/* the ring went round: the oldest are gone */
		l->map_fb_missed += ev->fb_head - h - FT_EV_FB_RING;
		h = ev->fb_head - FT_EV_FB_RING;
	}
	for (; h < ev->fb_head; h++) {
		const struct ft_fb_pfn *f = &ev->fb_ring[h % FT_EV_FB_RING];
		int z = ft_pbmap_zone_of(m, f->pfn);
		uint64_t b;

		if (z < 0 || (size_t)z >= FT_LIVE_MAP_ZONES)
			continue;
		b = (f->pfn >> m->order) - m->zones[z].first_block;
		if (b >= m->zones[z].nr_blocks)
			continue;
		if (l->map_queued_n[z] != m->zones[z].nr_blocks) {	/* laid out anew */
			free(l->map_queued[z]);
			l->map_queued[z] = calloc((m->zones[z].nr_blocks + 7) / 8, 1);
			l->map_queued_n[z] = l->map_queued[z] ? m->zones[z].nr_blocks : 0;
		}
		if (!l->map_queued[z] || l->map_queued[z][b / 8] & (1u << (b % 8)))
			continue;
		if (l->map_dirty_n == FT_LIVE_MAP_DIRTY) {
			l->map_fb_missed++;
			continue;
		}
		l->map_queued[z][b / 8] |= (uint8_t)(1u << (b % 8));
		l->map_dirty[l->map_dirty_n++] = (struct ft_live_dirty){
			.zone = (uint32_t)z, .block = (uint32_t)b, .ts = f->ts, .poll = l->map_polls,
		};
	}
	l->map_fb_seen = ev->fb_head;
}

/* show_stacks (6.9+), as an OWNER input of its own; nothing before 6.9. */
static void owner_stacks(struct ft_live *l)
{
	char *rec = malloc(4 + FT_REC_OWNER_STACKS_TEXT + 1);
	uint32_t flags;
	bool cut;
	long n;

	if (!rec)
		return;
	n = ft_pown_stacks(l->procfs.rootfd, rec + 4, FT_REC_OWNER_STACKS_TEXT + 1, &cut);
	if (n >= 0) {
		flags = cut ? FT_OWNER_STACKS_CUT : 0;
		memcpy(rec, &flags, 4);
		emit(l, FT_RR_OWNER, FT_OWNER_STACKS, ft_now_ns(), rec, 4 + (size_t)n);
	}
	free(rec);
}

/* page_owner opened on first use; its state said as a SOURCE input. */
static int owner_open(struct ft_live *l)
{
	int32_t e;

	if (l->pown_state)
		return l->pown_state < 0 ? l->pown_state : 0;
	e = ft_pown_open(&l->pown, l->procfs.rootfd);
	l->pown_state = e ? e : 1;
	emit(l, FT_RR_SOURCE, FT_RS_OWNER, ft_now_ns(), &e, 4);
	if (e)
		ft_diag(FT_DIAG_INFO, "page owners: %s", ft_pown_strerror(e));
	else
		owner_stacks(l);	/* once when it opens; record's scans read it again each time */
	return e;
}

/* Read one block's page_owner and hand it to the session as an OWNER input. */
static int owner_look(struct ft_live *l, uint64_t pfn, uint32_t pages)
{
	struct ft_pown_look *k = &l->pown_look;
	uint8_t *rec;
	uint32_t flags = 0;
	int err = ft_pown_block(&l->pown, pfn, pages, k);

	if (err)
		return err;
	rec = malloc(FT_REC_OWNER_HDR + k->len);
	if (!rec)
		return -ENOMEM;
	memcpy(rec, &pfn, 8);
	memcpy(rec + 8, &pages, 4);
	memcpy(rec + 12, &k->entries, 4);
	memcpy(rec + 16, &k->other_pages, 8);
	memcpy(rec + 24, &k->cut, 4);
	memcpy(rec + 28, &flags, 4);
	if (k->len)
		memcpy(rec + FT_REC_OWNER_HDR, k->text, k->len);
	emit(l, FT_RR_OWNER, 0, ft_now_ns(), rec, FT_REC_OWNER_HDR + k->len);
	free(rec);
	return 0;
}

/* Looked at within FT_LIVE_OWNER_AGAIN: not worth another read yet. */
static bool owner_fresh(const struct ft_live *l, uint64_t pfn)
{
	const struct ft_owner_look *o = ft_session_owner(&l->session, pfn);

	return o && ft_now_ns() - o->t_ns < FT_LIVE_OWNER_AGAIN;
}

int ft_live_owner_want(struct ft_live *l, uint64_t pfn, uint32_t pages, bool cursor)
{
	size_t i;
	int err = owner_open(l);

	if (err)
		return err;
	if (owner_fresh(l, pfn))
		return 0;
	for (i = 0; i < l->pown_qn; i++)
		if (l->pown_q[i].pfn == pfn) {
			l->pown_q[i].cursor |= cursor;
			return 0;
		}
	if (l->pown_qn == FT_LIVE_OWNER_Q) {
		if (!cursor)
			return 0;	/* full: a fallback's block waits for another fallback */
		l->pown_qn--;		/* the cursor's goes in, the newest other one out */
	}
	if (cursor) {	/* first in line */
		memmove(l->pown_q + 1, l->pown_q, l->pown_qn * sizeof(*l->pown_q));
		i = 0;
	} else {
		i = l->pown_qn;
	}
	l->pown_q[i] = (struct ft_live_owner_q){ .pfn = pfn, .pages = pages, .cursor = cursor };
	l->pown_qn++;
	return 0;
}

int ft_live_owner_scan_mixed(struct ft_live *l, unsigned int max)
{
	const struct ft_pbmap *m = &l->session.map;
	unsigned int done = 0;
	uint64_t looked = 0, total = 0;
	bool opened = l->pown_state > 0;
	int err = owner_open(l);

	if (err)
		return err;
	if (opened)	/* else owner_open() just read it */
		owner_stacks(l);
	if (m->order < 0 || !m->nr)
		return 0;
	/* the blocks fallbacks named (the fragmenting ones among them): where pollution starts */
	{
		const struct ft_events *ev = &l->session.events;
		uint64_t h = l->pown_fb_seen;

		if (ev->fb_head - h > FT_EV_FB_RING)
			h = ev->fb_head - FT_EV_FB_RING;
		for (; h < ev->fb_head && done < max; h++) {
			uint64_t pfn = ev->fb_ring[h % FT_EV_FB_RING].pfn >> m->order << m->order;

			if (ft_pbmap_zone_of(m, pfn) < 0 || owner_fresh(l, pfn))
				continue;
			err = owner_look(l, pfn, 1u << m->order);
			if (err)
				return err;
			done++;
		}
		l->pown_fb_seen = h;
	}
	for (size_t z = 0; z < m->nr; z++)
		total += m->zones[z].nr_blocks;
	while (done < max && looked < total) {
		const struct ft_pbmap_zone *z;

		if (l->pown_zone >= m->nr) {
			l->pown_zone = 0;
			l->pown_block = 0;
		}
		z = &m->zones[l->pown_zone];
		if (l->pown_block >= z->nr_blocks) {
			l->pown_zone++;
			l->pown_block = 0;
			continue;
		}
		looked++;
		if (z->blocks[l->pown_block].cls == FT_PB_MIXED) {
			err = owner_look(l, (z->first_block + l->pown_block) << m->order, 1u << m->order);
			if (err)
				return err;
			done++;
		}
		l->pown_block++;
	}
	return (int)done;
}

/* The queued page_owner looks, within the map's budget (the cursor's may borrow); @c0 the poll's start. */
static void owner_poll(struct ft_live *l, uint64_t c0, double borrow)
{
	while (l->pown_qn && l->pown_state > 0) {
		struct ft_live_owner_q q = l->pown_q[0];
		double left = l->map_allow_ns - (double)(ft_thread_cpu_ns() - c0);
		int err;

		if (left <= (q.cursor ? -borrow : 0))
			break;
		memmove(l->pown_q, l->pown_q + 1, (l->pown_qn - 1) * sizeof(*l->pown_q));
		l->pown_qn--;
		if (owner_fresh(l, q.pfn))
			continue;
		err = owner_look(l, q.pfn, q.pages);
		if (err) {
			ft_diag(FT_DIAG_WARN, "page owners: %s", ft_pown_strerror(err));
			ft_pown_close(&l->pown);
			l->pown_state = err;
			emit(l, FT_RR_SOURCE, FT_RS_OWNER, ft_now_ns(), &(int32_t){ err }, 4);
			l->pown_qn = 0;
		}
	}
}

/* What the first look may run ahead of the budget, in ns of CPU. */
static double map_borrow_ns(const struct ft_live *l)
{
	return l->map_cpu * FT_LIVE_MAP_FIRST_S * 1e9;
}

int ft_live_map_wait_ms(const struct ft_live *l)
{
	if (!l->map_scan || l->map_err || l->session.map.order < 0 || !l->session.map.nr)
		return -1;
	if (l->map_allow_ns <= -map_borrow_ns(l))
		return -1;
	/* the first look, or a look at the cursor's page owners */
	if (!ft_kpf_first_look(&l->kpf, &l->session.map) && !(l->pown_qn && l->pown_q[0].cursor))
		return -1;
	return 0;
}

/*
 * The budget is CPU time: map_cpu of the wall time since the last poll
 * (at most a second's worth banked), less what fragtop spent meanwhile,
 * every thread (the ticks, drawing the map, the boost sampler), and less
 * what scans cost, measured on this thread (the kernel's work for
 * kpageflags, our classification, the session input and a recording's
 * write).  --map-cpu is fragtop's in all while the map is open; the scan
 * takes what the rest leaves, and never less than half of it.  It aims a
 * little under (FT_LIVE_MAP_AIM) so that what a window of a minute may
 * find banked at its start (up to a second's worth) does not take the
 * window past the budget.  The PFNs --map-rate allows this poll.
 */
static uint64_t map_budget(struct ft_live *l, uint64_t now)
{
	double aim = l->map_cpu * FT_LIVE_MAP_AIM;
	uint64_t c0, cap = UINT64_MAX;

	if (!l->map_last_ns)	/* a first second's worth right away: the first look */
		l->map_last_ns = now - 1000000000;
	c0 = ft_process_cpu_ns();
	if (l->map_proc_ns && c0 > l->map_proc_ns) {
		/*
		 * The rest is charged up to half the budget: the scan always
		 * keeps the other half, so a fragtop whose ticks cost more (a
		 * trace storm, a sanitizer's build) still paints its map
		 */
		double rest = (double)(c0 - l->map_proc_ns), half = aim * (double)(now - l->map_last_ns) / 2;

		l->map_allow_ns -= rest < half ? rest : half;
		l->map_other_ns += c0 - l->map_proc_ns;
	}
	l->map_allow_ns += aim * (double)(now - l->map_last_ns);
	if (l->map_rate)	/* --map-rate: a cap in PFNs per second too */
		cap = (uint64_t)((double)l->map_rate * (double)(now - l->map_last_ns) / 1e9) + 1;
	if (l->map_allow_ns > aim * 1e9)
		l->map_allow_ns = aim * 1e9;
	l->map_last_ns = now;
	return cap;
}

/*
 * The blocks fallbacks named, with up to three quarters of the budget.  A
 * burst may borrow up to three quarters of a second's budget ahead, so
 * the blocks a burst names are read within the tick; the pass pays it
 * back (it waits while the allowance is below zero).  The PFNs read are
 * added to *@pfns; the last scan's result (< 0: an error) is returned.
 */
static long map_dirty_pass(struct ft_live *l, uint64_t c0, uint64_t *pfns)
{
	const struct ft_pbmap *m = &l->session.map;
	size_t done = 0;
	long n = 0;

	while (done < l->map_dirty_n &&
	       (l->map_allow_ns + l->map_cpu * 1e9) * 0.75 - (double)(ft_thread_cpu_ns() - c0) > 0) {
		const struct ft_live_dirty *d = &l->map_dirty[done++];

		if (d->zone < FT_LIVE_MAP_ZONES && l->map_queued[d->zone] && d->block < l->map_queued_n[d->zone])
			l->map_queued[d->zone][d->block / 8] &= (uint8_t)~(1u << (d->block % 8));
		if (d->zone >= m->nr || d->block >= m->zones[d->zone].nr_blocks)
			continue;	/* laid out anew since */
		n = ft_kpf_scan_block(&l->kpf, m, d->zone, d->block);
		if (n < 0)
			break;
		*pfns += (uint64_t)n;
		/* a block a fallback left mixed: whose pages pin it, if page_owner says */
		if (l->pown_state > 0 && m->zones[d->zone].blocks[d->block].cls == FT_PB_MIXED)
			ft_live_owner_want(l, (m->zones[d->zone].first_block + d->block) << m->order,
					   1u << m->order, false);
		l->map_rescans++;
		l->map_rescans_deferred += d->poll != l->map_polls;
		if (d->ts && ft_now_ns() > d->ts) {
			uint64_t lag = ft_now_ns() - d->ts;

			if (lag > l->map_rescan_lag_max_ns)
				l->map_rescan_lag_max_ns = lag;
			l->map_rescans_late += lag > FT_LIVE_MAP_LATE;
		}
	}
	memmove(l->map_dirty, l->map_dirty + done, (l->map_dirty_n - done) * sizeof(*l->map_dirty));
	l->map_dirty_n -= done;
	return n;
}

bool ft_live_map_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns(), c0, c1, pfns = 0, cap, samples = l->kpf.samples;
	uint64_t looks = l->session.owner_src.looks;
	const struct ft_pbmap *m = &l->session.map;
	long n;

	if (!l->map_scan || l->map_err || m->order < 0 || !m->nr || l->kpf.rescanning)
		return false;	/* (a rescan's steps move the cursor now) */
	cap = map_budget(l, now);
	l->map_polls++;
	map_queue_fallbacks(l);
	c0 = ft_thread_cpu_ns();
	/* first the blocks fallbacks named, then round-robin */
	n = map_dirty_pass(l, c0, &pfns);
	owner_poll(l, c0, map_borrow_ns(l));
	for (;;) {
		uint64_t spent = ft_thread_cpu_ns() - c0;
		bool first = ft_kpf_first_look(&l->kpf, m);

		if (n < 0 || pfns >= cap)
			break;
		/* the first look borrows ahead, a slice a poll; the rest keeps to the budget */
		if (first ? spent >= FT_LIVE_MAP_SLICE_NS ||
			    l->map_allow_ns - (double)spent <= -map_borrow_ns(l) :
			    l->map_allow_ns - (double)spent <= 0)
			break;
		n = ft_kpf_scan(&l->kpf, m, 1);	/* one batch */
		if (n > 0)
			pfns += (uint64_t)n;
	}
	c1 = ft_thread_cpu_ns();
	l->map_allow_ns -= (double)(c1 - c0);
	l->map_scan_ns += c1 - c0;
	l->map_scan_pfns += pfns;
	l->map_proc_ns = ft_process_cpu_ns();	/* what comes after is the rest's */
	if (n < 0) {
		l->map_err = (int)n;
		emit_status(l, FT_RS_MAP, l->map_err);
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror((int)-n));
	}
	return l->kpf.samples != samples || l->session.owner_src.looks != looks;
}

void ft_live_map_focus(struct ft_live *l, size_t zone, uint32_t bpc)
{
	ft_kpf_focus(&l->kpf, zone, bpc);
}

int ft_live_map_rescan_begin(struct ft_live *l)
{
	if (!l->map_err)
		l->map_err = map_open(l);
	emit_status(l, FT_RS_MAP, l->map_err);
	if (l->map_err)
		return l->map_err;
	if (l->session.map.order < 0)
		return -ENODATA;
	ft_kpf_rescan_begin(&l->kpf, &l->session.map);
	l->rescan_steps = 0;
	return 0;
}

int ft_live_map_rescan_step(struct ft_live *l, uint64_t slice_ns)
{
	uint64_t t0 = ft_now_ns(), c0 = ft_thread_cpu_ns(), p0 = l->kpf.pfns;
	int r;

	if (!l->kpf.rescanning)
		return 1;
	r = ft_kpf_rescan_step(&l->kpf, &l->session.map, t0 + slice_ns);
	l->rescan_steps++;
	l->map_scan_ns += ft_thread_cpu_ns() - c0;
	l->map_scan_pfns += l->kpf.pfns - p0;
	if (r < 0) {
		l->map_err = r;
		emit_status(l, FT_RS_MAP, r);
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror(-r));
	}
	return r;
}

bool ft_live_map_rescanning(const struct ft_live *l)
{
	return l->kpf.rescanning;
}

int ft_live_map_scan_all(struct ft_live *l)
{
	int r = ft_live_map_rescan_begin(l);

	/* the same pass as R's, its steps with no deadline: one call */
	while (!r)
		r = ft_live_map_rescan_step(l, UINT64_MAX / 2);
	return r < 0 ? r : 0;
}

static void trace_drain(struct ft_live *l, uint64_t now);

int ft_live_tick(struct ft_live *l, bool force_pti)
{
	unsigned int mask = (1u << FT_SRC_ZONEINFO) | (1u << FT_SRC_BUDDYINFO) |
			    (1u << FT_SRC_VMSTAT);
	uint64_t now = ft_now_ns(), rt;
	struct ft_raw raw;
	const struct ft_sample *s = &l->session.sample;
	int i;

	if (force_pti || !l->pti_last_ns || now - l->pti_last_ns >= l->pti_interval_ns) {
		mask |= 1u << FT_SRC_PAGETYPEINFO;
		l->pti_last_ns = now;
	}
	ft_procfs_collect(&l->procfs, mask, &raw);
	for (i = 0; i < FT_SRC_NR; i++) {
		if (!raw.src[i].fresh)
			continue;
		if (raw.src[i].err)
			emit_err(l, FT_RR_PROC, (uint16_t)i, raw.t_ns, raw.src[i].err);
		else
			emit(l, FT_RR_PROC, (uint16_t)i, raw.t_ns, raw.src[i].buf, raw.src[i].len);
	}
	read_knobs(l, raw.t_ns);
	if (l->tracing)
		trace_drain(l, ft_now_ns());	/* events up to now belong to this tick */
	if (l->tracing) {
		uint64_t lost = lost_now(l);

		reap_pids(l);
		emit(l, FT_RR_TRACE_LOST, 0, raw.t_ns, &lost, sizeof(lost));
	}
	if (l->boost_on_trace && l->boost_hz)
		boost_read_on_trace(l, true);	/* every tick has its record */
	if (l->boost_hz) {
		uint8_t rec[2 + FT_BOOST_ZONES * 20];
		size_t n = 0;

		pthread_mutex_lock(&l->boost_lock);
		if (l->boost_acc.nr)
			n = ft_boost_encode(&l->boost_acc, rec, sizeof(rec));
		pthread_mutex_unlock(&l->boost_lock);
		if (n)
			emit(l, FT_RR_BOOST, 0, raw.t_ns, rec, n);
	}
	emit_source_tick(l, raw.t_ns);
	rt = ft_realtime_ns();
	emit(l, FT_RR_TICK, 0, raw.t_ns, &rt, sizeof(rt));
	ft_live_map_poll(l);
	return ft_sample_has(s, FT_SRC_ZONEINFO) ? 0 : s->err[FT_SRC_ZONEINFO];
}

/*
 * One read of every zone's boost, folded in with @weight (the full-rate
 * reads it stands for).  A boost seen keeps the sampler at the full rate.
 */
static void boost_read(struct ft_live *l, uint32_t weight)
{
	uint64_t t0 = ft_now_ns(), b[FT_BOOST_ZONES];
	bool any = false;
	int n, i;

	if (ft_file_read(&l->boost_file, l->procfs.rootfd))
		return;
	n = ft_boost_scan(l->boost_file.buf, l->boost_file.len, b, FT_BOOST_ZONES);
	for (i = 0; i < n; i++)
		any |= b[i] > 0;
	pthread_mutex_lock(&l->boost_lock);
	if (n > 0)
		ft_boost_acc_add(&l->boost_acc, b, n, weight);
	if (any)
		l->boost_hot_until = t0 + FT_LIVE_BOOST_HOT;
	l->boost_reads++;
	l->boost_ns += ft_now_ns() - t0;
	pthread_mutex_unlock(&l->boost_lock);
}

void ft_live_boost_heat(struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	pthread_mutex_lock(&l->boost_lock);
	if (now >= l->boost_hot_until)
		pthread_cond_signal(&l->boost_wake);	/* cold: wake it to the full rate */
	l->boost_hot_until = now + FT_LIVE_BOOST_HOT;
	pthread_mutex_unlock(&l->boost_lock);
}

static void *boost_main(void *arg)
{
	struct ft_live *l = arg;
	uint64_t period = 1000000000ull / l->boost_hz, next = ft_now_ns();
	uint32_t weight = 1;
	sigset_t all;

	/* signals are the main thread's: its loops wake on them */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		struct timespec ts;
		uint64_t now;
		bool hot;

		boost_read(l, weight);
		pthread_mutex_lock(&l->boost_lock);
		now = ft_now_ns();
		hot = now < l->boost_hot_until;
		weight = hot ? 1 : l->boost_slow;
		/* the next read on the cadence (missed ones skipped), slower while cold */
		next += (now >= next ? (now - next) / period + 1 : 1) * period;
		if (!hot)
			next += (l->boost_slow - 1) * period;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		while (!l->boost_stop &&
		       pthread_cond_timedwait(&l->boost_wake, &l->boost_lock, &ts) == 0 &&
		       ft_now_ns() >= l->boost_hot_until)
			;	/* a wake that did not heat it: keep sleeping */
		if (l->boost_stop) {
			pthread_mutex_unlock(&l->boost_lock);
			break;
		}
		if (ft_now_ns() < next) {	/* heated: the full rate from now, this read unweighted */
			next = ft_now_ns();
			weight = 1;
		}
		pthread_mutex_unlock(&l->boost_lock);
	}
	return NULL;
}

void ft_live_boost_set(struct ft_live *l, unsigned int hz)
{
	if (l->boost_running) {
		pthread_mutex_lock(&l->boost_lock);
		l->boost_stop = true;
		pthread_cond_signal(&l->boost_wake);
		pthread_mutex_unlock(&l->boost_lock);
		pthread_join(l->boost_thread, NULL);
		l->boost_running = false;
	}
	l->boost_hz = hz;
	l->boost_next_ns = ft_now_ns();
	pthread_mutex_lock(&l->boost_lock);
	memset(&l->boost_acc, 0, sizeof(l->boost_acc));
	pthread_mutex_unlock(&l->boost_lock);
	if (hz && l->boost_threaded) {
		l->boost_stop = false;
		if (!pthread_create(&l->boost_thread, NULL, boost_main, l))
			l->boost_running = true;
		else
			l->boost_threaded = false;	/* no thread: the loops poll */
	}
}

void ft_live_boost_on_trace(struct ft_live *l, unsigned int hz)
{
	ft_live_boost_set(l, 0);	/* no thread */
	l->boost_hz = hz;
	l->boost_on_trace = hz > 0;
	l->boost_last_ns = 0;
}

void ft_live_boost_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns(), period;

	if (!l->boost_hz || l->boost_running || l->boost_on_trace || now < l->boost_next_ns)
		return;
	period = 1000000000ull / l->boost_hz;
	/* the next read on the cadence; reads missed (a slow draw) are skipped */
	l->boost_next_ns += ((now - l->boost_next_ns) / period + 1) * period;
	boost_read(l, 1);
}

uint64_t ft_live_boost_wait_ns(const struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	if (!l->boost_hz || l->boost_running || l->boost_on_trace)
		return UINT64_MAX;
	return l->boost_next_ns > now ? l->boost_next_ns - now : 0;
}

/* The drain cadence: trace_every_ns when set, else busy or idle. */
static uint64_t trace_every(const struct ft_live *l)
{
	if (l->trace_every_ns)
		return l->trace_every_ns;
	return l->trace_busy ? FT_LIVE_TRACE_BUSY_NS : FT_LIVE_TRACE_IDLE_NS;
}

uint64_t ft_live_trace_wait_ns(const struct ft_live *l)
{
	uint64_t now = ft_now_ns(), due;

	if (!l->tracing)
		return UINT64_MAX;
	due = l->wait_trace_ns + trace_every(l);
	return due > now ? due - now : 0;
}

void ft_live_wait(struct ft_live *l, uint64_t until_ns)
{
	uint64_t now = ft_now_ns(), w;
	struct timespec ts;

	if (now >= until_ns)
		return;
	/* one slice: the caller looks at its stop flag between calls */
	w = until_ns - now;
	if (w > ft_live_boost_wait_ns(l))
		w = ft_live_boost_wait_ns(l);
	if (w > 100000000)
		w = 100000000;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)w;
	nanosleep(&ts, NULL);		/* a signal ends it early: fine */
	ft_live_boost_poll(l);
	ft_live_trace_maybe_poll(l);
}

/* A drain now, the cadence's clock restarted from it (the tick's drain counts as one). */
static void trace_drain(struct ft_live *l, uint64_t now)
{
	uint64_t pages = l->session.pages;

	ft_live_trace_poll(l);
	l->trace_busy = l->session.pages != pages;
	l->wait_trace_ns = now;
}

void ft_live_trace_maybe_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	if (now - l->wait_trace_ns < trace_every(l))
		return;
	trace_drain(l, now);
}

/* "system/event\n" (or "header_page\n") and the format text. */
static void emit_format(struct ft_live *l, int i, ft_input_fn fn, void *ctx)
{
	const struct ft_trace *t = &l->trace;
	char head[128], *buf;
	size_t hl;

	if (!t->text[i])
		return;
	if (i == FT_TRACE_HEADER)
		hl = (size_t)snprintf(head, sizeof(head), "header_page\n");
	else if (i == FT_TRACE_STACK)
		hl = (size_t)snprintf(head, sizeof(head), "ftrace/kernel_stack\n");
	else
		hl = (size_t)snprintf(head, sizeof(head), "%s/%s\n", ft_trace_events[i].system,
				      ft_trace_events[i].event);
	buf = malloc(hl + t->text_len[i]);
	if (!buf)
		return;
	memcpy(buf, head, hl);
	memcpy(buf + hl, t->text[i], t->text_len[i]);
	{
		struct ft_rec_record in = {
			.type = FT_RR_TRACE_FMT, .len = (uint32_t)(hl + t->text_len[i]),
			.t_ns = ft_now_ns(), .data = (const uint8_t *)buf,
		};

		if (fn)
			fn(ctx, &in);
		else
			emit(l, in.type, 0, in.t_ns, buf, in.len);
	}
	free(buf);
}

void ft_live_meta(struct ft_live *l, ft_input_fn fn, void *ctx)
{
	char host[2048];
	struct ft_rec_record in = {
		.type = FT_RR_HOST, .t_ns = ft_now_ns(), .data = (const uint8_t *)host,
	};
	int i;

	in.len = (uint32_t)host_text(l, host, sizeof(host));
	fn(ctx, &in);
	if (l->tracing) {
		for (i = FT_EV_NR; i >= 0; i--)	/* header_page first */
			emit_format(l, i, fn, ctx);
		emit_format(l, FT_TRACE_STACK, fn, ctx);	/* --stacks */
	}
	/* the frames named so far: a file of a series names its own */
	for (size_t k = 0; k < l->session.syms.nr; k++) {
		const struct ft_symname *sn = &l->session.syms.v[k];
		char rec[8 + FT_SYMNAME_LEN];
		size_t n = strlen(sn->name);

		memcpy(rec, &sn->addr, 8);
		memcpy(rec + 8, sn->name, n);
		in.type = FT_RR_KSYM;
		in.data = (const uint8_t *)rec;
		in.len = (uint32_t)(8 + n);
		fn(ctx, &in);
	}
	if (l->iomem) {
		in.type = FT_RR_IOMEM;
		in.data = (const uint8_t *)l->iomem;
		in.len = (uint32_t)l->iomem_len;
		fn(ctx, &in);
	}
}

int ft_live_stacks_start(struct ft_live *l, unsigned int per_sec)
{
	int order = l->session.events.pageblock_order;

	l->stacks_asked = true;
	if (!per_sec)
		per_sec = (unsigned int)strtoul(ft_live_stacks_per_sec_default, NULL, 10);
	l->stacks_per_sec = per_sec;
	l->ksyms_err = 1;
	if (!l->tracing)
		l->stacks_err = l->session.trace_err ? l->session.trace_err : -ENODEV;
	else
		l->stacks_err = ft_trace_stacks_on(&l->trace, order > 0 ? order : l->host.pmd_order,
						   l->stacks_per_sec);
	if (l->stacks_err) {
		if (l->tracing)
			ft_diag(FT_DIAG_WARN, "no kernel stacks: the stacktrace trigger: %s",
				strerror(-l->stacks_err));
	} else {
		emit_format(l, FT_TRACE_STACK, NULL, NULL);
		l->stacks_armed_ns = ft_now_ns();
	}
	emit_stacks_status(l, ft_now_ns());
	return l->stacks_err;
}

const char ft_live_stacks_per_sec_default[] = "10000";
const char ft_live_trace_kb_default[] = "8192";

size_t ft_live_trace_kb(void)
{
	return (size_t)strtoul(ft_live_trace_kb_default, NULL, 10);
}

int ft_live_trace_start(struct ft_live *l, size_t buffer_kb)
{
	int err, stale, i;

	if (!buffer_kb)
		buffer_kb = ft_live_trace_kb();
	if (strcmp(l->root, "/")) {
		emit_status(l, FT_RS_TRACE, -EXDEV);
		return -EXDEV;
	}
	stale = ft_trace_remove_stale();
	if (stale > 0)
		ft_diag(FT_DIAG_INFO, "removed %d tracefs instance%s left by a fragtop that died",
			stale, stale > 1 ? "s" : "");
	err = ft_trace_open(&l->trace, buffer_kb);
	if (err) {
		emit_status(l, FT_RS_TRACE, err);
		ft_diag(FT_DIAG_WARN, "no tracepoints: %s", ft_trace_strerror(err));
		return err;
	}
	l->tracing = true;
	pthread_mutex_lock(&l->boost_lock);
	l->boost_slow = FT_LIVE_BOOST_SLOW_TRACED;	/* traced fallbacks wake the sampler */
	pthread_mutex_unlock(&l->boost_lock);
	ft_procname_init(&l->procname, l->procfs.rootfd);
	for (i = FT_EV_NR; i >= 0; i--)		/* header_page first */
		emit_format(l, i, NULL, NULL);
	return 0;
}
