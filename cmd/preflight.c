// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop preflight --need COUNTxSIZE[,...]`: will the blocks fit, now,
 * after compaction, or not at all (analysis/fits.h), as an exit code for
 * scripts: 0 fits now, 1 only after compaction, 2 does not fit, 3 cannot
 * tell (and every bad input: a script must never read a typo as "does
 * not fit").
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/fits.h"
#include "base/diag.h"
#include "cmd/cli.h"
#include "collectors/live.h"
#include "controls/compact.h"
#include "controls/control.h"
#include "render/fit.h"

static struct {
	const char *need, *root, *node, *sizes;
	bool compact, json, no_map, map_force, contig;
} o;

static const struct ft_opt opts[] = {
	{ "need", 'n', FT_OPT_STR, "COUNTxSIZE[,...]",
	  "the blocks wanted, e.g. 4x1G or 4x1G,512x2M (sizes are powers of\n"
	  "two: 4K 2M 32M 1G); several needs are judged together, largest\n"
	  "first, each taking its blocks from the ones after it.  Without it,\n"
	  "the table of every size", .var = &o.need },
	{ "contig", 0, FT_OPT_FLAG, NULL,
	  "judge every need as any contiguous range (alloc_contig_pages,\n"
	  "CMA, a driver's buffer), not as a hugetlb page: without it a\n"
	  "need of a hugetlb size of this CPU must be one the host offers", .var = &o.contig },
	{ "node", 0, FT_OPT_STR, "N", "only node N's memory counts (without it, a need may be met\n"
	  "across nodes)", .var = &o.node },
	{ "size", 's', FT_OPT_STR, "SIZE[,...]",
	  "more sizes for the table (besides the host's hugetlb,\nmulti-size THP and pageblock "
	  "sizes)", .var = &o.sizes },
	{ "compact", 0, FT_OPT_FLAG, NULL,
	  "when a need does not fit now, ask the kernel to compact the nodes\n"
	  "concerned (root; nodeN/compact), check again and say what it\n"
	  "gave; logged like a knob change, and refused more than once a\n"
	  "minute.  Without it preflight changes nothing", .var = &o.compact },
	{ "no-map", 0, FT_OPT_FLAG, NULL,
	  "answer from the free lists only: no /proc/kpageflags read, so no\n"
	  "\"after compaction\" and nothing above the buddy's largest order", .var = &o.no_map },
	FT_OPT_MAP_FORCE(o.map_force),
	FT_OPT_JSON(o.json),
	FT_OPT_ROOT(o.root),
};

/* Say why it cannot tell and return 3. */
__attribute__((format(printf, 1, 2)))
static int cannot(const char *fmt, ...)
{
	va_list ap;

	fputs("fragtop preflight: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (exit 3: cannot tell)\n", stderr);
	return FT_FIT_UNKNOWN;
}

/* The largest zone span (pages) on @node (-1: any), from zoneinfo. */
static uint64_t largest_zone(const struct ft_session *s, int node)
{
	uint64_t best = 0;
	size_t i;

	for (i = 0; i < s->sample.zoneinfo.nr; i++) {
		const struct ft_zi_zone *z = &s->sample.zoneinfo.zones[i];

		if ((node < 0 || z->node == node) && ft_zi_populated(z) && z->spanned > best)
			best = z->spanned;
	}
	return best;
}

static bool node_exists(const struct ft_session *s, int node, char *list, size_t sz)
{
	size_t i, len = 0;
	int last = -1;
	bool found = false;

	list[0] = '\0';
	for (i = 0; i < s->sample.zoneinfo.nr; i++) {
		int n = s->sample.zoneinfo.zones[i].node;

		if (n == node)
			found = true;
		if (n != last && len < sz) {
			int w = snprintf(list + len, sz - len, "%s%d", len ? ", " : "", n);

			len += w > 0 ? (size_t)w : 0;
			last = n;
		}
	}
	return found;
}

static const char *map_why(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return "/proc/kpageflags needs root: \"after compaction\" and sizes above the "
		       "buddy's are not known";
	case -ENOENT:
		return "no /proc/kpageflags on this kernel: \"after compaction\" is not known";
	case -ECANCELED:
		return "kept off on a CONFIG_DEBUG_VM kernel before 6.17 (--map-force reads it "
		       "anyway)";
	default:
		return "the pageblock map could not be read";
	}
}

struct run {
	struct ft_live live;
	struct ft_fits fits;
	struct ft_fits_sizes sizes;
	struct ft_fit_need needs[FT_FIT_NEEDS_MAX];
	size_t nr_needs;
	struct ft_fits_need judged[FT_FIT_NEEDS_MAX], before[FT_FIT_NEEDS_MAX];
	enum ft_fit_verdict verdict;
	/*
	 * each need: judged as a hugetlb page (else a contiguous range), and why so or why it
	 * cannot be one
	 */
	bool hugetlb[FT_FIT_NEEDS_MAX], refused[FT_FIT_NEEDS_MAX];
	char as_note[FT_FIT_NEEDS_MAX][192];
	int node;
	bool map_tried;
	char reason[256], compact_msg[256];
};

/* Read the map of every zone (once), as snapshot --map does.  0 or -errno. */
static int read_map(struct run *r)
{
	r->map_tried = true;
	r->live.map.scan = true;
	return ft_live_map_scan_all(&r->live);
}

/* A hugetlb need the host cannot give does not fit, whatever the free memory holds. */
static void refuse_kinds(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nr_needs; i++)
		if (r->refused[i]) {
			r->judged[i].verdict = FT_FIT_NO;
			r->verdict = FT_FIT_NO;
		}
}

static int build(struct run *r, bool map)
{
	int err = ft_fits_build(&r->fits, &r->live.session, &r->sizes, map);

	if (err)
		return err;
	r->verdict = ft_fits_judge(&r->fits, r->node, r->needs, r->nr_needs, r->judged);
	refuse_kinds(r);
	return 0;
}

/*
 * Judge from the free lists of the sample, read the map when the answer needs it. 0 or 3 after
 * saying why.
 */
static int answer(struct run *r)
{
	size_t i;
	int err;

	if (!ft_sample_has(&r->live.session.sample, FT_SRC_BUDDYINFO))
		return cannot("no usable /proc/buddyinfo under %s", o.root);
	err = build(r, false);
	if (err)
		return cannot("%s", strerror(-err));
	if (o.no_map || (r->nr_needs && r->verdict == FT_FIT_NOW))
		return 0;
	for (i = 0; i < r->nr_needs && r->refused[i]; i++)
		;
	if (r->nr_needs && i == r->nr_needs)
		return 0;	/* every need refused: no map to read for them */
	if (read_map(r) == 0 && (err = build(r, true)))
		return cannot("%s", strerror(-err));
	return 0;
}

static int compact(struct run *r)
{
	struct ft_ctl *ctl;
	int nodes[1024];
	size_t n = 0, i;
	uint64_t ago;
	struct timespec ts;
	int err;

	if (r->verdict == FT_FIT_NOW) {
		snprintf(r->compact_msg, sizeof(r->compact_msg), "not asked: the needs fit now");
		return 0;
	}
	for (i = 0; i < r->fits.nr_nodes && n < 1024; i++)
		if (r->node < 0 || ft_fits_node_at(&r->fits, i, 0)->node == r->node)
			nodes[n++] = ft_fits_node_at(&r->fits, i, 0)->node;
	ctl = malloc(sizeof(*ctl));
	if (!ctl)
		return -ENOMEM;
	ft_ctl_init(ctl, r->live.procfs.rootfd, NULL);
	ctl->syslog = !strcmp(o.root, "/");
	ctl->journal = ctl->syslog;
	ctl->by = "preflight";
	clock_gettime(CLOCK_BOOTTIME, &ts);
	err = ft_compact_nodes(ctl, nodes, n, (uint64_t)ts.tv_sec, &ago);
	if (err == -EAGAIN) {
		snprintf(r->compact_msg, sizeof(r->compact_msg),
			 "refused: the last one was %" PRIu64 " s ago (at most one a minute)", ago);
	} else if (err) {
		snprintf(r->compact_msg, sizeof(r->compact_msg),
			 "not asked: run/fragtop/compact.stamp: %s",
			 strerror(-err));
	} else {
		size_t len = 0, k, ok = 0;

		for (k = 0; k < ft_ctl_audit_kept(ctl); k++) {
			const struct ft_audit *a = ft_ctl_audit_get(ctl, k);

			ok += a->outcome == FT_CTL_OK;
			if (a->outcome != FT_CTL_OK && len < sizeof(r->compact_msg)) {
				int w = snprintf(r->compact_msg + len, sizeof(r->compact_msg) - len,
						 "%s%s",
						 len ? "; " : "", a->msg);

				len += w > 0 ? (size_t)w : 0;
			}
		}
		if (!len) {
			char list[256] = "";
			size_t ll = 0;

			for (k = 0; k < n && ll < sizeof(list); k++) {
				int w = snprintf(list + ll, sizeof(list) - ll, "%s%d",
						 k ? ", " : "", nodes[k]);

				ll += w > 0 ? (size_t)w : 0;
			}
			snprintf(r->compact_msg, sizeof(r->compact_msg), "node%s %s compacted",
				 n == 1 ? "" : "s",
				 list);
		}
		if (ok) {
			memcpy(r->before, r->judged, sizeof(r->before));
			/* the new state: a new tick, the map read again */
			err = ft_live_tick(&r->live, true);
			if (!err && r->map_tried && !r->live.map.err)
				err = ft_live_map_scan_all(&r->live);
			if (!err)
				err = build(r, r->map_tried && !r->live.map.err);
		}
	}
	free(ctl);
	return err == -EAGAIN ? 0 : err;
}

static int parse_node(void)
{
	char *end;
	long v;

	if (!o.node)
		return -1;
	v = strtol(o.node, &end, 10);
	if (end == o.node || *end || v < 0 || v > 65535)
		return -2;
	return (int)v;
}

static int parse_sizes(const struct ft_session *s, int *asked, size_t *n)
{
	char err[128];

	*n = 0;
	if (o.sizes &&
	    ft_fit_sizes_parse(o.sizes, s->host.page_size, asked, FT_FITS_SIZES_MAX, n, err,
			       sizeof(err)))
		return cannot("--size '%s': %s", o.sizes, err);
	return 0;
}

/*
 * Only errors reach stderr: a source preflight does without (pagetypeinfo
 * for a user, vmstat) is no news, and the map's failure is in the answer.
 */
static void quiet(void *ctx, enum ft_diag_level level, const char *msg)
{
	(void)ctx;
	if (level == FT_DIAG_ERR)
		fprintf(stderr, "fragtop preflight: %s\n", msg);
}

/*
 * How each need will be allocated: as a hugetlb page where its size is one
 * the host offers (hugepages-<size>kB) or one of this CPU's, which the
 * host must then offer; else (or with --contig) as a contiguous range.
 */
static void need_kinds(struct run *r)
{
	const struct ft_host *h = &r->live.host;
	struct ft_fit_cpu cpu;
	char size[24];
	size_t i;
	unsigned int k;

	ft_host_cpu(r->live.procfs.rootfd, &cpu);
	for (i = 0; i < r->nr_needs; i++) {
		int order = r->needs[i].order;
		uint64_t kb = ((uint64_t)h->page_size << order) / 1024;
		bool offered = false;

		ft_fit_size_name(order, h->page_size, size, sizeof(size));
		for (k = 0; k < h->nr_huge; k++)
			offered |= h->huge_kb[k] == kb;
		if (o.contig) {
			snprintf(r->as_note[i], sizeof(r->as_note[i]),
				 "as a contiguous range (--contig)");
		} else if (offered) {
			r->hugetlb[i] = true;
			snprintf(r->as_note[i], sizeof(r->as_note[i]),
				 "as %s hugetlb pages (hugepages-%llukB)", size,
				 (unsigned long long)kb);
		} else if (ft_fit_hugetlb_arch(cpu.arch, h->page_size, order)) {
			r->hugetlb[i] = r->refused[i] = true;
			if (cpu.arch == FT_ARCH_X86 && kb == 1048576 && cpu.pdpe1gb == 0)
				snprintf(r->as_note[i], sizeof(r->as_note[i]),
					 "this CPU has no 1 GiB pages: no pdpe1gb (--contig judges "
					 "it as a contiguous range)");
			else
				snprintf(r->as_note[i], sizeof(r->as_note[i]),
					 "this host offers no %s hugetlb pages (no "
					 "hugepages-%llukB; --contig judges it as a contiguous "
					 "range)", size,
					 (unsigned long long)kb);
		} else {
			snprintf(r->as_note[i], sizeof(r->as_note[i]),
				 "as a contiguous range: %s is no hugetlb size here", size);
		}
	}
}

/* The needs, --size and --node against the host's first sample; 0 or 3 after saying why. */
static int check_input(struct run *r)
{
	const struct ft_session *s = &r->live.session;
	int asked[FT_FITS_SIZES_MAX * 2], rc;
	size_t na = 0, i;
	char err[160], list[256];

	/* the host facts (page size, hugetlb sizes) came with the open */
	if (o.need &&
	    ft_fit_needs_parse(o.need, s->host.page_size, r->needs, &r->nr_needs, err, sizeof(err)))
		return cannot("--need '%s': %s", o.need, err);
	if (!o.need && o.compact)
		return cannot("--compact needs --need: it compacts only for blocks that do not fit "
			      "now");
	if (o.compact && geteuid() != 0 && !strcmp(o.root, "/"))
		return cannot("--compact needs root (it writes "
			      "/sys/devices/system/node/nodeN/compact)");
	if ((rc = parse_sizes(s, asked, &na)) != 0)
		return rc;
	for (i = 0; i < r->nr_needs && na < FT_FITS_SIZES_MAX * 2; i++)
		asked[na++] = r->needs[i].order;
	if ((rc = ft_live_tick(&r->live, true)) != 0)
		return cannot("no usable /proc/zoneinfo under %s: %s", o.root, strerror(-rc));
	if (r->node >= 0 && !node_exists(s, r->node, list, sizeof(list)))
		return cannot("no node %d here (nodes: %s)", r->node, list);
	for (i = 0; i < r->nr_needs; i++) {
		uint64_t span = largest_zone(s, r->node);
		char size[24], big[24];
		int o2 = 0;

		if (r->needs[i].order < 63 && (1ull << r->needs[i].order) <= span)
			continue;
		while (o2 < 62 && (2ull << o2) <= span)
			o2++;
		return cannot("need %zu: %s is larger than any zone%s (the largest spans %s)",
			      i + 1,
			      ft_fit_size_name(r->needs[i].order, s->host.page_size, size,
					       sizeof(size)),
			      r->node >= 0 ? " of the node" : "",
			      ft_fit_size_name(o2, s->host.page_size, big, sizeof(big)));
	}
	ft_fits_sizes(s, FT_FITS_SRC_HOST, asked, na, &r->sizes);
	need_kinds(r);
	return 0;
}

/* The answer on stdout; returns the exit status. */
static int print(struct run *r)
{
	struct ft_preflight p = {
		.session = &r->live.session, .fits = &r->fits, .root = o.root, .node = r->node,
		.needs = r->nr_needs ? r->judged : NULL, .nr_needs = r->nr_needs,
		.verdict = r->nr_needs ? r->verdict : FT_FIT_NOW,
		.compact = o.compact, .compact_msg = o.compact ? r->compact_msg : NULL,
		.before = o.compact && r->before[0].need.count ? r->before : NULL,
		.hugetlb = r->hugetlb, .refused = r->refused, .as_note = r->as_note,
	};

	if (o.no_map)
		p.map_note = "not read (--no-map)";
	else if (r->map_tried && r->live.map.err)
		p.map_note = map_why(r->live.map.err);
	else if (!r->map_tried)
		p.map_note = "not read: every need fits in the free lists";
	if (p.verdict == FT_FIT_UNKNOWN) {
		if (r->map_tried && r->live.map.err)
			snprintf(r->reason, sizeof(r->reason), "%s", map_why(r->live.map.err));
		else if (o.no_map)
			snprintf(r->reason, sizeof(r->reason),
				 "the free lists do not hold it, and without the map (--no-map) "
				 "nothing more is known");
		else
			snprintf(r->reason, sizeof(r->reason),
				 "the answer lies among pageblocks not read whole (%" PRIu64 ")",
				 r->fits.map_unread);
		p.reason = r->reason;
	}
	if (o.json)
		ft_render_preflight_json(stdout, &p);
	else
		ft_render_preflight_text(stdout, &p);
	return p.verdict;
}

static int run(int argc, char **argv)
{
	struct run *r;
	int first, rc;

	rc = ft_cli_parse(&ft_cmd_preflight, argc, argv, &first);
	if (rc >= 0)
		/* a usage error must not read as "does not fit" */
		return rc == 0 ? 0 : FT_FIT_UNKNOWN;
	if (first != argc) {
		ft_cli_usage_error(&ft_cmd_preflight, "'%s': no operand expected", argv[first]);
		return FT_FIT_UNKNOWN;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return cannot("out of memory");
	ft_diag_set_hook(quiet, NULL);
	r->node = parse_node();
	if (r->node == -2) {
		free(r);
		return cannot("--node '%s': not a node number", o.node);
	}
	if (ft_live_open(&r->live, o.root, 0)) {
		free(r);
		return cannot("cannot open root %s", o.root);
	}
	if (o.map_force)
		ft_live_map_force(&r->live);
	ft_fits_init(&r->fits);
	rc = check_input(r);
	if (!rc)
		rc = answer(r);
	if (!rc && o.compact && (rc = compact(r)) != 0)
		rc = cannot("compaction: %s", strerror(-rc));
	if (!rc)
		rc = print(r);
	ft_fits_release(&r->fits);
	ft_live_close(&r->live);
	free(r);
	return rc;
}

const struct ft_cmd ft_cmd_preflight = {
	.name = "preflight",
	.summary = "will N blocks of a size fit, now or after compaction (exit 0/1/2/3)",
	.about = "Exit status: 0 every need fits now, 1 only after compaction, 2 one\n"
		 "does not fit, 3 cannot tell (not root, no /proc/kpageflags, bad input).\n"
		 "\"Now\" is what the free lists give above the min watermark; \"after\n"
		 "compaction\" the aligned blocks holding only free and movable pages,\n"
		 "no more than the free memory can hold.",
	FT_CMD_OPTS(opts),
	.run = run,
};
