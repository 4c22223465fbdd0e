// SPDX-License-Identifier: GPL-2.0-or-later
#include "collectors/self.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/cost.h"

void ft_self_init(struct ft_self *s)
{
	size_t len = 0, cap = 1u << 20;	/* /proc/stat's intr line is long on a large host */
	char *buf = malloc(cap);
	ssize_t n = 1;
	int fd;

	memset(s, 0, sizeof(*s));
	s->stat_fd = -1;
	s->hz = sysconf(_SC_CLK_TCK);
	s->page_size = sysconf(_SC_PAGESIZE);
	fd = buf ? open("/proc/stat", O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		ft_cost_open(FT_COST_OTHER);
		while (len < cap && (n = read(fd, buf + len, cap - len)) > 0) {
			ft_cost_read(FT_COST_OTHER, (size_t)n);
			len += (size_t)n;
		}
		close(fd);
		if (ft_btime_parse(buf, len, &s->btime))
			s->btime = 0;
	}
	free(buf);
	/* opened now, at start: a scrape opens nothing */
	s->stat_fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (s->stat_fd >= 0)
		ft_cost_open(FT_COST_OTHER);
	s->fd_dir = opendir("/proc/self/fd");
	if (s->fd_dir)
		ft_cost_open(FT_COST_OTHER);
}

/* Entries of /proc/self/fd, the listing's own fd left out; the directory stays open. */
static uint64_t open_fds(struct ft_self *s)
{
	struct dirent *e;
	uint64_t n = 0;

	if (!s->fd_dir) {
		s->fd_dir = opendir("/proc/self/fd");
		if (!s->fd_dir)
			return 0;
		ft_cost_open(FT_COST_OTHER);
	}
	rewinddir(s->fd_dir);
	while ((e = readdir(s->fd_dir)))
		n += e->d_name[0] != '.';
	return n ? n - 1 : 0;
}

void ft_self_read(struct ft_self *s, struct ft_selfstat *out)
{
	char buf[1024];
	struct rlimit rl;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (s->stat_fd < 0) {
		s->stat_fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
		if (s->stat_fd < 0)
			return;
		ft_cost_open(FT_COST_OTHER);
	}
	n = pread(s->stat_fd, buf, sizeof(buf), 0);
	if (n <= 0)
		return;
	ft_cost_read(FT_COST_OTHER, (size_t)n);
	if (ft_selfstat_parse(buf, (size_t)n, s->hz, s->page_size, s->btime, out))
		return;
	out->open_fds = open_fds(s);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		out->max_fds = rl.rlim_cur;
}

void ft_self_close(struct ft_self *s)
{
	if (s->stat_fd >= 0)
		close(s->stat_fd);
	if (s->fd_dir)
		closedir(s->fd_dir);
	s->stat_fd = -1;
	s->fd_dir = NULL;
}
