/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragtoprc, the TUI's settings kept between runs as htop keeps htoprc:
 * "key=value" lines, '#' comments.  Parsing and formatting are pure
 * (bytes in, struct out; fuzzed); the TUI reads the file at start and
 * writes it on quit ($XDG_CONFIG_HOME/fragtop/fragtoprc, cmd/rc.c).
 *
 * A line that is not "key=value", a key not known, or a value out of its
 * range is an error: the line is skipped (its key keeps its default) and
 * counted, and the first is described, so a broken or hostile file gives
 * one clear message and the defaults, never a crash.
 */
#ifndef FT_TUI_RCFILE_H
#define FT_TUI_RCFILE_H

#include <stdbool.h>
#include <stddef.h>

#define FT_RC_MAX_BYTES	65536	/* a longer file is read up to here (and said) */

struct ft_rc {
	double interval;	/* seconds between ticks, [0.1, 3600]; 0: not set */
	char view[16];		/* the view to open on ("processes"); "": not set */
	char sort[16];		/* the processes view's sort column, by its header */
	int color;		/* -1: not set, 0: monochrome, 1: colour */
	char map_zone[32];	/* the map's zone ("N0 Normal"); "": not set */
	/* the processes view's columns shown after COMMAND, by header, comma-separated
	 * ("FRAG/s,FRAG,CGROUP"); "": not set (every one); "-": none */
	char columns[160];
	/* the overview's sizes of interest, [COUNTx]SIZE comma-separated ("2M,1G,512x2M");
	 * "": not set (the host's hugetlb sizes); "-": none (no line) */
	char sizes[96];
};

/* Nothing set: every key at the program's default. */
void ft_rc_init(struct ft_rc *rc);

/*
 * Parse @len bytes of @text into @rc (first ft_rc_init()).  Returns the
 * number of lines in error; @why gets the first one ("line 3: ..."),
 * made of printable ASCII only.
 */
int ft_rc_parse(const char *text, size_t len, struct ft_rc *rc, char *why, size_t sz);

/* @rc as the file's text, every set key; the length (as snprintf). */
int ft_rc_format(const struct ft_rc *rc, char *buf, size_t sz);

#endif
