/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of kernel knobs fragtop knows: where each lives under the
 * root, its type, range, step, unit, default and help.  Everything that
 * reads or writes a knob goes through this table; availability is
 * detected per kernel, never assumed.  The policy around writes (audit,
 * undo, --read-only) and every read and write of the files are in
 * controls/control.h; this table and its checks are pure.
 */
#ifndef FT_MODEL_KNOB_H
#define FT_MODEL_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/sysfile.h"

enum ft_knob_type {
	FT_KNOB_INT,		/* decimal integer in [min, max] */
	FT_KNOB_SELECT,		/* "a [b] c" selector file */
	FT_KNOB_TRIGGER,	/* write-only action */
};

#define FT_KNOB_NO_DEFAULT	INT64_MIN

struct ft_knob {
	const char *name;	/* without "vm.", as typed by the user */
	const char *path;	/* relative to the root; may hold one %d (node) */
	enum ft_knob_type type;
	int64_t min, max, step;
	int64_t def;		/* FT_KNOB_NO_DEFAULT if computed at boot */
	const char *unit;
	const char *help;
	const char *since;	/* where it appeared, for "absent" messages */
	bool per_node;		/* a trigger whose value is the node to act on */
	bool drastic;		/* ask before doing it in the TUI */
};

/* Longest value text fragtop writes or shows ("defer+madvise", INT64_MIN). */
#define FT_KNOB_TEXT	32

extern const struct ft_knob ft_knobs[];
extern const size_t ft_knobs_nr;

const struct ft_knob *ft_knob_find(const char *name);

struct ft_knob_value {
	int err;		/* 0, -ENOENT when absent on this kernel, -errno */
	int64_t num;		/* FT_KNOB_INT */
	struct ft_selector sel;	/* FT_KNOB_SELECT */
	char raw[256];		/* the file as read (the recorder keeps it); raw_len 0 if unread */
	size_t raw_len;
};

/*
 * Parse @n bytes read from a non-trigger, non-per-node knob's file into
 * @v (the bytes are kept in v->raw for the recorder).  0 or -errno, also
 * in v->err.
 */
int ft_knob_parse(const struct ft_knob *k, const char *buf, size_t n, struct ft_knob_value *v);

/* The value as text: the number, the selected option; "" for triggers. */
void ft_knob_value_text(const struct ft_knob *k, const struct ft_knob_value *v,
			char *buf, size_t sz);

/*
 * Check @text for @k before anything is written.  @cur, when it holds a
 * readable selector, gives the options a SELECT knob accepts.  On success
 * @canon holds what to write ("4321", "never"; "1" for a per-node trigger,
 * whose node is in *@node, -1 otherwise).  On failure returns -EINVAL or
 * -ERANGE and @why says why in words ("'abc' is not an integer").
 */
int ft_knob_validate(const struct ft_knob *k, const char *text,
		     const struct ft_knob_value *cur, char canon[FT_KNOB_TEXT],
		     int *node, char *why, size_t why_sz);

/* "0..1000", ">= 0", "node number", or a SELECT's options from @v. */
void ft_knob_range_text(const struct ft_knob *k, const struct ft_knob_value *v,
			char *buf, size_t sz);

/* A multi-size THP setting (hugepages-<size>kB/enabled or shmem_enabled): one of 17 on 6.18. */
bool ft_knob_per_size(const struct ft_knob *k);

/* Path of @k under the root, with @node filled in for per-node knobs. */
void ft_knob_path(const struct ft_knob *k, int node, char *buf, size_t sz);

/*
 * What an -errno from opening, writing or reading a knob means for an
 * operator ("absent on this kernel (6.15+)", "permission denied: needs
 * root", "the kernel rejected the value").
 */
const char *ft_knob_strerror(const struct ft_knob *k, int err, char *buf, size_t sz);

#endif
