// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/costlog.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/json.h"
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
	struct ft_json j;

	if (!c->f)
		return;
	ft_json_init(&j, c->f, false);
	ft_json_obj_begin(&j, NULL);
	ft_json_u64(&j, "tick", s->ticks);
	ft_json_str(&j, "what", what);
	ft_json_cost(&j, s);
	ft_json_obj_end(&j);
	ft_json_end(&j);
	fflush(c->f);
}

void ft_costlog_close(struct ft_costlog *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
}
