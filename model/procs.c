// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/procs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/zero.h"

const struct ft_proc_field ft_proc_fields[FT_PC_NR] = {
	[FT_PC_FRAGMENTING] = { "fragmenting", "events",
		"Its fallbacks below pageblock order, the ones that mix pageblocks." },
	[FT_PC_EXTFRAG] = { "extfrag", "events",
			    "Its allocator fallbacks to another migratetype, all of them." },
	[FT_PC_OWNERSHIP] = { "ownership_changes", "events",
			      "Its fallbacks that took the whole pageblock over." },
	[FT_PC_COMPACTION] = { "compaction_stalls", "stalls",
			       "Direct compactions it stalled in, ended." },
	[FT_PC_COMPACTION_US] = { "compaction_us", "us", "Time it spent in them." },
	[FT_PC_RECLAIM] = { "reclaim_stalls", "stalls", "Direct reclaims it stalled in, ended." },
	[FT_PC_RECLAIM_US] = { "reclaim_us", "us", "Time it spent in them." },
	[FT_PC_FRAG_STALL] = { "fragmentation_stalls", "stalls",
		"Fragmentation stalls it took (kernels with the seeds' patch)." },
	[FT_PC_FRAG_STALL_US] = { "fragmentation_stall_us", "us", "Time it spent in them." },
};

void ft_procs_init(struct ft_procs *t)
{
	ft_zero(t, sizeof(*t));
	memset(t->hash, 0xff, sizeof(t->hash));
}

static unsigned int hslot(int pid)
{
	return ((unsigned int)pid * 2654435761u) & (FT_PROCS_HASH - 1);
}

/* Hash slot holding @pid's row, or the empty slot where it would go. */
static unsigned int lookup(const struct ft_procs *t, int pid)
{
	unsigned int h = hslot(pid);

	while (t->hash[h] >= 0 && t->p[t->hash[h]].pid != pid)
		h = (h + 1) & (FT_PROCS_HASH - 1);
	return h;
}

/* Take @pid out of the hash (backward-shift deletion keeps probes intact). */
static void unhash(struct ft_procs *t, int pid)
{
	unsigned int h = lookup(t, pid), j;

	if (t->hash[h] < 0)
		return;
	t->hash[h] = -1;
	for (j = (h + 1) & (FT_PROCS_HASH - 1); t->hash[j] >= 0;
	     j = (j + 1) & (FT_PROCS_HASH - 1)) {
		int16_t row = t->hash[j];
		unsigned int k;

		t->hash[j] = -1;
		k = lookup(t, t->p[row].pid);
		t->hash[k] = row;
	}
}

/* A free row: a new one, or the one idle the longest folded into "other". */
static int take_row(struct ft_procs *t)
{
	int i, victim = 0;

	if (t->nr < FT_PROCS_MAX)
		return t->nr++;
	for (i = 1; i < t->nr; i++) {
		const struct ft_proc *a = &t->p[i], *b = &t->p[victim];

		/* exited rows go first, then the one whose newest event is oldest */
		if (a->exited != b->exited ? a->exited : a->last_ns < b->last_ns)
			victim = i;
	}
	for (i = 0; i < FT_PC_NR; i++)
		t->other[i] += t->p[victim].c[i];
	t->folded++;
	if (!t->p[victim].exited)
		unhash(t, t->p[victim].pid);
	return victim;
}

static struct ft_proc *row_of(struct ft_procs *t, int pid, uint64_t ts)
{
	unsigned int h = lookup(t, pid);
	int r;

	if (t->hash[h] >= 0)
		return &t->p[t->hash[h]];
	r = take_row(t);
	memset(&t->p[r], 0, sizeof(t->p[r]));
	t->p[r].pid = pid;
	t->p[r].threads = 1;
	t->p[r].born = t->born++;
	t->p[r].last_ns = ts;
	t->hash[lookup(t, pid)] = (int16_t)r;
	return &t->p[r];
}

void ft_procs_count(struct ft_procs *t, int pid, uint64_t ts, enum ft_proc_col col, uint64_t n)
{
	struct ft_proc *p;

	if (pid < 0 || (unsigned int)col >= FT_PC_NR)
		return;
	p = row_of(t, pid, ts);
	p->c[col] += n;
	if (ts > p->last_ns)
		p->last_ns = ts;
}

struct ft_proc *ft_procs_row(struct ft_procs *t, int pid, uint64_t ts)
{
	struct ft_proc *p;

	if (pid < 0)
		return NULL;
	p = row_of(t, pid, ts);
	if (ts > p->last_ns)
		p->last_ns = ts;
	return p;
}

const struct ft_proc *ft_procs_find(const struct ft_procs *t, int pid)
{
	unsigned int h = lookup(t, pid);

	return t->hash[h] >= 0 ? &t->p[t->hash[h]] : NULL;
}

void ft_procs_cgroup(struct ft_procs *t, int pid, const char *path)
{
	unsigned int h = lookup(t, pid);

	t->cgrouped++;
	if (pid >= 0 && t->hash[h] >= 0)
		snprintf(t->p[t->hash[h]].cgroup, sizeof(t->p[0].cgroup), "%s", path);
}

int ft_procs_of_process(const struct ft_procs *t, int tgid, uint64_t out[FT_PC_NR])
{
	int i, k, n = 0;

	memset(out, 0, FT_PC_NR * sizeof(out[0]));
	for (i = 0; tgid > 0 && i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];

		if ((p->tgid > 0 ? p->tgid : p->pid) != tgid)
			continue;
		n++;
		for (k = 0; k < FT_PC_NR; k++)
			out[k] += p->c[k];
	}
	return n;
}

double ft_procs_frag_share(const struct ft_procs *t, uint64_t frag)
{
	uint64_t all = t->other[FT_PC_FRAGMENTING];
	int i;

	for (i = 0; i < t->nr; i++)
		all += t->p[i].c[FT_PC_FRAGMENTING];
	return all ? (double)frag / (double)all : NAN;
}

const char *const ft_cg_unread_names[FT_CGU_NR] = {
	[FT_CGU_READ] = "",
	[FT_CGU_NOT_RECORDED] = FT_CGU_NOT_RECORDED_NAME,
	[FT_CGU_EXITED] = FT_CGU_EXITED_NAME,
	[FT_CGU_UNREAD] = FT_CGU_UNREAD_NAME,
};

const char *const ft_cg_unread_reasons[FT_CGU_NR] = {
	[FT_CGU_READ] = "",
	[FT_CGU_NOT_RECORDED] = FT_CGU_NOT_RECORDED_WHY,
	[FT_CGU_EXITED] = FT_CGU_EXITED_WHY,
	[FT_CGU_UNREAD] = FT_CGU_UNREAD_WHY,
};

enum ft_cg_unread ft_procs_cg_unread(const struct ft_procs *t, const struct ft_proc *p)
{
	if (p->cgroup[0])
		return FT_CGU_READ;
	if (!t->cgrouped)
		return FT_CGU_NOT_RECORDED;
	return p->exited ? FT_CGU_EXITED : FT_CGU_UNREAD;
}

void ft_procs_group(struct ft_procs *t, int pid, int tgid)
{
	unsigned int h = lookup(t, pid);

	if (pid > 0 && tgid > 0 && t->hash[h] >= 0)
		t->p[t->hash[h]].tgid = tgid;
}

void ft_procs_by_process(struct ft_procs *out, const struct ft_procs *in)
{
	int i, k;

	ft_procs_init(out);
	memcpy(out->other, in->other, sizeof(out->other));
	out->folded = in->folded;
	out->born = in->born;
	out->named = in->named;
	out->cgrouped = in->cgrouped;
	for (i = 0; i < in->nr; i++) {
		const struct ft_proc *x = &in->p[i];
		int key = x->tgid > 0 ? x->tgid : x->pid;
		unsigned int h = lookup(out, key);
		struct ft_proc *g;

		if (out->hash[h] < 0) {
			g = &out->p[out->nr];
			*g = (struct ft_proc){ .pid = key, .tgid = key, .exited = true,
					       .born = x->born };
			out->hash[h] = (int16_t)out->nr++;
		} else {
			g = &out->p[out->hash[h]];
		}
		for (k = 0; k < FT_PC_NR; k++)
			g->c[k] += x->c[k];
		g->threads++;
		if (!x->exited)
			g->exited = false;
		if (x->exited && x->exited_ns > g->exited_ns)
			g->exited_ns = x->exited_ns;
		if (x->last_ns > g->last_ns)
			g->last_ns = x->last_ns;
		if (x->born < g->born)
			g->born = x->born;
		if (x->pid == key || !g->comm[0]) {	/* the leader names the process */
			if (x->comm[0])
				memcpy(g->comm, x->comm, sizeof(g->comm));
			if (x->cgroup[0])
				memcpy(g->cgroup, x->cgroup, sizeof(g->cgroup));
		} else if (x->cgroup[0] && !g->cgroup[0]) {
			/* a leader whose cgroup was not read: its threads share it */
			memcpy(g->cgroup, x->cgroup, sizeof(g->cgroup));
		}
	}
	for (i = 0; i < out->nr; i++)
		if (!out->p[i].exited)
			out->p[i].exited_ns = 0;
}

void ft_procs_exit(struct ft_procs *t, int pid, uint64_t t_ns)
{
	unsigned int h = lookup(t, pid);
	struct ft_proc *p;

	if (t->hash[h] < 0)
		return;
	p = &t->p[t->hash[h]];
	unhash(t, pid);
	p->exited = true;
	p->exited_ns = t_ns;
}

void ft_procs_name(struct ft_procs *t, int pid, const char *comm, uint64_t t_ns)
{
	unsigned int h = lookup(t, pid);
	struct ft_proc *p;

	if (pid < 0 || !comm[0])
		return;
	t->named++;
	if (t->hash[h] >= 0) {
		p = &t->p[t->hash[h]];
		if (!p->comm[0] || !strcmp(p->comm, comm)) {
			snprintf(p->comm, sizeof(p->comm), "%s", comm);
			return;
		}
		/* another command under this pid: the old process is gone */
		ft_procs_exit(t, pid, t_ns);
	}
	p = row_of(t, pid, 0);
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
}

void ft_procs_sub(struct ft_procs *out, const struct ft_procs *last, const struct ft_procs *first)
{
	int i, k;

	if (out != last)
		memcpy(out, last, sizeof(*out));
	for (i = 0; i < first->nr; i++) {
		const struct ft_proc *f = &first->p[i];
		uint64_t *c = i < out->nr && out->p[i].born == f->born ? out->p[i].c : out->other;

		for (k = 0; k < FT_PC_NR; k++)
			c[k] -= f->c[k];
	}
	for (k = 0; k < FT_PC_NR; k++)
		out->other[k] -= first->other[k];
}

struct sort_by {
	const struct ft_procs *t;
	enum ft_proc_col col;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_by *s = arg;
	const struct ft_proc *x = &s->t->p[*(const int *)a], *y = &s->t->p[*(const int *)b];

	if (x->c[s->col] != y->c[s->col])
		return x->c[s->col] > y->c[s->col] ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->exited - y->exited;
}

int ft_procs_sorted(const struct ft_procs *t, enum ft_proc_col col, const struct ft_procs_filter *f,
		    int *out, int max)
{
	struct sort_by by = { t, (unsigned int)col < FT_PC_NR ? col : FT_PC_FRAGMENTING };
	int idx[FT_PROCS_MAX];
	int i, k, n = 0;

	for (i = 0; i < t->nr; i++) {
		const struct ft_proc *p = &t->p[i];

		if (f && f->comm && f->comm[0] && !strstr(p->comm, f->comm))
			continue;
		if (f && f->hide_exited_before && p->exited && p->exited_ns < f->exited_before_ns)
			continue;
		if (f && f->active_only) {
			for (k = 0; k < FT_PC_NR && !p->c[k]; k++)
				;
			if (k == FT_PC_NR)
				continue;
		}
		idx[n++] = i;
	}
	qsort_r(idx, (size_t)n, sizeof(idx[0]), cmp_rows, &by);
	if (n > max)
		n = max;
	memcpy(out, idx, (size_t)n * sizeof(*out));
	return n;
}
