/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pid -> command name through libproc2, with a small cache: the names of
 * processes that caused fallbacks are looked up every tick for the few
 * pids on screen.  A pid that has exited keeps its last known name.
 */
#ifndef FT_COLLECTORS_PROCNAME_H
#define FT_COLLECTORS_PROCNAME_H

#include <stddef.h>

struct pids_info;

#define FT_PROCNAME_CACHE 256

struct ft_procname {
	struct pids_info *info;		/* owned; NULL if libproc2 failed */
	struct {
		int pid;
		char comm[32];
	} cache[FT_PROCNAME_CACHE];
};

int ft_procname_init(struct ft_procname *pn);
void ft_procname_release(struct ft_procname *pn);
/* The command of @pid, "?" if unknown; the string lives in @pn. */
const char *ft_procname_get(struct ft_procname *pn, int pid);
/* @pid has exited: a later process with its number is looked up afresh. */
void ft_procname_forget(struct ft_procname *pn, int pid);

#endif
