/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The change journal's writer (the format: model/journal.h): a line
 * appended before every knob write on a root, by whichever fragtop
 * process makes it.
 */
#ifndef FT_CONTROLS_JOURNAL_H
#define FT_CONTROLS_JOURNAL_H

/*
 * Append one line for a write of @knob from @old to @new by @by (a word). 0 or -errno (nothing
 * appended).
 */
int ft_ctl_journal(int rootfd, const char *by, const char *knob, const char *old, const char *new);

/*
 * Make the journal, empty, on the host (@root "/", as root) when it is not
 * there, so that a live source opened next reads from the first change
 * another fragtop makes; elsewhere nothing.  0 or -errno.
 */
int ft_ctl_journal_make(const char *root);

#endif
