// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Processes: top's process list for fragmentation.  One row per process,
 * its threads summed (H shows a row per thread, as htop's H does;
 * model/procs.h): fragmenting fallbacks per second and in total, every
 * fallback, ownership changes, and what it paid: direct compactions,
 * direct reclaims and fragmentation stalls with the time spent in them.
 * Sorted by any column (s / S move the sort column, I inverts, htop's
 * keys where they are free), filtered by command (/), exited processes
 * kept for a minute after they exit, marked x in the S column.  Left and
 * Right scroll the columns after COMMAND, the cgroup last, so that every
 * one can be reached on an 80-column terminal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/procrates.h"
#include "collectors/tracefs.h"
#include "tui/rcfile.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

#define AGE_OUT_NS	(60ull * 1000000000ull)	/* exited rows shown this long */

enum col {
	C_RATE,			/* fragmenting fallbacks/s over the last tick */
	C_FRAG, C_EXTFRAG, C_OWN, C_COMPACT, C_COMPACT_MS, C_RECLAIM, C_RECLAIM_MS,
	C_STALL, C_STALL_MS,
	/* huge-page coverage from smaps_rollup (live: the rows shown, slowly) */
	C_THP,
	C_NR
};

static const struct {
	const char *head;
	int width;
	enum ft_proc_col pc;	/* the counter; C_RATE, C_THP (FT_PC_NR): derived */
	bool ms;		/* counter in us, shown in ms */
} cols[C_NR] = {
	[C_RATE] = { "FRAG/s", 7, FT_PC_FRAGMENTING, false },
	[C_FRAG] = { "FRAG", 8, FT_PC_FRAGMENTING, false },
	[C_EXTFRAG] = { "FALLBK", 8, FT_PC_EXTFRAG, false },
	[C_OWN] = { "OWN", 6, FT_PC_OWNERSHIP, false },
	[C_COMPACT] = { "COMPACT", 7, FT_PC_COMPACTION, false },
	[C_COMPACT_MS] = { "CMP_MS", 8, FT_PC_COMPACTION_US, true },
	[C_RECLAIM] = { "RECLAIM", 7, FT_PC_RECLAIM, false },
	[C_RECLAIM_MS] = { "RCL_MS", 8, FT_PC_RECLAIM_US, true },
	[C_STALL] = { "FSTALL", 6, FT_PC_FRAG_STALL, false },
	[C_STALL_MS] = { "FST_MS", 8, FT_PC_FRAG_STALL_US, true },
	[C_THP] = { "THP%", 5, FT_PC_NR, false },
};

/*
 * The view's state (struct ft_view's state_size: the loop owns it): sort,
 * filter, search, scroll, and where the last draw put the header.
 */
struct procs_state {
	int sort_col;
	bool inverted;
	char comm_filter[32];
	char search[32];		/* F3: the command searched for; its match is marked */
	/* F3 again with the same text: the match after the last (rows, sorted) */
	int search_from;
	int first_row;
	bool threads;		/* H: a row per thread */
	int header_y;	/* the column header's row at the last draw */
	int col_x[C_NR + 1];	/* each column's first column on screen; col_x[c + 1] ends it */
	/* Left/Right: the first counter column shown; C_NR: the cgroup alone */
	int first_col;
	/* the last draw showed columns [first_col, end_col); C_NR + 1: the cgroup too */
	int end_col;
	bool cgroup_cut;		/* the last draw cut a cgroup path to fit ('~') */
	bool hidden[C_NR + 1];	/* columns the setup view (F2) took away; [C_NR]: the cgroup */
	int match_row;	/* the F3 match's place in the sorted rows */
	struct ft_procs by_process;	/* the rows shown when !threads */
	struct ft_procrates rates;	/* fragmenting/s of the rows shown (analysis/procrates.h) */
	int idx[FT_PROCS_MAX];		/* the rows in the order shown (the last draw's) */
	/* the last draw's rows on screen: idx[shown_from, shown_to) */
	int shown_from, shown_to;
	const struct ft_procs *shown;	/* ... of this table */
};

/* @ui's procs state. */
static struct procs_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_procs);
}

static void procs_init(void *state)
{
	struct procs_state *st = state;

	st->sort_col = C_RATE;
	st->header_y = -1;
	st->match_row = -1;
}

/* Process @p's huge-page coverage in %, from its last smaps_rollup; NAN: not read. */
static double thp_pct(const struct ft_session *s, const struct ft_proc *p)
{
	const struct ft_session_smaps *e = ft_session_smaps(s, p->tgid > 0 ? p->tgid : p->pid);

	return e ? ft_cgroup_smaps_coverage(&e->v) * 100 : NAN;
}

static double value(struct procs_state *st, const struct ft_session *s, const struct ft_procs *t,
		    int row,
		    enum col c)
{
	double v;

	if (c == C_RATE)
		return isnan(ft_procrates_get(&st->rates, row)) ? -1 : ft_procrates_get(&st->rates,
			row);
	if (c == C_THP)
		return isnan(v = thp_pct(s, &t->p[row])) ? -1 : v;
	return (double)t->p[row].c[cols[c].pc];
}

/* What the sort compares by: the view's sort column over these rows. */
struct sort_by {
	struct procs_state *st;
	const struct ft_session *s;
	const struct ft_procs *t;
};

static int cmp(const void *a, const void *b, void *arg)
{
	const struct sort_by *by = arg;
	struct procs_state *st = by->st;
	const struct ft_procs *t = by->t;
	int x = *(const int *)a, y = *(const int *)b;
	double vx = value(st, by->s, t, x, st->sort_col), vy = value(st, by->s, t, y, st->sort_col);

	if (vx != vy)
		return (vx > vy ? -1 : 1) * (st->inverted ? -1 : 1);
	/* ties: the most fragmenting, then the lower pid */
	if (t->p[x].c[FT_PC_FRAGMENTING] != t->p[y].c[FT_PC_FRAGMENTING])
		return t->p[x].c[FT_PC_FRAGMENTING] > t->p[y].c[FT_PC_FRAGMENTING] ? -1 : 1;
	return t->p[x].pid - t->p[y].pid;
}

#define FIXED_W		26	/* PID, S and COMMAND: always shown */
#define CGROUP_MIN	10	/* the cgroup is shown when this much room is left */

/* The column header, the sort column marked; where each column is, for a click. */
static void draw_header(struct procs_state *st, int y)
{
	int c, x = FIXED_W;

	ft_put(y, 0, A_REVERSE, "%-*s", COLS, "");
	ft_put(y, 0, A_REVERSE | A_BOLD, "%7s S %-15s", st->threads ? "TID" : "PID", "COMMAND");
	st->header_y = y;
	for (c = 0; c < st->first_col; c++)
		st->col_x[c] = x;		/* scrolled off to the left: no room to click */
	for (c = st->first_col; c < C_NR; c++) {
		st->col_x[c] = x;
		if (st->hidden[c])
			continue;	/* taken away in the setup: no room to click */
		if (x + cols[c].width >= COLS)
			break;
		ft_put(y, x,
		       c == st->sort_col ? (A_REVERSE | A_BOLD | ft_attr(FT_C_BOOST)) : A_REVERSE |
		       A_BOLD,
		       "%*s", cols[c].width, cols[c].head);
		x += cols[c].width + 1;
	}
	st->end_col = c;
	if (c == C_NR && (st->hidden[C_NR] || x + CGROUP_MIN < COLS)) {
		if (!st->hidden[C_NR])
			ft_put(y, x, A_REVERSE | A_BOLD, "CGROUP");
		st->end_col = C_NR + 1;
	}
	for (; c <= C_NR; c++)
		st->col_x[c] = x;
}

/* Process @p (row @row of the table) on screen row @y; @match: F3 found it. */
static void draw_row(struct procs_state *st, const struct ft_session *s, int y,
		     const struct ft_proc *p, int row,
		     bool match)
{
	unsigned int attr = (p->exited ? ft_attr(FT_C_DIM) : A_NORMAL) | (match ? A_REVERSE : 0);
	const char *comm = p->comm[0] ? p->comm : p->pid == 0 ? "swapper" : "?";
	char v[32];
	int c, x = FIXED_W;

	ft_put(y, 0, attr, "%7d %c %-15.15s", p->pid, p->exited ? 'x' : ' ', comm);
	for (c = st->first_col; c < C_NR; c++) {
		double d = c == C_RATE ? ft_procrates_get(&st->rates, row) : c == C_THP ? thp_pct(s,
			p) :
			   (double)p->c[cols[c].pc];

		if (st->hidden[c])
			continue;
		if (x + cols[c].width >= COLS)
			break;
		if (cols[c].ms)
			d /= 1000;
		if (c == C_THP)
			ft_fmt_pct(v, sizeof(v), d);
		else if (c == C_RATE)
			ft_fmt_rate(v, sizeof(v), d, cols[c].width);
		else
			ft_fmt_count(v, sizeof(v), d, cols[c].width);
		ft_put(y, x, c == C_RATE && d > 0 ? ft_attr(FT_C_WARN) | attr : attr,
		       "%*s", cols[c].width, v);
		x += cols[c].width + 1;
	}
	/* the cgroup's tail when it is longer than the room: its leaf names it */
	if (c == C_NR && !st->hidden[C_NR] && x + CGROUP_MIN < COLS && p->cgroup[0]) {
		int room = COLS - x, len = (int)strlen(p->cgroup);

		st->cgroup_cut |= len > room;
		ft_put(y, x, attr, "%s%s", len > room ? "~" : "",
		       p->cgroup + (len > room ? len - room + 1 : 0));
	}
}

/*
 * The status line's right: the rows shown (j/k), the columns shown
 * (Left/Right, counted with the cgroup), when not all; both cut, short,
 * so that a message fits beside them at 80 columns.
 */
static void scroll_info(struct ft_ui *ui, int n, int rows)
{
	struct procs_state *st = S(ui);
	int last = st->first_row + rows < n ? st->first_row + rows : n, nvis = 0, from = 0, to = 0,
	c;
	bool rows_cut = st->first_row || st->first_row + rows < n, cols_cut;

	/* the columns counted as shown: those the setup left, the cgroup last */
	for (c = 0; c <= C_NR; c++) {
		if (st->hidden[c])
			continue;
		nvis++;
		if (c < st->first_col)
			from = nvis;
		if (c < st->end_col)
			to = nvis;
	}
	cols_cut = from > 0 || to < nvis || st->cgroup_cut;
	ui->scroll_info[0] = '\0';
	if (rows_cut && cols_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "rows %d-%d/%d  cols %d-%d/%d",
			 st->first_row + 1,
			 last, n, from + 1, to, nvis);
	else if (rows_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "rows %d-%d of %d (j/k)",
			 st->first_row + 1,
			 last, n);
	else if (cols_cut)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info),
			 "columns %d-%d of %d (Left/Right)", from + 1, to,
			 nvis);
}

/* The rows shown: the thread table, or the processes its threads sum to. */
static const struct ft_procs *rows_table(struct procs_state *st, const struct ft_session *s)
{
	if (st->threads)
		return &s->events.procs;
	ft_procs_by_process(&st->by_process, &s->events.procs);
	return &st->by_process;
}

/* Each tick: the rates move on, drawn or not (a seek's tick before, too). */
static void procs_tick(struct ft_ui *ui)
{
	struct procs_state *st = S(ui);

	if (ui->s->tracing)
		ft_procrates_update(&st->rates, ui->s, rows_table(st, ui->s), st->threads);
}

static void procs_draw(struct ft_ui *ui, int top, int height)
{
	struct procs_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_procs *t = &s->events.procs;
	struct ft_procs_filter f = {
		.comm = st->comm_filter,
		.hide_exited_before = s->t_ns > AGE_OUT_NS,
		.exited_before_ns = s->t_ns > AGE_OUT_NS ? s->t_ns - AGE_OUT_NS : 0,
		.active_only = true,
	};
	int *idx = st->idx;
	int n, i, y = top, rows;
	uint64_t frag_total = 0;
	char self[64];

	if (!s->tracing) {
		ft_put(top + 1, 2, A_BOLD, "No tracepoints: %s",
		       ui->rp ? "the recording has no tracepoint data" : s->trace_err ?
		       ft_tracefs_strerror(s->trace_err) : "tracing is off (--no-trace)");
		return;
	}
	t = rows_table(st, s);
	ft_procrates_update(&st->rates, s, t, st->threads);
	n = ft_procs_sorted(t, FT_PC_FRAGMENTING, &f, idx, FT_PROCS_MAX);
	qsort_r(idx, (size_t)n, sizeof(idx[0]), cmp, &(struct sort_by){ st, s, t });
	for (i = 0; i < t->nr; i++)
		frag_total += t->p[i].c[FT_PC_FRAGMENTING];
	frag_total += t->other[FT_PC_FRAGMENTING];
	self[0] = '\0';
	if (s->self_pid > 0) {	/* fragtop's own footprint, counted as any process's */
		uint64_t own[FT_PC_NR];

		double share;

		ft_procs_of_process(t, s->self_pid, own);
		share = ft_procs_frag_share(t, own[FT_PC_FRAGMENTING]);
		snprintf(self, sizeof(self), "   fragtop itself %llu (%.2f%%)",
			 (unsigned long long)own[FT_PC_FRAGMENTING],
			 isnan(share) ? 0.0 : share * 100);
	}
	ft_put(y, 0, ft_attr(FT_C_DIM),
	       "%d %s%s%s%s   sorted by %s%s   fragmenting fallbacks %llu%s",
	       n,
	       st->threads ? (n == 1 ? "thread" : "threads") : (n == 1 ? "process" : "processes"),
	       st->comm_filter[0] ? " matching '" : "", st->comm_filter,
	       st->comm_filter[0] ? "'" : "", cols[st->sort_col].head,
	       st->inverted ? " (inverted)" : "",
	       (unsigned long long)frag_total, self);
	if (t->folded)
		ft_put(y + 1, 0, ft_attr(FT_C_DIM),
		       "%llu processes folded into the totals (table full): %llu fragmenting "
		       "fallbacks", (unsigned long long)t->folded,
		       (unsigned long long)t->other[FT_PC_FRAGMENTING]);
	else if (!t->named && n)
		ft_put(y + 1, 0, ft_attr(FT_C_DIM), "?: %s", ui->rp ?
		       "this recording has no process names (made before fragtop recorded them)" :
		       "no process named yet");
	y += 2;
	draw_header(st, y++);
	rows = top + height - y;
	/* the first match from search_from on, wrapping to the top */
	st->match_row = -1;
	for (i = 0; st->search[0] && i < n && st->match_row < 0; i++)
		if (strstr(t->p[idx[(st->search_from + i) % n]].comm, st->search))
			st->match_row = (st->search_from + i) % n;
	if (st->match_row >= 0)
		st->search_from = st->match_row;
	if (st->match_row >= 0 &&
	    (st->match_row < st->first_row || st->match_row >= st->first_row + rows))
		st->first_row = st->match_row;	/* bring the match into sight */
	if (st->first_row > n - rows)
		st->first_row = n - rows > 0 ? n - rows : 0;
	if (!n)
		ft_put(y, 2, ft_attr(FT_C_DIM), "%s",
		       st->comm_filter[0] ? "no process matches the filter" :
		       "no process has caused a fallback or stalled yet");
	st->cgroup_cut = false;
	st->shown = t;
	st->shown_from = st->first_row;
	for (i = st->first_row; i < n && y < top + height; i++, y++)
		draw_row(st, s, y, &t->p[idx[i]], idx[i], i == st->match_row);
	st->shown_to = i;
	scroll_info(ui, n, rows);
}

static void key_sort(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	st->sort_col = ch == 'S' ? (st->sort_col + C_NR - 1) % C_NR : (st->sort_col + 1) % C_NR;
}

/* P: by fragmenting fallbacks/s, the largest first (as top's P: not inverted). */
static void key_sort_rate(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	(void)ch;
	st->sort_col = C_RATE;
	st->inverted = false;
}

static void key_invert(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	(void)ch;
	st->inverted = !st->inverted;
}

static void key_threads(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	(void)ch;
	st->threads = !st->threads;
	st->first_row = 0;
}

static void key_filter(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ch;
	if (ft_ui_prompt(ui, "filter by command (empty: none): ", st->comm_filter,
			 sizeof(st->comm_filter)) ||
	    !st->comm_filter[0])
		st->first_row = 0;
}

/*
 * F3: the first row whose command holds the text, marked and brought
 * into sight.  The prompt offers the last text: Enter on it finds the
 * next match (htop's F3 again), a new text the first.
 */
static void key_search(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);
	char last[sizeof(st->search)];

	(void)ch;
	memcpy(last, st->search, sizeof(last));
	if (!ft_ui_prompt_edit(ui, st->search[0] ? "search (Enter: the next match; empty: none): " :
			       "search for a command (empty: none): ", st->search,
			       sizeof(st->search))) {
		st->search[0] = '\0';
		return;
	}
	st->search_from = strcmp(last, st->search) ? 0 : st->match_row + 1;
}

static void scroll_by(struct procs_state *st, int n)
{
	st->first_row = st->first_row + n > 0 ? st->first_row + n : 0;
}

static void key_scroll(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	scroll_by(st, ch == 'j' || ch == KEY_DOWN ? 1 : ch == 'k' || ch == KEY_UP ? -1 :
		  ch == KEY_NPAGE ? LINES / 2 : -(LINES / 2));
}

/*
 * Left, Right: a column at a time, PID and COMMAND kept; Right goes on
 * until the cgroup is alone beside them, with all the room for its path.
 */
static void key_columns(struct ft_ui *ui, int ch)
{
	struct procs_state *st = S(ui);

	(void)ui;
	if (ch == KEY_LEFT) {
		while (st->first_col > 0 && st->hidden[--st->first_col])
			;
	} else if (ch == KEY_RIGHT && st->first_col < C_NR) {
		while (st->first_col < C_NR && st->hidden[st->first_col])
			st->first_col++;	/* the first shown, then the next after it */
		if (st->first_col < C_NR)
			st->first_col++;
		while (st->first_col < C_NR && st->hidden[st->first_col])
			st->first_col++;
	}
}

/* ---- the columns, for the setup view (F2), as htop's Columns page ---- */

int ft_columns_count(void)
{
	return C_NR + 1;
}

const char *ft_columns_name(int i)
{
	return i < C_NR ? cols[i].head : "CGROUP";
}

bool ft_columns_shown(const struct ft_ui *ui, int i)
{
	const struct procs_state *st = S(ui);

	return i >= 0 && i <= C_NR && !st->hidden[i];
}

void ft_columns_toggle(struct ft_ui *ui, int i)
{
	struct procs_state *st = S(ui);

	if (i >= 0 && i <= C_NR)
		st->hidden[i] = !st->hidden[i];
}

/*
 * Before a draw, live: the smaps_rollup of the processes on screen, for
 * THP% (each at most every --smaps-interval); none while the column is
 * hidden or scrolled off, so the cost is the rows a person looks at.
 */
static void procs_focus(struct ft_ui *ui, int top, int height)
{
	struct procs_state *st = S(ui);
	int pids[FT_LIVE_SMAPS_MAX], n = 0, i;

	(void)top;
	(void)height;
	if (!ui->live || st->hidden[C_THP] || st->first_col > C_THP || st->end_col <= C_THP ||
	    !st->shown)
		return;
	for (i = st->shown_from; i < st->shown_to && n < FT_LIVE_SMAPS_MAX; i++) {
		const struct ft_proc *p = &st->shown->p[st->idx[i]];

		if (!p->exited)
			pids[n++] = p->tgid > 0 ? p->tgid : p->pid;
	}
	ft_live_smaps_want(ui->live, pids, n);
}

static void procs_wheel(struct ft_ui *ui, int dir)
{
	struct procs_state *st = S(ui);

	(void)ui;
	scroll_by(st, dir * 3);
}

/* A click on a column's header sorts by it; on the sort column, inverts. */
static bool procs_click(struct ft_ui *ui, int y, int x)
{
	struct procs_state *st = S(ui);
	int c;

	(void)ui;
	if (y != st->header_y)
		return false;
	for (c = 0; c < C_NR; c++)
		if (x >= st->col_x[c] && x < st->col_x[c + 1]) {
			if (c == st->sort_col)
				st->inverted = !st->inverted;
			else
				st->sort_col = c;
			return true;
		}
	return false;
}

static const struct ft_key procs_keys[] = {
	{ "s S F6", { 's', 'S', KEY_F(6) },
	  "sort by the next / previous column (or click its header)",
	  NULL, 0, key_sort },
	{ "P", { 'P' }, "sort by fragmenting fallbacks/s", NULL, 0, key_sort_rate },
	{ "H", { 'H' }, "a row per thread / per process (threads summed)", NULL, 0, key_threads },
	{ "I", { 'I' }, "invert the order", NULL, 0, key_invert },
	{ "/ F4", { '/', KEY_F(4) }, "filter by command (empty clears)", NULL, 0, key_filter },
	{ "F3", { KEY_F(3) },
	  "search: mark a command holding the text; F3 Enter again: the next one", NULL, 0,
	  key_search },
	{ "j k PgUp PgDn", { 'j', 'k', KEY_DOWN, KEY_UP, KEY_NPAGE, KEY_PPAGE }, "scroll", NULL, 0,
	  key_scroll },
	{ "Left Right", { KEY_LEFT, KEY_RIGHT },
	  "scroll the columns after COMMAND (the cgroup last)", NULL, 0,
	  key_columns },
	{ NULL },
};

/*
 * columns=: the columns shown after COMMAND, by header ("" every one,
 * "-" none); a word that names no column is said and left out.
 */
static void load_columns(struct ft_ui *ui, const char *list)
{
	struct procs_state *st = S(ui);
	char word[32];
	const char *p = list;
	int c;

	if (!list[0])
		return;
	for (c = 0; c <= C_NR; c++)
		st->hidden[c] = true;
	while (*p && strcmp(list, "-")) {
		size_t n = strcspn(p, ",");
		bool known = false;

		snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1),
			 p);
		for (c = 0; c <= C_NR; c++)
			if (!strcmp(word, ft_columns_name(c))) {
				st->hidden[c] = false;
				known = true;
			}
		if (!known && !ui->status[0])
			ft_ui_status(ui, FT_DIAG_WARN,
				     "fragtoprc: columns: '%s' is no column of the processes view",
				     word);
		p += n + (p[n] == ',');
	}
}

static void save_columns(struct procs_state *st, char *buf, size_t sz)
{
	size_t len = 0;
	int c, shown = 0;

	buf[0] = '\0';
	for (c = 0; c <= C_NR; c++)
		shown += !st->hidden[c];
	if (shown == C_NR + 1)
		return;		/* every one: the default, not written */
	if (!shown) {
		snprintf(buf, sz, "-");
		return;
	}
	for (c = 0; c <= C_NR && len < sz; c++)
		if (!st->hidden[c])
			len += (size_t)snprintf(buf + len, sz - len, "%s%s", len ? "," : "",
						ft_columns_name(c));
}

/* The rc file keeps the sort column, by its header. */
static void procs_load(struct ft_ui *ui, const struct ft_rc *rc)
{
	struct procs_state *st = S(ui);
	int c;

	for (c = 0; c < C_NR; c++)
		if (!strcmp(rc->sort, cols[c].head))
			st->sort_col = c;
	if (rc->sort[0] && strcmp(rc->sort, cols[st->sort_col].head) && !ui->status[0])
		ft_ui_status(ui, FT_DIAG_WARN,
			     "fragtoprc: sort=%s is no column of the processes view", rc->sort);
	load_columns(ui, rc->columns);
}

static void procs_save(const struct ft_ui *ui, struct ft_rc *rc)
{
	struct procs_state *st = S(ui);

	(void)ui;
	snprintf(rc->sort, sizeof(rc->sort), "%s", cols[st->sort_col].head);
	save_columns(st, rc->columns, sizeof(rc->columns));
}

static const struct ft_legend procs_legend[] = {
	{ "fragtop itself", "the fragmenting fallbacks fragtop's own threads caused, and their "
			    "share (its footprint)" },
	{ "PID TID", "process (or thread, with H) id" },
	{ "S", "x: exited (its counts stay until it scrolls away)" },
	{ "COMMAND", "the task's name (comm; a kernel thread's as the kernel names it)" },
	{ "FRAG/s", "its fragmenting fallbacks per second over the last tick" },
	{ "FRAG", "its fragmenting fallbacks since the start" },
	{ "FALLBK", "all its fallbacks (mm_page_alloc_extfrag)" },
	{ "OWN", "fallbacks that took a whole pageblock (ownership changed)" },
	{ "COMPACT CMP_MS", "its direct compaction stalls, and their time in ms" },
	{ "RECLAIM RCL_MS", "its direct reclaim stalls, and their time in ms" },
	{ "FSTALL FST_MS", "its fragmentation stalls (patched kernels), and their time" },
	{ "THP%", "its huge-page coverage: AnonHugePages over Anonymous in /proc/PID/smaps_rollup, "
		  "read for the "
	  "rows on screen every --smaps-interval seconds (10; the kernel walks the page tables to "
	  "print it); '-' not read yet, or not readable" },
	{ "CGROUP", "its cgroup path; '~' at the start: cut from the left to fit" },
	{ "?",
	  "a task that exited before fragtop could read its name (in a recording with no names at "
	  "all: made before fragtop recorded them, said above the table)" },
	{ NULL, NULL },
};

const struct ft_view ft_view_procs = {
	.state_size = sizeof(struct procs_state),
	.init = procs_init,
	.name = "processes",
	.tab = "procs",
	.draw = procs_draw,
	.keys = procs_keys,
	.legend = procs_legend,
	.tick = procs_tick,
	.click = procs_click,
	.wheel = procs_wheel,
	.load = procs_load,
	.save = procs_save,
	.focus = procs_focus,
};
