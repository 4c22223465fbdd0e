// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/thp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The entry of @kb, made in size order when it is new; NULL when the table is full. */
static struct ft_thp_size *size_of(struct ft_thp *t, uint32_t kb)
{
	int i, at;

	for (i = 0; i < t->nr; i++)
		if (t->s[i].kb == kb)
			return &t->s[i];
	if (t->nr == FT_THP_SIZES)
		return NULL;
	for (at = 0; at < t->nr && t->s[at].kb < kb; at++)
		;
	memmove(&t->s[at + 1], &t->s[at], (size_t)(t->nr - at) * sizeof(t->s[0]));
	memset(&t->s[at], 0, sizeof(t->s[at]));
	t->s[at].kb = kb;
	t->nr++;
	return &t->s[at];
}

/* A setting's text: printable ASCII, blanks squeezed to one. */
static void setting(char *dst, size_t sz, const char *v, size_t n)
{
	size_t o = 0, i;

	for (i = 0; i < n && o + 1 < sz; i++) {
		char c = v[i];

		if (c < 0x20 || c > 0x7e)
			c = ' ';
		if (c == ' ' && (!o || dst[o - 1] == ' '))
			continue;
		dst[o++] = c;
	}
	while (o && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
}

/* One line "<kB> <name> <value>": 0, or -1 when it is not one. */
static int line(struct ft_thp *t, const char *l, size_t n)
{
	const char *sp1 = memchr(l, ' ', n), *sp2, *name, *val;
	struct ft_thp_size *z;
	char num[24], *end;
	size_t nl, vl, i;
	unsigned long kb;

	if (!sp1 || sp1 == l || (size_t)(sp1 - l) >= sizeof(num))
		return -1;
	memcpy(num, l, (size_t)(sp1 - l));
	num[sp1 - l] = '\0';
	kb = strtoul(num, &end, 10);
	if (*end || !kb || kb > (1ul << 30))
		return -1;
	name = sp1 + 1;
	sp2 = memchr(name, ' ', n - (size_t)(name - l));
	if (!sp2)
		return -1;
	nl = (size_t)(sp2 - name);
	val = sp2 + 1;
	vl = n - (size_t)(val - l);
	z = size_of(t, (uint32_t)kb);
	if (!z)
		return -1;
	if (nl == 7 && !memcmp(name, "enabled", 7)) {
		setting(z->enabled, sizeof(z->enabled), val, vl);
		return 0;
	}
	if (nl == 13 && !memcmp(name, "shmem_enabled", 13)) {
		setting(z->shmem, sizeof(z->shmem), val, vl);
		return 0;
	}
	if (nl < 7 || memcmp(name, "stats/", 6) || nl - 6 >= FT_THP_NAME ||
	    z->nr_stats == FT_THP_STATS)
		return -1;
	for (i = 6; i < nl; i++)
		if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return -1;
	if (!vl || vl >= sizeof(num))
		return -1;
	memcpy(num, val, vl);
	num[vl] = '\0';
	if (num[0] < '0' || num[0] > '9')
		return -1;
	errno = 0;
	z->stat[z->nr_stats] = strtoull(num, &end, 10);
	if (*end || errno == ERANGE)
		/* beyond 2^64-1: no kernel counter, not taken for one at its ceiling */
		return -1;
	memcpy(z->stat_name[z->nr_stats], name + 6, nl - 6);
	z->stat_name[z->nr_stats][nl - 6] = '\0';
	z->nr_stats++;
	return 0;
}

int ft_thp_parse(const char *text, size_t len, struct ft_thp *t)
{
	size_t pos = 0;
	int bad = 0;

	memset(t, 0, sizeof(*t));
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (n && line(t, l, n))
			bad++;
	}
	return bad;
}

bool ft_thp_stat(const struct ft_thp_size *z, const char *name, uint64_t *v)
{
	int i;

	for (i = 0; i < z->nr_stats; i++)
		if (!strcmp(z->stat_name[i], name)) {
			*v = z->stat[i];
			return true;
		}
	return false;
}

const char *ft_thp_selected(const char *s, char *buf, size_t sz)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;

	if (!sz)
		return buf;
	buf[0] = '\0';
	if (a && b && b > a + 1)
		snprintf(buf, sz, "%.*s", (int)(b - a - 1), a + 1);
	return buf;
}

bool ft_thp_effective(const char *setting, const char *top, char *buf, size_t sz)
{
	ft_thp_selected(setting, buf, sz);
	if (strcmp(buf, "inherit"))
		return false;
	/* the top-level file marks its word too; "" when it is not known */
	if (top && strchr(top, '['))
		ft_thp_selected(top, buf, sz);
	else if (sz)
		snprintf(buf, sz, "%s", top ? top : "");
	return true;
}

void ft_thp_size_label(uint32_t kb, char *buf, size_t sz)
{
	snprintf(buf, sz, "%ukB", kb);
}

const struct ft_thp_size *ft_thp_find(const struct ft_thp *t, uint32_t kb)
{
	int i;

	for (i = 0; i < t->nr; i++)
		if (t->s[i].kb == kb)
			return &t->s[i];
	return NULL;
}

bool ft_thp_growth(const struct ft_thp *from, const struct ft_thp *to, uint32_t kb,
		   const char *name,
		   uint64_t *d)
{
	const struct ft_thp_size *a = ft_thp_find(from, kb), *b = ft_thp_find(to, kb);
	uint64_t x, y;

	if (!a || !b || !ft_thp_stat(a, name, &x) || !ft_thp_stat(b, name, &y) || y < x)
		return false;
	*d = y - x;
	return true;
}
