// SPDX-License-Identifier: GPL-2.0-or-later
#include "render/roff.h"

#include <stdbool.h>

void ft_roff_text(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (bol && (*s == '.' || *s == '\''))
			fprintf(f, "\\&%c", *s);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

void ft_roff_keys_title(FILE *f, bool roff, const char *title)
{
	if (roff)
		fprintf(f, ".SS \"%s\"\n", title);
	else
		fprintf(f, "\n%s:\n\n| key | what it does |\n| --- | --- |\n", title);
}

void ft_roff_keys_row(FILE *f, bool roff, const char *label, const char *help)
{
	const char *p;

	if (roff) {
		fprintf(f, ".TP\n.B ");
		ft_roff_text(f, label);
		fprintf(f, "\n");
		ft_roff_text(f, help);
		fprintf(f, "\n");
		return;
	}
	fprintf(f, "| `%s` | ", label);
	for (p = help; *p; p++)
		fprintf(f, *p == '|' ? "\\|" : "%c", *p);
	fprintf(f, " |\n");
}
