// SPDX-License-Identifier: GPL-2.0-or-later
/* The session's pieces as JSON, shared by snapshot, report and compare. */
#include "render/session_json.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/json.h"
#include "model/session.h"
#include "kernel/thp.h"

void ft_render_session_extfrag_counts(struct ft_json *j, const struct ft_extfrag_counts *c)
{
	ft_json_u64(j, "total", c->total);
	ft_json_u64(j, "fragmenting", c->fragmenting);
	ft_json_u64(j, "change_ownership", c->change_ownership);
}

void ft_render_session_hist(struct ft_json *j, const char *key, const struct ft_hist *h)
{
	unsigned int b;

	ft_json_obj_begin(j, key);
	ft_json_u64(j, "count", h->count);
	ft_json_double(j, "mean_us", h->count ? ft_hist_mean(h) : NAN);
	ft_json_u64(j, "p50_us", ft_hist_percentile(h, 50));
	ft_json_u64(j, "p90_us", ft_hist_percentile(h, 90));
	ft_json_u64(j, "p99_us", ft_hist_percentile(h, 99));
	ft_json_u64(j, "p999_us", ft_hist_percentile(h, 99.9));
	ft_json_u64(j, "max_us", h->max_us);
	ft_json_bool(j, "exact", false);
	ft_json_arr_begin(j, "buckets");
	for (b = 0; b < FT_HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		ft_json_obj_begin_inline(j, NULL);
		ft_json_u64(j, "lo_us", ft_hist_bucket_lo(b));
		ft_json_u64(j, "hi_us", ft_hist_bucket_hi(b));
		ft_json_u64(j, "count", h->bucket[b]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

void ft_render_session_bg_nodes(struct ft_json *j, const char *key, const struct ft_bg_node *bg)
{
	int n;

	ft_json_arr_begin(j, key);
	for (n = 0; n <= FT_EV_NODES; n++) {
		const struct ft_bg_node *x = &bg[n];

		if (!x->count && !x->wakes)
			continue;
		ft_json_obj_begin_inline(j, NULL);
		if (n < FT_EV_NODES)
			ft_json_i64(j, "node", n);
		else
			ft_json_null(j, "node");
		ft_json_u64(j, "compactions", x->count);
		ft_json_double(j, "ms", (double)x->us / 1000.0);
		ft_json_u64(j, "kcompactd_wakes", x->wakes);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

static void json_outcomes(struct ft_json *j, const struct ft_session *s, const uint64_t *n)
{
	int i;

	ft_json_obj_begin_inline(j, "outcomes");
	for (i = 0; i < s->events.nr_compact_status; i++)
		ft_json_u64(j, s->dec.status_name[i], n[i]);
	if (n[FT_MAX_STATUS])
		ft_json_u64(j, "unknown", n[FT_MAX_STATUS]);
	ft_json_obj_end(j);
}

void ft_render_session_compaction(struct ft_json *j, const struct ft_session *s,
				  const struct ft_events *ev)
{
	uint64_t m[FT_M_NR];

	ft_events_metrics(ev, m);
	ft_json_obj_begin(j, "compaction");
	ft_json_bool(j, "exact", ev->exact_direct);
	ft_json_obj_begin(j, "direct");
	ft_json_u64(j, "stalls", m[FT_M_COMPACTION]);
	if (ev->exact_direct)
		ft_json_u64(j, "attempts", ev->direct_attempts);
	else
		ft_json_null(j, "attempts");
	ft_json_u64(j, "silent_success", ev->direct_silent);
	ft_json_u64(j, "compactions", ev->lat[FT_LAT_COMPACTION].count);
	json_outcomes(j, s, ev->compact_status[FT_CK_DIRECT]);
	ft_json_obj_end(j);
	ft_json_obj_begin(j, "background");
	ft_json_u64(j, "compactions", m[FT_M_BG_COMPACTION]);
	json_outcomes(j, s, ev->compact_status[FT_CK_BACKGROUND]);
	ft_render_session_bg_nodes(j, "by_node", ev->bg);
	ft_json_obj_end(j);
	ft_json_obj_end(j);
}

void ft_render_session_self(struct ft_json *j, const struct ft_procs *t, int pid)
{
	uint64_t own[FT_PC_NR];

	if (pid <= 0) {
		ft_json_null(j, "self");
		return;
	}
	ft_procs_of_process(t, pid, own);
	ft_render_session_self_counts(j, pid, own, ft_procs_frag_share(t, own[FT_PC_FRAGMENTING]));
}

void ft_render_session_self_counts(struct ft_json *j, int pid, const uint64_t own[FT_PC_NR],
				   double share)
{
	int k;

	ft_json_obj_begin(j, "self");
	ft_json_i64(j, "pid", pid);
	for (k = 0; k < FT_PC_NR; k++)
		ft_json_u64(j, ft_proc_fields[k].key, own[k]);
	ft_json_double(j, "fragmenting_share", share);
	ft_json_obj_end(j);
}

void ft_render_session_processes(struct ft_json *j, const struct ft_procs *t, int max)
{
	static const struct ft_procs_filter active = { .active_only = true };
	static int idx[FT_PROCS_MAX];
	int n = ft_procs_sorted(t, FT_PC_FRAGMENTING, &active, idx, max > 0 ? max : FT_PROCS_MAX);
	int i, k;

	ft_json_arr_begin(j, "processes");
	for (i = 0; i < n; i++) {
		const struct ft_proc *p = &t->p[idx[i]];

		ft_json_obj_begin_inline(j, NULL);
		ft_json_i64(j, "pid", p->pid);
		if (p->tgid)
			ft_json_i64(j, "tgid", p->tgid);
		else
			ft_json_null(j, "tgid");
		ft_json_u64(j, "threads", (uint64_t)p->threads);
		ft_json_str(j, "comm", p->comm[0] ? p->comm : p->pid == 0 ? "swapper" : "?");
		ft_json_bool(j, "exited", p->exited);
		if (p->cgroup[0])
			ft_json_str(j, "cgroup", p->cgroup);
		else
			ft_json_null(j, "cgroup");
		for (k = 0; k < FT_PC_NR; k++)
			ft_json_u64(j, ft_proc_fields[k].key, p->c[k]);
		ft_json_obj_end(j);
	}
	for (k = 0; k < FT_PC_NR && !t->other[k]; k++)
		;
	if (k < FT_PC_NR) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_i64(j, "pid", -1);
		ft_json_str(j, "comm", "(other)");
		ft_json_bool(j, "exited", true);
		for (k = 0; k < FT_PC_NR; k++)
			ft_json_u64(j, ft_proc_fields[k].key, t->other[k]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

void ft_render_session_thp_settings(struct ft_json *j, const struct ft_thp_size *z)
{
	char v[32];

	ft_json_u64(j, "size_kb", z->kb);
	if (z->enabled[0])
		ft_json_str(j, "enabled", ft_thp_selected(z->enabled, v, sizeof(v)));
	else
		ft_json_null(j, "enabled");
	if (z->shmem[0])
		ft_json_str(j, "shmem_enabled", ft_thp_selected(z->shmem, v, sizeof(v)));
	else
		ft_json_null(j, "shmem_enabled");
}

void ft_render_session_thp(struct ft_json *j, const struct ft_session *s)
{
	const struct ft_thp *t = &s->thp;
	int i, k;

	if (!s->thp_ticks || !t->nr) {
		ft_json_null(j, "thp_sizes");
		return;
	}
	ft_json_arr_begin(j, "thp_sizes");
	for (i = 0; i < t->nr; i++) {
		const struct ft_thp_size *z = &t->s[i];

		ft_json_obj_begin(j, NULL);
		ft_render_session_thp_settings(j, z);
		ft_json_obj_begin_inline(j, "stats");
		for (k = 0; k < z->nr_stats; k++)
			ft_json_u64(j, z->stat_name[k], z->stat[k]);
		ft_json_obj_end(j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* {files_opened, reads, bytes_read} of @c at @key (NULL: in an array). */
static void cost_counts(struct ft_json *j, const char *key, const struct ft_cost_counts *c)
{
	ft_json_obj_begin_inline(j, key);
	ft_json_u64(j, "files_opened", c->opens);
	ft_json_u64(j, "reads", c->reads);
	ft_json_u64(j, "bytes_read", c->bytes);
	ft_json_obj_end(j);
}

void ft_render_session_kmsg(struct ft_json *j, const struct ft_session *s)
{
	const struct ft_kmsg *k = &s->kmsg;

	if (!k->known) {
		ft_json_null(j, "page_allocation_failures");
		return;
	}
	ft_json_obj_begin(j, "page_allocation_failures");
	ft_json_bool(j, "read", !k->err);
	if (k->err) {
		ft_json_str(j, "error", k->err == -EACCES ||
			    k->err == -EPERM ? "/dev/kmsg needs root" :
			    k->err == -ENOENT ?
				    "no kernel log (a captured tree)" : strerror(-k->err));
		ft_json_obj_end(j);
		return;
	}
	ft_render_session_kmsg_counts(j, k->failures, k->by_order, k->lost,
			      k->nlast ? &k->last[(k->nlast - 1) % FT_KMSG_LAST] : NULL);
	ft_json_obj_end(j);
}

void ft_render_session_kmsg_counts(struct ft_json *j, uint64_t total,
				   const uint64_t by_order[FT_KMSG_ORDERS],
				   uint64_t lost, const struct ft_kmsg_fail *newest)
{
	char key[8];
	int o;

	ft_json_u64(j, "total", total);
	ft_json_obj_begin(j, "by_order");
	for (o = 0; o < FT_KMSG_ORDERS; o++)
		if (by_order[o]) {
			snprintf(key, sizeof(key), "%d", o);
			ft_json_u64(j, key, by_order[o]);
		}
	ft_json_obj_end(j);
	ft_json_u64(j, "log_records_lost", lost);
	if (newest) {
		ft_json_obj_begin(j, "newest");
		ft_json_str(j, "comm", newest->comm);
		ft_json_i64(j, "order", newest->order);
		ft_json_str(j, "gfp", newest->gfp);
		ft_json_obj_end(j);
	}
}

void ft_render_session_cost(struct ft_json *j, const struct ft_session *s)
{
	const struct ft_cost_seen *c = &s->cost;
	struct ft_cost tick;
	struct ft_cost_counts t;
	bool have_tick;
	size_t i;

	if (!c->known) {
		ft_json_null(j, "cost");
		return;
	}
	have_tick = ft_costrec_tick(c, &tick);
	ft_json_obj_begin(j, "cost");
	ft_json_u64(j, "ticks", c->ticks);
	ft_json_u64(j, "heap_bytes", c->now.heap);
	t = ft_cost_total(&c->now);
	cost_counts(j, "total", &t);
	if (have_tick) {
		t = ft_cost_total(&tick);
		cost_counts(j, "last_tick", &t);
	} else {
		ft_json_null(j, "last_tick");
	}
	ft_json_arr_begin(j, "by_source");
	for (i = 0; i < FT_COST_NR; i++) {
		ft_json_obj_begin_inline(j, NULL);
		ft_json_str(j, "source", ft_cost_src_names[i]);
		ft_json_u64(j, "files_opened", c->now.src[i].opens);
		ft_json_u64(j, "reads", c->now.src[i].reads);
		ft_json_u64(j, "bytes_read", c->now.src[i].bytes);
		if (have_tick)
			cost_counts(j, "last_tick", &tick.src[i]);
		else
			ft_json_null(j, "last_tick");
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

void ft_render_session_cost_line(FILE *f, const struct ft_session *s, const char *what)
{
	struct ft_json j;

	ft_json_init(&j, f, false);
	ft_json_obj_begin(&j, NULL);
	ft_json_u64(&j, "tick", s->ticks);
	ft_json_str(&j, "what", what);
	ft_render_session_cost(&j, s);
	ft_json_obj_end(&j);
	ft_json_end(&j);
}

/*
 * A report's row: "memory_stall_us" (its PSI some over the window) and "compaction_share_of_stall",
 * or nulls.
 */
static void cgroup_stall(struct ft_json *j, const struct ft_report *rep, const struct ft_cgrow *r)
{
	struct ft_rep_memstall m;

	if (r->other || ft_report_cgroup_stall(rep, r->path, r->c[FT_PC_COMPACTION_US], &m)) {
		ft_json_null(j, "memory_stall_us");
		ft_json_null(j, "compaction_share_of_stall");
		return;
	}
	ft_json_u64(j, "memory_stall_us", m.some_us);
	if (isnan(m.share))
		ft_json_null(j, "compaction_share_of_stall");
	else
		ft_json_double(j, "compaction_share_of_stall", m.share);
}

void ft_render_session_by_cgroup(struct ft_json *j, const struct ft_cgrows *rows,
				 const struct ft_cgroups *c,
				 const struct ft_report *rep)
{
	char name[FT_CG_PATH];
	int i, k;

	if (!rows) {
		ft_json_null(j, "by_cgroup");
		return;
	}
	ft_json_arr_begin(j, "by_cgroup");
	for (i = 0; i < rows->nr; i++) {
		const struct ft_cgrow *r = &rows->r[i];

		ft_json_obj_begin_inline(j, NULL);
		if (r->other) {
			ft_json_null(j, "path");
			ft_json_str(j, "name", "other");
			ft_json_null(j, "unattributed");
		} else {
			ft_cgroup_name(r->path, c ? c->pods : NULL, c ? c->nr_pods : 0, name,
				       sizeof(name));
			ft_json_str(j, "path", r->path);
			ft_json_str(j, "name", r->path[0] ? name : ft_cgrow_name(r));
			if (r->path[0])
				ft_json_null(j, "unattributed");
			else
				ft_json_str(j, "unattributed", ft_cg_unread_reasons[r->unread]);
		}
		ft_json_i64(j, "processes", r->procs);
		for (k = 0; k < FT_PC_NR; k++)
			ft_json_u64(j, ft_proc_fields[k].key, r->c[k]);
		if (rep)
			cgroup_stall(j, rep, r);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

void ft_render_session_boost_zones(struct ft_json *j, const char *key, const struct ft_zoneinfo *zi,
				   const struct ft_boost_tick *b, int nr)
{
	int i;

	ft_json_arr_begin(j, key);
	for (i = 0; i < nr && (size_t)i < zi->nr; i++) {
		if (!zi->zones[i].present)
			continue;
		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, "node", zi->zones[i].node);
		ft_json_str(j, "zone", zi->zones[i].name);
		ft_json_u64(j, "peak", b[i].peak);
		ft_json_double(j, "boosted_fraction", ft_boost_share(&b[i]));
		ft_json_u64(j, "episodes", b[i].episodes);
		ft_json_u64(j, "samples", b[i].samples);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}
