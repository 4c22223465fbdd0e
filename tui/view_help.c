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

static int put_keys(int y, int top, int height, const char *const (*keys)[2])
{
	int i;

	for (i = 0; keys[i][0]; i++, y++)
		if (y < top + height)
			ft_put(y, 2, A_BOLD, "%-14s", keys[i][0]), ft_put(y, 17, A_NORMAL, "%s", keys[i][1]);
	return y;
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
	if (v->keys[0][0] && y < top + height)
		ft_put(y++, 0, ft_attr(FT_C_LABEL), "In the %s view", v->name);
	y = put_keys(y, top, height, v->keys);
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

static bool help_key(struct ft_ui *ui, int ch)
{
	(void)ch;
	ui->view = ui->prev_view ? ui->prev_view : &ft_view_overview;
	return true;
}

static const char *const help_keys[][2] = { { NULL, NULL } };

const struct ft_view ft_view_help = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
	.keys = help_keys,
};
