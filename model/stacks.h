/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fragmenting fallbacks by kernel stack (--stacks), grouped for a reader:
 * each stack's frames named (kernel/ksyms.h), the allocator's and
 * tracing's own frames dropped, and the stacks whose remaining functions
 * are the same counted as one, most first.  Pure: the session's events
 * and names in, groups out.  The TUI's events view, report and compare
 * group alike with it.
 */
#ifndef FT_MODEL_STACKS_H
#define FT_MODEL_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/events.h"
#include "kernel/ksyms.h"

#define FT_STACK_KEY	384	/* the functions of a group, " < " between them (cut) */
/*
 * Functions past the allocator's that make a group: the site and its
 * callers.  Deeper frames split a site by its syscall or worker, and the
 * depth a trace keeps (FT_STACK_DEPTH) cuts stacks at different places.
 */
#define FT_STACK_GROUP_FRAMES	6

struct ft_stack_group {
	char key[FT_STACK_KEY];		/* innermost first: "site < caller < ..." */
	uint64_t fragmenting;		/* its fragmenting fallbacks */
	uint64_t change_ownership;
	int rows;			/* stacks (by address) in it */
	int frames;			/* functions in key */
};

/*
 * The counts per stack row at a point (a report window's first tick):
 * [i] row i's fragmenting fallbacks, [FT_EV_STACKS] stack_other's.
 */
struct ft_stack_base {
	uint64_t frag[FT_EV_STACKS + 1];
	uint64_t own[FT_EV_STACKS + 1];
	uint64_t fragmenting;		/* every fragmenting fallback, with a stack or not */
};

void ft_stack_base_take(struct ft_stack_base *b, const struct ft_events *ev);

/*
 * The groups of @ev's stacks between @from and @to (counts taken at two
 * points; NULL: the start, and @ev as it is now), most fragmenting first
 * (ties: key order), into @out (at most @max; groups with none in between
 * are left out).  *@unstacked: the fragmenting fallbacks in between
 * without a stack (over the budget, or stacks not on), *@other: those of
 * stacks past the table (FT_EV_STACKS).  The groups, *@other and
 * *@unstacked add up to the fragmenting fallbacks in between.  Returns
 * the number of groups (all of them, even past @max).
 */
size_t ft_stack_groups(const struct ft_events *ev, const struct ft_stack_base *from,
		       const struct ft_stack_base *to, const struct ft_symnames *syms,
		       struct ft_stack_group *out, size_t max, uint64_t *other,
		       uint64_t *unstacked);

/* The first @n functions of a group's key ("a < b < c") into @buf. */
const char *ft_stack_head(const struct ft_stack_group *g, int n, char *buf, size_t sz);

#endif
