// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TUI's key tables as documentation: the man page's KEYS section
 * (`fragtop help --roff-keys`) and the guide's tables (docs/guide.md)
 * (`fragtop help --markdown-keys`), from the tables tui/ dispatches on.
 */
#include "cmd/keys.h"

#include <stdio.h>

#include "render/roff.h"
#include "tui/fleet.h"
#include "tui/ui.h"
#include "tui/view.h"

static void keys_table(FILE *f, bool roff, const char *title, const struct ft_key *t)
{
	int i;

	ft_roff_keys_title(f, roff, title);
	for (i = 0; t[i].label; i++) {
		if (!t[i].help)
			continue;	/* a refusal, or a code another entry describes */
		ft_roff_keys_row(f, roff, t[i].label, t[i].help);
	}
}

void ft_keys_write(FILE *f, bool roff)
{
	char title[160];
	size_t n = 0;
	int v, i;

	keys_table(f, roff, "Everywhere", ft_ui_keys);
	keys_table(f, roff, "Live", ft_ui_live_keys);
	/* replay refuses the live keys: the title names them from the live table */
	n = (size_t)snprintf(title, sizeof(title), "Replay (");
	for (i = 0; ft_ui_live_keys[i].label && n < sizeof(title); i++)
		n += (size_t)snprintf(title + n, sizeof(title) - n, "%s%s", i ? " " : "",
				      ft_ui_live_keys[i].label);
	if (n < sizeof(title))
		snprintf(title + n, sizeof(title) - n, " are refused: a recording is not a host)");
	keys_table(f, roff, title, ft_ui_replay_keys);
	for (v = 0; v < ft_views_nr; v++) {
		if (!ft_views[v]->keys || !ft_views[v]->keys[0].label)
			continue;
		snprintf(title, sizeof(title), "In the %s view", ft_views[v]->name);
		keys_table(f, roff, title, ft_views[v]->keys);
	}
	keys_table(f, roff, "In the setup view (F2)", ft_view_setup.keys);
	keys_table(f, roff, "In the help (h; any other key returns)", ft_view_help.keys);
	ft_roff_keys_title(f, roff, "fragtop fleet");
	for (i = 0; ft_fleetui_keys[i].label; i++)
		ft_roff_keys_row(f, roff, ft_fleetui_keys[i].label, ft_fleetui_keys[i].help);
}
