// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TUI's key tables as documentation: the man page's KEYS section
 * (`fragtop help --roff-keys`) and the guide's tables (docs/guide.md)
 * (`fragtop help --markdown-keys`), from the tables tui/ dispatches on.
 */
#include "cmd/keys.h"

#include <stdio.h>

#include "cmd/cli.h"
#include "tui/fleet.h"
#include "tui/ui.h"
#include "tui/view.h"

/* One key and what it does, as a man page's .TP or a README table's row. */
static void key_line(FILE *f, bool roff, const char *label, const char *help)
{
	const char *p;

	if (roff) {
		fprintf(f, ".TP\n.B ");
		ft_cli_roff_text(f, label);
		fprintf(f, "\n");
		ft_cli_roff_text(f, help);
		fprintf(f, "\n");
		return;
	}
	fprintf(f, "| `%s` | ", label);
	for (p = help; *p; p++)
		fprintf(f, *p == '|' ? "\\|" : "%c", *p);
	fprintf(f, " |\n");
}

static void keys_title(FILE *f, bool roff, const char *title)
{
	if (roff)
		fprintf(f, ".SS \"%s\"\n", title);
	else
		fprintf(f, "\n%s:\n\n| key | what it does |\n| --- | --- |\n", title);
}

static void keys_table(FILE *f, bool roff, const char *title, const struct ft_key *t)
{
	int i;

	keys_title(f, roff, title);
	for (i = 0; t[i].label; i++) {
		if (!t[i].help)
			continue;	/* a refusal, or a code another entry describes */
		key_line(f, roff, t[i].label, t[i].help);
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
		n += (size_t)snprintf(title + n, sizeof(title) - n, "%s%s", i ? " " : "", ft_ui_live_keys[i].label);
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
	keys_title(f, roff, "fragtop fleet");
	for (i = 0; ft_fleetui_keys[i].label; i++)
		key_line(f, roff, ft_fleetui_keys[i].label, ft_fleetui_keys[i].help);
}
