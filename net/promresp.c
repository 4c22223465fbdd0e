// SPDX-License-Identifier: GPL-2.0-or-later
#include "net/promresp.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

struct rd {
	const char *p, *start, *end;
	struct ft_prom_resp *r;
	char *why;
	size_t sz;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct rd *d, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!d->why[0]) {
		n = (size_t)snprintf(d->why, d->sz, "byte %zu: ", (size_t)(d->p - d->start));
		if (n < d->sz) {
			va_start(ap, fmt);
			vsnprintf(d->why + n, d->sz - n, fmt, ap);
			va_end(ap);
		}
	}
	return -1;
}

static void ws(struct rd *d)
{
	while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r'))
		d->p++;
}

/* Take @c after blanks; false when the next byte is not it. */
static bool take(struct rd *d, char c)
{
	ws(d);
	if (d->p < d->end && *d->p == c) {
		d->p++;
		return true;
	}
	return false;
}

static int expect(struct rd *d, char c)
{
	if (take(d, c))
		return 0;
	if (d->p >= d->end)
		return fail(d, "the answer ends where '%c' was expected", c);
	return fail(d, "'%c' expected", c);
}

static int hex4(struct rd *d, unsigned int *u)
{
	int i;

	*u = 0;
	if (d->end - d->p < 4)
		return fail(d, "a \\u escape cut short");
	for (i = 0; i < 4; i++) {
		char c = *d->p++;

		*u <<= 4;
		if (c >= '0' && c <= '9')
			*u |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*u |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*u |= (unsigned int)(c - 'A' + 10);
		else
			return fail(d, "a \\u escape with a byte that is not hex");
	}
	return 0;
}

/* @cp as UTF-8 into @o (4 bytes at most); the bytes written. */
static size_t utf8(unsigned int cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The code point of a \u escape, a surrogate pair read whole; U+0000 and lone surrogates become
 * U+FFFD.
 */
static int escape_u(struct rd *d, unsigned int *cp)
{
	unsigned int lo;

	if (hex4(d, cp))
		return -1;
	if (*cp >= 0xd800 && *cp < 0xdc00 && d->end - d->p >= 6 && d->p[0] == '\\' &&
	    d->p[1] == 'u') {
		d->p += 2;
		if (hex4(d, &lo))
			return -1;
		if (lo >= 0xdc00 && lo < 0xe000) {
			*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
			return 0;
		}
		*cp = 0xfffd;	/* the second escape is dropped with the first */
		return 0;
	}
	if (*cp == 0 || (*cp >= 0xd800 && *cp < 0xe000))
		*cp = 0xfffd;
	return 0;
}

/*
 * A string at the cursor, decoded: into @out (@cap bytes, cut, always
 * NUL-ended) when @out is not NULL, else onto the arena (*@off its start).
 */
static int string(struct rd *d, char *out, size_t cap, uint32_t *off)
{
	struct ft_prom_resp *r = d->r;
	char tmp[4];
	size_t n = 0, k, i;
	unsigned int cp;

	if (expect(d, '"'))
		return -1;
	if (!out)
		*off = (uint32_t)r->arena_len;
	for (;;) {
		const char *src;

		if (d->p >= d->end)
			return fail(d, "a string is not closed");
		if (*d->p == '"') {
			d->p++;
			break;
		}
		if ((unsigned char)*d->p < 0x20)
			return fail(d, "a control byte inside a string");
		if (*d->p != '\\') {
			tmp[0] = *d->p++;
			k = 1;
		} else {
			if (++d->p >= d->end)
				return fail(d, "a string is not closed");
			src = strchr("\"\\/bfnrtu", *d->p);
			if (!src || !*d->p)
				return fail(d, "an unknown escape \\%c", *d->p);
			if (*d->p == 'u') {
				d->p++;
				if (escape_u(d, &cp))
					return -1;
				k = utf8(cp, tmp);
			} else {
				tmp[0] = "\"\\/\b\f\n\r\t"[src - "\"\\/bfnrtu"];
				d->p++;
				k = 1;
			}
		}
		if (out) {
			for (i = 0; i < k && n + 1 < cap; i++)
				out[n++] = tmp[i];
			continue;
		}
		if (r->arena_len + k + 1 > FT_PROM_MAX_ARENA)
			return fail(d, "the labels are past %u MiB", FT_PROM_MAX_ARENA >> 20);
		if (ft_grow((void **)&r->arena, &r->arena_cap, r->arena_len + k + 1, 1,
			    FT_PROM_MAX_ARENA))
			return fail(d, "out of memory");
		memcpy(r->arena + r->arena_len, tmp, k);
		r->arena_len += k;
	}
	if (out) {
		if (cap)
			out[n] = '\0';
		return 0;
	}
	if (ft_grow((void **)&r->arena, &r->arena_cap, r->arena_len + 1, 1, FT_PROM_MAX_ARENA))
		return fail(d, "out of memory");
	r->arena[r->arena_len++] = '\0';
	return 0;
}

/* A JSON number at the cursor (RFC 8259's grammar, checked). */
static int number(struct rd *d, double *v)
{
	const char *s = d->p;
	char buf[64];
	size_t n;

	if (d->p < d->end && *d->p == '-')
		d->p++;
	if (d->p >= d->end || *d->p < '0' || *d->p > '9')
		return fail(d, "a number expected");
	if (*d->p == '0')
		d->p++;
	else
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	if (d->p < d->end && *d->p == '.') {
		if (++d->p >= d->end || *d->p < '0' || *d->p > '9')
			return fail(d, "a digit expected after '.'");
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	}
	if (d->p < d->end && (*d->p == 'e' || *d->p == 'E')) {
		d->p++;
		if (d->p < d->end && (*d->p == '+' || *d->p == '-'))
			d->p++;
		if (d->p >= d->end || *d->p < '0' || *d->p > '9')
			return fail(d, "a digit expected in an exponent");
		while (d->p < d->end && *d->p >= '0' && *d->p <= '9')
			d->p++;
	}
	n = (size_t)(d->p - s);
	if (n >= sizeof(buf))
		return fail(d, "a number of %zu bytes", n);
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	return 0;
}

static int literal(struct rd *d, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(d->end - d->p) < n || memcmp(d->p, word, n))
		return fail(d, "a value expected");
	d->p += n;
	return 0;
}

/* Any value, passed over. */
static int skip(struct rd *d, int depth)
{
	char close;
	double v;

	if (depth > FT_PROM_MAX_DEPTH)
		return fail(d, "nested deeper than %d", FT_PROM_MAX_DEPTH);
	ws(d);
	if (d->p >= d->end)
		return fail(d, "the answer ends where a value was expected");
	switch (*d->p) {
	case '"': {
		char none[1];

		return string(d, none, sizeof(none), NULL);
	}
	case '{':
	case '[':
		close = *d->p == '{' ? '}' : ']';
		d->p++;
		if (take(d, close))
			return 0;
		do {
			if (close == '}') {
				char key[8];

				if (string(d, key, sizeof(key), NULL) || expect(d, ':'))
					return -1;
			}
			if (skip(d, depth + 1))
				return -1;
		} while (take(d, ','));
		return expect(d, close);
	case 't':
		return literal(d, "true");
	case 'f':
		return literal(d, "false");
	case 'n':
		return literal(d, "null");
	default:
		return number(d, &v);
	}
}

static int skip_value(struct rd *d)
{
	return skip(d, 0);
}

/* A sample: [seconds, "value"]. */
static int sample(struct rd *d)
{
	struct ft_prom_resp *r = d->r;
	struct ft_prom_sample s;
	char val[64], *e;

	if (expect(d, '['))
		return -1;
	ws(d);
	if (number(d, &s.t) || expect(d, ',') || (ws(d), string(d, val, sizeof(val), NULL)) ||
	    expect(d, ']'))
		return -1;
	s.v = strtod(val, &e);
	if (r->type == FT_PROM_STRING)
		s.v = NAN;	/* a string's value is not a figure */
	else if (e == val || *e)
		return fail(d, "a sample value '%.20s' that is not a number", val);
	if (r->nsamples >= FT_PROM_MAX_SAMPLES)
		return fail(d, "more than %u samples", FT_PROM_MAX_SAMPLES);
	if (ft_grow((void **)&r->samples, &r->samples_cap, r->nsamples + 1, sizeof(s),
		    FT_PROM_MAX_SAMPLES))
		return fail(d, "out of memory");
	r->samples[r->nsamples++] = s;
	return 0;
}

static int metric(struct rd *d, struct ft_prom_series *se)
{
	struct ft_prom_resp *r = d->r;
	struct ft_prom_label l;

	if (expect(d, '{'))
		return -1;
	if (take(d, '}'))
		return 0;
	do {
		ws(d);
		if (string(d, NULL, 0, &l.name) || expect(d, ':'))
			return -1;
		ws(d);
		if (string(d, NULL, 0, &l.value))
			return -1;
		if (r->nlabels >= FT_PROM_MAX_LABELS)
			return fail(d, "more than %u labels", FT_PROM_MAX_LABELS);
		if (ft_grow((void **)&r->labels, &r->labels_cap, r->nlabels + 1, sizeof(l),
			    FT_PROM_MAX_LABELS))
			return fail(d, "out of memory");
		r->labels[r->nlabels++] = l;
		se->nlabels++;
	} while (take(d, ','));
	return expect(d, '}');
}

/* An object member's key at the cursor, cut to @sz, and its ':'; the cursor at the value. */
static int member(struct rd *d, char *key, size_t sz)
{
	ws(d);
	if (string(d, key, sz, NULL) || expect(d, ':'))
		return -1;
	ws(d);
	return 0;
}

/* One element of "result": a series' object, or a scalar's or string's [t, "v"]. */
static int element(struct rd *d)
{
	struct ft_prom_resp *r = d->r;
	struct ft_prom_series se = { (uint32_t)r->nlabels, 0, (uint32_t)r->nsamples, 0 };
	char key[16];

	ws(d);
	if (d->p < d->end && *d->p == '[') {
		if (sample(d))
			return -1;
	} else {
		if (expect(d, '{'))
			return -1;
		if (!take(d, '}')) {
			do {
				if (member(d, key, sizeof(key)))
					return -1;
				if (!strcmp(key, "metric")) {
					if (metric(d, &se))
						return -1;
				} else if (!strcmp(key, "value")) {
					if (sample(d))
						return -1;
				} else if (!strcmp(key, "values")) {
					if (expect(d, '['))
						return -1;
					if (!take(d, ']')) {
						do {
							if (sample(d))
								return -1;
						} while (take(d, ','));
						if (expect(d, ']'))
							return -1;
					}
				} else if (skip_value(d)) {
					return -1;	/* "histogram", "histograms": not read */
				}
			} while (take(d, ','));
			if (expect(d, '}'))
				return -1;
		}
	}
	se.nsamples = (uint32_t)(r->nsamples - se.sample0);
	if (r->nseries >= FT_PROM_MAX_SERIES)
		return fail(d, "more than %u series", FT_PROM_MAX_SERIES);
	if (ft_grow((void **)&r->series, &r->series_cap, r->nseries + 1, sizeof(se),
		    FT_PROM_MAX_SERIES))
		return fail(d, "out of memory");
	r->series[r->nseries++] = se;
	return 0;
}

static int result(struct rd *d)
{
	const char *open;

	ws(d);
	if (d->p < d->end && *d->p == 'n')
		return literal(d, "null");
	if (d->p >= d->end || *d->p != '[')
		return fail(d, "\"result\" is not an array");
	open = d->p++;
	if (take(d, ']'))
		return 0;
	/* a scalar's or a string's result is one [t, "v"]: a number first */
	ws(d);
	if (d->p < d->end && (*d->p == '-' || (*d->p >= '0' && *d->p <= '9'))) {
		d->p = open;
		return element(d);
	}
	do {
		if (element(d))
			return -1;
	} while (take(d, ','));
	return expect(d, ']');
}

static int data(struct rd *d)
{
	struct ft_prom_resp *r = d->r;
	char key[16], type[16];

	if (expect(d, '{'))
		return -1;
	if (take(d, '}'))
		return 0;
	do {
		if (member(d, key, sizeof(key)))
			return -1;
		if (!strcmp(key, "resultType")) {
			if (string(d, type, sizeof(type), NULL))
				return -1;
			r->type = !strcmp(type, "vector") ? FT_PROM_VECTOR : !strcmp(type,
				"matrix") ? FT_PROM_MATRIX :
				  !strcmp(type, "scalar") ? FT_PROM_SCALAR : !strcmp(type,
					  "string") ? FT_PROM_STRING :
				  FT_PROM_NONE;
			if (r->type == FT_PROM_NONE)
				return fail(d, "an unknown resultType");
		} else if (!strcmp(key, "result")) {
			if (result(d))
				return -1;
		} else if (skip_value(d)) {
			return -1;
		}
	} while (take(d, ','));
	return expect(d, '}');
}

static int warnings(struct rd *d)
{
	if (expect(d, '['))
		return -1;
	if (take(d, ']'))
		return 0;
	do {
		if (skip_value(d))
			return -1;
		d->r->warnings++;
	} while (take(d, ','));
	return expect(d, ']');
}

static int top(struct rd *d)
{
	struct ft_prom_resp *r = d->r;
	char key[16], status[16] = "";
	bool has_data = false;

	if (expect(d, '{'))
		return fail(d, "not a JSON object (not the Prometheus API?)");
	if (!take(d, '}')) {
		do {
			if (member(d, key, sizeof(key)))
				return -1;
			if (!strcmp(key, "status")) {
				if (string(d, status, sizeof(status), NULL))
					return -1;
			} else if (!strcmp(key, "data")) {
				if (d->p < d->end && *d->p == 'n') {
					if (literal(d, "null"))
						return -1;
				} else if (data(d)) {
					return -1;
				}
				has_data = true;
			} else if (!strcmp(key, "errorType")) {
				if (string(d, r->error_type, sizeof(r->error_type), NULL))
					return -1;
			} else if (!strcmp(key, "error")) {
				if (string(d, r->error, sizeof(r->error), NULL))
					return -1;
			} else if (!strcmp(key, "warnings")) {
				if (warnings(d))
					return -1;
			} else if (skip_value(d)) {
				return -1;
			}
		} while (take(d, ','));
		if (expect(d, '}'))
			return -1;
	}
	ws(d);
	if (d->p != d->end)
		return fail(d, "bytes after the answer");
	if (!strcmp(status, "success")) {
		if (!has_data || r->type == FT_PROM_NONE)
			return fail(d, "\"success\" without data and its resultType");
		r->success = true;
	} else if (strcmp(status, "error")) {
		return fail(d, "no \"status\" of success or error");
	}
	return 0;
}

int ft_prom_resp_parse(struct ft_prom_resp *r, const char *buf, size_t len, char *why, size_t sz)
{
	struct rd d = { buf, buf, buf + len, r, why, sz };

	if (sz)
		why[0] = '\0';
	r->success = false;
	r->error_type[0] = r->error[0] = '\0';
	r->warnings = 0;
	r->type = FT_PROM_NONE;
	r->arena_len = r->nlabels = r->nsamples = r->nseries = 0;
	if (top(&d)) {
		r->nseries = 0;	/* nothing half read is used */
		return -1;
	}
	return 0;
}

void ft_prom_resp_release(struct ft_prom_resp *r)
{
	free(r->arena);
	free(r->labels);
	free(r->samples);
	free(r->series);
	memset(r, 0, sizeof(*r));
}

const char *ft_prom_label_name(const struct ft_prom_resp *r, const struct ft_prom_series *s,
			       size_t i)
{
	return r->arena + r->labels[s->label0 + i].name;
}

const char *ft_prom_label_value(const struct ft_prom_resp *r, const struct ft_prom_series *s,
				size_t i)
{
	return r->arena + r->labels[s->label0 + i].value;
}

const char *ft_prom_label(const struct ft_prom_resp *r, const struct ft_prom_series *s,
			  const char *name)
{
	size_t i;

	for (i = 0; i < s->nlabels; i++)
		if (!strcmp(ft_prom_label_name(r, s, i), name))
			return ft_prom_label_value(r, s, i);
	return NULL;
}

const struct ft_prom_sample *ft_prom_last(const struct ft_prom_resp *r,
					  const struct ft_prom_series *s)
{
	return s->nsamples ? &r->samples[s->sample0 + s->nsamples - 1] : NULL;
}
