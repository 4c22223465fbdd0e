// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/pageowner.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/ksyms.h"
#include "base/text.h"

/* @s starts with @lit: @s moved past it. */
static bool eat(struct ft_span *s, const char *lit)
{
	size_t n = strlen(lit);

	if (s->len < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	s->len -= n;
	return true;
}

/* An unsigned number, decimal or 0x-hex (6.12's PFN), up to @max: @s moved past it. */
static bool eat_num(struct ft_span *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	unsigned int base = 10;

	if (s->len > 2 && s->p[0] == '0' && (s->p[1] == 'x' || s->p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= s->len)
		return false;
	for (; i < s->len; i++) {
		char c = s->p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			break;
		if (v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	if (i == (base == 16 ? 2u : 0u))
		return false;
	s->p += i;
	s->len -= i;
	*out = v;
	return true;
}

static bool eat_int(struct ft_span *s, int *out)
{
	uint64_t v;
	bool neg = eat(s, "-");

	if (!eat_num(s, INT32_MAX, &v))
		return false;
	*out = neg ? -(int)v : (int)v;
	return true;
}

/* Up to @stop (not included) into @dst, cut to fit; @s moved to @stop. */
static bool eat_until(struct ft_span *s, char stop, char *dst, size_t sz)
{
	const char *q = memchr(s->p, stop, s->len);
	size_t n;

	if (!q)
		return false;
	n = (size_t)(q - s->p);
	memset(dst, 0, sz);
	memcpy(dst, s->p, n < sz ? n : sz - 1);
	s->p = q;
	s->len -= n;
	return true;
}

/* @needle's last place in @s, or NULL. */
static const char *last_of(const struct ft_span *s, const char *needle)
{
	size_t n = strlen(needle), i;

	if (s->len < n)
		return NULL;
	for (i = s->len - n + 1; i-- > 0;)
		if (!memcmp(s->p + i, needle, n))
			return s->p + i;
	return NULL;
}

/*
 * "Page allocated via order O, mask 0xM(NAMES), pid P, tgid T (COMM), ts N ns[, free_ts N ns]".
 * COMM may hold anything a task names itself, ") ts" too: it ends at the last "), ts ".
 */
static bool head_line(struct ft_span s, struct ft_po_entry *e)
{
	uint64_t v;
	const char *end;
	struct ft_span c;

	if (!eat(&s, "Page allocated via order ") || !eat_num(&s, 64, &v))
		return false;
	e->order = (unsigned int)v;
	if (!eat(&s, ", mask ") || !eat_num(&s, UINT32_MAX, &v))
		return false;
	e->gfp = (uint32_t)v;
	if (!eat(&s, "(") || !eat_until(&s, ')', e->gfp_names, sizeof(e->gfp_names)) ||
	    !eat(&s, "), pid ") || !eat_int(&s, &e->pid) || !eat(&s, ", tgid ") ||
	    !eat_int(&s, &e->tgid) ||
	    !eat(&s, " ("))
		return false;
	end = last_of(&s, "), ts ");
	if (!end)
		return false;
	c = (struct ft_span){ s.p, (size_t)(end - s.p) };
	memset(e->comm, 0, sizeof(e->comm));
	memcpy(e->comm, c.p, c.len < sizeof(e->comm) ? c.len : sizeof(e->comm) - 1);
	s.len -= (size_t)(end - s.p);
	s.p = end;
	if (!eat(&s, "), ts ") || !eat_num(&s, UINT64_MAX, &e->ts_ns) || !eat(&s, " ns"))
		return false;
	/* 6.1: ", free_ts N ns"; nothing else may follow */
	if (eat(&s, ", free_ts ") && (!eat_num(&s, UINT64_MAX, &v) || !eat(&s, " ns")))
		return false;
	return s.len == 0;
}

/* "PFN X type MT Block B type MT Flags F" (X in hex on 6.12, decimal on 6.1). */
static bool pfn_line(struct ft_span s, struct ft_po_entry *e)
{
	if (!eat(&s, "PFN ") || !eat_num(&s, UINT64_MAX, &e->pfn) || !eat(&s, " type ") ||
	    !eat_until(&s, ' ', e->page_mt, sizeof(e->page_mt)) || !eat(&s, " Block ") ||
	    !eat_num(&s, UINT64_MAX, &e->block) || !eat(&s, " type ") ||
	    !eat_until(&s, ' ', e->block_mt, sizeof(e->block_mt)) || !eat(&s, " Flags "))
		return false;
	return e->block <= e->pfn;
}

static void add_frame(struct ft_po_entry *e, struct ft_span f)
{
	size_t i;

	for (i = 0; i < f.len; i++) {	/* FNV-1a over every frame, its newline too */
		e->stack_id ^= (uint8_t)f.p[i];
		e->stack_id *= 0x100000001b3ull;
	}
	e->stack_id ^= '\n';
	e->stack_id *= 0x100000001b3ull;
	if (e->nr_frames < FT_PO_FRAMES) {
		char *d = e->frames[e->nr_frames++];

		memcpy(d, f.p, f.len < FT_PO_FRAME_LEN ? f.len : FT_PO_FRAME_LEN - 1);
	}
	if (e->all_frames < 1 << 20)
		e->all_frames++;
}

/* Past the next blank line (or to the end). */
static void skip_entry(struct ft_cursor *c)
{
	struct ft_span line;

	while (ft_line_next(c, &line))
		if (!line.len)
			return;
}

/*
 * The first line of the entry at *@off, past blank lines, into @line with
 * @e emptied (its stack hash seeded); false at the end (*@off = @len).
 */
static bool entry_start(const char *buf, size_t len, size_t *off, struct ft_cursor *c,
			struct ft_span *line, struct ft_po_entry *e)
{
	if (*off >= len)
		return false;
	ft_cursor_init(c, buf + *off, len - *off);
	memset(e, 0, sizeof(*e));
	e->stack_id = 0xcbf29ce484222325ull;
	do {
		if (!ft_line_next(c, line)) {
			*off = len;
			return false;
		}
	} while (!line->len);
	return true;
}

/* A malformed entry, @line the last read: *@off past its end. */
static int entry_bad(const char *buf, struct ft_cursor *c, const struct ft_span *line, size_t *off)
{
	if (line->len)
		skip_entry(c);
	*off = (size_t)(c->p - buf);
	return -EINVAL;
}

int ft_po_next(const char *buf, size_t len, size_t *off, struct ft_po_entry *e)
{
	struct ft_cursor c;
	struct ft_span line;
	bool ended = false;

	if (!entry_start(buf, len, off, &c, &line, e))
		return 0;
	if (!head_line(line, e) || !ft_line_next(&c, &line) || !pfn_line(line, e))
		goto bad;
	while (ft_line_next(&c, &line)) {
		if (!line.len) {
			ended = true;
			break;
		}
		if (line.p[0] == ' ') {
			add_frame(e, ft_span_trim(line));
			continue;
		}
		if (ft_span_starts(&line, "Page has been migrated"))
			e->migrated = true;
		/* "Charged ... memcg", "Slab cache page": said of the page, not its owner */
	}
	if (!ended)
		goto bad;	/* cut: the rest of it is in the next read */
	*off = (size_t)(c.p - buf);
	return 1;
bad:
	return entry_bad(buf, &c, &line, off);
}

bool ft_po_pins(const struct ft_po_entry *e)
{
	return !strcmp(e->page_mt, "Unmovable") || !strcmp(e->page_mt, "Reclaimable");
}

size_t ft_po_group(const char *buf, size_t len, struct ft_po_group *out, size_t max,
		   struct ft_po_tally *t)
{
	struct ft_po_tally dummy;
	size_t n;

	if (!t)
		t = &dummy;
	memset(t, 0, sizeof(*t));
	n = ft_po_group_more(buf, len, out, 0, max, t);
	ft_po_group_sort(out, n);
	return n;
}

void ft_po_group_sort(struct ft_po_group *out, size_t n)
{
	size_t i;

	/* the most pages first; few groups: insertion sort */
	for (i = 1; i < n; i++) {
		size_t j = i;

		while (j && out[j - 1].pages < out[j].pages) {
			struct ft_po_group g = out[j];

			out[j] = out[j - 1];
			out[j - 1] = g;
			j--;
		}
	}
}

size_t ft_po_group_more(const char *buf, size_t len, struct ft_po_group *out, size_t n, size_t max,
			struct ft_po_tally *t)
{
	struct ft_po_entry e;
	size_t off = 0, i;
	int r;

	if (n > max)
		n = max;
	while ((r = ft_po_next(buf, len, &off, &e)) != 0) {
		uint64_t pages;

		if (r < 0) {
			t->bad++;
			continue;
		}
		t->entries++;
		if (!ft_po_pins(&e))
			continue;
		pages = e.order < 40 ? 1ull << e.order : 0;
		t->pins++;
		t->pin_pages += pages;
		for (i = 0; i < n && out[i].stack_id != e.stack_id; i++)
			;
		if (i == n) {
			if (n == max) {
				t->other++;
				t->other_pages += pages;
				continue;
			}
			out[n].stack_id = e.stack_id;
			out[n].count = 0;
			out[n].pages = 0;
			out[n].first = e;
			n++;
		}
		out[i].count++;
		out[i].pages += pages;
	}
	return n;
}

int ft_po_stack_next(const char *buf, size_t len, size_t *off, struct ft_po_entry *e,
		     uint64_t *pages)
{
	struct ft_cursor c;
	struct ft_span line;

	*pages = 0;
	if (!entry_start(buf, len, off, &c, &line, e))
		return 0;
	for (;;) {
		if (line.p[0] == ' ') {
			add_frame(e, ft_span_trim(line));
		} else {
			struct ft_span s = line;

			/* the count ends the stack; a blank line follows */
			if (!e->all_frames || !eat(&s, "nr_base_pages: ") ||
			    !eat_num(&s, UINT64_MAX, pages) || s.len)
				goto bad;
			if (!ft_line_next(&c, &line) || line.len)
				goto bad;
			*off = (size_t)(c.p - buf);
			return 1;
		}
		if (!ft_line_next(&c, &line) || !line.len)
			goto bad;	/* frames with no count, or cut */
	}
bad:
	return entry_bad(buf, &c, &line, off);
}

const char *ft_po_stack_text(const struct ft_po_entry *e, int max, char *buf, size_t sz)
{
	char fn[FT_PO_FRAME_LEN];
	size_t n = 0;
	int i, shown = 0;

	if (!sz)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < e->nr_frames && shown < max && n < sz; i++) {
		ft_sym_function(e->frames[i], fn, sizeof(fn));
		if (ft_sym_is_allocator(fn) && i < e->nr_frames - 1)
			continue;
		n += (size_t)snprintf(buf + n, sz - n, "%s%s", shown ? " < " : "", fn);
		shown++;
	}
	return buf;
}

bool ft_po_share(uint64_t pages, uint64_t total, double *pct)
{
	if (!total || total == FT_PO_PAGES_SATURATED || pages > total)
		return false;
	*pct = 100.0 * (double)pages / (double)total;
	return true;
}

size_t ft_po_stacks_top(const char *buf, size_t len, struct ft_po_stack *out, size_t max,
			uint64_t *total, size_t *nr, size_t *bad)
{
	struct ft_po_stack st;
	size_t off = 0, n = 0, i;
	int r;

	*total = 0;
	*nr = 0;
	*bad = 0;
	while ((r = ft_po_stack_next(buf, len, &off, &st.e, &st.pages)) != 0) {
		if (r < 0) {
			(*bad)++;
			continue;
		}
		(*nr)++;
		*total = st.pages > UINT64_MAX - *total ? FT_PO_PAGES_SATURATED : *total + st.pages;
		/* insert into the top @max, most pages first */
		for (i = n; i > 0 && out[i - 1].pages < st.pages; i--)
			if (i < max)
				out[i] = out[i - 1];
		if (i < max) {
			out[i] = st;
			if (n < max)
				n++;
		}
	}
	return n;
}
