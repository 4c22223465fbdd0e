/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "Did you mean": the closest of some names to a word that is none of
 * them, as git's help.c offers for a mistyped command.  Closeness is the
 * optimal string alignment distance (an insertion, a deletion, a
 * substitution or two neighbours swapped each cost 1): "snapshto" is 1
 * from "snapshot".  A name is offered only when it is close for the
 * word's length (1 up to 4 characters, 2 up to 11, 3 beyond), and only
 * when it is the one closest name.
 */
#ifndef FT_BASE_SUGGEST_H
#define FT_BASE_SUGGEST_H

#include <stddef.h>

struct ft_suggest {
	const char *word;
	const char *best;	/* the closest so far */
	size_t dist;		/* its distance */
	int ties;		/* other names as close */
};

void ft_suggest_init(struct ft_suggest *s, const char *word);
/* One more name to weigh (NULL is ignored). */
void ft_suggest_try(struct ft_suggest *s, const char *name);
/* The name to offer, or NULL: none close enough, or two as close. */
const char *ft_suggest_best(const struct ft_suggest *s);

/* The OSA distance of @a and @b, or SIZE_MAX past 63 characters either. */
size_t ft_suggest_distance(const char *a, const char *b);

#endif
