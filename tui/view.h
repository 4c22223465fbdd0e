/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A view is one screen of the TUI, an object as htop's Panel or tmux's
 * window modes: a name (its tab, help's title, the rc file's word), a
 * draw function for the body between the tab bar and the status line,
 * its own key table (struct ft_key: codes, help, handler; help, the man
 * page and the README are written from it), and what it does with the
 * mouse.  Its state is one struct, which the loop owns (as tmux keeps a
 * window mode's in wme->data): allocated when the TUI starts, found with
 * ft_view_state().  The list of views is ft_views (tui/ui.c).
 */
#ifndef FT_TUI_VIEW_H
#define FT_TUI_VIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

struct ft_ui;
struct ft_key;
struct ft_rc;

/*
 * What a word or a mark on the screen means, for the help (as htop's help
 * and below's field docs): @term as the screen shows it, @meaning in a
 * sentence.  A view's list ends with a NULL term.
 */
struct ft_legend {
	const char *term;
	const char *meaning;
};

struct ft_view {
	const char *name;
	/* a shorter name for the tab bar when the names do not all fit; NULL: none */
	const char *tab;
	/* Draw rows [top, top + height) of stdscr. */
	void (*draw)(struct ft_ui *ui, int top, int height);
	/* The view's keys, ending with a NULL label; NULL: none. */
	const struct ft_key *keys;
	/* Every abbreviation, column and mark it shows, for the help; NULL: none. */
	const struct ft_legend *legend;
	/* Called when the view is opened from another (not on a return to it); NULL: nothing. */
	void (*enter)(struct ft_ui *ui);
	/*
	 * Called after every tick the source takes while the view is shown,
	 * drawn or not (a replay at x1000 draws one tick in many), and for the
	 * tick before the one a replay's seek lands on: state kept from tick
	 * to tick (a rate) is then there at the first draw.  NULL: nothing.
	 */
	void (*tick)(struct ft_ui *ui);
	/*
	 * Called after every tick whether the view is shown or not (the
	 * findings view's window, whose count the header shows on every
	 * view); NULL: nothing.
	 */
	void (*tick_always)(struct ft_ui *ui);
	/*
	 * A left click at screen row @y, column @x of the body (the row a
	 * column header or a map cell is on, as the last draw put it); true
	 * if it did something.  NULL: clicks do nothing here.
	 */
	bool (*click)(struct ft_ui *ui, int y, int x);
	/* The wheel: @dir -1 up, +1 down.  NULL: it sends Up and Down as keys. */
	void (*wheel)(struct ft_ui *ui, int dir);
	/*
	 * What the view keeps in the rc file (tui/rcfile.h): taken at the start, given back at
	 * quit.
	 */
	void (*load)(struct ft_ui *ui, const struct ft_rc *rc);
	void (*save)(const struct ft_ui *ui, struct ft_rc *rc);
	/*
	 * What the live source reads for it beyond every tick's files
	 * (enum ft_live_want: the THP view's per-size tree): read only while
	 * the view is shown (or help over it), so the others cost nothing
	 * for it.
	 */
	unsigned int wants;
	/*
	 * The view's state: @state_size bytes, zeroed, allocated by the loop
	 * when the TUI starts (before @load); @init sets what is not zero at
	 * the start, @fini frees what the state owns.  NULL: nothing to do.
	 */
	size_t state_size;
	void (*init)(void *state);
	void (*fini)(void *state);
	/*
	 * Before each draw while the view is shown, with the rows the draw
	 * will have: tells the source what to read for it (the map's zone,
	 * the page_owner looks of the cell under the cursor), so drawing only
	 * draws.  NULL: nothing.
	 */
	void (*focus)(struct ft_ui *ui, int top, int height);
	/*
	 * A mark the header shows on every view (the findings' "! 2
	 * findings"), as tmux's formats let a mode speak in the status line:
	 * written to @buf, its attribute returned; 0 for no mark.  NULL: none.
	 */
	unsigned int (*mark)(const struct ft_ui *ui, char *buf, size_t sz);
};

/* Every view, help and setup too: what the loop allocates state for. */
#define FT_UI_VIEWS_ALL	12

/* @v's state in @ui (struct ft_view's state_size bytes). */
void *ft_view_state(const struct ft_ui *ui, const struct ft_view *v);

/*
 * The processes view's columns after COMMAND (the cgroup last), for the
 * setup view's column chooser (htop's Columns page): how many, a header,
 * whether it is shown, show or hide it.  Kept in fragtoprc (columns=).
 */
int ft_columns_count(void);
const char *ft_columns_name(int i);
bool ft_columns_shown(const struct ft_ui *ui, int i);
void ft_columns_toggle(struct ft_ui *ui, int i);

/* The overview's sizes of interest (fragtoprc's sizes=), for the setup view. */
const char *ft_overview_sizes(const struct ft_ui *ui);
void ft_overview_set_sizes(struct ft_ui *ui, const char *sizes);

extern const struct ft_view ft_view_overview;
extern const struct ft_view ft_view_events;
extern const struct ft_view ft_view_stalls;
extern const struct ft_view ft_view_controls;
extern const struct ft_view ft_view_map;
extern const struct ft_view ft_view_history;
extern const struct ft_view ft_view_procs;
extern const struct ft_view ft_view_thp;
extern const struct ft_view ft_view_cgroups;
extern const struct ft_view ft_view_findings;
extern const struct ft_view ft_view_help;
extern const struct ft_view ft_view_setup;

#endif
