/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: what is wrong, why, and what to change, from the figures of a
 * window of a session (`fragtop doctor`, report, compare, the TUI's
 * findings view, the exporter's fragtop_finding_active).
 *
 * Two halves, so the rules can be tested without a recording:
 * - the input (struct ft_find_in): every figure a rule reads, by name
 *   (ft_find_figs: key, unit, help), NAN where the session cannot tell;
 *   ft_find_in_report() fills it from a report's window;
 * - the rules (ft_find_rules): one table, each row a name (the runbook's
 *   anchor, docs/runbook.md#NAME, and the exporter's rule label), a
 *   severity, its thresholds by name, the figures it cannot be judged
 *   without, two lines of explanation, where to look next, the action,
 *   its expected effect and where that expectation comes from.
 *
 * ft_find_eval() runs every rule: a rule whose figures the window lacks
 * is "not checked", with the figure it lacked; one that fires gives a
 * finding with the figures that raised it.  Pure: numbers in, findings out.
 */
#ifndef FT_ANALYSIS_FINDINGS_H
#define FT_ANALYSIS_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The figures rules read (ft_find_figs[] names them). */
enum ft_fx {
	FT_FX_SECS,			/* the window's length */
	FT_FX_FRAG,			/* fragmenting fallbacks (traced) */
	FT_FX_FRAG_S,			/* ... a second */
	FT_FX_BOOST_FACTOR,		/* watermark_boost_factor at the window's end */
	FT_FX_SCALE_FACTOR,		/* watermark_scale_factor */
	FT_FX_PROACTIVENESS,		/* compaction_proactiveness */
	FT_FX_THP_DEFRAG,		/* thp_defrag: enum ft_find_defrag */
	FT_FX_THP_FAULTS,		/* PMD-size THP faults tried (served and fallen back) */
	FT_FX_THP_FALLBACK_PCT,		/* of them, fallen back, % */
	FT_FX_FREE_PCT,			/* free memory, % of MemTotal, at the end */
	FT_FX_FREE_MB,
	FT_FX_IN_BLOCKS_PCT,		/* free memory in whole free pageblocks, % */
	FT_FX_DIRECT,			/* direct compaction stalls (traced) */
	FT_FX_DIRECT_P99_MS,		/* their p99 */
	FT_FX_DIRECT_MS,		/* their total time */
	FT_FX_KCOMPACTD_WAKES,
	FT_FX_BG_COMPACT,		/* background zone compactions (traced) */
	FT_FX_FUTILE_PCT,		/* direct migrate scanner's futile share, % */
	FT_FX_MIGRATE_SCANNED,		/* pages compaction's migrate scanner looked at (vmstat) */
	FT_FX_AMPLIFICATION,		/* pollution amplification (the map) */
	FT_FX_POLLUTED_PCT,		/* pageblocks holding an unmovable page, % (the map) */
	FT_FX_BOOSTED_PCT,		/* the sampler's reads that found a zone boosted, % */
	FT_FX_CEILING_PCT,		/* the highest zone's boost peak, % of its ceiling */
	FT_FX_MEMSTALL_PCT,		/* memory stall (PSI some) as a % of the window */
	FT_FX_COMPACT_SHARE_PCT,	/* direct compaction's traced time, % of that stall */
	FT_FX_ALLOC_FAILURES,		/* page allocation failures in the kernel log */
	FT_FX_ALLOC_FAIL_ORDER,		/* the largest order among them (-1: none) */
	FT_FX_MIN_FREE_KB,		/* min_free_kbytes at the window's end */
	/* sizes of interest judged on every node at the end (in->size) */
	FT_FX_SIZES,
	FT_FX_NR
};

/* thp_defrag's settings, as FT_FX_THP_DEFRAG holds them. */
enum ft_find_defrag {
	FT_DEFRAG_NEVER, FT_DEFRAG_DEFER, FT_DEFRAG_DEFER_MADVISE, FT_DEFRAG_MADVISE,
	FT_DEFRAG_ALWAYS,
};

struct ft_find_fig {
	const char *key;		/* JSON's evidence key */
	const char *unit;		/* "", "/s", "%", "ms", "MiB", "s" */
	const char *help;		/* one sentence */
	const char *needs;		/* what gives it, said when it is missing */
};
extern const struct ft_find_fig ft_find_figs[FT_FX_NR];

/* Who caused or paid something: a process or a cgroup and its share of the whole. */
struct ft_find_who {
	/* untrusted (a command, a cgroup path): escaped when shown */
	char name[160];
	int pid;			/* a process's; 0 for a cgroup */
	double pct;			/* of the window's total, % */
};

/* A size of interest on a node: how many blocks can be had now and after compaction. */
#define FT_FIND_SIZES	32
struct ft_find_size {
	int node;
	uint64_t kb;
	uint64_t need;			/* blocks wanted (1 unless asked) */
	bool asked;			/* a user named it (--need); else a size the host uses */
	uint64_t now_lo, now_hi, after_lo, after_hi;	/* hi UINT64_MAX: no bound known */
	bool after_known;		/* the map was read (else after_* mean nothing) */
	uint64_t free_cap;		/* blocks the free memory could hold at most (map or not) */
};

struct ft_find_in {
	double from_s, to_s;		/* the window, seconds from the session's first tick */
	double v[FT_FX_NR];		/* NAN: not known */
	/* who: fragmenting fallbacks, direct compaction's time (the most of each) */
	struct ft_find_who frag_proc, frag_cg, stall_proc, stall_cg;
	/* page_owner: the stack pinning most pages of mixed blocks ("" none) */
	char pinner[160];
	bool sizes_known;		/* the contiguity figures were had (zone files read) */
	int nr_sizes;
	struct ft_find_size size[FT_FIND_SIZES];
	/* the kernel has fragment_stall_order (the seeds' patch 4) */
	bool fragment_stall;
};

void ft_find_in_init(struct ft_find_in *in);

enum ft_find_sev { FT_SEV_INFO, FT_SEV_WARNING, FT_SEV_CRITICAL, FT_SEV_NR };
extern const char *const ft_find_sev_names[FT_SEV_NR];

#define FT_FIND_TH	4
#define FT_FIND_NEEDS	6
#define FT_FIND_EV	8

struct ft_finding;
struct ft_rule {
	const char *name;		/* the runbook anchor and the exporter's label */
	enum ft_find_sev sev;
	const char *title;		/* what is wrong, a line */
	const char *explain;		/* why it matters, two lines ("\n" between) */
	const char *look;		/* where to look next: view and key */
	const char *action;		/* what to change, in words */
	const char *effect;		/* the change's expected effect */
	const char *source;		/* where that expectation comes from */
	/* figures it cannot be judged without; ends at FT_FX_SECS after [0] */
	enum ft_fx needs[FT_FIND_NEEDS];
	int nr_needs;
	struct ft_find_th {
		const char *name;
		double v;
		const char *unit;
	} th[FT_FIND_TH];
	/* Fill @f (evidence, detail, knob) and return true when it fires. */
	bool (*fire)(const struct ft_find_in *in, const struct ft_rule *r, struct ft_finding *f);
};

#define FT_FIND_RULES	11
extern const struct ft_rule ft_find_rules[FT_FIND_RULES];

/* Rule @name, or NULL. */
const struct ft_rule *ft_find_rule(const char *name);

struct ft_finding {
	const struct ft_rule *rule;
	enum ft_find_sev sev;
	int nr_ev;
	enum ft_fx ev[FT_FIND_EV];	/* the figures that raised it (their values: the input's) */
	char detail[512];		/* what it is about, made from the figures */
	/* who caused or pays it: a cgroup, a process (name "": not known) */
	struct ft_find_who who[2];
	char knob[32], value[32];	/* the action's knob and value; "" none */
};

#define FT_FIND_MAX	FT_FIND_RULES
struct ft_findings {
	struct ft_find_in in;		/* what they were judged from */
	int nr;
	struct ft_finding f[FT_FIND_MAX];	/* most severe first, then table order */
	/* every rule: checked (its figures were there) or why not */
	bool checked[FT_FIND_RULES];
	bool fired[FT_FIND_RULES];
	enum ft_fx missing[FT_FIND_RULES];	/* !checked: the first figure it lacked */
};

/* Run every rule over @in (copied into @out). */
void ft_find_eval(const struct ft_find_in *in, struct ft_findings *out);

/* Threshold @name of @r (a programming error when absent: NAN). */
double ft_find_th(const struct ft_rule *r, const char *name);

/* The value of evidence figure @fx of @f's input. */
static inline double ft_find_value(const struct ft_findings *fs, enum ft_fx fx)
{
	return fs->in.v[fx];
}

/* Figure @fx of @in with its unit ("41.1/s", "62%", "15000", "n/a"), as every reader shows it. */
void ft_find_value_text(const struct ft_find_in *in, enum ft_fx fx, char *buf, size_t sz);

/* Is rule @k's finding active (fired) in @fs? */
bool ft_find_active(const struct ft_findings *fs, const char *name);

struct ft_report;
struct ft_fit_need;
struct ft_session;
struct ft_boost_tick;
struct ft_procs;
struct ft_cgrows;

/* The knobs the rules read, as at a window's end (NAN, false: not read). */
struct ft_find_knobs {
	double boost_factor, scale_factor, proactiveness, min_free_kb;
	double thp_defrag;		/* enum ft_find_defrag */
	bool thp_on;			/* thp_enabled is not "never" */
	bool fragment_stall;		/* the kernel has fragment_stall_order */
};
struct ft_knob_value;
/* @knobs: a session's (ft_knobs[] order). */
void ft_find_knobs_read(const struct ft_knob_value *knobs, struct ft_find_knobs *k);

/*
 * What a window's end gives alone (analysis/findings_in.c): the knobs @k,
 * and from @s's newest tick free memory and its share in whole blocks
 * from the zone files, the map's pollution (read whole).
 */
void ft_find_in_end(const struct ft_session *s, const struct ft_find_knobs *k,
		    struct ft_find_in *in);
/* The highest zone's boost peak of @zones (@nr, zoneinfo order), % of its ceiling at @s's end. */
double ft_find_ceiling_pct(const struct ft_session *s, const struct ft_boost_tick *zones, int nr,
			   double factor);
/*
 * Who fragmented most and who paid most for direct compaction: @t's processes, @rows' cgroups
 * (NULL: none).
 */
void ft_find_in_who(const struct ft_procs *t, const struct ft_cgrows *rows, struct ft_find_in *in);
/*
 * The sizes of interest at @s's end: the pageblock (PMD THP) while THP is
 * on (@thp_on), and the @nr_need needs asked, on every node.  0 or -ENOMEM.
 */
int ft_find_in_sizes(const struct ft_session *s, bool thp_on, const struct ft_fit_need *need,
		     size_t nr_need,
		     struct ft_find_in *in);
/*
 * The input from a report's window (its figures made, ft_report_by_process()
 * and ft_report_by_cgroup() done): the sizes of interest are the pageblock
 * (PMD THP) while THP is on, and the @nr_need needs asked (model/fit.h),
 * on every node, judged at the window's end.  0 or -ENOMEM.
 */
int ft_find_in_report(const struct ft_report *rep, const struct ft_fit_need *need, size_t nr_need,
		      struct ft_find_in *in);
/*
 * The rules judged over the report's window into rep->findings (owned by the report). 0 or -ENOMEM.
 */
int ft_report_findings(struct ft_report *rep, const struct ft_fit_need *need, size_t nr_need);

#endif
