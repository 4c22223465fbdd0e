// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: an HTTP answer as `fragtop fleet` reads one, then its
 * body as the Prometheus API's JSON.  Invariants: no crash; a refusal
 * says why; an accepted answer's body lies inside the bytes given, its
 * status is 100-599 and its reason is printable.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/httpans.h"
#include "net/promresp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_prom_resp r;
	struct ft_http_ans a;
	char why[256], *buf = malloc(size + 1);
	size_t i;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (ft_http_ans_parse(buf, size, &a, why, sizeof(why))) {
		if (!why[0])
			__builtin_trap();
	} else {
		if (a.status < 100 || a.status > 599 || a.body < buf ||
		    a.body + a.body_len > buf + size)
			__builtin_trap();
		for (i = 0; a.reason[i]; i++)
			if (a.reason[i] < 0x20 || a.reason[i] >= 0x7f)
				__builtin_trap();
		if (ft_prom_resp_parse(&r, a.body, a.body_len, why, sizeof(why)) && !why[0])
			__builtin_trap();
	}
	free(buf);
	return 0;
}
