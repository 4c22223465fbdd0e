// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

void ft_json_init(struct ft_json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->inline_[0] = false;
	j->pretty = pretty;
}

/*
 * A JSON string is valid UTF-8 whatever @s holds: bytes that are not
 * UTF-8 become U+FFFD; controls (C0, DEL, C1) and the bidirectional
 * controls are written as \u escapes, so a consumer that prints the value
 * gets no raw control either.
 */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	fputc('"', f);
	while (len) {
		uint32_t cp = 0;
		int n = ft_utf8_next(p, len, &cp);

		if (n <= 0) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (cp == '"') {
			fputs("\\\"", f);
		} else if (cp == '\\') {
			fputs("\\\\", f);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (cp == '\r') {
			fputs("\\r", f);
		} else if (cp < 0x20 || ft_cp_unsafe(cp)) {
			fprintf(f, "\\u%04x", (unsigned int)cp);
		} else {
			fwrite(p, 1, (size_t)n, f);
		}
		p += n;
		len -= (size_t)n;
	}
	fputc('"', f);
}

static void indent(struct ft_json *j)
{
	int i;

	if (!j->pretty || j->inline_[j->depth])
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void prefix(struct ft_json *j, const char *key)
{
	if (!j->first[j->depth])
		fputs(j->inline_[j->depth] && j->pretty ? ", " : ",", j->f);
	j->first[j->depth] = false;
	if (j->depth)
		indent(j);
	if (key) {
		put_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open_(struct ft_json *j, const char *key, char ch, bool inl)
{
	prefix(j, key);
	fputc(ch, j->f);
	if (j->depth < FT_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
	j->inline_[j->depth] = inl || j->inline_[j->depth - 1];
}

static void close_(struct ft_json *j, char ch)
{
	bool empty = j->first[j->depth], inl = j->inline_[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty && !inl)
		indent(j);
	fputc(ch, j->f);
}

void ft_json_obj_begin(struct ft_json *j, const char *key) { open_(j, key, '{', false); }
void ft_json_obj_end(struct ft_json *j) { close_(j, '}'); }
void ft_json_arr_begin(struct ft_json *j, const char *key) { open_(j, key, '[', false); }
void ft_json_arr_begin_inline(struct ft_json *j, const char *key) { open_(j, key, '[', true); }
void ft_json_obj_begin_inline(struct ft_json *j, const char *key) { open_(j, key, '{', true); }
void ft_json_arr_end(struct ft_json *j) { close_(j, ']'); }

void ft_json_str(struct ft_json *j, const char *key, const char *val)
{
	prefix(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void ft_json_u64(struct ft_json *j, const char *key, uint64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void ft_json_i64(struct ft_json *j, const char *key, int64_t val)
{
	prefix(j, key);
	fprintf(j->f, "%lld", (long long)val);
}

const char *ft_json_fmt_double(char *buf, size_t sz, double val)
{
	static const int digits[] = { 6, 9, 12, 15, 17 };
	size_t i;

	/*
	 * the shortest of these that reads back as the same number: 6 digits mostly, never a lost
	 * one
	 */
	for (i = 0; i < sizeof(digits) / sizeof(digits[0]); i++) {
		snprintf(buf, sz, "%.*g", digits[i], val);
		if (strtod(buf, NULL) == val)
			break;
	}
	return buf;
}

void ft_json_double(struct ft_json *j, const char *key, double val)
{
	char buf[40];

	prefix(j, key);
	if (!isfinite(val)) {
		fputs("null", j->f);
		return;
	}
	fputs(ft_json_fmt_double(buf, sizeof(buf), val), j->f);
}

void ft_json_null(struct ft_json *j, const char *key)
{
	prefix(j, key);
	fputs("null", j->f);
}

void ft_json_bool(struct ft_json *j, const char *key, bool val)
{
	prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void ft_json_raw(struct ft_json *j, const char *key, const char *val)
{
	prefix(j, key);
	fputs(val, j->f);
}

void ft_json_end(struct ft_json *j)
{
	fputc('\n', j->f);
	fflush(j->f);
}
