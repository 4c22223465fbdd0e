// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `fragtop plot FILE... -o OUT.svg`: a recording as a self-contained SVG
 * for a mail or a web page.  Panels share the time axis (seconds into the
 * recording): per zone fragmenting fallbacks/s, the boost sampler's peak
 * and share of the tick boosted, the unusable index at pageblock order,
 * free pages, and a heatmap of stall latencies (direct compaction, direct
 * reclaim and fragmentation stalls together: time x log2 latency, darker
 * for more), and the success % of anonymous THP faults per size (6.10+
 * counters: alloc / (alloc + fallback) over each tick, a line per size
 * that had faults).  Control changes are labelled vertical lines.  Several files
 * overlay, one dash pattern each (the heatmap is the first file's).  No
 * dependency: the SVG is written by hand, fonts are "sans-serif".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/plot.h"
#include "base/outfile.h"
#include "cmd/cli.h"
#include "render/plot.h"

static struct {
	const char *output;
	bool force;
	struct ft_rep_window window;
} o;

static const struct ft_opt plot_opts[] = {
	{ "output", 'o', FT_OPT_STR, "FILE", "write the SVG to FILE (required; '-': stdout)",
	  .var = &o.output },
	{ "force", 0, FT_OPT_FLAG, NULL, "overwrite FILE", .var = &o.force },
	FT_OPT_FROM(o.window.from),
	FT_OPT_TO(o.window.to),
};

static int run_plot(int argc, char **argv)
{
	static struct ft_plot_run runs[FT_PLOT_FILES];
	int err, first, nr, k, fd = -1;
	FILE *f;
	char why[160];

	err = ft_cli_parse(&ft_cmd_plot, argc, argv, &first);
	if (err >= 0)
		return err;
	nr = argc - first;
	if (nr < 1 || nr > FT_PLOT_FILES)
		return ft_cli_usage_error(&ft_cmd_plot, "one to %d recordings expected",
					  FT_PLOT_FILES);
	if (!o.output)
		return ft_cli_usage_error(&ft_cmd_plot, "-o FILE is required");
	for (k = 0; k < nr; k++)
		if (ft_plot_load(&runs[k], argv[first + k], &o.window)) {
			while (k >= 0)
				ft_plot_release(&runs[k--]);
			return 1;
		}
	if (!strcmp(o.output, "-")) {
		f = stdout;
	} else {
		/* a picture: the umask decides, as for any output */
		fd = ft_outfile_create_mode(o.output, o.force, 0666);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			fprintf(stderr, "fragtop: %s: %s\n", o.output,
				ft_outfile_strerror(fd < 0 ? fd : -errno, "--force", why,
						    sizeof(why)));
			if (fd >= 0)
				close(fd);
			for (k = 0; k < nr; k++)
				ft_plot_release(&runs[k]);
			return 1;
		}
	}
	err = ft_render_plot_svg(f, runs, nr);
	if (f != stdout && fclose(f))
		err = -errno;
	for (k = 0; k < nr; k++)
		ft_plot_release(&runs[k]);
	if (err) {
		fprintf(stderr, "fragtop: writing %s: %s\n", o.output, strerror(-err));
		return 1;
	}
	return 0;
}

const struct ft_cmd ft_cmd_plot = {
	.name = "plot",
	.args = "FILE...",
	.summary = "draw recordings as an SVG (for a mail or a web page)",
	.about = "Per zone over time: fragmenting fallbacks/s, the boost's peak and share\n"
		 "of the tick boosted, the unusable index at pageblock order, free pages;\n"
		 "then a heatmap of stall latencies; control changes as labelled lines.\n"
		 "Several files overlay, one dash pattern each.  Render to PNG with\n"
		 "rsvg-convert if needed.",
	FT_CMD_OPTS(plot_opts),
	.run = run_plot,
};
