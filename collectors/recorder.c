// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/recorder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collectors/diag.h"
#include "collectors/file.h"

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void failed(struct ft_recorder *r, int err)
{
	if (r->err || !err)
		return;
	r->err = err;
	ft_diag(FT_DIAG_WARN, "recording to %s stopped: %s", r->path, strerror(-err));
}

static void write_formats(struct ft_recorder *r)
{
	const struct ft_trace *t = &r->live->trace;
	char head[128];
	int i;

	for (i = FT_EV_NR; i >= 0; i--) {	/* header_page first */
		size_t hl;
		char buf[1 << 16];

		if (!t->text[i] || t->text_len[i] > sizeof(buf) - sizeof(head))
			continue;
		if (i == FT_EV_NR)
			hl = (size_t)snprintf(head, sizeof(head), "header_page\n");
		else
			hl = (size_t)snprintf(head, sizeof(head), "%s/%s\n", ft_trace_events[i].system,
					      ft_trace_events[i].event);
		memcpy(buf, head, hl);
		memcpy(buf + hl, t->text[i], t->text_len[i]);
		failed(r, ft_recw_add_meta(&r->w, FT_RR_TRACE_FMT, 0, ft_now_ns(), buf,
					   hl + t->text_len[i]));
	}
	r->formats_written = true;
}

static void on_tick(void *ctx, const struct ft_raw *raw)
{
	struct ft_recorder *r = ctx;
	struct ft_live *l = r->live;
	uint64_t rt = realtime_ns(), lost;
	size_t i;

	if (r->err)
		return;
	if (l->tracing && !r->formats_written)
		write_formats(r);
	if (l->iomem && !r->iomem_written) {
		failed(r, ft_recw_add_meta(&r->w, FT_RR_IOMEM, 0, raw->t_ns, l->iomem, l->iomem_len));
		r->iomem_written = true;
	}
	for (i = 0; i < FT_SRC_NR; i++)
		if (raw->src[i].fresh && !raw->src[i].err)
			failed(r, ft_recw_add(&r->w, FT_RR_PROC, (uint16_t)i, raw->t_ns,
					      raw->src[i].buf, raw->src[i].len));
	/* the knob files as the tick read them */
	for (i = 0; i < ft_knobs_nr && i < FT_LIVE_MAX_KNOBS; i++)
		if (l->knobs[i].raw_len)
			failed(r, ft_recw_add(&r->w, FT_RR_KNOB, (uint16_t)i, raw->t_ns, l->knobs[i].raw,
					      l->knobs[i].raw_len));
	if (l->tracing) {
		lost = ft_trace_lost(&l->trace);
		failed(r, ft_recw_add(&r->w, FT_RR_TRACE_LOST, 0, raw->t_ns, &lost, sizeof(lost)));
	}
	failed(r, ft_recw_add(&r->w, FT_RR_TICK, 0, raw->t_ns, &rt, sizeof(rt)));
	failed(r, ft_recw_tick(&r->w, ft_now_ns()));
	r->ticks++;
}

static void on_page(void *ctx, int cpu, const void *buf, size_t len)
{
	struct ft_recorder *r = ctx;

	if (r->err)
		return;
	failed(r, ft_recw_add(&r->w, FT_RR_TRACE_PAGE, (uint16_t)cpu, ft_now_ns(), buf, len));
	r->pages++;
}

/* A batch of the pageblock map's input: first PFN, flags, counts. */
static void on_kpf(void *ctx, size_t zone, uint64_t pfn, size_t words, const uint64_t *flags,
		   const uint64_t *counts)
{
	struct ft_recorder *r = ctx;
	uint8_t *buf;

	if (r->err || words > (FT_REC_CHUNK_MAX / 2 - 8) / 16)
		return;
	buf = malloc(8 + words * 16);
	if (!buf)
		return;
	memcpy(buf, &pfn, 8);
	memcpy(buf + 8, flags, words * 8);
	memcpy(buf + 8 + words * 8, counts, words * 8);
	failed(r, ft_recw_add(&r->w, FT_RR_KPF, (uint16_t)zone, ft_now_ns(), buf, 8 + words * 16));
	free(buf);
	r->kpf_batches++;
}

static const struct ft_live_tap tap = { .tick = on_tick, .trace_page = on_page, .kpf_batch = on_kpf };

int ft_recorder_start(struct ft_recorder *r, struct ft_live *l, const char *path, bool overwrite)
{
	char host[2048], boot[64] = "";
	long n;
	int err;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	err = ft_recw_open(&r->w, path, overwrite);
	if (err)
		return err;
	r->live = l;
	r->open = true;
	n = ft_file_slurp(l->procfs.rootfd, "proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	if (n > 0 && boot[n - 1] == '\n')
		boot[n - 1] = '\0';
	n = snprintf(host, sizeof(host),
		     "fragtop=%s\nhostname=%s\nrelease=%s\npage_size=%ld\npmd_order=%d\n"
		     "pageblock_order=%d\ncpus=%ld\nboot_id=%s\nroot=%s\n",
		     FT_VERSION, l->host.hostname, l->host.release, l->host.page_size,
		     l->host.pmd_order, l->sample.pageblock_order, sysconf(_SC_NPROCESSORS_CONF),
		     boot, l->root);
	err = ft_recw_add_meta(&r->w, FT_RR_HOST, 0, ft_now_ns(), host, (size_t)n);
	if (!err && l->tracing)
		write_formats(r);
	if (!err)
		err = ft_recw_flush(&r->w);
	if (err) {
		ft_recw_abandon(&r->w);
		unlink(path);
		r->open = false;
		return err;
	}
	l->tap = &tap;
	l->tap_ctx = r;
	l->pti_last_ns = 0;	/* the first recorded tick reads pagetypeinfo */
	return 0;
}

void ft_recorder_audit(const struct ft_audit *a, void *ctx)
{
	struct ft_recorder *r = ctx;
	char buf[1024];
	int n;

	if (!r || !r->open || r->err)
		return;
	n = snprintf(buf, sizeof(buf),
		     "seq=%llu\nt_ns=%lld\nuid=%u\nloginuid=%u\nhow=%s\noutcome=%s\nerr=%d\n"
		     "knob=%s\nnode=%d\nold=%s\nnew=%s\nreadback=%s\nmsg=%s\n",
		     (unsigned long long)a->seq, (long long)a->t_ns, a->uid, a->loginuid,
		     ft_ctl_how_names[a->how], ft_ctl_outcome_names[a->outcome], a->err, a->knob,
		     a->node, a->old, a->new, a->readback, a->msg);
	failed(r, ft_recw_add(&r->w, FT_RR_AUDIT, 0, ft_now_ns(), buf, (size_t)n));
	/* a control change is what a reader looks for: do not sit on it */
	failed(r, ft_recw_flush(&r->w));
	r->audits++;
}

int ft_recorder_stop(struct ft_recorder *r)
{
	int err;

	if (!r->open)
		return 0;
	if (r->live && r->live->tap_ctx == r) {
		r->live->tap = NULL;
		r->live->tap_ctx = NULL;
		r->live->trace.tap = NULL;
	}
	err = ft_recw_close(&r->w);
	r->open = false;
	return r->err ? r->err : err;
}
