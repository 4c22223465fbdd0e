// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/promurl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ft_prom_url_masked(const char *arg, char *buf, size_t sz)
{
	const char *p = strstr(arg, "://"), *end, *at;

	p = p ? p + 3 : arg;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (!at) {
		snprintf(buf, sz, "%s", arg);
		return;
	}
	/* the last '@' ends the credentials */
	while (at && memchr(at + 1, '@', (size_t)(end - at - 1)))
		at = memchr(at + 1, '@', (size_t)(end - at - 1));
	{
		const char *colon = memchr(p, ':', (size_t)(at - p));

		/*
		 * a user stays (it helps), its password goes; a lone user part may be a token: it
		 * goes
		 */
		if (colon)
			snprintf(buf, sz, "%.*s:***%s", (int)(colon - arg), arg, at);
		else
			snprintf(buf, sz, "%.*s***%s", (int)(p - arg), arg, at);
	}
}

static int bad(char *why, size_t sz, const char *arg, const char *what)
{
	char shown[256];

	ft_prom_url_masked(arg, shown, sizeof(shown));
	snprintf(why, sz, "'%.200s': %s", shown, what);
	return -1;
}

/*
 * A host's bytes: a name's or an address's; no '@' (credentials go in --user), nothing that ends
 * it.
 */
static bool host_ok(const char *h, size_t n, bool v6)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		char c = h[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' ||
		      c == '.' || c == '_' || (v6 && (c == ':' || c == '%'))))
			return false;
	}
	return true;
}

static int port_of(const char *p, size_t n, struct ft_prom_url *u, const char *arg, char *why,
		   size_t sz)
{
	unsigned long v = 0;
	size_t i;

	if (!n || n > 5)
		return bad(why, sz, arg, "the port is not a number from 1 to 65535");
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return bad(why, sz, arg, "the port is not a number from 1 to 65535");
		v = v * 10 + (unsigned long)(p[i] - '0');
	}
	if (!v || v > 65535)
		return bad(why, sz, arg, "the port is not a number from 1 to 65535");
	snprintf(u->port, sizeof(u->port), "%lu", v);
	return 0;
}

int ft_prom_url_parse(const char *arg, struct ft_prom_url *u, char *why, size_t sz)
{
	const char *p, *h, *he, *path;
	size_t n;

	memset(u, 0, sizeof(*u));
	if (!strncmp(arg, "http://", 7)) {
		p = arg + 7;
	} else if (!strncmp(arg, "https://", 8)) {
		p = arg + 8;
		u->tls = true;
	} else {
		return bad(why, sz, arg, "not an http:// or https:// URL");
	}
	path = p + strcspn(p, "/?#");
	if (strpbrk(path, "?#"))
		return bad(why, sz, arg, "a query or fragment has no place here (the path of the "
					 "API is fragtop's)");
	if (memchr(p, '@', (size_t)(path - p)))
		return bad(why, sz, arg, "credentials in the URL: give --user and --password-file");
	if (*p == '[') {
		h = p + 1;
		he = memchr(h, ']', (size_t)(path - h));
		if (!he || !host_ok(h, (size_t)(he - h), true))
			return bad(why, sz, arg, "an IPv6 address is written [ADDR]");
		p = he + 1;
	} else {
		h = p;
		he = p + strcspn(p, ":/");
		if (he > path)
			he = path;
		if (!host_ok(h, (size_t)(he - h), false))
			return bad(why, sz, arg, "no host, or a byte no host name has");
		p = he;
	}
	if ((size_t)(he - h) >= sizeof(u->host))
		return bad(why, sz, arg, "the host name is too long");
	memcpy(u->host, h, (size_t)(he - h));
	if (*p == ':') {
		if (port_of(p + 1, (size_t)(path - p - 1), u, arg, why, sz))
			return -1;
	} else if (p != path) {
		return bad(why, sz, arg, "a port is written :PORT after the host");
	} else {
		snprintf(u->port, sizeof(u->port), "%s", u->tls ? "443" : "9090");
	}
	n = strlen(path);
	while (n && path[n - 1] == '/')
		n--;
	if (n >= sizeof(u->prefix))
		return bad(why, sz, arg, "the path is too long");
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)path[i] <= ' ' || (unsigned char)path[i] >= 0x7f)
			return bad(why, sz, arg,
				   "the path has a blank or a control byte: percent-encode it");
	memcpy(u->prefix, path, n);
	return 0;
}

bool ft_prom_urlencode(char *out, size_t sz, const char *in)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(out);

	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') ||
			     c == '-' || c == '.' || c == '_' || c == '~';

		if (n + (plain ? 1 : 3) >= sz)
			return false;
		if (plain) {
			out[n++] = (char)c;
		} else {
			out[n++] = '%';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
		out[n] = '\0';
	}
	return true;
}

bool ft_promql_quote(char *out, size_t sz, const char *in)
{
	size_t n = 0;

	if (sz < 3)
		return false;
	out[n++] = '"';
	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;
		char esc[8];
		size_t k;

		if (c == '"' || c == '\\')
			k = (size_t)snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n')
			k = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c < 0x20 || c == 0x7f)
			k = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			k = (size_t)snprintf(esc, sizeof(esc), "%c", c);
		if (n + k + 2 > sz)
			return false;
		memcpy(out + n, esc, k);
		n += k;
	}
	out[n++] = '"';
	out[n] = '\0';
	return true;
}

int ft_promql_selector_check(const char *sel, char *why, size_t sz)
{
	size_t n = strlen(sel), i;
	bool quoted = false;
	char q = 0;

	if (n < 2 || sel[0] != '{' || sel[n - 1] != '}') {
		snprintf(why, sz, "'%.200s': a selector is written {label=\"value\", ...}", sel);
		return -1;
	}
	for (i = 1; i + 1 < n; i++) {
		char c = sel[i];

		if ((unsigned char)c < 0x20) {
			snprintf(why, sz, "a selector holds a control byte");
			return -1;
		}
		if (quoted) {
			if (c == '\\' && i + 2 < n)
				i++;
			else if (c == q)
				quoted = false;
		} else if (c == '"' || c == '\'' || c == '`') {
			quoted = true;
			q = c;
		} else if (c == '{' || c == '}') {
			snprintf(why, sz, "'%.200s': a brace inside the selector", sel);
			return -1;
		}
	}
	if (quoted) {
		snprintf(why, sz, "'%.200s': a quote is not closed", sel);
		return -1;
	}
	return 0;
}

int ft_prom_duration(const char *s, double *secs)
{
	static const struct { const char *unit; double secs; } units[] = {
		{ "ms", 0.001 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
		{ "w", 604800 },
		{ "y", 31536000 },
	};
	double total = 0;
	char *e;

	if (!*s)
		return -1;
	total = strtod(s, &e);
	if (!*e && e != s && total > 0 && total < 1e9 && s[0] >= '0' && s[0] <= '9') {
		*secs = total;
		return 0;
	}
	total = 0;
	while (*s) {
		unsigned long long v = 0;
		size_t k, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 12) {
			v = v * 10 + (unsigned long long)(*s++ - '0');
			digits++;
		}
		if (!digits)
			return -1;
		for (k = 0; k < sizeof(units) / sizeof(units[0]); k++) {
			size_t n = strlen(units[k].unit);

			if (!strncmp(s, units[k].unit, n) &&
			    !(n == 1 && units[k].unit[0] == 'm' && s[1] == 's'))
				break;
		}
		if (k == sizeof(units) / sizeof(units[0]))
			return -1;
		total += (double)v * units[k].secs;
		s += strlen(units[k].unit);
	}
	if (!(total > 0) || total > 1e9)
		return -1;
	*secs = total;
	return 0;
}
