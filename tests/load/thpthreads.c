// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A threaded program for fragtop's process view: THREADS threads (4), each
 * faulting transparent huge pages (MADV_HUGEPAGE, 2 MiB-aligned, touched
 * and unmapped again) and page tables (one byte every 2 MiB of a sparse
 * reservation: unmovable order-0 allocations), for SECONDS seconds, so
 * every thread causes fallbacks and stalls of its own.  fragtop must show
 * one process with their sum, and H a row per thread.
 * usage: thpthreads [SECONDS] [THREADS]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define HUGE		(2ul << 20)
#define THP_BYTES	(64ul << 20)	/* THP faults a round */
#define PT_SPAN		(16ul << 30)	/* page tables for this much a round: 8 Ki of them */

static double seconds = 30;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* @len bytes at a 2 MiB boundary (the rest of the mapping unmapped again) */
static char *map_aligned(size_t len, int flags)
{
	char *p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + HUGE - 1) & ~(HUGE - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + len, (uintptr_t)p + HUGE - a);
	return (char *)a;
}

static void *worker(void *arg)
{
	double end = now() + seconds;
	unsigned long rounds = 0, faults = 0;
	char name[16];
	size_t off;

	snprintf(name, sizeof(name), "thpworker%ld", (long)(intptr_t)arg);
	prctl(PR_SET_NAME, name);
	while (now() < end) {
		char *thp = map_aligned(THP_BYTES, 0), *pt = map_aligned(PT_SPAN, MAP_NORESERVE);

		if (thp) {
			madvise(thp, THP_BYTES, MADV_HUGEPAGE);
			for (off = 0; off < THP_BYTES; off += HUGE, faults++)
				thp[off] = 1;
			munmap(thp, THP_BYTES);
		}
		if (pt) {
			for (off = 0; off < PT_SPAN; off += HUGE)
				pt[off] = 1;
			munmap(pt, PT_SPAN);
		}
		rounds++;
	}
	printf("thread %ld: %lu rounds, %lu THP-sized faults\n", (long)(intptr_t)arg, rounds,
	       faults);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 4, i;
	pthread_t t[64];

	if (argc > 1)
		seconds = atof(argv[1]);
	if (n < 1 || n > 64 || !(seconds > 0)) {
		fprintf(stderr, "usage: thpthreads [SECONDS] [THREADS 1-64]\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
