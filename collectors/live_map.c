// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's pageblock map scan: /proc/kpageflags within a CPU budget, the blocks fallbacks
 * named first.
 */
#include "collectors/live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/zero.h"
#include "collectors/kconfig.h"
#include "model/cost.h"
#include "kernel/kconfig.h"

static void emit_batch(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *flags,
		       const uint64_t *counts)
{
	struct ft_live *l = ctx;
	uint8_t *buf;

	if (words > (FT_REC_CHUNK_MAX / 2 - 8) / 16)
		return;
	/* kept from batch to batch: a block this size malloc'd anew took fresh pages each time */
	if (8 + words * 16 > l->map.batch_cap) {
		buf = realloc(l->map.batch, 8 + words * 16);
		if (!buf)
			return;
		l->map.batch = buf;
		l->map.batch_cap = 8 + words * 16;
	}
	buf = l->map.batch;
	memcpy(buf, &pfn, 8);
	memcpy(buf + 8, flags, words * 8);
	memcpy(buf + 8 + words * 8, counts, words * 8);
	ft_live_emit(l, FT_RR_KPF,
		     (uint16_t)(zone | (l->map.kpf.rescan ? FT_KPF_RESCAN : 0) |
				(l->map.kpf.sampling ? FT_KPF_SAMPLE : 0)),
		     ft_now_ns(), buf,
		     8 + words * 16);
}


/*
 * Before the first read of kpageflags: the kernel's config (kernel/kconfig.h).
 * -ECANCELED where reading it is risky and nobody forced it.
 */
static int map_check_kernel(struct ft_live *l)
{
	char from[64] = "", why[256] = "", found[320], *cfg;
	enum ft_kconfig_risk risk = FT_KCONFIG_SAFE;
	size_t len;

	if (!l->map.checked) {
		l->map.checked = true;
		cfg = ft_kconfigsrc_read(l->procfs.rootfd, l->host.release, &len, from,
					 sizeof(from), why,
				      sizeof(why));
		if (cfg) {
			risk = ft_kconfig_risk(cfg, len, l->host.release, why, sizeof(why));
			free(cfg);
			snprintf(found, sizeof(found), "%s (%s)", why, from);
		} else {
			snprintf(found, sizeof(found), "kernel config unknown: %s", why);
		}
		ft_live_emit(l, FT_RR_SOURCE, FT_RS_MAP_CHECK, ft_now_ns(), found, strlen(found));
		if (risk != FT_KCONFIG_SAFE && !l->map.force) {
			ft_diag(FT_DIAG_WARN, "pageblock map off: %s; --map-force scans anyway",
				why);
			l->map.err = -ECANCELED;
		}
	}
	return l->map.force && l->map.err == -ECANCELED ? 0 : l->map.err;
}

void ft_live_map_force(struct ft_live *l)
{
	l->map.force = true;
	if (l->map.err == -ECANCELED)
		l->map.err = 0;
}

static int map_open(struct ft_live *l)
{
	char *buf;
	long n;
	int err;

	if (l->map.kpf.flags_fd >= 0)
		return 0;
	err = map_check_kernel(l);
	if (err)
		return err;
	err = ft_kpf_open(&l->map.kpf, l->procfs.rootfd);
	if (err) {
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags%s%s",
			err == -EACCES || err == -EPERM ? " " : ": ",
			err == -EACCES || err == -EPERM ? "needs root" : strerror(-err));
		return err;
	}
	l->map.kpf.emit = emit_batch;
	l->map.kpf.emit_ctx = l;
	buf = malloc(1 << 20);
	if (buf) {
		n = ft_file_slurp(l->procfs.rootfd, "proc/iomem", buf, 1 << 20);
		if (n > 0) {
			l->map.iomem = buf;
			l->map.iomem_len = (size_t)n;
			ft_live_emit(l, FT_RR_IOMEM, 0, ft_now_ns(), buf, (size_t)n);
		} else {
			free(buf);
		}
		if (!l->session.map.ram.known)
			ft_diag(FT_DIAG_INFO, "pageblock map: no RAM ranges from /proc/iomem; "
				"holes show only where the kernel says NOPAGE");
	}
	return 0;
}

int ft_live_map_enable(struct ft_live *l, bool on)
{
	l->map.scan = on;
	l->map.last_ns = 0;
	l->map.proc_ns = 0;
	/* rescans are for fallbacks from now on (the pass covers the older ones) */
	l->map.fb_seen = l->session.events.fb_head;
	l->map.rescan_lag_max_ns = 0;
	l->map.rescans = l->map.rescans_late = l->map.rescans_deferred = 0;
	if (!on) {
		/* R's pass ends with the map: nothing reads it meanwhile */
		l->map.kpf.rescanning = false;
		free(l->map.batch);		/* the map off: no resident batch */
		l->map.batch = NULL;
		l->map.batch_cap = 0;
		return 0;
	}
	if (l->map.err)
		return l->map.err;
	l->map.err = map_open(l);
	ft_live_emit_status(l, FT_RS_MAP, l->map.err);
	return l->map.err;
}

/*
 * Queue the blocks the fallbacks traced since the last look named (once
 * each: a bit per block), for a rescan before the round-robin goes on.
 */
static void map_queue_fallbacks(struct ft_live *l)
{
	const struct ft_events *ev = &l->session.events;
	const struct ft_pbmap *m = &l->session.map;
	uint64_t h = l->map.fb_seen;

	if (ev->fb_head - h > FT_EV_FB_RING) {	/* the ring went round: the oldest are gone */
		l->map.fb_missed += ev->fb_head - h - FT_EV_FB_RING;
		h = ev->fb_head - FT_EV_FB_RING;
	}
	for (; h < ev->fb_head; h++) {
		const struct ft_fb_pfn *f = &ev->fb_ring[h % FT_EV_FB_RING];
		int z = ft_pbmap_zone_of(m, f->pfn);
		uint64_t b;

		if (z < 0 || (size_t)z >= FT_LIVE_MAP_ZONES)
			continue;
		b = (f->pfn >> m->order) - m->zones[z].first_block;
		if (b >= m->zones[z].nr_blocks)
			continue;
		if (l->map.queued_n[z] != m->zones[z].nr_blocks) {	/* laid out anew */
			free(l->map.queued[z]);
			l->map.queued[z] = calloc((m->zones[z].nr_blocks + 7) / 8, 1);
			l->map.queued_n[z] = l->map.queued[z] ? m->zones[z].nr_blocks : 0;
		}
		if (!l->map.queued[z] || l->map.queued[z][b / 8] & (1u << (b % 8)))
			continue;
		if (l->map.dirty_n == FT_LIVE_MAP_DIRTY) {
			l->map.fb_missed++;
			continue;
		}
		l->map.queued[z][b / 8] |= (uint8_t)(1u << (b % 8));
		l->map.dirty[l->map.dirty_n++] = (struct ft_live_dirty){
			.zone = (uint32_t)z, .block = (uint32_t)b, .ts = f->ts,
			.poll = l->map.polls,
		};
	}
	l->map.fb_seen = ev->fb_head;
}

/* What the first look may run ahead of the budget, in ns of CPU. */
static double map_borrow_ns(const struct ft_live *l)
{
	return l->map.cpu * FT_LIVE_MAP_FIRST_S * 1e9;
}

int ft_live_map_wait_ms(const struct ft_live *l)
{
	if (!l->map.scan || l->map.err || l->session.map.order < 0 || !l->session.map.nr)
		return -1;
	if (l->map.allow_ns <= -map_borrow_ns(l))
		return -1;
	/* the first look, or a look at the cursor's page owners */
	if (!ft_kpf_first_look(&l->map.kpf, &l->session.map) && !ft_live_owner_cursor_waiting(l))
		return -1;
	return 0;
}

/*
 * The budget is CPU time: map_cpu of the wall time since the last poll
 * (at most a second's worth banked), less what fragtop spent meanwhile,
 * every thread (the ticks, drawing the map, the boost sampler), and less
 * what scans cost, measured on this thread (the kernel's work for
 * kpageflags, our classification, the session input and a recording's
 * write).  --map-cpu is fragtop's in all while the map is open; the scan
 * takes what the rest leaves, and never less than half of it.  It aims a
 * little under (FT_LIVE_MAP_AIM) so that what a window of a minute may
 * find banked at its start (up to a second's worth) does not take the
 * window past the budget.  The PFNs --map-rate allows this poll.
 */
static uint64_t map_budget(struct ft_live *l, uint64_t now)
{
	double aim = l->map.cpu * FT_LIVE_MAP_AIM;
	uint64_t c0, cap = UINT64_MAX;

	if (!l->map.last_ns)	/* a first second's worth right away: the first look */
		l->map.last_ns = now - 1000000000;
	c0 = ft_process_cpu_ns();
	if (l->map.proc_ns && c0 > l->map.proc_ns) {
		/*
		 * The rest is charged up to half the budget: the scan always
		 * keeps the other half, so a fragtop whose ticks cost more (a
		 * trace storm, a sanitizer's build) still paints its map
		 */
		double rest = (double)(c0 - l->map.proc_ns),
		half = aim * (double)(now - l->map.last_ns) / 2;

		l->map.allow_ns -= rest < half ? rest : half;
		l->map.other_ns += c0 - l->map.proc_ns;
	}
	l->map.allow_ns += aim * (double)(now - l->map.last_ns);
	if (l->map.rate)	/* --map-rate: a cap in PFNs per second too */
		cap = (uint64_t)((double)l->map.rate * (double)(now - l->map.last_ns) / 1e9) + 1;
	if (l->map.allow_ns > aim * 1e9)
		l->map.allow_ns = aim * 1e9;
	l->map.last_ns = now;
	return cap;
}

/*
 * The blocks fallbacks named, with up to three quarters of the budget.  A
 * burst may borrow up to three quarters of a second's budget ahead, so
 * the blocks a burst names are read within the tick; the pass pays it
 * back (it waits while the allowance is below zero).  The PFNs read are
 * added to *@pfns; the last scan's result (< 0: an error) is returned.
 */
static long map_dirty_pass(struct ft_live *l, uint64_t c0, uint64_t *pfns)
{
	const struct ft_pbmap *m = &l->session.map;
	size_t done = 0;
	long n = 0;

	while (done < l->map.dirty_n &&
	       (l->map.allow_ns + l->map.cpu * 1e9) * 0.75 -
		       (double)(ft_thread_cpu_ns() - c0) > 0) {
		const struct ft_live_dirty *d = &l->map.dirty[done++];

		if (d->zone < FT_LIVE_MAP_ZONES && l->map.queued[d->zone] &&
		    d->block < l->map.queued_n[d->zone])
			l->map.queued[d->zone][d->block / 8] &= (uint8_t)~(1u << (d->block % 8));
		if (d->zone >= m->nr || d->block >= m->zones[d->zone].nr_blocks)
			continue;	/* laid out anew since */
		n = ft_kpf_scan_block(&l->map.kpf, m, d->zone, d->block);
		if (n < 0)
			break;
		*pfns += (uint64_t)n;
		/* a block a fallback left mixed: whose pages pin it, if page_owner says */
		if (ft_live_owner_open(l) && m->zones[d->zone].blocks[d->block].cls == FT_PB_MIXED)
			ft_live_owner_want(l,
					   (m->zones[d->zone].first_block + d->block) << m->order,
					   1u << m->order, false);
		l->map.rescans++;
		l->map.rescans_deferred += d->poll != l->map.polls;
		if (d->ts && ft_now_ns() > d->ts) {
			uint64_t lag = ft_now_ns() - d->ts;

			if (lag > l->map.rescan_lag_max_ns)
				l->map.rescan_lag_max_ns = lag;
			l->map.rescans_late += lag > FT_LIVE_MAP_LATE;
		}
	}
	memmove(l->map.dirty, l->map.dirty + done, (l->map.dirty_n - done) * sizeof(*l->map.dirty));
	l->map.dirty_n -= done;
	return n;
}

bool ft_live_map_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns(), c0, c1, pfns = 0, cap, samples = l->map.kpf.samples;
	uint64_t looks = l->session.owner_src.looks;
	const struct ft_pbmap *m = &l->session.map;
	long n;

	if (!l->map.scan || l->map.err || m->order < 0 || !m->nr || l->map.kpf.rescanning)
		return false;	/* (a rescan's steps move the cursor now) */
	cap = map_budget(l, now);
	l->map.polls++;
	map_queue_fallbacks(l);
	c0 = ft_thread_cpu_ns();
	/* first the blocks fallbacks named, then round-robin */
	n = map_dirty_pass(l, c0, &pfns);
	ft_live_owner_poll(l, c0, map_borrow_ns(l));
	for (;;) {
		uint64_t spent = ft_thread_cpu_ns() - c0;
		bool first = ft_kpf_first_look(&l->map.kpf, m);

		if (n < 0 || pfns >= cap)
			break;
		/* the first look borrows ahead, a slice a poll; the rest keeps to the budget */
		if (first ? spent >= FT_LIVE_MAP_SLICE_NS ||
			    l->map.allow_ns - (double)spent <= -map_borrow_ns(l) :
			    l->map.allow_ns - (double)spent <= 0)
			break;
		n = ft_kpf_scan(&l->map.kpf, m, 1);	/* one batch */
		if (n > 0)
			pfns += (uint64_t)n;
	}
	c1 = ft_thread_cpu_ns();
	l->map.allow_ns -= (double)(c1 - c0);
	l->map.scan_ns += c1 - c0;
	l->map.scan_pfns += pfns;
	l->map.proc_ns = ft_process_cpu_ns();	/* what comes after is the rest's */
	if (n < 0) {
		l->map.err = (int)n;
		ft_live_emit_status(l, FT_RS_MAP, l->map.err);
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror((int)-n));
	}
	return l->map.kpf.samples != samples || l->session.owner_src.looks != looks;
}

void ft_live_map_focus(struct ft_live *l, size_t zone, uint32_t bpc)
{
	ft_kpf_focus(&l->map.kpf, zone, bpc);
}

int ft_live_map_rescan_begin(struct ft_live *l)
{
	if (!l->map.err)
		l->map.err = map_open(l);
	ft_live_emit_status(l, FT_RS_MAP, l->map.err);
	if (l->map.err)
		return l->map.err;
	if (l->session.map.order < 0)
		return -ENODATA;
	ft_kpf_rescan_begin(&l->map.kpf, &l->session.map);
	l->map.rescan_steps = 0;
	return 0;
}

int ft_live_map_rescan_step(struct ft_live *l, uint64_t slice_ns)
{
	uint64_t t0 = ft_now_ns(), c0 = ft_thread_cpu_ns(), p0 = l->map.kpf.pfns;
	int r;

	if (!l->map.kpf.rescanning)
		return 1;
	r = ft_kpf_rescan_step(&l->map.kpf, &l->session.map, t0 + slice_ns);
	l->map.rescan_steps++;
	l->map.scan_ns += ft_thread_cpu_ns() - c0;
	l->map.scan_pfns += l->map.kpf.pfns - p0;
	if (r < 0) {
		l->map.err = r;
		ft_live_emit_status(l, FT_RS_MAP, r);
		ft_diag(FT_DIAG_WARN, "pageblock map: /proc/kpageflags: %s", strerror(-r));
	}
	return r;
}

bool ft_live_map_rescanning(const struct ft_live *l)
{
	return l->map.kpf.rescanning;
}

int ft_live_map_scan_all(struct ft_live *l)
{
	int r = ft_live_map_rescan_begin(l);

	/* the same pass as R's, its steps with no deadline: one call */
	while (!r)
		r = ft_live_map_rescan_step(l, UINT64_MAX / 2);
	return r < 0 ? r : 0;
}

void ft_live_map_init(struct ft_live *l)
{
	l->map.kpf.flags_fd = l->map.kpf.count_fd = -1;
	l->map.cpu = FT_LIVE_MAP_CPU;
}

double ft_live_map_budget_left(const struct ft_live *l, uint64_t c0)
{
	return l->map.allow_ns - (double)(ft_thread_cpu_ns() - c0);
}

void ft_live_map_emit_status(struct ft_live *l, uint64_t t_ns)
{
	uint8_t b[40];

	if (!l->map.scan || l->map.err)
		return;
	memcpy(b, &l->map.cpu, 8);
	memcpy(b + 8, &l->map.rescans, 8);
	memcpy(b + 16, &l->map.rescans_late, 8);
	memcpy(b + 24, &l->map.rescan_lag_max_ns, 8);
	memcpy(b + 32, &l->map.rescans_deferred, 8);
	ft_live_emit(l, FT_RR_SOURCE, FT_RS_MAPSCAN, t_ns, b, 40);
}

void ft_live_map_meta(struct ft_live *l, ft_input_fn fn, void *ctx)
{
	struct ft_rec_record in = {
		.type = FT_RR_IOMEM, .t_ns = ft_now_ns(), .data = (const uint8_t *)l->map.iomem,
		.len = (uint32_t)l->map.iomem_len,
	};

	if (l->map.iomem)
		fn(ctx, &in);
}

void ft_live_map_free(struct ft_live *l)
{
	ft_kpf_close(&l->map.kpf);
	for (size_t z = 0; z < FT_LIVE_MAP_ZONES; z++) {
		free(l->map.queued[z]);
		l->map.queued[z] = NULL;
	}
	free(l->map.iomem);
	l->map.iomem = NULL;
	free(l->map.batch);
	l->map.batch = NULL;
	l->map.batch_cap = 0;
}
