// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: a line of the change journal (model/journal.c), text
 * a recording or a tree may hold forged.  Invariants: no crash; a line
 * taken as a claim gives the AUDIT text "how=claim\noutcome=claim\n" then
 * its seven fields in their order, each a line of its own, terminated,
 * within the buffer, with no control byte but the newlines.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "t_ns=", "pid=", "uid=", "by=", "knob=", "old=",
					    "new=" };
	char out[FT_JOURNAL_LINE + 64];
	const char *p;
	int n = ft_journal_claim((const char *)data, size, out, sizeof(out));
	size_t i, lines = 0;

	if (n < 0)
		return 0;
	if ((size_t)n >= sizeof(out) || out[n] || strncmp(out, "how=claim\noutcome=claim\n", 24))
		__builtin_trap();
	for (i = 0; i < (size_t)n; i++) {
		if (out[i] == '\n')
			lines++;
		else if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			__builtin_trap();
	}
	if (lines != 9)
		__builtin_trap();
	for (i = 0, p = out + 24; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strncmp(p, keys[i], strlen(keys[i])))
			__builtin_trap();
		p = strchr(p, '\n') + 1;
	}
	return 0;
}
