// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's pageblock map (model/session_int.h): laid out from
 * zoneinfo at each tick, fed by KPF inputs (those before the first tick
 * held for it), /proc/iomem's RAM ranges, and the gigantic regions read
 * from it.
 */
#include "model/session_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

void ft_session_map_layout(struct ft_session *s)
{
	if (!ft_sample_has(&s->sample, FT_SRC_ZONEINFO) || s->sample.pageblock_order < 0)
		return;
	uint64_t blocks = 0;

	/* keeps the old layout on -ENOMEM or an absurd span, which is said (report's head) */
	if (ft_pbmap_layout(&s->map, &s->sample.zoneinfo, s->sample.pageblock_order,
			    &blocks) == -E2BIG &&
	    blocks > s->map_refused)
		s->map_refused = blocks;
}

void ft_session_map_iomem(struct ft_session *s, const struct ft_rec_record *in)
{
	if (ft_iomem_parse((const char *)in->data, in->len, s->host.page_size, &s->map.ram))
		memset(&s->map.ram, 0, sizeof(s->map.ram));
	s->have_iomem = true;
}

/* What a held map input starts with; its data follows. */
struct held {
	uint64_t len, t_ns;
	uint16_t type, sub;
	uint32_t pad;
};

/* A copy of map input @in until the first tick lays the zones out. */
static void hold_kpf(struct ft_session *s, const struct ft_rec_record *in)
{
	struct held h = { .len = in->len, .t_ns = in->t_ns, .type = in->type, .sub = in->sub };
	size_t need = sizeof(h) + in->len;

	if (s->kpf_early_len + need > FT_SESSION_KPF_EARLY) {
		ft_session_bad(s, in, "map batch before the first tick: past what is held");
		return;
	}
	if (ft_grow_from((void **)&s->kpf_early, &s->kpf_early_cap, s->kpf_early_len + need, 1,
			 1u << 16,
			 FT_SESSION_KPF_EARLY)) {
		ft_session_bad(s, in, "map batch before the first tick: out of memory");
		return;
	}
	memcpy(s->kpf_early + s->kpf_early_len, &h, sizeof(h));
	memcpy(s->kpf_early + s->kpf_early_len + sizeof(h), in->data, in->len);
	s->kpf_early_len += need;
}

/* The map input held for the first tick, now that it laid the zones out (or could not). */
static void release_kpf(struct ft_session *s)
{
	uint8_t *buf = s->kpf_early;
	size_t off = 0, len = s->kpf_early_len;

	/* taken off first: without a layout yet they are held again, for the next tick */
	s->kpf_early = NULL;
	s->kpf_early_len = 0;
	s->kpf_early_cap = 0;
	while (off + sizeof(struct held) <= len) {
		struct held h;
		struct ft_rec_record in;

		memcpy(&h, buf + off, sizeof(h));
		in = (struct ft_rec_record){ .type = h.type, .sub = h.sub, .len = (uint32_t)h.len,
					     .t_ns = h.t_ns,
					     .data = buf + off + sizeof(h) };
		ft_session_map_kpf(s, &in);
		off += sizeof(h) + h.len;
	}
	free(buf);
}

/* u64 first PFN, then kpageflags words, then kpagecount words; whole blocks of zone @sub. */
void ft_session_map_kpf(struct ft_session *s, const struct ft_rec_record *in)
{
	uint64_t pfn, words, per, block;
	size_t z = in->sub & ~(unsigned int)(FT_KPF_RESCAN | FT_KPF_SAMPLE);
	bool sample = in->sub & FT_KPF_SAMPLE;
	const uint64_t *w;
	uint64_t *copy = NULL;

	ft_session_map_layout(s);
	if (in->len < 8 || (in->len - 8) % 16) {
		ft_session_bad(s, in, "map batch: not a PFN and whole words");
		return;
	}
	if (s->map.order < 0 && !s->ticks) {	/* before the first tick: for it */
		hold_kpf(s, in);
		return;
	}
	if (s->map.order < 0) {
		ft_session_bad(s, in, "map batch: the zones have no layout");
		return;
	}
	memcpy(&pfn, in->data, 8);
	words = (in->len - 8) / 16;
	per = 1ull << s->map.order;
	if (z >= s->map.nr || pfn % per || (!sample && words % per) || (sample && words > per)) {
		ft_session_bad(s, in, "map batch: zone, PFN or length not the layout's");
		return;
	}
	block = pfn >> s->map.order;
	if (block < s->map.zones[z].first_block ||
	    block + (sample ? 1 : words / per) > s->map.zones[z].first_block +
		    s->map.zones[z].nr_blocks) {
		ft_session_bad(s, in, "map batch: blocks outside the zone");
		return;
	}
	/*
	 * The words as they are when aligned (the live source's are: a
	 * 512 kB copy a batch took fresh pages each time), else a copy
	 * (a recording's chunk puts them anywhere).
	 */
	if ((uintptr_t)(in->data + 8) % _Alignof(uint64_t)) {
		copy = malloc(words * 16);
		if (!copy)
			return;
		memcpy(copy, in->data + 8, words * 16);
		w = copy;
	} else {
		w = (const uint64_t *)(const void *)(in->data + 8);
	}
	if (sample) {
		if (!ft_pbmap_sample(&s->map, z, (uint32_t)(block - s->map.zones[z].first_block),
				     words, w,
				     w + words))
			ft_session_bad(s, in, "map sample: not understood");
	} else {
		ft_pbmap_feed(&s->map, z, (uint32_t)(block - s->map.zones[z].first_block),
			      (uint32_t)(words / per), w, w + words, in->sub & FT_KPF_RESCAN);
	}
	free(copy);
	s->map_err = 0;
}

int ft_session_contig_order(const struct ft_session *s)
{
	return ft_contig_order(s->host.page_size, s->host.huge_kb, s->host.nr_huge, s->map.order);
}

uint32_t ft_session_contig(const struct ft_session *s, size_t k, struct ft_contig_zone *c,
			   struct ft_contig_region *out, size_t cap)
{
	const struct ft_pbmap_zone *z = &s->map.zones[k];
	uint64_t kfree = UINT64_MAX;
	size_t i;

	for (i = 0; i < s->sample.zoneinfo.nr; i++) {
		const struct ft_zi_zone *zi = &s->sample.zoneinfo.zones[i];

		if (zi->node == z->node && !strcmp(zi->name, z->name) && zi->has & FT_ZI_FREE)
			kfree = zi->free;
	}
	return ft_contig_zone(&s->map, z, ft_session_contig_order(s), kfree, c, out, cap);
}
void ft_session_map_tick(struct ft_session *s)
{
	ft_session_map_layout(s);
	if (s->kpf_early_len)
		release_kpf(s);	/* the map input that came before the first tick */
}
