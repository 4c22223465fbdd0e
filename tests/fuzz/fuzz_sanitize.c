// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the sanitiser and the JSON string writer on arbitrary
 * bytes.  Invariants: the sanitised text is valid UTF-8 with no unsafe
 * code point (C0 but tab and newline, DEL, C1, bidi controls) and fits;
 * the sanitising stream gives the same text whatever the write sizes; a
 * JSON string is valid UTF-8 with no raw control.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/json.h"
#include "base/sanitize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Valid UTF-8 without an unsafe code point (newline and tab allowed). */
static void check_safe(const char *s, size_t len, bool json)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len) {
		uint32_t cp;
		int n = ft_utf8_next(p, len, &cp);

		if (n <= 0 || ft_cp_unsafe(cp) || (json && cp < 0x20))
			__builtin_trap();
		p += n;
		len -= (size_t)n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[1 << 18];
	char *mem = NULL, *str;
	size_t n, mlen = 0, cut;
	struct ft_json j;
	FILE *f;

	if (size > (1 << 15))
		return 0;
	/* the plain function, with a room that cuts */
	cut = size ? data[0] : 0;
	n = ft_sanitize((const char *)data, size, out, cut + 1);
	if (n > cut || out[n])
		__builtin_trap();
	check_safe(out, n, false);
	n = ft_sanitize((const char *)data, size, out, sizeof(out));
	check_safe(out, n, false);

	/* the stream, written in pieces whose sizes come from the data: the same text */
	{
		static char back[1 << 18];
		int fd = memfd_create("fuzz", 0), fd2;
		size_t off = 0, k = 0;
		ssize_t got;

		if (fd < 0)
			return 0;
		fd2 = dup(fd);
		f = fdopen(fd2, "w");
		if (!f || ft_sanitize_stream(&f))
			__builtin_trap();
		setvbuf(f, NULL, _IONBF, 0);
		while (off < size) {
			size_t step = 1 + (data[k++ % size] % 7);

			if (step > size - off)
				step = size - off;
			fwrite(data + off, 1, step, f);
			off += step;
		}
		fclose(f);
		close(fd2);
		got = pread(fd, back, sizeof(back) - 1, 0);
		close(fd);
		if (got < 0 || (size_t)got != n || memcmp(back, out, n))
			__builtin_trap();
	}

	/* a JSON string */
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	mem = NULL;
	f = open_memstream(&mem, &mlen);
	if (!f) {
		free(str);
		return 0;
	}
	ft_json_init(&j, f, false);
	ft_json_obj_begin(&j, NULL);
	ft_json_str(&j, str, str);
	ft_json_obj_end(&j);
	fclose(f);
	check_safe(mem, mlen, true);
	free(mem);
	free(str);
	return 0;
}
