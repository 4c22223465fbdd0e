/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Will it fit (model/fit.h, analysis/fits.h) as text and JSON: one
 * figure's members, the sizes table, and `fragtop preflight`'s answer.
 */
#ifndef FT_RENDER_FIT_H
#define FT_RENDER_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/fits.h"
#include "base/json.h"
#include "model/session.h"

/* A count or an interval: "1,734", "12-15", "12+" (no upper bound known); @buf returned. */
const char *ft_render_fit_range(uint64_t lo, uint64_t hi, char *buf, size_t sz);

/*
 * The members of figure @f in the current object: now, now_max,
 * after_compaction, after_compaction_max (null when unknown), exact and
 * the figures behind them; with @s, the blocking blocks with who put
 * their pages there (ft_fits_who()).
 */
void ft_render_fit_members(struct ft_json *j, const struct ft_fit *f, const struct ft_session *s);

/* "sources": where a size comes from (FT_FITS_SRC_* bits), an inline array. */
void ft_render_fit_sources(struct ft_json *j, unsigned int src);

/* "sizes": every size of @t, the host's, each node's and each zone's figures. */
void ft_render_fits_json(struct ft_json *j, const struct ft_fits *t, const struct ft_session *s);

/* The sizes table as text: a row per size and node, led by @indent. */
void ft_render_fits_text(FILE *f, const struct ft_fits *t, const char *indent);

/*
 * A node-feature-discovery feature file (NFD's local source,
 * /etc/kubernetes/node-feature-discovery/features.d/): an expiry-time
 * directive (@expiry, seconds since the epoch; 0: none), then
 * "<prefix>contiguous-<SIZE>-now=<N>" and "-after-compaction=<N>" for the
 * host, and "<prefix>node<N>.contiguous-..." per NUMA node when there are
 * several; the lower end of an interval; no after-compaction label without
 * the map.  @prefix ends in '.' or '/' (a label's namespace and name start).
 */
void ft_render_fits_nfd(FILE *f, const struct ft_fits *t, long expiry, const char *prefix);

/* `fragtop preflight`'s answer. */
struct ft_preflight {
	const struct ft_session *session;
	const struct ft_fits *fits;
	const char *root;
	int node;				/* -1: any node */
	const struct ft_fits_need *needs;	/* judged; NULL when none was given */
	size_t nr_needs;
	enum ft_fit_verdict verdict;		/* the exit code */
	const char *reason;			/* why it cannot tell, or NULL */
	const char *map_note;			/* why the map was not read, or NULL */
	/* --compact: asked, what the kernel was asked, and the needs before it */
	bool compact;
	const char *compact_msg;		/* refused, or what was done */
	const struct ft_fits_need *before;	/* the needs judged before compacting, or NULL */
	/*
	 * each need: judged as a hugetlb page, refused as one the host cannot give, and the words
	 */
	const bool *hugetlb, *refused;
	const char (*as_note)[192];
};

void ft_render_preflight_text(FILE *f, const struct ft_preflight *p);
void ft_render_preflight_json(FILE *f, const struct ft_preflight *p);

#endif
