/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An answer of the Prometheus HTTP API (/api/v1/query, /api/v1/query_range),
 * as every server speaking it writes one (Prometheus, Thanos, Mimir,
 * VictoriaMetrics): {"status", "data": {"resultType", "result"}, "errorType",
 * "error", "warnings"}.  A vector's series carry one "value", a matrix's
 * "values"; a scalar is one sample with no labels.  Native histograms and
 * any key this reader does not know are skipped.
 *
 * Pure and bounded: bytes from the network in, flat arrays out (labels in
 * one string arena, samples in one array), no tree.  A malformed answer is
 * refused with the byte where it went wrong; what it holds is never
 * trusted to be printable (render sanitises).
 */
#ifndef FT_NET_PROMRESP_H
#define FT_NET_PROMRESP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_PROM_MAX_SERIES	(1u << 20)
#define FT_PROM_MAX_SAMPLES	(1u << 24)
#define FT_PROM_MAX_LABELS	(1u << 22)
#define FT_PROM_MAX_ARENA	(256u << 20)
#define FT_PROM_MAX_DEPTH	64	/* nesting in the values skipped */

enum ft_prom_type { FT_PROM_NONE, FT_PROM_VECTOR, FT_PROM_MATRIX, FT_PROM_SCALAR, FT_PROM_STRING };

struct ft_prom_label {
	uint32_t name, value;		/* offsets of NUL-ended strings in the arena */
};

struct ft_prom_sample {
	double t;			/* seconds since the epoch */
	double v;			/* "NaN", "+Inf" and "-Inf" as such */
};

struct ft_prom_series {
	uint32_t label0, nlabels;	/* in labels[] */
	uint32_t sample0, nsamples;	/* in samples[] */
};

struct ft_prom_resp {
	bool success;			/* "status": "success" */
	char error_type[64];		/* "errorType" of a refusal */
	char error[512];		/* "error", cut */
	unsigned int warnings;
	enum ft_prom_type type;
	char *arena;
	size_t arena_len, arena_cap;
	struct ft_prom_label *labels;
	size_t nlabels, labels_cap;
	struct ft_prom_sample *samples;
	size_t nsamples, samples_cap;
	struct ft_prom_series *series;
	size_t nseries, series_cap;
};

/*
 * Read @len bytes of @buf into @r (emptied first; its arrays are reused).
 * 0, or -1 with why in @why: not JSON, not the API's shape, past a bound.
 * A well-formed refusal ("status": "error") is 0 with success false.
 */
int ft_prom_resp_parse(struct ft_prom_resp *r, const char *buf, size_t len, char *why, size_t sz);
void ft_prom_resp_release(struct ft_prom_resp *r);

/* The value of label @name of series @s, or NULL. */
const char *ft_prom_label(const struct ft_prom_resp *r, const struct ft_prom_series *s,
			  const char *name);
/* Label @i of @s: its name and value. */
const char *ft_prom_label_name(const struct ft_prom_resp *r, const struct ft_prom_series *s,
			       size_t i);
const char *ft_prom_label_value(const struct ft_prom_resp *r, const struct ft_prom_series *s,
				size_t i);
/* The last sample of @s, or NULL when it has none. */
const struct ft_prom_sample *ft_prom_last(const struct ft_prom_resp *r,
					  const struct ft_prom_series *s);

#endif
