// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/zero.h"
#include "model/counterfield.h"

/*
 * A kernel_stack record belongs to the event it follows on its CPU: the
 * record queued last, when it is that CPU's fallback (the sub-buffer is
 * decoded in order).  A stack after anything else is not counted.
 */
static void pair_stack(const struct ft_trace_stack *st, void *ctx)
{
	struct ft_session *s = ctx;
	struct ft_trace_rec *r;

	if (!s->nr_trq)
		return;
	r = &s->trq[s->nr_trq - 1];
	if (r->cpu != st->cpu || r->kind != FT_EV_EXTFRAG || r->stack || st->ts < r->ts)
		return;
	r->stack = ft_events_stack(&s->events, st);
}

static void mark_fallback(void *ctx, uint64_t pfn, int pid, bool fragmenting);
static void join_isolate(void *ctx, const struct ft_trace_rec *r, enum ft_iso_who who);

void ft_session_init(struct ft_session *s)
{
	size_t i;

	ft_zero(s, sizeof(*s));	/* a calloc'd session's rings stay out of RSS until they fill */
	s->host.pmd_order = -1;
	s->host.page_size = 4096;
	ft_sample_init(&s->sample);
	ft_pbmap_init(&s->map);
	ft_events_init(&s->events, -1);
	s->events.on_fallback = mark_fallback;
	s->events.on_fallback_ctx = s;
	s->events.on_isolate = join_isolate;
	s->events.on_isolate_ctx = s;
	s->map_err = -ENODATA;
	for (i = 0; i < FT_SESSION_MAX_KNOBS; i++)
		s->knobs[i].err = -ENODATA;
	for (i = 0; i < FT_M_NR; i++)
		s->ev_rate[i] = NAN;
	s->trace_err = -ENODATA;	/* until a format arrives */
}

void ft_session_init_opts(struct ft_session *s, const struct ft_session_opts *o)
{
	ft_session_init(s);
	if (!o)
		return;
	s->lean = o->lean;
	s->events.on_latency = o->on_latency;
	s->events.on_latency_ctx = o->on_latency_ctx;
}

void ft_session_release(struct ft_session *s)
{
	size_t i;

	ft_sample_release(&s->sample);
	ft_pbmap_release(&s->map);
	if (s->dec.tep)
		ft_tracedec_release(&s->dec);
	for (i = 0; i < FT_SRC_NR; i++)
		free(s->pending[i].buf);
	free(s->audits);
	free(s->owners);
	free(s->owner_text);
	free(s->owner_stacks);
	free(s->cgroups);
	free(s->trq);
	free(s->kpf_early);
	for (i = 0; i < FT_LAT_RING * FT_LAT_NR; i++)
		free(s->lat_cells[i / FT_LAT_NR][i % FT_LAT_NR].c);
	ft_symnames_release(&s->syms);
	ft_zero(s, sizeof(*s));
}

/* A waiting record's place in time: its stamp, its CPU, then its arrival (a stable order). */
struct trq_key {
	uint64_t ts;
	int cpu;
	uint32_t i;
};

/*
 * Sort @n keys by (ts, cpu, i): least significant byte first, each pass
 * stable (counting), so arrival breaks the ties.  A pass whose byte is the
 * same in every key is skipped (a tick's stamps share their high bytes).
 * @tmp holds @n keys.  Returns the sorted array (@k or @tmp).
 */
static struct trq_key *radix_sort(struct trq_key *k, struct trq_key *tmp, size_t n)
{
	int pass;

	for (pass = 0; pass < 12; pass++) {	/* 4 bytes of cpu, then 8 of ts */
		size_t count[256] = { 0 }, at = 0, i;
		unsigned int shift = (unsigned int)(pass < 4 ? pass : pass - 4) * 8;
		struct trq_key *t;

#define BYTE(key)	(pass < 4 ? ((uint32_t)(key).cpu >> shift) & 0xff : ((key).ts >> shift) & 0xff)
		for (i = 0; i < n; i++)
			count[BYTE(k[i])]++;
		if (count[BYTE(k[0])] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[BYTE(k[i])]++] = k[i];
#undef BYTE
		t = k;
		k = tmp;
		tmp = t;
	}
	return k;
}

static bool trq_in_order(const struct ft_session *s)
{
	size_t i;

	for (i = 1; i < s->nr_trq; i++) {
		const struct ft_trace_rec *x = &s->trq[i - 1], *y = &s->trq[i];

		if (x->ts > y->ts || (x->ts == y->ts && x->cpu > y->cpu))
			return false;
	}
	return true;
}

/*
 * The waiting records in time order into the aggregation (a CPU's own
 * are in order already).  Keys are sorted, not the records: a record is
 * 56 bytes, and moving them was most of a trace storm's replay.
 */
static void flush_trace(struct ft_session *s)
{
	struct trq_key *k;
	size_t i;

	if (!s->nr_trq)
		return;
	k = trq_in_order(s) ? NULL : malloc(2 * s->nr_trq * sizeof(*k));
	if (k) {
		const struct trq_key *sorted;

		for (i = 0; i < s->nr_trq; i++)
			k[i] = (struct trq_key){ .ts = s->trq[i].ts, .cpu = s->trq[i].cpu, .i = (uint32_t)i };
		sorted = radix_sort(k, k + s->nr_trq, s->nr_trq);
		for (i = 0; i < s->nr_trq; i++)
			ft_events_add(&s->events, &s->trq[sorted[i].i]);
		free(k);
	} else {
		/* in order already; or no memory for the keys: as they came */
		for (i = 0; i < s->nr_trq; i++)
			ft_events_add(&s->events, &s->trq[i]);
	}
	s->nr_trq = 0;
}

/*
 * After a tick's flush: a burst's queue (16k records are 900 kB) is not
 * held through the quiet that follows.  The capacity stays while the
 * ticks use a quarter of it; below that it goes back to the heap, and the
 * next burst grows it again.
 */
static void trim_trace(struct ft_session *s, size_t used)
{
	if (s->cap_trq > FT_SESSION_TRQ_KEEP && used < s->cap_trq / 4) {
		free(s->trq);
		s->trq = NULL;
		s->cap_trq = 0;
	}
}

static void queue_rec(const struct ft_trace_rec *r, void *ctx)
{
	struct ft_session *s = ctx;

	if (ft_grow_from((void **)&s->trq, &s->cap_trq, s->nr_trq + 1, sizeof(*s->trq),
			 FT_SESSION_TRQ_KEEP, FT_SESSION_TRQ_MAX)) {
		flush_trace(s);		/* no room: what waits is counted now */
		ft_events_add(&s->events, r);
		return;
	}
	s->trq[s->nr_trq++] = *r;
}

/*
 * An isolate record into s->futile: its block (the scanners isolate a
 * pageblock at a time: isolate_migratepages_block(), isolate_freepages_block())
 * holds an unmovable page (futile), holds none, or was not read whole.
 */
static void join_isolate(void *ctx, const struct ft_trace_rec *r, enum ft_iso_who who)
{
	struct ft_session *s = ctx;
	struct ft_futile *f = &s->futile;
	enum ft_iso_scanner sc = r->kind == FT_EV_COMPACT_ISO_FREE ? FT_ISO_FREE : FT_ISO_MIGRATE;
	const struct ft_pb_block *pb = NULL;

	f->events[who][sc]++;
	f->scanned[who][sc] += r->u.iso.scanned;
	f->taken[who][sc] += r->u.iso.taken;
	/* a record past its block (never seen on 6.18: 1,399 of 1,399 in one) is not placed */
	if (s->map.order >= 0 && r->u.iso.end_pfn > r->u.iso.start_pfn &&
	    (r->u.iso.end_pfn - 1) >> s->map.order == r->u.iso.start_pfn >> s->map.order)
		pb = ft_pbmap_block(&s->map, r->u.iso.start_pfn);
	if (!pb || pb->cls == FT_PB_UNSCANNED) {
		f->scanned_unknown[who][sc] += r->u.iso.scanned;
		f->taken_unknown[who][sc] += r->u.iso.taken;
	} else if (pb->pages[FT_PG_UNMOVABLE]) {
		f->scanned_futile[who][sc] += r->u.iso.scanned;
		f->taken_futile[who][sc] += r->u.iso.taken;
	}
}

static void mark_fallback(void *ctx, uint64_t pfn, int pid, bool fragmenting)
{
	struct ft_session *s = ctx;

	(void)fragmenting;
	/* in the inputs' time, so that marks fade in replay as they did live */
	ft_pbmap_mark(&s->map, pfn, pid, s->t_ns);
}

/* Keep the aggregator's zone table and pageblock order in step with the sample. */
static void sync_events(struct ft_session *s)
{
	struct ft_zone_range r[FT_EV_ZONES];
	const struct ft_zoneinfo *zi = &s->sample.zoneinfo;
	size_t i;
	int n = 0;

	if (ft_sample_has(&s->sample, FT_SRC_ZONEINFO)) {
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
		ft_events_set_zones(&s->events, r, n);
	}
	if (s->sample.pageblock_order >= 0)
		s->events.pageblock_order = s->sample.pageblock_order;
	else if (s->events.pageblock_order < 0)
		s->events.pageblock_order = s->sample.pageblock_order_fallback;
}

static void map_layout(struct ft_session *s)
{
	if (!ft_sample_has(&s->sample, FT_SRC_ZONEINFO) || s->sample.pageblock_order < 0)
		return;
	/* keeps the old layout on -ENOMEM or an absurd span */
	ft_pbmap_layout(&s->map, &s->sample.zoneinfo, s->sample.pageblock_order);
}

static void update_event_rates(struct ft_session *s, uint64_t now)
{
	uint64_t m[FT_M_NR];
	double dt = (double)(now - s->ev_prev_t_ns) / 1e9;
	bool have = s->ev_prev_t_ns && now > s->ev_prev_t_ns;
	int i;

	ft_events_metrics(&s->events, m);
	for (i = 0; i < FT_M_NR; i++) {
		s->ev_rate[i] = have ? (double)(m[i] - s->ev_prev[i]) / dt : NAN;
		if (!isnan(s->ev_rate[i]))
			ft_series_push(&s->ev_series[i], s->ev_rate[i]);
		s->ev_prev[i] = m[i];
	}
	for (i = 0; i < s->events.nr_zones; i++) {
		const struct ft_extfrag_counts *c = &s->events.extfrag_zone[i];

		s->zone_extfrag_rate[i] = have ? (double)(c->total - s->zone_prev[i].total) / dt : NAN;
		s->zone_frag_rate[i] = have ?
			(double)(c->fragmenting - s->zone_prev[i].fragmenting) / dt : NAN;
		s->zone_prev[i] = *c;
	}
	s->ev_prev_t_ns = now;
}

void ft_session_zone_extfrag_rate(const struct ft_session *s, int node, const char *zone,
				  double *total, double *fragmenting)
{
	int i;

	*total = *fragmenting = NAN;
	if (!s->tracing)
		return;
	for (i = 0; i < s->events.nr_zones; i++) {
		if (s->events.zones[i].node == node && !strcmp(s->events.zones[i].name, zone)) {
			*total = s->zone_extfrag_rate[i];
			*fragmenting = s->zone_frag_rate[i];
			return;
		}
	}
}

double ft_session_pti_age(const struct ft_session *s)
{
	if (!ft_sample_has(&s->sample, FT_SRC_PAGETYPEINFO))
		return -1;
	return (double)(s->tick_t_ns - s->sample.src_t_ns[FT_SRC_PAGETYPEINFO]) / 1e9;
}

/* "key=value" lines: the value of @key, or "". */
static void field(const char *text, size_t len, const char *key, char *out, size_t sz)
{
	size_t kl = strlen(key);
	const char *p = text, *end = text + len;

	out[0] = '\0';
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (ll > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, sz, "%.*s", (int)(ll - kl - 1), p + kl + 1);
			return;
		}
		if (!nl)
			return;
		p = nl + 1;
	}
}

const char *ft_session_host(const struct ft_session *s, const char *key, char *buf, size_t sz)
{
	field(s->host.text, strlen(s->host.text), key, buf, sz);
	return buf;
}

/* A HOST list of sizes in kB ("2048,1048576"), ascending, into @kb: how many (at most @max). */
static unsigned int kb_list(const char *p, uint64_t *kb, unsigned int max)
{
	unsigned int n = 0;

	while (*p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || (*end && *end != ',') || !v || v >= 1ull << 40)
			break;
		if (n < max && (!n || v > kb[n - 1]))
			kb[n++] = v;
		p = *end ? end + 1 : end;
	}
	return n;
}

static void apply_host(struct ft_session *s, const struct ft_rec_record *in)
{
	char v[256];
	long ps;
	int order;

	snprintf(s->host.text, sizeof(s->host.text), "%.*s", (int)in->len, (const char *)in->data);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "%.127s",
		 ft_session_host(s, "hostname", v, sizeof(v)));
	snprintf(s->host.release, sizeof(s->host.release), "%.127s",
		 ft_session_host(s, "release", v, sizeof(v)));
	ps = atol(ft_session_host(s, "page_size", v, sizeof(v)));
	if (ps >= 512 && ps <= (1l << 24) && !(ps & (ps - 1)))
		s->host.page_size = ps;
	ft_session_host(s, "pmd_order", v, sizeof(v));
	s->host.pmd_order = v[0] ? atoi(v) : -1;
	if (s->host.pmd_order < -1 || s->host.pmd_order > 20)
		s->host.pmd_order = -1;
	s->host.nr_huge = kb_list(ft_session_host(s, "hugepage_kb", v, sizeof(v)), s->host.huge_kb, 8);
	s->host.nr_mthp = kb_list(ft_session_host(s, "mthp_kb", v, sizeof(v)), s->host.mthp_kb, 16);
	ft_session_host(s, "pageblock_order", v, sizeof(v));
	order = v[0] ? atoi(v) : -1;
	if (order < 0 || order > 20)
		order = s->host.pmd_order;
	s->sample.pageblock_order_fallback = order;
}

static void start_tracing(struct ft_session *s)
{
	int i;

	if (s->tracing)
		return;
	if (ft_tracedec_init(&s->dec))
		return;
	s->dec.on_stack = pair_stack;
	{
		void (*on_latency)(void *, enum ft_lat_source, uint64_t) = s->events.on_latency;
		void *ctx = s->events.on_latency_ctx;

		ft_events_init(&s->events, s->sample.pageblock_order >= 0 ? s->sample.pageblock_order :
			       s->sample.pageblock_order_fallback);
		s->events.on_latency = on_latency;
		s->events.on_latency_ctx = ctx;
	}
	s->events.on_fallback = mark_fallback;
	s->events.on_fallback_ctx = s;
	s->events.on_isolate = join_isolate;
	s->events.on_isolate_ctx = s;
	for (i = 0; i < FT_M_NR; i++)
		s->ev_rate[i] = NAN;
	s->tracing = true;
	s->trace_err = 0;
	sync_events(s);
}

/* A malformed input, skipped: counted, and the first ones said (report -v). */
static void bad(struct ft_session *s, const struct ft_rec_record *in, const char *why)
{
	if (s->bad_inputs < FT_SESSION_BAD_KEPT) {
		struct ft_session_bad *b = &s->bad[s->bad_inputs];

		memset(b, 0, sizeof(*b));
		b->tick = s->ticks;
		b->type = in->type;
		b->sub = in->sub;
		b->len = in->len;
		snprintf(b->why, sizeof(b->why), "%s", why);
	}
	s->bad_inputs++;
}

/* "system/event\n" or "header_page\n", then the format text. */
static void apply_format(struct ft_session *s, const struct ft_rec_record *in)
{
	const char *d = (const char *)in->data, *nl = memchr(d, '\n', in->len);
	const char *text, *slash;
	char system[64], name[128];
	size_t tl;
	int i, ev = -1;

	if (!nl || (size_t)(nl - d) >= sizeof(name)) {
		bad(s, in, "a trace format without its name line");
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(nl - d), d);
	text = nl + 1;
	tl = in->len - (size_t)(text - d);
	start_tracing(s);
	if (!s->tracing)
		return;
	if (!strcmp(name, "header_page")) {
		/* once: a file that repeats it costs nothing */
		if (s->dec.have_header) {
			s->formats_repeated++;
			return;
		}
		if (ft_tracedec_header_page(&s->dec, text, tl))
			bad(s, in, "the ring buffer's header_page not understood");
		return;
	}
	slash = strchr(name, '/');
	if (!slash || (size_t)(slash - name) >= sizeof(system)) {
		bad(s, in, "a trace format named other than system/event");
		return;
	}
	snprintf(system, sizeof(system), "%.*s", (int)(slash - name), name);
	if (!strcmp(name, "ftrace/kernel_stack")) {	/* the stack records (--stacks): once too */
		if (s->dec.stack_type >= 0)
			s->formats_repeated++;
		else if (ft_tracedec_format(&s->dec, system, text, tl))
			bad(s, in, "the kernel_stack format not understood");
		return;
	}
	for (i = 0; i < FT_EV_NR; i++)
		if (!strcmp(ft_trace_events[i].system, system) &&
		    !strcmp(ft_trace_events[i].event, slash + 1))
			ev = i;
	/*
	 * One format per event: formats do not change within a session, and
	 * a file that repeats them must not make each repeat a full parse.
	 */
	if (ev < 0)
		return;
	if (ft_tracedec_has(&s->dec, ev)) {
		s->formats_repeated++;
		return;
	}
	/* an event this fragtop cannot decode stays off, as it does live */
	ft_tracedec_format(&s->dec, system, text, tl);
	s->trace_enabled = 0;
	for (i = 0; i < FT_EV_NR; i++)
		if (ft_tracedec_has(&s->dec, i))
			s->trace_enabled |= 1u << i;
	ft_events_set_status(&s->events, &s->dec);
}

static void apply_page(struct ft_session *s, const struct ft_rec_record *in)
{
	if (!s->tracing)
		return;
	sync_events(s);
	s->pages++;
	s->page_bytes += in->len;
	ft_tracedec_subbuf(&s->dec, in->data, in->len, in->sub, queue_rec, s);
}

static void apply_iomem(struct ft_session *s, const struct ft_rec_record *in)
{
	if (ft_iomem_parse((const char *)in->data, in->len, s->host.page_size, &s->map.ram))
		memset(&s->map.ram, 0, sizeof(s->map.ram));
	s->have_iomem = true;
}

/* What a held map input starts with; its data follows. */
struct held {
	uint64_t len, t_ns;
	uint16_t type, sub;
	uint32_t pad;
};

/* A copy of map input @in until the first tick lays the zones out. */
static void hold_kpf(struct ft_session *s, const struct ft_rec_record *in)
{
	struct held h = { .len = in->len, .t_ns = in->t_ns, .type = in->type, .sub = in->sub };
	size_t need = sizeof(h) + in->len;

	if (s->kpf_early_len + need > FT_SESSION_KPF_EARLY) {
		bad(s, in, "map batch before the first tick: past what is held");
		return;
	}
	if (ft_grow_from((void **)&s->kpf_early, &s->kpf_early_cap, s->kpf_early_len + need, 1, 1u << 16,
			 FT_SESSION_KPF_EARLY)) {
		bad(s, in, "map batch before the first tick: out of memory");
		return;
	}
	memcpy(s->kpf_early + s->kpf_early_len, &h, sizeof(h));
	memcpy(s->kpf_early + s->kpf_early_len + sizeof(h), in->data, in->len);
	s->kpf_early_len += need;
}

static void apply_kpf(struct ft_session *s, const struct ft_rec_record *in);

/* The map input held for the first tick, now that it laid the zones out (or could not). */
static void release_kpf(struct ft_session *s)
{
	uint8_t *buf = s->kpf_early;
	size_t off = 0, len = s->kpf_early_len;

	/* taken off first: without a layout yet they are held again, for the next tick */
	s->kpf_early = NULL;
	s->kpf_early_len = 0;
	s->kpf_early_cap = 0;
	while (off + sizeof(struct held) <= len) {
		struct held h;
		struct ft_rec_record in;

		memcpy(&h, buf + off, sizeof(h));
		in = (struct ft_rec_record){ .type = h.type, .sub = h.sub, .len = (uint32_t)h.len, .t_ns = h.t_ns,
					     .data = buf + off + sizeof(h) };
		apply_kpf(s, &in);
		off += sizeof(h) + h.len;
	}
	free(buf);
}

/* u64 first PFN, then kpageflags words, then kpagecount words; whole blocks of zone @sub. */
static void apply_kpf(struct ft_session *s, const struct ft_rec_record *in)
{
	uint64_t pfn, words, per, block;
	size_t z = in->sub & ~(unsigned int)(FT_KPF_RESCAN | FT_KPF_SAMPLE);
	bool sample = in->sub & FT_KPF_SAMPLE;
	uint64_t *w;

	map_layout(s);
	if (in->len < 8 || (in->len - 8) % 16) {
		bad(s, in, "map batch: not a PFN and whole words");
		return;
	}
	if (s->map.order < 0 && !s->ticks) {	/* before the first tick: for it */
		hold_kpf(s, in);
		return;
	}
	if (s->map.order < 0) {
		bad(s, in, "map batch: the zones have no layout");
		return;
	}
	memcpy(&pfn, in->data, 8);
	words = (in->len - 8) / 16;
	per = 1ull << s->map.order;
	if (z >= s->map.nr || pfn % per || (!sample && words % per) || (sample && words > per)) {
		bad(s, in, "map batch: zone, PFN or length not the layout's");
		return;
	}
	block = pfn >> s->map.order;
	if (block < s->map.zones[z].first_block ||
	    block + (sample ? 1 : words / per) > s->map.zones[z].first_block + s->map.zones[z].nr_blocks) {
		bad(s, in, "map batch: blocks outside the zone");
		return;
	}
	/* the words are not aligned in the record: copy them */
	w = malloc(words * 16);
	if (!w)
		return;
	memcpy(w, in->data + 8, words * 16);
	if (sample) {
		if (!ft_pbmap_sample(&s->map, z, (uint32_t)(block - s->map.zones[z].first_block), words, w,
				     w + words))
			bad(s, in, "map sample: not understood");
	} else {
		ft_pbmap_feed(&s->map, z, (uint32_t)(block - s->map.zones[z].first_block),
			      (uint32_t)(words / per), w, w + words, in->sub & FT_KPF_RESCAN);
	}
	free(w);
	s->map_err = 0;
}

/* The int32 -errno of an input with FT_INPUT_ERR. */
static int input_err(const struct ft_rec_record *in)
{
	int32_t e = -EIO;

	if (in->len == 4)
		memcpy(&e, in->data, 4);
	return e < 0 && e > -4096 ? e : -EIO;
}

static void apply_knob(struct ft_session *s, const struct ft_rec_record *in)
{
	unsigned int k = in->sub & ~(unsigned int)FT_INPUT_ERR;

	if (k >= ft_knobs_nr || k >= FT_SESSION_MAX_KNOBS) {
		bad(s, in, "a knob this build has no slot for");
		return;
	}
	if (in->sub & FT_INPUT_ERR) {
		memset(&s->knobs[k], 0, sizeof(s->knobs[k]));
		s->knobs[k].err = input_err(in);
		return;
	}
	/* a value that changes (by fragtop or anyone else) marks the history */
	if (!s->knobs[k].err && s->knobs[k].raw_len &&
	    (s->knobs[k].raw_len != in->len || memcmp(s->knobs[k].raw, in->data, in->len)))
		s->mark_pending = (uint8_t)(k + 1);
	ft_knob_parse(&ft_knobs[k], (const char *)in->data, in->len, &s->knobs[k]);
}

static void apply_audit(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_session_audit *a;
	const char *t = (const char *)in->data;

	if (ft_grow_from((void **)&s->audits, &s->cap_audits, s->nr_audits + 1, sizeof(*s->audits), 16,
			 FT_SESSION_MAX_AUDITS)) {
		s->audits_dropped++;
		return;
	}
	a = &s->audits[s->nr_audits++];
	memset(a, 0, sizeof(*a));
	a->t_ns = in->t_ns;
	a->tick = s->ticks;
	field(t, in->len, "knob", a->knob, sizeof(a->knob));
	field(t, in->len, "old", a->old, sizeof(a->old));
	field(t, in->len, "new", a->new, sizeof(a->new));
	field(t, in->len, "how", a->how, sizeof(a->how));
	field(t, in->len, "outcome", a->outcome, sizeof(a->outcome));
	field(t, in->len, "msg", a->msg, sizeof(a->msg));
}

static void apply_boost(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_boost_tick t[FT_BOOST_ZONES];
	int n, i;

	/* no stack bytes in the padding: a checkpoint's bytes are the state's */
	memset(t, 0, sizeof(t));
	n = ft_boost_decode(in->data, in->len, t, FT_BOOST_ZONES);
	if (n < 0) {
		bad(s, in, "boost sampler tick: not understood");
		return;
	}
	if (n != s->boost_nr)	/* zones came or went: the sums start again */
		memset(s->boost_total, 0, sizeof(s->boost_total));
	s->boost_nr = n;
	for (i = 0; i < n; i++) {
		s->boost[i] = t[i];
		ft_boost_sum(&s->boost_total[i], &t[i]);
	}
	s->boost_ticks++;
	s->boost_fresh = true;
}

const struct ft_boost_tick *ft_session_boost(const struct ft_session *s, size_t zi_index)
{
	return zi_index < (size_t)s->boost_nr ? &s->boost[zi_index] : NULL;
}

/* u32 pid, then the command (at most 31 bytes, no NUL needed). */
static void apply_name(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_session_name *n;
	uint32_t pid;
	size_t len;

	if (in->len < 4 || (in->len == 4) != (in->sub == FT_NAME_EXITED) ||
	    in->len > 4 + sizeof(n->comm) - 1) {
		bad(s, in, "process name: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	if (!pid || pid > (1u << 22)) {
		bad(s, in, "process name: pid out of range");
		return;
	}
	/*
	 * An exit, or another command under a pid (reused): the records still
	 * waiting for the tick came before it, and count for the old process
	 */
	if (in->sub == FT_NAME_EXITED) {
		flush_trace(s);
		ft_procs_exit(&s->events.procs, (int)pid, in->t_ns);
		return;
	}
	{
		const struct ft_proc *p = ft_procs_find(&s->events.procs, (int)pid);
		size_t l = in->len - 4;

		if (p && p->comm[0] && (strlen(p->comm) != l || memcmp(p->comm, in->data + 4, l)))
			flush_trace(s);
	}
	n = &s->names[pid % FT_SESSION_NAMES];
	len = in->len - 4;
	n->pid = (int)pid;
	memcpy(n->comm, in->data + 4, len);
	n->comm[len] = '\0';
	if (strlen(n->comm) == len)	/* a NUL inside is not a command */
		ft_events_name(&s->events, (int)pid, n->comm, in->t_ns);
}

/* u32 pid, u32 tgid */
static void apply_group(struct ft_session *s, const struct ft_rec_record *in)
{
	uint32_t pid, tgid;

	if (in->len != 8) {
		bad(s, in, "thread group: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	memcpy(&tgid, in->data + 4, 4);
	if (!pid || pid > (1u << 22) || !tgid || tgid > (1u << 22)) {
		bad(s, in, "thread group: pid out of range");
		return;
	}
	ft_procs_group(&s->events.procs, (int)pid, (int)tgid);
}

static void apply_cgroup(struct ft_session *s, const struct ft_rec_record *in)
{
	char path[128];
	uint32_t pid;
	size_t len;

	if (in->len < 5 || in->len > 4 + sizeof(path) - 1) {
		bad(s, in, "cgroup: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	len = in->len - 4;
	memcpy(path, in->data + 4, len);
	path[len] = '\0';
	if (!pid || pid > (1u << 22) || strlen(path) != len) {
		bad(s, in, "cgroup: pid or path");
		return;
	}
	ft_procs_cgroup(&s->events.procs, (int)pid, path);
}

/* A process's smaps_rollup: u32 pid, then the file's text (model/cgroup.h's ft_smaps_parse()). */
static void apply_smaps(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_session_smaps *e;
	struct ft_smaps v;
	uint32_t pid;

	if (in->len < 4 || in->len > 4 + FT_REC_SMAPS_TEXT) {
		bad(s, in, "smaps: length");
		return;
	}
	memcpy(&pid, in->data, 4);
	if (!pid || pid > (1u << 22) || ft_smaps_parse((const char *)in->data + 4, in->len - 4, &v)) {
		bad(s, in, "smaps: pid or text");
		return;
	}
	e = &s->smaps[pid % FT_SESSION_SMAPS];
	*e = (struct ft_session_smaps){ .pid = (int32_t)pid, .t_ns = in->t_ns, .v = v };
}

const struct ft_session_smaps *ft_session_smaps(const struct ft_session *s, int pid)
{
	const struct ft_session_smaps *e;

	if (pid <= 0)
		return NULL;
	e = &s->smaps[(unsigned int)pid % FT_SESSION_SMAPS];
	return e->pid == pid ? e : NULL;
}

const char *ft_session_name(const struct ft_session *s, int pid)
{
	const struct ft_session_name *n;

	if (pid <= 0)
		return NULL;
	n = &s->names[(unsigned int)pid % FT_SESSION_NAMES];
	return n->pid == pid ? n->comm : NULL;
}

/*
 * A /proc text, kept until the tick.  sub has FT_INPUT_ERR set when the
 * source could not be read: the data is then the int32 -errno.
 */
static void apply_proc(struct ft_session *s, const struct ft_rec_record *in)
{
	int src = in->sub & ~FT_INPUT_ERR;

	if (src >= FT_SRC_NR) {
		bad(s, in, "a /proc source this build does not know");
		return;
	}
	if (in->len + 1 > s->pending[src].cap) {
		char *n = realloc(s->pending[src].buf, in->len + 1);

		if (!n) {
			bad(s, in, "a /proc text: out of memory");
			return;
		}
		s->pending[src].buf = n;
		s->pending[src].cap = in->len + 1;
	}
	memcpy(s->pending[src].buf, in->data, in->len);
	s->pending[src].buf[in->len] = '\0';
	s->pending[src].len = in->len;
	s->pending_fresh[src] = true;
	s->pending_err[src] = in->sub & FT_INPUT_ERR ? input_err(in) : 0;
}

/* @h's non-empty buckets into @lc (kept as they were when memory runs out: counted short). */
static void lat_cells_set(struct ft_lat_cells *lc, const struct ft_hist *h)
{
	size_t need = 0;
	unsigned int b;

	lc->nr = 0;
	for (b = 0; b < FT_HIST_BUCKETS; b++)
		need += (size_t)(h->bucket[b] / UINT32_MAX) + (h->bucket[b] % UINT32_MAX != 0);
	if (need > lc->cap && ft_grow((void **)&lc->c, &lc->cap, need, sizeof(*lc->c), SIZE_MAX / 16))
		return;
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		uint64_t n = h->bucket[b];

		for (; n; n -= n > UINT32_MAX ? UINT32_MAX : n)
			lc->c[lc->nr++] = (struct ft_hist_cell){ b, (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n) };
	}
}

/* Ring tick @slot's histogram of @src added to @out. */
static void lat_merge(const struct ft_session *s, size_t slot, int src, struct ft_hist *out)
{
	const struct ft_lat_tick *t = &s->lat_ring[slot];
	const struct ft_lat_cells *lc = &s->lat_cells[slot][src];
	size_t k;

	out->count += t->count[src];
	out->sum_us += t->sum_us[src];
	if (t->max_us[src] > out->max_us)
		out->max_us = t->max_us[src];
	for (k = 0; k < lc->nr; k++)
		if (lc->c[k].bucket < FT_HIST_BUCKETS)
			out->bucket[lc->c[k].bucket] += lc->c[k].n;
}

/* This tick's stall latencies (the growth of events.lat since the last) into the ring. */
static void push_lat_tick(struct ft_session *s, uint64_t now)
{
	size_t slot = s->lat_ring_n++ % FT_LAT_RING;
	struct ft_lat_tick *t = &s->lat_ring[slot];
	struct ft_hist d;
	int i;

	t->from_ns = s->ticks ? s->tick_t_ns : now;
	t->to_ns = now;
	for (i = 0; i < FT_LAT_NR; i++) {
		/* a source without stalls this tick writes nothing but its zeros */
		if (s->events.lat[i].count == s->lat_prev[i].count) {
			t->count[i] = t->sum_us[i] = t->max_us[i] = 0;
			s->lat_cells[slot][i].nr = 0;
			continue;
		}
		ft_hist_sub(&d, &s->events.lat[i], &s->lat_prev[i]);
		t->count[i] = d.count;
		t->sum_us[i] = d.sum_us;
		t->max_us[i] = d.max_us;
		lat_cells_set(&s->lat_cells[slot][i], &d);
		s->lat_prev[i] = s->events.lat[i];
	}
}

double ft_session_lat_window(const struct ft_session *s, enum ft_lat_source src, double secs,
			     struct ft_hist *out)
{
	uint64_t have = s->lat_ring_n < FT_LAT_RING ? s->lat_ring_n : FT_LAT_RING, i;
	uint64_t newest = s->tick_t_ns, from = newest;

	if (secs <= 0) {
		*out = s->events.lat[src];
		return s->ticks ? (double)(s->tick_t_ns - s->first_t_ns) / 1e9 : 0;
	}
	memset(out, 0, sizeof(*out));
	for (i = 0; i < have; i++) {
		size_t slot = (size_t)((s->lat_ring_n - 1 - i) % FT_LAT_RING);
		const struct ft_lat_tick *t = &s->lat_ring[slot];

		/* a tick counts when it started within the window (a tenth of a tick's slack) */
		if ((double)(newest - t->from_ns) > secs * 1e9 + (double)(t->to_ns - t->from_ns) / 10)
			break;
		lat_merge(s, slot, src, out);
		from = t->from_ns;
	}
	return (double)(newest - from) / 1e9;
}

bool ft_session_lat_last(const struct ft_session *s, enum ft_lat_source src, struct ft_hist *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->lat_ring_n)
		return false;
	lat_merge(s, (size_t)((s->lat_ring_n - 1) % FT_LAT_RING), src, out);
	return true;
}

const char *const ft_zh_names[FT_ZH_NR] = {
	[FT_ZH_FREE] = "free pages",
	[FT_ZH_UNUSABLE] = "unusable index",
	[FT_ZH_BOOST_PEAK] = "boost peak",
	[FT_ZH_BOOSTED] = "boosted",
	[FT_ZH_FRAG_RATE] = "fragmenting/s",
	[FT_ZH_IN_BLOCKS] = "free in pageblocks",
};

/* This tick's values into the history rings. */
static void push_history(struct ft_session *s, uint64_t now)
{
	const struct ft_sample *sm = &s->sample;
	size_t slot = s->history_n++ % FT_HISTORY_LEN, i, k;
	size_t nz = sm->nr_zones < FT_BOOST_ZONES ? sm->nr_zones : FT_BOOST_ZONES;
	int pbo = sm->pageblock_order, m;

	/*
	 * Only the zones the host has are written: the rings of the other
	 * FT_BOOST_ZONES were 0.9 MiB touched every tick.  A zone seen for
	 * the first time has no past: NAN all along.
	 */
	for (i = s->history_zones; i < nz; i++)
		for (m = 0; m < FT_ZH_NR; m++)
			for (k = 0; k < FT_HISTORY_LEN; k++)
				s->zone_history[i][m][k] = NAN;
	if (nz > s->history_zones)
		s->history_zones = nz;
	for (i = 0; i < s->history_zones; i++)
		for (m = 0; m < FT_ZH_NR; m++)
			s->zone_history[i][m][slot] = NAN;
	for (i = 0; i < sm->nr_zones && i < FT_BOOST_ZONES; i++) {
		const struct ft_zone *z = &sm->zones[i];
		const struct ft_zi_zone *zi = z->zi;
		float *h[FT_ZH_NR];
		double fb, frag;

		for (m = 0; m < FT_ZH_NR; m++)
			h[m] = &s->zone_history[i][m][slot];
		if (!zi)
			continue;
		*h[FT_ZH_FREE] = (float)zi->free;
		if (z->bi && pbo >= 0 && pbo < sm->nr_orders)
			*h[FT_ZH_UNUSABLE] = (float)z->unusable[pbo] / 1000.0f;
		if (s->boost_nr && (int)i < s->boost_nr) {
			*h[FT_ZH_BOOST_PEAK] = (float)s->boost[i].peak;
			*h[FT_ZH_BOOSTED] = s->boost[i].samples ?
				(float)s->boost[i].boosted / (float)s->boost[i].samples : 0;
		} else if (zi->has & FT_ZI_BOOST) {
			*h[FT_ZH_BOOST_PEAK] = (float)zi->boost;
		}
		ft_session_zone_extfrag_rate(s, zi->node, zi->name, &fb, &frag);
		*h[FT_ZH_FRAG_RATE] = (float)frag;
		/* the kernel's own fragmentation gauge (6.15+): absent stays NAN, never 0 */
		if (zi->has & FT_ZI_FREE_BLOCKS && zi->free)
			*h[FT_ZH_IN_BLOCKS] = (float)((double)zi->free_blocks / (double)zi->free);
	}
	s->stall_history[slot] = sm->has_prev ? (float)sm->rates.v[FT_RATE_COMPACT_STALL] : NAN;
	s->history_t_ns[slot] = now;
	s->history_mark[slot] = s->mark_pending;
	s->mark_pending = 0;
}

void ft_session_history(const struct ft_session *s, int zi, enum ft_zh_metric m,
			unsigned long back, int n, double *out, uint8_t *marks, uint64_t *t_ns)
{
	uint64_t have = s->history_n < FT_HISTORY_LEN ? s->history_n : FT_HISTORY_LEN;
	int i;

	for (i = 0; i < n; i++) {
		/* out[n - 1] is @back ticks before the newest */
		uint64_t age = back + (uint64_t)(n - 1 - i);
		size_t slot;

		if (age >= have || (zi >= 0 && (size_t)zi >= s->history_zones) || m >= FT_ZH_NR) {
			out[i] = NAN;
			if (marks)
				marks[i] = 0;
			if (t_ns)
				t_ns[i] = 0;
			continue;
		}
		slot = (s->history_n - 1 - age) % FT_HISTORY_LEN;
		out[i] = zi < 0 ? s->stall_history[slot] : s->zone_history[zi][m][slot];
		if (marks)
			marks[i] = s->history_mark[slot];
		if (t_ns)
			t_ns[i] = s->history_t_ns[slot];
	}
}

/*
 * The counters' first values: read once, at the first tick that has
 * /proc/vmstat (a row absent then is absent on this kernel), so no tick
 * after it pays for the read.
 */
static void counters_first(struct ft_session *s)
{
	if (s->counter_first_have || !ft_sample_has(&s->sample, FT_SRC_VMSTAT))
		return;
	s->counter_first_have = ft_counters_read(s, s->counter_first);
}

/* This tick into the direct compaction cost (struct ft_direct_cost), or left out. */
static void direct_tick(struct ft_session *s)
{
	static const enum ft_cf take[6] = {
		FT_CF_MIGRATE_SCANNED, FT_CF_DAEMON_MIGRATE_SCANNED, FT_CF_FREE_SCANNED,
		FT_CF_DAEMON_FREE_SCANNED, FT_CF_COMPACT_STALL, FT_CF_COMPACT_SUCCESS,
	};
	struct ft_direct_cost *d = &s->direct;
	int64_t v[FT_CF_NR], g[6];
	bool foreign = s->events.bg_foreign != s->direct_foreign_prev;
	uint32_t have;
	int i;

	if (!ft_sample_has(&s->sample, FT_SRC_VMSTAT))
		return;
	have = ft_counters_read(s, v);
	if (!(have & (1u << FT_CF_MIGRATE_SCANNED)))
		return;
	for (i = 0; i < 6; i++) {	/* growth, 0 where a counter went back */
		g[i] = v[take[i]] > s->direct_prev[i] ? v[take[i]] - s->direct_prev[i] : 0;
		s->direct_prev[i] = v[take[i]];
	}
	s->direct_foreign_prev = s->events.bg_foreign;
	if (!s->direct_have_prev) {	/* the first tick is the base */
		s->direct_have_prev = true;
		return;
	}
	if (foreign || s->direct_taint) {
		s->direct_taint = foreign;
		d->ticks_out++;
		d->stalls_out += g[4];
		return;
	}
	d->ticks++;
	d->migrate += g[0] - g[1];
	d->free += g[2] - g[3];
	d->stalls += g[4];
	d->success += g[5];
}

static void apply_tick(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_raw raw = { .t_ns = in->t_ns };
	uint64_t rt = 0;
	int i;

	for (i = 0; i < FT_SRC_NR; i++) {
		raw.src[i].fresh = s->pending_fresh[i];
		if (s->lean && i != FT_SRC_VMSTAT && i != FT_SRC_PRESSURE && s->ticks % s->lean && s->ticks)
			raw.src[i].fresh = false;
		raw.src[i].err = s->pending_err[i];
		raw.src[i].buf = s->pending[i].buf;
		raw.src[i].len = s->pending[i].len;
		s->pending_fresh[i] = false;
	}
	ft_sample_update(&s->sample, &raw);
	/* a tick without the sampler's record (one lost, or none made): nothing seen */
	if (!s->boost_fresh)
		memset(s->boost, 0, sizeof(s->boost));
	s->boost_fresh = false;
	map_layout(s);
	if (s->kpf_early_len)
		release_kpf(s);	/* the map input that came before the first tick */
	if (s->tracing) {
		size_t used = s->nr_trq;

		flush_trace(s);
		trim_trace(s, used);
		ft_events_tick(&s->events);
		sync_events(s);
		update_event_rates(s, in->t_ns);
		push_lat_tick(s, in->t_ns);
	}
	/* a report (lean) reads no history */
	if (!s->lean)
		push_history(s, in->t_ns);
	if (in->len == 8)
		memcpy(&rt, in->data, 8);
	if (!s->ticks) {
		s->first_t_ns = in->t_ns;
		s->first_rt_ns = rt;
	}
	s->tick_t_ns = in->t_ns;
	s->tick_rt_ns = rt;
	s->ticks++;
	if (!s->lean)
		counters_first(s);
	direct_tick(s);
}

/* What the source says of itself: trace and map status, memory, the map scan's cost. */
static void apply_source(struct ft_session *s, const struct ft_rec_record *in)
{
	int32_t e;

	switch (in->sub) {
	case FT_RS_TRACE:
	case FT_RS_MAP:
		if (in->len != 4 || (memcpy(&e, in->data, 4), e > 0)) {
			bad(s, in, "trace or map state: not an errno");
			return;
		}
		if (in->sub == FT_RS_TRACE)
			s->trace_err = e;
		else
			s->map_err = e;
		return;
	case FT_RS_OWNER:
		if (in->len != 4 || (memcpy(&e, in->data, 4), e > 0)) {
			bad(s, in, "page_owner state: not an errno");
			return;
		}
		s->owner_src.err = e;
		s->owner_src.known = true;
		return;
	case FT_RS_MEMORY:
		if (in->len != 16) {
			bad(s, in, "meminfo figures: length");
			return;
		}
		memcpy(&s->mem_total_kb, in->data, 8);
		memcpy(&s->mem_avail_kb, in->data + 8, 8);
		return;
	case FT_RS_STACKS:
		if (in->len != 8 || (memcpy(&e, in->data, 4), e > 0)) {
			bad(s, in, "stacks budget: not understood");
			return;
		}
		s->stacks_src.err = e;
		memcpy(&s->stacks_src.per_sec, in->data + 4, 4);
		s->stacks_src.known = true;
		return;
	case FT_RS_MAPSCAN:
		if (in->len != 32 && in->len != 40) {	/* 32: before rescans_deferred */
			bad(s, in, "map scan figures: length");
			return;
		}
		memcpy(&s->mapscan.cpu, in->data, 8);
		memcpy(&s->mapscan.rescans, in->data + 8, 8);
		memcpy(&s->mapscan.rescans_late, in->data + 16, 8);
		memcpy(&s->mapscan.lag_max_ns, in->data + 24, 8);
		s->mapscan.rescans_deferred = 0;
		if (in->len == 40)
			memcpy(&s->mapscan.rescans_deferred, in->data + 32, 8);
		if (!isfinite(s->mapscan.cpu))
			s->mapscan.cpu = 0;
		s->mapscan.known = true;
		return;
	case FT_RS_MAP_CHECK:
		snprintf(s->map_check, sizeof(s->map_check), "%.*s",
			 (int)(in->len < sizeof(s->map_check) ? in->len : sizeof(s->map_check) - 1),
			 (const char *)in->data);
		return;
	case FT_RS_COST: {
		struct ft_cost c;

		if (ft_costrec_decode(in->data, in->len, &c)) {
			bad(s, in, "cost account: not understood");
			return;
		}
		ft_costrec_push(&s->cost, &c, in->t_ns);
		return;
	}
	default:
		return;	/* a newer kind */
	}
}

/* Multi-size THP's tick: the one before kept for rates. */
/* The memory cgroups: the table is made at the first CGROUPS input, replaced by each. */
static void apply_cgroups(struct ft_session *s, const struct ft_rec_record *in)
{
	if (!s->cgroups) {
		s->cgroups = calloc(1, sizeof(*s->cgroups));
		if (!s->cgroups) {
			bad(s, in, "cgroups: out of memory");
			return;
		}
		s->cap_cgroups = 1;
	}
	s->nr_cgroups = 1;
	if (ft_cgroups_parse((const char *)in->data, in->len, s->cgroups))
		bad(s, in, "cgroups: lines not understood");
}

static void apply_thp(struct ft_session *s, const struct ft_rec_record *in)
{
	s->thp_prev = s->thp;
	s->thp_prev_t_ns = s->thp_t_ns;
	if (ft_thp_parse((const char *)in->data, in->len, &s->thp))
		bad(s, in, "THP by size: not understood");
	s->thp_t_ns = in->t_ns;
	s->thp_ticks++;
}

/* A stack frame's name: u64 address, then the name (untrusted: checked by ft_symnames_add()). */
static void apply_ksym(struct ft_session *s, const struct ft_rec_record *in)
{
	uint64_t addr;
	int err;

	if (in->len <= 8) {
		bad(s, in, "kernel symbol: no name");
		return;
	}
	memcpy(&addr, in->data, 8);
	err = ft_symnames_add(&s->syms, addr, (const char *)in->data + 8, in->len - 8);
	if (err == -EINVAL)
		bad(s, in, "kernel symbol: not understood");
}

/* Drop the oldest half of the page_owner looks and pack the texts of the rest. */
static void owners_trim(struct ft_session *s)
{
	size_t drop = (s->nr_owners + 1) / 2, i, at = 0;

	memmove(s->owners, s->owners + drop, (s->nr_owners - drop) * sizeof(*s->owners));
	s->nr_owners -= drop;
	for (i = 0; i < s->nr_owners; i++) {	/* offsets ascend: packing moves text down */
		struct ft_owner_look *o = &s->owners[i];

		memmove(s->owner_text + at, s->owner_text + o->text_off, o->text_len + 1);
		o->text_off = at;
		at += o->text_len + 1;
	}
	s->owner_text_len = at;
}

/* show_stacks: u32 flags, then the text (untrusted; parsed when read), kept until the next. */
static void apply_owner_stacks(struct ft_session *s, const struct ft_rec_record *in)
{
	uint32_t flags;
	size_t tlen;

	if (in->len < 4 || in->len - 4 > FT_REC_OWNER_STACKS_TEXT) {
		bad(s, in, "page_owner stacks: length");
		return;
	}
	memcpy(&flags, in->data, 4);
	tlen = in->len - 4;
	if (ft_grow_from((void **)&s->owner_stacks, &s->owner_stacks_cap, tlen + 1, 1, 65536,
			 FT_REC_OWNER_STACKS_TEXT + 1))
		return;
	memcpy(s->owner_stacks, in->data + 4, tlen);
	s->owner_stacks[tlen] = '\0';
	s->owner_stacks_len = tlen + 1;	/* with its NUL, which a checkpoint then carries */
	s->owner_src.stacks_t_ns = in->t_ns;
	s->owner_src.stacks_cut = flags & FT_OWNER_STACKS_CUT;
}

/* A look at a block's page_owner: struct ft_rec_owner, then text (untrusted; parsed when read). */
static void apply_owner(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_owner_look o = { .t_ns = in->t_ns };
	size_t tlen, i, need;

	if (in->sub == FT_OWNER_STACKS) {
		apply_owner_stacks(s, in);
		return;
	}
	if (in->sub)
		return;	/* a newer kind of look */

	if (in->len < FT_REC_OWNER_HDR || in->len - FT_REC_OWNER_HDR > FT_REC_OWNER_TEXT) {
		bad(s, in, "page_owner look: length");
		return;
	}
	memcpy(&o.pfn, in->data, 8);
	memcpy(&o.pages, in->data + 8, 4);
	memcpy(&o.entries, in->data + 12, 4);
	memcpy(&o.other_pages, in->data + 16, 8);
	memcpy(&o.cut, in->data + 24, 4);
	tlen = in->len - FT_REC_OWNER_HDR;
	if (!o.pages || o.pages > (1u << 20) || o.pfn > UINT64_MAX - o.pages) {
		bad(s, in, "page_owner look: pages out of range");
		return;
	}
	/* the newest look of a block replaces the one before */
	for (i = 0; i < s->nr_owners && s->owners[i].pfn != o.pfn; i++)
		;
	if (i < s->nr_owners) {
		memmove(s->owners + i, s->owners + i + 1, (s->nr_owners - i - 1) * sizeof(*s->owners));
		s->nr_owners--;
	}
	if (s->nr_owners == FT_SESSION_OWNER_LOOKS || s->owner_text_len + tlen + 1 > FT_SESSION_OWNER_TEXT)
		owners_trim(s);
	if (s->owner_text_len + tlen + 1 > FT_SESSION_OWNER_TEXT)
		owners_trim(s);	/* packs what the look before left */
	if (ft_grow((void **)&s->owners, &s->cap_owners, s->nr_owners + 1, sizeof(*s->owners),
		    FT_SESSION_OWNER_LOOKS))
		return;
	need = s->owner_text_len + tlen + 1;
	if (ft_grow_from((void **)&s->owner_text, &s->owner_text_cap, need, 1, 65536,
			 FT_SESSION_OWNER_TEXT))
		return;
	memcpy(s->owner_text + s->owner_text_len, in->data + FT_REC_OWNER_HDR, tlen);
	s->owner_text[s->owner_text_len + tlen] = '\0';
	o.text_off = s->owner_text_len;
	o.text_len = (uint32_t)tlen;
	s->owner_text_len = need;
	s->owners[s->nr_owners++] = o;
	s->owner_src.looks++;
}

const struct ft_owner_look *ft_session_owner(const struct ft_session *s, uint64_t pfn)
{
	size_t i;

	for (i = s->nr_owners; i-- > 0;)
		if (s->owners[i].pfn == pfn)
			return &s->owners[i];
	return NULL;
}

int ft_session_apply(struct ft_session *s, const struct ft_rec_record *in)
{
	if (in->t_ns > s->t_ns)
		s->t_ns = in->t_ns;
	switch (in->type) {
	case FT_RR_HOST:
		apply_host(s, in);
		break;
	case FT_RR_TICK:
		apply_tick(s, in);
		return 1;
	case FT_RR_PROC:
		apply_proc(s, in);
		break;
	case FT_RR_KNOB:
		apply_knob(s, in);
		break;
	case FT_RR_TRACE_FMT:
		apply_format(s, in);
		break;
	case FT_RR_TRACE_PAGE:
		apply_page(s, in);
		break;
	case FT_RR_AUDIT:
		apply_audit(s, in);
		break;
	case FT_RR_TRACE_LOST:
		if (in->len == 8)
			memcpy(&s->lost, in->data, 8);
		else
			bad(s, in, "lost-events count: length");
		break;
	case FT_RR_IOMEM:
		apply_iomem(s, in);
		break;
	case FT_RR_KPF:
		apply_kpf(s, in);
		break;
	case FT_RR_NAME:
		apply_name(s, in);
		break;
	case FT_RR_BOOST:
		apply_boost(s, in);
		break;
	case FT_RR_CGROUP:
		apply_cgroup(s, in);
		break;
	case FT_RR_GROUP:
		apply_group(s, in);
		break;
	case FT_RR_SOURCE:
		apply_source(s, in);
		break;
	case FT_RR_THP:
		apply_thp(s, in);
		break;
	case FT_RR_KSYM:
		apply_ksym(s, in);
		break;
	case FT_RR_OWNER:
		apply_owner(s, in);
		break;
	case FT_RR_CGROUPS:
		apply_cgroups(s, in);
		break;
	case FT_RR_SMAPS:
		apply_smaps(s, in);
		break;
	default:
		break;	/* a newer input type */
	}
	return 0;
}

int ft_session_contig_order(const struct ft_session *s)
{
	return ft_contig_order(s->host.page_size, s->host.huge_kb, s->host.nr_huge, s->map.order);
}

uint32_t ft_session_contig(const struct ft_session *s, size_t k, struct ft_contig_zone *c,
			   struct ft_contig_region *out, size_t cap)
{
	const struct ft_pbmap_zone *z = &s->map.zones[k];
	uint64_t kfree = UINT64_MAX;
	size_t i;

	for (i = 0; i < s->sample.zoneinfo.nr; i++) {
		const struct ft_zi_zone *zi = &s->sample.zoneinfo.zones[i];

		if (zi->node == z->node && !strcmp(zi->name, z->name) && zi->has & FT_ZI_FREE)
			kfree = zi->free;
	}
	return ft_contig_zone(&s->map, z, ft_session_contig_order(s), kfree, c, out, cap);
}
