// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/ksyms.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

static int add_name(struct ft_kallsyms *k, const char *s, size_t n, const char *mod, size_t mn,
		    uint32_t *off)
{
	size_t need = n + (mn ? mn + 3 : 0) + 1;

	if (k->names_len + need > UINT32_MAX)
		return -ENOMEM;
	if (ft_grow((void **)&k->names, &k->names_cap, k->names_len + need, 1, UINT32_MAX))
		return -ENOMEM;
	*off = (uint32_t)k->names_len;
	memcpy(k->names + k->names_len, s, n);
	k->names_len += n;
	if (mn) {
		k->names[k->names_len++] = ' ';
		k->names[k->names_len++] = '[';
		memcpy(k->names + k->names_len, mod, mn);
		k->names_len += mn;
		k->names[k->names_len++] = ']';
	}
	k->names[k->names_len++] = '\0';
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct ft_kallsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;	/* the first listed wins */
}

/* One line (without its newline): 0, 1 not a text symbol, or -ENOMEM. */
static int parse_line(struct ft_kallsyms *k, const char *p, const char *end, bool *zero)
{
	const char *name, *ne, *mod = NULL, *me = NULL;
	uint64_t addr = 0;
	int digits = 0;
	char type;

	for (; p < end && digits < 17; p++, digits++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (v < 0)
			break;
		addr = addr << 4 | (uint64_t)v;
	}
	if (!digits || digits > 16 || end - p < 4 || p[0] != ' ' || p[2] != ' ')
		return 1;
	type = p[1];
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 1;
	name = p + 3;
	for (ne = name; ne < end && *ne != '\t' && *ne != ' '; ne++)
		;
	if (ne == name)
		return 1;
	if (ne < end && *ne == '\t' && ne + 1 < end && ne[1] == '[') {
		mod = ne + 2;
		me = memchr(mod, ']', (size_t)(end - mod));
		if (!me)
			mod = NULL;
	}
	if (!addr) {
		*zero = true;
		return 1;
	}
	if (ft_grow((void **)&k->syms, &k->cap, k->nr + 1, sizeof(*k->syms), UINT32_MAX))
		return -ENOMEM;
	k->syms[k->nr].addr = addr;
	if (add_name(k, name, (size_t)(ne - name), mod, mod ? (size_t)(me - mod) : 0,
		     &k->syms[k->nr].name))
		return -ENOMEM;
	k->nr++;
	return 0;
}

int ft_kallsyms_parse(const char *text, size_t len, struct ft_kallsyms *k)
{
	const char *p = text, *end = text + len;
	bool zero = false;

	memset(k, 0, sizeof(*k));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		int r = parse_line(k, p, le, &zero);

		if (r < 0) {
			ft_kallsyms_release(k);
			return r;
		}
		if (r)
			k->skipped++;
		p = nl ? nl + 1 : end;
	}
	if (!k->nr) {
		k->hidden = zero;
		return -ENOENT;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), by_addr);
	return 0;
}

void ft_kallsyms_release(struct ft_kallsyms *k)
{
	free(k->syms);
	free(k->names);
	k->syms = NULL;
	k->names = NULL;
	k->nr = k->cap = k->names_len = k->names_cap = 0;
}

size_t ft_kallsyms_name(const struct ft_kallsyms *k, uint64_t addr, char *buf, size_t sz)
{
	size_t lo = 0, hi = k->nr;
	const struct ft_kallsym *s;
	const char *name, *mod;
	int n;

	if (!sz)
		return 0;
	buf[0] = '\0';
	if (!k->nr || addr < k->syms[0].addr)
		return 0;
	while (hi - lo > 1) {		/* the last symbol at or before addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	s = &k->syms[lo];
	name = k->names + s->name;
	mod = strchr(name, ' ');
	if (mod)
		n = snprintf(buf, sz, "%.*s+0x%llx%s", (int)(mod - name), name,
			     (unsigned long long)(addr - s->addr), mod);
	else
		n = snprintf(buf, sz, "%s+0x%llx", name, (unsigned long long)(addr - s->addr));
	return n < 0 ? 0 : (size_t)n >= sz ? sz - 1 : (size_t)n;
}

/* What kallsyms names are made of: identifiers, '.', '$' and the "+0x.. [mod]" we add. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$' || c == '+' || c == '/' || c == ' ' ||
	       c == '[' || c == ']' || c == '-';
}

/* The index of the first name at or past @addr. */
static size_t first_at(const struct ft_symnames *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ft_symnames_add(struct ft_symnames *t, uint64_t addr, const char *name, size_t len)
{
	size_t lo, i;
	struct ft_symname *e;

	if (len >= FT_SYMNAME_LEN)
		len = FT_SYMNAME_LEN - 1;
	for (i = 0; i < len && name[i]; i++)
		if (!name_char(name[i]))
			break;
	if (!len || i < len) {
		t->refused++;
		return -EINVAL;
	}
	lo = first_at(t, addr);
	if (lo < t->nr && t->v[lo].addr == addr) {
		e = &t->v[lo];
	} else {
		if (t->nr >= FT_SYMNAMES_MAX) {
			t->refused++;
			return -ENOSPC;
		}
		if (ft_grow((void **)&t->v, &t->cap, t->nr + 1, sizeof(*t->v), FT_SYMNAMES_MAX))
			return -ENOMEM;
		memmove(&t->v[lo + 1], &t->v[lo], (t->nr - lo) * sizeof(*t->v));
		t->nr++;
		e = &t->v[lo];
		e->addr = addr;
	}
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	return 0;
}

const char *ft_symnames_get(const struct ft_symnames *t, uint64_t addr)
{
	size_t lo = first_at(t, addr);

	return lo < t->nr && t->v[lo].addr == addr ? t->v[lo].name : NULL;
}

void ft_symnames_release(struct ft_symnames *t)
{
	free(t->v);
	t->v = NULL;
	t->nr = t->cap = 0;
}

const char *ft_sym_function(const char *name, char *buf, size_t sz)
{
	size_t n = strcspn(name, "+ ");

	snprintf(buf, sz, "%.*s", (int)n, name);
	return buf;
}

/* Prefixes of the allocator's and tracing's own functions (".constprop.0" and the like follow). */
static const char *const allocator_fns[] = {
	"trace_event_raw_event_", "__traceiter_", "perf_trace_", "event_triggers_",
	"__trace_", "trace_buffer_", "ftrace_",
	"get_page_from_freelist", "rmqueue", "__rmqueue", "steal_suitable_fallback",
	"try_to_claim_block", "try_to_steal_block", "unreserve_highatomic",
	"__alloc_pages", "alloc_pages", "__alloc_frozen_pages", "alloc_frozen_pages",
	"__folio_alloc", "folio_alloc", "folio_alloc_mpol", "vma_alloc_folio",
	"__get_free_pages", "get_zeroed_page", "alloc_pages_bulk", "__alloc_pages_bulk",
	"alloc_pages_exact", "__alloc_pages_slowpath", "__alloc_pages_direct",
	"post_alloc_hook", "prep_new_page", "__set_page_owner",	/* page_owner's own first frames */
};

bool ft_sym_is_allocator(const char *function)
{
	size_t i;

	for (i = 0; i < sizeof(allocator_fns) / sizeof(allocator_fns[0]); i++)
		if (!strncmp(function, allocator_fns[i], strlen(allocator_fns[i])))
			return true;
	return false;
}
