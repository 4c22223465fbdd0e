/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An experiment's state on a root (var/lib/fragtop under it): the lock
 * held while one runs, and the restore record that puts its knob back
 * after a SIGKILL or a power loss.  Every file of it is opened beneath
 * the root (base/beneath.h: never through a link nor out of the root),
 * and trusted only as a regular file owned by root (or the user, in a
 * tree of their own) that no one else can read or write (0600, the
 * directory 0700): a user's tree whose var is a link to the host's /var,
 * a FIFO or another user's file is refused with a clear message, never
 * written, read or waited on.
 *
 * The record says the root it belongs to, the knob (a setting, never a
 * trigger), the original value, the values tried, the value the
 * experiment left and the one before it.  It is written (synced, then
 * renamed) before each of the experiment's writes of the knob, so the
 * knob holds one of those two whenever the experiment is killed.  It is
 * applied only while the knob still holds one of them: a later change by
 * someone else is not undone (`--restore --force` does it).
 *
 * Every other writer asks ft_ctl_exp_busy() before it writes a knob, so
 * a person's `fragtop set` or a TUI key during a block is refused with
 * the reason instead of being overwritten (or spoiling the block).
 */
#ifndef FT_CONTROLS_EXPSTATE_H
#define FT_CONTROLS_EXPSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/knob.h"

#define FT_EXP_STATE_DIR	"var/lib/fragtop"
#define FT_EXP_LOCK		"experiment.lock"
#define FT_EXP_RECORD		"experiment.restore"

struct ft_exp_record {
	char root[4096];		/* the root it belongs to, resolved */
	char knob[64];
	char original[FT_KNOB_TEXT];
	char values[512];		/* the values tried, "A,B,..." */
	char left[FT_KNOB_TEXT];	/* the value the experiment wrote last (or is writing) */
	char before[FT_KNOB_TEXT];	/* the one before it */
	int pid;
	long long started;		/* time(2) */
};

/*
 * The state directory under @rootfd, made (var 0755, var/lib 0755,
 * var/lib/fragtop 0700) when @create: a directory fd, or -errno (-ENOENT
 * none and not @create; -ELOOP a link on the way; -EPERM not root's or
 * the user's, or open to others).
 */
int ft_ctl_exp_dir(int rootfd, bool create);

/*
 * The lock in @dir: its fd (keep it open while the experiment runs), -EBUSY another holds it, or
 * -errno.
 */
int ft_ctl_exp_lock(int dir);

/* Does an experiment hold @dir's lock now?  Its pid in *@pid (0: unknown). */
bool ft_ctl_exp_running(int dir, int *pid);

/* Write @r into @dir (a new file, synced, renamed over the old).  0 or -errno. */
int ft_ctl_exp_record_write(int dir, const struct ft_exp_record *r);

/*
 * Read @dir's record into @r: 0, -ENOENT (none), or another -errno with
 * @why saying what is wrong (a link, a FIFO, another owner, a mode open to
 * others, a knob that is a trigger or unknown, a malformed record).
 */
int ft_ctl_exp_record_read(int dir, struct ft_exp_record *r, char *why, size_t sz);

int ft_ctl_exp_record_remove(int dir);

/*
 * Is @knob under an experiment that runs now on @rootfd's root?  1 (its
 * pid in *@pid, 0 when unknown), or 0: no lock held, or another knob.
 */
int ft_ctl_exp_busy(int rootfd, const char *knob, int *pid);

#endif
