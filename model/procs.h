/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who fragments memory and who pays: per process, the fallbacks it caused
 * (all, fragmenting, ownership changes) and the stalls it sat in (direct
 * compaction, direct reclaim, the fragmentation stall: count and time).
 *
 * A row is a process: a pid under one command.  The command comes from
 * NAME inputs (the live source names a pid while it lives); a pid named
 * again with another command was reused, and starts a new row (the old
 * one is marked exited).  A row of a process that exited stays, marked,
 * so views can show it until it ages out.  When the table is full the row
 * idle the longest is folded into "other", so the rows and "other" always
 * add up to the totals.  Pure: events and names in, rows out.
 */
#ifndef FT_MODEL_PROCS_H
#define FT_MODEL_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cgroup.h"

#define FT_PROCS_MAX	1024
#define FT_PROCS_HASH	2048	/* power of two, > FT_PROCS_MAX */

enum ft_proc_col {		/* counters, and the columns a view sorts by */
	FT_PC_FRAGMENTING,	/* fallbacks below pageblock order */
	FT_PC_EXTFRAG,		/* every fallback */
	FT_PC_OWNERSHIP,	/* fallbacks that took the whole block */
	FT_PC_COMPACTION,	/* direct compactions ended */
	FT_PC_COMPACTION_US,
	FT_PC_RECLAIM,		/* direct reclaims ended */
	FT_PC_RECLAIM_US,
	FT_PC_FRAG_STALL,	/* fragmentation stalls (patched kernels) */
	FT_PC_FRAG_STALL_US,
	FT_PC_NR
};

/*
 * The per-process counters, one row each (the field registry for
 * processes): the key report's and the session's JSON use, the unit and a
 * sentence of help.  The JSON walks every row; the text table and the
 * processes view pick theirs by id.  `fragtop fields` prints them.
 */
struct ft_proc_field {
	const char *key;
	const char *unit;
	const char *help;
};

extern const struct ft_proc_field ft_proc_fields[FT_PC_NR];

struct ft_proc {
	/* a thread's id; in ft_procs_by_process()'s rows, the process's */
	int pid;
	/* its thread group (a GROUP input); 0: not known, its own */
	int tgid;
	/* ft_procs_by_process(): thread rows summed in it; else 1 */
	int threads;
	char comm[32];			/* "" until named */
	/* "" unless a CGROUP input said: its key (kernel/cgroup.h) */
	char cgroup[FT_CG_PATH];
	bool exited;
	uint64_t exited_ns;		/* input time of the exit, when exited */
	uint64_t last_ns;		/* trace time of its newest event */
	uint64_t born;			/* rows made before it: tells a reused row apart */
	uint64_t c[FT_PC_NR];
};

struct ft_procs {
	int nr;
	struct ft_proc p[FT_PROCS_MAX];
	int16_t hash[FT_PROCS_HASH];	/* pid -> row of its live process, -1 empty */
	uint64_t other[FT_PC_NR];	/* rows folded away when the table was full */
	uint64_t folded;		/* how many */
	uint64_t born;			/* rows ever made */
	/* NAME inputs with a command taken: 0, a source without names */
	uint64_t named;
	uint64_t cgrouped;		/* CGROUP inputs taken: 0, a source without cgroups */
};

void ft_procs_init(struct ft_procs *t);

/* Count @n of counter @col for @pid at trace time @ts (a new pid gets a row). */
void ft_procs_count(struct ft_procs *t, int pid, uint64_t ts, enum ft_proc_col col, uint64_t n);

/*
 * The row of @pid's live process at trace time @ts (a new pid gets one),
 * its last_ns brought up to @ts, to count several columns at one lookup;
 * NULL for a negative pid.
 */
struct ft_proc *ft_procs_row(struct ft_procs *t, int pid, uint64_t ts);

/*
 * @pid is @comm (a NAME input at @t_ns): names its row, or, when the row
 * has another command already, marks it exited and starts a new one.
 */
void ft_procs_name(struct ft_procs *t, int pid, const char *comm, uint64_t t_ns);

/*
 * Why a process row has no cgroup: one reason per row, so each
 * unattributed bucket has one name and one reason in every output.
 */
enum ft_cg_unread {
	FT_CGU_READ,		/* it has one */
	/* the source took no cgroup at all (an older recording, none mounted) */
	FT_CGU_NOT_RECORDED,
	FT_CGU_EXITED,		/* the process exited before its cgroup was read */
	/* it lives (or lived past its naming) and its cgroup was not read */
	FT_CGU_UNREAD,
	FT_CGU_NR
};

/* the buckets' names and reasons (also for static tables, as legends) */
#define FT_CGU_NOT_RECORDED_NAME	"(no cgroups)"
#define FT_CGU_NOT_RECORDED_WHY \
	"no cgroup was read: an older recording, or no cgroup hierarchy mounted"
#define FT_CGU_EXITED_NAME		"(exited unread)"
#define FT_CGU_EXITED_WHY		"the processes exited before fragtop read their cgroup"
#define FT_CGU_UNREAD_NAME		"(cgroup unread)"
#define FT_CGU_UNREAD_WHY \
	"alive, but /proc/PID/cgroup was not read (not yet, or unreadable)"

/* Why @p of table @t has no cgroup (FT_CGU_READ: it has one). */
enum ft_cg_unread ft_procs_cg_unread(const struct ft_procs *t, const struct ft_proc *p);

/* The bucket's name, the same in every output: "(exited unread)". */
extern const char *const ft_cg_unread_names[FT_CGU_NR];

/* The bucket's reason, a sentence. */
extern const char *const ft_cg_unread_reasons[FT_CGU_NR];

/*
 * The counts of process @tgid's rows (its threads' too, by their GROUP
 * inputs) into @out: fragtop's own footprint, given its pid.  Returns the
 * rows summed.
 */
int ft_procs_of_process(const struct ft_procs *t, int tgid, uint64_t out[FT_PC_NR]);

/* @frag fragmenting fallbacks as a share (0..1) of all @t's, "other" too; NAN when it has none. */
double ft_procs_frag_share(const struct ft_procs *t, uint64_t frag);

/* The cgroup of @pid's live process (a CGROUP input). */
void ft_procs_cgroup(struct ft_procs *t, int pid, const char *path);

/* @pid is a thread of process @tgid (a GROUP input, taken with its name). */
void ft_procs_group(struct ft_procs *t, int pid, int tgid);

/*
 * @in's thread rows summed by process into @out: one row per thread
 * group (pid = tgid; a thread whose group is not known is its own), its
 * command and cgroup the group leader's when it has a row (else the
 * first thread's), exited when every thread is, @threads the rows summed.
 * "other" and the fold count are @in's.
 */
void ft_procs_by_process(struct ft_procs *out, const struct ft_procs *in);

/* @pid exited (at input time @t_ns): its row is kept, marked. */
void ft_procs_exit(struct ft_procs *t, int pid, uint64_t t_ns);

/* The row of @pid's live process, or NULL. */
const struct ft_proc *ft_procs_find(const struct ft_procs *t, int pid);

/*
 * @last minus @first (an earlier state of the same table) into @out: each
 * row's counts since @first; a row @first had that was folded away since
 * is taken off "other" instead.
 */
void ft_procs_sub(struct ft_procs *out, const struct ft_procs *last, const struct ft_procs *first);

/* Filters for ft_procs_sorted(). */
struct ft_procs_filter {
	const char *comm;		/* substring of the command; NULL: any */
	bool hide_exited_before;	/* drop rows exited before @exited_before_ns */
	uint64_t exited_before_ns;
	bool active_only;		/* drop rows with no counts */
};

/*
 * Indexes of the rows passing @f, sorted by counter @col, most first
 * (ties: the smaller pid first), into @out (at most @max); returns how
 * many.
 */
int ft_procs_sorted(const struct ft_procs *t, enum ft_proc_col col, const struct ft_procs_filter *f,
		    int *out, int max);

#endif
