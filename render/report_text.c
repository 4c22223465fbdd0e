// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop report` as text: the built report (analysis/report.h), section after section. */
#include "render/report.h"
#include "render/findings.h"
#include "render/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cell.h"
#include "base/cost.h"
#include "base/sanitize.h"
#include "kernel/cgroup.h"
#include "model/recfmt.h"
#include "kernel/thp.h"
#include "analysis/labels.h"
#include "render/contig.h"
#include "render/fit.h"

/* @v% in at most 8 columns, or @sz - 1 when fewer ("-" when not known); returns @b. */
static const char *fmt_pct(char *b, size_t sz, double v)
{
	return ft_cell_pct(b, sz, v, sz > 9 ? 8 : (int)sz - 1, 1);
}

/*
 * A share of 0-100 as "%5.1f%%" would print it, in 6 columns whatever it holds (one buffer a call
 * site).
 */
#define SHARE6(v) ft_cell_pct((char[16]){ 0 }, 16, (v), 6, 1)

/* An integer in a cell of @sz - 1 columns: whole when it fits, else as ft_cell(). */
static void fmt_int(char *b, size_t sz, long long v)
{
	if (snprintf(b, sz, "%lld", v) >= (int)sz)
		ft_cell(b, sz, (double)v, (int)sz - 1, 0);
}

static const char *when(uint64_t rt_ns, char *b, size_t sz)
{
	time_t t = (time_t)(rt_ns / 1000000000ull);
	struct tm tm;

	/* local time, as --from/--to read a time of day */
	if (!rt_ns || !localtime_r(&t, &tm))
		snprintf(b, sz, "?");
	else
		strftime(b, sz, "%Y-%m-%d %H:%M:%S %Z", &tm);
	return b;
}

/*
 * @text after what is already on the line (which ends at column @indent - 1),
 * wrapped at spaces to lines of at most @width columns, each further line
 * indented by @indent.
 */
static void print_wrapped(int indent, int width, const char *text)
{
	int room = width - indent;

	if (!*text)
		printf("\n");
	while (*text) {
		int n = (int)strlen(text), cut = n;

		if (n > room) {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut == 0)	/* one long word: cut it, not inside a UTF-8 character */
				for (cut = room; cut > 1 && (text[cut] & 0xc0) == 0x80; cut--)
					;
		}
		printf(" %.*s\n", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			printf("%*s", indent - 1, "");
	}
}

/*
 * A row's counters: fragmenting, fallbacks, compactions and their ms, reclaims and their ms,
 * stalls.
 */
static void print_counters(const uint64_t *c, bool fstall)
{
	char cms[16], rms[16];

	printf(" %8llu %7llu %7llu %7s %7llu %7s", (unsigned long long)c[FT_PC_FRAGMENTING],
	       (unsigned long long)c[FT_PC_EXTFRAG], (unsigned long long)c[FT_PC_COMPACTION],
	       ft_cell(cms, sizeof(cms), (double)c[FT_PC_COMPACTION_US] / 1000, 7, 1),
	       (unsigned long long)c[FT_PC_RECLAIM],
	       ft_cell(rms, sizeof(rms), (double)c[FT_PC_RECLAIM_US] / 1000, 7, 1));
	if (fstall)
		printf(" %6llu", (unsigned long long)c[FT_PC_FRAG_STALL]);
}

/*
 * Under a cgroup's row, where its pressure was recorded (v2): its memory stall and compaction's
 * share.
 */
static void print_cgroup_stall(const struct ft_report *rep, const struct ft_cgrow *r)
{
	struct ft_rep_memstall m;
	char pc[16];

	if (r->other || ft_report_cgroup_stall(rep, r->path, r->c[FT_PC_COMPACTION_US], &m))
		return;
	printf("    memory stall %.3f s", (double)m.some_us / 1e6);
	if (!isnan(m.share))
		printf(", direct compaction %s of it", fmt_pct(pc, sizeof(pc), m.share * 100));
	printf("\n");
}

/* The notes under a table: each unattributed bucket @shown holds, by its one name and reason. */
static void print_unread_notes(const bool shown[FT_CGU_NR])
{
	int u;

	for (u = FT_CGU_READ + 1; u < FT_CGU_NR; u++)
		if (shown[u])
			printf("  %s: %s\n", ft_cg_unread_names[u], ft_cg_unread_reasons[u]);
}

/*
 * The ten cgroups whose processes fragmented most (report --by cgroup), as
 * the process table; the name last and whole, as top's command.
 */
static void print_cgroups(const struct ft_report *rep, const struct ft_cgrows *rows,
			  const struct ft_cgroups *c,
			  bool fstall)
{
	char name[FT_CG_PATH], safe[4 * FT_CG_PATH];
	bool unread[FT_CGU_NR] = { false };
	int i, n = 0;

	for (i = 0; i < rows->nr && n < 10; i++)
		n += rows->r[i].c[FT_PC_FRAGMENTING] || rows->r[i].c[FT_PC_EXTFRAG] ||
		rows->r[i].c[FT_PC_COMPACTION] ||
		     rows->r[i].c[FT_PC_RECLAIM] || rows->r[i].c[FT_PC_FRAG_STALL];
	if (!n)
		return;
	printf("  procs fragment  fallbk compact  cmp ms reclaim  rcl ms%s  cgroup\n",
	       fstall ? " fstall" : "");
	for (i = 0, n = 0; i < rows->nr && n < 10; i++) {
		const struct ft_cgrow *r = &rows->r[i];

		if (!r->c[FT_PC_FRAGMENTING] && !r->c[FT_PC_EXTFRAG] && !r->c[FT_PC_COMPACTION] &&
		    !r->c[FT_PC_RECLAIM] &&
		    !r->c[FT_PC_FRAG_STALL])
			continue;
		n++;
		if (r->other || !r->path[0])
			snprintf(name, sizeof(name), "%s", ft_cgrow_name(r));
		else
			ft_cgroup_name(r->path, c ? c->pods : NULL, c ? c->nr_pods : 0, name,
				       sizeof(name));
		if (!r->other && !r->path[0])
			unread[r->unread] = true;
		printf("  %5d", r->procs);
		print_counters(r->c, fstall);
		printf("  %s\n", ft_safe(name, safe, sizeof(safe)));
		print_cgroup_stall(rep, r);
	}
	print_unread_notes(unread);
}

/*
 * The ten processes that fragmented most, and what they paid in stalls;
 * with the seeds' stall on the recorded kernel, its count too (the name
 * gives up two columns so the line stays within 80).
 */
static void print_processes(const struct ft_procs *t, bool fstall, bool by_thread)
{
	static const struct ft_procs_filter active = { .active_only = true };
	int idx[10], n = ft_procs_sorted(t, FT_PC_FRAGMENTING, &active, idx, 10), i;
	int w = fstall ? 13 : 15, unnamed = 0;
	char safe[4 * sizeof(t->p[0].comm)];

	if (!n)
		return;
	printf("  %-*s    pid fragment  fallbk compact  cmp ms reclaim  rcl ms%s\n", w,
	       by_thread ? "threads" : "processes",
	       fstall ? " fstall" : "");
	for (i = 0; i < n; i++) {
		const struct ft_proc *p = &t->p[idx[i]];

		printf("  %-*.*s %7d", w, w,
		       p->comm[0] ? ft_safe(p->comm, safe, sizeof(safe)) : p->pid == 0 ?
			       "swapper" : "?",
		       p->pid);
		print_counters(p->c, fstall);
		printf("\n");
		unnamed += !p->comm[0] && p->pid != 0;
	}
	if (unnamed)
		printf("  ?: %s\n",
		       t->named ? "exited before fragtop read its name, and the tracer kept none"
					     : "this recording has no process names (made before "
					       "fragtop recorded them)");
}

/* the text's row names (the JSON's keys are ft_lat_names[]) */
static const char *const lat_label[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction", [FT_LAT_RECLAIM] = "direct_reclaim",
	[FT_LAT_FRAG_STALL] = "fragmentation_stall", [FT_LAT_BG_COMPACTION] = "bg compaction",
};

static void print_lat_line(const struct ft_rep_stretch *f, int src, bool present)
{
	const struct ft_rep_lat *l = &f->pct[src];
	char mean[16];

	if (!present) {
		printf("  %-19s absent on the recorded kernel\n", lat_label[src]);
		return;
	}
	if (!f->pct_known[src]) {
		printf("  %-19s out of memory\n", lat_label[src]);
		return;
	}
	printf("  %-19s %7llu %7s %7llu %7llu %7llu %8llu %8llu%s\n", lat_label[src],
	       (unsigned long long)l->count,
	       ft_cell(mean, sizeof(mean), l->count ? l->mean_us : 0.0, 7, 0),
	       (unsigned long long)l->p50_us, (unsigned long long)l->p90_us,
	       (unsigned long long)l->p99_us, (unsigned long long)l->p999_us,
	       (unsigned long long)l->max_us, l->exact ? "" : " ~");
}

/* One row per power of two: "[lo, hi) us  count  bar", the bar against the fullest row. */
static void print_hist_rows(const char *name, const struct ft_hist *h)
{
	uint64_t row[FT_HIST_BUCKETS / FT_HIST_SUB + 1] = { 0 }, peak = 0;
	int b, r, first = -1, last = -1, nrows = 0;

	for (b = 0; b < (int)FT_HIST_BUCKETS; b++) {
		r = b / (int)FT_HIST_SUB;
		row[r] += h->bucket[b];
		if (h->bucket[b]) {
			if (first < 0)
				first = r;
			last = r;
		}
	}
	if (last < 0)
		return;
	for (r = first; r <= last; r++)
		if (row[r] > peak)
			peak = row[r];
	printf("  %s, us\n", name);
	for (r = first; r <= last; r++, nrows++) {
		uint64_t lo = ft_hist_bucket_lo((unsigned int)r * FT_HIST_SUB);
		uint64_t hi = ft_hist_bucket_hi((unsigned int)r * FT_HIST_SUB + FT_HIST_SUB - 1);
		int w = peak ? ft_cell_index((double)row[r] * 40 / (double)peak + 0.5, 0, 40) : 0;

		if (row[r] && !w)
			w = 1;
		printf("    [%10llu, %10llu) %9llu %.*s\n", (unsigned long long)lo,
		       (unsigned long long)hi, (unsigned long long)row[r], w,
		       "########################################");
	}
}

/* Direct stalls as traced (beside compact_stall above), background by node. */
static void print_compaction_split(const struct ft_report *rep, const struct ft_rep_stretch *f)
{
	long long stalls = (long long)f->d[FT_CF_DIRECT_COMPACT];
	int n, col = 0;

	/* an attempt may run no zone's compaction (deferred, skipped) or several */
	if (rep->s->events.exact_direct)
		printf("  direct (traced)  stalls %lld (attempts, counted as the kernel counts "
		       "compact_stall)\n                   zone compactions run in them %llu (the "
		       "latency table's count)\n",
		       stalls, (unsigned long long)f->direct_zone_runs);
	else
		printf("  direct (traced)  stalls %lld (begin/end pairs: no try_to_compact_pages "
		       "traced)\n",
		       stalls);
	printf("  background       compactions %lld", (long long)f->d[FT_CF_BG_COMPACT]);
	for (n = 0; n <= FT_EV_NODES; n++) {
		const struct ft_bg_node *g = &f->bg[n];

		if (!g->count && !g->wakes)
			continue;
		if (col++ % 2 == 0)
			printf("\n   ");
		if (n < FT_EV_NODES)
			printf("   N%-2d %llu, %.1f ms, %llu wakes", n,
			       (unsigned long long)g->count,
			       (double)g->us / 1000.0, (unsigned long long)g->wakes);
		else
			printf("   N?  %llu, %.1f ms, %llu wakes", (unsigned long long)g->count,
			       (double)g->us / 1000.0, (unsigned long long)g->wakes);
	}
	printf("\n");
}

/* The head: the file, the host, the window, how the file ended. */
static void text_head(const struct ft_report *rep, bool verbose)
{
	const struct ft_rep_file *f = &rep->file;
	const struct ft_session *s = rep->s;
	char t1[64], t2[32];
	uint64_t i;

	printf("recording %s\n", f->path);
	printf("  host %s, kernel %s, started %s\n", s->host.hostname, s->host.release,
	       when(s->first_rt_ns, t1, sizeof(t1)));
	if (rep->from_s > 0 || !isinf(rep->to_s))
		printf("  window %.1f s to %.1f s into the recording: the ticks at both ends "
		       "included,\n  the first one the baseline the figures are counted from\n",
		       rep->all->from_s, rep->all->to_s);
	printf("  %.1f s, %llu samples; %s%s%s\n", ft_report_duration(rep),
	       (unsigned long long)rep->ticks,
	       f->clean ? "closed cleanly" : f->truncated ?
		       "cut short (read up to the last complete chunk)" :
	       "not closed (killed?): read by scanning",
	       f->bad_chunks ? ", damaged chunks skipped: " : "",
	       f->bad_chunks ? (snprintf(t2, sizeof(t2), "%llu", (unsigned long long)f->bad_chunks),
				t2) : "");
	/* the session skipped them: what they would have said is not in the figures */
	if (s->bad_inputs)
		printf("  %llu malformed inputs skipped%s\n", (unsigned long long)s->bad_inputs,
		       verbose ? ":" : " (-v says which)");
	if (s->map_refused)
		printf("  no pageblock map: the zones span %llu pageblocks, past the %u of the "
		       "largest host\n  (64 TiB): a recording of no real host\n",
		       (unsigned long long)s->map_refused,
		       FT_PBMAP_MAX_BLOCKS);
	for (i = 0; verbose && i < s->bad_inputs && i < FT_SESSION_BAD_KEPT; i++)
		printf("    after tick %llu: %s record (type %u, sub %u, %u bytes): %s\n",
		       (unsigned long long)s->bad[i].tick, ft_rec_type_name(s->bad[i].type),
		       s->bad[i].type,
		       s->bad[i].sub, s->bad[i].len, s->bad[i].why);
	if (verbose && s->bad_inputs > FT_SESSION_BAD_KEPT)
		printf("    and %llu more like them, not kept\n",
		       (unsigned long long)(s->bad_inputs - FT_SESSION_BAD_KEPT));
}

/* Fallbacks in all and by zone, then the processes behind them. */
static void text_extfrag(const struct ft_report *rep, const struct ft_report_style *st)
{
	const struct ft_session *s = rep->s;
	const int64_t *d = rep->all->d;
	int k;

	if (!s->tracing) {
		printf("  no tracepoints in this recording: fallback and stall figures are "
		       "absent\n");
	} else {
		printf("\nextfrag events     total %lld   fragmenting (below order %d) %lld\n"
		       "                   ownership changes %lld   lost %llu\n",
		       (long long)d[FT_CF_EXTFRAG], s->events.pageblock_order,
		       (long long)d[FT_CF_FRAGMENTING],
		       (long long)d[FT_CF_OWNERSHIP], (unsigned long long)s->lost);
		for (k = 0; k < rep->nr_zone_fb; k++) {
			const struct ft_rep_zone_fb *z = &rep->zone_fb[k];

			if (!z->total)
				continue;
			if (!z->outside)
				printf("  N%d %-10s total %llu  fragmenting %llu\n", z->node,
				       z->zone,
				       (unsigned long long)z->total,
				       (unsigned long long)z->fragmenting);
			else
				printf("  outside zones total %llu  fragmenting %llu\n",
				       (unsigned long long)z->total,
				       (unsigned long long)z->fragmenting);
		}
	}
	if (rep->procs && st->by_cgroup && rep->cgrows)
		print_cgroups(rep, rep->cgrows, rep->cgroups, rep->lat_present[FT_LAT_FRAG_STALL]);
	else if (rep->procs)
		print_processes(rep->procs, rep->lat_present[FT_LAT_FRAG_STALL], st->by_thread);
}

/* @v as "%.0f" in at most 10 columns, or "-" when it is not known (NAN). */
static const char *ratio(char *buf, size_t sz, double v)
{
	return ft_cell(buf, sz, v, 10, 0);
}

/*
 * Futile compaction: of what each scanner isolated, by who ran it, the
 * share in blocks that hold unmovable pages (model/events.h), when the
 * recording traced the isolate events.
 */
static void text_futile(const struct ft_report *rep)
{
	const struct ft_rep_futile *f = &rep->futile;
	const struct ft_futile *d = &f->d;
	int w, sc;
	bool any = false;

	if (!f->traced)
		return;
	printf("futile compaction  in blocks holding unmovable pages (map-read blocks only)\n");
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		char sh[2][16];

		if (!d->events[w][FT_ISO_MIGRATE] && !d->events[w][FT_ISO_FREE])
			continue;
		any = true;
		for (sc = 0; sc < FT_ISO_SCANNER_NR; sc++) {
			fmt_pct(sh[sc], sizeof(sh[sc]), 100 * f->share[w][sc]);
		}
		printf("  %-9s migrate scanned %llu (%s futile, %llu unread)  free taken %llu (%s, "
		       "%llu unread)\n",
		       ft_iso_who_names[w], (unsigned long long)d->scanned[w][FT_ISO_MIGRATE],
		       sh[0],
		       (unsigned long long)d->scanned_unknown[w][FT_ISO_MIGRATE],
		       (unsigned long long)d->taken[w][FT_ISO_FREE], sh[1],
		       (unsigned long long)d->taken_unknown[w][FT_ISO_FREE]);
	}
	if (!any)
		printf("  no isolation traced in the window\n");
}

/*
 * Compaction's cost as mmtests reports it (vmstat): pages the migrate and
 * free scanners scanned and pages isolated, then per direct compaction
 * stall (what direct compaction scanned: struct ft_rep_direct_cost) and
 * per kcompactd wake, and pages scanned per success.
 */
static void text_compaction_cost(const struct ft_report *rep)
{
	const struct ft_rep_cost *c = &rep->cost;
	const struct ft_rep_direct_cost *d = &rep->direct;
	char x[3][24];

	if (!c->have)
		return;
	printf("compaction cost    scanned  migrate %lld  free %lld   isolated %lld\n",
	       (long long)c->migrate, (long long)c->free, (long long)c->isolated);
	printf("  per direct stall   migrate %s  free %s   scanned per success %s\n",
	       ratio(x[0], sizeof(x[0]), c->direct_migrate),
	       ratio(x[1], sizeof(x[1]), c->direct_free),
	       ratio(x[2], sizeof(x[2]), c->direct_per_success));
	if (!d->known && d->stalls > 0)
		printf("    (the whole less kcompactd's: untraced compaction asked through\n"
		       "    compact_memory would be in it)\n");
	else if (d->ticks_out)
		printf("    over %llu of %llu ticks: %llu left out, where compaction was asked\n"
		       "    outside kcompactd (compact_memory), with their %lld stalls\n",
		       (unsigned long long)d->ticks, (unsigned long long)(d->ticks + d->ticks_out),
		       (unsigned long long)d->ticks_out, (long long)d->stalls_out);
	printf("  per kcompactd wake migrate %s  free %s   (%lld wakes)\n",
	       ratio(x[0], sizeof(x[0]), c->wake_migrate), ratio(x[1], sizeof(x[1]), c->wake_free),
	       (long long)c->wakes);
}

/*
 * The host's memory stall (PSI some, and full) over the window, and the
 * share of it direct compaction's traced time makes (struct ft_rep_memstall).
 */
static void text_memstall(const struct ft_report *rep)
{
	const struct ft_rep_memstall *m = &rep->all->mem;
	char v[16];

	if (!rep->all->mem_known)
		return;
	printf("memory stall       some %.3f s", (double)m->some_us / 1e6);
	if (m->full_us != UINT64_MAX)
		printf("   full %.3f s", (double)m->full_us / 1e6);
	if (!isnan(m->compaction_us))
		printf("   direct compaction %s s",
		       ft_cell(v, sizeof(v), m->compaction_us / 1e6, 12, 3));
	if (!isnan(m->share))
		printf(" (%s of some)", fmt_pct(v, sizeof(v), m->share * 100));
	printf("\n");
}

/* Page allocation failures in the kernel log (when it was read): by order, and the newest. */
static void text_kmsg(const struct ft_report *rep)
{
	const struct ft_rep_kmsg *k = &rep->kmsg;
	char comm[64], gfp[192];
	int o;

	if (!k->known)
		return;
	printf("page alloc failures %llu in the kernel log", (unsigned long long)k->failures);
	for (o = 0; o < FT_KMSG_ORDERS; o++)
		if (k->by_order[o])
			printf("   order %d%s: %llu", o, o == FT_KMSG_ORDERS - 1 ? "+" : "",
			       (unsigned long long)k->by_order[o]);
	if (k->lost)
		printf("   (%llu log records overwritten unread)", (unsigned long long)k->lost);
	printf("\n");
	if (k->have_newest)
		printf("                   newest: %s, order %d, %s\n",
		       ft_safe(k->newest.comm, comm, sizeof(comm)),
		       k->newest.order, ft_safe(k->newest.gfp, gfp, sizeof(gfp)));
}

/* THP faults, compaction outcomes and the direct/background split. */
static void text_outcomes(const struct ft_report *rep)
{
	const struct ft_rep_stretch *f = rep->all;
	const int64_t *d = f->d;
	char v[64], mean[16], min[16], last[16];

	fmt_pct(v, sizeof(v), 100 * f->thp_success);
	printf("THP faults         alloc %lld   fallback %lld   success %s\n",
	       (long long)d[FT_CF_THP_ALLOC], (long long)d[FT_CF_THP_FALLBACK], v);
	fmt_pct(v, sizeof(v), 100 * f->compact_success);
	printf("compaction         stalls %lld   success %lld   fail %lld   success/stall %s\n",
	       (long long)d[FT_CF_COMPACT_STALL], (long long)d[FT_CF_COMPACT_SUCCESS],
	       (long long)d[FT_CF_COMPACT_FAIL], v);
	if (rep->s->tracing)
		print_compaction_split(rep, f);
	text_compaction_cost(rep);
	text_futile(rep);
	text_memstall(rep);
	text_kmsg(rep);
	/* the kernel's own fragmentation gauge, host-wide; absent before 6.15, never 0 */
	if (rep->in_blocks.n)
		printf("free in pageblocks mean %s  min %s  last %s of free memory\n",
		       fmt_pct(mean, sizeof(mean), ft_report_level_mean(&rep->in_blocks)),
		       fmt_pct(min, sizeof(min), rep->in_blocks.min),
		       fmt_pct(last, sizeof(last), rep->in_blocks.last));
	else
		printf("free in pageblocks absent (nr_free_pages_blocks: kernels 6.15+)\n");
}

/* THP by size: each size that was on, or served or fell back, in the window. */
static void text_thp(const struct ft_report *rep)
{
	const struct ft_rep_thp *t = &rep->thp;
	char size[16], en[24], pc[16];
	int i, shown = 0;

	if (!t->have)
		return;
	for (i = 0; i < t->d.nr; i++) {
		const struct ft_thp_size *z = &t->d.s[i];
		const struct ft_rep_thp_anon *an = &t->anon[i];

		ft_thp_selected(z->enabled, en, sizeof(en));
		if (!an->have || (!an->alloc && !an->fallback && (!en[0] || !strcmp(en, "never"))))
			continue;
		if (!shown++)
			printf("THP by size        %-8s %10s %10s %8s %8s\n", "anon", "alloc",
			       "fallback", "success",
			       "split");
		ft_thp_size_label(z->kb, size, sizeof(size));
		fmt_pct(pc, sizeof(pc), 100 * an->success);
		printf("  %-16s %-8s %10llu %10llu %8s %8llu\n", size, en[0] ? en : "-",
		       (unsigned long long)an->alloc,
		       (unsigned long long)an->fallback, pc, (unsigned long long)an->split);
	}
	if (!shown)
		printf("THP by size        no size was on or faulted in the window\n");
}

/* The boost by zone, and the pageblock map's classes at its last scan. */
static void text_boost_map(const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	int k, c;

	if (rep->boost_nr) {
		const struct ft_zoneinfo *zi = &s->sample.zoneinfo;

		printf("watermark boost    (sampled between ticks)   peak  boosted  episodes    "
		       "reads\n");
		for (k = 0; k < rep->boost_nr && (size_t)k < zi->nr; k++) {
			const struct ft_boost_tick *bz = &rep->boost_zone[k];
			char pct[16];

			if (!zi->zones[k].present)
				continue;
			printf("  N%d %-10s %30llu %8s %9llu %8llu\n", zi->zones[k].node,
			       zi->zones[k].name, (unsigned long long)bz->peak,
			       ft_cell_pct(pct, sizeof(pct), 100.0 * ft_boost_share(bz), 8, 2),
			       (unsigned long long)bz->episodes, (unsigned long long)bz->samples);
		}
	}
	if (s->map_err || !s->map.nr)
		return;
	printf("pageblock map at the last recorded scan\n");
	for (k = 0; k < (int)s->map.nr; k++) {
		const struct ft_pbmap_zone *z = &s->map.zones[k];

		printf("  N%d %-10s %u blocks:", z->node, z->name, z->nr_blocks);
		for (c = 0; c < FT_PB_NR; c++)
			if (z->count[c])
				printf(" %s %u", ft_pb_names[c], z->count[c]);
		printf("  pollution %llu pages  THP-backed %llu pages\n",
		       (unsigned long long)z->pollution,
		       (unsigned long long)z->thp);
		ft_render_contig_text(stdout, s, (size_t)k, "    ");
	}
	ft_render_contig_nodes_text(stdout, s, "  ");
}

/*
 * Will it fit over the window: each size's smallest now and after compaction for the host, and the
 * last.
 */
static void text_fits(const struct ft_report *rep)
{
	const struct ft_rep_fits *f = &rep->fits;
	char size[24], at[24], after[48];
	size_t k;

	if (!f->samples)
		return;
	printf("\ncontiguity of the host (%llu samples of the zone files in the window)\n",
	       (unsigned long long)f->samples);
	printf("  size       now min       at  after compaction min       at  last now/after\n");
	for (k = 0; k < f->sizes.nr; k++) {
		const struct ft_fit *l = &f->last[k];

		ft_fit_size_name(f->sizes.order[k], rep->s->host.page_size, size, sizeof(size));
		snprintf(at, sizeof(at), "+%.0fs", ft_report_secs(rep, f->now_min_t_ns[k]));
		printf("  %-6s %11llu %8s", size, (unsigned long long)f->now_min[k], at);
		if (f->after_known[k]) {
			snprintf(at, sizeof(at), "+%.0fs",
				 ft_report_secs(rep, f->after_min_t_ns[k]));
			printf(" %21llu %8s", (unsigned long long)f->after_min[k], at);
		} else {
			printf(" %21s %8s", "-", "");
		}
		if (l->map)
			snprintf(after, sizeof(after), "%llu", (unsigned long long)l->after_lo);
		else
			snprintf(after, sizeof(after), "-");
		printf("  %llu/%s\n", (unsigned long long)l->now_lo, after);
	}
	printf("  now: the free lists above the min watermark; after compaction: the\n"
	       "  pageblock map's (- where the recording has no map scan)\n");
}

/* Stall latencies: percentiles, the kernel's own count, histograms. */
static void text_stalls(const struct ft_report *rep)
{
	const struct ft_rep_stretch *f = rep->all;
	int lat;

	if (!rep->s->tracing)
		return;
	printf("\nstall latency, us     count    mean     p50     p90     p99    p99.9      max\n");
	for (lat = 0; lat < FT_LAT_NR; lat++)
		print_lat_line(f, lat, rep->lat_present[lat]);
	if (f->have[FT_CF_VM_FRAG_STALL])
		printf("  fragmentation stalls in /proc/vmstat (fragment_stall): %lld\n",
		       (long long)f->d[FT_CF_VM_FRAG_STALL]);
	for (lat = 0; lat < FT_LAT_NR; lat++)
		if (rep->raw_full[lat])
			printf("  ~ %s: too many to keep, percentiles from the histogram "
			       "(at most 6.25%% high)\n", ft_lat_names[lat]);
	for (lat = 0; lat < FT_LAT_NR; lat++)
		print_hist_rows(lat_label[lat], &f->lat[lat]);
}

/* Every control change in the window, fragtop's and those seen from outside, in time order. */
static void text_changes(const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	const struct ft_session_audit *au;
	int ia, io, k, other;
	size_t i;

	for (i = 0, k = 0; i < s->nr_audits; i++)
		k += !ft_session_audit_note(&s->audits[i]) &&
		ft_report_in_window(rep, s->audits[i].t_ns);
	for (i = 0, other = 0; i < (size_t)rep->nr_outside; i++)
		/* claimed by another fragtop */
		other += strcmp(rep->outside[i].how, "outside") != 0;
	printf("\ncontrol changes    %d", k + rep->nr_outside);
	if (rep->nr_outside - other && other)
		printf(" (%d of them outside this fragtop: %d by another fragtop process, %d "
		       "outside fragtop)",
		       rep->nr_outside, other, rep->nr_outside - other);
	else if (other)
		printf(" (%d of them by another fragtop process)", other);
	else if (rep->nr_outside)
		printf(" (%d of them outside this fragtop)", rep->nr_outside);
	printf("\n");
	if (s->audits_dropped)
		printf("  (%llu more in the file were not kept: at most %d are)\n",
		       (unsigned long long)s->audits_dropped, FT_SESSION_MAX_AUDITS);
	if (rep->outside_dropped)
		printf("  (%llu more outside changes not listed: at most %d are)\n",
		       (unsigned long long)rep->outside_dropped, FT_REP_MAX_OUTSIDE);
	for (ia = io = 0; (au = ft_report_next_change(rep, &ia, &io));) {
		if (!ft_report_in_window(rep, au->t_ns))
			continue;
		printf("  %+8.1fs  %-7.7s %-9.9s", ft_report_secs(rep, au->t_ns),
		       au->how, au->outcome);
		print_wrapped(31, 80, au->msg);
	}
}

/*
 * The columns of the text table of intervals between control changes:
 * a heading (two lines), a width and how a cell is written from the
 * interval (@cf: the counter of the growth and rate columns).  A column
 * is a row here.  The JSON intervals are the counter registry's
 * (json_counters()).
 */
typedef void iv_cell_fn(char *b, size_t sz, const struct ft_rep_interval *iv,
			const struct ft_rep_stretch *f,
			enum ft_cf cf);

static iv_cell_fn cell_from, cell_to, cell_boost, cell_growth, cell_per_s, cell_thp_ok,
cell_compact_mean;

static const struct iv_col {
	const char *head[2];
	int width;
	iv_cell_fn *cell;
	enum ft_cf cf;
} iv_cols[] = {
	{ { "from s", "" }, 7, cell_from, 0 },
	{ { "to s", "" }, 7, cell_to, 0 },
	{ { "boost", "" }, 6, cell_boost, 0 },
	{ { "extfrag", "" }, 8, cell_growth, FT_CF_EXTFRAG },
	{ { "fragment", "" }, 9, cell_growth, FT_CF_FRAGMENTING },
	{ { "frag/s", "" }, 8, cell_per_s, FT_CF_FRAGMENTING },
	{ { "THP ok", "" }, 7, cell_thp_ok, 0 },
	{ { "stalls", "" }, 7, cell_growth, FT_CF_COMPACT_STALL },
	{ { "compact", "mean us" }, 9, cell_compact_mean, 0 },
};

static void cell_from(char *b, size_t sz, const struct ft_rep_interval *iv,
		      const struct ft_rep_stretch *f,
		      enum ft_cf cf)
{
	(void)iv, (void)cf;
	ft_cell(b, sz, f->from_s, (int)sz - 1, 1);
}

static void cell_to(char *b, size_t sz, const struct ft_rep_interval *iv,
		    const struct ft_rep_stretch *f,
		    enum ft_cf cf)
{
	(void)iv, (void)cf;
	ft_cell(b, sz, f->to_s, (int)sz - 1, 1);
}

static void cell_boost(char *b, size_t sz, const struct ft_rep_interval *iv,
		       const struct ft_rep_stretch *f,
		       enum ft_cf cf)
{
	(void)f, (void)cf;
	fmt_int(b, sz, (long long)iv->boost);
}

static void cell_growth(char *b, size_t sz, const struct ft_rep_interval *iv,
			const struct ft_rep_stretch *f,
			enum ft_cf cf)
{
	(void)iv;
	fmt_int(b, sz, (long long)f->d[cf]);
}

static void cell_per_s(char *b, size_t sz, const struct ft_rep_interval *iv,
		       const struct ft_rep_stretch *f,
		       enum ft_cf cf)
{
	(void)iv;
	ft_cell(b, sz, isnan(f->rate[cf]) ? 0.0 : f->rate[cf], (int)sz - 1, 1);
}

static void cell_thp_ok(char *b, size_t sz, const struct ft_rep_interval *iv,
			const struct ft_rep_stretch *f,
			enum ft_cf cf)
{
	(void)iv, (void)cf;
	fmt_pct(b, sz, 100 * f->thp_success);
}

static void cell_compact_mean(char *b, size_t sz, const struct ft_rep_interval *iv,
			      const struct ft_rep_stretch *f,
			      enum ft_cf cf)
{
	const struct ft_rep_lat *l = &f->pct[FT_LAT_COMPACTION];

	(void)iv, (void)cf;
	ft_cell(b, sz, l->count ? l->mean_us : 0.0, (int)sz - 1, 0);
}

/* A row per interval between control changes. */
static void text_intervals(const struct ft_report *rep)
{
	size_t col;
	int k, line;

	printf("\nintervals between changes\n");
	for (line = 0; line < 2; line++) {
		printf(" ");
		for (col = 0; col < sizeof(iv_cols) / sizeof(iv_cols[0]); col++)
			printf(" %*s", iv_cols[col].width, iv_cols[col].head[line]);
		printf("\n");
	}
	for (k = 0; k < rep->nr_iv; k++) {
		printf(" ");
		for (col = 0; col < sizeof(iv_cols) / sizeof(iv_cols[0]); col++) {
			char cell[32];

			/*
			 * the cell's width, not more: a figure that does not fit is shortened, not
			 * cut
			 */
			iv_cols[col].cell(cell, (size_t)iv_cols[col].width + 1, &rep->iv[k],
					  &rep->iv_fig[k],
					  iv_cols[col].cf);
			printf(" %*s", iv_cols[col].width, cell);
		}
		printf("\n  %7s after", "");
		print_wrapped(16, 80, rep->iv[k].opened_by[0] ? rep->iv[k].opened_by : "(start)");
	}
}

/*
 * Fragmenting fallbacks by the kernel stack that made them (--stacks):
 * the groups, then those without a stack and past the table, which with
 * them add up to the window's fragmenting fallbacks.
 */
static void text_stacks(const struct ft_report *rep)
{
	const struct ft_rep_stacks *st = &rep->stacks;
	size_t i, shown;

	if (!st->have)
		return;
	shown = st->nr < FT_REP_STACKS_SHOWN ? st->nr : FT_REP_STACKS_SHOWN;
	printf("\nfragmenting fallbacks by kernel stack (--stacks: at most %u a second%s)\n",
	       st->per_sec, st->err ? ", refused by the kernel" : "");
	printf("     count  share  stack, innermost first, the allocator's frames left out\n");
	for (i = 0; i < shown; i++) {
		printf("%10llu %6s ", (unsigned long long)st->g[i].fragmenting,
		       SHARE6(st->share[i]));
		print_wrapped(19, 80, st->g[i].key);
	}
	if (st->nr > shown)
		printf("%10llu %6s  %zu more stacks\n", (unsigned long long)st->rest,
		       SHARE6(st->share_rest),
		       st->nr - shown);
	if (st->other)
		printf("%10llu %6s  stacks past the first %d\n", (unsigned long long)st->other,
		       SHARE6(st->share_other),
		       FT_EV_STACKS);
	printf("%10llu %6s  without a stack (over the budget, or before stacks were on)\n",
	       (unsigned long long)st->unstacked, SHARE6(st->share_unstacked));
	printf("%10llu         fragmenting fallbacks in all\n", (unsigned long long)st->all);
}


/*
 * page_owner_stacks/show_stacks (6.9+), the last the recording has: the
 * stacks that own the most pages anywhere, "*" on those that also pin
 * mixed blocks (the groups above).
 */
static void text_owner_stacks(const struct ft_report *rep, const struct ft_rep_owners *o)
{
	char stack[256];
	size_t i;

	if (!o->have_stacks)
		return;
	printf("\nstacks owning the most pages anywhere (page_owner_stacks/show_stacks at %.0f "
	       "s%s): %zu stacks, ",
	       ft_report_secs(rep, o->stacks_t_ns), o->stacks_cut ? ", cut" : "", o->nr_stacks);
	if (o->stacks_pages == FT_PO_PAGES_SATURATED)
		printf("pages past 2^64 in all (saturated: not a real count, no shares)\n");
	else
		printf("%llu pages\n", (unsigned long long)o->stacks_pages);
	for (i = 0; i < o->nr_top; i++) {
		char share[16] = "     -";

		if (!isnan(o->top_pct[i]))
			snprintf(share, sizeof(share), "%6s", SHARE6(o->top_pct[i]));
		printf("%10llu %s %c ", (unsigned long long)o->top[i].pages, share,
		       o->top_pins[i] ? '*' : ' ');
		print_wrapped(20, 80,
			      ft_po_stack_text(&o->top[i].e, FT_PO_FRAMES, stack, sizeof(stack)));
	}
	if (o->nr)
		printf("  (*: also a stack pinning pages of mixed blocks, above)\n");
}

/* Labels against contents (analysis/labels.h): Weiner's table, the hidden blocks first. */
static void text_labels(const struct ft_report *rep)
{
	const struct ft_session *s = rep->s;
	struct ft_labels l;
	int k, c, i;

	if (!s->owner_src.known || !s->owners.nr)
		return;
	ft_labels_build(s, &l);
	printf("\npageblock labels against contents (page_owner's block type, the map's class;"
	       " %zu blocks read by both)\n", l.blocks);
	if (!l.blocks) {
		printf("  none: %zu blocks without an entry to label them, %zu not read whole by "
		       "the map\n",
		       l.no_label, l.unread);
		return;
	}
	printf("  %-12s", "label");
	for (c = FT_PB_FREE; c < FT_PB_HOLE; c++)
		printf(" %9s", ft_pb_names[c]);
	putchar('\n');
	for (k = 0; k < l.nr_mt; k++) {
		printf("  %-12.12s", l.mt[k]);
		for (c = FT_PB_FREE; c < FT_PB_HOLE; c++)
			printf(" %9u", l.n[k][c]);
		putchar('\n');
	}
	printf("  labelled Movable, holding unmovable pages: %zu\n", l.hidden);
	for (i = 0; i < l.nr_list; i++)
		printf("    PFN %#llx  %u unmovable pages  (%s)\n",
		       (unsigned long long)l.list[i].pfn,
		       l.list[i].unmovable, ft_pb_names[l.list[i].cls]);
}

/*
 * Who owns the pinned pages of mixed blocks (page_owner looks in the
 * recording): nothing when it has none, a line when page_owner could not
 * be read.
 */
static void text_owners(const struct ft_report *rep)
{
	struct ft_rep_owners o;
	char stack[256];
	size_t i;

	if (ft_report_owners_model(rep, &o) || !o.known) {
		ft_report_owners_free(&o);
		return;
	}
	if (o.err && !o.looks) {
		printf("\npage owners: not recorded: %s\n", o.err == -ENOENT ?
		       "no page_owner (a CONFIG_PAGE_OWNER kernel booted with page_owner=on, "
		       "debugfs mounted)" :
		       strerror(-o.err));
		ft_report_owners_free(&o);
		return;
	}
	printf("\ntop owners of pinned pages in mixed blocks (page_owner: %zu mixed of %zu blocks "
	       "read)\n",
	       o.blocks, o.looks);
	printf("     pages  share  allocs  first: order type gfp, pid command; stack, the "
	       "allocator's frames left out\n");
	for (i = 0; i < o.nr && i < FT_REP_OWNERS_SHOWN; i++) {
		const struct ft_po_entry *e = &o.groups[i].first;

		printf("%10llu %6s %7u  o%u %s %s, %d %s\n%29s%s\n",
		       (unsigned long long)o.groups[i].pages,
		       SHARE6(o.group_pct[i]), o.groups[i].count, e->order,
		       e->page_mt, e->gfp_names[0] ? e->gfp_names : "-", e->pid, e->comm, "",
		       ft_po_stack_text(e, FT_PO_FRAMES, stack, sizeof(stack)));
	}
	if (o.has_rest)
		printf("%10llu %6s          more stacks\n", (unsigned long long)o.rest_pages,
		       SHARE6(o.rest_pct));
	printf("%10llu         pinned pages in mixed blocks in all (%u allocations)\n",
	       (unsigned long long)o.tally.pin_pages, o.tally.pins);
	text_owner_stacks(rep, &o);
	ft_report_owners_free(&o);
}

static void text_cost(const struct ft_report *rep)
{
	const struct ft_rep_selfcost *c = &rep->self;

	if (c->own_known) {
		char share[32];

		if (isnan(c->own_frag_share))
			snprintf(share, sizeof(share), "none traced");
		else
			snprintf(share, sizeof(share), "%s of all",
				 ft_cell_pct((char[16]){ 0 }, 16, c->own_frag_share * 100, 8, 2));
		printf("fragtop itself     pid %d: %llu fragmenting fallbacks (%s), %llu "
		       "fallbacks, %llu direct\n                   compactions (%.1f ms), %llu "
		       "direct reclaims (%.1f ms)\n",
		       c->pid, (unsigned long long)c->own[FT_PC_FRAGMENTING], share,
		       (unsigned long long)c->own[FT_PC_EXTFRAG],
		       (unsigned long long)c->own[FT_PC_COMPACTION],
		       (double)c->own[FT_PC_COMPACTION_US] / 1000,
		       (unsigned long long)c->own[FT_PC_RECLAIM],
		       (double)c->own[FT_PC_RECLAIM_US] / 1000);
	}
	if (c->ticks < 2)
		return;
	printf("fragtop's own cost %.1f files opened, %.1f reads, %.0f bytes read a tick; heap "
	       "%.1f MiB\n",
	       c->all.opens, c->all.reads, c->all.bytes, (double)c->heap / 1048576.0);
}

/* fragtop doctor's rules over the window: what is wrong, and what was checked. */
static void text_findings(const struct ft_report *rep)
{
	if (rep->verdict && rep->verdict->nr > 1) {
		printf("\nfindings (fragtop doctor's rules per interval of still knobs; "
		       "docs/runbook.md)\n");
		ft_render_verdict_text(stdout, rep->verdict, "  ");
		return;
	}
	if (!rep->verdict && !rep->findings)
		return;
	printf("\nfindings (fragtop doctor's rules over the window; docs/runbook.md)\n");
	ft_render_findings_text(stdout, rep->verdict ? rep->verdict->whole : rep->findings, "  ");
}

/* The report as text on stdout, section after section. */
void ft_render_report_text(const struct ft_report *rep, const struct ft_report_style *st)
{
	text_head(rep, st->verbose);
	text_extfrag(rep, st);
	text_stacks(rep);
	text_owners(rep);
	text_labels(rep);
	text_outcomes(rep);
	text_thp(rep);
	text_boost_map(rep);
	text_fits(rep);
	text_stalls(rep);
	text_changes(rep);
	text_intervals(rep);
	text_cost(rep);
	text_findings(rep);
}
