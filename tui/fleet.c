// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet's console: a header, the column header (the sort column
 * marked, as the processes view marks its own), a row per host with its
 * sparkline over the window, and the status line with the key hints.
 * Enter opens a host (its zones' free blocks by order, their free memory
 * and fallbacks over the window, its cgroups); Esc goes back.
 */
#include "tui/fleet.h"

#include <curses.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sanitize.h"
#include "tui/draw.h"

#define ROWS_TOP	2	/* header, column header */

struct ft_fleetui {
	const struct ft_fleetui_src *src;
	struct ft_fleet *f;
	struct ft_fleet_detail *d;	/* the open host's, when @open */
	bool open, help, quit, paused;
	size_t cursor, top;
	char status[512];
	bool status_bad;
	uint64_t next_ns;		/* the next refresh */
	uint64_t good_ns;		/* the last good one (0: none yet) */
	double good_at;			/* ... its evaluation time */
};

static void say(struct ft_fleetui *u, bool bad, const char *fmt,
		...) __attribute__((format(printf, 3, 4)));
static void say(struct ft_fleetui *u, bool bad, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->status, sizeof(u->status), fmt, ap);
	va_end(ap);
	u->status_bad = bad;
}

static void clock_of(double t, char *buf, size_t sz)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!localtime_r(&s, &tm) || !strftime(buf, sz, "%H:%M:%S", &tm))
		snprintf(buf, sz, "?");
}

/* Ask the source again: the table, or the open host's drill-down. */
static void do_refresh(struct ft_fleetui *u)
{
	char why[512], t[16];
	int rc;

	u->next_ns = ft_now_ns() + (uint64_t)(u->src->interval * 1e9);
	say(u, false, "asking Prometheus...");
	ft_put(LINES - 1, 0, ft_attr(FT_C_DIM), "%-*s", COLS, u->status);
	refresh();
	if (u->open)
		rc = u->src->detail(u->src->ctx, u->d->instance, u->d, why, sizeof(why));
	else
		rc = u->src->table(u->src->ctx, u->f, why, sizeof(why));
	if (rc) {
		if (u->good_ns) {
			clock_of(u->good_at, t, sizeof(t));
			say(u, true, "%s; the table is from %s", why, t);
		} else {
			say(u, true, "%s", why);
		}
		return;
	}
	u->good_ns = ft_now_ns();
	u->good_at = u->src->meta->at;
	clock_of(u->good_at, t, sizeof(t));
	if (!u->open && u->f->no_rules)
		say(u, true, "%zu hosts, no fragtop:fleet_* series: load the fragtop-fleet rules "
			     "(dist/fragtop-rules.yml)",
		    u->f->nhosts);
	else
		say(u, false, "%s: %lu queries, %llu KiB in %.2f s", t, u->src->meta->queries,
		    u->src->meta->bytes / 1024, u->src->meta->seconds);
	if (u->f->nshown && u->cursor >= u->f->nshown)
		u->cursor = u->f->nshown - 1;
}

static void draw_header(struct ft_fleetui *u)
{
	const struct ft_fleet *f = u->f;
	char sel[256];
	size_t i, up = 0;

	for (i = 0; i < f->nhosts; i++)
		up += f->hosts[i].up == 1;
	move(0, 0);
	clrtoeol();
	ft_put(0, 0, ft_attr(FT_C_HEADER) | A_BOLD, "fragtop fleet");
	ft_put(0, 14, ft_attr(FT_C_LABEL), "%s %s  hosts %zu  up %zu%s%s%s  window %.0fm%s",
	       u->src->meta->url, ft_safe(u->src->meta->selector, sel, sizeof(sel)), f->nhosts, up,
	       f->filter[0] ? "  filter '" : "", f->filter, f->filter[0] ? "'" : "",
	       u->src->meta->window / 60,
	       u->paused ? "  PAUSED" : "");
	if (up < f->nhosts)
		ft_put(0, COLS - 10, ft_attr(FT_C_BAD) | A_BOLD, "%zu down", f->nhosts - up);
}

static int inst_width(void)
{
	return COLS > 140 ? 32 : COLS > 100 ? 24 : 18;
}

/* The row's sparkline, scaled to the most any shown row reached. */
static double spark_max(const struct ft_fleet *f)
{
	double hi = 0;
	size_t i;
	int k;

	for (i = 0; i < f->nshown; i++)
		for (k = 0; k < FT_FLEET_SPARK; k++) {
			double v = f->hosts[f->order[i]].spark[k];

			if (!isnan(v) && !isinf(v) && v > hi)
				hi = v;
		}
	return hi > 0 ? hi : 1;
}

static void draw_table(struct ft_fleetui *u)
{
	const struct ft_fleet *f = u->f;
	int y, c, x, iw = inst_width(), height = LINES - ROWS_TOP - 1;
	char cell[64], safe[4 * FT_FLEET_INSTANCE];
	double hi = spark_max(f);

	move(1, 0);
	clrtoeol();
	ft_put(1, 0, A_REVERSE | A_BOLD, "%-*s", COLS, "");
	for (c = 0, x = 0; c < f->ncols && x < COLS; c++) {
		int w = c ? f->cols[c].width : iw;

		ft_put(1, x,
		       c == f->sort ? (A_REVERSE | A_BOLD | ft_attr(FT_C_BOOST)) : A_REVERSE |
		       A_BOLD,
		       c ? "%*s" : "%-*s", w, f->cols[c].head);
		x += w + 1;
	}
	ft_put(1, x, A_REVERSE | A_BOLD, "TREND %s",
	       f->cols[f->sort].kind == FT_FLEET_COL_INSTANCE ?
	       "FALLBK/s" : f->cols[f->sort].head);
	ft_put(1, x + FT_FLEET_SPARK + 1, A_REVERSE | A_BOLD, "LABELS");
	if (u->cursor < u->top)
		u->top = u->cursor;
	if (height > 0 && u->cursor >= u->top + (size_t)height)
		u->top = u->cursor - (size_t)height + 1;
	for (y = 0; y < height; y++) {
		size_t row = u->top + (size_t)y;
		const struct ft_fleet_host *h;
		unsigned int attr;

		move(ROWS_TOP + y, 0);
		clrtoeol();
		if (row >= f->nshown)
			continue;
		h = &f->hosts[f->order[row]];
		attr = row == u->cursor ? A_REVERSE : 0;
		if (attr)
			ft_put(ROWS_TOP + y, 0, attr, "%-*s", COLS, "");
		ft_put(ROWS_TOP + y, 0, attr, "%-*.*s", iw, iw,
		       ft_safe(h->instance, safe, sizeof(safe)));
		for (c = 1, x = iw + 1; c < f->ncols && x < COLS; c++) {
			const char *s = ft_fleet_cell(f, h, c, cell, sizeof(cell));

			ft_put(ROWS_TOP + y, x,
			       attr | (c == 1 && !h->up ? ft_attr(FT_C_BAD) | A_BOLD : 0), "%*s",
			       f->cols[c].width, s);
			x += f->cols[c].width + 1;
		}
		if (x + 4 < COLS)
			ft_spark(ROWS_TOP + y, x, h->spark,
				 FT_FLEET_SPARK < COLS - x ? FT_FLEET_SPARK : COLS - x, 0, hi,
				 NULL, -1);
		x += FT_FLEET_SPARK + 1;
		if (x + 4 < COLS) {
			char lab[FT_FLEET_LABELS];

			ft_put(ROWS_TOP + y, x, attr | ft_attr(FT_C_DIM), "%s",
			       ft_safe(ft_fleet_labels_line(h->labels, lab, sizeof(lab)), safe,
				       sizeof(safe)));
		}
	}
	if (!f->nshown) {
		ft_put(ROWS_TOP + 1, 2, ft_attr(FT_C_DIM),
		       f->nhosts ? "no host matches the filter" :
		       u->good_ns ?
			       "no host: does the selector match Prometheus's up series?" : "");
	}
}

static void draw_zone(const struct ft_fleet_detail *d, int i, int y)
{
	const struct ft_fleet_zone *z = &d->zones[i];
	char zn[64], b[16];
	double hi = 0;
	int o, x, k;

	ft_put(y, 0, A_BOLD, "%-3s %-8s", z->node, ft_safe(z->zone, zn, sizeof(zn)));
	for (o = 0, x = 13; o <= FT_FLEET_ORDERS; o++, x += 7) {
		if (o <= z->max_order)
			ft_fmt_count(b, sizeof(b), z->free_blocks[o], 6);
		else
			snprintf(b, sizeof(b), "-");
		ft_put(y, x, 0, "%6s", b);
	}
	ft_put(y, x, 0, "%8s",
	       ft_cell(b, sizeof(b), isnan(z->free_bytes) ? 0 : z->free_bytes / 1048576, 8, 0));
	x += 9;
	for (k = 0; k < FT_FLEET_SPARK; k++)
		if (!isnan(z->free_spark[k]) && z->free_spark[k] > hi)
			hi = z->free_spark[k];
	if (x + FT_FLEET_SPARK < COLS)
		ft_spark(y, x, z->free_spark, FT_FLEET_SPARK, 0, hi > 0 ? hi : 1, NULL, -1);
	x += FT_FLEET_SPARK + 1;
	hi = 0;
	for (k = 0; k < FT_FLEET_SPARK; k++)
		if (!isnan(z->fallback_spark[k]) && z->fallback_spark[k] > hi)
			hi = z->fallback_spark[k];
	if (x + 10 + FT_FLEET_SPARK < COLS) {
		ft_put(y, x, 0, "%9s", ft_cell(b, sizeof(b), z->fallbacks, 9, 2));
		ft_spark(y, x + 10, z->fallback_spark, FT_FLEET_SPARK, 0, hi > 0 ? hi : 1, NULL,
			 -1);
	}
}

static void draw_detail(struct ft_fleetui *u)
{
	const struct ft_fleet_detail *d = u->d;
	char safe[4 * 256], nm[4 * 128];
	int y = 1, i, o, x, k;

	for (y = 1; y < LINES - 1; y++) {
		move(y, 0);
		clrtoeol();
	}
	y = 1;
	ft_put(y++, 0, A_BOLD | ft_attr(FT_C_HEADER), "%s",
	       ft_safe(d->instance, safe, sizeof(safe)));
	ft_put(y, 0, A_REVERSE | A_BOLD, "%-*s", COLS, "");
	ft_put(y, 0, A_REVERSE | A_BOLD, "N   ZONE");
	for (o = 0, x = 13; o < FT_FLEET_ORDERS; o++, x += 7)
		ft_put(y, x, A_REVERSE | A_BOLD, "%6d", o);
	ft_put(y, x, A_REVERSE | A_BOLD, "%6s", "11+");
	x += 7;
	ft_put(y, x, A_REVERSE | A_BOLD, "%8s %-*s %9s %s", "FREE_MiB", FT_FLEET_SPARK,
	       "free over the window",
	       "FALLBK/s", "over the window");
	y++;
	for (i = 0; i < d->nzones && y < LINES - 1; i++)
		draw_zone(d, i, y++);
	if (!d->nzones)
		ft_put(y++, 2, ft_attr(FT_C_DIM), "no zone series for this instance");
	if (d->sizes.n && y + 2 < LINES - 1) {
		y++;
		ft_put(y++, 0, A_BOLD, "contiguous blocks, now / after compaction");
		for (i = 0; i < d->nzones && y < LINES - 1; i++, y++) {
			ft_put(y, 0, 0, "%-3s %-8s", d->zones[i].node,
			       ft_safe(d->zones[i].zone, nm, sizeof(nm)));
			for (k = 0, x = 13; k < d->sizes.n; k++, x += 22) {
				char a[16], b[16];

				ft_fmt_count(a, sizeof(a), d->zones[i].contig[k][0], 7);
				ft_fmt_count(b, sizeof(b), d->zones[i].contig[k][1], 7);
				ft_put(y, x, 0, "%6s %7s / %-7s", d->sizes.name[k],
				       isnan(d->zones[i].contig[k][0]) ? "-" : a,
				       isnan(d->zones[i].contig[k][1]) ? "-" : b);
			}
		}
	}
	if (y + 2 < LINES - 1) {
		y++;
		ft_put(y++, 0, A_BOLD, "cgroups by fragmenting fallbacks/s%s", d->ncgroups ? "" :
		       ": none (the exporter's --collector.cgroups)");
		for (i = 0; i < d->ncgroups && y < LINES - 1; i++)
			ft_put(y++, 0, 0, "%9s  %s  %s",
			       ft_cell((char[16]){ 0 }, 16, d->cgroups[i].fallbacks, 9, 2),
			       ft_safe(d->cgroups[i].cgroup, safe, sizeof(safe)),
			       ft_safe(d->cgroups[i].name, nm, sizeof(nm)));
	}
}

static void draw_help(struct ft_fleetui *u)
{
	int y = 1, i, c;

	for (i = 1; i < LINES - 1; i++) {
		move(i, 0);
		clrtoeol();
	}
	ft_put(y++, 0, A_BOLD, "fragtop fleet: keys (any key returns)");
	for (i = 0; ft_fleetui_keys[i].label && y < LINES - 1; i++)
		if (ft_fleetui_keys[i].help)
			ft_put(y++, 2, 0, "%-27s %s", ft_fleetui_keys[i].label,
			       ft_fleetui_keys[i].help);
	y++;
	for (c = 0; c < u->f->ncols && y < LINES - 1; c++) {
		const char *m = u->f->cols[c].meaning, *nl;

		for (bool first = true; m && y < LINES - 1; first = false) {
			nl = strchr(m, '\n');
			ft_put(y++, 2, 0, "%-10s %.*s", first ? u->f->cols[c].head : "",
			       nl ? (int)(nl - m) : (int)strlen(m), m);
			m = nl ? nl + 1 : NULL;
		}
	}
}

static void draw(struct ft_fleetui *u)
{
	const char *hints;

	draw_header(u);
	if (u->help)
		draw_help(u);
	else if (u->open)
		draw_detail(u);
	else
		draw_table(u);
	move(LINES - 1, 0);
	clrtoeol();
	ft_put(LINES - 1, 0, u->status_bad ? ft_attr(FT_C_BAD) | A_BOLD : ft_attr(FT_C_DIM), "%s",
	       u->status);
	hints = u->open ? "Esc back  space pause  h help  q quit" :
		"Enter open  s sort  I invert  / filter  space pause  h help  q quit";
	if ((int)(strlen(u->status) + strlen(hints)) + 2 < COLS)
		ft_put(LINES - 1, COLS - (int)strlen(hints) - 1, ft_attr(FT_C_DIM), "%s", hints);
	refresh();
}

/*
 * A key within @ms, or ERR.  The wait is our poll() on the terminal, not
 * ncurses' timeout: a stop signal during ncurses' own wait could leave
 * it in a blocking read (seen under ASan), so the console would not end.
 */
static int getkey(struct ft_fleetui *u, int ms)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	int ch;

	timeout(0);
	ch = getch();		/* one ncurses already holds */
	if (ch != ERR || poll(&p, 1, ms) <= 0)
		return ch;
	ch = getch();
	/* the terminal is gone (hung up, closed): end, rather than spin on it */
	if (ch == ERR && (p.revents & (POLLHUP | POLLERR | POLLNVAL)))
		u->quit = true;
	return ch;
}

static void key_quit(struct ft_fleetui *u, int ch)
{
	(void)ch;
	u->quit = true;
}

static void key_move(struct ft_fleetui *u, int ch)
{
	size_t n = u->f->nshown, page = LINES > ROWS_TOP + 2 ? (size_t)(LINES - ROWS_TOP - 1) : 1;

	if (u->open || !n)
		return;
	if (ch == KEY_UP || ch == 'k')
		u->cursor -= u->cursor > 0;
	else if (ch == KEY_DOWN || ch == 'j')
		u->cursor += u->cursor + 1 < n;
	else if (ch == KEY_PPAGE)
		u->cursor = u->cursor > page ? u->cursor - page : 0;
	else if (ch == KEY_NPAGE)
		u->cursor = u->cursor + page < n ? u->cursor + page : n - 1;
	else if (ch == KEY_HOME)
		u->cursor = 0;
	else if (ch == KEY_END)
		u->cursor = n - 1;
}

static void key_sort(struct ft_fleetui *u, int ch)
{
	struct ft_fleet *f = u->f;

	if (u->open)
		return;
	if (ch == 'P')
		f->sort = ft_fleet_col_find(f, "FALLBK/s");
	else if (ch == 'I')
		f->inverted = !f->inverted;
	else
		f->sort = ch == 'S' ?
			(f->sort + f->ncols - 1) % f->ncols : (f->sort + 1) % f->ncols;
	ft_fleet_arrange(f);
	/* the sparklines follow the sort column: ask for them now */
	if (ch != 'I')
		u->next_ns = 0;
}

static bool prompt(struct ft_fleetui *u, const char *q, char *buf, int sz)
{
	int len = (int)strlen(buf), ch, r = 0;

	curs_set(1);
	while (!r) {
		move(LINES - 1, 0);
		clrtoeol();
		ft_put(LINES - 1, 0, A_BOLD, "%s%s", q, buf);
		refresh();
		ch = getkey(u, 1000);
		if (ch == ERR && (u->quit || (u->src->stop && *u->src->stop)))
			r = -1;		/* a stop signal ends the prompt too */
		else if (ch != ERR)
			r = ft_prompt_key(buf, &len, sz, ch);
	}
	curs_set(0);
	return r > 0;
}

static void key_filter(struct ft_fleetui *u, int ch)
{
	char buf[sizeof(u->f->filter)];

	(void)ch;
	if (u->open)
		return;
	snprintf(buf, sizeof(buf), "%s", u->f->filter);
	if (prompt(u, "filter (LABEL=VALUE or part of an instance; empty: all): ", buf,
		   (int)sizeof(buf))) {
		memcpy(u->f->filter, buf, sizeof(buf));
		ft_fleet_arrange(u->f);
		u->cursor = 0;
	}
}

static void key_open(struct ft_fleetui *u, int ch)
{
	(void)ch;
	if (u->open || !u->f->nshown)
		return;
	snprintf(u->d->instance, sizeof(u->d->instance), "%s",
		 u->f->hosts[u->f->order[u->cursor]].instance);
	u->open = true;
	u->d->nzones = u->d->ncgroups = 0;
	do_refresh(u);
}

static void key_back(struct ft_fleetui *u, int ch)
{
	(void)ch;
	if (u->open) {
		u->open = false;
		u->next_ns = 0;
	}
}

static void key_pause(struct ft_fleetui *u, int ch)
{
	(void)ch;
	u->paused = !u->paused;
	if (!u->paused)
		u->next_ns = 0;
}

static void key_now(struct ft_fleetui *u, int ch)
{
	(void)ch;
	u->next_ns = 0;
}

static void key_help(struct ft_fleetui *u, int ch)
{
	(void)ch;
	u->help = true;
}

static void key_redraw(struct ft_fleetui *u, int ch)
{
	(void)u;
	(void)ch;
	clearok(curscr, TRUE);
}

const struct ft_fleetui_key ft_fleetui_keys[] = {
	{ "q F10", { 'q', 'Q', KEY_F(10) }, "quit", key_quit },
	{ "h F1 ?", { 'h', '?', KEY_F(1) }, "this help", key_help },
	{ "Up Down PgUp PgDn Home End",
	  { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END, 'k', 'j' },
	  "move among the hosts", key_move },
	{ "Enter", { '\n', KEY_ENTER, KEY_RIGHT },
	  "open the host: its zones and cgroups as Prometheus holds them",
	  key_open },
	{ "Esc Left", { 27, KEY_LEFT, KEY_BACKSPACE }, "back to the table", key_back },
	{ "s S F6", { 's', 'S', KEY_F(6) },
	  "sort by the next / previous column; its sparkline follows", key_sort },
	{ "P", { 'P' }, "sort by fragmenting fallbacks/s", key_sort },
	{ "I", { 'I' }, "invert the sort: best first", key_sort },
	{ "/ F4", { '/', KEY_F(4) },
	  "filter: LABEL=VALUE (cluster=eu, role=db) or part of an instance",
	  key_filter },
	{ "space", { ' ' }, "pause / resume the refreshes", key_pause },
	{ "r F5", { 'r', KEY_F(5) }, "refresh now", key_now },
	{ "Ctrl-L", { 12 }, "redraw the screen", key_redraw },
	{ NULL, { 0 }, NULL, NULL },
};

static void key(struct ft_fleetui *u, int ch)
{
	int i, k;

	if (u->help) {
		u->help = false;
		return;
	}
	for (i = 0; ft_fleetui_keys[i].label; i++)
		for (k = 0; k < 8 && ft_fleetui_keys[i].codes[k]; k++)
			if (ft_fleetui_keys[i].codes[k] == ch) {
				ft_fleetui_keys[i].fn(u, ch);
				return;
			}
}

static bool start(bool color)
{
	if (!ft_curses_open("fragtop fleet", "--once prints the table as text"))
		return false;
	curs_set(0);
	ft_draw_init_colors(color);
	return true;
}

int ft_fleetui_run(const struct ft_fleetui_src *src, struct ft_fleet *f, bool color)
{
	struct ft_fleetui u = { .src = src, .f = f };

	u.d = calloc(1, sizeof(*u.d));
	if (!u.d)
		return 1;
	if (!start(color)) {
		free(u.d);
		return 1;
	}
	while (!u.quit && !(src->stop && *src->stop)) {
		uint64_t now = ft_now_ns();
		int ch;

		if (!u.paused && now >= u.next_ns)
			do_refresh(&u);
		draw(&u);
		now = ft_now_ns();
		/* at most a second, so a stop signal is seen */
		ch = getkey(&u, u.paused || u.next_ns <= now ||
			    u.next_ns - now > 1000000000ull ? 1000
			    : (int)((u.next_ns - now) / 1000000) + 1);
		if (ch != ERR)
			key(&u, ch);
	}
	endwin();
	free(u.d);
	return 0;
}
