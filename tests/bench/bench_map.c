// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench, pageblock map (root, live host): a full scan of every zone
 * through the collector and classifier against a bare pread of the same
 * /proc/kpageflags range (goal: classification adds <= 10%), the pure
 * classification cost per PFN, and the cost of one second of the map
 * view's scanning at its default CPU budget.  One run; nothing asserted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/bench/clock.h"
#include "tests/bench/figure.h"
#include "base/clock.h"
#include "collectors/live.h"

/* Read every zone's span of kpageflags in the collector's batch size. */
static uint64_t bare_pread(int fd, const struct ft_pbmap *m, uint64_t *buf)
{
	uint64_t pfns = 0;
	size_t z;

	for (z = 0; z < m->nr; z++) {
		const struct ft_pbmap_zone *zn = &m->zones[z];
		uint32_t b;

		for (b = 0; b < zn->nr_blocks; b += FT_KPF_BATCH_BLOCKS) {
			uint32_t nb = zn->nr_blocks - b < FT_KPF_BATCH_BLOCKS ?
				      zn->nr_blocks - b : FT_KPF_BATCH_BLOCKS;
			size_t words = (size_t)nb << m->order;
			ssize_t r = pread(fd, buf, words * 8,
					  (off_t)(((zn->first_block + b) << m->order) * 8));

			if (r < 0)
				return 0;
			pfns += words;
		}
	}
	return pfns;
}

int main(void)
{
	static struct ft_live l;
	double best_bare = 1e18, best_full = 1e18, best_cls = 1e18, c0, w0, full_wall = 0;
	uint64_t pfns = 0, *buf;
	int fd, rep;

	if (ft_live_open(&l, "/", 0) || ft_live_tick(&l, true)) {
		fprintf(stderr, "bench_map: cannot sample /proc\n");
		return 1;
	}
	if (ft_live_map_enable(&l, true) || l.session.map.order < 0) {
		printf("pageblock map: skipped (%s)\n",
		       l.map.err ? strerror(-l.map.err) : "no pageblock order");
		return 0;
	}
	fd = open("/proc/kpageflags", O_RDONLY);
	buf = malloc(((size_t)FT_KPF_BATCH_BLOCKS << l.session.map.order) * 8);
	if (fd < 0 || !buf)
		return 1;
	printf("\npageblock map (one run, best of 3; kernel time dominates both)\n");
	for (rep = 0; rep < 3; rep++) {
		c0 = cpu_ms();
		pfns = bare_pread(fd, &l.session.map, buf);
		if (cpu_ms() - c0 < best_bare)
			best_bare = cpu_ms() - c0;
		c0 = cpu_ms();
		w0 = wall_ms();
		ft_live_map_scan_all(&l);
		if (cpu_ms() - c0 < best_full) {
			best_full = cpu_ms() - c0;
			full_wall = wall_ms() - w0;
		}
	}
	/* the classifier alone, on flags already in memory (the last batch read) */
	{
		const struct ft_pbmap_zone *zn = &l.session.map.zones[l.session.map.nr - 1];
		uint32_t nb = zn->nr_blocks < FT_KPF_BATCH_BLOCKS ?
			zn->nr_blocks : FT_KPF_BATCH_BLOCKS;
		size_t words = (size_t)nb << l.session.map.order;
		int i;

		if (pread(fd, buf, words * 8,
			  (off_t)((zn->first_block << l.session.map.order) * 8)) > 0) {
			for (rep = 0; rep < 3; rep++) {
				c0 = cpu_ms();
				for (i = 0; i < 20; i++)
					ft_pbmap_feed(&l.session.map, l.session.map.nr - 1, 0, nb,
						      buf, NULL, false);
				if ((cpu_ms() - c0) / (20.0 * (double)words) < best_cls)
					best_cls = (cpu_ms() - c0) / (20.0 * (double)words);
			}
		}
	}
	printf("  %llu PFNs (%.1f GiB of 4K pages) in %zu zones, pageblock order %d\n",
	       (unsigned long long)pfns, (double)pfns * 4096 / (1 << 30), l.session.map.nr,
	       l.session.map.order);
	printf("  bare pread of kpageflags:    %8.1f ms CPU  (%.1f ns/PFN)\n", best_bare,
	       best_bare * 1e6 / (double)pfns);
	printf("  full scan + classification:  %8.1f ms CPU  (%.1f ns/PFN, %.1f ms wall; "
	       "kpagecount read for %llu runs of flagless pages)\n",
	       best_full, best_full * 1e6 / (double)pfns, full_wall,
	       (unsigned long long)l.map.kpf.count_reads / 3);
	printf("  classification adds %.1f%% to the bare read (goal <= 10%%); the classifier "
	       "alone: %.2f ns/PFN\n",
	       (best_full - best_bare) * 100 / best_bare, best_cls * 1e6);
	printf("  exact pass / bare pread of the same range: %.2fx CPU per PFN (target <= 1.2x)\n",
	       best_full / best_bare);
	/*
	 * The first look: a sample in every cell of the largest zone on a
	 * 120x40 terminal (109 x 30 cells), from an empty map, as the map
	 * view asks for it.
	 */
	{
		struct ft_pbmap *m = &l.session.map;
		size_t z, big = 0;
		uint32_t cells = 109 * 30, bpc, i;
		uint64_t s0;
		double c1;

		for (z = 0; z < m->nr; z++) {
			if (m->zones[z].nr_blocks > m->zones[big].nr_blocks)
				big = z;
		}
		for (i = 0; i < m->zones[big].nr_blocks; i++) {	/* forget the whole reads */
			m->zones[big].blocks[i].cls = FT_PB_UNSCANNED;
			m->zones[big].blocks[i].scls = FT_PB_UNSCANNED;
		}
		m->zones[big].sampled = 0;
		m->zones[big].epoch = ++m->epochs;
		bpc = (m->zones[big].nr_blocks + cells - 1) / cells;
		cells = (m->zones[big].nr_blocks + bpc - 1) / bpc;
		ft_live_map_focus(&l, big, bpc);
		s0 = l.map.kpf.samples;
		c0 = cpu_ms();
		while (m->zones[big].sampled < cells)
			if (ft_kpf_scan(&l.map.kpf, m, 1) < 0)
				break;
		c1 = cpu_ms() - c0;
		printf("  first look of N%d %s (%u cells of %u blocks): %llu samples of %d pages, "
		       "%.1f ms CPU\n  (%.1f us each): %.2f s of the default %.0f%% budget, run at "
		       "once (it may borrow %d s ahead)\n",
		       m->zones[big].node, m->zones[big].name, cells, bpc,
		       (unsigned long long)(l.map.kpf.samples - s0), FT_PB_SAMPLE_WORDS, c1,
		       c1 * 1000 / (double)(l.map.kpf.samples - s0 ? l.map.kpf.samples - s0 : 1),
		       c1 / (FT_LIVE_MAP_CPU * 1000), FT_LIVE_MAP_CPU * 100, FT_LIVE_MAP_FIRST_S);
	}
	/* incremental: the map view's poll, one second's budget at a time, at the default 2% */
	{
		double worst = 0, sum = 0, c1;
		uint64_t p0 = l.map.scan_pfns;

		l.map.cpu = FT_LIVE_MAP_CPU;
		for (rep = 0; rep < 5; rep++) {
			l.map.allow_ns = 0;
			/* a second since the last poll */
			l.map.last_ns = ft_now_ns() - 1000000000ull;
			c0 = cpu_ms();
			ft_live_map_poll(&l);
			c1 = cpu_ms() - c0;
			sum += c1;
			if (c1 > worst)
				worst = c1;
		}
		bench_figure("map.scan_pct", sum / 5 / 10, "%core");
		printf("  map view open, default budget %.0f%% of a core: %.1f ms CPU per 1 s "
		       "(worst %.1f) = %.2f%% of a core;\n  %.0f PFNs a second, a full pass of "
		       "this host every %.0f s (blocks fallbacks name go first)\n",
		       FT_LIVE_MAP_CPU * 100, sum / 5, worst, sum / 5 / 10,
		       (double)(l.map.scan_pfns - p0) / 5,
		       (double)pfns / ((double)(l.map.scan_pfns - p0) / 5));
	}
	close(fd);
	free(buf);
	ft_live_close(&l);
	return 0;
}
