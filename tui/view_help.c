// SPDX-License-Identifier: GPL-2.0-or-later
/* Help: every key, the global ones and each view's, and what the screen shows. */
#include <stddef.h>

#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* A key table's listed bindings (help text set). */
static int put_table(int y, int top, int height, const struct ft_key *keys)
{
	int i;

	for (i = 0; keys && keys[i].label; i++) {
		if (!keys[i].help)
			continue;
		if (y < top + height) {
			ft_put(y, 2, A_BOLD, "%-14s", keys[i].label);
			ft_put(y, 17, A_NORMAL, "%s", keys[i].help);
		}
		y++;
	}
	return y;
}

/* In replay: the live keys it refuses, by their labels. */
static int put_refused(int y, int top, int height)
{
	char labels[128];
	size_t n = 0;
	int i;

	labels[0] = '\0';
	for (i = 0; ft_live_keys[i].label && n < sizeof(labels); i++)
		n += (size_t)snprintf(labels + n, sizeof(labels) - n, "%s%s", n ? " " : "", ft_live_keys[i].label);
	if (y < top + height)
		ft_put(y, 2, ft_attr(FT_C_DIM), "%s: refused (a recording is not a host)", labels);
	return y + 1;
}

static void help_draw(struct ft_ui *ui, int top, int height)
{
	int y = top;

	const struct ft_view *v = ui->prev_view ? ui->prev_view : &ft_view_overview;

	ft_put(y++, 0, ft_attr(FT_C_LABEL), "Keys (any key returns)");
	y = put_table(y, top, height, ft_ui_keys);
	if (y < top + height)
		ft_put(y++, 0, ft_attr(FT_C_LABEL), ui->rp ? "Replay" : "Live");
	y = put_table(y, top, height, ui->mode_keys);
	if (ui->rp)
		y = put_refused(y, top, height);
	if (v->keys && v->keys[0].label && y < top + height)
		ft_put(y++, 0, ft_attr(FT_C_LABEL), "In the %s view", v->name);
	y = put_table(y, top, height, v->keys);
	y++;
	if (y < top + height)
		ft_put(y++, 0, ft_attr(FT_C_LABEL), "Overview, per zone");
	static const char *const lines[] = {
		"free      free pages, in pages and bytes; alloc = pgalloc_<zone>/s (all nodes)",
		"unusable  unusable free space index at pageblock order (kernel's, 0..1)",
		"wmark     [= free  m l h base watermarks  + boost]  scale: 2x boosted high",
		"free      free blocks per order; brighter = larger share of free memory",
		"blocks    pageblocks per migratetype (pagetypeinfo, read every few s)",
		"fb/s      fallbacks (mm_page_alloc_extfrag) in the zone per s, and fragmenting",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]) && y < top + height; i++)
		ft_put(y++, 2, A_NORMAL, "%s", lines[i]);
}

/* Any key returns to the view before (tui/ui.c), so help has none of its own. */
const struct ft_view ft_view_help = {
	.name = "help",
	.draw = help_draw,
};
