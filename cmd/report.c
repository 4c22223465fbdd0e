// SPDX-License-Identifier: GPL-2.0-or-later
/* `fragtop report` and `fragtop compare`: a built report (analysis/report.h) as text or JSON. */
#include "analysis/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cost.h"
#include "base/json.h"
#include "cmd/cli.h"
#include "render/session_json.h"
#include "model/recfmt.h"
#include "model/thp.h"

/* Seconds into the recording (from its first tick, whatever the window). */
static double secs(const struct ft_report *rep, uint64_t t)
{
	return (double)((int64_t)t - (int64_t)rep->start_t_ns) / 1e9;
}

/* The window's length. */
static double duration(const struct ft_report *rep)
{
	return (double)(rep->last.t_ns - rep->first.t_ns) / 1e9;
}

/* A control change inside the report's window (it starts after the baseline tick). */
static bool in_window(const struct ft_report *rep, uint64_t t_ns)
{
	if (rep->from_s <= 0 && isinf(rep->to_s))
		return true;	/* the whole recording: every change */
	return t_ns > rep->first.t_ns && t_ns <= rep->last.t_ns;
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

static void fmt_pct(char *b, size_t sz, double v)
{
	if (isnan(v))
		snprintf(b, sz, "-");
	else
		snprintf(b, sz, "%.1f%%", v);
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
 * The ten processes that fragmented most, and what they paid in stalls;
 * with the seeds' stall on the recorded kernel, its count too (the name
 * gives up two columns so the line stays within 80).
 */
static bool by_thread;	/* --threads: rep->procs has a row per thread */
static bool verbose;	/* -v: every skipped input said */

static void print_processes(const struct ft_procs *t, bool fstall)
{
	static const struct ft_procs_filter active = { .active_only = true };
	int idx[10], n = ft_procs_sorted(t, FT_PC_FRAGMENTING, &active, idx, 10), i;
	int w = fstall ? 13 : 15;

	if (!n)
		return;
	printf("  %-*s    pid fragment  fallbk compact  cmp ms reclaim  rcl ms%s\n", w,
	       by_thread ? "threads" : "processes",
	       fstall ? " fstall" : "");
	for (i = 0; i < n; i++) {
		const struct ft_proc *p = &t->p[idx[i]];

		printf("  %-*.*s %7d %8llu %7llu %7llu %7.1f %7llu %7.1f", w, w,
		       p->comm[0] ? p->comm : p->pid == 0 ? "swapper" : "?", p->pid,
		       (unsigned long long)p->c[FT_PC_FRAGMENTING], (unsigned long long)p->c[FT_PC_EXTFRAG],
		       (unsigned long long)p->c[FT_PC_COMPACTION], (double)p->c[FT_PC_COMPACTION_US] / 1000,
		       (unsigned long long)p->c[FT_PC_RECLAIM], (double)p->c[FT_PC_RECLAIM_US] / 1000);
		if (fstall)
			printf(" %6llu", (unsigned long long)p->c[FT_PC_FRAG_STALL]);
		printf("\n");
	}
}

/*
 * The control changes in time order: the recording's own and the knob
 * changes seen from outside it (ft_report.outside).  NULL at the end.
 */
static const struct ft_session_audit *next_change(const struct ft_report *rep, int *ia, int *io)
{
	const struct ft_session *s = &rep->rp.session;
	const struct ft_session_audit *a = *ia < (int)s->nr_audits ? &s->audits[*ia] : NULL;
	const struct ft_session_audit *o = *io < rep->nr_outside ? &rep->outside[*io] : NULL;

	if (a && (!o || a->t_ns <= o->t_ns)) {
		(*ia)++;
		return a;
	}
	if (o)
		(*io)++;
	return o;
}

/* the text's row names (the JSON's keys are ft_lat_names[]) */
static const char *const lat_label[FT_LAT_NR] = {
	[FT_LAT_COMPACTION] = "compaction", [FT_LAT_RECLAIM] = "direct_reclaim",
	[FT_LAT_FRAG_STALL] = "fragmentation_stall", [FT_LAT_BG_COMPACTION] = "bg compaction",
};

static void print_lat_line(const struct ft_report *rep, int src, bool present)
{
	struct ft_rep_lat l;

	if (!present) {
		printf("  %-19s absent on the recorded kernel\n", lat_label[src]);
		return;
	}
	if (ft_report_latency(rep, src, &rep->first, &rep->last, &l)) {
		printf("  %-19s out of memory\n", lat_label[src]);
		return;
	}
	printf("  %-19s %7llu %7.0f %7llu %7llu %7llu %8llu %8llu%s\n", lat_label[src],
	       (unsigned long long)l.count, l.count ? l.mean_us : 0.0,
	       (unsigned long long)l.p50_us, (unsigned long long)l.p90_us,
	       (unsigned long long)l.p99_us, (unsigned long long)l.p999_us,
	       (unsigned long long)l.max_us, l.exact ? "" : " ~");
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
		int w = peak ? (int)((double)row[r] * 40 / (double)peak + 0.5) : 0;

		if (row[r] && !w)
			w = 1;
		printf("    [%10llu, %10llu) %9llu %.*s\n", (unsigned long long)lo,
		       (unsigned long long)hi, (unsigned long long)row[r], w,
		       "########################################");
	}
}

/* Direct stalls as traced (beside compact_stall above), background by node. */
static void print_compaction_split(const struct ft_report *rep, const struct ft_rep_point *a,
				   const struct ft_rep_point *b)
{
	int n, col = 0;

	long long stalls = (long long)(b->c[FT_CF_DIRECT_COMPACT] - a->c[FT_CF_DIRECT_COMPACT]);
	unsigned long long runs = (unsigned long long)(b->lat[FT_LAT_COMPACTION].count -
						       a->lat[FT_LAT_COMPACTION].count);

	/* an attempt may run no zone's compaction (deferred, skipped) or several */
	if (rep->rp.session.events.exact_direct)
		printf("  direct (traced)  stalls %lld (attempts, counted as the kernel counts compact_stall)\n"
		       "                   zone compactions run in them %llu (the latency table's count)\n",
		       stalls, runs);
	else
		printf("  direct (traced)  stalls %lld (begin/end pairs: no try_to_compact_pages traced)\n",
		       stalls);
	printf("  background       compactions %lld",
	       (long long)(b->c[FT_CF_BG_COMPACT] - a->c[FT_CF_BG_COMPACT]));
	for (n = 0; n <= FT_EV_NODES; n++) {
		uint64_t cnt = b->bg[n].count - a->bg[n].count, us = b->bg[n].us - a->bg[n].us;
		uint64_t wakes = b->bg[n].wakes - a->bg[n].wakes;

		if (!cnt && !wakes)
			continue;
		if (col++ % 2 == 0)
			printf("\n   ");
		if (n < FT_EV_NODES)
			printf("   N%-2d %llu, %.1f ms, %llu wakes", n, (unsigned long long)cnt, (double)us / 1000.0,
			       (unsigned long long)wakes);
		else
			printf("   N?  %llu, %.1f ms, %llu wakes", (unsigned long long)cnt, (double)us / 1000.0,
			       (unsigned long long)wakes);
	}
	printf("\n");
}

/* The head: the file, the host, the window, how the file ended. */
static void text_head(const struct ft_report *rep)
{
	const struct ft_replay *rp = &rep->rp;
	const struct ft_session *l = &rp->session;
	char t1[64], t2[32];
	uint64_t i;

	printf("recording %s\n", rp->path);
	printf("  host %s, kernel %s, started %s\n", l->host.hostname, l->host.release,
	       when(rp->session.first_rt_ns, t1, sizeof(t1)));
	if (rep->from_s > 0 || !isinf(rep->to_s))
		printf("  window %.1f s to %.1f s into the recording: the ticks at both ends included,\n"
		       "  the first one the baseline the figures are counted from\n", secs(rep, rep->first.t_ns),
		       secs(rep, rep->last.t_ns));
	printf("  %.1f s, %llu samples; %s%s%s\n", duration(rep), (unsigned long long)rep->ticks,
	       rp->r.clean ? "closed cleanly" : rp->r.truncated ? "cut short (read up to the last complete chunk)" :
	       "not closed (killed?): read by scanning", rp->bad_chunks ? ", damaged chunks skipped: " : "",
	       rp->bad_chunks ? (snprintf(t2, sizeof(t2), "%llu", (unsigned long long)rp->bad_chunks), t2) : "");
	if (l->bad_inputs)	/* the session skipped them: what they would have said is not in the figures */
		printf("  %llu malformed inputs skipped%s\n", (unsigned long long)l->bad_inputs,
		       verbose ? ":" : " (-v says which)");
	for (i = 0; verbose && i < l->bad_inputs && i < FT_SESSION_BAD_KEPT; i++)
		printf("    after tick %llu: %s record (type %u, sub %u, %u bytes): %s\n",
		       (unsigned long long)l->bad[i].tick, ft_rec_type_name(l->bad[i].type), l->bad[i].type,
		       l->bad[i].sub, l->bad[i].len, l->bad[i].why);
	if (verbose && l->bad_inputs > FT_SESSION_BAD_KEPT)
		printf("    and %llu more like them, not kept\n",
		       (unsigned long long)(l->bad_inputs - FT_SESSION_BAD_KEPT));
}

/* Fallbacks in all and by zone, then the processes behind them. */
static void text_extfrag(const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	const int64_t *a = rep->first.c, *b = rep->last.c;
	int k;

	if (!l->tracing) {
		printf("  no tracepoints in this recording: fallback and stall figures are absent\n");
	} else {
		printf("\nextfrag events     total %lld   fragmenting (below order %d) %lld\n"
		       "                   ownership changes %lld   lost %llu\n",
		       (long long)(b[FT_CF_EXTFRAG] - a[FT_CF_EXTFRAG]), l->events.pageblock_order,
		       (long long)(b[FT_CF_FRAGMENTING] - a[FT_CF_FRAGMENTING]),
		       (long long)(b[FT_CF_OWNERSHIP] - a[FT_CF_OWNERSHIP]), (unsigned long long)l->lost);
		for (k = 0; k <= l->events.nr_zones; k++) {
			struct ft_extfrag_counts z = ft_report_zone_extfrag(rep, k);

			if (!z.total)
				continue;
			if (k < l->events.nr_zones)
				printf("  N%d %-10s total %llu  fragmenting %llu\n", l->events.zones[k].node,
				       l->events.zones[k].name, (unsigned long long)z.total,
				       (unsigned long long)z.fragmenting);
			else
				printf("  outside zones total %llu  fragmenting %llu\n", (unsigned long long)z.total,
				       (unsigned long long)z.fragmenting);
		}
	}
	if (rep->procs)
		print_processes(rep->procs, rep->lat_present[FT_LAT_FRAG_STALL]);
}

/* @n / @d as "%.0f", or "-" when @d is 0. */
static const char *ratio(char *buf, size_t sz, int64_t n, int64_t d)
{
	if (d <= 0)
		snprintf(buf, sz, "-");
	else
		snprintf(buf, sz, "%.0f", (double)n / (double)d);
	return buf;
}

/*
 * Compaction's cost as mmtests reports it (vmstat): pages the migrate and
 * free scanners scanned and pages isolated, then per direct compaction
 * stall (what direct compaction scanned: struct ft_rep_direct_cost) and
 * per kcompactd wake, and pages scanned per success.
 */
static void text_compaction_cost(const struct ft_report *rep)
{
	const int64_t *a = rep->first.c, *b = rep->last.c;
	const struct ft_rep_direct_cost *d = &rep->direct;
	int64_t mig = b[FT_CF_MIGRATE_SCANNED] - a[FT_CF_MIGRATE_SCANNED];
	int64_t fre = b[FT_CF_FREE_SCANNED] - a[FT_CF_FREE_SCANNED];
	int64_t dmig = b[FT_CF_DAEMON_MIGRATE_SCANNED] - a[FT_CF_DAEMON_MIGRATE_SCANNED];
	int64_t dfre = b[FT_CF_DAEMON_FREE_SCANNED] - a[FT_CF_DAEMON_FREE_SCANNED];
	int64_t wakes = b[FT_CF_DAEMON_WAKES] - a[FT_CF_DAEMON_WAKES];
	char x[3][24];

	if (!(rep->vm_seen & (1u << FT_CF_MIGRATE_SCANNED)))
		return;
	printf("compaction cost    scanned  migrate %lld  free %lld   isolated %lld\n",
	       (long long)mig, (long long)fre, (long long)(b[FT_CF_ISOLATED] - a[FT_CF_ISOLATED]));
	printf("  per direct stall   migrate %s  free %s   scanned per success %s\n",
	       ratio(x[0], sizeof(x[0]), d->migrate, d->stalls), ratio(x[1], sizeof(x[1]), d->free, d->stalls),
	       ratio(x[2], sizeof(x[2]), d->migrate + d->free, d->success));
	if (!d->known && d->stalls > 0)
		printf("    (the whole less kcompactd's: untraced compaction asked through\n"
		       "    compact_memory would be in it)\n");
	else if (d->ticks_out)
		printf("    over %llu of %llu ticks: %llu left out, where compaction was asked\n"
		       "    outside kcompactd (compact_memory), with their %lld stalls\n",
		       (unsigned long long)d->ticks, (unsigned long long)(d->ticks + d->ticks_out),
		       (unsigned long long)d->ticks_out, (long long)d->stalls_out);
	printf("  per kcompactd wake migrate %s  free %s   (%lld wakes)\n",
	       ratio(x[0], sizeof(x[0]), dmig, wakes), ratio(x[1], sizeof(x[1]), dfre, wakes), (long long)wakes);
}

/* THP faults, compaction outcomes and the direct/background split. */
static void text_outcomes(const struct ft_report *rep)
{
	const int64_t *a = rep->first.c, *b = rep->last.c;
	char v[64];

	fmt_pct(v, sizeof(v), pct(b[FT_CF_THP_ALLOC] - a[FT_CF_THP_ALLOC],
				   b[FT_CF_THP_ALLOC] - a[FT_CF_THP_ALLOC] + b[FT_CF_THP_FALLBACK] - a[FT_CF_THP_FALLBACK]));
	printf("THP faults         alloc %lld   fallback %lld   success %s\n",
	       (long long)(b[FT_CF_THP_ALLOC] - a[FT_CF_THP_ALLOC]),
	       (long long)(b[FT_CF_THP_FALLBACK] - a[FT_CF_THP_FALLBACK]), v);
	fmt_pct(v, sizeof(v), pct(b[FT_CF_COMPACT_SUCCESS] - a[FT_CF_COMPACT_SUCCESS],
				   b[FT_CF_COMPACT_STALL] - a[FT_CF_COMPACT_STALL]));
	printf("compaction         stalls %lld   success %lld   fail %lld   success/stall %s\n",
	       (long long)(b[FT_CF_COMPACT_STALL] - a[FT_CF_COMPACT_STALL]),
	       (long long)(b[FT_CF_COMPACT_SUCCESS] - a[FT_CF_COMPACT_SUCCESS]),
	       (long long)(b[FT_CF_COMPACT_FAIL] - a[FT_CF_COMPACT_FAIL]), v);
	if (rep->rp.session.tracing)
		print_compaction_split(rep, &rep->first, &rep->last);
	text_compaction_cost(rep);
	/* the kernel's own fragmentation gauge, host-wide; absent before 6.15, never 0 */
	if (rep->in_blocks.n)
		printf("free in pageblocks mean %.1f%%  min %.1f%%  last %.1f%% of free memory\n",
		       ft_rep_level_mean(&rep->in_blocks), rep->in_blocks.min, rep->in_blocks.last);
	else
		printf("free in pageblocks absent (nr_free_pages_blocks: kernels 6.15+)\n");
}

/* Counter @name of size @z over the window; false when either end lacks it (or it went back). */
static bool thp_delta(const struct ft_report *rep, const struct ft_thp_size *z, const char *name, uint64_t *d)
{
	return ft_thp_growth(&rep->thp_first, &rep->thp_last, z->kb, name, d);
}

/* THP by size: each size that was on, or served or fell back, in the window. */
static void text_thp(const struct ft_report *rep)
{
	const struct ft_thp *t = &rep->thp_last;
	char size[16], en[24], pc[16];
	int i, shown = 0;

	if (!rep->have_thp)
		return;
	for (i = 0; i < t->nr; i++) {
		const struct ft_thp_size *z = &t->s[i];
		uint64_t al = 0, fb = 0, sp = 0;
		bool have = thp_delta(rep, z, "anon_fault_alloc", &al) && thp_delta(rep, z, "anon_fault_fallback", &fb);

		ft_thp_selected(z->enabled, en, sizeof(en));
		if (!have || (!al && !fb && (!en[0] || !strcmp(en, "never"))))
			continue;
		if (!shown++)
			printf("THP by size        %-8s %10s %10s %8s %8s\n", "anon", "alloc", "fallback", "success",
			       "split");
		thp_delta(rep, z, "split", &sp);
		ft_thp_size_label(z->kb, size, sizeof(size));
		fmt_pct(pc, sizeof(pc), pct((int64_t)al, (int64_t)(al + fb)));
		printf("  %-16s %-8s %10llu %10llu %8s %8llu\n", size, en[0] ? en : "-", (unsigned long long)al,
		       (unsigned long long)fb, pc, (unsigned long long)sp);
	}
	if (!shown)
		printf("THP by size        no size was on or faulted in the window\n");
}

/* The boost by zone, and the pageblock map's classes at its last scan. */
static void text_boost_map(const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	int k, c;

	if (rep->boost_nr) {
		const struct ft_zoneinfo *zi = &l->sample.zoneinfo;

		printf("watermark boost    (sampled between ticks)   peak  boosted  episodes    reads\n");
		for (k = 0; k < rep->boost_nr && (size_t)k < zi->nr; k++) {
			const struct ft_boost_tick *bz = &rep->boost_zone[k];

			if (!zi->zones[k].present)
				continue;
			printf("  N%d %-10s %30llu %7.2f%% %9llu %8llu\n", zi->zones[k].node,
			       zi->zones[k].name, (unsigned long long)bz->peak,
			       bz->samples ? 100.0 * bz->boosted / bz->samples : 0.0,
			       (unsigned long long)bz->episodes, (unsigned long long)bz->samples);
		}
	}
	if (l->map_err || !l->map.nr)
		return;
	printf("pageblock map at the last recorded scan\n");
	for (k = 0; k < (int)l->map.nr; k++) {
		const struct ft_pbmap_zone *z = &l->map.zones[k];

		printf("  N%d %-10s %u blocks:", z->node, z->name, z->nr_blocks);
		for (c = 0; c < FT_PB_NR; c++)
			if (z->count[c])
				printf(" %s %u", ft_pb_names[c], z->count[c]);
		printf("  pollution %llu pages  THP-backed %llu pages\n", (unsigned long long)z->pollution,
		       (unsigned long long)z->thp);
	}
}

/* Stall latencies: percentiles, the kernel's own count, histograms. */
static void text_stalls(const struct ft_report *rep)
{
	const int64_t *a = rep->first.c, *b = rep->last.c;
	int lat;

	if (!rep->rp.session.tracing)
		return;
	printf("\nstall latency, us     count    mean     p50     p90     p99    p99.9      max\n");
	for (lat = 0; lat < FT_LAT_NR; lat++)
		print_lat_line(rep, lat, rep->lat_present[lat]);
	if (rep->vm_seen & (1u << FT_CF_VM_FRAG_STALL))
		printf("  fragmentation stalls in /proc/vmstat (fragment_stall): %lld\n",
		       (long long)(b[FT_CF_VM_FRAG_STALL] - a[FT_CF_VM_FRAG_STALL]));
	for (lat = 0; lat < FT_LAT_NR; lat++)
		if (rep->raw_full[lat])
			printf("  ~ %s: too many to keep, percentiles from the histogram "
			       "(at most 6.25%% high)\n", ft_lat_names[lat]);
	for (lat = 0; lat < FT_LAT_NR; lat++) {
		struct ft_hist h;

		ft_hist_sub(&h, &rep->last.lat[lat], &rep->first.lat[lat]);
		print_hist_rows(lat_label[lat], &h);
	}
}

/* Every control change in the window, fragtop's and those seen from outside, in time order. */
static void text_changes(const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	const struct ft_session_audit *au;
	int ia, io, k;
	size_t i;

	for (i = 0, k = 0; i < l->nr_audits; i++)
		k += in_window(rep, l->audits[i].t_ns);
	printf("\ncontrol changes    %d", k + rep->nr_outside);
	if (rep->nr_outside)
		printf(" (%d of them outside this fragtop)", rep->nr_outside);
	printf("\n");
	if (l->audits_dropped)
		printf("  (%llu more in the file were not kept: at most %d are)\n",
		       (unsigned long long)l->audits_dropped, FT_SESSION_MAX_AUDITS);
	if (rep->outside_dropped)
		printf("  (%llu more outside changes not listed: at most %d are)\n",
		       (unsigned long long)rep->outside_dropped, FT_REP_MAX_OUTSIDE);
	for (ia = io = 0; (au = next_change(rep, &ia, &io));) {
		if (!in_window(rep, au->t_ns))
			continue;
		printf("  %+8.1fs  %-7.7s %-9.9s", secs(rep, au->t_ns),
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
typedef void iv_cell_fn(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
			enum ft_cf cf);

static iv_cell_fn cell_from, cell_to, cell_boost, cell_growth, cell_per_s, cell_thp_ok, cell_compact_mean;

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

static int64_t iv_growth(const struct ft_rep_interval *iv, enum ft_cf cf)
{
	return iv->to.c[cf] - iv->from.c[cf];
}

static void cell_from(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
		      enum ft_cf cf)
{
	(void)cf;
	snprintf(b, sz, "%.1f", secs(rep, iv->from.t_ns));
}

static void cell_to(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
		    enum ft_cf cf)
{
	(void)cf;
	snprintf(b, sz, "%.1f", secs(rep, iv->to.t_ns));
}

static void cell_boost(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
		       enum ft_cf cf)
{
	(void)rep, (void)cf;
	snprintf(b, sz, "%lld", (long long)iv->boost);
}

static void cell_growth(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
			enum ft_cf cf)
{
	(void)rep;
	snprintf(b, sz, "%lld", (long long)iv_growth(iv, cf));
}

static void cell_per_s(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
		       enum ft_cf cf)
{
	double d = (double)(iv->to.t_ns - iv->from.t_ns) / 1e9;

	(void)rep;
	snprintf(b, sz, "%.1f", d > 0 ? (double)iv_growth(iv, cf) / d : 0.0);
}

static void cell_thp_ok(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
			enum ft_cf cf)
{
	int64_t ok = iv_growth(iv, FT_CF_THP_ALLOC);

	(void)rep, (void)cf;
	fmt_pct(b, sz, pct(ok, ok + iv_growth(iv, FT_CF_THP_FALLBACK)));
}

static void cell_compact_mean(char *b, size_t sz, const struct ft_report *rep, const struct ft_rep_interval *iv,
			      enum ft_cf cf)
{
	struct ft_hist h;

	(void)rep, (void)cf;
	ft_hist_sub(&h, &iv->to.lat[FT_LAT_COMPACTION], &iv->from.lat[FT_LAT_COMPACTION]);
	snprintf(b, sz, "%.0f", ft_hist_mean(&h));
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

			iv_cols[col].cell(cell, sizeof(cell), rep, &rep->iv[k], iv_cols[col].cf);
			printf(" %*s", iv_cols[col].width, cell);
		}
		printf("\n  %7s after", "");
		print_wrapped(16, 80, rep->iv[k].opened_by[0] ? rep->iv[k].opened_by : "(start)");
	}
}

#define REP_STACKS	10	/* groups a report lists */

/*
 * Fragmenting fallbacks by the kernel stack that made them (--stacks):
 * the groups, then those without a stack and past the table, which with
 * them add up to the window's fragmenting fallbacks.
 */
static void text_stacks(const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	struct ft_stack_group g[REP_STACKS];
	uint64_t other, unstacked, total, rest = 0;
	size_t n, i, shown;

	if (!rep->stack_first)
		return;
	n = ft_report_stacks(rep, g, REP_STACKS, &other, &unstacked);
	shown = n < REP_STACKS ? n : REP_STACKS;
	total = other + unstacked;
	for (i = 0; i < shown; i++)
		total += g[i].fragmenting;
	/* the groups not listed: what the total has beyond the listed ones */
	rest = (uint64_t)(rep->last.c[FT_CF_FRAGMENTING] - rep->first.c[FT_CF_FRAGMENTING]);
	rest = rest > total ? rest - total : 0;
	printf("\nfragmenting fallbacks by kernel stack (--stacks: at most %u a second%s)\n",
	       l->stacks_src.per_sec, l->stacks_src.err ? ", refused by the kernel" : "");
	printf("     count  share  stack, innermost first, the allocator's frames left out\n");
	for (i = 0; i < shown; i++) {
		printf("%10llu %5.1f%% ", (unsigned long long)g[i].fragmenting, pct((int64_t)g[i].fragmenting,
		       (int64_t)(total + rest)));
		print_wrapped(19, 80, g[i].key);
	}
	if (n > shown)
		printf("%10llu %5.1f%%  %zu more stacks\n", (unsigned long long)rest,
		       pct((int64_t)rest, (int64_t)(total + rest)), n - shown);
	if (other)
		printf("%10llu %5.1f%%  stacks past the first %d\n", (unsigned long long)other,
		       pct((int64_t)other, (int64_t)(total + rest)), FT_EV_STACKS);
	printf("%10llu %5.1f%%  without a stack (over the budget, or before stacks were on)\n",
	       (unsigned long long)unstacked, pct((int64_t)unstacked, (int64_t)(total + rest)));
	printf("%10llu         fragmenting fallbacks in all\n", (unsigned long long)(total + rest));
}

#define REP_OWNERS	10	/* stacks the page owners' section lists */

/*
 * page_owner_stacks/show_stacks (6.9+), the last the recording has: the
 * stacks that own the most pages anywhere, "*" on those that also pin
 * mixed blocks (the groups above).
 */
static void text_owner_stacks(const struct ft_report *rep, const struct ft_rep_owners *o)
{
	char stack[256];
	size_t i, k;

	if (!o->have_stacks)
		return;
	printf("\nstacks owning the most pages anywhere (page_owner_stacks/show_stacks at %.0f s%s): %zu stacks, ",
	       secs(rep, o->stacks_t_ns), o->stacks_cut ? ", cut" : "", o->nr_stacks);
	if (o->stacks_pages == FT_PO_PAGES_SATURATED)
		printf("pages past 2^64 in all (saturated: not a real count, no shares)\n");
	else
		printf("%llu pages\n", (unsigned long long)o->stacks_pages);
	for (i = 0; i < o->nr_top; i++) {
		bool pins = false;
		char share[16] = "     -";
		double p;

		for (k = 0; k < o->nr; k++)
			pins |= o->groups[k].stack_id == o->top[i].e.stack_id;
		if (ft_po_share(o->top[i].pages, o->stacks_pages, &p))
			snprintf(share, sizeof(share), "%5.1f%%", p);
		printf("%10llu %s %c ", (unsigned long long)o->top[i].pages, share, pins ? '*' : ' ');
		print_wrapped(20, 80, ft_po_stack_text(&o->top[i].e, FT_PO_FRAMES, stack, sizeof(stack)));
	}
	if (o->nr)
		printf("  (*: also a stack pinning pages of mixed blocks, above)\n");
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
		       "no page_owner (a CONFIG_PAGE_OWNER kernel booted with page_owner=on, debugfs mounted)" :
		       strerror(-o.err));
		ft_report_owners_free(&o);
		return;
	}
	printf("\ntop owners of pinned pages in mixed blocks (page_owner: %zu mixed of %zu blocks read)\n",
	       o.blocks, o.looks);
	printf("     pages  share  allocs  first: order type gfp, pid command; stack, the allocator's frames left out\n");
	for (i = 0; i < o.nr && i < REP_OWNERS; i++) {
		const struct ft_po_entry *e = &o.groups[i].first;

		printf("%10llu %5.1f%% %7u  o%u %s %s, %d %s\n%29s%s\n", (unsigned long long)o.groups[i].pages,
		       pct((int64_t)o.groups[i].pages, (int64_t)o.tally.pin_pages), o.groups[i].count, e->order,
		       e->page_mt, e->gfp_names[0] ? e->gfp_names : "-", e->pid, e->comm, "",
		       ft_po_stack_text(e, FT_PO_FRAMES, stack, sizeof(stack)));
	}
	if (o.nr > REP_OWNERS || o.tally.other) {
		uint64_t rest = o.tally.other_pages;

		for (i = REP_OWNERS; i < o.nr; i++)
			rest += o.groups[i].pages;
		printf("%10llu %5.1f%%          more stacks\n", (unsigned long long)rest,
		       pct((int64_t)rest, (int64_t)o.tally.pin_pages));
	}
	printf("%10llu         pinned pages in mixed blocks in all (%u allocations)\n",
	       (unsigned long long)o.tally.pin_pages, o.tally.pins);
	text_owner_stacks(rep, &o);
	ft_report_owners_free(&o);
}

/* The recording fragtop's cost a tick over the window: (last - first) / ticks between. */
static double cost_per_tick(const struct ft_report *rep, uint64_t first, uint64_t last)
{
	return rep->cost_ticks > 1 && last >= first ? (double)(last - first) / (double)(rep->cost_ticks - 1) : NAN;
}

static void text_cost(const struct ft_report *rep)
{
	struct ft_cost_counts a = ft_cost_total(&rep->cost_first), b = ft_cost_total(&rep->cost_last);

	if (rep->cost_ticks < 2)
		return;
	printf("fragtop's own cost %.1f files opened, %.1f reads, %.0f bytes read a tick; heap %.1f MiB\n",
	       cost_per_tick(rep, a.opens, b.opens), cost_per_tick(rep, a.reads, b.reads),
	       cost_per_tick(rep, a.bytes, b.bytes), (double)rep->cost_last.heap / 1048576.0);
}

static void json_cost_counts(struct ft_json *j, const char *key, const struct ft_report *rep,
			     const struct ft_cost_counts *a, const struct ft_cost_counts *b)
{
	ft_json_obj_begin_inline(j, key);
	ft_json_double(j, "files_opened", cost_per_tick(rep, a->opens, b->opens));
	ft_json_double(j, "reads", cost_per_tick(rep, a->reads, b->reads));
	ft_json_double(j, "bytes_read", cost_per_tick(rep, a->bytes, b->bytes));
	ft_json_obj_end(j);
}

/* "cost": the recording fragtop's, a tick over the window, null when it did not count it. */
static void json_cost(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_cost_counts a = ft_cost_total(&rep->cost_first), b = ft_cost_total(&rep->cost_last);
	size_t i;

	if (!rep->cost_ticks) {
		ft_json_null(j, "cost");
		return;
	}
	ft_json_obj_begin(j, "cost");
	ft_json_u64(j, "ticks", rep->cost_ticks);
	ft_json_u64(j, "heap_bytes", rep->cost_last.heap);
	json_cost_counts(j, "per_tick", rep, &a, &b);
	ft_json_arr_begin(j, "by_source");
	for (i = 0; i < FT_COST_NR; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "source", ft_cost_src_names[i]);
		json_cost_counts(j, "per_tick", rep, &rep->cost_first.src[i], &rep->cost_last.src[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

static void report_text(const struct ft_report *rep)
{
	text_head(rep);
	text_extfrag(rep);
	text_stacks(rep);
	text_owners(rep);
	text_outcomes(rep);
	text_thp(rep);
	text_boost_map(rep);
	text_stalls(rep);
	text_changes(rep);
	text_intervals(rep);
	text_cost(rep);
}

static void json_lat(struct ft_json *j, const char *key, const struct ft_report *rep, int src,
		     const struct ft_rep_point *from, const struct ft_rep_point *to)
{
	struct ft_rep_lat l;
	struct ft_hist h;
	unsigned int b;

	if (!rep->lat_present[src] || ft_report_latency(rep, src, from, to, &l)) {
		ft_json_null(j, key);
		return;
	}
	ft_hist_sub(&h, &to->lat[src], &from->lat[src]);
	ft_json_obj_begin(j, key);
	ft_json_u64(j, "count", l.count);
	ft_json_double(j, "mean_us", l.count ? l.mean_us : NAN);
	ft_json_u64(j, "p50_us", l.p50_us);
	ft_json_u64(j, "p90_us", l.p90_us);
	ft_json_u64(j, "p99_us", l.p99_us);
	ft_json_u64(j, "p999_us", l.p999_us);
	ft_json_u64(j, "max_us", l.max_us);
	ft_json_bool(j, "exact", l.exact);
	ft_json_arr_begin(j, "buckets");
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h.bucket[b])
			continue;
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "lo_us", ft_hist_bucket_lo(b));
		ft_json_u64(j, "hi_us", ft_hist_bucket_hi(b));
		ft_json_u64(j, "count", h.bucket[b]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

static void json_counters(struct ft_json *j, const struct ft_report *rep,
			  const struct ft_rep_point *from, const struct ft_rep_point *to)
{
	int c;

	for (c = 0; c < FT_CF_NR; c++)
		if (((c == FT_CF_VM_FRAG_STALL || c >= FT_CF_MIGRATE_SCANNED) && !(rep->vm_seen & (1u << c))) ||
		    (c == FT_CF_FRAG_STALLS && !rep->lat_present[FT_LAT_FRAG_STALL]))
			ft_json_null(j, ft_counter_fields[c].key);	/* not on this kernel */
		else
			ft_json_i64(j, ft_counter_fields[c].key, to->c[c] - from->c[c]);
	ft_json_double(j, "thp_fault_success", pct(to->c[FT_CF_THP_ALLOC] - from->c[FT_CF_THP_ALLOC],
		       to->c[FT_CF_THP_ALLOC] - from->c[FT_CF_THP_ALLOC] +
		       to->c[FT_CF_THP_FALLBACK] - from->c[FT_CF_THP_FALLBACK]) / 100);
	ft_json_double(j, "compact_success_per_stall",
		       pct(to->c[FT_CF_COMPACT_SUCCESS] - from->c[FT_CF_COMPACT_SUCCESS],
			   to->c[FT_CF_COMPACT_STALL] - from->c[FT_CF_COMPACT_STALL]) / 100);
}

/* "compaction": how direct stalls were counted, and background compaction by node. */
static void json_compaction(struct ft_json *j, const struct ft_report *rep, const struct ft_rep_point *a,
			    const struct ft_rep_point *b)
{
	ft_json_obj_begin(j, "compaction");
	ft_json_bool(j, "direct_exact", rep->rp.session.events.exact_direct);
	ft_json_i64(j, "direct_stalls", b->c[FT_CF_DIRECT_COMPACT] - a->c[FT_CF_DIRECT_COMPACT]);
	ft_json_u64(j, "direct_zone_runs", b->lat[FT_LAT_COMPACTION].count - a->lat[FT_LAT_COMPACTION].count);
	ft_json_i64(j, "background_compactions", b->c[FT_CF_BG_COMPACT] - a->c[FT_CF_BG_COMPACT]);
	ft_json_bg_nodes(j, "background_by_node", b->bg, a->bg);
	ft_json_obj_end(j);
}

/* "direct_compaction_cost": what direct compaction scanned per stall (struct ft_rep_direct_cost). */
static void json_direct_cost(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_rep_direct_cost *d = &rep->direct;

	if (!(rep->vm_seen & (1u << FT_CF_MIGRATE_SCANNED))) {
		ft_json_null(j, "direct_compaction_cost");
		return;
	}
	ft_json_obj_begin(j, "direct_compaction_cost");
	ft_json_bool(j, "exact", d->known);
	ft_json_i64(j, "migrate_scanned", d->migrate);
	ft_json_i64(j, "free_scanned", d->free);
	ft_json_i64(j, "stalls", d->stalls);
	ft_json_i64(j, "success", d->success);
	if (d->stalls > 0) {
		ft_json_double(j, "migrate_scanned_per_stall", (double)d->migrate / (double)d->stalls);
		ft_json_double(j, "free_scanned_per_stall", (double)d->free / (double)d->stalls);
	} else {
		ft_json_null(j, "migrate_scanned_per_stall");
		ft_json_null(j, "free_scanned_per_stall");
	}
	if (d->success > 0)
		ft_json_double(j, "scanned_per_success", (double)(d->migrate + d->free) / (double)d->success);
	else
		ft_json_null(j, "scanned_per_success");
	ft_json_u64(j, "ticks", d->ticks);
	ft_json_u64(j, "ticks_left_out", d->ticks_out);
	ft_json_i64(j, "stalls_left_out", d->stalls_out);
	ft_json_obj_end(j);
}

/*
 * boost_by_zone: the sampler's per zone over a window: peak (pages),
 * boosted_fraction (0..1 of the reads), episodes, samples (reads).
 */
static void json_boost(struct ft_json *j, const struct ft_report *rep,
		       const struct ft_boost_tick *b)
{
	const struct ft_zoneinfo *zi = &rep->rp.session.sample.zoneinfo;
	int i;

	ft_json_arr_begin(j, "boost_by_zone");
	for (i = 0; i < rep->boost_nr && (size_t)i < zi->nr; i++) {
		if (!zi->zones[i].present)
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", zi->zones[i].node);
		ft_json_str(j, "zone", zi->zones[i].name);
		ft_json_u64(j, "peak", b[i].peak);
		ft_json_double(j, "boosted_fraction", b[i].samples ?
			       (double)b[i].boosted / b[i].samples : 0);
		ft_json_u64(j, "episodes", b[i].episodes);
		ft_json_u64(j, "samples", b[i].samples);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* "thp_by_size": every size's counters over the window, [{size_kb, enabled, shmem_enabled, <counter>: n}], null without THP inputs. */
static void json_thp(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_thp *t = &rep->thp_last;
	int i, k;

	if (!rep->have_thp) {
		ft_json_null(j, "thp_by_size");
		return;
	}
	ft_json_arr_begin(j, "thp_by_size");
	for (i = 0; i < t->nr; i++) {
		const struct ft_thp_size *z = &t->s[i];

		ft_json_obj_begin_inline(j, NULL);
		ft_json_thp_settings(j, z);
		for (k = 0; k < z->nr_stats; k++) {
			uint64_t d;

			/* counters in the window; levels (nr_*) as at its end */
			if (!strncmp(z->stat_name[k], "nr_", 3))
				ft_json_u64(j, z->stat_name[k], z->stat[k]);
			else if (thp_delta(rep, z, z->stat_name[k], &d))
				ft_json_u64(j, z->stat_name[k], d);
			else
				ft_json_null(j, z->stat_name[k]);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* @key: a level's {mean, min, max, last}, or null when the kernel has no such counter. */
static void json_level(struct ft_json *j, const char *key, const struct ft_rep_level *lv)
{
	if (!lv->n) {
		ft_json_null(j, key);
		return;
	}
	ft_json_obj_begin_inline(j, key);
	ft_json_double(j, "mean", ft_rep_level_mean(lv));
	ft_json_double(j, "min", lv->min);
	ft_json_double(j, "max", lv->max);
	ft_json_double(j, "last", lv->last);
	ft_json_obj_end(j);
}

/* The head: file, host, window, how the file ended. */
static void json_head(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_replay *rp = &rep->rp;
	const struct ft_session *l = &rp->session;
	uint64_t i;

	ft_json_str(j, "file", rp->path);
	ft_json_str(j, "hostname", l->host.hostname);
	ft_json_str(j, "kernel", l->host.release);
	ft_json_u64(j, "start_realtime_ns", rp->session.first_rt_ns);
	ft_json_double(j, "duration_s", duration(rep));
	ft_json_double(j, "from_s", secs(rep, rep->first.t_ns));
	ft_json_double(j, "to_s", secs(rep, rep->last.t_ns));
	ft_json_u64(j, "samples", rep->ticks);
	ft_json_obj_begin(j, "recording");
	ft_json_bool(j, "clean", rp->r.clean);
	ft_json_bool(j, "truncated", rp->r.truncated);
	ft_json_u64(j, "chunks", rp->r.nr);
	ft_json_u64(j, "damaged_chunks", rp->bad_chunks);
	ft_json_u64(j, "resyncs", rp->r.resyncs);
	ft_json_u64(j, "bad_inputs", l->bad_inputs);
	ft_json_arr_begin(j, "skipped");	/* the first FT_SESSION_BAD_KEPT of them */
	for (i = 0; i < l->bad_inputs && i < FT_SESSION_BAD_KEPT; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "after_tick", l->bad[i].tick);
		ft_json_str(j, "record", ft_rec_type_name(l->bad[i].type));
		ft_json_u64(j, "type", l->bad[i].type);
		ft_json_u64(j, "sub", l->bad[i].sub);
		ft_json_u64(j, "bytes", l->bad[i].len);
		ft_json_str(j, "why", l->bad[i].why);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
	ft_json_bool(j, "traced", l->tracing);
	ft_json_i64(j, "pageblock_order", l->tracing ? l->events.pageblock_order : l->sample.pageblock_order);
	ft_json_u64(j, "lost", l->lost);
}

/*
 * The elements of "extfrag_by_zone": fallbacks by zone over the window,
 * and those outside every zone (node -1, zone null) when there were any.
 */
static void json_extfrag_zones(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	int k;

	for (k = 0; l->tracing && k <= l->events.nr_zones; k++) {
		struct ft_extfrag_counts z = ft_report_zone_extfrag(rep, k);

		if (k == l->events.nr_zones && !z.total)
			break;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", k < l->events.nr_zones ? l->events.zones[k].node : -1);
		if (k < l->events.nr_zones)
			ft_json_str(j, "zone", l->events.zones[k].name);
		else
			ft_json_null(j, "zone");
		ft_json_u64(j, "total", z.total);
		ft_json_u64(j, "fragmenting", z.fragmenting);
		ft_json_obj_end(j);
	}
}

/* The elements of "pageblocks": the classes of the last recorded map scan. */
static void json_pageblocks(struct ft_json *j, const struct ft_session *l)
{
	int k, c;

	for (k = 0; !l->map_err && k < (int)l->map.nr; k++) {
		const struct ft_pbmap_zone *z = &l->map.zones[k];

		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", z->node);
		ft_json_str(j, "zone", z->name);
		ft_json_u64(j, "total", z->nr_blocks);
		for (c = 0; c < FT_PB_NR; c++)
			ft_json_u64(j, ft_pb_names[c], z->count[c]);
		ft_json_u64(j, "pollution_pages", z->pollution);
		ft_json_u64(j, "thp_pages", z->thp);
		ft_json_u64(j, "thp_folios", z->thp_folios);
		ft_json_obj_end(j);
	}
}

/* "controls": every change in the window, in time order. */
static void json_controls(struct ft_json *j, const struct ft_report *rep)
{
	const struct ft_session_audit *a;
	int ia, io;

	ft_json_arr_begin(j, "controls");
	for (ia = io = 0; (a = next_change(rep, &ia, &io));) {
		if (!in_window(rep, a->t_ns))
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "t_s", secs(rep, a->t_ns));
		ft_json_str(j, "knob", a->knob);
		ft_json_str(j, "how", a->how);
		ft_json_str(j, "outcome", a->outcome);
		ft_json_str(j, "old", a->old);
		ft_json_str(j, "new", a->new);
		ft_json_str(j, "message", a->msg);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_u64(j, "controls_not_kept", rep->rp.session.audits_dropped);
}

/* "intervals": the metrics of each stretch between control changes. */
static void json_intervals(struct ft_json *j, const struct ft_report *rep)
{
	int k, lat;

	ft_json_arr_begin(j, "intervals");
	for (k = 0; k < rep->nr_iv; k++) {
		const struct ft_rep_interval *iv = &rep->iv[k];

		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "from_s", secs(rep, iv->from.t_ns));
		ft_json_double(j, "to_s", secs(rep, iv->to.t_ns));
		if (iv->boost >= 0)
			ft_json_i64(j, "watermark_boost_factor", iv->boost);
		else
			ft_json_null(j, "watermark_boost_factor");
		ft_json_str(j, "after", iv->opened_by);
		json_counters(j, rep, &iv->from, &iv->to);
		json_boost(j, rep, iv->boost_zone);
		json_level(j, "free_in_pageblocks_pct", &iv->in_blocks);
		for (lat = 0; lat < FT_LAT_NR; lat++) {
			char key[48];

			snprintf(key, sizeof(key), "%s_latency", ft_lat_names[lat]);
			json_lat(j, key, rep, lat, &iv->from, &iv->to);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* "stacks": null without --stacks, else the groups and what adds up with them. */
static void json_stacks(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_stack_group *g;
	uint64_t other = 0, unstacked = 0;
	size_t n, i;

	if (!rep->stack_first) {
		ft_json_null(j, "stacks");
		return;
	}
	g = calloc(FT_EV_STACKS, sizeof(*g));
	n = g ? ft_report_stacks(rep, g, FT_EV_STACKS, &other, &unstacked) : 0;
	if (n > FT_EV_STACKS)
		n = FT_EV_STACKS;
	ft_json_obj_begin(j, "stacks");
	ft_json_u64(j, "per_sec", rep->rp.session.stacks_src.per_sec);
	ft_json_i64(j, "error", rep->rp.session.stacks_src.err);
	ft_json_u64(j, "without_stack", unstacked);
	ft_json_u64(j, "past_table", other);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < n; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", g[i].key);
		ft_json_u64(j, "fragmenting", g[i].fragmenting);
		ft_json_u64(j, "change_ownership", g[i].change_ownership);
		ft_json_u64(j, "stacks", (uint64_t)g[i].rows);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
	free(g);
}

/* "show_stacks": the last page_owner_stacks/show_stacks' top stacks, null without one. */
static void json_owner_stacks(struct ft_json *j, const struct ft_report *rep, const struct ft_rep_owners *o)
{
	char stack[256];
	size_t i;

	if (!o->have_stacks) {
		ft_json_null(j, "show_stacks");
		return;
	}
	ft_json_obj_begin(j, "show_stacks");
	ft_json_double(j, "at_s", secs(rep, o->stacks_t_ns));
	ft_json_bool(j, "cut", o->stacks_cut);
	ft_json_u64(j, "stacks", o->nr_stacks);
	if (o->stacks_pages == FT_PO_PAGES_SATURATED)
		ft_json_null(j, "pages");	/* past 2^64: no count */
	else
		ft_json_u64(j, "pages", o->stacks_pages);
	ft_json_bool(j, "pages_saturated", o->stacks_pages == FT_PO_PAGES_SATURATED);
	ft_json_arr_begin(j, "top");
	for (i = 0; i < o->nr_top; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", ft_po_stack_text(&o->top[i].e, FT_PO_FRAMES, stack, sizeof(stack)));
		ft_json_u64(j, "pages", o->top[i].pages);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* "owners": null without page_owner looks, else the stacks that own pinned pages of mixed blocks. */
static void json_owners(struct ft_json *j, const struct ft_report *rep)
{
	struct ft_rep_owners o;
	char stack[256];
	size_t i;

	if (ft_report_owners_model(rep, &o) || !o.known) {
		ft_report_owners_free(&o);
		ft_json_null(j, "owners");
		return;
	}
	ft_json_obj_begin(j, "owners");
	ft_json_i64(j, "error", o.err);
	ft_json_u64(j, "blocks_read", o.looks);
	ft_json_u64(j, "mixed_blocks", o.blocks);
	ft_json_u64(j, "pinned_pages", o.tally.pin_pages);
	ft_json_u64(j, "pinning_allocations", o.tally.pins);
	ft_json_u64(j, "past_table_pages", o.tally.other_pages);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < o.nr; i++) {
		const struct ft_po_entry *e = &o.groups[i].first;

		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "stack", ft_po_stack_text(e, FT_PO_FRAMES, stack, sizeof(stack)));
		ft_json_u64(j, "pages", o.groups[i].pages);
		ft_json_u64(j, "allocations", o.groups[i].count);
		ft_json_u64(j, "order", e->order);
		ft_json_str(j, "migratetype", e->page_mt);
		ft_json_str(j, "gfp", e->gfp_names);
		ft_json_i64(j, "pid", e->pid);
		ft_json_str(j, "comm", e->comm);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	json_owner_stacks(j, rep, &o);
	ft_json_obj_end(j);
	ft_report_owners_free(&o);
}

static void report_json(const struct ft_report *rep)
{
	const struct ft_session *l = &rep->rp.session;
	struct ft_json j;
	int lat;

	ft_json_init(&j, stdout, true);
	ft_json_obj_begin(&j, NULL);
	json_head(&j, rep);
	ft_json_obj_begin(&j, "totals");
	json_counters(&j, rep, &rep->first, &rep->last);
	ft_json_obj_end(&j);
	if (l->tracing)
		json_compaction(&j, rep, &rep->first, &rep->last);
	else
		ft_json_null(&j, "compaction");
	json_direct_cost(&j, rep);
	/* extfrag_by_zone goes before the processes, pageblocks after the latencies */
	ft_json_arr_begin(&j, "extfrag_by_zone");
	json_extfrag_zones(&j, rep);
	ft_json_arr_end(&j);
	if (rep->procs)
		ft_json_processes(&j, rep->procs, 0);
	else
		ft_json_null(&j, "processes");
	json_stacks(&j, rep);
	json_owners(&j, rep);
	ft_json_obj_begin(&j, "latency");
	for (lat = 0; lat < FT_LAT_NR; lat++)
		json_lat(&j, ft_lat_names[lat], rep, lat, &rep->first, &rep->last);
	ft_json_obj_end(&j);
	ft_json_arr_begin(&j, "pageblocks");	/* the last recorded map scan; empty without one */
	json_pageblocks(&j, l);
	ft_json_arr_end(&j);
	json_controls(&j, rep);
	json_boost(&j, rep, rep->boost_zone);
	json_level(&j, "free_in_pageblocks_pct", &rep->in_blocks);
	json_thp(&j, rep);
	json_intervals(&j, rep);
	json_cost(&j, rep);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

static struct {
	bool json, threads, verbose;
	struct ft_rep_window window;
} o;

static const struct ft_opt report_opts[] = {
	FT_OPT_JSON(o.json),
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
	{ "threads", 'H', FT_OPT_FLAG, NULL, "a process row per thread", .var = &o.threads,
	  .def_help = "threads summed by process" },
	{ "verbose", 'v', FT_OPT_FLAG, NULL, "say which inputs were skipped as malformed, and where",
	  .var = &o.verbose },
};

static int run_report(int argc, char **argv)
{
	struct ft_report *rep;
	bool json;
	int err, first;

	err = ft_cli_parse(&ft_cmd_report, argc, argv, &first);
	if (err >= 0)
		return err;
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_report, "one recording expected");
	json = o.json;
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return 1;
	err = ft_report_build(rep, argv[first], &o.window);
	by_thread = o.threads;
	verbose = o.verbose;
	if (!err && rep->procs && !by_thread) {
		struct ft_procs *by_process = malloc(sizeof(*by_process));

		if (by_process) {
			ft_procs_by_process(by_process, rep->procs);
			memcpy(rep->procs, by_process, sizeof(*by_process));
			free(by_process);
		}
	}
	if (!err) {
		if (json)
			report_json(rep);
		else
			report_text(rep);
	}
	ft_report_release(rep);
	free(rep);
	return err ? 1 : 0;
}

const struct ft_cmd ft_cmd_report = {
	.name = "report",
	.args = "FILE",
	.summary = "sum up a recording (text or --json)",
	.about = "Totals, the processes that fragmented most, THP and compaction outcomes,\n"
		 "stall latencies (exact percentiles) and histograms (on a kernel with the\n"
		 "fragmentation stall, beside its /proc/vmstat fragment_stall count), every\n"
		 "control change (fragtop's, and knob changes seen from outside it), and\n"
		 "the same metrics for each interval between changes; --from/--to limit\n"
		 "it to a stretch of the recording.",
	FT_CMD_OPTS(report_opts),
	.run = run_report,
};
