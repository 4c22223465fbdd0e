// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/live.h"

#include "collectors/diag.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/file.h"

static void sync_events(struct ft_live *l);
static void mark_fallback(void *ctx, uint64_t pfn, bool fragmenting);

int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s)
{
	int err;

	memset(l, 0, sizeof(*l));
	snprintf(l->root, sizeof(l->root), "%s", root);
	err = ft_procfs_open(&l->procfs, root);
	if (err)
		return err;
	ft_host_open(&l->host, l->procfs.rootfd, !strcmp(root, "/"));
	ft_sample_init(&l->sample);
	l->sample.pageblock_order_fallback = l->host.pmd_order;
	ft_pbmap_init(&l->map);
	l->kpf.flags_fd = l->kpf.count_fd = -1;
	l->map_rate = FT_LIVE_MAP_RATE;
	l->pti_interval_ns = pti_interval_s > 0 ? (uint64_t)(pti_interval_s * 1e9) : 0;
	return 0;
}

void ft_live_close(struct ft_live *l)
{
	ft_trace_close(&l->trace);
	if (l->tracing)
		ft_procname_release(&l->procname);
	l->tracing = false;
	ft_sample_release(&l->sample);
	ft_kpf_close(&l->kpf);
	free(l->iomem);
	l->iomem = NULL;
	ft_pbmap_release(&l->map);
	ft_host_close(&l->host);
	ft_procfs_close(&l->procfs);
}

void ft_live_read_knobs(struct ft_live *l)
{
	size_t i;

	if (l->replay)
		return;	/* the recording's values stay */
	for (i = 0; i < ft_knobs_nr && i < FT_LIVE_MAX_KNOBS; i++)
		if (ft_knobs[i].type != FT_KNOB_TRIGGER && !ft_knobs[i].per_node)
			ft_knob_read(l->procfs.rootfd, &ft_knobs[i], &l->knobs[i]);
		else
			l->knobs[i].err = -EOPNOTSUPP;
}

static void update_event_rates(struct ft_live *l, uint64_t now)
{
	uint64_t m[FT_M_NR];
	double dt = (double)(now - l->ev_prev_t_ns) / 1e9;
	int i;

	ft_events_metrics(&l->events, m);
	for (i = 0; i < FT_M_NR; i++) {
		l->ev_rate[i] = l->ev_prev_t_ns && dt > 0 ? (double)(m[i] - l->ev_prev[i]) / dt : NAN;
		if (!isnan(l->ev_rate[i]))
			ft_series_push(&l->ev_series[i], l->ev_rate[i]);
		l->ev_prev[i] = m[i];
	}
	for (i = 0; i < l->events.nr_zones; i++) {
		const struct ft_extfrag_counts *c = &l->events.extfrag_zone[i];

		l->zone_extfrag_rate[i] = l->ev_prev_t_ns && dt > 0 ?
			(double)(c->total - l->zone_prev[i].total) / dt : NAN;
		l->zone_frag_rate[i] = l->ev_prev_t_ns && dt > 0 ?
			(double)(c->fragmenting - l->zone_prev[i].fragmenting) / dt : NAN;
		l->zone_prev[i] = *c;
	}
	l->ev_prev_t_ns = now;
}

void ft_live_zone_extfrag_rate(const struct ft_live *l, int node, const char *zone,
			       double *total, double *fragmenting)
{
	int i;

	*total = *fragmenting = NAN;
	if (!l->tracing)
		return;
	for (i = 0; i < l->events.nr_zones; i++) {
		if (l->events.zones[i].node == node && !strcmp(l->events.zones[i].name, zone)) {
			*total = l->zone_extfrag_rate[i];
			*fragmenting = l->zone_frag_rate[i];
			return;
		}
	}
}

static void map_layout(struct ft_live *l)
{
	if (!ft_sample_has(&l->sample, FT_SRC_ZONEINFO) || l->sample.pageblock_order < 0)
		return;
	if (ft_pbmap_layout(&l->map, &l->sample.zoneinfo, l->sample.pageblock_order))
		return;	/* keeps the old layout; -ENOMEM or an absurd span */
}

static void mark_fallback(void *ctx, uint64_t pfn, bool fragmenting)
{
	struct ft_live *l = ctx;

	(void)fragmenting;
	/* replay marks in the recording's time, so marks fade as the session did */
	ft_pbmap_mark(&l->map, pfn, l->replay ? l->sample.t_ns : ft_now_ns());
}

static int map_open(struct ft_live *l)
{
	char *buf;
	long n;
	int err;

	if (l->kpf.flags_fd >= 0)
		return 0;
	err = ft_kpf_open(&l->kpf, l->procfs.rootfd);
	if (err) {
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags%s%s",
			err == -EACCES || err == -EPERM ? " " : ": ",
			err == -EACCES || err == -EPERM ? "needs root" : strerror(-err));
		return err;
	}
	buf = malloc(1 << 20);
	if (buf) {
		n = ft_file_slurp(l->procfs.rootfd, "proc/iomem", buf, 1 << 20);
		if (n < 0 || ft_iomem_parse(buf, (size_t)n, l->host.page_size, &l->map.ram) ||
		    !l->map.ram.known)
			ft_diag(FT_DIAG_INFO, "pageblock map: no RAM ranges from /proc/iomem; "
				"holes show only where the kernel says NOPAGE");
		if (n > 0) {
			l->iomem = buf;
			l->iomem_len = (size_t)n;
		} else {
			free(buf);
		}
	}
	return 0;
}

int ft_live_map_enable(struct ft_live *l, bool on)
{
	l->map_scan = on;
	l->map_last_ns = 0;
	if (!on)
		return 0;
	if (l->map_err)
		return l->map_err;
	l->map_err = map_open(l);
	map_layout(l);
	return l->map_err;
}

void ft_live_map_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns(), budget;
	long n;

	if (!l->map_scan || l->map_err || l->map.order < 0)
		return;
	if (!l->map_last_ns)
		l->map_last_ns = now - 250000000;	/* a first slice right away */
	budget = (uint64_t)((double)l->map_rate * (double)(now - l->map_last_ns) / 1e9);
	if (budget > l->map_rate)
		budget = l->map_rate;
	if (budget < ((uint64_t)FT_KPF_BATCH_BLOCKS << l->map.order) / 4)
		return;		/* not worth a batch yet */
	l->map_last_ns = now;
	l->kpf.tap = l->tap ? l->tap->kpf_batch : NULL;
	l->kpf.tap_ctx = l->tap_ctx;
	n = ft_kpf_scan(&l->kpf, &l->map, budget);
	l->map_scan_ns += ft_now_ns() - now;
	if (n < 0) {
		l->map_err = (int)n;
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror((int)-n));
		return;
	}
	l->map_scan_pfns += (uint64_t)n;
}

int ft_live_map_scan_all(struct ft_live *l)
{
	int err;

	if (!l->map_err)
		l->map_err = map_open(l);
	if (l->map_err)
		return l->map_err;
	map_layout(l);
	if (l->map.order < 0)
		return -ENODATA;
	{
		uint64_t t0 = ft_now_ns(), p0 = l->kpf.pfns;

		l->kpf.tap = l->tap ? l->tap->kpf_batch : NULL;
		l->kpf.tap_ctx = l->tap_ctx;
		err = ft_kpf_scan_all(&l->kpf, &l->map);
		l->map_scan_ns += ft_now_ns() - t0;
		l->map_scan_pfns += l->kpf.pfns - p0;
	}
	if (err) {
		l->map_err = err;
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror(-err));
	}
	return err;
}

int ft_live_tick(struct ft_live *l, bool force_pti)
{
	unsigned int mask = (1u << FT_SRC_ZONEINFO) | (1u << FT_SRC_BUDDYINFO) |
			    (1u << FT_SRC_VMSTAT);
	uint64_t now = ft_now_ns();
	struct ft_raw raw;
	int err;

	if (force_pti || !l->pti_last_ns || now - l->pti_last_ns >= l->pti_interval_ns) {
		mask |= 1u << FT_SRC_PAGETYPEINFO;
		l->pti_last_ns = now;
	}
	ft_procfs_collect(&l->procfs, mask, &raw);
	ft_live_read_knobs(l);
	ft_live_trace_poll(l);	/* events up to now belong to this tick */
	if (l->tap && l->tap->tick)
		l->tap->tick(l->tap_ctx, &raw);
	err = ft_live_apply(l, &raw);
	return err;
}

int ft_live_apply(struct ft_live *l, const struct ft_raw *raw)
{
	int err = ft_sample_update(&l->sample, raw);

	map_layout(l);
	if (!l->replay) {	/* knobs were read with the /proc files */
		ft_live_map_poll(l);
		ft_host_refresh(&l->host);
	}
	if (l->tracing) {
		sync_events(l);
		update_event_rates(l, raw->t_ns);
	}
	l->ticks++;
	return err;
}

void ft_live_open_replay(struct ft_live *l)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	snprintf(l->root, sizeof(l->root), "(recording)");
	l->replay = true;
	l->procfs.rootfd = -1;
	/* closed files (fd -1): ft_live_close() must not close fd 0 */
	for (i = 0; i < FT_SRC_NR; i++)
		ft_file_init(&l->procfs.src[i], NULL);
	l->kpf.flags_fd = l->kpf.count_fd = -1;
	l->host.pmd_order = -1;
	l->host.page_size = 4096;
	ft_sample_init(&l->sample);
	l->sample.pageblock_order_fallback = -1;
	ft_pbmap_init(&l->map);
	l->map_err = -ENOENT;
	for (i = 0; i < FT_LIVE_MAX_KNOBS; i++)
		l->knobs[i].err = -ENOENT;
	l->trace_err = -ENOENT;	/* until a format arrives */
}

int ft_live_replay_trace_text(struct ft_live *l, const char *name, const char *buf, size_t len)
{
	char system[64];
	const char *slash = strchr(name, '/');
	int err, i;

	if (!l->tracing) {
		err = ft_tracedec_init(&l->trace.dec);
		if (err)
			return err;
		ft_events_init(&l->events, l->sample.pageblock_order);
		l->events.on_fallback = mark_fallback;
		l->events.on_fallback_ctx = l;
		for (i = 0; i < FT_M_NR; i++)
			l->ev_rate[i] = NAN;
		l->tracing = true;
		l->trace_err = 0;
		ft_procname_init(&l->procname);
	}
	if (!strcmp(name, "header_page"))
		return ft_tracedec_header_page(&l->trace.dec, buf, len);
	if (!slash || (size_t)(slash - name) >= sizeof(system))
		return -EINVAL;
	snprintf(system, sizeof(system), "%.*s", (int)(slash - name), name);
	err = ft_tracedec_format(&l->trace.dec, system, buf, len);
	l->trace.enabled = 0;
	for (i = 0; i < FT_EV_NR; i++)
		if (ft_tracedec_has(&l->trace.dec, i))
			l->trace.enabled |= 1u << i;
	ft_events_set_status(&l->events, &l->trace.dec);
	return err;
}

void ft_live_replay_trace_page(struct ft_live *l, int cpu, const void *buf, size_t len)
{
	if (!l->tracing)
		return;
	sync_events(l);
	l->trace.pages_read++;
	l->trace.bytes_read += len;
	ft_tracedec_subbuf(&l->trace.dec, buf, len, cpu, ft_events_add_cb, &l->events);
	l->lost = l->trace.dec.missed;
}

void ft_live_replay_iomem(struct ft_live *l, const char *buf, size_t len)
{
	if (ft_iomem_parse(buf, len, l->host.page_size, &l->map.ram))
		memset(&l->map.ram, 0, sizeof(l->map.ram));
}

void ft_live_replay_kpf(struct ft_live *l, size_t zone, const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t pfn, words, per, block;
	size_t z = zone;

	map_layout(l);
	if (len < 8 || (len - 8) % 16 || l->map.order < 0)
		return;
	memcpy(&pfn, p, 8);
	words = (len - 8) / 16;
	per = 1ull << l->map.order;
	/* whole blocks of the zone the recorder named, or nothing */
	if (z >= l->map.nr || pfn % per || words % per)
		return;
	block = pfn >> l->map.order;
	if (block < l->map.zones[z].first_block ||
	    block + words / per > l->map.zones[z].first_block + l->map.zones[z].nr_blocks)
		return;
	{
		/* the words are not aligned in the record: copy them */
		uint64_t *w = malloc(words * 16);

		if (!w)
			return;
		memcpy(w, p + 8, words * 16);
		ft_pbmap_feed(&l->map, z, (uint32_t)(block - l->map.zones[z].first_block),
			      (uint32_t)(words / per), w, w + words);
		free(w);
	}
	l->map_err = 0;
}

void ft_live_replay_knob(struct ft_live *l, size_t idx, const char *buf, size_t len)
{
	const struct ft_knob *k;
	struct ft_knob_value *v;

	if (idx >= ft_knobs_nr || idx >= FT_LIVE_MAX_KNOBS)
		return;
	k = &ft_knobs[idx];
	v = &l->knobs[idx];
	memset(v, 0, sizeof(*v));
	if (k->type == FT_KNOB_INT)
		v->err = ft_sysfile_parse_int(buf, len, &v->num);
	else if (k->type == FT_KNOB_SELECT)
		v->err = ft_sysfile_parse_selector(buf, len, &v->sel);
	else
		v->err = -EOPNOTSUPP;
}

/* Keep the aggregator's zone table and pageblock order in step with the sample. */
static void sync_events(struct ft_live *l)
{
	struct ft_zone_range r[FT_EV_ZONES];
	const struct ft_zoneinfo *zi = &l->sample.zoneinfo;
	size_t i;
	int n = 0;

	if (ft_sample_has(&l->sample, FT_SRC_ZONEINFO)) {
		for (i = 0; i < zi->nr && n < FT_EV_ZONES; i++) {
			const struct ft_zi_zone *z = &zi->zones[i];

			if (!(z->has & FT_ZI_START_PFN) || !z->spanned)
				continue;
			r[n].node = z->node;
			snprintf(r[n].name, sizeof(r[n].name), "%s", z->name);
			r[n].start = z->start_pfn;
			r[n].end = z->start_pfn + z->spanned;
			n++;
		}
		ft_events_set_zones(&l->events, r, n);
	}
	if (l->sample.pageblock_order >= 0)
		l->events.pageblock_order = l->sample.pageblock_order;
}

int ft_live_trace_start(struct ft_live *l, size_t buffer_kb)
{
	int err, stale;

	ft_events_init(&l->events, l->sample.pageblock_order >= 0 ?
		       l->sample.pageblock_order : l->host.pmd_order);
	if (strcmp(l->root, "/")) {
		l->trace_err = -EXDEV;
		return l->trace_err;
	}
	stale = ft_trace_remove_stale();
	if (stale > 0)
		ft_diag(FT_DIAG_INFO, "removed %d tracefs instance%s left by a fragtop that died",
			stale, stale > 1 ? "s" : "");
	err = ft_trace_open(&l->trace, buffer_kb);
	if (err) {
		l->trace_err = err;
		ft_diag(FT_DIAG_WARN, "no tracepoints: %s", ft_trace_strerror(err));
		return err;
	}
	l->tracing = true;
	l->trace_err = 0;
	ft_procname_init(&l->procname);
	for (int i = 0; i < FT_M_NR; i++)
		l->ev_rate[i] = NAN;
	ft_events_set_status(&l->events, &l->trace.dec);
	l->events.on_fallback = mark_fallback;
	l->events.on_fallback_ctx = l;
	sync_events(l);
	return 0;
}

void ft_live_trace_poll(struct ft_live *l)
{
	int i;

	if (!l->tracing || l->replay)
		return;
	sync_events(l);

	if (l->tap && l->tap->trace_page) {
		l->trace.tap = l->tap->trace_page;
		l->trace.tap_ctx = l->tap_ctx;
	} else {
		l->trace.tap = NULL;
	}
	ft_trace_drain(&l->trace, ft_events_add_cb, &l->events);
	l->lost = ft_trace_lost(&l->trace);
	/* name new pids now: short-lived ones are gone by the report */
	for (i = 0; i < l->events.nr_pids; i++)
		ft_procname_get(&l->procname, l->events.pids[i].pid);
}

double ft_live_pti_age(const struct ft_live *l, uint64_t now_ns)
{
	if (!ft_sample_has(&l->sample, FT_SRC_PAGETYPEINFO))
		return -1;
	return (double)(now_ns - l->sample.src_t_ns[FT_SRC_PAGETYPEINFO]) / 1e9;
}
