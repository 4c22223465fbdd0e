// SPDX-License-Identifier: GPL-2.0-or-later
/* Facts about the watched host (kernel/hostfacts.h). */
#include "kernel/hostfacts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

void ft_hostfacts_init(struct ft_host_facts *h)
{
	memset(h, 0, sizeof(*h));
	h->pmd_order = -1;
	h->pageblock_order = -1;
	h->page_size = 4096;
}

const char *ft_hostfacts_get(const struct ft_host_facts *h, const char *key, char *buf, size_t sz)
{
	ft_text_kv(h->text, strlen(h->text), key, buf, sz);
	return buf;
}

/* A HOST list of sizes in kB ("2048,1048576"), ascending, into @kb: how many (at most @max). */
static unsigned int kb_list(const char *p, uint64_t *kb, unsigned int max)
{
	unsigned int n = 0;

	while (*p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);

		if (end == p || (*end && *end != ',') || !v || v >= 1ull << 40)
			break;
		if (n < max && (!n || v > kb[n - 1]))
			kb[n++] = v;
		p = *end ? end + 1 : end;
	}
	return n;
}

void ft_hostfacts_parse(struct ft_host_facts *h, const char *text, size_t len)
{
	char v[256];
	long ps;
	int order;

	snprintf(h->text, sizeof(h->text), "%.*s",
		 (int)(len < sizeof(h->text) ? len : sizeof(h->text) - 1), text);
	snprintf(h->hostname, sizeof(h->hostname), "%.127s",
		 ft_hostfacts_get(h, "hostname", v, sizeof(v)));
	snprintf(h->release, sizeof(h->release), "%.127s",
		 ft_hostfacts_get(h, "release", v, sizeof(v)));
	ps = atol(ft_hostfacts_get(h, "page_size", v, sizeof(v)));
	if (ps >= 512 && ps <= (1l << 24) && !(ps & (ps - 1)))
		h->page_size = ps;
	ft_hostfacts_get(h, "pmd_order", v, sizeof(v));
	h->pmd_order = v[0] ? atoi(v) : -1;
	if (h->pmd_order < -1 || h->pmd_order > 20)
		h->pmd_order = -1;
	h->nr_huge = kb_list(ft_hostfacts_get(h, "hugepage_kb", v, sizeof(v)), h->huge_kb, 8);
	h->nr_mthp = kb_list(ft_hostfacts_get(h, "mthp_kb", v, sizeof(v)), h->mthp_kb, 16);
	ft_hostfacts_get(h, "pageblock_order", v, sizeof(v));
	order = v[0] ? atoi(v) : -1;
	if (order < 0 || order > 20)
		order = h->pmd_order;
	h->pageblock_order = order;
}
