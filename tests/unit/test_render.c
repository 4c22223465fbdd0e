// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * render/: the text and the JSON of a built report show the model's
 * figures, section by section, to the last bit (test_model_in_both), and
 * the style changes only what it names; compare's text, JSON
 * and CSV show the measured means; snapshot's JSON and table the same
 * zones; export's rows sum to the report's totals; fields and get show
 * every row they are given; plot draws each zone and control change.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/report.h"
#include "analysis/compare.h"
#include "analysis/findings.h"
#include "analysis/plot.h"
#include "model/counterfield.h"
#include "model/zonefield.h"
#include "collectors/replay.h"
#include "render/compare.h"
#include "render/export.h"
#include "render/fields.h"
#include "render/knobs.h"
#include "render/plot.h"
#include "render/report.h"
#include "render/snapshot.h"

static const char *const file = "tests/recordings/adverse-6.18.ftr";

/* What @print(@arg) printed on stdout, NUL-terminated; freed by the caller. */
static char *capture(void (*print)(const void *), const void *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	long n;
	char *buf;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stdout);
	assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
	print(arg);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	n = ftell(tmp);
	assert_true(n > 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	rewind(tmp);
	assert_int_equal(fread(buf, 1, (size_t)n, tmp), (size_t)n);
	buf[n] = 0;
	fclose(tmp);
	return buf;
}

static const struct ft_report *cur_rep;

static void print_report(const void *st)
{
	if (st)
		ft_render_report_text(cur_rep, st);
	else
		ft_render_report_json(cur_rep);
}

/* A renderer's output of @rep: text with style @st, JSON when @st is NULL. */
static char *captured(const struct ft_report *rep, const struct ft_report_style *st)
{
	cur_rep = rep;
	return capture(print_report, st);
}

/* The number after "KEY": in JSON text; -1 when absent. */
static long long json_num(const char *json, const char *key)
{
	char pat[80];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(json, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

/*
 * The number after @label in the text (after @anchor's line start, NULL: anywhere); -1 when absent.
 */
static long long text_num_in(const char *text, const char *anchor, const char *label)
{
	const char *p = anchor ? strstr(text, anchor) : text;

	if (!p)
		return -1;
	p = strstr(p, label);

	return p ? strtoll(p + strlen(label), NULL, 10) : -1;
}

static long long text_num(const char *text, const char *label)
{
	return text_num_in(text, NULL, label);
}

static struct ft_report *built(void)
{
	struct ft_report *rep = calloc(1, sizeof(*rep));

	assert_non_null(rep);
	assert_int_equal(ft_report_build(rep, file, NULL), 0);
	assert_int_equal(ft_report_by_process(rep), 0);
	return rep;
}

static void test_text_and_json_agree(void **state)
{
	static const struct ft_report_style st = { 0 };
	struct ft_report *rep = built();
	char *text = captured(rep, &st), *json = captured(rep, NULL);
	static const struct {
		const char *anchor, *label, *key;
	} same[] = {
		{ "\nextfrag events", "total ", "extfrag" },
		{ "\nextfrag events", "fragmenting (below order 9) ", "extfrag_fragmenting" },
		{ "\nextfrag events", "ownership changes ", "extfrag_change_ownership" },
		{ "\nTHP faults", "alloc ", "thp_fault_alloc" },
		{ "\nTHP faults", "fallback ", "thp_fault_fallback" },
		{ "\ncompaction ", "stalls ", "compact_stall" },
		{ "\ncompaction ", "success ", "compact_success" },
		{ "\ncompaction ", "fail ", "compact_fail" },
		{ "\n  ", " s, ", "samples" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		long long t = text_num_in(text, same[i].anchor, same[i].label),
		j = json_num(json, same[i].key);

		print_message("%s: text %lld, json %lld\n", same[i].key, t, j);
		assert_true(t >= 0);
		assert_int_equal(t, j);
	}
	/* the figures are the model's, not a renderer's own sums */
	assert_int_equal(json_num(json, "extfrag"),
			 rep->last.c[FT_CF_EXTFRAG] - rep->first.c[FT_CF_EXTFRAG]);
	free(text);
	free(json);
	ft_report_release(rep);
	free(rep);
}

/*
 * The value after "KEY": at or after @from: 1 and *@v a number, 0 null,
 * -1 absent.  *@next (may be NULL) is set past it.
 */
static int json_at(const char *from, const char *key, double *v, const char **next)
{
	char pat[96];
	const char *p;
	char *end;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(from, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	if (next)
		*next = p;
	if (!strncmp(p, "null", 4))
		return 0;
	*v = strtod(p, &end);
	return end > p ? 1 : -1;
}

/* @key after @from in the JSON is @want (NAN: null), to the last bit. */
static void json_is(const char *from, const char *key, double want)
{
	double v = 0;
	int r = json_at(from, key, &v, NULL);

	print_message("  %s: json %s %.17g, model %.17g\n", key, r > 0 ? "" : r ? "absent" : "null",
		      v, want);
	if (isnan(want)) {
		assert_int_equal(r, 0);
		return;
	}
	assert_int_equal(r, 1);
	assert_true(v == want);
}

/* The text has @line (printf-made from the model), whole. */
static void text_has(const char *text, const char *line)
{
	print_message("  text: %s\n", line);
	assert_non_null(strstr(text, line));
}

/* The window's stretch: every counter, the shares, the split, the latencies. */
static void stretch_agrees(const struct ft_rep_stretch *f, const char *json,
			   const struct ft_report *rep)
{
	double v;
	int c, lat;

	for (c = 0; c < FT_CF_NR; c++)
		json_is(json, ft_counter_fields[c].key, f->have[c] ? (double)f->d[c] : NAN);
	json_is(json, "thp_fault_success", f->thp_success);
	json_is(json, "compact_success_per_stall", f->compact_success);
	for (lat = 0; lat < FT_LAT_NR; lat++) {
		const char *at;
		char key[48];

		snprintf(key, sizeof(key), "%s", ft_lat_names[lat]);
		if (json_at(json, key, &v, &at) < 0)
			continue;	/* an interval's keys are "<source>_latency" */
		if (!rep->lat_present[lat] || !f->pct_known[lat]) {
			assert_int_equal(json_at(json, key, &v, NULL), 0);
			continue;
		}
		json_is(at, "count", (double)f->pct[lat].count);
		json_is(at, "p50_us", (double)f->pct[lat].p50_us);
		json_is(at, "p99_us", (double)f->pct[lat].p99_us);
		json_is(at, "max_us", (double)f->pct[lat].max_us);
	}
}

/*
 * Every figure of the model's sections, in the JSON and in the text, for recordings that have them.
 */
static void test_model_in_both(void **state)
{
	static const char *const files[] = {
		"tests/recordings/adverse-6.18.ftr", "tests/recordings/lab-6.12-cgroups.ftr",
		"tests/recordings/stacks-6.18.ftr",
		"tests/recordings/thpfioscale-boost-0-to-15000.ftr",
	};
	static const struct ft_report_style st = { 0 };
	size_t fi;

	(void)state;
	for (fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++) {
		struct ft_report *rep = calloc(1, sizeof(*rep));
		const struct ft_rep_stretch *f;
		const struct ft_rep_cost *c;
		char *text, *json, line[256], x[3][24];
		const char *at;
		double v;
		int k;

		print_message("%s\n", files[fi]);
		assert_non_null(rep);
		assert_int_equal(ft_report_build(rep, files[fi], NULL), 0);
		assert_int_equal(ft_report_by_process(rep), 0);
		text = captured(rep, &st);
		json = captured(rep, NULL);
		f = rep->all;
		c = &rep->cost;
		/* totals, then the window's latencies ("latency": {...} after the processes) */
		stretch_agrees(f, strstr(json, "\"totals\""), rep);
		if (rep->s->tracing) {
			snprintf(line, sizeof(line), "extfrag events     total %lld   fragmenting "
						     "(below order %d) %lld",
				 (long long)f->d[FT_CF_EXTFRAG], rep->s->events.pageblock_order,
				 (long long)f->d[FT_CF_FRAGMENTING]);
			text_has(text, line);
			at = strstr(json, "\"compaction\": {");
			assert_non_null(at);
			json_is(at, "direct_stalls", (double)f->d[FT_CF_DIRECT_COMPACT]);
			json_is(at, "direct_zone_runs", (double)f->direct_zone_runs);
			json_is(at, "background_compactions", (double)f->d[FT_CF_BG_COMPACT]);
			snprintf(line, sizeof(line), "  background       compactions %lld",
				 (long long)f->d[FT_CF_BG_COMPACT]);
			text_has(text, line);
			for (k = 0; k < rep->nr_zone_fb; k++) {
				const struct ft_rep_zone_fb *z = &rep->zone_fb[k];

				if (!z->total)
					continue;
				if (!z->outside) {
					snprintf(line, sizeof(line),
						 "  N%d %-10s total %llu  fragmenting %llu",
						 z->node, z->zone,
						 (unsigned long long)z->total,
						 (unsigned long long)z->fragmenting);
					text_has(text, line);
				}
				snprintf(line, sizeof(line),
					 "\"total\": %llu,\n      \"fragmenting\": %llu",
					 (unsigned long long)z->total,
					 (unsigned long long)z->fragmenting);
				assert_non_null(strstr(strstr(json, "\"extfrag_by_zone\""), line));
			}
		}
		/* compaction's cost: direct per stall, kcompactd per wake */
		if (c->have) {
			at = strstr(json, "\"direct_compaction_cost\"");
			assert_non_null(at);
			json_is(at, "migrate_scanned_per_stall", c->direct_migrate);
			json_is(at, "free_scanned_per_stall", c->direct_free);
			json_is(at, "scanned_per_success", c->direct_per_success);
			json_is(at, "kcompactd_wakes", (double)c->wakes);
			json_is(at, "kcompactd_migrate_scanned_per_wake", c->wake_migrate);
			json_is(at, "kcompactd_free_scanned_per_wake", c->wake_free);
#define R(b, v) (isnan(v) ? snprintf(b, sizeof(b), "-") : snprintf(b, sizeof(b), "%.0f", v))
			R(x[0], c->direct_migrate), R(x[1], c->direct_free),
			R(x[2], c->direct_per_success);
			snprintf(line, sizeof(line), "  per direct stall   migrate %s  free %s   "
						     "scanned per success %s",
				 x[0], x[1], x[2]);
			text_has(text, line);
			R(x[0], c->wake_migrate), R(x[1], c->wake_free);
#undef R
			snprintf(line, sizeof(line),
				 "  per kcompactd wake migrate %s  free %s   (%lld wakes)", x[0],
				 x[1],
				 (long long)c->wakes);
			text_has(text, line);
		} else {
			assert_int_equal(json_at(json, "direct_compaction_cost", &v, NULL), 0);
		}
		/* the memory stall */
		if (f->mem_known) {
			json_is(json, "psi_some_us", (double)f->mem.some_us);
			snprintf(line, sizeof(line), "memory stall       some %.3f s",
				 (double)f->mem.some_us / 1e6);
			text_has(text, line);
		} else {
			assert_int_equal(json_at(json, "memory_stall", &v, NULL), 0);
		}
		/* futile compaction: none of these recordings traced the isolate events */
		if (!rep->futile.traced)
			assert_int_equal(json_at(json, "futile_compaction", &v, NULL), 0);
		/* stacks */
		if (rep->stacks.have) {
			at = strstr(json, "\"stacks\": {");
			assert_non_null(at);
			json_is(at, "without_stack", (double)rep->stacks.unstacked);
			json_is(at, "past_table", (double)rep->stacks.other);
			snprintf(line, sizeof(line), "%10llu         fragmenting fallbacks in all",
				 (unsigned long long)rep->stacks.all);
			text_has(text, line);
			for (k = 0; k < (int)rep->stacks.nr && k < FT_REP_STACKS_SHOWN; k++) {
				snprintf(line, sizeof(line), "%10llu %5.1f%% ",
					 (unsigned long long)rep->stacks.g[k].fragmenting,
					 rep->stacks.share[k]);
				text_has(text, line);
			}
		} else {
			assert_int_equal(json_at(json, "stacks", &v, NULL), 0);
		}
		/* THP by size: every counter of every size, in order, known or null */
		if (rep->thp.have) {
			at = strstr(json, "\"thp_by_size\": [");
			assert_non_null(at);
			for (k = 0; k < rep->thp.d.nr; k++) {
				const struct ft_thp_size *z = &rep->thp.d.s[k];
				const char *here;
				int m;

				assert_int_equal(json_at(at, "size_kb", &v, &here), 1);
				assert_true(v == z->kb);
				for (m = 0; m < z->nr_stats; m++)
					json_is(here, z->stat_name[m],
						rep->thp.known[k][m] ? (double)z->stat[m] : NAN);
				at = here;
			}
		} else {
			assert_int_equal(json_at(json, "thp_by_size", &v, NULL), 0);
		}
		/* the boost sampler by zone over the window */
		if (rep->boost_nr) {
			const struct ft_zoneinfo *zi = &rep->s->sample.zoneinfo;

			at = strstr(json, "\"boost_by_zone\": [");
			assert_non_null(at);
			for (k = 0; k < rep->boost_nr && (size_t)k < zi->nr; k++) {
				const struct ft_boost_tick *bz = &rep->boost_zone[k];
				const char *here;

				if (!zi->zones[k].present)
					continue;
				assert_int_equal(json_at(at, "peak", &v, &here), 1);
				assert_true(v == (double)bz->peak);
				json_is(here, "boosted_fraction", ft_boost_share(bz));
				json_is(here, "episodes", (double)bz->episodes);
				json_is(here, "samples", (double)bz->samples);
				at = here;
				snprintf(line, sizeof(line),
					 "  N%d %-10s %30llu %7.2f%% %9llu %8llu",
					 zi->zones[k].node,
					 zi->zones[k].name, (unsigned long long)bz->peak,
					 100.0 * ft_boost_share(bz),
					 (unsigned long long)bz->episodes,
					 (unsigned long long)bz->samples);
				text_has(text, line);
			}
		}
		/* will it fit over the window: each size's fewest blocks now */
		if (rep->fits.samples) {
			at = strstr(json, "\"contiguity\": {");
			assert_non_null(at);
			json_is(at, "samples", (double)rep->fits.samples);
			for (k = 0; k < (int)rep->fits.sizes.nr; k++) {
				const char *here;

				assert_int_equal(json_at(at, "now_min", &v, &here), 1);
				assert_true(v == (double)rep->fits.now_min[k]);
				json_is(here, "after_compaction_min",
					rep->fits.after_known[k] ?
						(double)rep->fits.after_min[k] : NAN);
				at = here;
				snprintf(line, sizeof(line), " %11llu ",
					 (unsigned long long)rep->fits.now_min[k]);
				text_has(text, line);
			}
		}
		/* each interval: its counters and shares, its ends, in order */
		at = strstr(json, "\"intervals\": [");
		assert_non_null(at);
		for (k = 0; k < rep->nr_iv; k++) {
			const struct ft_rep_stretch *g = &rep->iv_fig[k];
			const char *here;

			assert_int_equal(json_at(at, "from_s", &v, &here), 1);
			assert_true(v == g->from_s);
			json_is(here, "to_s", g->to_s);
			stretch_agrees(g, here, rep);
			at = here;
			snprintf(line, sizeof(line), "%.1f", g->to_s);
			assert_non_null(strstr(text, line));
		}
		/* fragtop's own cost */
		if (rep->self.ticks) {
			at = strstr(json, "\"cost\": {");
			assert_non_null(at);
			json_is(at, "ticks", (double)rep->self.ticks);
			json_is(at, "files_opened", rep->self.all.opens);
			json_is(at, "bytes_read", rep->self.all.bytes);
		}
		free(text);
		free(json);
		ft_report_release(rep);
		free(rep);
	}
}

/*
 * The sections no kept recording has (the kernel log's failures,
 * futile compaction, fragtop's own footprint), planted in a built
 * model, and the findings of a real window: each field in the JSON
 * and the text, as the model has it.
 */
static void test_planted_sections(void **state)
{
	static const struct ft_report_style st = { 0 };
	struct ft_report *rep = built();
	struct ft_rep_kmsg *k = &rep->kmsg;
	struct ft_rep_futile *fu = &rep->futile;
	struct ft_rep_selfcost *c = &rep->self;
	const struct ft_findings *fs;
	char *text, *json, line[256], key[64];
	const char *at;
	int w, i, m;

	(void)state;
	memset(k, 0, sizeof(*k));
	k->known = true;
	k->failures = 7;
	k->by_order[2] = 3;
	k->by_order[9] = 4;
	k->lost = 11;
	k->max_order = 9;
	k->have_newest = true;
	k->newest.order = 9;
	snprintf(k->newest.comm, sizeof(k->newest.comm), "qemu\x1b[2J");
	snprintf(k->newest.gfp, sizeof(k->newest.gfp), "GFP_HIGHUSER_MOVABLE|__GFP_COMP");
	memset(fu, 0, sizeof(*fu));
	fu->traced = true;
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		fu->d.events[w][FT_ISO_MIGRATE] = 10 + (uint64_t)w;
		fu->d.scanned[w][FT_ISO_MIGRATE] = 1000 + (uint64_t)w;
		fu->d.scanned_futile[w][FT_ISO_MIGRATE] = 250 + (uint64_t)w;
		fu->d.scanned_unknown[w][FT_ISO_MIGRATE] = 20 + (uint64_t)w;
		fu->d.events[w][FT_ISO_FREE] = 30 + (uint64_t)w;
		fu->d.taken[w][FT_ISO_FREE] = 500 + (uint64_t)w;
		fu->d.taken_futile[w][FT_ISO_FREE] = 50 + (uint64_t)w;
		fu->d.taken_unknown[w][FT_ISO_FREE] = 5 + (uint64_t)w;
		fu->share[w][FT_ISO_MIGRATE] = 0.25 + w / 100.0;
		fu->share[w][FT_ISO_FREE] = w == FT_ISO_OTHER ? NAN : 0.125;
	}
	c->own_known = true;
	c->pid = 4242;
	for (m = 0; m < FT_PC_NR; m++)
		c->own[m] = 100 + (uint64_t)m;
	c->own_frag_share = 0.015625;
	assert_int_equal(ft_report_findings(rep, NULL, 0), 0);
	fs = rep->findings;
	assert_non_null(fs);
	text = captured(rep, &st);
	json = captured(rep, NULL);

	/* the kernel log's failures */
	at = strstr(json, "\"page_allocation_failures\": {");
	assert_non_null(at);
	json_is(at, "total", (double)k->failures);
	json_is(at, "2", (double)k->by_order[2]);
	json_is(at, "9", (double)k->by_order[9]);
	json_is(at, "log_records_lost", (double)k->lost);
	json_is(at, "order", (double)k->newest.order);
	assert_non_null(strstr(at, "\"comm\": \"qemu\\u001b[2J\""));
	text_has(text, "page alloc failures 7 in the kernel log   order 2: 3   order 9: 4   (11 "
		       "log records overwritten unread)");
	text_has(text, "newest: qemu\\x1b[2J, order 9, GFP_HIGHUSER_MOVABLE|__GFP_COMP");
	assert_null(strchr(text, 0x1b));

	/* futile compaction, by who ran the scanners */
	at = strstr(json, "\"futile_compaction\": {");
	assert_non_null(at);
	for (w = 0; w < FT_ISO_WHO_NR; w++) {
		char sh[2][16];

		snprintf(key, sizeof(key), "\"%s\": {", ft_iso_who_names[w]);
		at = strstr(at, key);
		assert_non_null(at);
		json_is(at, "migrate_events", (double)fu->d.events[w][FT_ISO_MIGRATE]);
		json_is(at, "migrate_scanned", (double)fu->d.scanned[w][FT_ISO_MIGRATE]);
		json_is(at, "migrate_scanned_futile",
			(double)fu->d.scanned_futile[w][FT_ISO_MIGRATE]);
		json_is(at, "migrate_scanned_unread",
			(double)fu->d.scanned_unknown[w][FT_ISO_MIGRATE]);
		json_is(at, "migrate_futile_share", fu->share[w][FT_ISO_MIGRATE]);
		json_is(at, "free_events", (double)fu->d.events[w][FT_ISO_FREE]);
		json_is(at, "free_taken", (double)fu->d.taken[w][FT_ISO_FREE]);
		json_is(at, "free_taken_futile", (double)fu->d.taken_futile[w][FT_ISO_FREE]);
		json_is(at, "free_taken_unread", (double)fu->d.taken_unknown[w][FT_ISO_FREE]);
		json_is(at, "free_futile_share", fu->share[w][FT_ISO_FREE]);
		for (m = 0; m < 2; m++) {
			double sv = fu->share[w][m ? FT_ISO_FREE : FT_ISO_MIGRATE];

			if (isnan(sv))
				snprintf(sh[m], sizeof(sh[m]), "-");
			else
				snprintf(sh[m], sizeof(sh[m]), "%.1f%%", 100 * sv);
		}
		snprintf(line, sizeof(line), "  %-9s migrate scanned %llu (%s futile, %llu unread) "
					     " free taken %llu (%s, %llu unread)",
			 ft_iso_who_names[w], (unsigned long long)fu->d.scanned[w][FT_ISO_MIGRATE],
			 sh[0],
			 (unsigned long long)fu->d.scanned_unknown[w][FT_ISO_MIGRATE],
			 (unsigned long long)fu->d.taken[w][FT_ISO_FREE], sh[1],
			 (unsigned long long)fu->d.taken_unknown[w][FT_ISO_FREE]);
		text_has(text, line);
	}

	/* fragtop's own footprint */
	at = strstr(json, "\"self\": {");
	assert_non_null(at);
	json_is(at, "pid", c->pid);
	for (m = 0; m < FT_PC_NR; m++)
		json_is(at, ft_proc_fields[m].key, (double)c->own[m]);
	json_is(at, "fragmenting_share", c->own_frag_share);
	snprintf(line, sizeof(line), "fragtop itself     pid %d: %llu fragmenting fallbacks "
				     "(%.2f%% of all), %llu fallbacks",
		 c->pid, (unsigned long long)c->own[FT_PC_FRAGMENTING], c->own_frag_share * 100,
		 (unsigned long long)c->own[FT_PC_EXTFRAG]);
	text_has(text, line);

	/* the findings: each rule that fired, its severity and every figure of its evidence */
	at = strstr(json, "\"findings\": {");
	assert_non_null(at);
	assert_true(fs->nr > 0);
	for (i = 0; i < fs->nr; i++) {
		const struct ft_finding *fd = &fs->f[i];

		snprintf(key, sizeof(key), "\"rule\": \"%s\"", fd->rule->name);
		at = strstr(at, key);
		assert_non_null(at);
		snprintf(line, sizeof(line), "\"severity\": \"%s\"", ft_find_sev_names[fd->sev]);
		assert_non_null(strstr(at, line));
		for (m = 0; m < fd->nr_ev; m++)
			json_is(at, ft_find_figs[fd->ev[m]].key, ft_find_value(fs, fd->ev[m]));
		snprintf(line, sizeof(line), "%s: %s", fd->rule->name, fd->rule->title);
		text_has(text, line);
		text_has(text, fd->detail);
		if (fd->knob[0]) {
			snprintf(line, sizeof(line), "\"knob\": \"%s\"", fd->knob);
			assert_non_null(strstr(at, line));
			snprintf(line, sizeof(line), "%s=%s", fd->knob, fd->value);
			text_has(text, line);
		}
	}
	for (i = 0; i < FT_FIND_RULES; i++) {
		snprintf(key, sizeof(key), "\"%s\"", ft_find_rules[i].name);
		at = strstr(json, fs->checked[i] ? "\"checked\": [" : "\"not_checked\": [");
		assert_non_null(at);
		assert_non_null(strstr(at, key));
		assert_non_null(strstr(text, ft_find_rules[i].name));
	}
	free(text);
	free(json);
	ft_report_release(rep);
	free(rep);
}

/* Lines of @text from the one starting @head to the next starting @end, both out. */
static int lines_between(const char *text, const char *head, const char *end)
{
	const char *p = strstr(text, head), *q;
	int n = 0;

	assert_non_null(p);
	p = strchr(p, '\n');
	assert_non_null(p);
	q = strstr(p, end);
	assert_non_null(q);
	for (; p < q; p++)
		n += *p == '\n';
	return n - 1;
}

/*
 * A name from a recording is one line, whatever it holds: a process
 * named with a newline, a tab and ESC, and a cgroup path with a
 * newline, leave the process and cgroup tables with one line a row and
 * no raw control character (report --by cgroup printed a cgroup name
 * over two lines).
 */
static void test_names_one_line(void **state)
{
	static const struct ft_report_style st = { 0 }, by_cg = { .by_cgroup = true };
	struct ft_report *rep = built();
	char *text, *p;
	int rows, i;

	(void)state;
	rows = lines_between(text = captured(rep, &st), "  processes ", "THP faults");
	free(text);
	assert_true(rep->procs->nr >= 3);
	for (i = 0; i < rep->procs->nr; i++) {
		static const char *const hostile[3] = { "evil\nname", "tab\there", "esc\033[2J" };

		snprintf(rep->procs->p[i].comm, sizeof(rep->procs->p[i].comm), "%s",
			 hostile[i % 3]);
		snprintf(rep->procs->p[i].cgroup, sizeof(rep->procs->p[i].cgroup),
			 "/pod\nfake line %d", i % 2);
	}
	text = captured(rep, &st);
	assert_non_null(strstr(text, "evil\\x0aname"));	/* shown, escaped */
	assert_non_null(strstr(text, "tab\\x09here"));
	assert_int_equal(lines_between(text, "  processes ", "THP faults"), rows);
	for (p = text; *p; p++)
		assert_true(*p == '\n' || (unsigned char)*p >= 0x20);
	free(text);
	assert_int_equal(ft_report_by_cgroup(rep), 0);
	text = captured(rep, &by_cg);
	assert_non_null(strstr(text, "/pod\\x0afake line 0"));	/* shown, escaped */
	assert_null(strstr(text, "\nfake line"));	/* the path's newline never starts a line */
	for (p = text; *p; p++)
		assert_true(*p == '\n' || (unsigned char)*p >= 0x20);
	free(text);
	ft_report_release(rep);
	free(rep);
}

/* The length of line @i of @text (0 past its end). */
static size_t line_len(const char *text, int i)
{
	const char *e;

	while (i-- > 0 && text)
		text = (e = strchr(text, '\n')) ? e + 1 : NULL;
	if (!text || !*text)
		return 0;
	e = strchr(text, '\n');
	return e ? (size_t)(e - text) : strlen(text);
}

static int nr_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Every float the report's text prints set to @v (and the ms columns' counters to their top). */
static void poison(struct ft_report *rep, double v)
{
	struct ft_rep_stretch *all[1 + FT_REP_MAX_INTERVALS];
	int i, k, n = 0, w, sc;

	all[n++] = rep->all;
	for (k = 0; k < rep->nr_iv; k++)
		all[n++] = &rep->iv_fig[k];
	for (k = 0; k < n; k++) {
		for (i = 0; i < FT_CF_NR; i++)
			all[k]->rate[i] = v;
		all[k]->thp_success = all[k]->compact_success = v;
		for (i = 0; i < FT_LAT_NR; i++)
			all[k]->pct[i].mean_us = v;
		all[k]->mem.share = all[k]->mem.compaction_us = v;
	}
	rep->cost.direct_migrate = rep->cost.direct_free = rep->cost.direct_per_success = v;
	rep->cost.wake_migrate = rep->cost.wake_free = v;
	for (w = 0; w < FT_ISO_WHO_NR; w++)
		for (sc = 0; sc < FT_ISO_SCANNER_NR; sc++)
			rep->futile.share[w][sc] = v;
	rep->in_blocks.sum = rep->in_blocks.min = rep->in_blocks.last = v;
	for (i = 0; i < FT_REP_STACKS_SHOWN; i++)
		rep->stacks.share[i] = v;
	rep->stacks.share_rest = rep->stacks.share_other = rep->stacks.share_unstacked = v;
	rep->self.own_frag_share = v;
	for (i = 0; i < FT_THP_SIZES; i++)
		rep->thp.anon[i].success = v;
	for (i = 0; i < rep->procs->nr; i++)
		rep->procs->p[i].c[FT_PC_COMPACTION_US] = rep->procs->p[i].c[FT_PC_RECLAIM_US] =
			UINT64_MAX;
}

/*
 * 1e308, -1e308, NaN and both infinities in every float the report's text
 * prints: each line keeps its place (a table's row its width, a line of
 * prose within 80 columns), NaN reads "-", and no figure is spelled out
 * to hundreds of digits.
 */
static void test_hostile_floats(void **state)
{
	static const struct ft_report_style st = { 0 }, by_cg = { .by_cgroup = true };
	static const double hostile[] = { 1e308, -1e308, NAN, INFINITY, -INFINITY };
	const struct ft_report_style *style[2] = { &st, &by_cg };
	size_t h;
	int s;

	(void)state;
	for (s = 0; s < 2; s++)
		for (h = 0; h < sizeof(hostile) / sizeof(hostile[0]); h++) {
			struct ft_report *rep = built();
			char *base, *text, *json;
			int i, n;

			if (s)
				assert_int_equal(ft_report_by_cgroup(rep), 0);
			base = captured(rep, style[s]);
			poison(rep, hostile[h]);
			text = captured(rep, style[s]);
			n = nr_lines(base);
			assert_int_equal(nr_lines(text), n);
			for (i = 0; i < n; i++) {
				size_t was = line_len(base, i), now = line_len(text, i);

				if (now > (was > 80 ? was : 80))
					fail_msg("%g: line %d grew from %zu to %zu columns",
						 hostile[h], i + 1, was, now);
			}
			assert_null(strstr(text, "nan"));
			/* no figure of 17+ digits before its point */
			for (const char *p = text; *p; p++) {
				size_t d = strspn(p, "0123456789");

				assert_false(d >= 17 && p[d] == '.');
			}
			json = captured(rep, NULL);	/* JSON has no NaN or Inf: null */
			assert_null(strstr(json, "nan"));
			assert_null(strstr(json, "inf\""));
			assert_null(strstr(json, ": inf"));
			free(json);
			free(text);
			free(base);
			ft_report_release(rep);
			free(rep);
		}
}

/*
 * compare's change column: signed, "+0.0%" rather than "-0.0%", "-" for none, "*" when significant.
 */
static void test_compare_change(void **state)
{
	char b[24];

	(void)state;
	assert_string_equal(ft_render_compare_change(b, sizeof(b), 12.34, false), "+12.3% ");
	assert_string_equal(ft_render_compare_change(b, sizeof(b), -52.6, true), "-52.6%*");
	assert_string_equal(ft_render_compare_change(b, sizeof(b), -0.01, false), "+0.0% ");
	assert_string_equal(ft_render_compare_change(b, sizeof(b), 0.049, true), "+0.0%*");
	assert_string_equal(ft_render_compare_change(b, sizeof(b), -0.05, false), "-0.1% ");
	assert_string_equal(ft_render_compare_change(b, sizeof(b), NAN, false), "-");
	/* a percentage's change in points: 63.9 to 30.3 is -33.6 pt, not -52.6% */
	assert_string_equal(ft_render_compare_points(b, sizeof(b), 30.3 - 63.9, true), "-33.6 pt*");
	assert_string_equal(ft_render_compare_points(b, sizeof(b), -0.01, false), "+0.0 pt ");
	assert_string_equal(ft_render_compare_points(b, sizeof(b), NAN, false), "-");
	assert_true(ft_cmp_row_is_pct(FT_CMP_THP_OK));
	assert_true(ft_cmp_row_is_pct(FT_CMP_BOOSTED));
	assert_false(ft_cmp_row_is_pct(FT_CMP_FRAG));
	assert_false(ft_cmp_row_is_pct(FT_CMP_LAT0));
}

/* The style names the rows and says the skipped inputs; the figures stay. */
static void test_style(void **state)
{
	static const struct ft_report_style plain = { 0 }, threads = { .by_thread = true };
	struct ft_report *rep = built();
	char *a = captured(rep, &plain), *b = captured(rep, &threads);

	(void)state;
	assert_non_null(strstr(a, "  processes "));
	assert_null(strstr(a, "  threads "));
	assert_non_null(strstr(b, "  threads "));
	assert_int_equal(text_num(a, "fragmenting (below order 9) "),
			 text_num(b, "fragmenting (below order 9) "));
	free(a);
	free(b);
	ft_report_release(rep);
	free(rep);
}

/* The accessors the renderers share. */
static void test_accessors(void **state)
{
	struct ft_report *rep = built();
	int ia = 0, io = 0, n = 0;
	uint64_t prev = 0;
	const struct ft_session_audit *c;

	(void)state;
	assert_true(ft_report_duration(rep) > 80 && ft_report_duration(rep) < 83);
	assert_true(ft_report_secs(rep, rep->start_t_ns) == 0);
	assert_true(ft_report_pct(1, 4) == 25.0);
	assert_true(ft_report_pct(1, 0) != ft_report_pct(1, 0));	/* NAN */
	while ((c = ft_report_next_change(rep, &ia, &io))) {
		assert_true(c->t_ns >= prev);	/* in time order */
		prev = c->t_ns;
		n++;
	}
	assert_int_equal(n, (int)rep->s->nr_audits + rep->nr_outside);
	ft_report_release(rep);
	free(rep);
}

static struct ft_cmp_group groups[2];
static struct ft_cmp_stacks cmp_stacks, cmp_cgroups;
static struct ft_cmp_findings cmp_findings;

static void print_compare(const void *how)
{
	const struct ft_cmp_extra x = { &cmp_stacks, &cmp_cgroups, &cmp_findings };

	switch (*(const char *)how) {
	case 't': ft_render_compare_text(groups, 2, &x); break;
	case 'j': ft_render_compare_json(groups, 2, &x); break;
	default: ft_render_compare_csv(groups, 2, &x); break;
	}
}

/* compare's text, JSON and CSV show each group's measured mean. */
static void test_compare_agree(void **state)
{
	const struct ft_rep_window w[2] = { { NULL, "40" }, { "40", NULL } };
	char *text, *json, *csv, name[64], key[64], pat[200];
	const char *p;
	int k, r, row = -1;

	(void)state;
	for (k = 0; k < 2; k++) {
		snprintf(groups[k].name, sizeof(groups[k].name), "%s", k ? "b" : "a");
		groups[k].nr = 1;
		groups[k].run[0].file = strdup(file);
		groups[k].run[0].w = w[k];
	}
	assert_int_equal(ft_cmp_measure(groups, 2), 0);
	ft_cmp_stacks(groups, 2, &cmp_stacks);
	ft_cmp_cgroups(groups, 2, &cmp_cgroups);
	ft_cmp_findings(groups, 2, &cmp_findings);
	/*
	 * by cgroup: every fragmenting fallback of the sample is in a named cgroup, so they sum to
	 * the total
	 */
	assert_true(cmp_cgroups.nr >= 1);
	for (k = 0; k < 2; k++) {
		double sum = 0;

		for (r = 0; r < cmp_cgroups.nr; r++)
			sum += cmp_cgroups.st[k][r].mean;
		print_message("group %s: fragmenting/s by cgroup sum %g, total %g\n",
			      groups[k].name, sum,
			      groups[k].st[FT_CMP_FRAG_S].mean);
		assert_true(fabs(sum - groups[k].st[FT_CMP_FRAG_S].mean) <= 1e-9 *
			    groups[k].st[FT_CMP_FRAG_S].mean);
	}
	for (r = 0; r < FT_CMP_NR; r++) {
		ft_cmp_row_key(r, key, sizeof(key));
		if (!strcmp(key, "extfrag_fragmenting"))
			row = r;
	}
	assert_true(row >= 0);
	ft_cmp_row_key(row, key, sizeof(key));
	ft_cmp_row_name(row, name, sizeof(name));
	text = capture(print_compare, "t");
	json = capture(print_compare, "j");
	csv = capture(print_compare, "c");
	assert_non_null(strstr(text, "\nfragmenting fallbacks/s by cgroup\n"));
	assert_non_null(strstr(json,
			       "\"cgroup\": \"/process_api/730b0e66741056fbd04b0a311816c6ea\""));
	assert_non_null(strstr(csv, "\ncgroup:/process_api/730b0e66741056fbd04b0a311816c6ea,a,1,"));
	/* text: the row's name, then each group's mean */
	snprintf(pat, sizeof(pat), "\n%s ", name);
	p = strstr(text, pat);
	assert_non_null(p);
	p += strlen(pat);
	for (k = 0; k < 2; k++) {
		char *end;
		double v = strtod(p, &end);

		print_message("%s %s: mean %g, text %g\n", key, groups[k].name,
			      groups[k].st[row].mean, v);
		assert_true(end != p);
		assert_true(v == groups[k].st[row].mean);
		p = end;
	}
	/* CSV: "key,group,n,mean" */
	for (k = 0; k < 2; k++) {
		snprintf(pat, sizeof(pat), "\n%s,%.64s,1,", key, groups[k].name);
		p = strstr(csv, pat);
		assert_non_null(p);
		assert_true(strtod(p + strlen(pat), NULL) == groups[k].st[row].mean);
	}
	/* JSON: the row's groups in order, each with its mean */
	snprintf(pat, sizeof(pat), "\"metric\": \"%s\"", key);
	p = strstr(json, pat);
	assert_non_null(p);
	for (k = 0; k < 2; k++) {
		p = strstr(p, "\"mean\": ");
		assert_non_null(p);
		p += strlen("\"mean\": ");
		assert_true(strtod(p, NULL) == groups[k].st[row].mean);
	}
	free(text);
	free(json);
	free(csv);
	ft_cmp_release(groups, 2);
	for (k = 0; k < 2; k++)
		free(groups[k].run[0].file);
}

static struct ft_snapshot_in snap;

static void print_snapshot(const void *json)
{
	if (json)
		ft_render_snapshot_json(stdout, &snap);
	else
		ft_render_snapshot_table(stdout, &snap);
}

/* snapshot's JSON and table show the same zones with the sample's free pages. */
static void test_snapshot_agree(void **state)
{
	struct ft_report *rep = built();
	const struct ft_sample *smp = &rep->s->sample;
	char *text, *json, pat[96];
	const char *t, *j;
	size_t i, zones = 0;

	(void)state;
	snap = (struct ft_snapshot_in){ .session = rep->s, .root = "/", .now = 1 };
	text = capture(print_snapshot, NULL);
	json = capture(print_snapshot, "");
	t = text;
	j = json;
	for (i = 0; i < smp->nr_zones; i++) {
		const struct ft_zi_zone *zi = smp->zones[i].zi;

		if (!ft_zi_populated(zi))
			continue;
		zones++;
		snprintf(pat, sizeof(pat), "Node %d, zone %s\n  free ", zi->node, zi->name);
		t = strstr(t, pat);
		assert_non_null(t);
		t += strlen(pat);
		snprintf(pat, sizeof(pat), "\"zone\": \"%s\",\n      \"free_pages\": ", zi->name);
		j = strstr(j, pat);
		assert_non_null(j);
		j += strlen(pat);
		print_message("N%d %s: free %lld text, %lld json\n", zi->node, zi->name,
			      strtoll(t, NULL, 10), strtoll(j, NULL, 10));
		assert_int_equal(strtoll(t, NULL, 10), strtoll(j, NULL, 10));
		assert_int_equal(strtoll(j, NULL, 10), (long long)zi->free);
	}
	assert_true(zones >= 2);
	assert_int_equal(json_num(json, "time"), 1);
	free(text);
	free(json);
	ft_report_release(rep);
	free(rep);
}

static void print_export(const void *csv)
{
	static struct ft_replay rp;
	static struct ft_export x;

	assert_int_equal(ft_replay_open(&rp, file, NULL), 0);
	rp.forward_only = true;
	assert_true(ft_replay_step(&rp) > 0);
	ft_render_export_begin(&x, csv != NULL, file, &rp.session, NULL, 0);
	do
		ft_render_export_tick(&x, &rp.session,
				      (double)(rp.session.tick_t_ns - rp.session.first_t_ns) / 1e9,
				      true);
	while (ft_replay_step(&rp) > 0);
	ft_render_export_end(&x);
	ft_replay_close(&rp);
}

/* export's rows, CSV and JSON alike, sum to the report's totals. */
static void test_export_sums(void **state)
{
	struct ft_report *rep = built();
	char *csv = capture(print_export, ""), *json = capture(print_export, NULL);
	long long want = rep->last.c[FT_CF_FRAGMENTING] - rep->first.c[FT_CF_FRAGMENTING];
	long long sum_csv = 0, sum_json = 0;
	int col = -1, i, rows = 0;
	char *line, *save, *cell, *cs;
	const char *p;

	(void)state;
	for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0, cell = strtok_r(line, ",", &cs); cell; cell = strtok_r(NULL, ",", &cs),
		     i++) {
			if (col < 0 && !strcmp(cell, "extfrag_fragmenting"))
				col = i;
			else if (rows && i == col)
				sum_csv += strtoll(cell, NULL, 10);
		}
		assert_true(col >= 0);
		rows++;
	}
	for (p = json; (p = strstr(p, "\"extfrag_fragmenting\":")); p++)
		sum_json += strtoll(p + strlen("\"extfrag_fragmenting\":"), NULL, 10);
	print_message("fragmenting: report %lld, csv %lld over %d ticks, json %lld\n", want,
		      sum_csv,
		      rows - 1, sum_json);
	assert_true(want > 0);
	assert_int_equal(sum_csv, want);
	assert_int_equal(sum_json, want);
	assert_int_equal(rows - 1, (int)rep->ticks);	/* a row per tick */
	free(csv);
	free(json);
	ft_report_release(rep);
	free(rep);
}

static void print_fields(const void *json)
{
	if (json)
		ft_render_fields_json();
	else
		ft_render_fields_text();
}

/* fields: every registry row in both, the exporter's unit in bytes where the field counts pages. */
static void test_fields(void **state)
{
	char *text = capture(print_fields, NULL), *json = capture(print_fields, "");
	char pat[128];
	size_t i;

	(void)state;
	for (i = 0; i < FT_ZF_NR; i++) {
		snprintf(pat, sizeof(pat), "  %s ", ft_zone_fields[i].key);
		assert_non_null(strstr(text, pat));
		snprintf(pat, sizeof(pat), "\"key\": \"%s\"", ft_zone_fields[i].key);
		assert_non_null(strstr(json, pat));
	}
	for (i = 0; i < FT_CF_NR; i++) {
		snprintf(pat, sizeof(pat), "\"key\": \"%s\"", ft_counter_fields[i].key);
		assert_non_null(strstr(json, pat));
	}
	assert_non_null(strstr(json, "\"unit\": \"pages\""));
	assert_non_null(strstr(json, "\"family_unit\": \"bytes\""));
	free(text);
	free(json);
}

static struct ft_knob_reading knob_rows[3];

static void print_knobs(const void *json)
{
	if (json)
		ft_render_knobs_json(knob_rows, 3);
	else
		ft_render_knobs_table(knob_rows, 3);
}

/* get: a value, an absent knob and an absent action, as read. */
static void test_knobs(void **state)
{
	char *text, *json;

	(void)state;
	knob_rows[0] = (struct ft_knob_reading){ .k = ft_knob_find("watermark_boost_factor"),
						 .available = true,
						 .v = { .num = 12345 } };
	knob_rows[1] = (struct ft_knob_reading){ .k = ft_knob_find("defrag_mode"),
						 .v = { .err = -ENOENT } };
	knob_rows[2] = (struct ft_knob_reading){ .k = ft_knob_find("compact_memory"),
						 .v = { .err = -EOPNOTSUPP } };
	assert_non_null(knob_rows[0].k);
	assert_non_null(knob_rows[1].k);
	assert_non_null(knob_rows[2].k);
	text = capture(print_knobs, NULL);
	json = capture(print_knobs, "");
	assert_non_null(strstr(text, "\nwatermark_boost_factor       12345 "));
	assert_non_null(strstr(text, "\ndefrag_mode                  absent "));
	assert_non_null(strstr(text, "\ncompact_memory               absent "));
	assert_int_equal(json_num(json, "value"), 12345);
	assert_non_null(strstr(json, "\"name\": \"defrag_mode\",\n      \"type\": \"int\",\n      "
				     "\"path\": "
				    "\"proc/sys/vm/defrag_mode\",\n      \"available\": false,\n   "
				    "   \"value\": null,\n      \"error\": "));
	assert_non_null(strstr(json, "\"type\": \"trigger\",\n      \"path\": "
				     "\"proc/sys/vm/compact_memory\",\n"
				    "      \"available\": false"));
	free(text);
	free(json);
}

static struct ft_plot_run plot_run;

static void print_plot(const void *unused)
{
	(void)unused;
	assert_int_equal(ft_render_plot_svg(stdout, &plot_run, 1), 0);
}

/* plot: a legend per zone loaded and a labelled line per control change, nothing else marked. */
static void test_plot(void **state)
{
	static const char *rec = "tests/recordings/thpfioscale-boost-0-to-15000.ftr";
	char *svg, pat[256];
	const char *p;
	size_t marks = 0;
	int k;

	(void)state;
	memset(&plot_run, 0, sizeof(plot_run));
	assert_int_equal(ft_plot_load(&plot_run, rec, NULL), 0);
	assert_true(plot_run.nz >= 2);
	assert_int_equal(plot_run.nr_marks, 2);
	svg = capture(print_plot, NULL);
	assert_true(!strncmp(svg, "<?xml", 5) || !strncmp(svg, "<svg", 4));
	assert_non_null(strstr(svg, "</svg>\n"));
	for (k = 0; k < plot_run.nz; k++) {
		snprintf(pat, sizeof(pat), "class=\"t\">%s<", plot_run.zone[k]);
		assert_non_null(strstr(svg, pat));
	}
	for (p = svg; (p = strstr(p, "class=\"m\">")); p++)
		marks++;
	assert_int_equal(marks, plot_run.nr_marks);
	assert_non_null(strstr(svg,
			       "watermark_boost_factor 15000 -&gt; 0 (outside fragtop)</text>"));
	free(svg);
	ft_plot_release(&plot_run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_and_json_agree),
		cmocka_unit_test(test_model_in_both),
		cmocka_unit_test(test_planted_sections),
		cmocka_unit_test(test_names_one_line),
		cmocka_unit_test(test_hostile_floats),
		cmocka_unit_test(test_compare_change),
		cmocka_unit_test(test_style),
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_compare_agree),
		cmocka_unit_test(test_snapshot_agree),
		cmocka_unit_test(test_export_sums),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_plot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
