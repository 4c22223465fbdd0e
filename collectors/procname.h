/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pid -> command name from /proc/PID/comm under the root, with a small
 * cache: the names of processes that caused fallbacks are looked up while
 * they live.  A pid that has exited keeps its last known name.
 *
 * One small read of one file a new pid.  libproc2 did this before; its
 * pids interface read more than the name and linked libsystemd,
 * libgcrypt and libgpg-error into every fragtop (0.5 MB of RSS).
 */
#ifndef FT_COLLECTORS_PROCNAME_H
#define FT_COLLECTORS_PROCNAME_H

#include <stddef.h>

#define FT_PROCNAME_CACHE 256

struct ft_procname {
	int rootfd;			/* borrowed; -1: names are not looked up */
	struct {
		int pid;
		char comm[32];
	} cache[FT_PROCNAME_CACHE];
};

/* Names from @rootfd's proc/ (the live source's root). */
int ft_procname_init(struct ft_procname *pn, int rootfd);
void ft_procname_release(struct ft_procname *pn);
/* The command of @pid, "?" if unknown; the string lives in @pn. */
const char *ft_procname_get(struct ft_procname *pn, int pid);
/* @pid has exited: a later process with its number is looked up afresh. */
void ft_procname_forget(struct ft_procname *pn, int pid);

#endif
