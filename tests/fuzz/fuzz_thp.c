// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the THP input's parser on arbitrary bytes.
 * Invariants: no crash; sizes in order, none twice, within the table;
 * names and settings printable ASCII and terminated.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/thp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			__builtin_trap();
	if (i == max)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_thp t;
	int i, k;

	ft_thp_parse((const char *)data, size, &t);
	if (t.nr < 0 || t.nr > FT_THP_SIZES)
		__builtin_trap();
	for (i = 0; i < t.nr; i++) {
		if (i && t.s[i].kb <= t.s[i - 1].kb)
			__builtin_trap();
		if (t.s[i].nr_stats < 0 || t.s[i].nr_stats > FT_THP_STATS)
			__builtin_trap();
		printable(t.s[i].enabled, sizeof(t.s[i].enabled));
		printable(t.s[i].shmem, sizeof(t.s[i].shmem));
		for (k = 0; k < t.s[i].nr_stats; k++)
			printable(t.s[i].stat_name[k], FT_THP_NAME);
	}
	return 0;
}
