/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session as Prometheus metrics: the text exposition format 0.0.4 or
 * OpenMetrics 1.0, named by Prometheus conventions (base units, _total
 * counters, labels node, zone, order, migratetype, knob).  Used by
 * `fragtop exporter`, `snapshot --openmetrics` and `export --openmetrics`.
 */
#ifndef FT_OUT_METRICS_H
#define FT_OUT_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/cgtop.h"
#include "analysis/findings.h"
#include "analysis/fits.h"
#include "kernel/selfstat.h"
#include "model/session.h"

#define FT_METRICS_CT_TEXT	"text/plain; version=0.0.4; charset=utf-8"
#define FT_METRICS_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

struct ft_metrics {
	bool openmetrics;
	/* the sample time (ms since the epoch) on every line; 0: none (a live scrape) */
	int64_t timestamp_ms;
	bool eof;		/* end with "# EOF" (OpenMetrics; not between backfill ticks) */
	/* the one family to write (enum ft_mfamily + 1); 0: all (there are more than 64) */
	int only;
	bool no_head;		/* samples only, no HELP/TYPE (a backfill's later ticks) */
	/* the exporter's own state (its families); NULL: not an exporter */
	const struct ft_metrics_server *server;
	/* labels put on every sample after its own (a backfill's instance and
	 * job): NULL-ended key, value pairs, or NULL */
	const char *const *extra_labels;
	/*
	 * the exporter's --collector.cgroups: the chosen cgroups and "other"; NULL: no cgroup
	 * families
	 */
	const struct ft_cgtop *cgroups;
	const struct ft_cgroups *cgroups_names;	/* the pods, for the name label; NULL: none */
	/* will it fit (analysis/fits.h), built by the caller; NULL: no contiguity family */
	const struct ft_fits *fits;
	/*
	 * the findings over the caller's sliding window (analysis/findings_live.h); NULL: no
	 * finding family
	 */
	const struct ft_findings *findings;
};

/* What `fragtop exporter` says of itself, as node_exporter's promhttp_* do. */
struct ft_metrics_server {
	unsigned int connections;	/* open now, the one being answered included */
	uint64_t refused;		/* answered 503: more than --max-connections */
	uint64_t scrapes;		/* /metrics answered before this one */
	uint64_t fd_rests;		/* times accept() ran out of file descriptors */
	uint64_t unauthorized;		/* answered 401: no or wrong basic-auth credentials */
	/* TLS handshakes that failed (plain HTTP on the TLS port too) */
	uint64_t tls_failed;
	/* idle, trickling or silent when a newcomer needed the slot */
	uint64_t evicted;
	uint64_t head_timeouts;		/* closed: no whole request head within --header-timeout */
	/* connections accepted (kept alive: one for many scrapes) */
	uint64_t accepted;
	uint64_t gzip;			/* scrapes answered gzip-compressed */
	/* kept-alive connections closed after --idle-timeout unused */
	uint64_t idle_timeouts;
	uint64_t throttled;		/* requests held back for their address's --max-rate */
	/* closed: a request not answered and taken 10 s after its first byte */
	uint64_t request_timeouts;
	struct ft_selfstat process;	/* process_* as every client library has them */
};

enum ft_mfamily {
	FT_MF_BUILD, FT_MF_UP, FT_MF_FREE_PAGES, FT_MF_MANAGED, FT_MF_FREE_IN_BLOCKS,
	FT_MF_FREE_BLOCKS, FT_MF_FREE_BY_TYPE,
	FT_MF_WATERMARK, FT_MF_BOOST, FT_MF_BOOST_PEAK, FT_MF_BOOSTED, FT_MF_UNUSABLE,
	FT_MF_FRAGIDX,
	/* the map's: exporter --collector.map */
	FT_MF_AMPLIFICATION, FT_MF_GIANT_NOW, FT_MF_GIANT_AFTER,
	FT_MF_PAGEBLOCKS, FT_MF_CONTIG, FT_MF_KNOB, FT_MF_THP_ENABLED, FT_MF_THP_SHMEM_ENABLED,
	FT_MF_THP_ANON,
	FT_MF_THP_SHMEM, FT_MF_THP_SPLITS, FT_MF_THP_SWPOUT, FT_MF_THP_ANON_FOLIOS,
	FT_MF_THP_PARTIAL,
	FT_MF_COMPACT_SCANNED, FT_MF_COMPACT_ISOLATED,
	FT_MF_EXTFRAG, FT_MF_COMPACTION, FT_MF_FRAG_STALLS, FT_MF_LOST,
	FT_MF_PSI_WAITING, FT_MF_PSI_STALLED,
	FT_MF_STALL_SECONDS, FT_MF_COMPACT_STALLS, FT_MF_BG_COMPACTIONS, FT_MF_BG_COMPACT_SECONDS,
	FT_MF_KCOMPACTD_WAKES,
	FT_MF_SELF_FRAG, FT_MF_SELF_FALLBACKS, FT_MF_SELF_STALL,	/* fragtop's own threads' */
	FT_MF_CG_FRAG, FT_MF_CG_FALLBACKS, FT_MF_CG_COMPACT, FT_MF_CG_RECLAIM, FT_MF_CG_ANON,
	FT_MF_CG_ANON_THP,
	FT_MF_CG_WAITING, FT_MF_CG_STALLED, FT_MF_CG_UNLISTED,
	FT_MF_FINDING, FT_MF_ALLOC_FAILURES,
	FT_MF_SRV_CONNS, FT_MF_SRV_FD_RESTS, FT_MF_SRV_REFUSED, FT_MF_SRV_SCRAPES,
	FT_MF_SRV_UNAUTHORIZED, FT_MF_SRV_TLS_FAILED, FT_MF_SRV_EVICTED, FT_MF_SRV_HEAD_TIMEOUTS,
	FT_MF_SRV_ACCEPTED, FT_MF_SRV_GZIP, FT_MF_SRV_IDLE_TIMEOUTS, FT_MF_SRV_THROTTLED,
	FT_MF_SRV_REQ_TIMEOUTS,
	FT_MF_SRV_OPENS, FT_MF_SRV_READS, FT_MF_SRV_READ_BYTES, FT_MF_SRV_HEAP,
	FT_MF_PROC_CPU, FT_MF_PROC_RSS, FT_MF_PROC_VSIZE, FT_MF_PROC_FDS, FT_MF_PROC_MAX_FDS,
	FT_MF_PROC_START,
	FT_MF_NR
};

/*
 * Whether @name may be an extra label: a Prometheus label name
 * ([a-zA-Z_][a-zA-Z0-9_]*, not "__" reserved) that none of fragtop's
 * families uses itself.  0, or -1 with the reason in @why.
 */
int ft_render_metrics_label_ok(const char *name, char *why, size_t sz);

/* Write the families of @m from @s; returns -EIO if @f failed. */
int ft_render_metrics_write(FILE *f, const struct ft_session *s, const struct ft_metrics *m);

#endif
