/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small streaming JSON writer: commas, nesting and string escaping. */
#ifndef FT_BASE_JSON_H
#define FT_BASE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FT_JSON_MAX_DEPTH 32

struct ft_json {
	FILE *f;
	int depth;
	bool first[FT_JSON_MAX_DEPTH];
	bool inline_[FT_JSON_MAX_DEPTH];	/* container on one line */
	bool pretty;
};

void ft_json_init(struct ft_json *j, FILE *f, bool pretty);
/* @key is NULL inside arrays and at the top level. */
void ft_json_obj_begin(struct ft_json *j, const char *key);
void ft_json_obj_end(struct ft_json *j);
void ft_json_arr_begin(struct ft_json *j, const char *key);
/* An array printed on one line (for short lists of numbers). */
void ft_json_arr_begin_inline(struct ft_json *j, const char *key);
/* An object printed on one line (small records in a long list). */
void ft_json_obj_begin_inline(struct ft_json *j, const char *key);
void ft_json_arr_end(struct ft_json *j);
void ft_json_str(struct ft_json *j, const char *key, const char *val);
void ft_json_u64(struct ft_json *j, const char *key, uint64_t val);
void ft_json_i64(struct ft_json *j, const char *key, int64_t val);
/* NaN and infinities become null. */
void ft_json_double(struct ft_json *j, const char *key, double val);
void ft_json_null(struct ft_json *j, const char *key);
void ft_json_bool(struct ft_json *j, const char *key, bool val);
/* A preformatted number, e.g. "0.182"; the caller guarantees the syntax. */
void ft_json_raw(struct ft_json *j, const char *key, const char *val);
void ft_json_end(struct ft_json *j);

/*
 * @val in @buf as the shortest of %.6g, %.9g ... %.17g that reads back as
 * the same double: what JSON and CSV write, so no digit is lost.
 */
const char *ft_json_fmt_double(char *buf, size_t sz, double val);

#endif
