// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/rcfile.h"

#include "model/fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ft_rc_init(struct ft_rc *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->color = -1;
}

/* @v (of @n bytes) is a word of printable ASCII that fits @sz with its NUL. */
static bool word(const char *v, size_t n, size_t sz)
{
	size_t i;

	if (!n || n >= sz)
		return false;
	for (i = 0; i < n; i++)
		if (v[i] < 0x20 || v[i] > 0x7e)
			return false;
	return true;
}

static void copy(char *dst, const char *v, size_t n)
{
	memcpy(dst, v, n);
	dst[n] = '\0';
}

/* One "key=value": 0, or -1 with the reason in @why. */
static int set(struct ft_rc *rc, const char *k, size_t kn, const char *v, size_t vn, char *why,
	       size_t sz)
{
	char num[32], *end;
	double d;

#define KEY(s) (kn == sizeof(s) - 1 && !memcmp(k, s, kn))
	if (KEY("interval")) {
		if (vn >= sizeof(num))
			goto range;
		copy(num, v, vn);
		d = strtod(num, &end);
		if (end == num || *end || !isfinite(d) || d < 0.1 || d > 3600)
			goto range;
		rc->interval = d;
		return 0;
	}
	if (KEY("view")) {
		if (!word(v, vn, sizeof(rc->view)))
			goto range;
		copy(rc->view, v, vn);
		return 0;
	}
	if (KEY("sort")) {
		if (!word(v, vn, sizeof(rc->sort)))
			goto range;
		copy(rc->sort, v, vn);
		return 0;
	}
	if (KEY("columns")) {
		if (!word(v, vn, sizeof(rc->columns)))
			goto range;
		copy(rc->columns, v, vn);
		return 0;
	}
	if (KEY("sizes")) {
		struct ft_fit_need n[FT_FIT_NEEDS_MAX];
		char buf[sizeof(rc->sizes)], err[128];
		size_t nr;

		if (!word(v, vn, sizeof(rc->sizes)))
			goto range;
		copy(buf, v, vn);
		/* sizes are checked against 4 KiB pages here, the host's page size when shown */
		if (strcmp(buf, "-") && ft_fit_interest_parse(buf, 4096, n, &nr, err, sizeof(err)))
			goto range;
		copy(rc->sizes, v, vn);
		return 0;
	}
	if (KEY("map_zone")) {
		if (!word(v, vn, sizeof(rc->map_zone)))
			goto range;
		copy(rc->map_zone, v, vn);
		return 0;
	}
	if (KEY("color_scheme")) {
		if (vn == 7 && !memcmp(v, "default", 7))
			rc->color = 1;
		else if (vn == 10 && !memcmp(v, "monochrome", 10))
			rc->color = 0;
		else
			goto range;
		return 0;
	}
	if (KEY("config_version"))
		return vn == 1 &&
		v[0] == '1' ? 0 : (snprintf(why, sz, "config_version is not 1"), -1);
#undef KEY
	snprintf(why, sz, "no such key");
	return -1;
range:
	snprintf(why, sz, "a value out of range");
	return -1;
}

int ft_rc_parse(const char *text, size_t len, struct ft_rc *rc, char *why, size_t sz)
{
	size_t pos = 0, line = 0;
	int bad = 0;

	ft_rc_init(rc);
	if (sz)
		why[0] = '\0';
	if (len > FT_RC_MAX_BYTES) {
		snprintf(why, sz, "longer than %d bytes: read up to there", FT_RC_MAX_BYTES);
		len = FT_RC_MAX_BYTES;
		bad++;
	}
	while (pos < len) {
		const char *l = text + pos, *nl = memchr(l, '\n', len - pos), *eq;
		size_t n = nl ? (size_t)(nl - l) : len - pos, kn, vn;
		char r[64];

		pos += n + (nl ? 1 : 0);
		line++;
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r'))
			n--;
		while (n && (*l == ' ' || *l == '\t'))
			l++, n--;
		if (!n || *l == '#')
			continue;
		eq = memchr(l, '=', n);
		if (!eq || eq == l) {
			snprintf(r, sizeof(r), "not key=value");
		} else {
			kn = (size_t)(eq - l);
			vn = n - kn - 1;
			while (kn && (l[kn - 1] == ' ' || l[kn - 1] == '\t'))
				kn--;
			while (vn && (eq[1] == ' ' || eq[1] == '\t'))
				eq++, vn--;
			if (!word(l, kn, 32))
				snprintf(r, sizeof(r), "not key=value");
			else if (!set(rc, l, kn, eq + 1, vn, r, sizeof(r)))
				continue;
		}
		if (!bad++ && sz)
			snprintf(why, sz, "line %zu: %s", line, r);
	}
	return bad;
}

/* snprintf at @n of @buf, the total length kept even past @sz */
#define ADD(...) (n += snprintf(buf + (n < (int)sz ? n : (int)sz), \
				sz > (size_t)n ? sz - (size_t)n : 0, __VA_ARGS__))

int ft_rc_format(const struct ft_rc *rc, char *buf, size_t sz)
{
	int n = 0;

	ADD("# fragtop's settings, written when the TUI quits (fragtop --no-config\n"
	    "# neither reads nor writes this file)\nconfig_version=1\n");
	if (rc->interval > 0)
		ADD("interval=%g\n", rc->interval);
	if (rc->view[0])
		ADD("view=%s\n", rc->view);
	if (rc->sort[0])
		ADD("sort=%s\n", rc->sort);
	if (rc->color >= 0)
		ADD("color_scheme=%s\n", rc->color ? "default" : "monochrome");
	if (rc->map_zone[0])
		ADD("map_zone=%s\n", rc->map_zone);
	if (rc->columns[0])
		ADD("columns=%s\n", rc->columns);
	if (rc->sizes[0])
		ADD("sizes=%s\n", rc->sizes);
	return n;
}
