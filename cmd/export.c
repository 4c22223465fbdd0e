// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop export FILE --csv|--json`: a recording's time series, one row
 * per tick, for plotting elsewhere: the counts of events and vmstat
 * counters in the tick, the boost factor, and per zone (those of the first
 * tick) the free pages, the unusable index at pageblock order, the boost
 * sampler's peak and share, and the free pages in whole pageblocks (6.15+).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "out/csv.h"
#include "collectors/replay.h"
#include "analysis/report.h"
#include "model/frag.h"
#include "cmd/cli.h"
#include "out/metrics.h"

static const struct {
	const char *name;
	int metric;		/* FT_M_*, or -1 for a vmstat counter */
	const char *vmstat;
} cols[] = {
	{ "extfrag", FT_M_EXTFRAG, NULL },
	{ "extfrag_fragmenting", FT_M_FRAGMENTING, NULL },
	{ "compactions", FT_M_COMPACTION, NULL },	/* direct: stalls (model/events.h) */
	{ "background_compactions", FT_M_BG_COMPACTION, NULL },
	{ "direct_reclaims", FT_M_RECLAIM, NULL },
	{ "kswapd_wakes", FT_M_KSWAPD_WAKE, NULL },
	{ "fragmentation_stalls", FT_M_FRAG_STALL, NULL },
	{ "compact_stall", -1, "compact_stall" },
	{ "compact_success", -1, "compact_success" },
	{ "thp_fault_alloc", -1, "thp_fault_alloc" },
	{ "thp_fault_fallback", -1, "thp_fault_fallback" },
};
#define NR_COLS (sizeof(cols) / sizeof(cols[0]))
/* ",field": a header column; a zone name comes from the recording (out/csv.h quotes it) */
static void csv_col(const char *f)
{
	putchar(',');
	ft_csv_field(stdout, f);
}

#define MAX_ZONES 64


static void values(const struct ft_session *l, int64_t *v)
{
	uint64_t m[FT_M_NR] = { 0 };
	size_t i;

	if (l->tracing)
		ft_events_metrics(&l->events, m);
	for (i = 0; i < NR_COLS; i++) {
		if (cols[i].metric >= 0)
			v[i] = l->tracing ? (int64_t)m[cols[i].metric] : 0;
		else if (!ft_vmstat_get(&l->sample.vmstat, cols[i].vmstat, &v[i], NULL))
			v[i] = 0;
	}
}

enum { X_CSV, X_JSON, X_OPENMETRICS, X_FROM, X_TO, X_NR };

static const struct ft_opt opts[X_NR] = {
	[X_CSV] = { "csv", 0, FT_OPT_FLAG, NULL, "comma-separated values, a header line first" },
	[X_JSON] = { "json", 'j', FT_OPT_FLAG, NULL, "one JSON document" },
	[X_OPENMETRICS] = { "openmetrics", 0, FT_OPT_FLAG, NULL,
			    "OpenMetrics with timestamps, every tick, for\n"
			    "'promtool tsdb create-blocks-from openmetrics' (backfill)" },
	[X_FROM] = FT_OPT_FROM,
	[X_TO] = FT_OPT_TO,
};

/*
 * The recording as OpenMetrics for a backfill: every tick's samples with
 * the tick's time, each family's samples together (OpenMetrics does not
 * let families interleave), so each goes to its own temporary file first
 * and they are written one after the other.  The replay is at its first
 * tick.
 */
static int openmetrics(struct ft_replay *rp, double from, double to)
{
	static FILE *tmp[FT_MF_NR];	/* closed below on every path */
	bool started = false;
	char buf[65536];
	int f, err = 0;
	size_t n;

	for (f = 0; f < FT_MF_NR; f++)
		if (!(tmp[f] = tmpfile())) {
			err = -errno;
			goto out;
		}
	do {
		const struct ft_session *l = &rp->session;
		double t = (double)(l->tick_t_ns - l->first_t_ns) / 1e9;

		if (t + 1e-6 < from)
			continue;
		if (t > to + 1e-6)
			break;
		for (f = 0; f < FT_MF_NR; f++) {
			struct ft_metrics m = {
				.openmetrics = true, .only = 1ull << f, .no_head = started,
				.timestamp_ms = (int64_t)(l->tick_rt_ns / 1000000),
			};

			if (!m.timestamp_ms)
				m.timestamp_ms = 1;	/* a recording without wall time: from the epoch */
			if (ft_metrics_write(tmp[f], l, &m)) {
				err = -EIO;
				goto out;
			}
		}
		started = true;
	} while (ft_replay_step(rp) > 0);
	for (f = 0; f < FT_MF_NR; f++) {
		rewind(tmp[f]);
		while ((n = fread(buf, 1, sizeof(buf), tmp[f])) > 0)
			fwrite(buf, 1, n, stdout);
		if (ferror(tmp[f])) {
			err = -EIO;
			goto out;
		}
	}
	fputs("# EOF\n", stdout);
out:
	for (f = 0; f < FT_MF_NR; f++) {
		if (tmp[f])
			fclose(tmp[f]);
		tmp[f] = NULL;
	}
	return err;
}

static int run(int argc, char **argv)
{
	struct ft_optval v[X_NR];
	static struct ft_replay rp;
	struct { int node; char name[FT_ZONE_NAME_LEN]; } zones[MAX_ZONES];
	int64_t prev[NR_COLS], now[NR_COLS];
	const struct ft_knob *bk = ft_knob_find("watermark_boost_factor");
	int fmt = 0, nz = 0, err, z, first;
	double from = 0, to = INFINITY;
	char why[160];
	struct ft_json j;
	size_t i;

	err = ft_cli_parse(&ft_cmd_export, argc, argv, v, &first);
	if (err >= 0)
		return err;
	fmt = v[X_CSV].set ? 'c' : v[X_JSON].set ? 'j' : v[X_OPENMETRICS].set ? 'o' : 0;
	if (!fmt || v[X_CSV].set + v[X_JSON].set + v[X_OPENMETRICS].set > 1)
		return ft_cli_usage_error(&ft_cmd_export, "one of --csv, --json and --openmetrics");
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_export, "one recording expected");
	err = ft_replay_open(&rp, argv[first], 0);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", argv[first], rp.r.why[0] ? rp.r.why : strerror(-err));
		ft_replay_close(&rp);
		return 1;
	}
	if (ft_replay_step(&rp) <= 0) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording\n", argv[first]);
		ft_replay_close(&rp);
		return 1;
	}
	for (i = 0; i < rp.session.sample.nr_zones && nz < MAX_ZONES; i++) {
		const struct ft_zi_zone *zi = rp.session.sample.zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		zones[nz].node = zi->node;
		memcpy(zones[nz].name, zi->name, sizeof(zones[nz].name));
		nz++;
	}
	values(&rp.session, prev);
	if ((v[X_FROM].set && ft_rep_window_secs(v[X_FROM].str, rp.session.first_rt_ns, &from, why, sizeof(why))) ||
	    (v[X_TO].set && ft_rep_window_secs(v[X_TO].str, rp.session.first_rt_ns, &to, why, sizeof(why)))) {
		fprintf(stderr, "fragtop: %s: %s\n", argv[first], why);
		ft_replay_close(&rp);
		return 1;
	}
	if (fmt == 'o') {
		err = openmetrics(&rp, from, to);
		ft_replay_close(&rp);
		if (err)
			fprintf(stderr, "fragtop: %s: %s\n", argv[first], strerror(-err));
		return err ? 1 : 0;
	}
	if (fmt == 'c') {
		printf("t_s,realtime_s,watermark_boost_factor");
		for (i = 0; i < NR_COLS; i++)
			printf(",%s", cols[i].name);
		for (z = 0; z < nz; z++) {
			char f[96];

			snprintf(f, sizeof(f), "N%d_%s_free_pages", zones[z].node, zones[z].name);
			csv_col(f);
			snprintf(f, sizeof(f), "N%d_%s_unusable", zones[z].node, zones[z].name);
			csv_col(f);
			snprintf(f, sizeof(f), "N%d_%s_boost_peak", zones[z].node, zones[z].name);
			csv_col(f);
			snprintf(f, sizeof(f), "N%d_%s_boosted_fraction", zones[z].node, zones[z].name);
			csv_col(f);
			snprintf(f, sizeof(f), "N%d_%s_free_pages_blocks", zones[z].node, zones[z].name);
			csv_col(f);
		}
		printf("\n");
	} else {
		ft_json_init(&j, stdout, false);
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "file", argv[first]);
		ft_json_arr_begin(&j, "samples");
	}
	do {
		const struct ft_session *l = &rp.session;
		const struct ft_knob_value *bv = &l->knobs[bk - ft_knobs];
		double t = (double)(rp.session.tick_t_ns - rp.session.first_t_ns) / 1e9;

		values(l, now);
		if (t + 1e-6 < from) {	/* before the window: only the counts move on */
			memcpy(prev, now, sizeof(prev));
			continue;
		}
		if (t > to + 1e-6)
			break;
		if (fmt == 'c') {
			printf("%.3f,%.3f,", t, (double)rp.session.tick_rt_ns / 1e9);
			if (!bv->err)
				printf("%lld", (long long)bv->num);
			for (i = 0; i < NR_COLS; i++)
				printf(",%lld", (long long)(now[i] - prev[i]));
		} else {
			ft_json_obj_begin(&j, NULL);
			ft_json_double(&j, "t_s", t);
			ft_json_u64(&j, "realtime_ns", rp.session.tick_rt_ns);
			if (bv->err)
				ft_json_null(&j, "watermark_boost_factor");
			else
				ft_json_i64(&j, "watermark_boost_factor", bv->num);
			for (i = 0; i < NR_COLS; i++)
				ft_json_i64(&j, cols[i].name, now[i] - prev[i]);
			ft_json_arr_begin(&j, "zones");
		}
		for (z = 0; z < nz; z++) {
			const struct ft_zone *found = NULL;
			const struct ft_boost_tick *bt = NULL;
			char u[16] = "", bp[24] = "", bf[24] = "", fb[24] = "";

			for (i = 0; i < l->sample.nr_zones; i++)
				if (l->sample.zones[i].zi->node == zones[z].node &&
				    !strcmp(l->sample.zones[i].zi->name, zones[z].name)) {
					found = &l->sample.zones[i];
					bt = ft_session_boost(l, i);
				}
			/* the sampler's tick: peak pages and the share of reads boosted */
			if (bt && bt->samples) {
				snprintf(bp, sizeof(bp), "%llu", (unsigned long long)bt->peak);
				snprintf(bf, sizeof(bf), "%.4f", (double)bt->boosted / bt->samples);
			}
			if (found && found->bi && l->sample.pageblock_order >= 0 &&
			    l->sample.pageblock_order < l->sample.nr_orders)
				ft_thousandths_format(found->unusable[l->sample.pageblock_order], u, sizeof(u));
			/* free pages in whole pageblocks: kernels 6.15+, else empty (null) */
			if (found && found->zi->has & FT_ZI_FREE_BLOCKS)
				snprintf(fb, sizeof(fb), "%llu", (unsigned long long)found->zi->free_blocks);
			if (fmt == 'c') {
				if (found)
					printf(",%llu,%s,%s,%s,%s", (unsigned long long)found->zi->free, u, bp, bf, fb);
				else
					printf(",,,,,");
			} else {
				ft_json_obj_begin(&j, NULL);
				ft_json_i64(&j, "node", zones[z].node);
				ft_json_str(&j, "zone", zones[z].name);
				if (found)
					ft_json_u64(&j, "free_pages", found->zi->free);
				else
					ft_json_null(&j, "free_pages");
				if (u[0])
					ft_json_raw(&j, "unusable", u);
				else
					ft_json_null(&j, "unusable");
				if (bp[0]) {
					ft_json_raw(&j, "boost_peak", bp);
					ft_json_raw(&j, "boosted_fraction", bf);
				} else {
					ft_json_null(&j, "boost_peak");
					ft_json_null(&j, "boosted_fraction");
				}
				if (fb[0])
					ft_json_raw(&j, "free_pages_blocks", fb);
				else
					ft_json_null(&j, "free_pages_blocks");
				ft_json_obj_end(&j);
			}
		}
		if (fmt == 'c')
			printf("\n");
		else {
			ft_json_arr_end(&j);
			ft_json_obj_end(&j);
		}
		memcpy(prev, now, sizeof(prev));
	} while (ft_replay_step(&rp) > 0);
	if (fmt == 'j') {
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
		ft_json_end(&j);
	}
	ft_replay_close(&rp);
	return 0;
}

const struct ft_cmd ft_cmd_export = {
	.name = "export",
	.args = "FILE",
	.summary = "a recording's time series as CSV or JSON",
	.about = "One row per tick: seconds, time, boost factor, the events and vmstat\n"
		 "counts in that tick, each zone's free pages and unusable index;\n"
		 "--from/--to keep a stretch of the recording.",
	.opts = opts,
	.nr_opts = X_NR,
	.run = run,
};
