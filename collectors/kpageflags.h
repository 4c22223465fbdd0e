/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads /proc/kpageflags (and /proc/kpagecount where a page has no flag)
 * under the root into the pageblock map, a slice per call: the kernel
 * spends ~58-120 ns per PFN producing these words, a whole 24 GiB host
 * ~0.4-0.8 s and a 1 TiB one ~30 s, so the live view scans a budget of
 * PFNs per tick, and a full pass on demand.
 *
 * The order is coarse to fine, so a first screen paints at once whatever
 * the zone's size: first a sample of one block in every screen cell of
 * the zone a view shows (ft_kpf_focus()), then a sample of every 8th
 * block of every zone in an order that spreads them evenly from the start
 * (bit-reversed block indices), then whole passes, round-robin over the
 * zones.  A sample reads FT_PB_SAMPLE_WORDS pages of a block (2 runs of
 * 16, ~6 us here against ~30-60 us for the whole block); a whole read
 * replaces it.
 *
 * Ownership: struct ft_kpf owns its fds and batch buffers; the map is the
 * caller's.
 */
#ifndef FT_COLLECTORS_KPAGEFLAGS_H
#define FT_COLLECTORS_KPAGEFLAGS_H

#include <stdint.h>

#include "model/pageblock.h"

/* Pageblocks per pread: 64 blocks of 512 pages are 256 KiB of flags. */
#define FT_KPF_BATCH_BLOCKS	64

struct ft_kpf {
	int flags_fd, count_fd;		/* -1 when absent */
	int err;			/* why flags_fd is -1 (0 if open) */
	uint64_t *flags, *counts;	/* one batch */
	size_t cap;			/* words */
	size_t zone;			/* cursor: zone index ... */
	uint32_t block;			/* ... and block within it */
	uint64_t pfns;			/* PFNs read, ever */
	uint64_t count_reads;		/* runs of flagless pages read from kpagecount */
	bool rescan;			/* the batch being emitted is a block out of turn */
	/* the batch being emitted is a sample (FT_PB_SAMPLE_SPOTS runs) */
	bool sampling;
	/* a whole pass over every zone, a step at a time (ft_kpf_rescan_begin()) */
	bool rescanning;
	size_t rescan_zone;		/* the zone being read whole ... */
	uint64_t rescan_scans;		/* ... and its pass count when it began */
	uint64_t samples;		/* samples read, ever */
	/* the coarse first look */
	size_t focus;			/* the zone a view shows */
	uint32_t focus_bpc;		/* its blocks per screen cell; 0: no view said */
	uint32_t focus_next;		/* the next of its cells to sample */
	uint64_t focus_epoch;		/* the zone's epoch focus_next counts in */
	struct ft_kpf_coarse {
		uint64_t epoch;		/* the zone's epoch r counts in */
		uint64_t r;		/* next bit-reversed index */
	} *coarse;
	size_t coarse_n;
	/*
	 * Handed every batch as read (required: a scan without it is
	 * -EINVAL).  The scanner reads the map's layout only; the live source
	 * makes each batch a KPF input, which feeds the session's map.
	 */
	void (*emit)(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *flags,
		     const uint64_t *counts);
	void *emit_ctx;
};

/* Open the files under @rootfd.  0 or -errno (also in k->err). */
int ft_kpf_open(struct ft_kpf *k, int rootfd);
void ft_kpf_close(struct ft_kpf *k);

/*
 * Scan about @budget PFNs (whole batches of samples or of blocks) in the
 * order above, wrapping over the zones.  Returns the PFNs read, or
 * -errno (a short file, an I/O error) after which the cursor stays where
 * it was.
 */
long ft_kpf_scan(struct ft_kpf *k, const struct ft_pbmap *m, uint64_t budget);

/*
 * The first look is under way: cells of the zone on screen (the last
 * ft_kpf_focus()) have not had their sample yet.
 */
bool ft_kpf_first_look(const struct ft_kpf *k, const struct ft_pbmap *m);

/*
 * Scan pageblock @block of zone @zone now (a block a fallback named),
 * without moving the cursor.  PFNs read or -errno.
 */
long ft_kpf_scan_block(struct ft_kpf *k, const struct ft_pbmap *m, size_t zone, uint32_t block);

/*
 * A view shows zone @zone at @bpc blocks per cell: sample a block of each
 * of its cells before anything else but the blocks fallbacks named.
 */
void ft_kpf_focus(struct ft_kpf *k, size_t zone, uint32_t bpc);

/* Scan every zone once from the start.  0 or -errno. */
int ft_kpf_scan_all(struct ft_kpf *k, const struct ft_pbmap *m);

/*
 * The same pass a step at a time, so that a TUI reads its keys between
 * steps ('R' froze input for most of a second): begin puts the cursor at
 * the start; each step reads batches until CLOCK_MONOTONIC reaches
 * @until_ns or the pass is done.  A step returns 0 (more to do), 1 (done,
 * k->rescanning false) or -errno.  Other scans must wait while
 * k->rescanning: they would move the cursor.
 */
void ft_kpf_rescan_begin(struct ft_kpf *k, const struct ft_pbmap *m);
int ft_kpf_rescan_step(struct ft_kpf *k, const struct ft_pbmap *m, uint64_t until_ns);

#endif
