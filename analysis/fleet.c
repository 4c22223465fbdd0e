// SPDX-License-Identifier: GPL-2.0-or-later
#include "analysis/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cell.h"
#include "base/grow.h"
#include "model/fit.h"
#include "net/promurl.h"

const char *const ft_fleet_record[FT_FLEET_FIG_NR] = {
	[FT_FLEET_FIG_FALLBACKS] = "fragtop:fleet_fragmenting_fallbacks:rate5m",
	[FT_FLEET_FIG_AMPLIFICATION] = "fragtop:fleet_pollution_amplification:max",
	[FT_FLEET_FIG_CONTIG] = "fragtop:fleet_contiguous_blocks:sum",
	[FT_FLEET_FIG_THP_FALLBACK] = "fragtop:fleet_thp_fallback:ratio5m",
	[FT_FLEET_FIG_STALL_P99] = "fragtop:fleet_compaction_stall_seconds:p99_5m",
	[FT_FLEET_FIG_PRESSURE] = "fragtop:fleet_pressure_memory_waiting:ratio5m",
	[FT_FLEET_FIG_FINDINGS] = "fragtop:fleet_findings_active:sum",
};

static const struct ft_fleet_col fig_cols[FT_FLEET_FIG_NR] = {
	[FT_FLEET_FIG_FALLBACKS] = { "FALLBK/s", FT_FLEET_COL_FIG, FT_FLEET_FIG_FALLBACKS, 0, false,
				     false, 9,
		"fragmenting fallbacks a second over 5 min: allocations that took part of another\n"
		"migratetype's pageblock, mixing it", "fragmenting_fallbacks_per_second" },
	[FT_FLEET_FIG_AMPLIFICATION] = { "AMPL", FT_FLEET_COL_FIG, FT_FLEET_FIG_AMPLIFICATION, 0,
					 false, false, 6,
		"pollution amplification of the worst zone: pageblocks an unmovable page spoils "
		"per\npageblock of unmovable memory (the exporter's --collector.map)",
		"pollution_amplification" },
	[FT_FLEET_FIG_CONTIG] = { "", FT_FLEET_COL_FIG, FT_FLEET_FIG_CONTIG, 0, false, true, 7,
				  NULL,
				  "contiguous_blocks" },
	[FT_FLEET_FIG_THP_FALLBACK] = { "THP_FB%", FT_FLEET_COL_FIG, FT_FLEET_FIG_THP_FALLBACK, 0,
					false, false, 7,
		"anonymous THP faults that fell back to small pages, of those that asked, over 5 "
		"min", "thp_fallback_ratio" },
	[FT_FLEET_FIG_STALL_P99] = { "STALL_P99", FT_FLEET_COL_FIG, FT_FLEET_FIG_STALL_P99, 0,
				     false, false, 9,
		"the 99th percentile of direct compaction stalls over 5 min, ms",
		"compaction_stall_p99_seconds" },
	[FT_FLEET_FIG_PRESSURE] = { "PSI%", FT_FLEET_COL_FIG, FT_FLEET_FIG_PRESSURE, 0, false,
				    false, 6,
		"memory pressure: the share of time some task waited on memory (PSI some) over 5 "
		"min", "memory_pressure_ratio" },
	[FT_FLEET_FIG_FINDINGS] = { "FINDINGS", FT_FLEET_COL_FIG, FT_FLEET_FIG_FINDINGS, 0, false,
				    false, 8,
		"fragtop doctor's rules firing on the host (fragtop_finding_active)",
		"findings_active" },
};

void ft_fleet_sizes_of(struct ft_fleet_sizes *s, const int *orders, int n, long page_size)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n && i < FT_FLEET_SIZES; i++) {
		s->bytes[i] = (uint64_t)page_size << orders[i];
		ft_fit_size_name(orders[i], page_size, s->name[i], sizeof(s->name[i]));
	}
	s->n = i;
}

void ft_fleet_init(struct ft_fleet *f, const struct ft_fleet_sizes *sizes)
{
	struct ft_fleet_col *c;
	int i, fig;

	memset(f, 0, sizeof(*f));
	f->cols[f->ncols++] = (struct ft_fleet_col){ "INSTANCE", FT_FLEET_COL_INSTANCE, 0, 0, false,
						     false, 24,
		"the host as Prometheus scrapes it (its instance label)", "instance" };
	f->cols[f->ncols++] = (struct ft_fleet_col){ "UP", FT_FLEET_COL_UP, 0, 0, false, true, 4,
		"whether Prometheus's last scrape of the exporter succeeded (its up series)",
		"up" };
	for (fig = 0; fig < FT_FLEET_FIG_NR; fig++) {
		if (fig != FT_FLEET_FIG_CONTIG) {
			f->cols[f->ncols++] = fig_cols[fig];
			continue;
		}
		for (i = 0; i < sizes->n; i++) {
			c = &f->cols[f->ncols++];
			*c = fig_cols[fig];
			c->size_bytes = sizes->bytes[i];
			snprintf(c->head, sizeof(c->head), "%s", sizes->name[i]);
			c->meaning = "aligned blocks of the size the host can give now, above the "
				     "min watermark";
			c = &f->cols[f->ncols++];
			*c = fig_cols[fig];
			c->size_bytes = sizes->bytes[i];
			c->after = true;
			snprintf(c->head, sizeof(c->head), "%s_AC", sizes->name[i]);
			c->meaning =
				"... after compaction: blocks holding only free and movable pages\n"
				     "(the exporter's --collector.map)";
		}
	}
	f->sort = ft_fleet_col_find(f, "FALLBK/s");
}

void ft_fleet_release(struct ft_fleet *f)
{
	free(f->hosts);
	free(f->order);
	f->hosts = NULL;
	f->order = NULL;
	f->nhosts = f->cap = f->nshown = f->order_cap = 0;
}

const char *ft_fleet_cell(const struct ft_fleet *f, const struct ft_fleet_host *h, int c, char *buf,
			  size_t sz)
{
	const struct ft_fleet_col *col = &f->cols[c];
	double v = h->v[c];

	if (col->kind == FT_FLEET_COL_INSTANCE)
		return h->instance;
	if (col->kind == FT_FLEET_COL_UP)
		return h->up ? "up" : "DOWN";
	if (isnan(v))
		return "-";
	if (isinf(v))
		return v > 0 ? "inf" : "-inf";
	switch (col->fig) {
	case FT_FLEET_FIG_FALLBACKS:
		break;
	case FT_FLEET_FIG_THP_FALLBACK:
	case FT_FLEET_FIG_PRESSURE:
		v *= 100;
		break;
	case FT_FLEET_FIG_STALL_P99:
		v *= 1000;
		break;
	default:		/* counts */
		snprintf(buf, sz, fabs(v) < 1e7 ? "%.0f" : "%.3g", v);
		return buf;
	}
	/*
	 * A server's number can be anything (1e308): a figure that does not
	 * fit the cell's fixed form takes three digits and an exponent.
	 */
	snprintf(buf, sz, isinf(v) ? (v > 0 ? "inf" : "-inf") : fabs(v) < 10 &&
		 col->fig == FT_FLEET_FIG_FALLBACKS ?
		 "%.2f" : fabs(v) < 1e5 ? "%.1f" : "%.3g", v);
	return buf;
}

const char *ft_fleet_labels_line(const char *labels, char *buf, size_t sz)
{
	char *p;

	snprintf(buf, sz, "%s", labels);
	for (p = buf; (p = strchr(p, FT_FLEET_LABEL_SEP[0])); p++)
		*p = ' ';
	return buf;
}

int ft_fleet_col_find(const struct ft_fleet *f, const char *name)
{
	int i;

	for (i = 0; i < f->ncols; i++)
		if (!strcasecmp(f->cols[i].head, name))
			return i;
	return -1;
}

bool ft_fleet_query_up(const char *selector, char *buf, size_t sz)
{
	int n = snprintf(buf, sz, "up%s", selector);

	return n > 0 && (size_t)n < sz;
}

bool ft_fleet_query_figures(const char *selector, char *buf, size_t sz)
{
	int n = snprintf(buf, sz, "{__name__=~\"fragtop:fleet_.+\"} and on (instance) up%s",
			 selector);

	return n > 0 && (size_t)n < sz;
}

bool ft_fleet_query_spark(const struct ft_fleet *f, const char *selector, char *buf, size_t sz)
{
	const struct ft_fleet_col *c = &f->cols[f->sort];
	int n;

	if (c->kind == FT_FLEET_COL_UP)
		n = snprintf(buf, sz, "up%s", selector);
	else if (c->kind == FT_FLEET_COL_INSTANCE)
		n = snprintf(buf, sz, "%s and on (instance) up%s",
			     ft_fleet_record[FT_FLEET_FIG_FALLBACKS], selector);
	else if (c->fig == FT_FLEET_FIG_CONTIG)
		n = snprintf(buf, sz, "%s{size_bytes=\"%llu\",when=\"%s\"} and on (instance) up%s",
			     ft_fleet_record[c->fig], (unsigned long long)c->size_bytes,
			     c->after ? "after_compaction" : "now", selector);
	else
		n = snprintf(buf, sz, "%s and on (instance) up%s", ft_fleet_record[c->fig],
			     selector);
	return n > 0 && (size_t)n < sz;
}

static int by_instance(const void *a, const void *b)
{
	return strcmp(((const struct ft_fleet_host *)a)->instance,
		      ((const struct ft_fleet_host *)b)->instance);
}

static struct ft_fleet_host *host_of(const struct ft_fleet *f, const char *instance)
{
	struct ft_fleet_host key;

	if (!instance || !f->nhosts || strlen(instance) >= sizeof(key.instance))
		return NULL;
	strcpy(key.instance, instance);
	return bsearch(&key, f->hosts, f->nhosts, sizeof(key), by_instance);
}

/*
 * The target's labels but __name__, instance and job, "k=v" joined by
 * FT_FLEET_LABEL_SEP, control bytes as '?', cut at a whole label.
 */
static void labels_of(const struct ft_prom_resp *r, const struct ft_prom_series *s, char *buf,
		      size_t sz)
{
	size_t i, n = 0, m;
	char *p;

	buf[0] = '\0';
	for (i = 0; i < s->nlabels; i++) {
		const char *k = ft_prom_label_name(r, s, i);

		if (!strcmp(k, "__name__") || !strcmp(k, "instance") || !strcmp(k, "job"))
			continue;
		m = (size_t)snprintf(buf + n, sz - n, "%s%s=%s", n ? FT_FLEET_LABEL_SEP : "", k,
				     ft_prom_label_value(r, s, i));
		if (n + m >= sz) {
			buf[n] = '\0';
			break;
		}
		for (p = buf + n + (n ? 1 : 0); *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		n += m;
	}
}

static int hosts_from_up(struct ft_fleet *f, const struct ft_prom_resp *up, char *why, size_t sz)
{
	size_t i, k, n = 0;
	int c;

	f->nhosts = 0;
	for (i = 0; i < up->nseries; i++) {
		const struct ft_prom_series *s = &up->series[i];
		const char *inst = ft_prom_label(up, s, "instance");
		const struct ft_prom_sample *v = ft_prom_last(up, s);
		struct ft_fleet_host *h;

		if (!inst || !v || strlen(inst) >= FT_FLEET_INSTANCE)
			/* no instance, or one longer than a row keeps: not a host to join */
			continue;
		if (f->nhosts >= FT_FLEET_MAX_HOSTS) {
			snprintf(why, sz, "more than %d hosts: narrow --selector",
				 FT_FLEET_MAX_HOSTS);
			return -1;
		}
		if (ft_grow((void **)&f->hosts, &f->cap, f->nhosts + 1, sizeof(*h),
			    FT_FLEET_MAX_HOSTS)) {
			snprintf(why, sz, "out of memory");
			return -1;
		}
		h = &f->hosts[f->nhosts++];
		memset(h, 0, sizeof(*h));
		strcpy(h->instance, inst);
		labels_of(up, s, h->labels, sizeof(h->labels));
		h->up = v->v == 1;
		for (c = 0; c < FT_FLEET_COLS_MAX; c++)
			h->v[c] = NAN;
		for (k = 0; k < FT_FLEET_SPARK; k++)
			h->spark[k] = NAN;
	}
	if (f->nhosts)
		qsort(f->hosts, f->nhosts, sizeof(f->hosts[0]), by_instance);
	/*
	 * one row an instance: two targets of one instance (two jobs) are one host, up if either is
	 */
	for (i = 0; i < f->nhosts; i++) {
		if (n && !strcmp(f->hosts[n - 1].instance, f->hosts[i].instance)) {
			f->hosts[n - 1].up |= f->hosts[i].up;
			continue;
		}
		if (n != i)
			f->hosts[n] = f->hosts[i];
		n++;
	}
	f->nhosts = n;
	return 0;
}

/* The column a fleet series fills, or -1. */
static int col_of(const struct ft_fleet *f, const struct ft_prom_resp *r,
		  const struct ft_prom_series *s)
{
	const char *name = ft_prom_label(r, s, "__name__"), *sb, *when;
	int fig, c;

	if (!name)
		return -1;
	for (fig = 0; fig < FT_FLEET_FIG_NR; fig++)
		if (!strcmp(name, ft_fleet_record[fig]))
			break;
	if (fig == FT_FLEET_FIG_NR)
		return -1;
	sb = ft_prom_label(r, s, "size_bytes");
	when = ft_prom_label(r, s, "when");
	for (c = 0; c < f->ncols; c++) {
		const struct ft_fleet_col *col = &f->cols[c];

		if (col->kind != FT_FLEET_COL_FIG || (int)col->fig != fig)
			continue;
		if (fig != FT_FLEET_FIG_CONTIG)
			return c;
		if (sb && when && strtoull(sb, NULL, 10) == col->size_bytes &&
		    !strcmp(when, col->after ? "after_compaction" : "now"))
			return c;
	}
	return -1;
}

int ft_fleet_build(struct ft_fleet *f, const struct ft_prom_resp *up,
		   const struct ft_prom_resp *figs,
		   char *why, size_t sz)
{
	size_t i;

	if (hosts_from_up(f, up, why, sz))
		return -1;
	f->series_read = up->nseries;
	f->no_rules = false;
	if (figs) {
		for (i = 0; i < figs->nseries; i++) {
			const struct ft_prom_series *s = &figs->series[i];
			struct ft_fleet_host *h = host_of(f, ft_prom_label(figs, s, "instance"));
			const struct ft_prom_sample *v = ft_prom_last(figs, s);
			int c = col_of(f, figs, s);

			if (!h || !v || c < 0)
				continue;
			h->v[c] = v->v;
		}
		f->series_read += figs->nseries;
		f->no_rules = f->nhosts && !figs->nseries;
	}
	if (ft_grow((void **)&f->order, &f->order_cap, f->nhosts ? f->nhosts : 1, sizeof(size_t),
		    FT_FLEET_MAX_HOSTS)) {
		snprintf(why, sz, "out of memory");
		return -1;
	}
	ft_fleet_arrange(f);
	return 0;
}

int ft_fleet_slot(double t, double start, double step)
{
	double slot = step > 0 ? (t - start) / step : 0;

	/* the nearest point, half a step either side of it; lround(-0.5) would be -1 */
	if (!(slot >= -0.5 && slot < FT_FLEET_SPARK - 0.5))
		return -1;
	return ft_cell_index(slot + 0.5, 0, FT_FLEET_SPARK - 1);
}

void ft_fleet_sparks(struct ft_fleet *f, const struct ft_prom_resp *range, double start,
		     double step)
{
	size_t i, k;

	for (i = 0; i < range->nseries; i++) {
		const struct ft_prom_series *s = &range->series[i];
		struct ft_fleet_host *h = host_of(f, ft_prom_label(range, s, "instance"));

		if (!h)
			continue;
		for (k = 0; k < s->nsamples; k++) {
			const struct ft_prom_sample *p = &range->samples[s->sample0 + k];
			int at = ft_fleet_slot(p->t, start, step);

			if (at >= 0)
				h->spark[at] = p->v;
		}
	}
}

/* The filter: "label=value" matches that label exactly; other text, a part of the instance. */
static bool shown(const struct ft_fleet *f, const struct ft_fleet_host *h)
{
	size_t n = strlen(f->filter);
	const char *p;

	if (!n)
		return true;
	if (!strchr(f->filter, '='))
		return strstr(h->instance, f->filter) != NULL;
	for (p = h->labels; (p = strstr(p, f->filter)); p++)
		if ((p == h->labels || p[-1] == FT_FLEET_LABEL_SEP[0]) &&
		    (p[n] == FT_FLEET_LABEL_SEP[0] || !p[n]))
			return true;
	return false;
}

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct ft_fleet *f = arg;
	const struct ft_fleet_host *x = &f->hosts[*(const size_t *)a],
	*y = &f->hosts[*(const size_t *)b];
	const struct ft_fleet_col *c = &f->cols[f->sort];
	double vx, vy;
	int r;

	if (c->kind == FT_FLEET_COL_INSTANCE) {
		r = strcmp(x->instance, y->instance);
		return f->inverted ? -r : r;
	}
	vx = c->kind == FT_FLEET_COL_UP ? x->up : x->v[f->sort];
	vy = c->kind == FT_FLEET_COL_UP ? y->up : y->v[f->sort];
	if (isnan(vx) != isnan(vy))
		return isnan(vx) ? 1 : -1;	/* no figure: last, whichever the order */
	r = 0;
	if (!isnan(vx) && vx != vy)
		r = (vx < vy) == c->low_worst ? -1 : 1;	/* worst first */
	if (f->inverted)
		r = -r;
	return r ? r : strcmp(x->instance, y->instance);
}

void ft_fleet_arrange(struct ft_fleet *f)
{
	size_t i;

	if (f->sort < 0 || f->sort >= f->ncols)
		f->sort = 0;
	f->nshown = 0;
	for (i = 0; i < f->nhosts; i++)
		if (shown(f, &f->hosts[i]))
			f->order[f->nshown++] = i;
	if (f->nshown)
		qsort_r(f->order, f->nshown, sizeof(f->order[0]), cmp_rows, f);
}

bool ft_fleet_detail_queries(const char *instance, char bufs[FT_FLEET_DETAIL_QUERIES][1024])
{
	char q[FT_FLEET_INSTANCE * 4 + 8];
	int n[FT_FLEET_DETAIL_QUERIES];

	if (!ft_promql_quote(q, sizeof(q), instance))
		return false;
	n[0] = snprintf(bufs[0], 1024,
			"{__name__=~\"fragtop_zone_(free_blocks|free_bytes|managed_bytes)|fragtop_c"
			"ontiguous_blocks\",instance=%s}", q);
	n[1] = snprintf(bufs[1], 1024,
			"{__name__=~\"fragtop_zone_free_bytes|fragtop:extfrag_fragmenting:rate5m\","
			"instance=%s}", q);
	n[2] = snprintf(bufs[2], 1024, "topk(%d, sum by (cgroup, name) "
			"(rate(fragtop_cgroup_fragmenting_fallbacks_total{instance=%s}[5m])))",
			FT_FLEET_CGROUPS, q);
	for (int i = 0; i < FT_FLEET_DETAIL_QUERIES; i++)
		if (n[i] < 0 || n[i] >= 1024)
			return false;
	return true;
}

/* The zone of a series' node and zone labels, added when new (at most FT_FLEET_ZONES); NULL. */
static struct ft_fleet_zone *zone_of(struct ft_fleet_detail *d, const struct ft_prom_resp *r,
				     const struct ft_prom_series *s)
{
	const char *node = ft_prom_label(r, s, "node"), *zone = ft_prom_label(r, s, "zone");
	struct ft_fleet_zone *z;
	int i, k;

	if (!node || !zone || strlen(node) >= sizeof(z->node) || strlen(zone) >= sizeof(z->zone))
		return NULL;
	for (i = 0; i < d->nzones; i++)
		if (!strcmp(d->zones[i].node, node) && !strcmp(d->zones[i].zone, zone))
			return &d->zones[i];
	if (d->nzones == FT_FLEET_ZONES)
		return NULL;
	z = &d->zones[d->nzones++];
	memset(z, 0, sizeof(*z));
	strcpy(z->node, node);
	strcpy(z->zone, zone);
	z->max_order = -1;
	z->free_bytes = z->managed_bytes = z->fallbacks = NAN;
	for (k = 0; k < FT_FLEET_SPARK; k++)
		z->free_spark[k] = z->fallback_spark[k] = NAN;
	for (k = 0; k < FT_FLEET_SIZES; k++)
		z->contig[k][0] = z->contig[k][1] = NAN;
	return z;
}

static void detail_now(struct ft_fleet_detail *d, const struct ft_prom_resp *r)
{
	size_t i;
	int k;

	for (i = 0; i < r->nseries; i++) {
		const struct ft_prom_series *s = &r->series[i];
		const char *name = ft_prom_label(r, s, "__name__"),
		*o = ft_prom_label(r, s, "order");
		const struct ft_prom_sample *v = ft_prom_last(r, s);
		struct ft_fleet_zone *z = zone_of(d, r, s);

		if (!name || !v || !z)
			continue;
		if (!strcmp(name, "fragtop_zone_free_blocks") && o) {
			char *e;
			long ord = strtol(o, &e, 10);

			if (*e || ord < 0 || ord > 63)
				continue;
			z->free_blocks[ord < FT_FLEET_ORDERS ? ord : FT_FLEET_ORDERS] += v->v;
			if (ord > z->max_order)
				z->max_order = (int)ord;
		} else if (!strcmp(name, "fragtop_zone_free_bytes")) {
			z->free_bytes = v->v;
		} else if (!strcmp(name, "fragtop_zone_managed_bytes")) {
			z->managed_bytes = v->v;
		} else if (!strcmp(name, "fragtop_contiguous_blocks")) {
			const char *sb = ft_prom_label(r, s, "size_bytes"),
			*when = ft_prom_label(r, s, "when");

			for (k = 0; sb && when && k < d->sizes.n; k++)
				if (strtoull(sb, NULL, 10) == d->sizes.bytes[k])
					z->contig[k][!strcmp(when, "after_compaction")] = v->v;
		}
	}
}

static void detail_history(struct ft_fleet_detail *d, const struct ft_prom_resp *r, double start,
			   double step)
{
	size_t i, k;

	for (i = 0; i < r->nseries; i++) {
		const struct ft_prom_series *s = &r->series[i];
		const char *name = ft_prom_label(r, s, "__name__");
		struct ft_fleet_zone *z = zone_of(d, r, s);
		bool fb;

		if (!name || !z)
			continue;
		fb = !strcmp(name, "fragtop:extfrag_fragmenting:rate5m");
		for (k = 0; k < s->nsamples; k++) {
			const struct ft_prom_sample *p = &r->samples[s->sample0 + k];
			int at = ft_fleet_slot(p->t, start, step);

			if (at < 0)
				continue;
			(fb ? z->fallback_spark : z->free_spark)[at] = p->v;
			if (fb)
				z->fallbacks = p->v;
		}
	}
}

static int by_zone(const void *a, const void *b)
{
	const struct ft_fleet_zone *x = a, *y = b;
	long nx = strtol(x->node, NULL, 10), ny = strtol(y->node, NULL, 10);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x->zone, y->zone);
}

void ft_fleet_detail_build(struct ft_fleet_detail *d, const char *instance,
			   const struct ft_fleet_sizes *sizes,
			   const struct ft_prom_resp *r[FT_FLEET_DETAIL_QUERIES], double start,
			   double step)
{
	char inst[FT_FLEET_INSTANCE];
	size_t i;

	snprintf(inst, sizeof(inst), "%s", instance);	/* @instance may be d->instance */
	memset(d, 0, sizeof(*d));
	memcpy(d->instance, inst, sizeof(inst));
	d->sizes = *sizes;
	if (r[0])
		detail_now(d, r[0]);
	if (r[1])
		detail_history(d, r[1], start, step);
	if (d->nzones)
		qsort(d->zones, (size_t)d->nzones, sizeof(d->zones[0]), by_zone);
	for (i = 0; r[2] && i < r[2]->nseries && d->ncgroups < FT_FLEET_CGROUPS; i++) {
		const struct ft_prom_series *s = &r[2]->series[i];
		const struct ft_prom_sample *v = ft_prom_last(r[2], s);
		const char *cg = ft_prom_label(r[2], s, "cgroup"),
		*name = ft_prom_label(r[2], s, "name");
		struct ft_fleet_cgroup *c = &d->cgroups[d->ncgroups];

		if (!v || !cg)
			continue;
		snprintf(c->cgroup, sizeof(c->cgroup), "%s", cg);
		snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
		c->fallbacks = v->v;
		d->ncgroups++;
	}
	/* topk's order is not kept by the API: most first again */
	for (i = 1; i < (size_t)d->ncgroups; i++)
		for (size_t j = i; j > 0 && d->cgroups[j].fallbacks > d->cgroups[j - 1].fallbacks;
		     j--) {
			struct ft_fleet_cgroup t = d->cgroups[j];

			d->cgroups[j] = d->cgroups[j - 1];
			d->cgroups[j - 1] = t;
		}
}
