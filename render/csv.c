// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/csv.h"

#include <math.h>
#include <string.h>

#include "base/json.h"

void ft_render_csv_field(FILE *f, const char *s)
{
	size_t n = strlen(s);

	if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void ft_render_csv_num(FILE *f, double v)
{
	char buf[40];

	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%s", ft_json_fmt_double(buf, sizeof(buf), v));
}
