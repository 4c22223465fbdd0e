// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the live and the replay TUI share: the header, the status line with
 * its hint, prompts that keep sampling, the shared key table and the key
 * dispatch.  Only main() exits, after the entry point's endwin().
 */
#include "tui/ui.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "tui/draw.h"
#include "tui/view.h"

#define STATUS_SECS	15

/* The views in the order of their keys 1 to 9 (help and setup are not among them), listed once. */
#define NUMBERED_VIEWS \
	&ft_view_overview, &ft_view_events, &ft_view_stalls, &ft_view_controls, &ft_view_map, \
	&ft_view_history, &ft_view_procs, &ft_view_thp, &ft_view_cgroups, &ft_view_findings
const struct ft_view *const ft_views[] = { NUMBERED_VIEWS };
const int ft_views_nr = (int)(sizeof(ft_views) / sizeof(ft_views[0]));

/* Every view with a state: ft_views, then help and setup (ui->view_state's order). */
static const struct ft_view *const views_all[FT_UI_VIEWS_ALL] = {
	NUMBERED_VIEWS, &ft_view_help, &ft_view_setup,
};

void *ft_view_state(const struct ft_ui *ui, const struct ft_view *v)
{
	int i;

	for (i = 0; i < FT_UI_VIEWS_ALL; i++)
		if (views_all[i] == v)
			return ui->view_state[i];
	return NULL;
}

/* Each view's state, made before the loop reads the rc file.  false: out of memory. */
static bool states_init(struct ft_ui *ui)
{
	int i;

	for (i = 0; i < FT_UI_VIEWS_ALL; i++) {
		const struct ft_view *v = views_all[i];

		if (!v->state_size)
			continue;
		ui->view_state[i] = calloc(1, v->state_size);
		if (!ui->view_state[i])
			return false;
		if (v->init)
			v->init(ui->view_state[i]);
	}
	return true;
}

static void states_free(struct ft_ui *ui)
{
	int i;

	for (i = 0; i < FT_UI_VIEWS_ALL; i++) {
		if (ui->view_state[i] && views_all[i]->fini)
			views_all[i]->fini(ui->view_state[i]);
		free(ui->view_state[i]);
		ui->view_state[i] = NULL;
	}
}

static int stopped(const struct ft_ui *ui)
{
	return ui->stop ? *ui->stop : 0;
}

void ft_ui_status(struct ft_ui *ui, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof(ui->status), fmt, ap);
	va_end(ap);
	ui->status_level = level;
	ui->status_t_ns = ft_now_ns();
	ui->status_view = ui->view;
}

void ft_ui_diag(void *ctx, enum ft_diag_level level, const char *msg)
{
	ft_ui_status(ctx, level, "%s", msg);
}

/*
 * The header's host part; returns its width (where the mode's part may
 * start; the host name is sanitised, never wider).  It gives up the
 * release, then the host, then the rest before a number is cut: it leaves
 * room for PAUSED or ROOT, REC and the mode's part (the replay's position).
 */
static int draw_host_part(struct ft_ui *ui, const char *bf)
{
	const struct ft_session *s = ui->s;
	char left[320], every[32] = "";
	int n = 0, room = COLS - 9 - ui->header_room - (ui->rec && !ui->rec->err ? 12 : 0), k;

	if (!ui->rp)
		snprintf(every, sizeof(every), "every %gs  ", ui->interval);
	for (k = 0; k < 5; k++) {
		if (k == 0)
			n = snprintf(left, sizeof(left), "fragtop %s  %s  %s  %sboost_factor %s",
				     FT_VERSION,
				     s->host.hostname, s->host.release, every, bf);
		else if (k == 1)
			n = snprintf(left, sizeof(left), "fragtop %s  %s  %sboost_factor %s",
				     FT_VERSION,
				     s->host.hostname, every, bf);
		else if (k == 2)
			n = snprintf(left, sizeof(left), "fragtop %s  %sboost_factor %s",
				     FT_VERSION, every, bf);
		else if (k == 3)
			n = snprintf(left, sizeof(left), "fragtop  boost_factor %s", bf);
		else
			n = snprintf(left, sizeof(left), "boost %s", bf);
		if (n <= room)
			break;
	}
	ft_put(0, 0, ft_attr(FT_C_HEADER), "%s", left);
	return n < 0 ? 0 : n < (int)sizeof(left) ? n : (int)sizeof(left) - 1;
}

/*
 * Each view's mark (struct ft_view's mark: the findings' "! 2 findings") on the sources' row: the
 * column after them.
 */
static int draw_view_marks(struct ft_ui *ui, int x)
{
	int i;

	for (i = 0; i < ft_views_nr; i++) {
		char m[48] = "";
		unsigned int attr = ft_views[i]->mark ? ft_views[i]->mark(ui, m, sizeof(m)) : 0;

		if (!attr || !m[0])
			continue;
		ft_put(1, x, attr, "%s", m);
		x += (int)strlen(m) + 2;
	}
	return x;
}

static void draw_header(struct ft_ui *ui)
{
	const struct ft_session *s = ui->s;
	const struct ft_sample *smp = &s->sample;
	const struct ft_knob *boost = ft_knob_find("watermark_boost_factor");
	const struct ft_knob_value *bv = &s->knobs[boost - ft_knobs];
	char mem[64] = "", bf[32] = "n/a", root[256];
	double age;
	int i, x;

	if (s->mem_total_kb) {
		char a[16], b[16];

		ft_fmt_pages(a, sizeof(a), s->mem_avail_kb / 4, 4096);
		ft_fmt_pages(b, sizeof(b), s->mem_total_kb / 4, 4096);
		snprintf(mem, sizeof(mem), "avail %s of %s", a, b);
	}
	if (!bv->err)
		snprintf(bf, sizeof(bf), "%lld", (long long)bv->num);
	attron((int)ft_attr(FT_C_HEADER));
	mvhline(0, 0, ' ', COLS);
	attroff((int)ft_attr(FT_C_HEADER));
	ui->header_end = draw_host_part(ui, bf);
	if (ui->header)		/* the mode's part: replay's timeline */
		ui->header(ui);
	if (ui->rec && !ui->rec->err) {	/* REC and the ticks recorded so far */
		char rb[32];

		snprintf(rb, sizeof(rb), " REC %llu ", (unsigned long long)ui->rec->ticks);
		ft_put(0, COLS - 9 - (int)strlen(rb), ft_attr(FT_C_BAD) | A_BOLD, "%s", rb);
	}
	if (ui->paused)
		ft_put(0, COLS - 8, ft_attr(FT_C_HEADER) | A_BLINK, " PAUSED ");
	else if (ui->live && strcmp(ft_hostfacts_get(&s->host, "root", root, sizeof(root)), "/"))
		ft_put(0, COLS - 7, ft_attr(FT_C_HEADER), " ROOT ");

	ft_put(1, 0, ft_attr(FT_C_DIM), "src:");
	x = 5;
	for (i = 0; i < FT_SRC_NR; i++) {
		bool ok = ft_sample_has(smp, i);
		char extra[48] = "";

		/*
		 * the overview's pressure line says it is there; no PSI here is no fault of the
		 * source
		 */
		if (i == FT_SRC_PRESSURE && (ok || !smp->err[i] || smp->err[i] == -ENOENT ||
					     smp->err[i] == -EOPNOTSUPP))
			continue;

		if (i == FT_SRC_PAGETYPEINFO && ok) {
			age = ft_session_pti_age(s);
			snprintf(extra, sizeof(extra), " %.0fs ago", age < 0 ? 0 : floor(age));
		} else if (!ok && smp->err[i]) {
			snprintf(extra, sizeof(extra), ": %s",
				 smp->err[i] == -EACCES ?
					 "needs root" : ft_file_strerror(smp->err[i]));
		}
		ft_put(1, x, ok ? A_NORMAL : ft_attr(FT_C_BAD), "%s%s", ft_source_names[i], extra);
		x += (int)(strlen(ft_source_names[i]) + strlen(extra)) + 2;
	}
	if (s->tracing) {
		ft_put(1, x, s->lost ? ft_attr(FT_C_BAD) : A_NORMAL, "trace%s",
		       s->lost ? " LOST" : "");
		x += s->lost ? 12 : 7;
	} else if (s->trace_err && s->trace_err != -EXDEV) {
		const char *why = s->trace_err == -EACCES || s->trace_err == -EPERM ?
				  "needs root" : "off";

		ft_put(1, x, ft_attr(FT_C_BAD), "trace: %s", why);
		x += 9 + (int)strlen(why);
	}
	x = draw_view_marks(ui, x);
	if (mem[0] && x + (int)strlen(mem) < COLS)
		ft_put(1, COLS - (int)strlen(mem), ft_attr(FT_C_DIM), "%s", mem);
}

/* The hint: the hinted keys of both tables in hint_pos order, two blanks apart. */
static void hint_text(const struct ft_ui *ui, char *buf, size_t sz)
{
	const struct ft_key *tables[2] = { ft_ui_keys, ui->mode_keys };
	int pos, last = -1;
	size_t n = 0;

	buf[0] = '\0';
	for (;;) {
		const struct ft_key *next = NULL;
		int t, i;

		for (t = 0; t < 2; t++)
			for (i = 0; tables[t] && tables[t][i].label; i++) {
				const struct ft_key *k = &tables[t][i];

				pos = k->hint_pos;
				if (k->hint && pos > last && (!next || pos < next->hint_pos))
					next = k;
			}
		if (!next)
			break;
		last = next->hint_pos;
		n += (size_t)snprintf(buf + n, n < sz ? sz - n : 0, "%s%s", n ? "  " : "",
				      next->hint);
		if (n >= sz)
			break;
	}
}

static void draw_status(struct ft_ui *ui)
{
	char hint[256];
	uint64_t now = ft_now_ns();
	int y = LINES - 1, room = COLS;

	move(y, 0);
	clrtoeol();
	if (ui->scroll_info[0]) {
		int len = (int)strlen(ui->scroll_info);

		/* wider than the terminal: its start, cut at the edge (ft_put cuts) */
		room = COLS - len - 1;
		ft_put(y, len < COLS ? COLS - len : 0, A_REVERSE, "%s", ui->scroll_info);
	}
	if (room <= 0)
		return;
	/* a message stays with its view (the map's page_owner note is not the next view's) */
	if (ui->status[0] && now - ui->status_t_ns < (uint64_t)STATUS_SECS * 1000000000ull &&
	    (ui->status_view == ui->view || ui->status_level >= FT_DIAG_WARN)) {
		ft_put(y, 0, ui->status_level >= FT_DIAG_WARN ? ft_attr(FT_C_WARN) : A_NORMAL,
		       "%.*s", room, ui->status);
		return;
	}
	/* the hint, cut between two items (they are two blanks apart) */
	hint_text(ui, hint, sizeof(hint));
	{
		int n = (int)strlen(hint);

		if (n > room) {
			n = room;
			while (n > 0 && !(hint[n] == ' ' && hint[n - 1] == ' '))
				n--;
		}
		ft_put(y, 0, ft_attr(FT_C_DIM), "%.*s", n, hint);
	}
}

/* The tab bar's row (ui->tab_x: where the last draw put each view's tab). */
#define TAB_ROW	2

/* View @v's tab label: its name, or its short one when @shorter. */
static const char *tab_label(const struct ft_view *v, bool shorter)
{
	return shorter && v->tab ? v->tab : v->name;
}

static void draw_tabs(struct ft_ui *ui)
{
	int i, x = 0, gap = 1, need = 0, tight = 0;
	bool shorter;

	/*
	 * a blank between tabs when they all fit with it; the short names when they do not fit
	 * without
	 */
	for (i = 0; i < ft_views_nr; i++) {
		need += (int)strlen(ft_views[i]->name) + 4;
		tight += (int)strlen(ft_views[i]->name) + 3;
	}
	if (need - 1 > COLS)
		gap = 0;
	shorter = tight > COLS;
	attron((int)ft_attr(FT_C_DIM));
	mvhline(TAB_ROW, 0, ' ', COLS);
	attroff((int)ft_attr(FT_C_DIM));
	for (i = 0; i < ft_views_nr && i < 16; i++) {
		const struct ft_view *v = ft_views[i];
		bool on = v == ui->view || (ui->view == &ft_view_help && v == ui->prev_view);

		const char *label = tab_label(v, shorter);

		ui->tab_x[i] = x;
		if (x + (int)strlen(label) + 3 > COLS)
			break;
		if (i < 9)
			ft_put(TAB_ROW, x, on ? A_REVERSE | A_BOLD : ft_attr(FT_C_DIM), " %d %s ",
			       i + 1, label);
		else	/* the tenth, findings: its key is the header marker's ! */
			ft_put(TAB_ROW, x, on ? A_REVERSE | A_BOLD : ft_attr(FT_C_DIM), " ! %s ",
			       label);
		x += (int)strlen(label) + 3 + gap;
	}
	for (; i < ft_views_nr && i < 16; i++)
		ui->tab_x[i] = x;
	ui->tab_x[i] = x;
	if (ui->view == &ft_view_setup && x + 9 < COLS)
		ft_put(TAB_ROW, x, A_REVERSE | A_BOLD, " setup ");
}

void ft_ui_draw(struct ft_ui *ui)
{
	erase();
	draw_header(ui);
	draw_tabs(ui);
	if (ui->view != ui->drawn_view)	/* another view's scroll position is not this one's */
		ui->scroll_info[0] = '\0';
	ui->drawn_view = ui->view;
	if (ui->view->focus)
		ui->view->focus(ui, TAB_ROW + 1, LINES - TAB_ROW - 2);
	ui->view->draw(ui, TAB_ROW + 1, LINES - TAB_ROW - 2);
	draw_status(ui);
	refresh();
}

/*
 * xterm's mouse reporting (1000: presses and releases, 1006: as SGR
 * numbers) and bracketed paste (2004), set and reset by fragtop: ncurses'
 * own mouse decoding is off (libncursesw 6.4 overflows its stack on an
 * SGR report of 35 numbers), tui/termin.c reads the reports instead.
 */
static void term_modes(struct ft_ui *ui, bool on)
{
	if (!ui->mouse_on)
		return;
	putp(on ? "\033[?1000h\033[?1006h\033[?2004h" : "\033[?2004l\033[?1006l\033[?1000l");
	fflush(stdout);
}

/*
 * ^Z: the terminal as the shell had it (fragtop's modes too, which
 * ncurses' own handler would leave set), stop; on fg, all back as it was.
 */
static void suspend(struct ft_ui *ui)
{
	*ui->tstp = 0;
	term_modes(ui, false);
	endwin();
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	signal(SIGTSTP, ui->on_tstp);
	reset_prog_mode();
	term_modes(ui, true);
	clearok(curscr, TRUE);
	ui->redraw = true;
}

/*
 * What follows an ESC ncurses did not make a key of (tui/termin.h): a
 * mouse report (KEY_MOUSE, ui->mouse), a paste marker, a sequence to
 * swallow (ERR), or ESC itself with the key after it put back.
 */
static int escape(struct ft_ui *ui)
{
	struct ft_esc_state st;
	enum ft_esc r = FT_ESC_MORE;
	int c = ERR;

	ft_esc_begin(&st);
	timeout(get_escdelay());	/* the rest of a sequence comes with it */
	while (r == FT_ESC_MORE) {
		c = getch();
		/* nothing more, or a key ncurses knew: the sequence ended */
		if (c == ERR || c > 255) {
			if (c != ERR)
				ungetch(c);
			r = ft_esc_end(&st);
			break;
		}
		r = ft_esc_feed(&st, c, &ui->mouse);
	}
	switch (r) {
	case FT_ESC_MOUSE:
		return KEY_MOUSE;
	case FT_ESC_PASTE_BEGIN:
	case FT_ESC_PASTE_END:
		ui->pasting = r == FT_ESC_PASTE_BEGIN;
		return ERR;
	case FT_ESC_BROKEN:
		ungetch(c);
		return ERR;
	case FT_ESC_KEYS:
		/*
		 * Escape typed: a paste whose end marker never came is over
		 * (terminals keep ESC out of what they paste)
		 */
		ui->pasting = false;
		if (st.fed)
			ungetch(st.key);
		return 27;
	default:
		return ERR;
	}
}

/* A key as the TUI takes it: ERR for what is swallowed (sequences, pastes outside a prompt). */
static int key_of(struct ft_ui *ui, int ch)
{
	if (ch == 27)
		ch = escape(ui);
	if (ui->pasting && ch != ERR && !(ui->prompting && ch >= 32 && ch < 127))
		return ERR;	/* pasted, not typed: never a key (nor a knob's change) */
	return ch;
}

/*
 * One wait for the terminal and the source's descriptors (the trace pipes
 * while idle), @ms at most: a key, or ERR when the time ran out or only
 * the source's descriptors woke it (they are read then).  A key ncurses
 * already holds (the rest of a sequence, an ungetch) is taken first, with
 * no wait; a descriptor that is not readable is not read.
 */
static int wait_key(struct ft_ui *ui, int ms)
{
	struct pollfd p[1 + FT_UI_POLL_FDS];
	int fds[FT_UI_POLL_FDS], n = ui->poll_fds ? ui->poll_fds(ui, fds, FT_UI_POLL_FDS) : 0, i, r,
	ch;

	timeout(0);
	ch = getch();
	if (ch != ERR)
		return ch;
	p[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
	for (i = 0; i < n; i++)
		p[1 + i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	r = poll(p, (nfds_t)(1 + n), ms);
	if (r < 0)	/* a signal: a resize is a key (KEY_RESIZE), a stop is the caller's */
		return getch();
	for (i = 0, r = 0; i < n; i++)
		r += (p[1 + i].revents & POLLIN) != 0;
	if (r && ui->polled)
		ui->polled(ui, r);
	return p[0].revents ? getch() : ERR;
}

int ft_ui_getch(struct ft_ui *ui, int ms)
{
	uint64_t end = ft_now_ns() + (ms > 0 ? (uint64_t)ms : 0) * UINT64_C(1000000);
	int ch;

	for (;;) {
		uint64_t now = ft_now_ns();
		int wait = now >= end ? 0 : (int)((end - now) / 1000000) + 1;
		int most = ui->idle_ms ? ui->idle_ms(ui) : 250;

		/* wake at least every second (or as idle asks): the sampler, ticks */
		if (most > 1000)
			most = 1000;
		if (ui->tstp && *ui->tstp)
			suspend(ui);
		ch = wait_key(ui, wait > most ? most : wait);
		if (ch != ERR)
			ch = key_of(ui, ch);
		else
			/* a paste whose end never came ends when input does */
			ui->pasting = false;
		if (ch != ERR || stopped(ui))
			return ch;
		if (ui->idle)
			ui->idle(ui);
		if (ft_now_ns() >= end || ui->redraw) {
			ui->redraw = false;
			return ERR;
		}
	}
}

bool ft_ui_prompt(struct ft_ui *ui, const char *question, char *buf, int sz)
{
	buf[0] = '\0';
	return ft_ui_prompt_edit(ui, question, buf, sz);
}

bool ft_ui_prompt_edit(struct ft_ui *ui, const char *question, char *buf, int sz)
{
	int len = (int)strnlen(buf, (size_t)sz - 1), ch, r;

	buf[len] = '\0';
	curs_set(1);
	ui->prompting = true;
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		ft_put(LINES - 1, 0, A_BOLD, "%s%s", question, buf);
		refresh();
		/* sampling (and recording) goes on while the operator types */
		ch = ft_ui_getch(ui, 1000);
		if (ch == ERR && !stopped(ui))
			continue;
		r = ch == ERR ? -1 : ft_prompt_key(buf, &len, sz, ch);	/* ERR: stopped */
		if (r > 0)
			break;
		if (r < 0) {
			len = 0;
			break;
		}
	}
	curs_set(0);
	ui->prompting = false;
	buf[len] = '\0';
	return len > 0;
}

bool ft_ui_confirm(struct ft_ui *ui, const char *fmt, ...)
{
	char q[256];
	va_list ap;
	int ch;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	move(LINES - 1, 0);
	clrtoeol();
	ft_put(LINES - 1, 0, ft_attr(FT_C_WARN) | A_BOLD, "%s", q);
	refresh();
	do
		ch = ft_ui_getch(ui, 1000);
	while ((ch == ERR && !stopped(ui)) || ch == KEY_RESIZE);
	if (ch == 'y' || ch == 'Y')
		return true;
	ft_ui_status(ui, FT_DIAG_INFO, "cancelled");
	return false;
}

bool ft_ui_may_write(struct ft_ui *ui)
{
	if (ui->writes_confirmed || !ui->ctl || ui->ctl->read_only)
		return true;
	if (!ft_ui_confirm(ui, "change vm knobs on %s? [y/N] ",
			   ui->s->host.hostname[0] ? ui->s->host.hostname : "this host")) {
		ft_ui_status(ui, FT_DIAG_INFO, "nothing changed");
		return false;
	}
	ui->writes_confirmed = true;
	return true;
}

void ft_ui_read_knobs(struct ft_ui *ui)
{
	if (ui->live)
		ft_live_read_knobs(ui->live);
}

void ft_ui_control_done(struct ft_ui *ui, const struct ft_audit *a)
{
	ft_ui_read_knobs(ui);
	if (!a)
		return;
	ft_ui_status(ui, a->outcome == FT_CTL_OK ? FT_DIAG_INFO : FT_DIAG_WARN, "%s", a->msg);
}

bool ft_ui_curses_start(struct ft_ui *ui, bool color)
{
	if (!ft_curses_open("fragtop", "'fragtop snapshot' prints a sample as text"))
		return false;
	curs_set(0);
	/*
	 * Clicks and the wheel, read by fragtop (term_modes()): ncurses is
	 * told not to take "kmous" for a key, so a report reaches escape()
	 * byte by byte, whatever its length.  Only where the terminal
	 * describes a mouse (xterm and its kind, tmux, screen).
	 */
	keyok(KEY_MOUSE, FALSE);
	ui->mouse_on = tigetstr("kmous") && tigetstr("kmous") != (char *)-1;
	if (ui->on_tstp && signal(SIGTSTP, ui->on_tstp) == SIG_IGN)
		signal(SIGTSTP, SIG_IGN);	/* a shell without job control: as it was */
	term_modes(ui, true);
	ui->color_wanted = color;
	ui->color = ft_draw_init_colors(color);
	ui->view = &ft_view_overview;
	return true;
}

void ft_ui_set_interval(struct ft_ui *ui, double v)
{
	ui->interval = v;
	ui->interval_set = true;
	ft_tick_restart(&ui->tick, (uint64_t)(v * 1e9), ft_now_ns());
	ft_ui_status(ui, FT_DIAG_INFO, "sampling every %gs", v);
}

/* ---- the shared keys ---- */

static void key_quit(struct ft_ui *ui, int ch)
{
	(void)ch;
	ui->quit = true;
}

/* Open view @v from the one shown (its enter hook first runs). */
static void open_view(struct ft_ui *ui, const struct ft_view *v)
{
	if (v == ui->view)
		return;
	ui->view = v;
	if (v->enter)
		v->enter(ui);
}

static void key_help(struct ft_ui *ui, int ch)
{
	(void)ch;
	ui->prev_view = ui->view;
	open_view(ui, &ft_view_help);
}

static void key_pause(struct ft_ui *ui, int ch)
{
	(void)ch;
	ui->paused = !ui->paused;
	ui->at_end = false;
	ft_ui_status(ui, FT_DIAG_INFO, ui->paused ? "paused" : "resumed");
	if (!ui->paused)
		ft_tick_restart(&ui->tick, ui->tick.period_ns, ft_now_ns() - ui->tick.period_ns);
}

static void key_view(struct ft_ui *ui, int ch)
{
	/* !: the tenth, as the header's marker */
	open_view(ui, ft_views[ch == '!' ? 9 : ch - '1']);
}

void ft_ui_ticked(struct ft_ui *ui)
{
	int i;

	for (i = 0; i < FT_UI_VIEWS_ALL; i++)
		if (views_all[i]->tick_always)
			views_all[i]->tick_always(ui);
	if (ui->view->tick)
		ui->view->tick(ui);
}

static void key_tab(struct ft_ui *ui, int ch)
{
	int i;

	(void)ch;
	for (i = 0; i < ft_views_nr && ft_views[i] != ui->view; i++)
		;
	open_view(ui, ft_views[(i + 1) % ft_views_nr]);
}

static void key_redraw(struct ft_ui *ui, int ch)
{
	(void)ui;
	(void)ch;
	clearok(curscr, TRUE);
}

static void key_none(struct ft_ui *ui, int ch)
{
	(void)ui;
	(void)ch;
}

/* F2: the setup view, and back. */
static void key_setup(struct ft_ui *ui, int ch)
{
	(void)ch;
	if (ui->view == &ft_view_setup) {
		ui->view = ui->prev_view ? ui->prev_view : &ft_view_overview;
		return;
	}
	ui->prev_view = ui->view;
	open_view(ui, &ft_view_setup);
}

static void key_mouse(struct ft_ui *ui, int ch);

const struct ft_key ft_ui_keys[] = {
	{ "q F10", { 'q', 'Q', KEY_F(10) }, "quit", "q quit", 10, key_quit },
	{ "1 2 3 4 5 6 7 8 9 !  Tab", { '1', '2', '3', '4', '5', '6', '7', '8', '9', '!' },
	  "overview, events, stalls, controls, map, history, processes, thp, cgroups, findings; "
	  "Tab cycles",
	  "1-9/! views",
	  30,
	  key_view },
	{ "Tab", { '\t' }, NULL, NULL, 0, key_tab },
	{ "h F1 ?", { 'h', '?', KEY_F(1) }, "this help", "h help", 20, key_help },
	{ "F2", { KEY_F(2) }, "setup: the settings fragtoprc keeps between runs", "F2 setup", 25,
	  key_setup },
	{ "space", { ' ' }, "pause / resume", "space pause", 60, key_pause },
	{ "Ctrl-L", { 12 }, "redraw the screen", NULL, 0, key_redraw },
	{ "mouse", { KEY_MOUSE }, "click a tab (its view), a column header (sort by it) or a map "
	  "cell (the cursor); the wheel scrolls", NULL, 0, key_mouse },
	{ "resize", { KEY_RESIZE }, NULL, NULL, 0, key_none },
	{ NULL },
};

/* F3, F4 and F6 where the view has no search, filter or sort of its own. */
static void key_not_here(struct ft_ui *ui, int ch)
{
	ft_ui_status(ui, FT_DIAG_INFO, "%s: not in the %s view (the processes view has it)",
		     ch == KEY_F(3) ? "F3 search" : ch == KEY_F(4) ? "F4 filter" : "F6 sort",
		     ui->view->name);
}

static const struct ft_key fallback_keys[] = {
	{ "F3 F4 F6", { KEY_F(3), KEY_F(4), KEY_F(6) }, NULL, NULL, 0, key_not_here },
	{ NULL },
};

static const struct ft_key *find_key(const struct ft_key *table, int ch)
{
	int i, c;

	for (i = 0; table && table[i].label; i++)
		for (c = 0; c < (int)(sizeof(table[i].codes) / sizeof(table[i].codes[0])) &&
		     table[i].codes[c]; c++)
			if (table[i].codes[c] == ch)
				return &table[i];
	return NULL;
}

/*
 * A key: the entry point's keys, then in replay a live key is refused (a
 * recording is not a host), then the shared keys, the view's, and the
 * fallbacks.  The help view takes any key but the mouse: its own scroll,
 * any other returns.
 */
void ft_ui_key(struct ft_ui *ui, int ch)
{
	const struct ft_key *k;

	if (ui->view == &ft_view_help && ch != KEY_MOUSE && ch != KEY_RESIZE) {
		if ((k = find_key(ft_view_help.keys, ch)))
			k->fn(ui, ch);		/* it scrolls */
		else
			ui->view = ui->prev_view ? ui->prev_view : &ft_view_overview;
		return;
	}
	k = find_key(ui->mode_keys, ch);
	if (!k && ui->rp && (k = find_key(ft_ui_live_keys, ch))) {
		ft_ui_status(ui, FT_DIAG_INFO,
			     "replay: '%s' is the live TUI's (%s); a recording is not a host",
			     k->label, k->help);
		return;
	}
	if (!k)
		k = find_key(ft_ui_keys, ch);
	if (!k)
		k = find_key(ui->view->keys, ch);
	if (!k)
		k = find_key(fallback_keys, ch);
	if (k)
		k->fn(ui, ch);
}

/* A click or the wheel: the report escape() read into ui->mouse. */
static void key_mouse(struct ft_ui *ui, int ch)
{
	const struct ft_mouse_ev ev = ui->mouse;
	const struct ft_key *k;
	int i, dir;

	(void)ch;
	if (ev.release)
		return;		/* a press is enough (no wait to tell clicks from drags) */
	dir = FT_MOUSE_WHEEL(ev.button) ? (ev.button & 1 ? 1 : -1) : 0;
	if (dir) {
		if (ui->view->wheel)
			ui->view->wheel(ui, dir);
		else if ((k = find_key(ui->view->keys, dir < 0 ? KEY_UP : KEY_DOWN)))
			k->fn(ui, dir < 0 ? KEY_UP : KEY_DOWN);
		return;
	}
	if (!FT_MOUSE_LEFT(ev.button))
		return;
	if (ev.y == TAB_ROW) {
		for (i = 0; i < ft_views_nr && i < 16; i++)
			if (ev.x >= ui->tab_x[i] && ev.x < ui->tab_x[i + 1]) {
				open_view(ui, ft_views[i]);
				return;
			}
		return;
	}
	if (ev.y > TAB_ROW && ev.y < LINES - 1 && ui->view->click)
		ui->view->click(ui, ev.y, ev.x);
}

void ft_ui_rc_apply(struct ft_ui *ui, const struct ft_rc *rc)
{
	int i;

	for (i = 0; i < ft_views_nr; i++) {
		if (ft_views[i]->load)
			ft_views[i]->load(ui, rc);
		if (!strcmp(rc->view, ft_views[i]->name))
			ui->view = ft_views[i];
	}
	if (rc->view[0] && strcmp(ui->view->name, rc->view) && !ui->status[0])
		ft_ui_status(ui, FT_DIAG_WARN, "fragtoprc: view=%s is no view of fragtop",
			     rc->view);
}

void ft_ui_rc_collect(const struct ft_ui *ui, struct ft_rc *rc)
{
	const struct ft_view *v = ui->view == &ft_view_help || ui->view == &ft_view_setup ?
				  ui->prev_view : ui->view;
	int i;

	snprintf(rc->view, sizeof(rc->view), "%s", v ? v->name : ft_views[0]->name);
	/* what the command line said is not a setting: only what changed in the TUI is kept */
	if (ui->interval_set)
		rc->interval = ui->interval;
	if (ui->color_set)
		rc->color = ui->color_wanted;
	for (i = 0; i < ft_views_nr; i++)
		if (ft_views[i]->save)
			ft_views[i]->save(ui, rc);
}

int ft_ui_run(struct ft_ui *ui, bool color)
{
	_Static_assert(sizeof(views_all) / sizeof(views_all[0]) == FT_UI_VIEWS_ALL, "every view");
	if (!states_init(ui)) {
		states_free(ui);
		fprintf(stderr, "fragtop: out of memory\n");
		return -1;
	}
	if (!ft_ui_curses_start(ui, color)) {
		states_free(ui);
		return -1;
	}
	if (ui->rc)
		ft_ui_rc_apply(ui, ui->rc);
	while (!ui->quit && !stopped(ui)) {
		int ch;

		if (ui->idle)
			ui->idle(ui);
		ft_ui_draw(ui);
		if (ui->iterations && ui->s->ticks >= ui->iterations)
			break;		/* -n N, as top's: N screens drawn */
		ch = ft_ui_getch(ui, ui->paused || ui->at_end ? 1000 :
				 (int)(ft_tick_left_ns(&ui->tick, ft_now_ns()) / 1000000) + 1);
		if (ch != ERR)
			ft_ui_key(ui, ch);
	}
	if (ui->rc)
		ft_ui_rc_collect(ui, ui->rc);
	term_modes(ui, false);
	endwin();
	states_free(ui);
	return 0;
}
