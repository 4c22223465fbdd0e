// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/session.h"
#include "model/session_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/zero.h"
#include "model/counterfield.h"
#include "base/text.h"

void ft_session_init(struct ft_session *s)
{
	size_t i;

	ft_zero(s, sizeof(*s));	/* a calloc'd session's rings stay out of RSS until they fill */
	ft_hostfacts_init(&s->host);
	ft_sample_init(&s->sample);
	ft_pbmap_init(&s->map);
	ft_events_init(&s->events, -1);
	ft_session_trace_hooks(s);
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
	ft_owners_release(&s->owners);
	free(s->cgroups);
	ft_trq_release(&s->trq);
	free(s->kpf_early);
	ft_latring_release(&s->lat);
	ft_symnames_release(&s->syms);
	ft_zero(s, sizeof(*s));
}

double ft_session_pti_age(const struct ft_session *s)
{
	if (!ft_sample_has(&s->sample, FT_SRC_PAGETYPEINFO))
		return -1;
	return (double)(s->tick_t_ns - s->sample.src_t_ns[FT_SRC_PAGETYPEINFO]) / 1e9;
}

static void apply_host(struct ft_session *s, const struct ft_rec_record *in)
{
	ft_hostfacts_parse(&s->host, (const char *)in->data, in->len);
	s->sample.pageblock_order_fallback = s->host.pageblock_order;
}

/* A malformed input, skipped: counted, and the first ones said (report -v). */
void ft_session_bad(struct ft_session *s, const struct ft_rec_record *in, const char *why)
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
		ft_session_bad(s, in, "a knob this build has no slot for");
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

	if (ft_grow_from((void **)&s->audits, &s->cap_audits, s->nr_audits + 1, sizeof(*s->audits),
			 16,
			 FT_SESSION_MAX_AUDITS)) {
		s->audits_dropped++;
		return;
	}
	a = &s->audits[s->nr_audits++];
	memset(a, 0, sizeof(*a));
	a->t_ns = in->t_ns;
	a->tick = s->ticks;
	ft_text_kv(t, in->len, "knob", a->knob, sizeof(a->knob));
	ft_text_kv(t, in->len, "old", a->old, sizeof(a->old));
	ft_text_kv(t, in->len, "new", a->new, sizeof(a->new));
	ft_text_kv(t, in->len, "how", a->how, sizeof(a->how));
	ft_text_kv(t, in->len, "outcome", a->outcome, sizeof(a->outcome));
	ft_text_kv(t, in->len, "msg", a->msg, sizeof(a->msg));
	ft_text_kv(t, in->len, "by", a->by, sizeof(a->by));
	{
		char num[24] = "";

		ft_text_kv(t, in->len, "pid", num, sizeof(num));
		a->pid = atoi(num);
		num[0] = '\0';
		ft_text_kv(t, in->len, "uid", num, sizeof(num));
		a->uid = (uint32_t)strtoul(num, NULL, 10);
	}
}

static void apply_boost(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_boost_tick t[FT_BOOST_ZONES];
	int n, i;

	/* no stack bytes in the padding: a checkpoint's bytes are the state's */
	memset(t, 0, sizeof(t));
	n = ft_boost_decode(in->data, in->len, t, FT_BOOST_ZONES);
	if (n < 0) {
		ft_session_bad(s, in, "boost sampler tick: not understood");
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

/* A /proc text, kept until the tick (sub's FT_INPUT_ERR: unread, the data its int32 -errno). */
static void apply_proc(struct ft_session *s, const struct ft_rec_record *in)
{
	int src = in->sub & ~FT_INPUT_ERR;

	if (src >= FT_SRC_NR) {
		ft_session_bad(s, in, "a /proc source this build does not know");
		return;
	}
	if (in->len + 1 > s->pending[src].cap) {
		char *n = realloc(s->pending[src].buf, in->len + 1);

		if (!n) {
			ft_session_bad(s, in, "a /proc text: out of memory");
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

double ft_session_lat_window(const struct ft_session *s, enum ft_lat_source src, double secs,
			     struct ft_hist *out)
{
	if (secs <= 0) {
		*out = s->events.lat[src];
		return s->ticks ? (double)(s->tick_t_ns - s->first_t_ns) / 1e9 : 0;
	}
	return ft_latring_window(&s->lat, src, secs, s->tick_t_ns, out);
}

/* This tick's values into the history rings. */
static void push_history(struct ft_session *s, uint64_t now)
{
	const struct ft_sample *sm = &s->sample;
	float v[FT_BOOST_ZONES][FT_ZH_NR];
	size_t nz = sm->nr_zones < FT_BOOST_ZONES ? sm->nr_zones : FT_BOOST_ZONES, i;
	int pbo = sm->pageblock_order, m;

	for (i = 0; i < nz; i++) {
		const struct ft_zone *z = &sm->zones[i];
		const struct ft_zi_zone *zi = z->zi;
		double fb, frag;

		for (m = 0; m < FT_ZH_NR; m++)
			v[i][m] = NAN;
		if (!zi)
			continue;
		v[i][FT_ZH_FREE] = (float)zi->free;
		if (z->bi && pbo >= 0 && pbo < sm->nr_orders)
			v[i][FT_ZH_UNUSABLE] = (float)z->unusable[pbo] / 1000.0f;
		if (s->boost_nr && (int)i < s->boost_nr) {
			v[i][FT_ZH_BOOST_PEAK] = (float)s->boost[i].peak;
			v[i][FT_ZH_BOOSTED] = s->boost[i].samples ?
				(float)s->boost[i].boosted / (float)s->boost[i].samples : 0;
		} else if (zi->has & FT_ZI_BOOST) {
			v[i][FT_ZH_BOOST_PEAK] = (float)zi->boost;
		}
		ft_session_zone_extfrag_rate(s, zi->node, zi->name, &fb, &frag);
		v[i][FT_ZH_FRAG_RATE] = (float)frag;
		/* the kernel's own fragmentation gauge (6.15+): absent stays NAN, never 0 */
		if (zi->has & FT_ZI_FREE_BLOCKS && zi->free)
			v[i][FT_ZH_IN_BLOCKS] = (float)((double)zi->free_blocks / (double)zi->free);
	}
	ft_history_push(&s->hist, (const float (*)[FT_ZH_NR])v, nz,
			sm->has_prev ? (float)sm->rates.v[FT_RATE_COMPACT_STALL] : NAN, now,
			s->mark_pending);
	s->mark_pending = 0;
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

/* This tick into the direct compaction cost (model/direct.h). */
static void direct_tick(struct ft_session *s)
{
	int64_t v[FT_CF_NR];

	if (ft_sample_has(&s->sample, FT_SRC_VMSTAT))
		ft_direct_tick(&s->direct, v, ft_counters_read(s, v), s->events.bg_foreign);
}

static void apply_tick(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_rec_record held = *in;
	struct ft_raw raw = { .t_ns = in->t_ns };
	uint64_t rt = 0;
	int i;

	/* a clock run back (none of fragtop's does): held */
	if (s->ticks && in->t_ns < s->tick_t_ns) {
		ft_session_bad(s, in, "tick: earlier than the tick before (held at its time)");
		held.t_ns = raw.t_ns = s->tick_t_ns;
		in = &held;
	}

	for (i = 0; i < FT_SRC_NR; i++) {
		raw.src[i].fresh = s->pending_fresh[i];
		if (s->lean && i != FT_SRC_VMSTAT && i != FT_SRC_PRESSURE && s->ticks % s->lean &&
		    s->ticks)
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
	ft_session_map_tick(s);
	if (s->tracing)
		ft_session_trace_tick(s, in->t_ns);
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

/* The kernel log's state: whether it is read, and the records it overwrote unread. */
static void apply_kmsg_state(struct ft_session *s, const struct ft_rec_record *in)
{
	int32_t e;

	if (in->len != 12 || (memcpy(&e, in->data, 4), e > 0)) {
		ft_session_bad(s, in, "kernel log state: not an errno and a count");
		return;
	}
	s->kmsg.known = true;
	s->kmsg.err = e;
	memcpy(&s->kmsg.lost, in->data + 4, 8);
}

/* A page allocation failure from the kernel log. */
static void apply_kmsg(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_kmsg_fail f;

	if (in->len >= FT_KMSG_TEXT || ft_kmsg_parse((const char *)in->data, in->len, &f)) {
		ft_session_bad(s, in, "kernel log: not a page allocation failure");
		return;
	}
	ft_kmsg_add(&s->kmsg, &f);
}

/* What the source says of itself: trace and map status, memory, the map scan's cost. */
static void apply_source(struct ft_session *s, const struct ft_rec_record *in)
{
	int32_t e;

	switch (in->sub) {
	case FT_RS_TRACE:
	case FT_RS_MAP:
		if (in->len != 4 || (memcpy(&e, in->data, 4), e > 0)) {
			ft_session_bad(s, in, "trace or map state: not an errno");
			return;
		}
		if (in->sub == FT_RS_TRACE)
			s->trace_err = e;
		else
			s->map_err = e;
		return;
	case FT_RS_OWNER:
		if (in->len != 4 || (memcpy(&e, in->data, 4), e > 0)) {
			ft_session_bad(s, in, "page_owner state: not an errno");
			return;
		}
		s->owner_src.err = e;
		s->owner_src.known = true;
		return;
	case FT_RS_MEMORY:
		if (in->len != 16) {
			ft_session_bad(s, in, "meminfo figures: length");
			return;
		}
		memcpy(&s->mem_total_kb, in->data, 8);
		memcpy(&s->mem_avail_kb, in->data + 8, 8);
		return;
	case FT_RS_STACKS:
		if (in->len != 8 || (memcpy(&e, in->data, 4), e > 0)) {
			ft_session_bad(s, in, "stacks budget: not understood");
			return;
		}
		s->stacks_src.err = e;
		memcpy(&s->stacks_src.per_sec, in->data + 4, 4);
		s->stacks_src.known = true;
		return;
	case FT_RS_MAPSCAN:
		if (in->len != 32 && in->len != 40) {	/* 32: before rescans_deferred */
			ft_session_bad(s, in, "map scan figures: length");
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
	case FT_RS_SELF: {
		uint32_t pid;

		if (in->len != 4 || (memcpy(&pid, in->data, 4), !pid || pid > (1u << 22))) {
			ft_session_bad(s, in, "own process: not a pid");
			return;
		}
		s->self_pid = (int)pid;
		return;
	}
	case FT_RS_KMSG:
		apply_kmsg_state(s, in);
		return;
	case FT_RS_COST: {
		struct ft_cost c;

		if (ft_costrec_decode(in->data, in->len, &c)) {
			ft_session_bad(s, in, "cost account: not understood");
			return;
		}
		ft_costrec_push(&s->cost, &c, in->t_ns);
		return;
	}
	default:
		return;	/* a newer kind */
	}
}

/* The memory cgroups: the table is made at the first CGROUPS input, replaced by each. */
static void apply_cgroups(struct ft_session *s, const struct ft_rec_record *in)
{
	if (!s->cgroups) {
		s->cgroups = calloc(1, sizeof(*s->cgroups));
		if (!s->cgroups) {
			ft_session_bad(s, in, "cgroups: out of memory");
			return;
		}
		s->cap_cgroups = 1;
	}
	s->nr_cgroups = 1;
	if (ft_cgroup_table_parse((const char *)in->data, in->len, s->cgroups))
		ft_session_bad(s, in, "cgroups: lines not understood");
}

/* Multi-size THP's tick: the one before kept for rates. */
static void apply_thp(struct ft_session *s, const struct ft_rec_record *in)
{
	s->thp_prev = s->thp;
	s->thp_prev_t_ns = s->thp_t_ns;
	if (ft_thp_parse((const char *)in->data, in->len, &s->thp))
		ft_session_bad(s, in, "THP by size: not understood");
	s->thp_t_ns = in->t_ns;
	s->thp_ticks++;
}

/* A stack frame's name: u64 address, then the name (untrusted: checked by ft_symnames_add()). */
static void apply_ksym(struct ft_session *s, const struct ft_rec_record *in)
{
	uint64_t addr;
	int err;

	if (in->len <= 8) {
		ft_session_bad(s, in, "kernel symbol: no name");
		return;
	}
	memcpy(&addr, in->data, 8);
	err = ft_symnames_add(&s->syms, addr, (const char *)in->data + 8, in->len - 8);
	if (err == -EINVAL)
		ft_session_bad(s, in, "kernel symbol: not understood");
}

/* show_stacks: u32 flags, then the text (untrusted; parsed when read), kept until the next. */
static void apply_owner_stacks(struct ft_session *s, const struct ft_rec_record *in)
{
	uint32_t flags;

	if (in->len < 4 || in->len - 4 > FT_REC_OWNER_STACKS_TEXT) {
		ft_session_bad(s, in, "page_owner stacks: length");
		return;
	}
	memcpy(&flags, in->data, 4);
	if (ft_owners_set_stacks(&s->owners, (const char *)in->data + 4, in->len - 4))
		return;
	s->owner_src.stacks_t_ns = in->t_ns;
	s->owner_src.stacks_cut = flags & FT_OWNER_STACKS_CUT;
}

/* A look at a block's page_owner: struct ft_rec_owner, then text (untrusted; parsed when read). */
static void apply_owner(struct ft_session *s, const struct ft_rec_record *in)
{
	struct ft_owner_look o = { .t_ns = in->t_ns };

	if (in->sub == FT_OWNER_STACKS) {
		apply_owner_stacks(s, in);
		return;
	}
	if (in->sub)
		return;	/* a newer kind of look */

	if (in->len < FT_REC_OWNER_HDR || in->len - FT_REC_OWNER_HDR > FT_REC_OWNER_TEXT) {
		ft_session_bad(s, in, "page_owner look: length");
		return;
	}
	memcpy(&o.pfn, in->data, 8);
	memcpy(&o.pages, in->data + 8, 4);
	memcpy(&o.entries, in->data + 12, 4);
	memcpy(&o.other_pages, in->data + 16, 8);
	memcpy(&o.cut, in->data + 24, 4);
	if (!o.pages || o.pages > (1u << 20) || o.pfn > UINT64_MAX - o.pages) {
		ft_session_bad(s, in, "page_owner look: pages out of range");
		return;
	}
	if (!ft_owners_add(&s->owners, &o, (const char *)in->data + FT_REC_OWNER_HDR,
			   in->len - FT_REC_OWNER_HDR))
		s->owner_src.looks++;
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
		ft_session_trace_format(s, in);
		break;
	case FT_RR_TRACE_PAGE:
		ft_session_trace_page(s, in);
		break;
	case FT_RR_AUDIT:
		apply_audit(s, in);
		break;
	case FT_RR_TRACE_LOST:
		if (in->len == 8)
			memcpy(&s->lost, in->data, 8);
		else
			ft_session_bad(s, in, "lost-events count: length");
		break;
	case FT_RR_IOMEM:
		ft_session_map_iomem(s, in);
		break;
	case FT_RR_KPF:
		ft_session_map_kpf(s, in);
		break;
	case FT_RR_NAME:
		ft_session_proc_name(s, in);
		break;
	case FT_RR_BOOST:
		apply_boost(s, in);
		break;
	case FT_RR_CGROUP:
		ft_session_proc_cgroup(s, in);
		break;
	case FT_RR_GROUP:
		ft_session_proc_group(s, in);
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
		ft_session_proc_smaps(s, in);
		break;
	case FT_RR_KMSG:
		apply_kmsg(s, in);
		break;
	default:
		break;	/* a newer input type */
	}
	return 0;
}

