// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the Prometheus API answer reader on arbitrary bytes.
 * Invariants: no crash; a refusal says why and keeps no series; what it
 * accepts is whole: every series' labels and samples lie inside their
 * arrays, every label's strings end inside the arena, and a success has
 * a result type.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/promresp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ft_prom_resp r;
	char why[256];
	size_t i, k;

	if (ft_prom_resp_parse(&r, (const char *)data, size, why, sizeof(why))) {
		if (!why[0] || r.nseries)
			__builtin_trap();
		return 0;
	}
	if (r.success && r.type == FT_PROM_NONE)
		__builtin_trap();
	if (!memchr(r.error, '\0', sizeof(r.error)) ||
	    !memchr(r.error_type, '\0', sizeof(r.error_type)))
		__builtin_trap();
	for (i = 0; i < r.nseries; i++) {
		const struct ft_prom_series *s = &r.series[i];

		if ((size_t)s->label0 + s->nlabels > r.nlabels ||
		    (size_t)s->sample0 + s->nsamples > r.nsamples)
			__builtin_trap();
		for (k = 0; k < s->nlabels; k++) {
			const struct ft_prom_label *l = &r.labels[s->label0 + k];

			if (l->name >= r.arena_len || l->value >= r.arena_len ||
			    !memchr(r.arena + l->value, '\0', r.arena_len - l->value))
				__builtin_trap();
			(void)ft_prom_label(&r, s, "instance");
		}
		(void)ft_prom_last(&r, s);
	}
	return 0;
}
