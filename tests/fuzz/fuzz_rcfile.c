// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: fragtoprc's parser on arbitrary bytes.  Invariants: no
 * crash; every value it keeps is in its range and printable ASCII; the
 * message is printable ASCII; what it keeps formats and parses back to
 * the same settings with no error.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tui/rcfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_rc rc, back;
	char why[160], text[2048];
	int n;

	ft_rc_parse((const char *)data, size, &rc, why, sizeof(why));
	printable(why);
	printable(rc.view);
	printable(rc.sort);
	printable(rc.map_zone);
	if (rc.interval != 0 && !(rc.interval >= 0.1 && rc.interval <= 3600))
		__builtin_trap();
	if (rc.color < -1 || rc.color > 1)
		__builtin_trap();
	n = ft_rc_format(&rc, text, sizeof(text));
	if (n < 0 || (size_t)n >= sizeof(text))
		__builtin_trap();
	if (ft_rc_parse(text, (size_t)n, &back, why, sizeof(why)))
		__builtin_trap();
	if (strcmp(back.view, rc.view) || strcmp(back.sort, rc.sort) ||
	    strcmp(back.map_zone, rc.map_zone) ||
	    back.color != rc.color)
		__builtin_trap();
	return 0;
}
