// SPDX-License-Identifier: GPL-2.0-or-later
#include "controls/expstate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/beneath.h"

/* @rel's text under @dir (at most @sz - 1 bytes): its length, or -1. */
static ssize_t slurp(int dir, const char *rel, char *buf, size_t sz)
{
	int fd = ft_open_beneath(dir, rel, O_RDONLY, 0);
	ssize_t n = -1;

	if (fd >= 0 && !ft_owned_file(fd))
		n = read(fd, buf, sz - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* The lock is held by a running experiment: flock's answer, or its pid alive where the kernel has no flock. */
static int lock_held(int dir, int *pid)
{
	char text[24];
	int fd = ft_open_beneath(dir, FT_EXP_LOCK, O_RDONLY, 0), held = 0;

	if (fd < 0)
		return 0;
	if (!ft_owned_file(fd)) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			flock(fd, LOCK_UN);
		else if (errno == EWOULDBLOCK)
			held = 1;
		else if (errno == ENOSYS || errno == EINVAL) {
			ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

			text[n > 0 ? n : 0] = '\0';
			held = atoi(text) > 0 && !kill(atoi(text), 0);
		}
		if (held) {
			ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

			text[n > 0 ? n : 0] = '\0';
			*pid = atoi(text);
		}
	}
	close(fd);
	return held;
}

int ft_ctl_exp_busy(int rootfd, const char *knob, int *pid)
{
	char rec[512], want[96];
	int dir = ft_open_beneath(rootfd, FT_EXP_STATE_DIR, O_RDONLY | O_DIRECTORY, 0), busy = 0;
	const char *k;

	*pid = 0;
	if (dir < 0)
		return 0;
	if (lock_held(dir, pid) && slurp(dir, FT_EXP_RECORD, rec, sizeof(rec)) > 0) {
		snprintf(want, sizeof(want), "knob=%s\n", knob);
		k = strstr(rec, want);
		busy = k && (k == rec || k[-1] == '\n');
	}
	close(dir);
	return busy;
}
