/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an experiment running on a root holds (its state: var/lib/fragtop
 * under the root, cmd/experiment.c): the lock while it runs and the
 * restore record naming its knob.  Every other writer asks here before
 * it writes a knob, so a person's `fragtop set` or a TUI key during a
 * block is refused with the reason instead of being overwritten (or
 * spoiling the block).
 */
#ifndef FT_CONTROLS_EXPSTATE_H
#define FT_CONTROLS_EXPSTATE_H

#define FT_EXP_STATE_DIR	"var/lib/fragtop"
#define FT_EXP_LOCK		"experiment.lock"
#define FT_EXP_RECORD		"experiment.restore"

/*
 * Is @knob under an experiment that runs now on @rootfd's root?  1 (its
 * pid in *@pid, 0 when unknown), or 0: no lock held, or another knob.
 */
int ft_ctl_exp_busy(int rootfd, const char *knob, int *pid);

#endif
