// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/sysfile.h"

#include <errno.h>
#include <string.h>

#include "base/text.h"

int ft_sysfile_parse_int(const char *buf, size_t len, int64_t *out)
{
	struct ft_span s = { buf, len };

	s = ft_span_trim(s);
	return ft_span_i64(&s, out) ? -EINVAL : 0;
}

int ft_sysfile_parse_selector(const char *buf, size_t len, struct ft_selector *out)
{
	struct ft_span line = { buf, len }, tok;

	line = ft_span_trim(line);
	if (line.len && memchr(line.p, '\n', line.len))
		return -EINVAL;
	out->nr_options = 0;
	out->selected = -1;
	while (ft_tok_next(&line, &tok)) {
		if (out->nr_options == FT_SEL_MAX_OPTIONS)
			return -E2BIG;
		if (tok.len >= 2 && tok.p[0] == '[' && tok.p[tok.len - 1] == ']') {
			if (out->selected >= 0)
				return -EINVAL;
			out->selected = out->nr_options;
			tok.p++;
			tok.len -= 2;
		}
		if (!tok.len || memchr(tok.p, '[', tok.len) || memchr(tok.p, ']', tok.len))
			return -EINVAL;
		if (ft_span_copy(&tok, out->options[out->nr_options], FT_SEL_NAME_LEN))
			return -EINVAL;
		out->nr_options++;
	}
	return out->selected >= 0 ? 0 : -EINVAL;
}

int ft_sysfile_meminfo(const char *buf, size_t len, const char *key, uint64_t *kb)
{
	struct ft_cursor c;
	struct ft_span line, tok;
	size_t klen = strlen(key);

	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		if (line.len <= klen || memcmp(line.p, key, klen) || line.p[klen] != ':')
			continue;
		line.p += klen + 1;
		line.len -= klen + 1;
		if (!ft_tok_next(&line, &tok) || ft_span_u64(&tok, kb))
			return -EINVAL;
		return 0;
	}
	return -ENOENT;
}
