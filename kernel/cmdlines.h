/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracer's saved_cmdlines (tracefs, top level): "PID COMM" a line, the
 * command each task had when it last switched out after recording an
 * event in any trace buffer, our instance's included (the kernel keeps
 * them while the top-level record-cmd option is on, its default).  So a
 * task that made a fallback and exited before its /proc entry was read
 * still has a name there.  Pure: text in, a table sorted by pid out.
 *
 * Ownership: struct ft_cmdlines owns v; ft_cmdlines_release() frees it.
 */
#ifndef FT_KERNEL_CMDLINES_H
#define FT_KERNEL_CMDLINES_H

#include <stddef.h>

#define FT_CMDLINE_LEN	32		/* a command kept, with its NUL (NAME inputs hold 31) */
#define FT_CMDLINES_MAX	(1 << 16)	/* lines kept; the kernel holds at most a few thousand */

struct ft_cmdlines {
	struct ft_cmdline {
		int pid;
		unsigned int line;	/* its line in the text, from 0 */
		char comm[FT_CMDLINE_LEN];
	} *v;				/* owned, by pid, one per pid */
	size_t nr;
	size_t skipped;			/* lines that were not "PID COMM" */
};

/*
 * Parse saved_cmdlines text into @c (its old table released).  A pid
 * named twice keeps its last line (the kernel lists one per pid; a text
 * that repeats one is not the kernel's).  0, or -ENOMEM with @c empty.
 */
int ft_cmdlines_parse(const char *buf, size_t len, struct ft_cmdlines *c);
/* The command of @pid, or NULL. */
const char *ft_cmdlines_find(const struct ft_cmdlines *c, int pid);
void ft_cmdlines_release(struct ft_cmdlines *c);

#endif
