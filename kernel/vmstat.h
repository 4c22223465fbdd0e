/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/vmstat: "name value" lines.  Names come and go between kernel
 * versions, so every line is kept by name, known or not.
 */
#ifndef FT_KERNEL_VMSTAT_H
#define FT_KERNEL_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_VMSTAT_NAME_LEN	64
#define FT_VMSTAT_MAX		4096
/*
 * A value past 2^56 either way (a century of a billion events a second)
 * is made up: the file is refused (-ERANGE).  Within it, a sum of
 * FT_VMSTAT_MAX values and the difference of two such sums fit 64 bits.
 */
#define FT_VMSTAT_VALUE_MAX	(INT64_C(1) << 56)

struct ft_vmstat_item {
	char name[FT_VMSTAT_NAME_LEN];
	/* Counters are unsigned in the kernel; a few gauges print negative. */
	int64_t value;
};

/*
 * The counters fragtop reads by name, each found once, when the text is
 * parsed (ft_vm_names[] is in this order: sorted, for the lookup).
 */
enum ft_vm {
	FT_VM_COMPACT_DAEMON_FREE_SCANNED,
	FT_VM_COMPACT_DAEMON_MIGRATE_SCANNED,
	FT_VM_COMPACT_DAEMON_WAKE,
	FT_VM_COMPACT_FAIL,
	FT_VM_COMPACT_FREE_SCANNED,
	FT_VM_COMPACT_ISOLATED,
	FT_VM_COMPACT_MIGRATE_SCANNED,
	FT_VM_COMPACT_STALL,
	FT_VM_COMPACT_SUCCESS,
	FT_VM_FRAGMENT_STALL,
	FT_VM_NR_FREE_PAGES,
	FT_VM_NR_FREE_PAGES_BLOCKS,
	FT_VM_PGSCAN_KSWAPD,
	FT_VM_THP_FAULT_ALLOC,
	FT_VM_THP_FAULT_FALLBACK,
	FT_VM_NR
};

extern const char *const ft_vm_names[FT_VM_NR];

struct ft_vmstat {
	struct ft_vmstat_item *items;	/* owned; file order */
	size_t nr, cap;
	int32_t at[FT_VM_NR];		/* each known counter's index in items, -1: absent */
};

/* 0, -EINVAL, -ENODATA, -E2BIG, -ENOMEM.  The known counters are indexed (at[]) as they come. */
int ft_vmstat_parse(const char *buf, size_t len, struct ft_vmstat *out);
/* at[] again from items (a restored checkpoint's). */
void ft_vmstat_index(struct ft_vmstat *vs);
/* Known counter @id's value; false if this kernel has no such counter.  O(1). */
bool ft_vmstat_value(const struct ft_vmstat *vs, enum ft_vm id, int64_t *value);
void ft_vmstat_release(struct ft_vmstat *vs);

/*
 * Value of @name (one not among enum ft_vm: pgalloc_<zone>); false if
 * this kernel has no such counter.  @hint, if not NULL, caches the
 * position between calls (vmstat keeps its order).
 */
bool ft_vmstat_get(const struct ft_vmstat *vs, const char *name, int64_t *value,
		   size_t *hint);

#endif
