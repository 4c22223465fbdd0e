// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's boost sampler: each zone's watermark boost between ticks, in a thread or after
 * a drain.
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
#include "model/cost.h"

/*
 * A fallback below pageblock order came in with this drain (it waits in
 * the session's queue until the tick): the only kind after which the
 * kernel boosts a watermark (try_to_claim_block()), and only while
 * watermark_boost_factor is not 0.
 */
bool ft_live_boost_may_follow(struct ft_live *l)
{
	const struct ft_session *s = &l->session;
	const struct ft_knob *kb = ft_knob_find("watermark_boost_factor");
	long k = kb ? kb - ft_knobs : -1;
	bool found = false;
	size_t i;

	if (s->trq.nr < l->boost.seen_q)
		l->boost.seen_q = 0;	/* the queue was counted at a tick */
	for (i = l->boost.seen_q; i < s->trq.nr && !found; i++)
		found = s->trq.r[i].kind == FT_EV_EXTFRAG && s->events.pageblock_order >= 0 &&
			s->trq.r[i].u.extfrag.fallback_order < s->events.pageblock_order;
	l->boost.seen_q = s->trq.nr;
	if (k >= 0 && k < FT_SESSION_MAX_KNOBS && !s->knobs[k].err && s->knobs[k].raw_len &&
	    !s->knobs[k].num)
		return false;
	return found;
}

static void boost_read(struct ft_live *l, uint32_t weight);

/* ft_live_boost_on_trace()'s read, if one is due: @sign says a fallback just came (or a tick). */
void ft_live_boost_read_on_trace(struct ft_live *l, bool sign)
{
	uint64_t now = ft_now_ns(), period = 1000000000ull / l->boost.hz, gap;
	bool hot;

	pthread_mutex_lock(&l->boost.lock);
	hot = now < l->boost.hot_until;
	pthread_mutex_unlock(&l->boost.lock);
	if (!(sign || hot) || (l->boost.last_ns && now - l->boost.last_ns < period))
		return;
	/* it stands for the time since the last read (the first: one period) */
	gap = l->boost.last_ns ? (now - l->boost.last_ns) / period : 1;
	l->boost.last_ns = now;
	boost_read(l, (uint32_t)(gap < 1 ? 1 : gap > 1000000 ? 1000000 : gap));
}

/*
 * One read of every zone's boost, folded in with @weight (the full-rate
 * reads it stands for).  A boost seen keeps the sampler at the full rate.
 */
static void boost_read(struct ft_live *l, uint32_t weight)
{
	uint64_t t0 = ft_now_ns(), b[FT_BOOST_ZONES];
	bool any = false;
	int n, i;

	if (ft_file_read(&l->boost.file, l->procfs.rootfd))
		return;
	n = ft_boost_scan(l->boost.file.buf, l->boost.file.len, b, FT_BOOST_ZONES);
	for (i = 0; i < n; i++)
		any |= b[i] > 0;
	pthread_mutex_lock(&l->boost.lock);
	if (n > 0)
		ft_boost_acc_add(&l->boost.acc, b, n, weight);
	if (any)
		l->boost.hot_until = t0 + FT_LIVE_BOOST_HOT;
	l->boost.reads++;
	l->boost.ns += ft_now_ns() - t0;
	pthread_mutex_unlock(&l->boost.lock);
}

void ft_live_boost_heat(struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	pthread_mutex_lock(&l->boost.lock);
	if (now >= l->boost.hot_until)
		pthread_cond_signal(&l->boost.wake);	/* cold: wake it to the full rate */
	l->boost.hot_until = now + FT_LIVE_BOOST_HOT;
	pthread_mutex_unlock(&l->boost.lock);
}

static void *boost_main(void *arg)
{
	struct ft_live *l = arg;
	uint64_t period = 1000000000ull / l->boost.hz, next = ft_now_ns();
	uint32_t weight = 1;
	sigset_t all;

	/* signals are the main thread's: its loops wake on them */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		struct timespec ts;
		uint64_t now;
		bool hot;

		boost_read(l, weight);
		pthread_mutex_lock(&l->boost.lock);
		now = ft_now_ns();
		hot = now < l->boost.hot_until;
		weight = hot ? 1 : l->boost.slow;
		/* the next read on the cadence (missed ones skipped), slower while cold */
		next += (now >= next ? (now - next) / period + 1 : 1) * period;
		if (!hot)
			next += (l->boost.slow - 1) * period;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		while (!l->boost.stop &&
		       pthread_cond_timedwait(&l->boost.wake, &l->boost.lock, &ts) == 0 &&
		       ft_now_ns() >= l->boost.hot_until)
			;	/* a wake that did not heat it: keep sleeping */
		if (l->boost.stop) {
			pthread_mutex_unlock(&l->boost.lock);
			break;
		}
		/* heated: the full rate from now, this read unweighted */
		if (ft_now_ns() < next) {
			next = ft_now_ns();
			weight = 1;
		}
		pthread_mutex_unlock(&l->boost.lock);
	}
	return NULL;
}

void ft_live_boost_set(struct ft_live *l, unsigned int hz)
{
	if (l->boost.running) {
		pthread_mutex_lock(&l->boost.lock);
		l->boost.stop = true;
		pthread_cond_signal(&l->boost.wake);
		pthread_mutex_unlock(&l->boost.lock);
		pthread_join(l->boost.thread, NULL);
		l->boost.running = false;
	}
	l->boost.hz = hz;
	l->boost.next_ns = ft_now_ns();
	pthread_mutex_lock(&l->boost.lock);
	memset(&l->boost.acc, 0, sizeof(l->boost.acc));
	pthread_mutex_unlock(&l->boost.lock);
	if (hz && l->boost.threaded) {
		l->boost.stop = false;
		if (!pthread_create(&l->boost.thread, NULL, boost_main, l))
			l->boost.running = true;
		else
			l->boost.threaded = false;	/* no thread: the loops poll */
	}
}

void ft_live_boost_on_trace(struct ft_live *l, unsigned int hz)
{
	ft_live_boost_set(l, 0);	/* no thread */
	l->boost.hz = hz;
	l->boost.on_trace = hz > 0;
	l->boost.last_ns = 0;
}

void ft_live_boost_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns(), period;

	if (!l->boost.hz || l->boost.running || l->boost.on_trace || now < l->boost.next_ns)
		return;
	period = 1000000000ull / l->boost.hz;
	/* the next read on the cadence; reads missed (a slow draw) are skipped */
	l->boost.next_ns += ((now - l->boost.next_ns) / period + 1) * period;
	boost_read(l, 1);
}

uint64_t ft_live_boost_wait_ns(const struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	if (!l->boost.hz || l->boost.running || l->boost.on_trace)
		return UINT64_MAX;
	return l->boost.next_ns > now ? l->boost.next_ns - now : 0;
}

void ft_live_boost_init(struct ft_live *l, unsigned int hz)
{
	pthread_condattr_t ca;

	l->boost.slow = FT_LIVE_BOOST_SLOW;
	ft_file_init(&l->boost.file, "proc/zoneinfo");
	pthread_mutex_init(&l->boost.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->boost.wake, &ca);
	pthread_condattr_destroy(&ca);
	l->boost.threaded = true;
	ft_live_boost_set(l, hz);
}

void ft_live_boost_traced(struct ft_live *l)
{
	pthread_mutex_lock(&l->boost.lock);
	l->boost.slow = FT_LIVE_BOOST_SLOW_TRACED;
	pthread_mutex_unlock(&l->boost.lock);
}

void ft_live_boost_after_drain(struct ft_live *l)
{
	if (l->boost.running && ft_live_boost_may_follow(l))
		ft_live_boost_heat(l);
	else if (l->boost.on_trace && l->boost.hz)
		ft_live_boost_read_on_trace(l, ft_live_boost_may_follow(l));
}

void ft_live_boost_tick(struct ft_live *l, uint64_t t_ns)
{
	uint8_t rec[2 + FT_BOOST_ZONES * 20];
	size_t n = 0;

	if (l->boost.on_trace && l->boost.hz)
		ft_live_boost_read_on_trace(l, true);	/* every tick has its record */
	if (!l->boost.hz)
		return;
	pthread_mutex_lock(&l->boost.lock);
	if (l->boost.acc.nr)
		n = ft_boost_encode(&l->boost.acc, rec, sizeof(rec));
	pthread_mutex_unlock(&l->boost.lock);
	if (n)
		ft_live_emit(l, FT_RR_BOOST, 0, t_ns, rec, n);
}

void ft_live_boost_free(struct ft_live *l)
{
	ft_live_boost_set(l, 0);		/* the thread stopped before its file goes */
	ft_file_close(&l->boost.file);
	pthread_mutex_destroy(&l->boost.lock);
	pthread_cond_destroy(&l->boost.wake);
}
