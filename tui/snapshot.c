// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/snapshot.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/frag.h"
#include "tui/json.h"

static void json_thousandths(struct ft_json *j, const char *key, const int *v, int n)
{
	char buf[32];
	int i;

	ft_json_arr_begin_inline(j, key);
	for (i = 0; i < n; i++) {
		ft_thousandths_format(v[i], buf, sizeof(buf));
		ft_json_raw(j, NULL, buf);
	}
	ft_json_arr_end(j);
}

static void json_u64s(struct ft_json *j, const char *key, const uint64_t *v, int n)
{
	int i;

	ft_json_arr_begin_inline(j, key);
	for (i = 0; i < n; i++)
		ft_json_u64(j, NULL, v[i]);
	ft_json_arr_end(j);
}

static void json_zone(struct ft_json *j, const struct ft_sample *s, const struct ft_zone *z)
{
	const struct ft_zi_zone *zi = z->zi;
	const struct ft_pagetypeinfo *pti = &s->pti;
	int t;

	ft_json_obj_begin(j, NULL);
	ft_json_i64(j, "node", zi->node);
	ft_json_str(j, "zone", zi->name);
	ft_json_u64(j, "free_pages", zi->free);
	ft_json_u64(j, "min", zi->min);
	ft_json_u64(j, "low", zi->low);
	ft_json_u64(j, "high", zi->high);
	if (zi->has & FT_ZI_BOOST)
		ft_json_u64(j, "boost", zi->boost);
	else
		ft_json_null(j, "boost");
	if (zi->has & FT_ZI_PROMO)
		ft_json_u64(j, "promo", zi->promo);
	else
		ft_json_null(j, "promo");
	ft_json_u64(j, "managed", zi->managed);
	ft_json_u64(j, "present", zi->present);
	ft_json_u64(j, "spanned", zi->spanned);
	if (zi->has & FT_ZI_START_PFN)
		ft_json_u64(j, "start_pfn", zi->start_pfn);
	else
		ft_json_null(j, "start_pfn");
	if (z->bi) {
		json_u64s(j, "free_blocks", z->bi->blocks, s->nr_orders);
		json_thousandths(j, "unusable_index", z->unusable, s->nr_orders);
		json_thousandths(j, "fragmentation_index", z->fragidx, s->nr_orders);
	} else {
		ft_json_null(j, "free_blocks");
		ft_json_null(j, "unusable_index");
		ft_json_null(j, "fragmentation_index");
	}
	if (z->pti) {
		uint32_t capped = 0;

		ft_json_obj_begin(j, "free_by_type");
		for (t = 0; t < pti->nr_types; t++) {
			if (!(z->pti->free_seen & (1u << t)))
				continue;
			json_u64s(j, pti->types[t], z->pti->free[t], pti->nr_orders);
			capped |= z->pti->capped[t];
		}
		ft_json_obj_end(j);
		/* Counts the kernel printed as ">100000": lower bounds. */
		ft_json_bool(j, "free_by_type_capped", capped != 0);
		ft_json_obj_begin(j, "blocks_by_type");
		for (t = 0; t < pti->nr_types; t++)
			ft_json_u64(j, pti->types[t], z->pti->blocks[t]);
		ft_json_obj_end(j);
		if (z->pti->has_mixed) {
			ft_json_obj_begin(j, "mixed_blocks_by_type");
			for (t = 0; t < pti->nr_types; t++)
				ft_json_u64(j, pti->types[t], z->pti->mixed[t]);
			ft_json_obj_end(j);
		} else {
			ft_json_null(j, "mixed_blocks_by_type");
		}
	} else {
		ft_json_null(j, "free_by_type");
		ft_json_null(j, "blocks_by_type");
		ft_json_null(j, "mixed_blocks_by_type");
	}
	ft_json_obj_end(j);
}

static void json_knobs(struct ft_json *j, const struct ft_live *l)
{
	size_t i;

	ft_json_obj_begin(j, "sysctl");
	for (i = 0; i < ft_knobs_nr && i < FT_LIVE_MAX_KNOBS; i++)
		if (ft_knobs[i].type == FT_KNOB_INT && !l->knobs[i].err)
			ft_json_i64(j, ft_knobs[i].name, l->knobs[i].num);
	ft_json_obj_end(j);
	ft_json_obj_begin(j, "thp");
	for (i = 0; i < ft_knobs_nr && i < FT_LIVE_MAX_KNOBS; i++) {
		const struct ft_selector *sel = &l->knobs[i].sel;

		if (ft_knobs[i].type != FT_KNOB_SELECT || l->knobs[i].err)
			continue;
		/* "thp_enabled" -> "enabled" */
		ft_json_str(j, ft_knobs[i].name + 4, sel->options[sel->selected]);
	}
	ft_json_obj_end(j);
}

void ft_snapshot_json(FILE *f, const struct ft_live *l, double interval_s)
{
	const struct ft_sample *s = &l->sample;
	struct ft_json j;
	size_t i;
	int r;

	ft_json_init(&j, f, true);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, "fragtop_version", FT_VERSION);
	ft_json_str(&j, "hostname", l->host.hostname);
	ft_json_str(&j, "kernel", l->host.release);
	ft_json_str(&j, "root", l->root);
	ft_json_i64(&j, "time", (int64_t)time(NULL));
	if (s->pageblock_order >= 0)
		ft_json_i64(&j, "pageblock_order", s->pageblock_order);
	else
		ft_json_null(&j, "pageblock_order");
	ft_json_str(&j, "pageblock_order_source",
		    ft_sample_has(s, FT_SRC_PAGETYPEINFO) ? "pagetypeinfo" :
		    s->pageblock_order >= 0 ? "thp_pmd_size" : NULL);
	ft_json_i64(&j, "nr_orders", s->nr_orders);
	if (ft_sample_has(s, FT_SRC_PAGETYPEINFO)) {
		ft_json_arr_begin_inline(&j, "migratetypes");
		for (r = 0; r < s->pti.nr_types; r++)
			ft_json_str(&j, NULL, s->pti.types[r]);
		ft_json_arr_end(&j);
	} else {
		ft_json_null(&j, "migratetypes");
	}
	ft_json_obj_begin(&j, "sources");
	for (r = 0; r < FT_SRC_NR; r++)
		ft_json_str(&j, ft_source_names[r],
			    ft_sample_has(s, r) ? "ok" : strerror(-s->err[r]));
	ft_json_obj_end(&j);
	ft_json_arr_begin(&j, "zones");
	for (i = 0; i < s->nr_zones; i++)
		if (ft_zi_populated(s->zones[i].zi))
			json_zone(&j, s, &s->zones[i]);
	ft_json_arr_end(&j);
	if (interval_s > 0 && s->rates.valid) {
		ft_json_obj_begin(&j, "rates");
		ft_json_double(&j, "interval", s->rates.dt);
		for (r = 0; r < FT_RATE_NR; r++)
			ft_json_double(&j, ft_rate_defs[r].name, s->rates.v[r]);
		ft_json_double(&j, "thp_fault_success", s->rates.thp_success);
		ft_json_double(&j, "compact_success_ratio", s->rates.compact_success);
		ft_json_obj_end(&j);
	}
	ft_json_obj_begin(&j, "vmstat");
	for (i = 0; ft_sample_has(s, FT_SRC_VMSTAT) && i < s->vmstat.nr; i++)
		ft_json_i64(&j, s->vmstat.items[i].name, s->vmstat.items[i].value);
	ft_json_obj_end(&j);
	json_knobs(&j, l);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

void ft_snapshot_table(FILE *f, const struct ft_live *l)
{
	const struct ft_sample *s = &l->sample;
	char buf[32];
	size_t i;
	int o, t;

	fprintf(f, "fragtop %s  host %s  kernel %s  pageblock order %d\n",
		FT_VERSION, l->host.hostname, l->host.release, s->pageblock_order);
	for (i = 0; i < s->nr_zones; i++) {
		const struct ft_zone *z = &s->zones[i];
		const struct ft_zi_zone *zi = z->zi;

		if (!ft_zi_populated(zi))
			continue;
		fprintf(f, "\nNode %d, zone %s\n", zi->node, zi->name);
		fprintf(f, "  free %llu  min %llu  low %llu  high %llu  boost %s  managed %llu\n",
			(unsigned long long)zi->free, (unsigned long long)zi->min,
			(unsigned long long)zi->low, (unsigned long long)zi->high,
			zi->has & FT_ZI_BOOST ? (snprintf(buf, sizeof(buf), "%llu",
				(unsigned long long)zi->boost), buf) : "n/a",
			(unsigned long long)zi->managed);
		if (!z->bi)
			continue;
		fprintf(f, "  %-16s", "order");
		for (o = 0; o < s->nr_orders; o++)
			fprintf(f, " %7d", o);
		fprintf(f, "\n  %-16s", "free blocks");
		for (o = 0; o < s->nr_orders; o++)
			fprintf(f, " %7llu", (unsigned long long)z->bi->blocks[o]);
		fprintf(f, "\n  %-16s", "unusable index");
		for (o = 0; o < s->nr_orders; o++) {
			ft_thousandths_format(z->unusable[o], buf, sizeof(buf));
			fprintf(f, " %7s", buf);
		}
		fprintf(f, "\n  %-16s", "frag index");
		for (o = 0; o < s->nr_orders; o++) {
			ft_thousandths_format(z->fragidx[o], buf, sizeof(buf));
			fprintf(f, " %7s", buf);
		}
		fputc('\n', f);
		if (!z->pti)
			continue;
		fprintf(f, "  pageblocks     ");
		for (t = 0; t < s->pti.nr_types; t++)
			fprintf(f, " %s %llu", s->pti.types[t],
				(unsigned long long)z->pti->blocks[t]);
		fputc('\n', f);
	}
	if (!ft_sample_has(s, FT_SRC_PAGETYPEINFO))
		fprintf(f, "\n(pagetypeinfo: %s)\n", strerror(-s->err[FT_SRC_PAGETYPEINFO]));
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fragtop snapshot [--json] [--root DIR] [--interval SECS]\n"
		"  --json           print JSON instead of a table\n"
		"  --root DIR       read /proc and /sys under DIR (a captured tree)\n"
		"  --interval SECS  take two samples SECS apart and add rates\n");
}

int ft_cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *root = "/";
	double interval = 0;
	bool json = false;
	struct ft_live live;
	char *end;
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "jr:i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'r':
			root = optarg;
			break;
		case 'i':
			interval = strtod(optarg, &end);
			if (*end || !(interval >= 0) || interval > 86400) {
				fprintf(stderr, "fragtop: --interval: '%s' is not a number of seconds (0-86400)\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	err = ft_live_open(&live, root, 0);
	if (err) {
		fprintf(stderr, "fragtop: cannot open root %s: %s\n", root, strerror(-err));
		return 1;
	}
	err = ft_live_tick(&live, true);
	if (!err && interval > 0) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - floor(interval)) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		err = ft_live_tick(&live, true);
	}
	if (err) {
		fprintf(stderr, "fragtop: no usable zoneinfo under %s: %s\n", root, strerror(-err));
		ft_live_close(&live);
		return 1;
	}
	if (json)
		ft_snapshot_json(stdout, &live, interval);
	else
		ft_snapshot_table(stdout, &live);
	ft_live_close(&live);
	return 0;
}
