// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/cost.h"

#include <errno.h>
#include <string.h>

size_t ft_costrec_encode(const struct ft_cost *c, uint8_t *b, size_t sz)
{
	uint32_t nr = FT_COST_NR, per = 3;
	size_t i, off = 8;

	if (sz < FT_COST_REC_LEN)
		return 0;
	memcpy(b, &nr, 4);
	memcpy(b + 4, &per, 4);
	for (i = 0; i < FT_COST_NR; i++, off += 24) {
		memcpy(b + off, &c->src[i].opens, 8);
		memcpy(b + off + 8, &c->src[i].reads, 8);
		memcpy(b + off + 16, &c->src[i].bytes, 8);
	}
	memcpy(b + off, &c->heap, 8);
	return off + 8;
}

int ft_costrec_decode(const uint8_t *b, size_t len, struct ft_cost *out)
{
	uint32_t nr, per;
	size_t i, off = 8;

	memset(out, 0, sizeof(*out));
	if (len < 8)
		return -EINVAL;
	memcpy(&nr, b, 4);
	memcpy(&per, b + 4, 4);
	/* bounded before it sizes anything: a hostile file cannot make this wrap */
	if (per < 3 || per > 64 || nr > 1024 || len != 8 + (size_t)nr * per * 8 + 8)
		return -EINVAL;
	for (i = 0; i < nr; i++, off += (size_t)per * 8) {
		if (i >= FT_COST_NR)
			continue;
		memcpy(&out->src[i].opens, b + off, 8);
		memcpy(&out->src[i].reads, b + off + 8, 8);
		memcpy(&out->src[i].bytes, b + off + 16, 8);
	}
	memcpy(&out->heap, b + off, 8);
	return 0;
}

void ft_costrec_push(struct ft_cost_seen *s, const struct ft_cost *c, uint64_t t_ns)
{
	s->prev = s->now;
	s->prev_t_ns = s->t_ns;
	s->now = *c;
	s->t_ns = t_ns;
	s->known = true;
	s->ticks++;
}

bool ft_costrec_tick(const struct ft_cost_seen *s, struct ft_cost *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	if (s->ticks < 2)
		return false;
	for (i = 0; i < FT_COST_NR; i++) {
		const struct ft_cost_counts *a = &s->prev.src[i], *b = &s->now.src[i];

		if (b->opens < a->opens || b->reads < a->reads || b->bytes < a->bytes)
			return false;
		out->src[i].opens = b->opens - a->opens;
		out->src[i].reads = b->reads - a->reads;
		out->src[i].bytes = b->bytes - a->bytes;
	}
	out->heap = s->now.heap;
	return true;
}
