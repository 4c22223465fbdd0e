// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/vmstat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/mm.h"
#include "base/text.h"

const char *const ft_vm_names[FT_VM_NR] = {
	"compact_daemon_free_scanned",
	"compact_daemon_migrate_scanned",
	"compact_daemon_wake",
	"compact_fail",
	"compact_free_scanned",
	"compact_isolated",
	"compact_migrate_scanned",
	"compact_stall",
	"compact_success",
	"fragment_stall",
	"nr_free_pages",
	"nr_free_pages_blocks",
	"pgscan_kswapd",
	"thp_fault_alloc",
	"thp_fault_fallback",
};

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* Item @i in at[] when it is a known counter (the first of a name wins). */
static void index_item(struct ft_vmstat *vs, size_t i)
{
	const char *const *hit = bsearch(vs->items[i].name, ft_vm_names, FT_VM_NR,
					 sizeof(ft_vm_names[0]), by_name);

	if (hit && vs->at[hit - ft_vm_names] < 0)
		vs->at[hit - ft_vm_names] = (int32_t)i;
}

void ft_vmstat_index(struct ft_vmstat *vs)
{
	size_t i;

	for (i = 0; i < FT_VM_NR; i++)
		vs->at[i] = -1;
	for (i = 0; i < vs->nr; i++)
		index_item(vs, i);
}

bool ft_vmstat_value(const struct ft_vmstat *vs, enum ft_vm id, int64_t *value)
{
	int32_t i = vs->at[id];

	if (i < 0 || (size_t)i >= vs->nr)
		return false;
	*value = vs->items[i].value;
	return true;
}

int ft_vmstat_parse(const char *buf, size_t len, struct ft_vmstat *out)
{
	struct ft_cursor c;
	struct ft_span line, name, val, extra;
	int err;

	out->nr = 0;
	ft_vmstat_index(out);
	ft_cursor_init(&c, buf, len);
	while (ft_line_next(&c, &line)) {
		struct ft_vmstat_item *it;

		if (!ft_tok_next(&line, &name))
			continue;
		if (!ft_tok_next(&line, &val) || ft_tok_next(&line, &extra))
			return -EINVAL;
		err = ft_grow((void **)&out->items, &out->cap, out->nr + 1,
			      sizeof(*out->items), FT_VMSTAT_MAX);
		if (err)
			return err;
		it = &out->items[out->nr];
		if (ft_span_copy(&name, it->name, sizeof(it->name)))
			return -EINVAL;
		if (ft_span_i64(&val, &it->value)) {
			uint64_t u;

			/* e.g. 18446744073709551615 from a wrapped gauge */
			if (ft_span_u64(&val, &u))
				return -EINVAL;
			it->value = (int64_t)u;
		}
		/* no counter of a real kernel comes near; sums and differences of these then fit */
		if (it->value > FT_VMSTAT_VALUE_MAX || it->value < -FT_VMSTAT_VALUE_MAX)
			return -ERANGE;
		index_item(out, out->nr);
		out->nr++;
	}
	return out->nr ? 0 : -ENODATA;
}

void ft_vmstat_release(struct ft_vmstat *vs)
{
	free(vs->items);
	vs->items = NULL;
	vs->nr = vs->cap = 0;
}

bool ft_vmstat_get(const struct ft_vmstat *vs, const char *name, int64_t *value,
		   size_t *hint)
{
	size_t i;

	if (hint && *hint < vs->nr && !strcmp(vs->items[*hint].name, name)) {
		*value = vs->items[*hint].value;
		return true;
	}
	for (i = 0; i < vs->nr; i++) {
		if (!strcmp(vs->items[i].name, name)) {
			if (hint)
				*hint = i;
			*value = vs->items[i].value;
			return true;
		}
	}
	return false;
}
