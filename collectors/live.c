// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/live.h"
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
#include "collectors/cgroups.h"
#include "model/cost.h"

/* Every read becomes an input: the tap sees it, then the session applies it. */
void ft_live_emit(struct ft_live *l, uint16_t type, uint16_t sub, uint64_t t_ns, const void *data,
		  size_t len)
{
	struct ft_rec_record in = {
		.type = type, .sub = sub, .len = (uint32_t)len, .t_ns = t_ns, .data = data,
	};

	if (l->tap)
		l->tap(l->tap_ctx, &in);
	ft_session_apply(&l->session, &in);
}

static void emit_err(struct ft_live *l, uint16_t type, uint16_t sub, uint64_t t_ns, int err)
{
	int32_t e = err;

	ft_live_emit(l, type, sub | FT_INPUT_ERR, t_ns, &e, sizeof(e));
}

/* The trace's or the map's status (FT_RS_TRACE, FT_RS_MAP) as a SOURCE input: -errno, or 0. */
void ft_live_emit_status(struct ft_live *l, enum ft_rs what, int err)
{
	int32_t e = err;

	ft_live_emit(l, FT_RR_SOURCE, (uint16_t)what, ft_now_ns(), &e, sizeof(e));
}

/*
 * The per-size THP tree as a THP input; absent before 6.8 (or in a tree without it): no input, not
 * an error.
 */
static void emit_thp(struct ft_live *l, uint64_t t_ns)
{
	char *buf = malloc(FT_LIVE_THP_TEXT);
	long n;

	if (!buf)
		return;
	n = ft_thpsrc_read(&l->thp, l->procfs.rootfd, buf, FT_LIVE_THP_TEXT);
	if (n > 0)
		ft_live_emit(l, FT_RR_THP, 0, t_ns, buf, (size_t)n);
	free(buf);
}

/* The memory cgroups, pressure and pods as a CGROUPS input (collectors/cgroups.h). */
static void emit_cgroups(struct ft_live *l, uint64_t t_ns)
{
	char *text = NULL;
	long n = ft_cgsrc_read(l->procfs.rootfd, &text);

	if (n >= 0)
		ft_live_emit(l, FT_RR_CGROUPS, 0, t_ns, text, (size_t)n);
	free(text);
}

/* What this fragtop has cost so far (base/cost.h), as a SOURCE input. */
static void emit_cost(struct ft_live *l, uint64_t t_ns)
{
	uint8_t b[FT_COST_REC_LEN];
	struct ft_cost c;

	ft_cost_get(&c);
	ft_live_emit(l, FT_RR_SOURCE, FT_RS_COST, t_ns, b, ft_costrec_encode(&c, b, sizeof(b)));
}

/* Before a tick: memory, multi-size THP, the map scan's cost while it runs, and our own. */
static void emit_source_tick(struct ft_live *l, uint64_t t_ns)
{
	uint8_t b[40];

	ft_host_refresh(&l->host);
	if (l->host.mem_total_kb) {
		memcpy(b, &l->host.mem_total_kb, 8);
		memcpy(b + 8, &l->host.mem_avail_kb, 8);
		ft_live_emit(l, FT_RR_SOURCE, FT_RS_MEMORY, t_ns, b, 16);
	}
	if (l->wants & FT_LIVE_WANT_THP)
		emit_thp(l, t_ns);
	if (l->wants & FT_LIVE_WANT_CGROUPS)
		emit_cgroups(l, t_ns);
	ft_live_map_emit_status(l, t_ns);
	ft_live_stacks_emit_status(l, t_ns);
	ft_live_smaps_read(l, t_ns);
	ft_live_kmsg_read(l, t_ns);
	ft_live_changes_read(l, t_ns);	/* after the knobs: see model/journal.h */
	ft_live_owner_emit_status(l, t_ns);
	emit_cost(l, t_ns);
}

static void read_knobs(struct ft_live *l, uint64_t t_ns);

void ft_live_want(struct ft_live *l, unsigned int wants)
{
	unsigned int gained = wants & ~l->wants;

	l->wants = wants;
	if (gained & FT_LIVE_WANT_SIZE_KNOBS)
		read_knobs(l, ft_now_ns());
	if (gained & FT_LIVE_WANT_THP)
		emit_thp(l, ft_now_ns());
	if (!(wants & FT_LIVE_WANT_THP))
		ft_thpsrc_close(&l->thp);
}

/* "2048,1048576" */
static const char *kb_list(const uint64_t *kb, unsigned int n, char *buf, size_t sz)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && len < sz; i++) {
		int w = snprintf(buf + len, sz - len, "%s%llu", i ? "," : "",
				 (unsigned long long)kb[i]);

		len += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

/* The HOST input: what a reader of the session needs to know of the host. */
static size_t host_text(struct ft_live *l, char *buf, size_t sz)
{
	char boot[64] = "";
	long n = ft_file_slurp(l->procfs.rootfd, "proc/sys/kernel/random/boot_id", boot,
			       sizeof(boot));
	char huge[FT_HOST_HUGE_MAX * 16], mthp[FT_HOST_MTHP_MAX * 16];
	int len;

	if (n > 0 && boot[n - 1] == '\n')
		boot[n - 1] = '\0';
	len = snprintf(buf, sz,
		       "fragtop=%s\nhostname=%s\nrelease=%s\npage_size=%ld\npmd_order=%d\n"
		       "pageblock_order=%d\ncpus=%ld\nboot_id=%s\nroot=%s\n"
		       "hugepage_kb=%s\nmthp_kb=%s\n",
		       FT_VERSION, l->host.hostname, l->host.release, l->host.page_size,
		       l->host.pmd_order, l->session.sample.pageblock_order,
		       sysconf(_SC_NPROCESSORS_CONF), boot, l->root,
		       kb_list(l->host.huge_kb, l->host.nr_huge, huge, sizeof(huge)),
		       kb_list(l->host.mthp_kb, l->host.nr_mthp, mthp, sizeof(mthp)));
	return len < 0 ? 0 : (size_t)len >= sz ? sz - 1 : (size_t)len;
}

int ft_live_open(struct ft_live *l, const char *root, double pti_interval_s)
{
	char host[2048];
	int err;

	ft_zero(l, sizeof(*l));	/* what the host does not fill stays out of RSS */
	snprintf(l->root, sizeof(l->root), "%s", root);
	err = ft_procfs_open(&l->procfs, root);
	if (err)
		return err;
	ft_host_open(&l->host, l->procfs.rootfd, !strcmp(root, "/"));
	ft_session_init(&l->session);
	ft_live_emit(l, FT_RR_HOST, 0, ft_now_ns(), host, host_text(l, host, sizeof(host)));
	ft_live_emit_status(l, FT_RS_TRACE, 0);	/* not asked for yet */
	ft_live_emit_status(l, FT_RS_MAP, 0);
	{
		/* its rows in the process tables are fragtop's own */
		uint32_t self = (uint32_t)getpid();

		ft_live_emit(l, FT_RR_SOURCE, FT_RS_SELF, ft_now_ns(), &self, 4);
	}
	ft_live_map_init(l);
	l->wants = FT_LIVE_WANT_ALL;
	ft_live_smaps_init(l);
	ft_live_kmsg_open(l);
	ft_live_changes_open(l);
	for (size_t i = 0; i < FT_SESSION_MAX_KNOBS; i++) {
		ft_file_init(&l->knobs.file[i], i < ft_knobs_nr ? ft_knobs[i].path : "");
		l->knobs.file[i].single = true;	/* a sysctl or a sysfs attribute */
		/* a per-size one too, though under the THP tree */
		l->knobs.file[i].cost = FT_COST_KNOBS;
	}
	/* a captured tree does not change: no sampler unless asked */
	ft_live_boost_init(l, strcmp(root, "/") ? 0 : FT_LIVE_BOOST_HZ);
	l->pti.interval_ns = pti_interval_s > 0 ? (uint64_t)(pti_interval_s * 1e9) : 0;
	return 0;
}

void ft_live_close(struct ft_live *l)
{
	ft_live_trace_free(l);
	ft_live_names_free(l);
	ft_session_release(&l->session);
	ft_live_map_free(l);
	ft_live_owner_free(l);
	ft_live_boost_free(l);
	ft_live_stacks_free(l);
	ft_live_kmsg_close(l);
	ft_live_changes_close(l);
	for (size_t i = 0; i < FT_SESSION_MAX_KNOBS; i++)
		ft_file_close(&l->knobs.file[i]);
	ft_thpsrc_release(&l->thp);
	ft_host_close(&l->host);
	ft_procfs_close(&l->procfs);
}

/*
 * Every knob's file, held open and read again from offset 0; one that
 * could not be opened (a knob this kernel lacks) is looked for again
 * every FT_LIVE_RETRY_NS, its error standing in between.
 */
static void read_knobs(struct ft_live *l, uint64_t t_ns)
{
	size_t max = sizeof(((struct ft_knob_value *)0)->raw), i;
	bool retry = !l->knobs.retry_ns || t_ns - l->knobs.retry_ns >= FT_LIVE_RETRY_NS;

	if (retry)
		l->knobs.retry_ns = t_ns;
	for (i = 0; i < ft_knobs_nr && i < FT_SESSION_MAX_KNOBS; i++) {
		struct ft_file *f = &l->knobs.file[i];
		long n;

		if (ft_knobs[i].type == FT_KNOB_TRIGGER || ft_knobs[i].per_node)
			continue;
		if (!(l->wants & FT_LIVE_WANT_SIZE_KNOBS) && ft_knob_per_size(&ft_knobs[i])) {
			/* while no view shows them: no descriptors either */
			ft_file_close(f);
			continue;
		}
		n = f->fd < 0 && f->err == -ENOENT &&
		!retry ? f->err : ft_file_read(f, l->procfs.rootfd);
		if (n >= 0) {
			ft_live_emit(l, FT_RR_KNOB, (uint16_t)i, t_ns, f->buf,
				     f->len < max ? f->len : max);
			l->knobs.err[i] = 0;
		} else if (l->knobs.err[i] != (int)n) {
			/*
			 * an absent knob is said once (and again to a new recording), not every
			 * tick
			 */
			emit_err(l, FT_RR_KNOB, (uint16_t)i, t_ns, (int)n);
			l->knobs.err[i] = (int)n;
		}
	}
}

void ft_live_read_knobs(struct ft_live *l)
{
	read_knobs(l, ft_now_ns());
}

void ft_live_audit(struct ft_live *l, const char *text, size_t len)
{
	ft_live_emit(l, FT_RR_AUDIT, 0, ft_now_ns(), text, len);
}

int ft_live_tick(struct ft_live *l, bool force_pti)
{
	unsigned int mask = (1u << FT_SRC_ZONEINFO) | (1u << FT_SRC_BUDDYINFO) |
			    (1u << FT_SRC_VMSTAT) | (1u << FT_SRC_PRESSURE);
	uint64_t now = ft_now_ns(), rt;
	struct ft_raw raw;
	const struct ft_sample *s = &l->session.sample;
	int i;

	if (force_pti || !l->pti.last_ns || now - l->pti.last_ns >= l->pti.interval_ns) {
		mask |= 1u << FT_SRC_PAGETYPEINFO;
		l->pti.last_ns = now;
	}
	ft_procfs_collect(&l->procfs, mask, &raw);
	for (i = 0; i < FT_SRC_NR; i++) {
		if (!raw.src[i].fresh)
			continue;
		if (raw.src[i].err)
			emit_err(l, FT_RR_PROC, (uint16_t)i, raw.t_ns, raw.src[i].err);
		else
			ft_live_emit(l, FT_RR_PROC, (uint16_t)i, raw.t_ns, raw.src[i].buf,
				     raw.src[i].len);
	}
	read_knobs(l, raw.t_ns);
	ft_live_trace_tick(l, raw.t_ns);
	ft_live_boost_tick(l, raw.t_ns);
	emit_source_tick(l, raw.t_ns);
	rt = ft_realtime_ns();
	ft_live_emit(l, FT_RR_TICK, 0, raw.t_ns, &rt, sizeof(rt));
	ft_live_map_poll(l);
	return ft_sample_has(s, FT_SRC_ZONEINFO) ? 0 : s->err[FT_SRC_ZONEINFO];
}

void ft_live_wait(struct ft_live *l, uint64_t until_ns)
{
	uint64_t now = ft_now_ns(), w;
	struct timespec ts;

	if (now >= until_ns)
		return;
	/* one slice: the caller looks at its stop flag between calls */
	w = until_ns - now;
	if (w > ft_live_boost_wait_ns(l))
		w = ft_live_boost_wait_ns(l);
	if (w > 100000000)
		w = 100000000;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)w;
	nanosleep(&ts, NULL);		/* a signal ends it early: fine */
	ft_live_boost_poll(l);
	ft_live_trace_maybe_poll(l);
}

void ft_live_meta(struct ft_live *l, ft_input_fn fn, void *ctx)
{
	char host[2048];
	struct ft_rec_record in = {
		.type = FT_RR_HOST, .t_ns = ft_now_ns(), .data = (const uint8_t *)host,
	};

	in.len = (uint32_t)host_text(l, host, sizeof(host));
	fn(ctx, &in);
	{
		uint32_t self = (uint32_t)getpid();
		struct ft_rec_record me = {
			.type = FT_RR_SOURCE, .sub = FT_RS_SELF, .t_ns = in.t_ns,
			.data = (const uint8_t *)&self, .len = 4,
		};

		fn(ctx, &me);
	}
	ft_live_trace_meta(l, fn, ctx);
	/* the frames named so far: a file of a series names its own */
	for (size_t k = 0; k < l->session.syms.nr; k++) {
		const struct ft_symname *sn = &l->session.syms.v[k];
		char rec[8 + FT_SYMNAME_LEN];
		size_t n = strlen(sn->name);

		memcpy(rec, &sn->addr, 8);
		memcpy(rec + 8, sn->name, n);
		in.type = FT_RR_KSYM;
		in.data = (const uint8_t *)rec;
		in.len = (uint32_t)(8 + n);
		fn(ctx, &in);
	}
	ft_live_map_meta(l, fn, ctx);
}
