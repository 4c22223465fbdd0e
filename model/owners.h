/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page_owner store: the newest look at each block (OWNER inputs),
 * oldest first, their texts in one buffer; past FT_OWNERS_LOOKS looks or
 * FT_OWNERS_TEXT bytes the oldest half is dropped.  And the last
 * page_owner_stacks/show_stacks text.  Texts are untrusted: parsed when
 * read (kernel/pageowner.h).
 *
 * Pure; owns its arrays (a checkpoint writes them as arrays).
 */
#ifndef FT_MODEL_OWNERS_H
#define FT_MODEL_OWNERS_H

#include <stddef.h>
#include <stdint.h>

#define FT_OWNERS_LOOKS	1024		/* page_owner looks kept (blocks) */
#define FT_OWNERS_TEXT	(2u << 20)	/* their text, bytes at most */

/* One block's page_owner, as an OWNER input gave it. */
struct ft_owner_look {
	uint64_t pfn, t_ns;
	uint32_t pages, entries, cut, text_len;
	uint64_t other_pages;
	uint64_t text_off;		/* into text */
};

struct ft_owners {
	struct ft_owner_look *looks;
	size_t nr, cap;
	char *text;
	size_t text_len, text_cap;
	/* the last show_stacks text, NUL-ended; stacks_len counts the NUL (0: none) */
	char *stacks;
	size_t stacks_len, stacks_cap;
};

/*
 * Keep @look (its pfn, pages, entries, other_pages, cut and t_ns) with its
 * text @text of @len bytes, in place of the block's look before.  0, or
 * -ENOMEM (nothing kept).
 */
int ft_owners_add(struct ft_owners *o, const struct ft_owner_look *look, const char *text,
		  size_t len);

/* The show_stacks text (@len bytes), in place of the last.  0, or -ENOMEM. */
int ft_owners_set_stacks(struct ft_owners *o, const char *text, size_t len);

/* The newest look at the block starting at PFN @pfn, or NULL. */
const struct ft_owner_look *ft_owners_find(const struct ft_owners *o, uint64_t pfn);

/* A look's text, NUL-ended. */
static inline const char *ft_owners_text(const struct ft_owners *o, const struct ft_owner_look *l)
{
	return o->text + l->text_off;
}

void ft_owners_release(struct ft_owners *o);

#endif
