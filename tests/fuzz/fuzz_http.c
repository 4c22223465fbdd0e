// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the exporter's request parser on arbitrary bytes, fed
 * whole and in every prefix (as a slow client sends it).  Invariants: no
 * crash; a complete head's length is within the input; a parsed path
 * has no control character or space; basic-auth credentials end inside
 * their buffers, the user without ':', and nothing is kept unless they
 * were believed.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/httpreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ft_http_req r;
	size_t cut, i;

	for (cut = size > 64 ? size - 64 : 0; cut <= size; cut++) {
		int n = ft_http_parse((const char *)data, cut, &r);

		if (n > 0 && (size_t)n > cut)
			__builtin_trap();
		if (n > 0)
			for (i = 0; r.path[i]; i++)
				if ((unsigned char)r.path[i] <= ' ')
					__builtin_trap();
		if (!memchr(r.user, '\0', sizeof(r.user)) ||
		    !memchr(r.pass, '\0', sizeof(r.pass)) ||
		    strchr(r.user, ':') ||
		    (r.auth != FT_HTTP_AUTH_BASIC && (r.user[0] || r.pass[0])))
			__builtin_trap();
	}
	return 0;
}
