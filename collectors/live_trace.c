// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's tracepoints: the private instance, draining it into the session, and its
 * cadence.
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

static void on_page(void *ctx, int cpu, const void *buf, size_t len)
{
	struct ft_live *l = ctx;

	ft_live_emit(l, FT_RR_TRACE_PAGE, (uint16_t)cpu, ft_now_ns(), buf, len);
}

void ft_live_trace_poll(struct ft_live *l)
{
	if (!l->trace.on)
		return;
	ft_tracefs_drain(&l->trace.t, on_page, l);
	if (l->trace.t.stacks) {
		ft_live_stacks_name(l);
		ft_live_stacks_rearm(l);
	}
	ft_live_names_take(l);
	ft_live_boost_after_drain(l);
}

uint64_t ft_live_trace_lost(struct ft_live *l)
{
	const struct ft_tracedec *d = &l->session.dec;

	return ft_tracefs_lost(&l->trace.t) + d->missed + d->missed_unknown;
}


/* The drain cadence: trace_every_ns when set, else busy or idle. */
static uint64_t trace_every(const struct ft_live *l)
{
	if (l->trace.every_ns)
		return l->trace.every_ns;
	return l->trace.busy ? FT_LIVE_TRACE_BUSY_NS : FT_LIVE_TRACE_IDLE_NS;
}

/* Idle pipes that the loop polls: no timed drain, their first event wakes it. */
static bool poll_waits(const struct ft_live *l)
{
	return l->trace.polled && !l->trace.busy && !l->trace.every_ns;
}

uint64_t ft_live_trace_wait_ns(const struct ft_live *l)
{
	uint64_t now = ft_now_ns(), due;

	if (!l->trace.on || poll_waits(l))
		return UINT64_MAX;
	due = l->trace.wait_ns + trace_every(l);
	return due > now ? due - now : 0;
}

/* A drain now, the cadence's clock restarted from it (the tick's drain counts as one). */
void ft_live_trace_drain(struct ft_live *l, uint64_t now)
{
	uint64_t pages = l->session.pages;

	ft_live_trace_poll(l);
	l->trace.busy = l->session.pages != pages;
	l->trace.wait_ns = now;
}

void ft_live_trace_maybe_poll(struct ft_live *l)
{
	uint64_t now = ft_now_ns();

	if (!l->trace.on || poll_waits(l) || now - l->trace.wait_ns < trace_every(l))
		return;
	ft_live_trace_drain(l, now);
}

int ft_live_poll_fds(struct ft_live *l, int *fds, int cap)
{
	int n;

	if (!l->trace.on || l->trace.every_ns) {
		l->trace.polled = false;
		return 0;
	}
	n = ft_tracefs_fds(&l->trace.t, fds, cap);
	l->trace.polled = n > 0;
	return l->trace.busy ? 0 : n;
}

void ft_live_polled(struct ft_live *l, int n)
{
	if (n > 0 && l->trace.on)
		ft_live_trace_drain(l, ft_now_ns());
}

const char ft_live_stacks_per_sec_default[] = "10000";
const char ft_live_trace_kb_default[] = "8192";

size_t ft_live_trace_kb(void)
{
	return (size_t)strtoul(ft_live_trace_kb_default, NULL, 10);
}

int ft_live_trace_start(struct ft_live *l, size_t buffer_kb)
{
	int err, stale;

	if (!buffer_kb)
		buffer_kb = ft_live_trace_kb();
	if (strcmp(l->root, "/")) {
		ft_live_emit_status(l, FT_RS_TRACE, -EXDEV);
		return -EXDEV;
	}
	stale = ft_tracefs_remove_stale();
	if (stale > 0)
		ft_diag(FT_DIAG_INFO, "removed %d tracefs instance%s left by a fragtop that died",
			stale, stale > 1 ? "s" : "");
	err = ft_tracefs_open(&l->trace.t, buffer_kb);
	if (err) {
		ft_live_emit_status(l, FT_RS_TRACE, err);
		ft_diag(FT_DIAG_WARN, "no tracepoints: %s", ft_tracefs_strerror(err));
		return err;
	}
	l->trace.on = true;
	ft_live_boost_traced(l);	/* traced fallbacks wake the sampler */
	ft_live_names_start(l);
	ft_live_emit_formats(l, NULL, NULL);
	return 0;
}

/* "system/event\n" (or "header_page\n") and the format text. */
void ft_live_emit_format(struct ft_live *l, int i, ft_input_fn fn, void *ctx)
{
	const struct ft_tracefs *t = &l->trace.t;
	char head[128], *buf;
	size_t hl;

	if (!t->text[i])
		return;
	if (i == FT_TRACE_HEADER)
		hl = (size_t)snprintf(head, sizeof(head), "header_page\n");
	else if (i == FT_TRACE_STACK)
		hl = (size_t)snprintf(head, sizeof(head), "ftrace/kernel_stack\n");
	else
		hl = (size_t)snprintf(head, sizeof(head), "%s/%s\n", ft_trace_events[i].system,
				      ft_trace_events[i].event);
	buf = malloc(hl + t->text_len[i]);
	if (!buf)
		return;
	memcpy(buf, head, hl);
	memcpy(buf + hl, t->text[i], t->text_len[i]);
	{
		struct ft_rec_record in = {
			.type = FT_RR_TRACE_FMT, .len = (uint32_t)(hl + t->text_len[i]),
			.t_ns = ft_now_ns(), .data = (const uint8_t *)buf,
		};

		if (fn)
			fn(ctx, &in);
		else
			ft_live_emit(l, in.type, 0, in.t_ns, buf, in.len);
	}
	free(buf);
}

void ft_live_emit_formats(struct ft_live *l, ft_input_fn fn, void *ctx)
{
	int i;

	/* header_page first: the decoder needs it */
	ft_live_emit_format(l, FT_TRACE_HEADER, fn, ctx);
	for (i = FT_EV_NR - 1; i >= 0; i--)
		ft_live_emit_format(l, i, fn, ctx);
}

void ft_live_trace_meta(struct ft_live *l, ft_input_fn fn, void *ctx)
{
	if (!l->trace.on)
		return;
	ft_live_emit_formats(l, fn, ctx);
	ft_live_emit_format(l, FT_TRACE_STACK, fn, ctx);	/* --stacks */
}

void ft_live_trace_tick(struct ft_live *l, uint64_t t_ns)
{
	uint64_t lost;

	int fds[64], n;

	if (!l->trace.on)
		return;
	/* events up to now belong to this tick; pipes with none are not read */
	n = ft_tracefs_fds(&l->trace.t, fds, 64);
	if (n == 64 || ft_fds_readable(fds, n))	/* more CPUs than one look covers: read */
		ft_live_trace_drain(l, ft_now_ns());
	else
		l->trace.wait_ns = ft_now_ns();
	lost = ft_live_trace_lost(l);
	ft_live_names_reap(l);
	ft_live_emit(l, FT_RR_TRACE_LOST, 0, t_ns, &lost, sizeof(lost));
}

bool ft_live_trace_on(const struct ft_live *l)
{
	return l->trace.on;
}

int ft_live_trace_stacks_on(struct ft_live *l, int order, unsigned int per_sec)
{
	return l->trace.on ? ft_tracefs_stacks_on(&l->trace.t, order, per_sec) : -ENODEV;
}

int ft_live_trace_stacks_rearm(struct ft_live *l)
{
	return ft_tracefs_stacks_rearm(&l->trace.t);
}

void ft_live_trace_free(struct ft_live *l)
{
	ft_tracefs_close(&l->trace.t);
	l->trace.on = false;
}
