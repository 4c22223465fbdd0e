/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of kernel knobs fragtop knows: where each lives under the
 * root, its type, range, step, unit, default and help.  Everything that
 * reads or (later) writes a knob goes through this table; availability is
 * detected per kernel, never assumed.
 */
#ifndef FT_CONTROLS_KNOBS_H
#define FT_CONTROLS_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sysfile.h"

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
	bool per_node;
};

extern const struct ft_knob ft_knobs[];
extern const size_t ft_knobs_nr;

const struct ft_knob *ft_knob_find(const char *name);

struct ft_knob_value {
	int err;		/* 0, -ENOENT when absent on this kernel, -errno */
	int64_t num;		/* FT_KNOB_INT */
	struct ft_selector sel;	/* FT_KNOB_SELECT */
};

/* Read a non-trigger, non-per-node knob under @rootfd. */
int ft_knob_read(int rootfd, const struct ft_knob *k, struct ft_knob_value *v);

#endif
