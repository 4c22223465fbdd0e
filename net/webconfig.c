// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/webconfig.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum section { SEC_NONE, SEC_TLS, SEC_USERS, SEC_HTTP };

struct parser {
	struct ft_webconfig *wc;
	char *why;
	size_t sz;
	int no;			/* the line being read, from 1 */
	/* where keys with no field of their own were given (0: not yet) */
	int min_line, max_line, prefer_line, http2_line;
};

static int fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	size_t n = 0;

	if (line > 0)
		n = (size_t)snprintf(p->why, p->sz, "line %d: ", line);
	if (n < p->sz) {
		va_start(ap, fmt);
		vsnprintf(p->why + n, p->sz - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Trailing blanks off [s, s + *n). */
static void rtrim(const char *s, size_t *n)
{
	while (*n && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
		(*n)--;
}

/* After a quoted scalar or a key: nothing, or blanks and a comment. */
static bool only_comment(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == n || (s[i] == '#' && i > 0);
}

/*
 * A scalar from [v, v + n) into @out: plain (up to a " #" comment), 'single'
 * ('' is a quote) or "double" (\\ \" \t \n escapes).  Flow collections,
 * anchors, tags and block scalars are not part of this subset.
 */
static int scalar(struct parser *p, const char *v, size_t n, char *out, size_t osz)
{
	size_t i, o = 0;

	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	if (n && (*v == '"' || *v == '\'')) {
		char q = *v;

		for (i = 1; i < n; i++) {
			char c = v[i];

			if (c == q && q == '\'' && i + 1 < n && v[i + 1] == '\'') {
				i++;
			} else if (c == q) {
				break;
			} else if (c == '\\' && q == '"') {
				if (++i == n)
					break;
				switch (v[i]) {
				case '\\': case '"': case '/': c = v[i]; break;
				case 't': c = '\t'; break;
				case 'n': c = '\n'; break;
				default: return fail(p, p->no,
						     "an escape \\%c this reader does not know",
						     v[i]);
				}
			}
			if ((unsigned char)c < 0x20 && c != '\t')
				return fail(p, p->no, "a control character in a value");
			if (o + 1 >= osz)
				return fail(p, p->no, "a value longer than %zu bytes", osz - 1);
			out[o++] = c;
		}
		if (i >= n)
			return fail(p, p->no, "a quoted value without its closing %c", q);
		if (!only_comment(v + i + 1, n - i - 1))
			return fail(p, p->no, "text after the closing quote");
		out[o] = '\0';
		return 0;
	}
	for (i = 0; i < n; i++)
		if (v[i] == '#' && i > 0 && (v[i - 1] == ' ' || v[i - 1] == '\t'))
			break;
	n = i;
	rtrim(v, &n);
	if (n && strchr("[]{}&*!|>%@`,", v[0]))
		return fail(p, p->no, "'%c' starts YAML this reader does not take (flow "
				      "collections, anchors, "
			    "tags, block scalars): write a plain or quoted value", v[0]);
	if (n && v[0] == '-' && (n == 1 || v[1] == ' '))
		return fail(p, p->no, "a list where a single value goes");
	if (n >= osz)
		return fail(p, p->no, "a value longer than %zu bytes", osz - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 && v[i] != '\t')
			return fail(p, p->no, "a control character in a value");
	memcpy(out, v, n);
	out[n] = '\0';
	return 0;
}

/* "KEY: VALUE" at @s: the key into @key, the value's start and length. */
static int key_value(struct parser *p, const char *s, size_t n, char *key, size_t ksz,
		     const char **val,
		     size_t *vlen)
{
	size_t i;

	if (n && (s[0] == '"' || s[0] == '\'')) {	/* a quoted key: a user name may need one */
		for (i = 1; i < n; i++) {
			if (s[0] == '\'' && s[i] == '\'' && i + 1 < n && s[i + 1] == '\'')
				i++;		/* '' is a quote */
			else if (s[0] == '"' && s[i] == '\\' && i + 1 < n)
				i++;		/* \" and the others */
			else if (s[i] == s[0])
				break;
		}
		if (i == n || i + 1 >= n || s[i + 1] != ':')
			return fail(p, p->no, "expected \"KEY\": VALUE");
		if (scalar(p, s, i + 1, key, ksz))
			return -1;
		i++;
	} else {
		for (i = 0; i < n &&
		     !(s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t')); i++)
			;
		if (i == n)
			return fail(p, p->no, "expected KEY: VALUE");
		if (i >= ksz)
			return fail(p, p->no, "a key longer than %zu bytes", ksz - 1);
		memcpy(key, s, i);
		key[i] = '\0';
		while (i && (key[i - 1] == ' ' || key[i - 1] == '\t'))
			key[--i] = '\0';
		if (!key[0])
			return fail(p, p->no, "a key is missing before ':'");
		i = strlen(key);
		while (s[i] != ':')
			i++;
	}
	*val = s + i + 1;
	*vlen = n - i - 1;
	return 0;
}

/* An empty value (KEY: alone, {}, null or ~): a mapping follows or is empty. */
static bool empty_value(const char *v, size_t n)
{
	char buf[8];
	size_t i = 0;

	while (i < n && (v[i] == ' ' || v[i] == '\t'))
		i++;
	if (i == n || v[i] == '#')
		return true;
	n -= i;
	v += i;
	for (i = 0; i < n && v[i] != ' ' && v[i] != '\t' && v[i] != '#'; i++)
		;
	if (i >= sizeof(buf) || !only_comment(v + i, n - i))
		return false;
	memcpy(buf, v, i);
	buf[i] = '\0';
	return !strcmp(buf, "{}") || !strcmp(buf, "null") || !strcmp(buf, "~");
}

static int boolean(struct parser *p, const char *key, const char *v, bool *out)
{
	if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "yes"))
		*out = true;
	else if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "no"))
		*out = false;
	else
		return fail(p, p->no, "%s is true or false, not '%s'", key, v);
	return 0;
}

static int tls_version(struct parser *p, const char *key, const char *v, enum ft_tls_version *out)
{
	enum ft_tls_version t;

	for (t = FT_TLS10; t <= FT_TLS13; t++)
		if (!strcmp(v, ft_tls_version_name(t))) {
			*out = t;
			return 0;
		}
	return fail(p, p->no, "%s is TLS10, TLS11, TLS12 or TLS13, not '%s'", key, v);
}

static const char *const client_auth_names[] = {
	[FT_CLIENT_NONE] = "NoClientCert",
	[FT_CLIENT_REQUEST] = "RequestClientCert",
	[FT_CLIENT_REQUIRE_ANY] = "RequireAnyClientCert",
	[FT_CLIENT_VERIFY_IF_GIVEN] = "VerifyClientCertIfGiven",
	[FT_CLIENT_REQUIRE_VERIFY] = "RequireAndVerifyClientCert",
};

/* The keys exporter-toolkit has that fragtop does not implement: refused by name. */
static const char *const tls_unsupported[] = {
	"cipher_suites", "curve_preferences", "client_allowed_sans", "cert", "key", "client_ca",
	NULL,
};

static bool in_list(const char *const *l, const char *k)
{
	for (; *l; l++)
		if (!strcmp(*l, k))
			return true;
	return false;
}

/* "once": a key given twice in one mapping is an error, as in strict YAML */
static int once(struct parser *p, int *line, const char *key)
{
	if (*line)
		return fail(p, p->no, "%s given twice (first on line %d)", key, *line);
	*line = p->no;
	return 0;
}

static int tls_key(struct parser *p, const char *key, const char *v, size_t n)
{
	struct ft_webconfig *wc = p->wc;
	char val[FT_WEB_PATH_MAX];
	size_t i;

	if (in_list(tls_unsupported, key))
		return fail(p, p->no, "tls_server_config: %s is not supported by fragtop", key);
	if (empty_value(v, n))
		return fail(p, p->no, "%s needs a value", key);
	if (scalar(p, v, n, val, sizeof(val)))
		return -1;
	if (!strcmp(key, "cert_file") || !strcmp(key, "key_file") ||
	    !strcmp(key, "client_ca_file")) {
		char *dst = key[0] == 'c' && key[1] == 'e' ? wc->cert_file :
			    key[0] == 'k' ? wc->key_file : wc->client_ca_file;
		int *line = dst == wc->cert_file ? &wc->cert_line :
			    dst == wc->key_file ? &wc->key_line : &wc->client_ca_line;

		if (once(p, line, key))
			return -1;
		if (!val[0])
			return fail(p, p->no, "%s is empty", key);
		snprintf(dst, FT_WEB_PATH_MAX, "%s", val);
		return 0;
	}
	if (!strcmp(key, "client_auth_type")) {
		if (once(p, &wc->client_auth_line, key))
			return -1;
		for (i = 0; i < sizeof(client_auth_names) / sizeof(client_auth_names[0]); i++)
			if (!strcmp(val, client_auth_names[i])) {
				wc->client_auth = (enum ft_client_auth)i;
				return 0;
			}
		return fail(p, p->no, "client_auth_type is NoClientCert, RequestClientCert, "
				      "RequireAnyClientCert, "
			    "VerifyClientCertIfGiven or RequireAndVerifyClientCert, not '%s'", val);
	}
	if (!strcmp(key, "min_version"))
		return once(p, &p->min_line, key) ||
		tls_version(p, key, val, &wc->min_version) ? -1 : 0;
	if (!strcmp(key, "max_version"))
		return once(p, &p->max_line, key) ||
		tls_version(p, key, val, &wc->max_version) ? -1 : 0;
	if (!strcmp(key, "prefer_server_cipher_suites"))
		return once(p, &p->prefer_line, key) ||
		boolean(p, key, val, &wc->prefer_server_ciphers) ? -1 : 0;
	return fail(p, p->no,
		    "tls_server_config has no key '%s' (cert_file, key_file, client_auth_type, "
		    "client_ca_file, min_version, max_version, prefer_server_cipher_suites)", key);
}

/* $2a$, $2b$ or $2y$, a two-digit cost from 04 to 31, then 53 characters of [./A-Za-z0-9] */
static bool bcrypt_hash(const char *h)
{
	size_t i;
	int cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9' || h[6] != '$')
		return false;
	cost = (h[4] - '0') * 10 + (h[5] - '0');
	if (cost < 4 || cost > 31)
		return false;
	for (i = 7; i < 60; i++)
		if (!(h[i] == '.' || h[i] == '/' || (h[i] >= 'A' && h[i] <= 'Z') ||
		      (h[i] >= 'a' && h[i] <= 'z') ||
		      (h[i] >= '0' && h[i] <= '9')))
			return false;
	return true;
}

static int user_key(struct parser *p, const char *key, const char *v, size_t n)
{
	struct ft_webconfig *wc = p->wc;
	const struct ft_web_user *dup = ft_webconfig_user(wc, key);
	struct ft_web_user *u;

	if (dup)
		return fail(p, p->no, "user '%s' given twice (first on line %d)", key, dup->line);
	if (wc->nr_users == FT_WEB_MAX_USERS)
		return fail(p, p->no, "more than %d users", FT_WEB_MAX_USERS);
	if (strlen(key) >= sizeof(u->name))
		return fail(p, p->no, "a user name longer than %zu bytes", sizeof(u->name) - 1);
	for (const char *c = key; *c; c++)
		if (*c == ':' || (unsigned char)*c < 0x20)
			return fail(p, p->no, "a user name cannot hold ':' or a control character "
					      "(basic auth "
				    "splits at the first ':')");
	u = &wc->users[wc->nr_users];
	if (empty_value(v, n))
		return fail(p, p->no, "user '%s' has no password hash", key);
	if (scalar(p, v, n, u->hash, sizeof(u->hash)))
		return -1;
	if (!bcrypt_hash(u->hash))
		return fail(p, p->no,
			    "user '%s': not a bcrypt hash ($2y$ or $2b$, a cost, 53 characters; "
			    "htpasswd -nBC 10 USER makes one)", key);
	u->cost = (u->hash[4] - '0') * 10 + (u->hash[5] - '0');
	if (u->cost > FT_WEB_MAX_COST)
		return fail(p, p->no,
			    "user '%s': bcrypt cost %d is above %d, the most fragtop checks (each "
			    "step doubles the CPU a password costs; htpasswd -nBC 10 USER makes a "
			    "cost-10 hash)",
			    key, u->cost, FT_WEB_MAX_COST);
	snprintf(u->name, sizeof(u->name), "%s", key);
	u->line = p->no;
	wc->nr_users++;
	return 0;
}

static int http_key(struct parser *p, const char *key, const char *v, size_t n)
{
	char val[16];
	bool b;

	if (!strcmp(key, "headers"))
		return fail(p, p->no, "http_server_config: headers is not supported by fragtop");
	if (strcmp(key, "http2"))
		return fail(p, p->no, "http_server_config has no key '%s' (http2)", key);
	if (once(p, &p->http2_line, key) || scalar(p, v, n, val, sizeof(val)))
		return -1;
	/* fragtop speaks HTTP/1.1 only: true (the default) or false mean the same */
	return boolean(p, key, val, &b);
}

/* The file read, what must go together and what must not. */
static int check_whole(struct parser *p)
{
	struct ft_webconfig *wc = p->wc;

	if (wc->tls && (!wc->cert_line || !wc->key_line))
		return fail(p, wc->tls_line, "tls_server_config needs both cert_file and key_file");
	if (wc->min_version > wc->max_version)
		return fail(p, wc->tls_line, "min_version %s is above max_version %s",
			    ft_tls_version_name(wc->min_version),
			    ft_tls_version_name(wc->max_version));
	if (wc->client_ca_line && wc->client_auth == FT_CLIENT_NONE)
		return fail(p, wc->client_ca_line,
			    "client_ca_file without a client_auth_type that asks for a certificate "
			    "(VerifyClientCertIfGiven or RequireAndVerifyClientCert)");
	if ((wc->client_auth == FT_CLIENT_VERIFY_IF_GIVEN ||
	     wc->client_auth == FT_CLIENT_REQUIRE_VERIFY) &&
	    !wc->client_ca_line)
		return fail(p, wc->client_auth_line,
			    "client_auth_type %s needs client_ca_file to verify against",
			    client_auth_names[wc->client_auth]);
	return 0;
}

int ft_webconfig_parse(const char *text, size_t len, struct ft_webconfig *wc, char *why, size_t sz)
{
	struct parser p = { .wc = wc, .why = why, .sz = sz };
	enum section sec = SEC_NONE;
	int child_indent = -1, tls_seen = 0, users_seen = 0, http_seen = 0;
	bool content = false;
	int ended = 0;		/* the line of "...", the document's end */
	size_t at = 0;

	memset(wc, 0, sizeof(*wc));
	wc->min_version = FT_TLS12;
	wc->max_version = FT_TLS13;
	wc->prefer_server_ciphers = true;
	why[0] = '\0';
	if (len > FT_WEB_MAX_FILE)
		return fail(&p, 0, "longer than %d KiB: not a web configuration",
			    FT_WEB_MAX_FILE / 1024);
	if (memchr(text, '\0', len))
		return fail(&p, 0, "a NUL byte: not a text file");
	while (at < len) {
		const char *s = text + at, *nl = memchr(s, '\n', len - at), *v = NULL;
		size_t n = nl ? (size_t)(nl - s) : len - at, vlen = 0;
		char key[160];
		int indent = 0;

		at += n + (nl != NULL);
		p.no++;
		if (n && s[n - 1] == '\r')
			n--;
		while ((size_t)indent < n && s[indent] == ' ')
			indent++;
		if ((size_t)indent < n && s[indent] == '\t')
			return fail(&p, p.no,
				    "a tab in the indentation (YAML indents with spaces)");
		s += indent;
		n -= (size_t)indent;
		rtrim(s, &n);
		if (!n || s[0] == '#')
			continue;
		/*
		 * "..." ends the document: anything after it (keys, or another
		 * document) is refused, never dropped, since what it drops could
		 * be basic_auth_users, and the exporter would serve without auth
		 */
		if (ended)
			return fail(&p, p.no,
				    "more after the end of the document ('...' on line %d)", ended);
		if (!indent && n >= 3 && !strncmp(s, "---", 3) && only_comment(s + 3, n - 3)) {
			if (content)
				return fail(&p, p.no, "a second YAML document");
			continue;
		}
		if (!indent && n >= 3 && !strncmp(s, "...", 3) && only_comment(s + 3, n - 3)) {
			ended = p.no;
			continue;
		}
		content = true;
		if (s[0] == '-' && (n == 1 || s[1] == ' '))
			return fail(&p, p.no, "a list where keys go");
		if (key_value(&p, s, n, key, sizeof(key), &v, &vlen))
			return -1;
		if (!indent) {
			int *seen = !strcmp(key, "tls_server_config") ? &tls_seen :
				    !strcmp(key, "basic_auth_users") ? &users_seen :
				    !strcmp(key, "http_server_config") ? &http_seen : NULL;

			if (!seen)
				return fail(&p, p.no, "no key '%s' here (tls_server_config, "
						      "basic_auth_users, "
					    "http_server_config)", key);
			if (once(&p, seen, key))
				return -1;
			if (!empty_value(v, vlen))
				return fail(&p, p.no, "%s takes a mapping: its keys on the lines "
						      "below, indented", key);
			sec = seen == &tls_seen ? SEC_TLS : seen == &users_seen ?
				SEC_USERS : SEC_HTTP;
			if (sec == SEC_TLS) {
				wc->tls = true;
				wc->tls_line = p.no;
			}
			child_indent = -1;
			continue;
		}
		if (sec == SEC_NONE)
			return fail(&p, p.no, "indented, but under no key");
		if (child_indent < 0)
			child_indent = indent;
		if (indent != child_indent)
			return fail(&p, p.no, "indented %d spaces where the lines above have %d%s",
				    indent,
				    child_indent,
				    indent > child_indent ? " (nothing nests deeper here)" : "");
		if ((sec == SEC_TLS && tls_key(&p, key, v, vlen)) ||
		    (sec == SEC_USERS && user_key(&p, key, v, vlen)) ||
		    (sec == SEC_HTTP && http_key(&p, key, v, vlen)))
			return -1;
	}
	return check_whole(&p);
}

const char *ft_tls_version_name(enum ft_tls_version v)
{
	switch (v) {
	case FT_TLS10: return "TLS10";
	case FT_TLS11: return "TLS11";
	case FT_TLS12: return "TLS12";
	case FT_TLS13: return "TLS13";
	}
	return "?";
}

const struct ft_web_user *ft_webconfig_user(const struct ft_webconfig *wc, const char *name)
{
	int i;

	for (i = 0; i < wc->nr_users; i++)
		if (!strcmp(wc->users[i].name, name))
			return &wc->users[i];
	return NULL;
}
