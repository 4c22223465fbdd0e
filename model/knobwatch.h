/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Knob changes across the ticks of a session, as the readers of a
 * recording (report, plot) list them: the recording's own control changes
 * (AUDIT inputs with outcome "ok") and knob values that changed with no
 * such change behind them, made outside this fragtop (`fragtop set` from
 * another process, sysctl, a script).
 *
 * Ownership: the watch keeps only copies of the values it last saw; the
 * changes it hands out point into the session and live until its next
 * input.
 */
#ifndef FT_MODEL_KNOBWATCH_H
#define FT_MODEL_KNOBWATCH_H

#include <stddef.h>

#include "model/knob.h"
#include "model/session.h"

struct ft_knob_watch {
	char prev[FT_SESSION_MAX_KNOBS][FT_KNOB_TEXT];	/* "" until seen */
	size_t audits_seen;
};

struct ft_knob_change {
	const struct ft_knob *knob;	/* NULL for a recorded change of a knob this build lacks */
	const char *old, *new;
	const struct ft_session_audit *audit;	/* fragtop's own change; NULL: outside */
	/*
	 * An outside change another fragtop process claimed in the change
	 * journal (model/journal.h: the same knob and new value, within
	 * FT_KNOB_CLAIM_TICKS ticks before it was seen); NULL: none did.
	 */
	const struct ft_session_audit *claim;
};

#define FT_KNOB_CLAIM_TICKS	2	/* a claim older than this many ticks names no change */
#define FT_KNOB_CLAIM_LOOK	64	/* audit entries looked back through for one */

/*
 * The newest claim of @knob to @value among @s's last audits, recent enough to name a change seen
 * now; NULL.
 */
const struct ft_session_audit *ft_knob_claim(const struct ft_session *s, const char *knob,
					     const char *value);

/* Who made change @c, as a person reads it: "fragtop set (pid 4242, uid 0)", "outside fragtop". */
void ft_knob_change_who(const struct ft_knob_change *c, char *buf, size_t sz);

typedef void ft_knob_change_fn(void *ctx, const struct ft_knob_change *c);

/* Start at the session's present tick: its values and its audits so far are the baseline. */
void ft_knob_watch_start(struct ft_knob_watch *w, const struct ft_session *s);
/*
 * Once a tick: @fn for each recorded change since the last call, in
 * order, then for each knob whose value changed without one.  A zeroed
 * watch reports every audit from the first and no outside change at the
 * first call (nothing to compare with).
 */
void ft_knob_watch_step(struct ft_knob_watch *w, const struct ft_session *s,
			ft_knob_change_fn *fn, void *ctx);

#endif
