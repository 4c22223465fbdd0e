// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the two openers against a hostile tree.  A sandbox
 * holds regular files, a FIFO, a directory, links to a file outside the
 * root, to a directory outside it, dangling links, and ".." paths; the
 * data picks paths (from those names joined by "/") and flags.
 * Invariants: ft_open_under() returns a descriptor only for a regular
 * file inside the root, never blocks; ft_outfile_create() never writes
 * through a link (the file outside the root stays as it was), and what it
 * creates is a regular 0600 file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/outfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
	"file", "fifo", "dir", "link-out", "link-dir", "dangling", "..", ".", "new", "dir/inner",
	"link-in", "sub",
};
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

static char base[64], root[96], outside[128];
static int rootfd = -1;

static void must(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The sandbox, made once: base/outside (a file), base/outdir, base/root/... */
static void sandbox(void)
{
	char p[256];
	FILE *f;

	snprintf(base, sizeof(base), "/tmp/fragtop-fuzz-open-%d", (int)getpid());
	snprintf(root, sizeof(root), "%s/root", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	if (rootfd >= 0)
		return;
	mkdir(base, 0700);
	mkdir(root, 0700);
	snprintf(p, sizeof(p), "%s/outdir", base);
	mkdir(p, 0700);
	f = fopen(outside, "w");
	must(f != NULL);
	fputs("outside\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/file", root);
	f = fopen(p, "w");
	must(f != NULL);
	fputs("inside\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/fifo", root);
	mkfifo(p, 0600);
	snprintf(p, sizeof(p), "%s/dir", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/dir/inner", root);
	f = fopen(p, "w");
	if (f)
		fclose(f);
	snprintf(p, sizeof(p), "%s/link-out", root);
	symlink(outside, p);
	snprintf(p, sizeof(p), "%s/outdir", base);
	{
		char l[256];

		snprintf(l, sizeof(l), "%s/link-dir", root);
		symlink(p, l);
		snprintf(l, sizeof(l), "%s/dangling", root);
		symlink("/nonexistent/fragtop", l);
		snprintf(l, sizeof(l), "%s/link-in", root);
		symlink("file", l);
	}
	rootfd = ft_root_open(root);
	must(rootfd >= 0);
}

/* Put back what an output file replaced (the name may have been a link). */
static void repair(void)
{
	int fd = rootfd;

	rootfd = -1;
	close(fd);
	sandbox();
}

static bool outside_intact(void)
{
	char buf[32] = "";
	FILE *f = fopen(outside, "r");
	bool ok;
	struct stat st;

	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) && !strcmp(buf, "outside\n");
	fclose(f);
	return ok && !lstat(outside, &st) && S_ISREG(st.st_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char rel[256] = "", p[512];
	size_t i, len = 0;
	struct stat st;
	int fd;

	sandbox();
	if (size < 2)
		return 0;
	/*
	 * A path of up to 4 names from the data.  Output paths are the
	 * operator's own: ".." may lead anywhere they ask, so the output case
	 * leaves it out; what it must never do is write through a link.
	 */
	for (i = 1; i < size && i < 5; i++) {
		const char *n = names[data[i] % NR_NAMES];

		if (data[0] % 3 == 2 && !strcmp(n, ".."))
			n = "new";
		len += (size_t)snprintf(rel + len, sizeof(rel) - len, "%s%s", len ? "/" : "", n);
	}
	switch (data[0] % 3) {
	case 0:	/* read */
	case 1:	/* write, as set --root does */
		fd = ft_open_under(rootfd, rel, data[0] % 3 ? O_WRONLY : O_RDONLY);
		if (fd >= 0) {
			must(!fstat(fd, &st) && S_ISREG(st.st_mode));
			close(fd);
		}
		break;
	case 2:	/* an output file, replacing or not */
		snprintf(p, sizeof(p), "%s/%s", root, rel);
		fd = ft_outfile_create(p, data[0] & 8);
		if (fd >= 0) {
			must(!fstat(fd, &st) && S_ISREG(st.st_mode) &&
			     (st.st_mode & 07777) == 0600);
			close(fd);
			unlink(p);
			repair();
		}
		break;
	}
	must(outside_intact());
	return 0;
}
