/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `fragtop experiment` computes, apart from how it runs: the order
 * of its blocks (ABBA or random), the guard rails judged on the live
 * session tick by tick, and after the run each value's blocks measured
 * as compare measures runs (analysis/compare.h: a block is a window of
 * the one recording), Welch's test of every value against the baseline
 * and the recommendation (only at p < FT_CMP_ALPHA with no guard metric
 * worse).
 */
#ifndef FT_ANALYSIS_EXPERIMENT_H
#define FT_ANALYSIS_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/compare.h"
#include "model/hist.h"
#include "model/knob.h"
#include "model/session.h"

#define FT_EXP_VALUES	8		/* values tried at most */
#define FT_EXP_BLOCKS	FT_CMP_MAX_RUNS	/* blocks at most (values x rounds) */
#define FT_EXP_METRICS	8		/* metrics judged at most */

enum ft_exp_order { FT_EXP_ABBA, FT_EXP_RANDOM };
extern const char *const ft_exp_order_names[2];

/*
 * The value of each block: @nv values, @rounds rounds of every value
 * once.  ABBA: the rounds alternate forward and backward (A B B A A B
 * ...), so a linear drift of the host weighs on every value alike;
 * random: each round shuffled (xorshift from @seed).  The number of
 * blocks, or -1 when nv * rounds passes FT_EXP_BLOCKS.
 */
int ft_exp_schedule(int nv, int rounds, enum ft_exp_order order, uint64_t seed,
		    int out[FT_EXP_BLOCKS]);

/* The guard rails, checked after every tick; a limit NAN is off. */
enum ft_exp_guard {
	FT_EXP_G_PRESSURE,		/* the host's memory pressure, full avg10 %, at most */
	/* direct compaction p99 over the block so far, ms, at most */
	FT_EXP_G_STALL_P99,
	/* page allocation failures in the kernel log since the start, at most */
	FT_EXP_G_ALLOC_FAILURES,
	/* THP faults fallen back over the block so far, %, at most */
	FT_EXP_G_THP_FALLBACK,
	FT_EXP_G_NR
};
extern const char *const ft_exp_guard_names[FT_EXP_G_NR];
extern const double ft_exp_guard_defaults[FT_EXP_G_NR];

/* Below these, a block's p99 or fallback share is too few events to judge. */
#define FT_EXP_GUARD_MIN_STALLS	10
#define FT_EXP_GUARD_MIN_FAULTS	100

struct ft_exp_guards {
	double limit[FT_EXP_G_NR];
};

/* Where the guards count from: the start (failures) and the block's (the rest). */
struct ft_exp_guard_base {
	uint64_t kmsg_start;
	bool kmsg_known;
	struct ft_hist direct;
	int64_t thp_alloc, thp_fallback;
	uint32_t have;
};

/* At the experiment's start (@start) or a block's: the counts from here. */
void ft_exp_guard_begin(struct ft_exp_guard_base *b, const struct ft_session *s, bool start);

/*
 * The first guard @s breaches, with what it measured in @why; -1 when
 * none does (a guard without its input, or too few events, does not).
 */
int ft_exp_guard_check(const struct ft_exp_guards *g, const struct ft_exp_guard_base *b,
		       const struct ft_session *s,
		       char *why, size_t sz);

/*
 * Whether each guard can be judged on @s: 1 on, 0 off by the user (its
 * limit NAN), -1 off for want of its input, @why[g] saying which (PSI,
 * tracing, the kernel log, the THP counters).
 */
void ft_exp_guard_inputs(const struct ft_exp_guards *g, const struct ft_session *s,
			 int state[FT_EXP_G_NR],
			 const char *why[FT_EXP_G_NR]);

/*
 * A block of the recording: the value it ran with, and its window
 * (seconds from the first tick).  A void block is left out of the test:
 * the knob was seen at another value during it (written by someone
 * else, and written back), or it was cut short by the experiment's stop.
 */
struct ft_exp_block {
	int value;
	double from_s, to_s;
	bool voided;
	char why[160];			/* why it is void: who wrote what, when */
};

/*
 * The rule a block is kept or voided by, said in every output: a block
 * counts only when the knob held the block's value at every tick of it,
 * and it ran its whole period.
 */
#define FT_EXP_VOID_RULE \
	"a block counts only if the knob read its value at every tick and the block ran its " \
	"whole period"

/*
 * An experiment's recording as it ran: its knob, the original value,
 * the values in the order they first ran, its blocks (from the
 * recording's own changes of the knob: each block from its set to the
 * next), each voided by FT_EXP_VOID_RULE: a change of the knob seen from
 * outside within it (the watch of model/knobwatch.h, who made it when
 * the change journal says), a re-assertion of the block's value, or a
 * period shorter than the plan's (the plan: the experiment's PLAN note).
 * Live and `--judge` both take their blocks from here, so both verdicts
 * are one.  0, or -1 after saying why (@why).
 */
#define FT_EXP_PLAN_HOW	"plan"
struct ft_exp_run {
	char knob[64];
	char orig[64];
	int nv;
	char val[FT_EXP_VALUES][64];
	int nb;				/* blocks, void ones included */
	struct ft_exp_block blocks[FT_EXP_BLOCKS];
	int sched[FT_EXP_BLOCKS];
	double period;			/* the plan's; NAN in a recording without one */
	char last[64];			/* the value the last change left */
};
int ft_exp_run_of(const char *file, const char *knob, struct ft_exp_run *out, char *why, size_t sz);

/*
 * Is a lower value of compare row @r the better one (fallbacks, stalls)? False for shares of
 * success.
 */
bool ft_exp_lower_better(int r);

/* A compare row by its key ("extfrag_fragmenting_per_s"), or -1. */
int ft_exp_metric(const char *key);

struct ft_exp_result {
	int nv, nm;
	int metric[FT_EXP_METRICS];	/* compare rows judged */
	/* the value the others are tested against (the knob's own, else the first) */
	int base;
	/* per value: its blocks as runs, their statistics */
	struct ft_cmp_group g[FT_EXP_VALUES];
	/* Welch's p against the base; NAN for the base */
	double p[FT_EXP_VALUES][FT_EXP_METRICS];
	double change[FT_EXP_VALUES][FT_EXP_METRICS];	/* % against the base */
	/* the guard metrics (compare rows) of each value against the base: worse at p < alpha */
	bool guard_worse[FT_EXP_VALUES];
	char guard_why[FT_EXP_VALUES][160];
	int recommend;			/* the value recommended, -1: none */
	char why[256];			/* why it is recommended, or why none is */
};

/*
 * Measure @nb blocks of @file (each a window, compare's metrics), group
 * them by value (@names[nv]) and judge: every other value against @base
 * on each of @nm metrics, the guard metrics, the recommendation.  0, or
 * -1 after a report said why.
 */
int ft_exp_judge(const char *file, const struct ft_exp_block *b, int nb, const char *const *names,
		 int nv, int base,
		 const int *metrics, int nm, struct ft_exp_result *out);
void ft_exp_release(struct ft_exp_result *r);

/*
 * What an experiment did, as its renderers (render/experiment.c) print it
 * beside its result: the knob and its values, the order and the blocks
 * run, the guards that judged it and how it ended.  The command's own
 * state (cmd/experiment.c) embeds it.
 */
struct ft_exp_outcome {
	const struct ft_knob *knob;
	char orig[FT_KNOB_TEXT];
	int nv, base, nb, sched[FT_EXP_BLOCKS];
	char val[FT_EXP_VALUES][FT_KNOB_TEXT];
	uint64_t seed;
	enum ft_exp_order order;
	double period;				/* a block's length, s */
	struct ft_exp_guards guards;
	/* a live run (not --judge); the knob put back; every block run */
	bool started, restored, ended_all;
	struct ft_exp_block blocks[FT_EXP_BLOCKS];
	int done;				/* blocks finished */
	int breach;				/* the guard breached, -1 none */
	char breach_why[512];
	double breach_t;
	char restore_msg[256];
	int gstate[FT_EXP_G_NR];		/* each guard: 1 on, 0 off (asked), -1 no input */
	const char *gwhy[FT_EXP_G_NR];
	/* writes of the knob by someone else, seen and undone */
	int disturbed;
};

#endif
