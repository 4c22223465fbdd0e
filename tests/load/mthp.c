// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A multi-size THP workload: for SECONDS seconds, map anonymous memory
 * 2 MiB-aligned with MADV_HUGEPAGE, touch it (a fault per page: the
 * kernel serves the largest enabled size it can, 2 MiB or 64 KiB or
 * less, or falls back), then punch every other 64 KiB out of it so the
 * memory it gives back is fragmented, keeping up to KEEP MiB mapped
 * (the rest freed as it goes).  Run it with the sizes enabled (fragtop
 * set thp_64kB=always); the per-size counters in
 * /sys/kernel/mm/transparent_hugepage/hugepages-*kB/stats grow.  With
 * "hold" it then says "holding" and keeps what it has mapped until a
 * signal ends it (for a look at the folios with the pageblock map).
 * usage: mthp [SECONDS] [KEEP_MIB] [hold]
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define HUGE	(2ul << 20)
#define CHUNK	(32ul << 20)	/* mapped and faulted a round */
#define SMALL	(64ul << 10)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* @len bytes at a 2 MiB boundary, the slack around them unmapped again */
static char *map_aligned(size_t len)
{
	char *p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + HUGE - 1) & ~(HUGE - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + len, (uintptr_t)p + HUGE - a);
	return (char *)a;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 20, end = now() + secs;
	size_t keep = (argc > 2 ? strtoul(argv[2], NULL, 10) : 1024) << 20, held = 0, i, nr = 0,
	cap;
	long page = sysconf(_SC_PAGESIZE);
	char **chunks;
	unsigned long rounds = 0;

	if (secs <= 0 || !keep || page <= 0) {
		fprintf(stderr, "usage: mthp [SECONDS] [KEEP_MIB] [hold]\n");
		return 2;
	}
	cap = keep / CHUNK + 1;
	chunks = calloc(cap, sizeof(*chunks));
	if (!chunks)
		return 1;
	while (now() < end) {
		char *p = map_aligned(CHUNK);

		if (!p)
			break;
		madvise(p, CHUNK, MADV_HUGEPAGE);
		for (i = 0; i < CHUNK; i += (size_t)page)
			p[i] = (char)i;
		/* half of it back, in 64 KiB holes: what stays pins the rest */
		for (i = 0; i < CHUNK; i += 2 * SMALL)
			madvise(p + i, SMALL, MADV_DONTNEED);
		held += CHUNK / 2;
		if (nr == cap || held > keep) {	/* the oldest chunk goes */
			munmap(chunks[0], CHUNK);
			memmove(chunks, chunks + 1, (nr - 1) * sizeof(*chunks));
			nr--;
			held -= CHUNK / 2;
		}
		chunks[nr++] = p;
		rounds++;
	}
	printf("mthp: %lu rounds of %lu MiB in %.0f s\n", rounds, CHUNK >> 20, secs);
	if (argc > 3 && !strcmp(argv[3], "hold")) {
		printf("holding %zu MiB\n", held >> 20);
		fflush(stdout);
		for (;;)
			pause();
	}
	return 0;
}
