/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Will it fit, for a session: model/fit.h's figures for every populated
 * zone at each size of interest, summed per node and for the host, built
 * once for every reader (preflight, the overview's sizes line, report,
 * compare, the exporter, the NFD features).
 *
 * The sizes of interest are the host's hugetlb sizes, its multi-size THP
 * sizes, the pageblock and any size a user names, each once, ascending.
 */
#ifndef FT_ANALYSIS_FITS_H
#define FT_ANALYSIS_FITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fit.h"
#include "model/session.h"

/* At most this many sizes at once: the exporter's series are bounded by it. */
#define FT_FITS_SIZES_MAX	16

/* Where a size comes from (bits). */
enum {
	FT_FITS_SRC_HUGETLB	= 1u << 0,
	FT_FITS_SRC_MTHP		= 1u << 1,
	FT_FITS_SRC_PAGEBLOCK	= 1u << 2,
	FT_FITS_SRC_ASKED	= 1u << 3,	/* a user named it */
	FT_FITS_SRC_HOST		= FT_FITS_SRC_HUGETLB | FT_FITS_SRC_MTHP |
		FT_FITS_SRC_PAGEBLOCK,
};

struct ft_fits_sizes {
	size_t nr;
	int order[FT_FITS_SIZES_MAX];
	unsigned int src[FT_FITS_SIZES_MAX];
};

/*
 * The sizes of @s's host that @which asks for (FT_FITS_SRC_* bits), and the
 * @n orders @asked; past FT_FITS_SIZES_MAX the host's smallest are left out
 * first (asked sizes always stay).  Returns how many.
 */
size_t ft_fits_sizes(const struct ft_session *s, unsigned int which, const int *asked, size_t n,
		       struct ft_fits_sizes *out);

struct ft_fits {
	struct ft_fits_sizes sizes;
	long page_size;
	size_t nr_zones, cap_zones;
	struct ft_fit *zone;		/* owned: nr_zones * sizes.nr, zone-major */
	size_t nr_nodes, cap_nodes;
	struct ft_fit *node;		/* owned: nr_nodes * sizes.nr, in node order */
	struct ft_fit host[FT_FITS_SIZES_MAX];
	bool map;			/* the map was read for some zone */
	/* the host's free memory alloc_contig_range() may migrate to (model/fit.h), pages */
	uint64_t contig_free_lo, contig_free_hi;
	uint64_t map_unread;		/* blocks of the zones used not read whole */
};

void ft_fits_init(struct ft_fits *t);
void ft_fits_release(struct ft_fits *t);

/*
 * Build @t from @s at @sizes; @map: use the pageblock map where it read
 * a zone (false: the free lists only, as the overview does).  0 or
 * -ENODATA (no zoneinfo or buddyinfo yet), -ENOMEM.
 */
int ft_fits_build(struct ft_fits *t, const struct ft_session *s, const struct ft_fits_sizes *sizes,
		       bool map);

/* The figures of size @k in zone @z, of node @n. */
static inline const struct ft_fit *ft_fits_at(const struct ft_fits *t, size_t z, size_t k)
{
	return &t->zone[z * t->sizes.nr + k];
}

static inline const struct ft_fit *ft_fits_node_at(const struct ft_fits *t, size_t n, size_t k)
{
	return &t->node[n * t->sizes.nr + k];
}

/* Index of node @node in @t, or -1. */
long ft_fits_node_index(const struct ft_fits *t, int node);

/* Index of size @order in @t, or -1. */
long ft_fits_size_index(const struct ft_fits *t, int order);

/* A need judged against the table: what was left for it, and the verdict. */
struct ft_fits_need {
	struct ft_fit_need need;
	long size;			/* its size's index in the table, or -1 */
	enum ft_fit_verdict verdict;
	struct ft_fit left;		/* what was left for it on the nodes it may use, summed */
};

/*
 * Judge @n needs together (ft_fit_needs_judge()) on node @node's zones, or
 * on every node's for -1.  A need whose size is not in the table is
 * UNKNOWN.  Returns the worst verdict.
 */
enum ft_fit_verdict ft_fits_judge(const struct ft_fits *t, int node,
				  const struct ft_fit_need *needs, size_t n,
				  struct ft_fits_need *out);

/*
 * A trend: each size's "now" (the host's lower figure) tick by tick, the
 * rate at which it falls (least squares over the last FT_FITS_TREND_LEN
 * ticks) and, at that rate, when it reaches a need.  An extrapolation:
 * the readers say so, with its window, and show nothing before
 * FT_FITS_TREND_MIN ticks over FT_FITS_TREND_MIN_S seconds.
 */
#define FT_FITS_TREND_LEN	120
#define FT_FITS_TREND_MIN	10
#define FT_FITS_TREND_MIN_S	30.0
struct ft_fits_trend {
	struct ft_fits_sizes sizes;	/* a change of sizes starts the trend again */
	size_t head, n;
	uint64_t t_ns[FT_FITS_TREND_LEN];
	uint64_t now[FT_FITS_TREND_LEN][FT_FITS_SIZES_MAX];
};

/* Add @t's host figures at @t_ns (a time not after the last: a seek, starts again). */
void ft_fits_trend_add(struct ft_fits_trend *tr, const struct ft_fits *t, uint64_t t_ns);

/*
 * Size @k's rate (blocks a second; < 0 falling) and the window it is over: false before enough
 * ticks.
 */
bool ft_fits_trend_rate(const struct ft_fits_trend *tr, size_t k, double *per_s, double *window_s);

/*
 * Seconds until @now blocks reach @count at @per_s: INFINITY when not falling, 0 when already
 * below.
 */
double ft_fits_trend_eta(uint64_t now, uint64_t count, double per_s);

/*
 * Who put block @pfn's pages there, as far as the session knows: the task
 * of the last fallback that named the block, its command and cgroup, and
 * the block's fallbacks; the first pinning allocation page_owner listed
 * for it.  Empty strings where nothing is known.
 */
struct ft_fits_who {
	uint32_t fallbacks;
	int pid;
	char comm[32];
	char cgroup[FT_CG_PATH];
	/* page_owner: "COMM pid P: FRAME" of the first pinning allocation */
	char owner[96];
};
void ft_fits_who(const struct ft_session *s, uint64_t pfn, struct ft_fits_who *w);

#endif
