/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Line and token scanning over a bounded, not necessarily NUL-terminated
 * buffer.  Every parser in model/ is built on these; none of them reads
 * past buf + len.
 */
#ifndef FT_BASE_TEXT_H
#define FT_BASE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_span {
	const char *p;
	size_t len;
};

struct ft_cursor {
	const char *p;
	const char *end;
};

static inline void ft_cursor_init(struct ft_cursor *c, const char *buf, size_t len)
{
	c->p = buf;
	c->end = buf + len;
}

/* Next line without its '\n'; false at the end of the buffer. */
bool ft_line_next(struct ft_cursor *c, struct ft_span *line);

/* Next run of non-blank characters in @line; false when none is left. */
bool ft_tok_next(struct ft_span *line, struct ft_span *tok);

/* Leading blanks of @line. */
size_t ft_span_indent(const struct ft_span *line);

bool ft_span_eq(const struct ft_span *s, const char *str);
bool ft_span_starts(const struct ft_span *s, const char *prefix);
struct ft_span ft_span_trim(struct ft_span s);

/* Drop one trailing character @ch if present (e.g. the ',' in "0,"). */
struct ft_span ft_span_chop(struct ft_span s, char ch);

/* Decimal unsigned; 0 or -EINVAL (empty, junk) or -ERANGE (overflow). */
int ft_span_u64(const struct ft_span *s, uint64_t *out);
/* Decimal signed, optional leading '-'. */
int ft_span_i64(const struct ft_span *s, int64_t *out);

/*
 * Copy into a fixed buffer, the rest of it zeroed (a reused struct keeps no
 * stale bytes); -ENAMETOOLONG if it does not fit.
 */
int ft_span_copy(const struct ft_span *s, char *dst, size_t dstsz);

/*
 * In "key=value" lines (@len bytes), the value of @key into @out (cut to
 * @sz), "" if no line has it.
 */
void ft_text_kv(const char *text, size_t len, const char *key, char *out, size_t sz);

/*
 * Word wrap: how much of @text (@n bytes left) goes on a line of @room
 * columns, cut at the last space that fits (else at @room); the next
 * line starts after the spaces that follow (ft_wrap_skip()).  The TUI's
 * help and findings views and the findings' text wrap with them.
 */
size_t ft_wrap_take(const char *text, size_t n, size_t room);
size_t ft_wrap_skip(const char *text, size_t n, size_t at);

#endif
