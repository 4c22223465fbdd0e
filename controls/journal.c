// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/beneath.h"
#include "model/journal.h"

/* @s as one word: blanks and control bytes (a forged field or line) as '_', "" as "-". */
static const char *word(const char *s, char *buf, size_t sz)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < sz; i++)
		buf[i] = (unsigned char)s[i] <= 0x20 || s[i] == 0x7f ? '_' : s[i];
	buf[i] = '\0';
	if (!i && sz > 1)
		buf[0] = '-', buf[1] = '\0';
	return buf;
}

/* The journal under @rootfd, made (root's run directory, 0600) when absent, opened to append. */
static int journal_open(int rootfd)
{
	int dir = ft_run_dir(rootfd, true), fd;

	if (dir < 0)
		return dir;
	fd = ft_open_beneath(dir, FT_JOURNAL_FILE, O_WRONLY | O_APPEND | O_CREAT, 0600);
	close(dir);
	return fd;
}

int ft_ctl_journal(int rootfd, const char *by, const char *knob, const char *old, const char *new)
{
	char line[FT_JOURNAL_LINE], b[24], k[48], o[64], n[64];
	struct timespec ts;
	struct stat st;
	int fd, len, err = 0;

	fd = journal_open(rootfd);
	if (fd < 0)
		return fd;
	err = ft_owned_file(fd);
	if (!err && fstat(fd, &st))
		err = -errno;
	if (!err && (uint64_t)st.st_size >= FT_JOURNAL_MAX)
		err = -EFBIG;
	if (!err) {
		clock_gettime(CLOCK_REALTIME, &ts);
		len = snprintf(line, sizeof(line),
			       "t_ns=%lld pid=%d uid=%u by=%s knob=%s old=%s new=%s\n",
			       (long long)ts.tv_sec * 1000000000 + ts.tv_nsec, (int)getpid(),
			       (unsigned int)getuid(),
			       word(by, b, sizeof(b)), word(knob, k, sizeof(k)),
			       word(old, o, sizeof(o)),
			       word(new, n, sizeof(n)));
		if (len >= (int)sizeof(line)) {
			line[sizeof(line) - 2] = '\n';
			len = (int)sizeof(line) - 1;
		}
		/* one write of a short line to an O_APPEND file: whole, never interleaved */
		if (write(fd, line, (size_t)len) != len)
			err = -EIO;
	}
	close(fd);
	return err;
}

int ft_ctl_journal_make(const char *root)
{
	int rootfd, fd, err;

	if (!root || strcmp(root, "/") || geteuid())
		return 0;
	rootfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	fd = journal_open(rootfd);
	close(rootfd);
	if (fd < 0)
		return fd;
	err = ft_owned_file(fd);
	close(fd);
	return err;
}
