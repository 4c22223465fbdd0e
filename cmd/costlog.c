// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/costlog.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "model/session.h"
#include "render/session_json.h"

int ft_costlog_open(struct ft_costlog *c, const char *path)
{
	int fd;

	c->f = NULL;
	if (!path)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
	if (fd >= 0)
		c->f = fdopen(fd, "w");
	if (!c->f) {
		fprintf(stderr, "fragtop: --cost-log %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	return 0;
}

void ft_costlog_tick(struct ft_costlog *c, const struct ft_session *s, const char *what)
{
	if (!c->f)
		return;
	ft_render_session_cost_line(c->f, s, what);
	fflush(c->f);
}

void ft_costlog_close(struct ft_costlog *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
}
