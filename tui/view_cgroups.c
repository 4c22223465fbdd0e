// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cgroups: who fragments and who pays, by container.  The processes
 * view's traced counts summed by each process's cgroup
 * (analysis/cgrows.h: the rows add up to the totals, "other" holding
 * the processes folded away), beside what the kernel keeps for the
 * cgroup (kernel/cgroup.h): its tasks, anonymous memory, THP coverage
 * (huge anonymous over anonymous) and memory pressure.  Named as people
 * know them: a pod's namespace/name, a runtime's short id, a systemd
 * unit.  The cgroups are read only while this view is shown
 * (FT_LIVE_WANT_CGROUPS), each tick, into the cost account's
 * "cgroups".  Sorted as the processes are (s S I, a click on a header).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cgrows.h"
#include "collectors/tracefs.h"
#include "model/session.h"
#include "tui/draw.h"
#include "tui/ui.h"
#include "tui/view.h"

/* The columns, what an 80-column terminal shows first: who fragments, who pays, the memory */
enum col {
	C_FRAG, C_COMPACT_MS, C_RECLAIM_MS, C_ANON, C_COVERAGE, C_PSI, C_TASKS,
	C_EXTFRAG, C_OWN, C_COMPACT, C_RECLAIM, C_STALL, C_STALL_MS,
	C_NR
};

static const struct {
	const char *head;
	int width;
	int pc;			/* the traced counter (enum ft_proc_col); -1: the cgroup's own */
	bool ms;		/* counter in us, shown in ms */
} cols[C_NR] = {
	[C_FRAG] = { "FRAG", 8, FT_PC_FRAGMENTING, false },
	[C_COMPACT_MS] = { "CMP_MS", 8, FT_PC_COMPACTION_US, true },
	[C_RECLAIM_MS] = { "RCL_MS", 8, FT_PC_RECLAIM_US, true },
	[C_ANON] = { "ANON", 6, -1, false },
	[C_COVERAGE] = { "THP%", 5, -1, false },
	[C_PSI] = { "PSI10", 6, -1, false },
	[C_TASKS] = { "TASKS", 6, -1, false },
	[C_EXTFRAG] = { "FALLBK", 8, FT_PC_EXTFRAG, false },
	[C_OWN] = { "OWN", 6, FT_PC_OWNERSHIP, false },
	[C_COMPACT] = { "COMPACT", 7, FT_PC_COMPACTION, false },
	[C_RECLAIM] = { "RECLAIM", 7, FT_PC_RECLAIM, false },
	[C_STALL] = { "FSTALL", 6, FT_PC_FRAG_STALL, false },
	[C_STALL_MS] = { "FST_MS", 8, FT_PC_FRAG_STALL_US, true },
};

#define NAME_MIN	24	/* the name column's least room: columns go from the right first */

struct cgroups_state {
	int sort_col;
	bool inverted;
	int first_row;
	int header_y;			/* the column header's row at the last draw */
	int col_x[C_NR + 1];		/* each column's first screen column (clicks) */
	struct ft_procs by_process;	/* the traced rows, threads summed */
	struct ft_cgrows rows;		/* by cgroup, joined with the memory cgroups */
	int idx[FT_CGROWS_MAX + 1];	/* the rows in the order shown */
};

static struct cgroups_state *S(const struct ft_ui *ui)
{
	return ft_view_state(ui, &ft_view_cgroups);
}

static void cgroups_init(void *state)
{
	struct cgroups_state *st = state;

	st->header_y = -1;
}

/* The session's memory cgroups, or NULL before the first CGROUPS input. */
static const struct ft_cgroups *memcgs(const struct ft_session *s)
{
	return s->nr_cgroups && s->cgroups->known ? s->cgroups : NULL;
}

/* Column @c of row @r as a number to sort by and show; NAN: unknown. */
static double value(const struct ft_cgroups *cg, const struct ft_cgrow *r, enum col c)
{
	const struct ft_cgroup *g = cg && r->cg >= 0 ? &cg->g[r->cg] : NULL;

	if (cols[c].pc >= 0)
		return (double)r->c[cols[c].pc];
	if (!g)
		return NAN;
	switch (c) {
	case C_TASKS:
		return g->procs;
	case C_ANON:
		return g->mem.have & (1u << FT_CGM_ANON) ? (double)g->mem.v[FT_CGM_ANON] : NAN;
	case C_COVERAGE:
		return ft_cgroup_mem_coverage(&g->mem) * 100;
	case C_PSI:
		return g->psi.some.have ? g->psi.some.avg10 : NAN;
	default:
		return NAN;
	}
}

struct sort_by {
	const struct cgroups_state *st;
	const struct ft_cgroups *cg;
};

static int cmp(const void *a, const void *b, void *arg)
{
	const struct sort_by *by = arg;
	const struct ft_cgrow *x = &by->st->rows.r[*(const int *)a],
	*y = &by->st->rows.r[*(const int *)b];
	double vx = value(by->cg, x, by->st->sort_col), vy = value(by->cg, y, by->st->sort_col);

	if (x->other != y->other)
		return x->other ? 1 : -1;	/* "other" stays last */
	if (isnan(vx) != isnan(vy))
		return isnan(vx) ? 1 : -1;	/* unknown last, either way */
	if (vx != vy)
		return (vx > vy ? -1 : 1) * (by->st->inverted ? -1 : 1);
	if (x->c[FT_PC_FRAGMENTING] != y->c[FT_PC_FRAGMENTING])
		return x->c[FT_PC_FRAGMENTING] > y->c[FT_PC_FRAGMENTING] ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void draw_header(struct cgroups_state *st, int y)
{
	int c, x = 0;

	ft_put(y, 0, A_REVERSE, "%-*s", COLS, "");
	st->header_y = y;
	for (c = 0; c < C_NR; c++) {
		st->col_x[c] = x;
		if (x + cols[c].width + NAME_MIN >= COLS)
			break;
		ft_put(y, x,
		       c == st->sort_col ? (A_REVERSE | A_BOLD | ft_attr(FT_C_BOOST)) : A_REVERSE |
		       A_BOLD,
		       "%*s", cols[c].width, cols[c].head);
		x += cols[c].width + 1;
	}
	for (; c <= C_NR; c++)
		st->col_x[c] = x;
	ft_put(y, x, A_REVERSE | A_BOLD, "CGROUP");
}

/* The cell of column @c (@w wide) of row @r into @buf. */
static void cell(const struct ft_cgroups *cg, const struct ft_cgrow *r, enum col c, char *buf,
		 size_t sz)
{
	double v = value(cg, r, c);

	if (isnan(v)) {
		snprintf(buf, sz, "-");
		return;
	}
	if (cols[c].ms)
		v /= 1000;
	if (c == C_ANON)
		ft_fmt_pages(buf, sz, (uint64_t)v, 1);	/* bytes as "1.66G" */
	else if (c == C_COVERAGE || c == C_PSI)
		ft_fmt_pct(buf, sz, v);
	else
		ft_fmt_count(buf, sz, v, cols[c].width);
}

static void draw_row(const struct ft_cgroups *cg, int y, const struct ft_cgrow *r)
{
	char v[32], name[FT_CG_PATH];
	int c, x = 0, room, len;

	for (c = 0; c < C_NR && x + cols[c].width + NAME_MIN < COLS; c++) {
		cell(cg, r, c, v, sizeof(v));
		ft_put(y, x, c == C_FRAG && r->c[FT_PC_FRAGMENTING] ? ft_attr(FT_C_WARN) :
		       c == C_PSI && value(cg, r, c) >= 10 ? ft_attr(FT_C_BAD) : A_NORMAL, "%*s",
		       cols[c].width, v);
		x += cols[c].width + 1;
	}
	if (r->other)
		snprintf(name, sizeof(name), "other (%d processes folded or past the table)",
			 r->procs);
	else if (!r->path[0])
		snprintf(name, sizeof(name), "%s", ft_cgrow_name(r));
	else
		ft_cgroup_name(r->path, cg ? cg->pods : NULL, cg ? cg->nr_pods : 0, name,
			       sizeof(name));
	/* a long name keeps its tail: the leaf names it */
	room = COLS - x;
	len = (int)strlen(name);
	ft_put(y, x, r->other || !r->path[0] ? ft_attr(FT_C_DIM) : A_NORMAL, "%s%s",
	       len > room ? "~" : "",
	       name + (len > room ? len - room + 1 : 0));
}

static void cgroups_draw(struct ft_ui *ui, int top, int height)
{
	struct cgroups_state *st = S(ui);
	const struct ft_session *s = ui->s;
	const struct ft_cgroups *cg = memcgs(s);
	uint64_t frag = 0;
	int i, n, y = top, rows;

	ft_procs_by_process(&st->by_process, &s->events.procs);
	ft_cgrows_build(&st->by_process, &st->rows);
	ft_cgrows_join(&st->rows, cg);
	n = st->rows.nr;
	for (i = 0; i < n; i++) {
		st->idx[i] = i;
		frag += st->rows.r[i].c[FT_PC_FRAGMENTING];
	}
	qsort_r(st->idx, (size_t)n, sizeof(st->idx[0]), cmp, &(struct sort_by){ st, cg });
	ft_put(y, 0, ft_attr(FT_C_DIM),
	       "%d cgroup%s (%s)   sorted by %s%s   fragmenting fallbacks %llu", n,
	       n == 1 ? "" : "s",
	       !cg ? (ui->rp ? "no cgroups in the recording" : "reading the cgroups") :
	       cg->version ?
		       (cg->version == 2 ? "cgroup v2" :
			"cgroup v1 memory") : "no memory cgroup hierarchy",
	       cols[st->sort_col].head, st->inverted ? " (inverted)" : "",
	       (unsigned long long)frag);
	if (cg && cg->left_out)		/* first: what the walk did not see may be what matters */
		ft_put(y + 1, 0, ft_attr(FT_C_WARN),
		       "%llu directories not looked at (the walk's bounds), %u cgroups past the %d "
		       "kept", (unsigned long long)cg->left_out, cg->dropped, FT_CG_MAX);
	else if (!s->tracing)
		ft_put(y + 1, 0, ft_attr(FT_C_WARN),
		       "no tracepoints: %s; the traced columns stay 0",
		       ui->rp ? "the recording has no tracepoint data" : s->trace_err ?
		       ft_tracefs_strerror(s->trace_err) : "tracing is off (--no-trace)");
	else if (cg && (cg->dropped || st->rows.untraced_left_out))
		ft_put(y + 1, 0, ft_attr(FT_C_DIM),
		       "%u cgroups past the %d kept, %d with tasks past the table",
		       cg->dropped, FT_CG_MAX, st->rows.untraced_left_out);
	y += 2;
	draw_header(st, y++);
	rows = top + height - y;
	if (st->first_row > n - rows)
		st->first_row = n - rows > 0 ? n - rows : 0;
	if (!n)
		ft_put(y, 2, ft_attr(FT_C_DIM),
		       "no cgroup has tasks, and no task has caused a fallback or stalled yet");
	for (i = st->first_row; i < n && y < top + height; i++, y++)
		draw_row(cg, y, &st->rows.r[st->idx[i]]);
	ui->scroll_info[0] = '\0';
	if (st->first_row || st->first_row + rows < n)
		snprintf(ui->scroll_info, sizeof(ui->scroll_info), "rows %d-%d of %d (j/k)",
			 st->first_row + 1,
			 st->first_row + rows < n ? st->first_row + rows : n, n);
}

static void key_sort(struct ft_ui *ui, int ch)
{
	struct cgroups_state *st = S(ui);

	st->sort_col = ch == 'S' ? (st->sort_col + C_NR - 1) % C_NR : (st->sort_col + 1) % C_NR;
}

static void key_invert(struct ft_ui *ui, int ch)
{
	(void)ch;
	S(ui)->inverted = !S(ui)->inverted;
}

static void scroll_by(struct cgroups_state *st, int n)
{
	st->first_row = st->first_row + n > 0 ? st->first_row + n : 0;
}

static void key_scroll(struct ft_ui *ui, int ch)
{
	scroll_by(S(ui), ch == 'j' || ch == KEY_DOWN ? 1 : ch == 'k' || ch == KEY_UP ? -1 :
		  ch == KEY_NPAGE ? LINES / 2 : -(LINES / 2));
}

static void cgroups_wheel(struct ft_ui *ui, int dir)
{
	scroll_by(S(ui), dir * 3);
}

/* A click on a column's header sorts by it; on the sort column, inverts. */
static bool cgroups_click(struct ft_ui *ui, int y, int x)
{
	struct cgroups_state *st = S(ui);
	int c;

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

static const struct ft_key cgroups_keys[] = {
	{ "s S", { 's', 'S' }, "sort by the next / previous column (or click its header)", NULL, 0,
	  key_sort },
	{ "I", { 'I' }, "invert the order", NULL, 0, key_invert },
	{ "j k PgUp PgDn", { 'j', 'k', KEY_DOWN, KEY_UP, KEY_NPAGE, KEY_PPAGE }, "scroll", NULL, 0,
	  key_scroll },
	{ NULL },
};

static const struct ft_legend cgroups_legend[] = {
	{ "FRAG FALLBK OWN",
	  "the cgroup's tasks' fragmenting fallbacks, all fallbacks, and ownership changes "
	  "(traced, summed over its processes: the rows add up to the totals)" },
	{ "COMPACT CMP_MS", "its tasks' direct compaction stalls, and their time in ms" },
	{ "RECLAIM RCL_MS", "its tasks' direct reclaim stalls, and their time in ms" },
	{ "FSTALL FST_MS", "its tasks' fragmentation stalls (patched kernels), and their time" },
	{ "TASKS", "processes in the cgroup now (cgroup.procs)" },
	{ "ANON", "its anonymous memory (memory.stat: v2 anon, v1 total_rss: the subtree's)" },
	{ "THP%", "huge-page coverage: anonymous memory in huge pages over anonymous memory "
	  "(v2 anon_thp / anon, v1 total_rss_huge / total_rss)" },
	{ "PSI10", "the cgroup's memory pressure, some, over the last 10 s (v2 memory.pressure; "
		   "'-' on v1)" },
	{ "CGROUP", "a pod's namespace/name (from /var/log/pods), a runtime's short container id, "
		    "a systemd unit, "
	  "else the path; '~' at the start: cut from the left to fit" },
	{ "other", "the processes folded away when the processes table was full, and cgroups past "
		   "the table" },
	{ FT_CGU_EXITED_NAME, FT_CGU_EXITED_WHY },
	{ FT_CGU_UNREAD_NAME, FT_CGU_UNREAD_WHY },
	{ FT_CGU_NOT_RECORDED_NAME, FT_CGU_NOT_RECORDED_WHY },
	{ "-", "not known: the cgroup's file has no such field, or the cgroup was not read" },
	{ NULL, NULL },
};

const struct ft_view ft_view_cgroups = {
	.state_size = sizeof(struct cgroups_state),
	.init = cgroups_init,
	.name = "cgroups",
	.tab = "cg",
	.draw = cgroups_draw,
	.keys = cgroups_keys,
	.legend = cgroups_legend,
	.click = cgroups_click,
	.wheel = cgroups_wheel,
	.wants = FT_LIVE_WANT_CGROUPS,
};
