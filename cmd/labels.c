// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop labels`: will it fit (analysis/fits.h) as node labels, a
 * node-feature-discovery feature file, so that a Kubernetes scheduler can
 * select nodes on it (nodeSelector or affinity on
 * feature.node.kubernetes.io/fragtop.contiguous-1G-now, say).  Run it
 * from a timer or a DaemonSet; -o writes the file whole or not at all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/fits.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "cmd/cli.h"
#include "collectors/live.h"
#include "render/fit.h"

static struct {
	const char *root, *output, *sizes, *prefix;
	double expiry;
	bool no_map, map_force;
} o;

static const struct ft_opt opts[] = {
	{ "output", 'o', FT_OPT_STR, "FILE",
	  "write the feature file to FILE whole or not at all (e.g.\n"
	  "/etc/kubernetes/node-feature-discovery/features.d/fragtop)", .var = &o.output },
	{ "size", 's', FT_OPT_STR, "SIZE[,...]",
	  "label these sizes (powers of two: 2M, 32M, 1G); default: the\n"
	  "host's hugetlb sizes and the pageblock", .var = &o.sizes },
	{ "expiry", 0, FT_OPT_SECS, "SECS",
	  "NFD drops the labels SECS after they were written unless the\n"
	  "file is written again (0: never)", 0, 31536000, .var = &o.expiry, .def = "600" },
	{ "prefix", 0, FT_OPT_STR, "TEXT", "the labels' namespace and name start",
	  .var = &o.prefix, .def = "feature.node.kubernetes.io/fragtop." },
	{ "no-map", 0, FT_OPT_FLAG, NULL,
	  "from the free lists only: no /proc/kpageflags read, so no\n"
	  "after-compaction labels and none above the buddy's largest order", .var = &o.no_map },
	FT_OPT_MAP_FORCE(o.map_force),
	FT_OPT_ROOT(o.root),
};

/*
 * A label's namespace and name start ("example.com/fragtop."): the
 * namespace a DNS subdomain (lower case, digits, '.', '-'), one '/', then
 * the name's start (letters, digits, '.', '-', '_', beginning with a letter
 * or digit when there is one), short enough that every name fragtop adds
 * ("node1023.contiguous-1024K-after-compaction", 42) stays within 63.
 */
static bool prefix_ok(const char *p)
{
	const char *slash = strchr(p, '/'), *c;

	if (!slash || slash == p || slash - p > 253 || strchr(slash + 1, '/') ||
	    strlen(slash + 1) > 20)
		return false;
	for (c = p; c < slash; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' ||
		      *c == '-'))
			return false;
	for (c = slash + 1; *c; c++) {
		bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		(*c >= '0' && *c <= '9');

		if (!alnum && (c == slash + 1 || (*c != '.' && *c != '-' && *c != '_')))
			return false;
	}
	return true;
}

static int sizes_of(const struct ft_session *s, struct ft_fits_sizes *out)
{
	int asked[FT_FITS_SIZES_MAX];
	char err[128];
	size_t n = 0;

	if (o.sizes &&
	    ft_fit_sizes_parse(o.sizes, s->host.page_size, asked, FT_FITS_SIZES_MAX, &n, err,
			       sizeof(err))) {
		fprintf(stderr, "fragtop labels: --size '%s': %s\n", o.sizes, err);
		return 2;
	}
	ft_fits_sizes(s, o.sizes ? 0 : FT_FITS_SRC_HUGETLB | FT_FITS_SRC_PAGEBLOCK, asked, n, out);
	return 0;
}

static int write_file(const struct ft_fits *t)
{
	struct ft_atomic out = { .f = stdout, .dirfd = -1 };
	long expiry = o.expiry > 0 ? (long)time(NULL) + (long)o.expiry : 0;
	int err;

	if (o.output && (err = ft_atomic_open(&out, o.output))) {
		fprintf(stderr, "fragtop labels: %s: %s\n", o.output, strerror(-err));
		return 1;
	}
	ft_render_fits_nfd(out.f, t, expiry, o.prefix);
	if (o.output && (err = ft_atomic_commit(&out, o.output, 0644))) {
		fprintf(stderr, "fragtop labels: writing %s: %s\n", o.output, strerror(-err));
		return 1;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct ft_fits_sizes sizes;
	struct ft_fits t;
	struct ft_live *l;
	int first, rc, err;

	rc = ft_cli_parse(&ft_cmd_labels, argc, argv, &first);
	if (rc >= 0)
		return rc;
	if (first != argc)
		return ft_cli_usage_error(&ft_cmd_labels, "'%s': no operand expected", argv[first]);
	if (!prefix_ok(o.prefix))
		return ft_cli_usage_error(&ft_cmd_labels,
					  "--prefix '%s': a label namespace and name start "
					  "(\"example.com/fragtop.\"): lower case, digits, '.', "
					  "'-', one '/'", o.prefix);
	l = calloc(1, sizeof(*l));
	if (!l || ft_live_open(l, o.root, 0)) {
		fprintf(stderr, "fragtop labels: cannot open root %s\n", o.root);
		free(l);
		return 1;
	}
	if (o.map_force)
		ft_live_map_force(l);
	ft_fits_init(&t);
	rc = sizes_of(&l->session, &sizes);
	if (!rc && (err = ft_live_tick(l, true)) != 0) {
		fprintf(stderr, "fragtop labels: no usable /proc/zoneinfo under %s: %s\n", o.root,
			strerror(-err));
		rc = 1;
	}
	if (!rc && !o.no_map) {
		l->map.scan = true;
		if (ft_live_map_scan_all(l))
			fprintf(stderr, "fragtop labels: no after-compaction labels: the pageblock "
					"map: %s\n",
				l->map.err == -EACCES ||
				l->map.err == -EPERM ? "/proc/kpageflags needs root" :
				strerror(-l->map.err));
	}
	if (!rc && ft_fits_build(&t, &l->session, &sizes, !o.no_map)) {
		fprintf(stderr, "fragtop labels: no usable /proc/buddyinfo under %s\n", o.root);
		rc = 1;
	}
	if (!rc)
		rc = write_file(&t);
	ft_fits_release(&t);
	ft_live_close(l);
	free(l);
	return rc;
}

const struct ft_cmd ft_cmd_labels = {
	.name = "labels",
	.summary = "contiguity as node labels: a node-feature-discovery feature file",
	.about = "For NFD's local source: -o "
		 "/etc/kubernetes/node-feature-discovery/features.d/fragtop,\nfrom a timer or a "
		 "DaemonSet; a pod then selects nodes on, "
		 "say,\nfeature.node.kubernetes.io/fragtop.contiguous-1G-now (a count).",
	FT_CMD_OPTS(opts),
	.run = run,
};
