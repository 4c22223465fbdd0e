// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/costlog.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "model/session.h"
#include "render/session_json.h"

/*
 * A new file, as record -o makes one (base/outfile.h): an existing one is
 * refused, never truncated, so a file another user planted in a sticky
 * /tmp is neither written into nor taken over.
 */
int ft_costlog_open(struct ft_costlog *c, const char *path)
{
	char why[160];
	int fd;

	c->f = NULL;
	if (!path)
		return 0;
	fd = ft_outfile_create(path, false);
	if (fd >= 0)
		c->f = fdopen(fd, "w");
	if (!c->f) {
		fprintf(stderr, "fragtop: --cost-log %s: %s\n", path,
			fd < 0 ? ft_outfile_strerror(fd, NULL, why, sizeof(why)) : strerror(errno));
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
