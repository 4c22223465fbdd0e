// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/cmdlines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ft_cmdlines_release(struct ft_cmdlines *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* "PID COMM": a pid of 1 to 2^22 (PID_MAX_LIMIT), one space, a command that is not "<...>". */
static int parse_line(const char *s, size_t n, struct ft_cmdline *out)
{
	size_t i = 0, k;
	long pid = 0;

	while (i < n && i < 8 && s[i] >= '0' && s[i] <= '9')
		pid = pid * 10 + (s[i++] - '0');
	if (!i || i == n || s[i] != ' ' || pid < 1 || pid > (1L << 22))
		return -1;
	s += i + 1;
	n -= i + 1;
	if (!n || s[0] == '<')		/* "<...>": the kernel did not know it */
		return -1;
	for (k = 0; k < n && k < FT_CMDLINE_LEN - 1; k++) {
		if (!s[k])
			return -1;
		out->comm[k] = s[k];
	}
	out->comm[k] = '\0';
	out->pid = (int)pid;
	return 0;
}

/* by pid, then by line */
static int by_pid(const void *a, const void *b)
{
	const struct ft_cmdline *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->line > y->line) - (x->line < y->line);
}

int ft_cmdlines_parse(const char *buf, size_t len, struct ft_cmdlines *c)
{
	size_t lines = 1, i, n = 0, k = 0;
	const char *p = buf, *end = buf + len;
	unsigned int line = 0;

	ft_cmdlines_release(c);
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (lines > FT_CMDLINES_MAX)
		lines = FT_CMDLINES_MAX;
	c->v = malloc(lines * sizeof(*c->v));
	if (!c->v)
		return -ENOMEM;
	while (p < end && n < lines) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);

		if (ll && parse_line(p, ll, &c->v[n]) == 0)
			c->v[n++].line = line;
		else if (ll)
			c->skipped++;
		line++;
		p += ll + 1;
	}
	qsort(c->v, n, sizeof(*c->v), by_pid);
	/* one per pid: the last line of each run of the same pid */
	for (i = 0; i < n; i++) {
		if (k && c->v[k - 1].pid == c->v[i].pid)
			k--;
		c->v[k++] = c->v[i];
	}
	c->nr = k;
	return 0;
}

const char *ft_cmdlines_find(const struct ft_cmdlines *c, int pid)
{
	size_t lo = 0, hi = c->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->v[mid].pid == pid)
			return c->v[mid].comm;
		if (c->v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
