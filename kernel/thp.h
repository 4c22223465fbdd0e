/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multi-size THP (6.8+, counters since 6.10): one entry per
 * /sys/kernel/mm/transparent_hugepage/hugepages-<size>kB directory, its
 * enabled and shmem_enabled settings and every counter of its stats/
 * directory, by name as the kernel lists them (none is assumed).
 *
 * The live source reads them into one THP input a tick, text of lines
 * "<kB> <name> <value>" (name "enabled", "shmem_enabled" or
 * "stats/<counter>"); ft_thp_parse() is pure and fuzzed.
 */
#ifndef FT_KERNEL_THP_H
#define FT_KERNEL_THP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_THP_SIZES	16	/* 8 kB to 2 MiB is 9 on x86-64 today */
#define FT_THP_STATS	32	/* counters a size has (6.18: 18) */
#define FT_THP_NAME	32

struct ft_thp_size {
	uint32_t kb;
	char enabled[80];	/* the file as read ("always inherit madvise [never]"); "" absent */
	char shmem[96];		/* shmem_enabled likewise */
	int nr_stats;
	char stat_name[FT_THP_STATS][FT_THP_NAME];
	uint64_t stat[FT_THP_STATS];
};

struct ft_thp {
	int nr;			/* sizes, smallest first */
	struct ft_thp_size s[FT_THP_SIZES];
};

/* Parse a THP input's text.  Malformed lines are skipped and counted; returns how many. */
int ft_thp_parse(const char *text, size_t len, struct ft_thp *t);
/* The counter @name of @z ("anon_fault_alloc"): false when this kernel has none. */
bool ft_thp_stat(const struct ft_thp_size *z, const char *name, uint64_t *v);
/*
 * Counter @name of size @kb grew by *@d from @from to @to: false when
 * either lacks it or it went back (a reboot in between).
 */
bool ft_thp_growth(const struct ft_thp *from, const struct ft_thp *to, uint32_t kb,
		   const char *name,
		   uint64_t *d);
/* The selected word of a setting ("[never]" -> "never"), "" when none is marked. */
const char *ft_thp_selected(const char *setting, char *buf, size_t sz);
/*
 * What a size's @setting means: its word, or when it is "inherit" the
 * word of the top-level setting @top (the enabled file's text, or a bare
 * word; NULL or "" when not known, and then @buf is "").  true when the
 * value was inherited.
 */
bool ft_thp_effective(const char *setting, const char *top, char *buf, size_t sz);
/* The size of @kb as a label: "64kB", "2048kB" (the kernel's directory names). */
void ft_thp_size_label(uint32_t kb, char *buf, size_t sz);
/* The entry of size @kb, or NULL. */
const struct ft_thp_size *ft_thp_find(const struct ft_thp *t, uint32_t kb);

#endif
