/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The change journal's writer (the format: model/journal.h): a line
 * appended before every knob write on a root, by whichever fragtop
 * process makes it.
 */
#ifndef FT_CONTROLS_JOURNAL_H
#define FT_CONTROLS_JOURNAL_H

/* Append one line for a write of @knob from @old to @new by @by (a word).  0 or -errno (nothing appended). */
int ft_ctl_journal(int rootfd, const char *by, const char *knob, const char *old, const char *new);

#endif
