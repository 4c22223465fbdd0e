// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/tick.h"

void ft_tick_start(struct ft_tick *t, uint64_t period_ns, uint64_t now_ns)
{
	t->period_ns = period_ns ? period_ns : 1;
	t->next_ns = now_ns;
}

bool ft_tick_due(struct ft_tick *t, uint64_t now_ns)
{
	if (now_ns < t->next_ns)
		return false;
	/* the next instant of the cadence after now: missed ones are skipped */
	t->next_ns += ((now_ns - t->next_ns) / t->period_ns + 1) * t->period_ns;
	return true;
}

uint64_t ft_tick_left_ns(const struct ft_tick *t, uint64_t now_ns)
{
	return t->next_ns > now_ns ? t->next_ns - now_ns : 0;
}

void ft_tick_restart(struct ft_tick *t, uint64_t period_ns, uint64_t now_ns)
{
	t->period_ns = period_ns ? period_ns : 1;
	t->next_ns = now_ns + t->period_ns;
}
