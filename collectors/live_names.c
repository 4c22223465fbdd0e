// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's names of the tasks behind events: /proc while they live, saved_cmdlines after.
 */
#include "collectors/live_int.h"
#include "kernel/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/zero.h"
#include "model/cost.h"

static void emit_name(struct ft_live *l, int pid, const char *comm, uint16_t sub, uint64_t now)
{
	uint8_t rec[4 + 31];
	size_t n = strnlen(comm, 31);

	memcpy(rec, &(uint32_t){ (uint32_t)pid }, 4);
	memcpy(rec + 4, comm, n);
	ft_live_emit(l, FT_RR_NAME, sub, now, rec, 4 + n);
}

/* The cgroup of @pid from /proc/PID/cgroup (kernel/cgroup.h).  0 when found. */
static int read_cgroup(struct ft_live *l, int pid, char *out, size_t sz)
{
	char rel[48], buf[4096];
	long n;

	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	n = ft_file_slurp(l->procfs.rootfd, rel, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ENOENT;
	return ft_cgroup_of_proc(buf, (size_t)n, out, sz);
}

static void emit_group(struct ft_live *l, int pid, int tgid, uint64_t now)
{
	uint8_t g[8];

	memcpy(g, &(uint32_t){ (uint32_t)pid }, 4);
	memcpy(g + 4, &(uint32_t){ (uint32_t)tgid }, 4);
	ft_live_emit(l, FT_RR_GROUP, 0, now, g, 8);
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
	if (!l->names.saved_read) {
		char *buf;
		size_t len;

		l->names.saved_read = true;
		if (ft_tracefs_saved_cmdlines(&buf, &len) == 0) {
			ft_cmdlines_parse(buf, len, &l->names.saved);
			free(buf);
		} else {
			ft_cmdlines_release(&l->names.saved);
		}
	}
	return ft_cmdlines_find(&l->names.saved, pid);
}

/*
 * Name @pid, with its thread group (and leader) and cgroup; false if it is
 * gone (then named from saved_cmdlines when the tracer kept it).
 */
static bool name_one(struct ft_live *l, int pid, uint64_t now)
{
	const struct ft_procs *t = &l->session.events.procs;
	const char *comm = ft_procname_get(&l->names.proc, pid);
	char cg[FT_CG_PATH];
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
			const char *lc = ft_procname_get(&l->names.proc, tgid);

			if (strcmp(lc, "?")) {
				emit_name(l, tgid, lc, 0, now);
				emit_group(l, tgid, tgid, now);
			}
		}
	}
	if (!read_cgroup(l, pid, cg, sizeof(cg))) {
		uint8_t rec[4 + FT_CG_PATH - 1];
		/* the key whole (kernel/cgroup.h) */
		size_t len = strnlen(cg, FT_CG_PATH - 1);

		memcpy(rec, &(uint32_t){ (uint32_t)pid }, 4);
		memcpy(rec + 4, cg, len);
		ft_live_emit(l, FT_RR_CGROUP, 0, now, rec, 4 + len);
	}
	return true;
}

/*
 * fragtop's own threads: a GROUP input for each row that is one, known
 * without a file (tgkill's signal 0 to a thread of this process), so its
 * footprint sums them even when names are off (the exporter without
 * --collector.cgroups).
 */
static void name_own_threads(struct ft_live *l, uint64_t now)
{
	const struct ft_procs *t = &l->session.events.procs;
	int self = (int)getpid(), i;

	/*
	 * each row once, when new (rows are born in order): a task is a thread of ours or not for
	 * good
	 */
	for (i = 0; i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];

		if (p->born < l->names.own_probed || p->tgid || p->exited || p->pid <= 0)
			continue;
		if (p->pid == self || syscall(SYS_tgkill, self, p->pid, 0) == 0)
			emit_group(l, p->pid, self, now);
	}
	l->names.own_probed = t->born;
}

/*
 * Name the processes the events named, while they live: a NAME input for
 * every row without a command, with its thread group and cgroup.  One
 * already gone is named from saved_cmdlines if it can be, and said to
 * have exited.
 */
void ft_live_names_take(struct ft_live *l)
{
	const struct ft_session *s = &l->session;
	const struct ft_procs *t = &s->events.procs;
	uint64_t now = ft_now_ns();
	size_t k;
	int i, last = -1;

	if (l->names.off) {
		name_own_threads(l, now);
		return;
	}

	l->names.saved_read = false;
	for (i = 0; i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];

		if (p->comm[0] || p->exited || p->pid <= 0)	/* pid 0: the idle task */
			continue;
		if (!name_one(l, p->pid, now))
			emit_name(l, p->pid, "", FT_NAME_EXITED, now);
	}
	/* the tasks of records waiting for the tick (session.trq): named while they live */
	for (k = 0; k < s->trq.nr; k++) {
		int pid = s->trq.r[k].pid;

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
void ft_live_names_reap(struct ft_live *l)
{
	const struct ft_procs *t = &l->session.events.procs;
	uint64_t now = ft_now_ns();
	int i, pid;

	for (i = 0; i < t->nr; i++) {
		pid = t->p[i].pid;
		if (t->p[i].exited || pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		ft_procname_forget(&l->names.proc, pid);
		emit_name(l, pid, "", FT_NAME_EXITED, now);
	}
}

void ft_live_names_start(struct ft_live *l)
{
	ft_procname_init(&l->names.proc, l->procfs.rootfd);
	l->names.started = true;
}

void ft_live_names_free(struct ft_live *l)
{
	if (l->names.started)
		ft_procname_release(&l->names.proc);
	l->names.started = false;
	ft_cmdlines_release(&l->names.saved);
}
