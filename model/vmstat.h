/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/vmstat: "name value" lines.  Names come and go between kernel
 * versions, so every line is kept by name, known or not.
 */
#ifndef FT_MODEL_VMSTAT_H
#define FT_MODEL_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_VMSTAT_NAME_LEN	64
#define FT_VMSTAT_MAX		4096

struct ft_vmstat_item {
	char name[FT_VMSTAT_NAME_LEN];
	/* Counters are unsigned in the kernel; a few gauges print negative. */
	int64_t value;
};

struct ft_vmstat {
	struct ft_vmstat_item *items;	/* owned; file order */
	size_t nr, cap;
};

/* 0, -EINVAL, -ENODATA, -E2BIG, -ENOMEM. */
int ft_vmstat_parse(const char *buf, size_t len, struct ft_vmstat *out);
void ft_vmstat_release(struct ft_vmstat *vs);

/*
 * Value of @name; false if this kernel has no such counter.  @hint, if
 * not NULL, caches the position between calls (vmstat keeps its order).
 */
bool ft_vmstat_get(const struct ft_vmstat *vs, const char *name, int64_t *value,
		   size_t *hint);

#endif
