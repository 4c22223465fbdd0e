/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef FT_CMD_KEYS_H
#define FT_CMD_KEYS_H

#include <stdbool.h>
#include <stdio.h>

/* Every key table: the man page's KEYS (@roff) or the README's tables (Markdown). */
void ft_keys_write(FILE *f, bool roff);

#endif
