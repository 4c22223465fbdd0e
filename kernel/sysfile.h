/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One-value kernel files: integer sysctls ("15000\n") and the THP
 * selector files ("always [madvise] never\n"); and the two lines of
 * /proc/meminfo fragtop shows.
 */
#ifndef FT_KERNEL_SYSFILE_H
#define FT_KERNEL_SYSFILE_H

#include <stddef.h>
#include <stdint.h>

#define FT_SEL_MAX_OPTIONS	8
#define FT_SEL_NAME_LEN		24

struct ft_selector {
	int nr_options;
	int selected;			/* index into options, -1 if none */
	char options[FT_SEL_MAX_OPTIONS][FT_SEL_NAME_LEN];
};

/* A single decimal integer, surrounding blanks allowed.  0 or -EINVAL/-ERANGE. */
int ft_sysfile_parse_int(const char *buf, size_t len, int64_t *out);

/* Options separated by blanks, exactly one in [brackets].  0 or -EINVAL/-E2BIG. */
int ft_sysfile_parse_selector(const char *buf, size_t len, struct ft_selector *out);

/*
 * The value of "@key: N kB" in a /proc/meminfo text ("MemAvailable").
 * 0, -ENOENT when no line has that key, -EINVAL when its value is not a
 * number.
 */
int ft_sysfile_meminfo(const char *buf, size_t len, const char *key, uint64_t *kb);

#endif
