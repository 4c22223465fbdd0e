// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/knobwatch.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/journal.h"

static size_t nr_watched(void)
{
	return ft_knobs_nr < FT_SESSION_MAX_KNOBS ? ft_knobs_nr : FT_SESSION_MAX_KNOBS;
}

void ft_knob_watch_start(struct ft_knob_watch *w, const struct ft_session *s)
{
	size_t k;

	for (k = 0; k < nr_watched(); k++)
		ft_knob_value_text(&ft_knobs[k], &s->knobs[k], w->prev[k], sizeof(w->prev[k]));
	w->audits_seen = s->nr_audits;
}

const struct ft_session_audit *ft_knob_claim(const struct ft_session *s, const char *knob,
					     const char *now)
{
	size_t i, look = 0;

	for (i = s->nr_audits; i-- > 0 && look++ < FT_KNOB_CLAIM_LOOK;) {
		const struct ft_session_audit *a = &s->audits[i];

		if (s->ticks - a->tick > FT_KNOB_CLAIM_TICKS)
			break;
		if (!strcmp(a->outcome, "claim") && !strcmp(a->knob, knob) && !strcmp(a->new, now))
			return a;
	}
	return NULL;
}

void ft_knob_change_who(const struct ft_knob_change *c, char *buf, size_t sz)
{
	const struct ft_session_audit *a = c->audit ? c->audit : c->claim;

	if (!a) {
		snprintf(buf, sz, "outside fragtop");
		return;
	}
	if (c->claim)
		snprintf(buf, sz, "%s (pid %d, uid %u)", ft_journal_who(a->by), a->pid, a->uid);
	else if (a->by[0])
		snprintf(buf, sz, "%s (this recording's)", ft_journal_who(a->by));
	else
		snprintf(buf, sz, "this recording's fragtop");
}

void ft_knob_watch_step(struct ft_knob_watch *w, const struct ft_session *s,
			ft_knob_change_fn *fn, void *ctx)
{
	bool ours[FT_SESSION_MAX_KNOBS] = { false };
	size_t k;

	for (; w->audits_seen < s->nr_audits; w->audits_seen++) {
		const struct ft_session_audit *a = &s->audits[w->audits_seen];
		struct ft_knob_change c = { .knob = ft_knob_find(a->knob), .old = a->old,
					    .new = a->new, .audit = a };

		if (strcmp(a->outcome, "ok"))
			continue;
		if (c.knob && (size_t)(c.knob - ft_knobs) < nr_watched())
			ours[c.knob - ft_knobs] = true;
		fn(ctx, &c);
	}
	for (k = 0; k < nr_watched(); k++) {
		char now[FT_KNOB_TEXT];

		ft_knob_value_text(&ft_knobs[k], &s->knobs[k], now, sizeof(now));
		if (w->prev[k][0] && now[0] && strcmp(now, w->prev[k]) && !ours[k]) {
			struct ft_knob_change c = { .knob = &ft_knobs[k], .old = w->prev[k],
						    .new = now,
						    .claim = ft_knob_claim(s, ft_knobs[k].name,
									   now) };

			fn(ctx, &c);
		}
		memcpy(w->prev[k], now, sizeof(now));
	}
}
