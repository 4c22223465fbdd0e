// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/suggest.h"

#include <stdint.h>
#include <string.h>

#define MAXLEN 63

size_t ft_suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[MAXLEN + 1][MAXLEN + 1];

	if (la > MAXLEN || lb > MAXLEN)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

void ft_suggest_init(struct ft_suggest *s, const char *word)
{
	*s = (struct ft_suggest){ .word = word, .dist = SIZE_MAX };
}

void ft_suggest_try(struct ft_suggest *s, const char *name)
{
	size_t d;

	if (!name || !s->word || !strcmp(name, s->word))
		return;
	d = ft_suggest_distance(s->word, name);
	if (d < s->dist) {
		s->best = name;
		s->dist = d;
		s->ties = 0;
	} else if (d == s->dist && s->best && strcmp(name, s->best)) {
		s->ties++;
	}
}

const char *ft_suggest_best(const struct ft_suggest *s)
{
	size_t len = s->word ? strlen(s->word) : 0;
	size_t max = len <= 4 ? 1 : len <= 11 ? 2 : 3;

	return s->best && s->dist <= max && !s->ties ? s->best : NULL;
}
