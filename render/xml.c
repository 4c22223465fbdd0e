// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/xml.h"

#include <stdint.h>
#include <string.h>

#include "base/sanitize.h"

void ft_render_xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	while (len) {
		uint32_t cp;
		int n = ft_utf8_next(p, len, &cp);

		if (n <= 0 || (cp < 0x20 && cp != '\t') || cp == 0x7f || ft_cp_unsafe(cp)) {
			fputc('?', f);
			n = n > 0 ? n : 1;
		} else if (cp == '&') {
			fputs("&amp;", f);
		} else if (cp == '<') {
			fputs("&lt;", f);
		} else if (cp == '>') {
			fputs("&gt;", f);
		} else if (cp == '"') {
			fputs("&quot;", f);
		} else if (cp == '\'') {
			fputs("&apos;", f);
		} else {
			fwrite(p, 1, (size_t)n, f);
		}
		p += n;
		len -= (size_t)n;
	}
}
