// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/recorder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"

static void failed(struct ft_recorder *r, int err)
{
	if (r->err || !err)
		return;
	r->err = err;
	ft_diag(FT_DIAG_WARN, "recording to %s stopped: %s", r->path, strerror(-err));
}

/* After an error the writer refuses each record, counting the ticks lost (w.dropped_ticks). */
static void on_input(void *ctx, const struct ft_rec_record *in)
{
	struct ft_recorder *r = ctx;

	/*
	 * host facts, formats, iomem and stack names go to META chunks: a reader needs them first
	 */
	if (ft_rec_is_meta(in->type)) {
		failed(r, ft_recw_add_meta(&r->w, in->type, in->sub, in->t_ns, in->data, in->len));
		return;
	}
	failed(r, ft_recw_add(&r->w, in->type, in->sub, in->t_ns, in->data, in->len));
	if (in->type == FT_RR_TICK)
		r->ticks++;	/* every tick offered; w.dropped_ticks of them lost */
	if (r->err)
		return;
	switch (in->type) {
	case FT_RR_TICK:
		failed(r, ft_recw_tick(&r->w, ft_now_ns()));
		break;
	case FT_RR_TRACE_PAGE:
		r->pages++;
		break;
	case FT_RR_KPF:
		r->kpf_batches++;
		break;
	case FT_RR_AUDIT:
		/* a control change is what a reader looks for: do not sit on it */
		failed(r, ft_recw_push(&r->w));
		r->audits++;
		break;
	}
}

int ft_recorder_start(struct ft_recorder *r, struct ft_live *l, const char *path, bool overwrite)
{
	return ft_recorder_start_series(r, l, path, overwrite, 0, 0);
}

int ft_recorder_start_series(struct ft_recorder *r, struct ft_live *l, const char *path,
			     bool overwrite,
			     uint64_t id, uint32_t seq)
{
	int err;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	err = ft_recw_open_series(&r->w, path, overwrite, id, seq);
	if (err)
		return err;
	r->live = l;
	r->open = true;
	/* what the session already has: host facts, formats, iomem */
	ft_live_meta(l, on_input, r);
	err = r->err;
	if (!err)
		err = ft_recw_flush(&r->w);
	if (err) {
		ft_recw_abandon(&r->w);
		unlink(path);
		r->open = false;
		return err;
	}
	l->tap = on_input;
	l->tap_ctx = r;
	l->pti.last_ns = 0;	/* the first recorded tick reads pagetypeinfo */
	memset(l->knobs.err, 0, sizeof(l->knobs.err));	/* and says again which knobs are absent */
	return 0;
}

int ft_recorder_stop(struct ft_recorder *r)
{
	bool full;
	int err;

	if (!r->open)
		return 0;
	if (r->live && r->live->tap_ctx == r) {
		r->live->tap = NULL;
		r->live->tap_ctx = NULL;
	}
	err = ft_recw_close(&r->w);
	full = r->w.full;
	r->open = false;
	/* a full disk stopped the recording, but the close went into the space kept for it */
	if (full && !err)
		return 0;
	return r->err ? r->err : err;
}
