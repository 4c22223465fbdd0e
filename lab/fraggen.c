/* fraggen: the lab guest's memory shapers, static so the initramfs needs
 * no libraries.  Each mode makes one kind of memory the stall patch cares
 * about:
 *
 *   fraggen slab DIR N KEEP   create N empty files in DIR (inodes and dentries:
 *                             unmovable and reclaimable slab spread over the
 *                             zones), then unlink all but every KEEP-th, so
 *                             slab pageblocks are left with small free holes
 *   fraggen anon MB SECS      fault MB of anonymous memory in base pages
 *                             (MADV_NOHUGEPAGE; movable, not reclaimable
 *                             without swap), hold it SECS seconds, exit
 *   fraggen read FILE SECS    read FILE again and again for SECS seconds
 *                             (clean page cache kswapd can reclaim)
 *   fraggen ptes MB SECS [KEEP]
 *                             allocate MB of page tables (unmovable base
 *                             pages, one per 2 MiB of address space read
 *                             once: the zero page costs nothing more), free
 *                             every other one and hold the rest SECS
 *                             seconds: unmovable pageblocks full of order-0
 *                             holes, which no claim (order >= 4) can take;
 *                             KEEP 1 frees none (the unmovable free lists
 *                             end up empty, so the next unmovable
 *                             allocation falls back)
 *
 * Each prints one line of what it did.  Exit status 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int die(const char *what)
{
	fprintf(stderr, "fraggen: %s: %s\n", what, strerror(errno));
	return 1;
}

static int slab(const char *dir, long n, long keep)
{
	char path[4096];
	long i, made = 0, gone = 0;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return die(dir);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		int fd = open(path, O_CREAT | O_WRONLY, 0600);
		if (fd < 0)
			break;	/* out of inodes or memory: keep what we made */
		close(fd);
		made++;
	}
	/* unlink in a stride so the survivors sit all over the slab pages */
	for (i = 0; i < made; i++) {
		if (keep > 0 && i % keep == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%ld", dir, i);
		if (unlink(path) == 0)
			gone++;
	}
	printf("fraggen slab: %ld files made, %ld unlinked, %ld kept\n", made, gone, made - gone);
	return 0;
}

static int anon(long mb, int secs)
{
	size_t len = (size_t)mb << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	double t0 = now();
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return die("mmap");
	madvise(p, len, MADV_NOHUGEPAGE);
	for (off = 0; off < len; off += page)
		p[off] = 1;
	printf("fraggen anon: %ld MiB faulted in %.2f s\n", mb, now() - t0);
	fflush(stdout);
	if (secs > 0)
		sleep(secs);
	return 0;
}

/* Page tables come off the unmovable pcp list in ascending PFN order, so
 * freeing every other one leaves single free pages between used ones:
 * holes the 6.12+ allocator can only steal, never claim. */
static int ptes(long mb, int secs, int keep)
{
	const size_t span = 2UL << 20;
	size_t n = (size_t)mb << 8, i;	/* 256 page tables per MiB */
	double t0 = now();
	volatile char sink = 0;
	char *p = mmap(NULL, (n + 1) * span, PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *base;
	size_t freed = 0;

	if (p == MAP_FAILED)
		return die("mmap");
	base = (char *)(((uintptr_t)p + span - 1) & ~(uintptr_t)(span - 1));
	madvise(base, n * span, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		sink += base[i * span];
	for (i = 1; i < n && !keep; i += 2)
		if (munmap(base + i * span, span) == 0)
			freed++;
	(void)sink;
	printf("fraggen ptes: %zu page tables made, %zu freed in %.2f s\n", n, freed, now() - t0);
	fflush(stdout);
	if (secs > 0)
		sleep(secs);
	return 0;
}

static int readloop(const char *file, int secs)
{
	static char buf[1 << 16];
	double t0 = now();
	long long bytes = 0;
	ssize_t r;
	int passes = 0;

	do {
		int fd = open(file, O_RDONLY);
		if (fd < 0)
			return die(file);
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			bytes += r;
		close(fd);
		passes++;
	} while (now() - t0 < secs);
	printf("fraggen read: %d passes, %lld MiB in %.1f s\n", passes, bytes >> 20, now() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "slab"))
		return slab(argv[2], atol(argv[3]), atol(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "anon"))
		return anon(atol(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "read"))
		return readloop(argv[2], atoi(argv[3]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "ptes"))
		return ptes(atol(argv[2]), atoi(argv[3]), argc == 5 && atoi(argv[4]));
	fprintf(stderr, "usage: fraggen slab DIR N KEEP | anon MB SECS | read FILE SECS"
		" | ptes MB SECS [KEEP]\n");
	return 2;
}
