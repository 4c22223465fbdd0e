// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: kernel symbol names (kernel/ksyms.c).  The bytes are
 * /proc/kallsyms text (kernel output, parsed live) and, cut into pieces,
 * KSYM names (a recording's, untrusted).  Invariants: no crash; the
 * parsed symbols are sorted; a name looked up fits its buffer and is
 * terminated; a name kept has only the characters kallsyms names have
 * and reads back as kept.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/ksyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_symnames t = { 0 };
	struct ft_kallsyms k;
	char b[FT_SYMNAME_LEN];
	size_t i, off;

	if (!ft_kallsyms_parse((const char *)data, size, &k)) {
		for (i = 1; i < k.nr; i++)
			if (k.syms[i - 1].addr > k.syms[i].addr)
				__builtin_trap();
		for (i = 0; i < k.nr && i < 64; i++) {
			size_t n = ft_kallsyms_name(&k, k.syms[i].addr + i, b, sizeof(b));

			if (n >= sizeof(b) || strlen(b) != n)
				__builtin_trap();
		}
	}
	ft_kallsyms_release(&k);
	/* the same bytes as KSYM names: 24-byte pieces, their first byte the address */
	for (off = 0; off < size; off += 24) {
		size_t len = size - off < 24 ? size - off : 24;
		const char *kept;

		if (ft_symnames_add(&t, data[off], (const char *)data + off, len))
			continue;
		kept = ft_symnames_get(&t, data[off]);
		if (!kept || strlen(kept) >= FT_SYMNAME_LEN ||
		    memcmp(kept, data + off, strlen(kept)))
			__builtin_trap();
		for (i = 0; kept[i]; i++)
			if ((unsigned char)kept[i] < 0x20 || (unsigned char)kept[i] > 0x7e)
				__builtin_trap();
	}
	for (i = 1; i < t.nr; i++)
		if (t.v[i - 1].addr >= t.v[i].addr)
			__builtin_trap();
	ft_symnames_release(&t);
	return 0;
}
