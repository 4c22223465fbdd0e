// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "base/zero.h"
#include "controls/expstate.h"
#include "controls/journal.h"

#define MAX_KNOBS (int)(sizeof(((struct ft_ctl *)0)->orig) / sizeof(((struct ft_ctl *)0)->orig[0]))

const char *const ft_ctl_outcome_names[] = {
	[FT_CTL_OK] = "ok",
	[FT_CTL_INVALID] = "invalid",
	[FT_CTL_READ_ONLY] = "read-only",
	[FT_CTL_ABSENT] = "absent",
	[FT_CTL_DENIED] = "denied",
	[FT_CTL_REJECTED] = "rejected",
	[FT_CTL_MISMATCH] = "mismatch",
	[FT_CTL_FAILED] = "failed",
};

const char *const ft_ctl_how_names[] = {
	[FT_CTL_SET] = "set",
	[FT_CTL_STEP] = "step",
	[FT_CTL_UNDO] = "undo",
	[FT_CTL_RESTORE] = "restore",
	[FT_CTL_REASSERT] = "reassert",
};

int ft_ctl_read(int rootfd, const struct ft_knob *k, struct ft_knob_value *v)
{
	char buf[sizeof(v->raw) + 1];
	long n;

	memset(v, 0, sizeof(*v));
	if (k->type == FT_KNOB_TRIGGER || k->per_node)
		return v->err = -EOPNOTSUPP;
	n = ft_file_slurp(rootfd, k->path, buf, sizeof(buf));
	if (n < 0)
		return v->err = (int)n;
	return ft_knob_parse(k, buf, (size_t)n, v);
}

static int knob_write(int rootfd, const struct ft_knob *k, int node, const char *canon)
{
	char path[256], line[FT_KNOB_TEXT + 2];
	size_t len;
	ssize_t n;
	int fd, err = 0;

	ft_knob_path(k, node, path, sizeof(path));
	len = (size_t)snprintf(line, sizeof(line), "%s\n", canon);
	if (len >= sizeof(line))
		return -ENAMETOOLONG;
	/* O_TRUNC: sysctl and sysfs ignore it; a captured tree needs it. */
	/* never through a symbolic link of a tree, never into a FIFO */
	fd = ft_open_under(rootfd, path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err && errno != EINTR)
		err = -errno;
	return err;
}

int ft_audit_text(const struct ft_audit *a, char *buf, size_t sz)
{
	return snprintf(buf, sz,
			"seq=%llu\nt_ns=%lld\nuid=%u\nloginuid=%u\nhow=%s\noutcome=%s\nerr=%d\n"
			"knob=%s\nnode=%d\nold=%s\nnew=%s\nreadback=%s\nmsg=%s\nby=%s\n",
			(unsigned long long)a->seq, (long long)a->t_ns, a->uid, a->loginuid,
			ft_ctl_how_names[a->how], ft_ctl_outcome_names[a->outcome], a->err, a->knob,
			a->node, a->old, a->new, a->readback, a->msg, a->by);
}

static uint32_t loginuid(void)
{
	static uint32_t cached;
	static bool done;
	char buf[32] = "";
	FILE *f;

	if (done)
		return cached;
	done = true;
	cached = UINT32_MAX;
	f = fopen("/proc/self/loginuid", "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			cached = (uint32_t)strtoul(buf, NULL, 10);
		fclose(f);
	}
	return cached;
}

void ft_ctl_init(struct ft_ctl *c, int rootfd, const char *why_read_only)
{
	ft_zero(c, sizeof(*c));	/* the audit ring fills as knobs change */
	c->rootfd = rootfd;
	c->read_only = why_read_only != NULL;
	c->read_only_why = why_read_only;
}

/* @s for a log line: control characters (a newline would forge a line) as '?'. */
static const char *log_safe(const char *s, char *buf, size_t sz)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < sz; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

/* One line in the system log per control change, whatever its outcome. */
static void log_entry(const struct ft_audit *a)
{
	static bool opened;
	char k[80], o[80], n[80], m[200];

	if (!opened) {
		openlog("fragtop", LOG_PID, LOG_AUTHPRIV);
		opened = true;
	}
	syslog(a->outcome == FT_CTL_OK ? LOG_NOTICE : LOG_WARNING,
	       "uid=%u loginuid=%u %s %s: %s -> %s: %s (%s)", a->uid, a->loginuid,
	       ft_ctl_how_names[a->how],
	       log_safe(a->knob, k, sizeof(k)), a->old[0] ? log_safe(a->old, o, sizeof(o)) : "?",
	       log_safe(a->new, n, sizeof(n)), ft_ctl_outcome_names[a->outcome],
	       log_safe(a->msg, m, sizeof(m)));
}

static struct ft_audit *audit_new(struct ft_ctl *c, const char *knob, enum ft_ctl_how how)
{
	struct ft_audit *a = &c->audit[c->audit_nr % FT_CTL_AUDIT_MAX];
	struct timespec ts;

	memset(a, 0, sizeof(*a));
	a->seq = ++c->audit_nr;
	clock_gettime(CLOCK_REALTIME, &ts);
	a->t_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	a->uid = (uint32_t)getuid();
	a->loginuid = loginuid();
	a->how = how;
	a->node = -1;
	snprintf(a->knob, sizeof(a->knob), "%s", knob);
	snprintf(a->by, sizeof(a->by), "%s", c->by ? c->by : "");
	return a;
}

static const struct ft_audit *audit_done(struct ft_ctl *c, struct ft_audit *a,
					 enum ft_ctl_outcome o, int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static const struct ft_audit *audit_done(struct ft_ctl *c, struct ft_audit *a,
					 enum ft_ctl_outcome o, int err, const char *fmt, ...)
{
	va_list ap;

	a->outcome = o;
	a->err = err;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
	if (c->syslog)
		log_entry(a);
	if (c->hook)
		c->hook(c->hook_ctx, a);
	return a;
}

static enum ft_ctl_outcome errno_outcome(int err)
{
	switch (-err) {
	case ENOENT:
		return FT_CTL_ABSENT;
	case EACCES:
	case EPERM:
	case EROFS:
		return FT_CTL_DENIED;
	case EINVAL:
	case ERANGE:
	case EBUSY:
		return FT_CTL_REJECTED;
	}
	return FT_CTL_FAILED;
}

/* Every write of a value goes through here: the real one, or a test's kernel. */
static int ctl_write(struct ft_ctl *c, const struct ft_knob *k, int node, const char *text)
{
	if (c->write)
		return c->write(c->write_ctx, c->rootfd, k, node, text);
	return knob_write(c->rootfd, k, node, text);
}

/* Does @v (just read) hold @canon? */
static bool reads_as(const struct ft_knob *k, const struct ft_knob_value *v, const char *canon)
{
	char now[FT_KNOB_TEXT];

	ft_knob_value_text(k, v, now, sizeof(now));
	return !v->err && !strcmp(now, canon);
}

static void remember(struct ft_ctl *c, const struct ft_knob *k, const char *old, const char *new)
{
	int idx = (int)(k - ft_knobs);

	if (!old[0] || !strcmp(old, new))
		return;
	if (idx >= 0 && idx < MAX_KNOBS && !c->orig[idx][0])
		snprintf(c->orig[idx], sizeof(c->orig[idx]), "%s", old);
	if (c->undo_nr == FT_CTL_UNDO_MAX) {
		memmove(&c->undo[0], &c->undo[1], sizeof(c->undo[0]) * (FT_CTL_UNDO_MAX - 1));
		c->undo_nr--;
	}
	c->undo[c->undo_nr].knob = k;
	snprintf(c->undo[c->undo_nr].old, FT_KNOB_TEXT, "%s", old);
	snprintf(c->undo[c->undo_nr].new, FT_KNOB_TEXT, "%s", new);
	c->undo_nr++;
}

/*
 * Write @canon (already valid) to @k, read it back and finish @a.  @note
 * is appended to the success message.
 */
static const struct ft_audit *apply(struct ft_ctl *c, struct ft_audit *a, const struct ft_knob *k,
				    int node, const char *canon, bool track, const char *note)
{
	struct ft_knob_value after;
	char why[96], raw[256] = "", path[256];
	int err, holder;

	snprintf(a->new, sizeof(a->new), "%s", canon);
	if (c->read_only)
		return audit_done(c, a, FT_CTL_READ_ONLY, 0, "%s: not set to %s: %s",
				  k->name, canon, c->read_only_why);
	if (k->type != FT_KNOB_TRIGGER && !c->experiment &&
	    ft_ctl_exp_busy(c->rootfd, k->name, &holder))
		return audit_done(c, a, FT_CTL_DENIED, -EBUSY,
				  "%s: not set to %s: an experiment (pid %d) is trying its values; "
				  "it puts the knob back when it ends (or stop it: kill %d)",
				  k->name,
				  canon, holder, holder);
	if (c->journal && k->type != FT_KNOB_TRIGGER)
		/* before the write: see journal.h */
		ft_ctl_journal(c->rootfd, c->by, k->name, a->old, canon);
	err = ctl_write(c, k, node, canon);
	if (err) {
		if (k->per_node && err == -ENOENT)
			return audit_done(c, a, FT_CTL_ABSENT, err, "%s: there is no node %d",
					  k->name, node);
		return audit_done(c, a, errno_outcome(err), err, "%s: %s %s: %s; nothing changed",
				  k->name,
				  k->type == FT_KNOB_TRIGGER ?
					  "cannot trigger with" : "cannot write",
				  canon, ft_knob_strerror(k, err, why, sizeof(why)));
	}
	if (k->type == FT_KNOB_TRIGGER) {
		if (k->per_node)
			return audit_done(c, a, FT_CTL_OK, 0, "%s: node %d triggered", k->name,
					  node);
		return audit_done(c, a, FT_CTL_OK, 0, "%s: triggered with %s", k->name, canon);
	}
	ft_ctl_read(c->rootfd, k, &after);
	ft_knob_path(k, node, path, sizeof(path));
	if (after.err)
		ft_file_slurp(c->rootfd, path, raw, sizeof(raw));
	if (!reads_as(k, &after, canon)) {
		if (after.err && !raw[0])
			snprintf(a->readback, sizeof(a->readback), "(unreadable)");
		else if (after.err)
			snprintf(a->readback, sizeof(a->readback), "%.*s", (int)strcspn(raw, "\n"),
				 raw);
		else
			ft_knob_value_text(k, &after, a->readback, sizeof(a->readback));
		/*
		 * The kernel took something other than what was asked: put the
		 * old value back rather than leave the knob in a state nobody
		 * chose.  Undo and restore (!track) do not go round again.
		 */
		if (track && a->old[0] && !ctl_write(c, k, node, a->old) &&
		    !ft_ctl_read(c->rootfd, k, &after) && reads_as(k, &after, a->old))
			return audit_done(c, a, FT_CTL_MISMATCH, 0,
					  "%s: wrote %s but it reads back %s; put back %s", k->name,
					  canon,
					  a->readback, a->old);
		if (track && !after.err)
			remember(c, k, a->old, a->readback);
		return audit_done(c, a, FT_CTL_MISMATCH, 0,
				  "%s: wrote %s but it reads back %s (was %s)", k->name, canon,
				  a->readback, a->old[0] ? a->old : "?");
	}
	snprintf(a->readback, sizeof(a->readback), "%s", canon);
	if (track)
		remember(c, k, a->old, canon);
	return audit_done(c, a, FT_CTL_OK, 0, "%s %s -> %s%s", k->name,
			  a->old[0] ? a->old : "?", canon, note ? note : "");
}

static const struct ft_audit *change(struct ft_ctl *c, const struct ft_knob *k, const char *value,
				     enum ft_ctl_how how)
{
	struct ft_audit *a = audit_new(c, k->name, how);
	struct ft_knob_value cur = { .err = -EOPNOTSUPP };
	char canon[FT_KNOB_TEXT], why[160];
	int node, err;

	if (k->type != FT_KNOB_TRIGGER) {
		ft_ctl_read(c->rootfd, k, &cur);
		ft_knob_value_text(k, &cur, a->old, sizeof(a->old));
	}
	snprintf(a->new, sizeof(a->new), "%s", value);
	err = ft_knob_validate(k, value, &cur, canon, &node, why, sizeof(why));
	a->node = node;
	if (err)
		return audit_done(c, a, FT_CTL_INVALID, err, "%s: %s; nothing changed", k->name,
				  why);
	if (cur.err == -ENOENT)
		return audit_done(c, a, FT_CTL_ABSENT, cur.err, "%s: %s; nothing changed", k->name,
				  ft_knob_strerror(k, cur.err, why, sizeof(why)));
	/* a value fragtop cannot read back is not one it writes blind (a FIFO, a link) */
	if (k->type != FT_KNOB_TRIGGER && cur.err && cur.err != -EOPNOTSUPP)
		return audit_done(c, a, errno_outcome(cur.err), cur.err,
				  "%s: cannot read the current value: %s; nothing changed", k->name,
				  ft_knob_strerror(k, cur.err, why, sizeof(why)));
	return apply(c, a, k, node, canon, true, NULL);
}

const struct ft_audit *ft_ctl_set_knob(struct ft_ctl *c, const struct ft_knob *k, const char *value)
{
	return change(c, k, value, FT_CTL_SET);
}

const struct ft_audit *ft_ctl_reassert(struct ft_ctl *c, const struct ft_knob *k, const char *value)
{
	return change(c, k, value, FT_CTL_REASSERT);
}

const struct ft_audit *ft_ctl_set(struct ft_ctl *c, const char *name, const char *value)
{
	const struct ft_knob *k = ft_knob_find(name);
	struct ft_audit *a;

	if (k)
		return change(c, k, value, FT_CTL_SET);
	a = audit_new(c, name, FT_CTL_SET);
	snprintf(a->new, sizeof(a->new), "%s", value);
	return audit_done(c, a, FT_CTL_INVALID, -ENOENT,
			  "unknown knob '%.40s' ('fragtop get' lists them); nothing changed", name);
}

const struct ft_audit *ft_ctl_step(struct ft_ctl *c, const struct ft_knob *k, int dir)
{
	struct ft_knob_value cur;
	struct ft_audit *a;
	char val[FT_KNOB_TEXT], why[96];
	int i;

	if (k->type == FT_KNOB_TRIGGER) {
		a = audit_new(c, k->name, FT_CTL_STEP);
		return audit_done(c, a, FT_CTL_INVALID, -EINVAL,
				  "%s is an action, not a value: it has no steps", k->name);
	}
	if (ft_ctl_read(c->rootfd, k, &cur)) {
		a = audit_new(c, k->name, FT_CTL_STEP);
		return audit_done(c, a, errno_outcome(cur.err), cur.err, "%s: cannot read it: %s",
				  k->name, ft_knob_strerror(k, cur.err, why, sizeof(why)));
	}
	if (k->type == FT_KNOB_INT) {
		int64_t v = cur.num;

		if (dir > 0)
			v = v > k->max - k->step ? k->max : v + k->step;
		else
			v = v < k->min + k->step ? k->min : v - k->step;
		/* land on multiples of the step, as a person would */
		if (v != k->min && v != k->max && v % k->step)
			v = dir > 0 ? v - v % k->step : v - v % k->step + k->step;
		if (v < k->min)
			v = k->min;
		if (v > k->max)
			v = k->max;
		if (v == cur.num) {
			a = audit_new(c, k->name, FT_CTL_STEP);
			snprintf(a->old, sizeof(a->old), "%lld", (long long)cur.num);
			return audit_done(c, a, FT_CTL_INVALID, -ERANGE,
					  "%s is already at its %s (%lld)",
					  k->name, dir > 0 ? "maximum" : "minimum",
					  (long long)cur.num);
		}
		snprintf(val, sizeof(val), "%lld", (long long)v);
	} else {
		i = cur.sel.selected + (dir > 0 ? 1 : -1);
		if (i < 0 || i >= cur.sel.nr_options) {
			a = audit_new(c, k->name, FT_CTL_STEP);
			ft_knob_value_text(k, &cur, a->old, sizeof(a->old));
			return audit_done(c, a, FT_CTL_INVALID, -ERANGE,
					  "%s is already at its %s option",
					  k->name, dir > 0 ? "last" : "first");
		}
		snprintf(val, sizeof(val), "%s", cur.sel.options[i]);
	}
	return change(c, k, val, FT_CTL_STEP);
}

/* Write back a value fragtop read from the kernel earlier (no validation). */
static const struct ft_audit *put_back(struct ft_ctl *c, const struct ft_knob *k, const char *val,
				       enum ft_ctl_how how, const char *expect)
{
	struct ft_audit *a = audit_new(c, k->name, how);
	struct ft_knob_value cur;
	char note[FT_KNOB_TEXT + 48] = "";

	if (!ft_ctl_read(c->rootfd, k, &cur))
		ft_knob_value_text(k, &cur, a->old, sizeof(a->old));
	if (expect && a->old[0] && strcmp(a->old, expect))
		snprintf(note, sizeof(note), " (it was changed outside fragtop from %s)", expect);
	return apply(c, a, k, -1, val, false, note);
}

const struct ft_audit *ft_ctl_undo(struct ft_ctl *c)
{
	struct ft_ctl_change *ch;
	const struct ft_audit *a;

	if (!c->undo_nr)
		return NULL;
	ch = &c->undo[c->undo_nr - 1];
	a = put_back(c, ch->knob, ch->old, FT_CTL_UNDO, ch->new);
	if (a->outcome == FT_CTL_OK || a->outcome == FT_CTL_MISMATCH)
		c->undo_nr--;
	return a;
}

int ft_ctl_restore_all(struct ft_ctl *c)
{
	int i, failed = 0;

	for (i = 0; i < MAX_KNOBS && (size_t)i < ft_knobs_nr; i++) {
		const struct ft_knob *k = &ft_knobs[i];
		struct ft_knob_value cur;
		char now[FT_KNOB_TEXT];
		const struct ft_audit *a;

		if (!c->orig[i][0])
			continue;
		if (!ft_ctl_read(c->rootfd, k, &cur)) {
			ft_knob_value_text(k, &cur, now, sizeof(now));
			if (!strcmp(now, c->orig[i]))
				continue;
		}
		a = put_back(c, k, c->orig[i], FT_CTL_RESTORE, NULL);
		if (a->outcome != FT_CTL_OK)
			failed++;
	}
	if (!failed)
		c->undo_nr = 0;
	return failed;
}

int ft_ctl_nr_changed(struct ft_ctl *c)
{
	int i, n = 0;

	for (i = 0; i < MAX_KNOBS && (size_t)i < ft_knobs_nr; i++) {
		struct ft_knob_value cur;
		char now[FT_KNOB_TEXT] = "";

		if (!c->orig[i][0])
			continue;
		if (!ft_ctl_read(c->rootfd, &ft_knobs[i], &cur))
			ft_knob_value_text(&ft_knobs[i], &cur, now, sizeof(now));
		if (strcmp(now, c->orig[i]))
			n++;
	}
	return n;
}

size_t ft_ctl_audit_kept(const struct ft_ctl *c)
{
	return c->audit_nr < FT_CTL_AUDIT_MAX ? (size_t)c->audit_nr : FT_CTL_AUDIT_MAX;
}

const struct ft_audit *ft_ctl_audit_get(const struct ft_ctl *c, size_t i)
{
	uint64_t first = c->audit_nr - ft_ctl_audit_kept(c);

	if (i >= ft_ctl_audit_kept(c))
		return NULL;
	return &c->audit[(first + i) % FT_CTL_AUDIT_MAX];
}

void ft_audit_format(const struct ft_audit *a, char *buf, size_t sz)
{
	time_t t = (time_t)(a->t_ns / 1000000000);
	char when[16] = "??:??:??", who[32];
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (a->loginuid != UINT32_MAX && a->loginuid != a->uid)
		snprintf(who, sizeof(who), "uid %u (login %u)", a->uid, a->loginuid);
	else
		snprintf(who, sizeof(who), "uid %u", a->uid);
	snprintf(buf, sz, "%s %s %-7s %-9s %s", when, who, ft_ctl_how_names[a->how],
		 ft_ctl_outcome_names[a->outcome], a->msg);
}
