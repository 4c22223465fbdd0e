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
#include "render/csv.h"
#include "collectors/replay.h"
#include "analysis/report.h"
#include "model/counterfield.h"
#include "model/frag.h"
#include "model/thp.h"
#include "model/zonefield.h"
#include "cmd/cli.h"
#include "render/metrics.h"

/* The counters export writes, in column order (model/counterfield.h); a name of its own or NULL. */
static const struct {
	enum ft_cf c;
	const char *name;
} cols[] = {
	{ FT_CF_EXTFRAG, NULL },
	{ FT_CF_FRAGMENTING, NULL },
	{ FT_CF_DIRECT_COMPACT, "compactions" },	/* direct: stalls (model/events.h) */
	{ FT_CF_BG_COMPACT, NULL },
	{ FT_CF_RECLAIMS, NULL },
	{ FT_CF_KSWAPD_WAKES, NULL },
	{ FT_CF_FRAG_STALLS, NULL },
	{ FT_CF_COMPACT_STALL, NULL },
	{ FT_CF_COMPACT_SUCCESS, NULL },
	{ FT_CF_THP_ALLOC, NULL },
	{ FT_CF_THP_FALLBACK, NULL },
};
#define NR_COLS (sizeof(cols) / sizeof(cols[0]))
/* ",field": a header column; a zone name comes from the recording (render/csv.h quotes it) */
static void csv_col(const char *f)
{
	putchar(',');
	ft_csv_field(stdout, f);
}

#define MAX_ZONES 64


static const char *col_name(size_t i)
{
	return cols[i].name ? cols[i].name : ft_counter_fields[cols[i].c].key;
}

static void values(const struct ft_session *l, int64_t *v)
{
	int64_t all[FT_CF_NR];
	size_t i;

	ft_counters_read(l, all, NULL);
	for (i = 0; i < NR_COLS; i++)
		v[i] = all[cols[i].c];
}

#define MAX_LABELS 8

/* --label NAME=VALUE, up to MAX_LABELS: key, value pairs and a NULL end */
struct labels {
	const char *kv[2 * MAX_LABELS + 1];
	int n;
};

static struct {
	bool csv, json, openmetrics;
	struct ft_rep_window window;
	struct labels labels;
} o;

/* --label's parser: NAME=VALUE, NAME a label no family of fragtop's uses, once each. */
static int parse_label(const char *arg, void *var, char *why, size_t sz)
{
	struct labels *l = var;
	const char *eq = strchr(arg, '=');
	char name[64];
	int i;

	if (!eq || (size_t)(eq - arg) >= sizeof(name)) {
		snprintf(why, sz, eq ? "label name too long" : "NAME=VALUE expected");
		return -1;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (ft_metrics_label_ok(name, why, sz))
		return -1;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->kv[2 * i], name)) {
			snprintf(why, sz, "label \"%s\" given twice", name);
			return -1;
		}
	if (l->n == MAX_LABELS) {
		snprintf(why, sz, "at most %d labels", MAX_LABELS);
		return -1;
	}
	if (!(l->kv[2 * l->n] = strdup(name))) {
		snprintf(why, sz, "%s", strerror(errno));
		return -1;
	}
	l->kv[2 * l->n + 1] = eq + 1;
	l->n++;
	return 0;
}

static const struct ft_opt opts[] = {
	{ "csv", 0, FT_OPT_FLAG, NULL, "comma-separated values, a header line first", .var = &o.csv },
	{ "json", 'j', FT_OPT_FLAG, NULL, "one JSON document", .var = &o.json },
	{ "openmetrics", 0, FT_OPT_FLAG, NULL,
	  "OpenMetrics with timestamps, every tick, for\n"
	  "'promtool tsdb create-blocks-from openmetrics' (backfill)", .var = &o.openmetrics },
	{ "label", 0, FT_OPT_CB, "NAME=VALUE",
	  "with --openmetrics, put this label on every sample, as a\n"
	  "scrape adds instance and job (repeat it; at most 8)", .var = &o.labels,
	  .parse = parse_label },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
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
	struct ft_rep_cut cut;
	bool started = false;
	char buf[65536];
	int f, err = 0;
	size_t n;

	for (f = 0; f < FT_MF_NR; f++)
		if (!(tmp[f] = tmpfile())) {
			err = -errno;
			goto out;
		}
	ft_rep_cut_init(&cut, from, to);
	do {
		const struct ft_session *l = &rp->session;
		double t = (double)(l->tick_t_ns - l->first_t_ns) / 1e9;
		int where = ft_rep_cut_where(&cut, t);

		if (where < 0)
			continue;
		if (where > 0)
			break;
		for (f = 0; f < FT_MF_NR; f++) {
			struct ft_metrics m = {
				.openmetrics = true, .only = 1ull << f, .no_head = started,
				.timestamp_ms = (int64_t)(l->tick_rt_ns / 1000000),
				.extra_labels = o.labels.n ? o.labels.kv : NULL,
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

/* The zones a row has columns for: every populated zone of the first tick. */
struct zone_key {
	int node;
	char name[FT_ZONE_NAME_LEN];
};

/* The THP sizes of the CSV columns and JSON rows (thp_find_sizes()). */
static struct {
	int n;
	uint32_t kb[FT_THP_SIZES];
} thp_cols;

/* The zone fields of a row, in order (model/zonefield.h): a new one is its id here. */
static const enum ft_zf zone_cols[] = {
	FT_ZF_FREE, FT_ZF_UNUSABLE_PBO, FT_ZF_BOOST_PEAK, FT_ZF_BOOSTED, FT_ZF_FREE_IN_BLOCKS,
};
#define NR_ZONE_COLS (sizeof(zone_cols) / sizeof(zone_cols[0]))

/* The CSV header: the tick's columns, then the zone fields of each zone. */
static void csv_header(const struct zone_key *zones, int nz)
{
	size_t i;
	int z;

	printf("t_s,realtime_s,watermark_boost_factor");
	for (i = 0; i < NR_COLS; i++)
		printf(",%s", col_name(i));
	for (z = 0; z < nz; z++)
		for (i = 0; i < NR_ZONE_COLS; i++) {
			char f[96];

			snprintf(f, sizeof(f), "N%d_%s_%s", zones[z].node, zones[z].name,
				 ft_zone_fields[zone_cols[i]].key);
			csv_col(f);
		}
	for (z = 0; z < thp_cols.n; z++)
		printf(",thp_%ukB_anon_fault_alloc,thp_%ukB_anon_fault_fallback", thp_cols.kb[z], thp_cols.kb[z]);
	printf("\n");
}

/* The session's index of the zone @key names this tick, or -1. */
static int zone_index(const struct ft_session *l, const struct zone_key *key)
{
	size_t i;
	int found = -1;

	for (i = 0; i < l->sample.nr_zones; i++)
		if (l->sample.zones[i].zi->node == key->node && !strcmp(l->sample.zones[i].zi->name, key->name))
			found = (int)i;
	return found;
}

/* A zone's fields in one tick: CSV cells (empty where absent) or a JSON object (null). */
static void zone_out(struct ft_json *j, const struct ft_session *l, const struct zone_key *key)
{
	int i = zone_index(l, key);
	char v[32];
	size_t c;

	if (!o.csv) {
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", key->node);
		ft_json_str(j, "zone", key->name);
	}
	for (c = 0; c < NR_ZONE_COLS; c++) {
		bool have = i >= 0 && ft_zone_field_text(l, (size_t)i, zone_cols[c], v, sizeof(v));

		if (o.csv)
			printf(",%s", have ? v : "");
		else if (have)
			ft_json_raw(j, ft_zone_fields[zone_cols[c]].key, v);
		else
			ft_json_null(j, ft_zone_fields[zone_cols[c]].key);
	}
	if (!o.csv)
		ft_json_obj_end(j);
}

/*
 * THP by size: the sizes with anonymous fault counters at the first tick
 * (none in a recording made before fragtop read them: no columns), each
 * tick's alloc and fallback.
 */

static void thp_find_sizes(const struct ft_session *l)
{
	uint64_t v;
	int i;

	thp_cols.n = 0;
	for (i = 0; l->thp_ticks && i < l->thp.nr && thp_cols.n < FT_THP_SIZES; i++)
		if (ft_thp_stat(&l->thp.s[i], "anon_fault_alloc", &v))
			thp_cols.kb[thp_cols.n++] = l->thp.s[i].kb;
}

/* @name's growth over the tick for size @kb: false before two ticks of it. */
static bool thp_tick(const struct ft_session *l, uint32_t kb, const char *name, uint64_t *d)
{
	return ft_thp_growth(&l->thp_prev, &l->thp, kb, name, d);
}

static void thp_out(struct ft_json *j, const struct ft_session *l)
{
	static const char *const names[2] = { "anon_fault_alloc", "anon_fault_fallback" };
	uint64_t d;
	int k, c;

	if (!thp_cols.n)
		return;
	if (!o.csv)
		ft_json_arr_begin(j, "thp");
	for (k = 0; k < thp_cols.n; k++) {
		if (!o.csv) {
			ft_json_obj_begin_inline(j, NULL);
			ft_json_u64(j, "size_kb", thp_cols.kb[k]);
		}
		for (c = 0; c < 2; c++) {
			bool have = thp_tick(l, thp_cols.kb[k], names[c], &d);

			if (o.csv && have)
				printf(",%llu", (unsigned long long)d);
			else if (o.csv)
				printf(",");
			else if (have)
				ft_json_u64(j, names[c], d);
			else
				ft_json_null(j, names[c]);
		}
		if (!o.csv)
			ft_json_obj_end(j);
	}
	if (!o.csv)
		ft_json_arr_end(j);
}

/* One tick as a CSV line or a JSON object: its counts are @now - @prev. */
static void row(struct ft_json *j, const struct ft_session *l, double t, const int64_t *now,
		const int64_t *prev, const struct zone_key *zones, int nz)
{
	const struct ft_knob_value *bv = &l->knobs[ft_knob_find("watermark_boost_factor") - ft_knobs];
	size_t i;
	int z;

	if (o.csv) {
		printf("%.3f,%.3f,", t, (double)l->tick_rt_ns / 1e9);
		if (!bv->err)
			printf("%lld", (long long)bv->num);
		for (i = 0; i < NR_COLS; i++)
			printf(",%lld", (long long)(now[i] - prev[i]));
	} else {
		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "t_s", t);
		ft_json_u64(j, "realtime_ns", l->tick_rt_ns);
		if (bv->err)
			ft_json_null(j, "watermark_boost_factor");
		else
			ft_json_i64(j, "watermark_boost_factor", bv->num);
		for (i = 0; i < NR_COLS; i++)
			ft_json_i64(j, col_name(i), now[i] - prev[i]);
		ft_json_arr_begin(j, "zones");
	}
	for (z = 0; z < nz; z++)
		zone_out(j, l, &zones[z]);
	if (!o.csv)
		ft_json_arr_end(j);
	thp_out(j, l);
	if (o.csv)
		printf("\n");
	else
		ft_json_obj_end(j);
}

/* Every tick in [@from, @to] as CSV or JSON; the replay is at its first tick. */
static void rows(struct ft_replay *rp, const char *file, double from, double to)
{
	struct zone_key zones[MAX_ZONES];
	int64_t prev[NR_COLS], now[NR_COLS];
	struct ft_rep_cut cut;
	struct ft_json j;
	size_t i;
	int nz = 0;

	for (i = 0; i < rp->session.sample.nr_zones && nz < MAX_ZONES; i++) {
		const struct ft_zi_zone *zi = rp->session.sample.zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		zones[nz].node = zi->node;
		memcpy(zones[nz].name, zi->name, sizeof(zones[nz].name));
		nz++;
	}
	values(&rp->session, prev);
	thp_find_sizes(&rp->session);
	if (o.csv) {
		csv_header(zones, nz);
	} else {
		ft_json_init(&j, stdout, false);
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "file", file);
		ft_json_arr_begin(&j, "samples");
	}
	ft_rep_cut_init(&cut, from, to);
	do {
		const struct ft_session *l = &rp->session;
		double t = (double)(l->tick_t_ns - l->first_t_ns) / 1e9;
		int where = ft_rep_cut_where(&cut, t);

		values(l, now);
		if (where > 0)
			break;
		if (!where)	/* before the window only the counts move on */
			row(&j, l, t, now, prev, zones, nz);
		memcpy(prev, now, sizeof(prev));
	} while (ft_replay_step(rp) > 0);
	if (!o.csv) {
		ft_json_arr_end(&j);
		ft_json_obj_end(&j);
		ft_json_end(&j);
	}
}

static int run(int argc, char **argv)
{
	static struct ft_replay rp;
	double from = 0, to = INFINITY;
	const char *file;
	char why[160];
	int err, first;

	err = ft_cli_parse(&ft_cmd_export, argc, argv, &first);
	if (err >= 0)
		return err;
	if (o.csv + o.json + o.openmetrics != 1)
		return ft_cli_usage_error(&ft_cmd_export, "one of --csv, --json and --openmetrics");
	if (first != argc - 1)
		return ft_cli_usage_error(&ft_cmd_export, "one recording expected");
	if (o.labels.n && !o.openmetrics)
		return ft_cli_usage_error(&ft_cmd_export, "--label goes with --openmetrics");
	file = argv[first];
	err = ft_replay_open(&rp, file, NULL);
	if (err) {
		fprintf(stderr, "fragtop: %s: %s\n", file, rp.r.why[0] ? rp.r.why : strerror(-err));
		ft_replay_close(&rp);
		return 1;
	}
	rp.forward_only = true;
	if (ft_replay_step(&rp) <= 0) {
		fprintf(stderr, "fragtop: %s: no complete sample in the recording\n", file);
		ft_replay_close(&rp);
		return 1;
	}
	if ((o.window.from && ft_rep_window_secs(o.window.from, rp.session.first_rt_ns, &from, why, sizeof(why))) ||
	    (o.window.to && ft_rep_window_secs(o.window.to, rp.session.first_rt_ns, &to, why, sizeof(why)))) {
		fprintf(stderr, "fragtop: %s: %s\n", file, why);
		ft_replay_close(&rp);
		return 1;
	}
	err = 0;
	if (o.openmetrics)
		err = openmetrics(&rp, from, to);
	else
		rows(&rp, file, from, to);
	ft_replay_close(&rp);
	if (err)
		fprintf(stderr, "fragtop: %s: %s\n", file, strerror(-err));
	return err ? 1 : 0;
}

const struct ft_cmd ft_cmd_export = {
	.name = "export",
	.args = "FILE",
	.summary = "a recording's time series as CSV or JSON",
	.about = "One row per tick: seconds, time, boost factor, the events and vmstat\n"
		 "counts in that tick, each zone's free pages and unusable index;\n"
		 "--from/--to keep a stretch of the recording.",
	FT_CMD_OPTS(opts),
	.run = run,
};
