/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder: taps the inputs of a live source (model/session.h: each
 * tick's /proc bytes, knob files, trace sub-buffers, names, map batches)
 * and the controls' audit entries, and writes them to a recording
 * (model/RECORDING.md).  Used by `fragtop record` and the TUI's -w.
 *
 * Ownership: struct ft_recorder owns its writer; the live is borrowed and
 * must outlive ft_recorder_stop().
 */
#ifndef FT_COLLECTORS_RECORDER_H
#define FT_COLLECTORS_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/live.h"
#include "collectors/recwriter.h"

struct ft_recorder {
	struct ft_recw w;
	struct ft_live *live;
	bool open;
	uint64_t kpf_batches;
	int err;			/* first error; recording stopped */
	uint64_t ticks, pages, audits;	/* ticks offered (w.dropped_ticks of them lost) */
	char path[4096];
};

/*
 * Create @path (refused if it exists unless @overwrite), write the host
 * facts and install the taps on @l.  0 or -errno.
 */
int ft_recorder_start(struct ft_recorder *r, struct ft_live *l, const char *path, bool overwrite);
/* The same, the file @seq of series @id (record --dir). */
int ft_recorder_start_series(struct ft_recorder *r, struct ft_live *l, const char *path,
			     bool overwrite,
			     uint64_t id, uint32_t seq);

/*
 * Write what is pending, the index and END; remove the taps.  0 or
 * -errno; 0 too when a full disk stopped the recording (r->w.full) and
 * the file could be closed in the space kept for it (recwriter.h).
 */
int ft_recorder_stop(struct ft_recorder *r);

#endif
