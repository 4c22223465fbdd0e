// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/journal.h"

#include <stdio.h>
#include <string.h>

int ft_journal_claim(const char *line, size_t len, char *out, size_t sz)
{
	static const char *const need[] = { "t_ns=", "pid=", "uid=", "by=", "knob=", "old=",
					    "new=" };
	size_t i = 0, n = 0, f = 0, w;
	int k;

	if (len >= FT_JOURNAL_LINE)
		return -1;
	k = snprintf(out, sz, "how=claim\noutcome=claim\n");
	if (k < 0 || (size_t)k >= sz)
		return -1;
	n = (size_t)k;
	while (i < len) {
		for (w = i; w < len && line[w] != ' '; w++)
			if ((unsigned char)line[w] < 0x20 || line[w] == 0x7f)
				return -1;
		/* the fields in their order, each once */
		if (f == sizeof(need) / sizeof(need[0]) || w - i <= strlen(need[f]) ||
		    strncmp(line + i, need[f], strlen(need[f])) || n + (w - i) + 2 > sz)
			return -1;
		memcpy(out + n, line + i, w - i);
		n += w - i;
		out[n++] = '\n';
		f++;
		i = w + 1;
	}
	if (f != sizeof(need) / sizeof(need[0]))
		return -1;
	out[n] = '\0';
	return (int)n;
}

const char *ft_journal_who(const char *by)
{
	static const struct { const char *by, *who; } names[] = {
		{ "set", "fragtop set" }, { "tui", "fragtop's TUI" },
		{ "experiment", "fragtop experiment" },
		{ "restore", "fragtop's restore" }, { "preflight", "fragtop preflight" },
	};
	size_t i;

	for (i = 0; by && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(by, names[i].by))
			return names[i].who;
	return by && *by ? "fragtop" : "outside fragtop";
}
