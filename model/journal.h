/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The change journal's format: run/fragtop/knob-changes under the root
 * holds a line per knob write any fragtop process is about to make
 * (`fragtop set`, the TUI, an experiment, a restore), appended before
 * the write (controls/journal.c), so a reader who sees the knob's new
 * value finds the line there already.  A line is
 * "t_ns=N pid=N uid=N by=WHO knob=NAME old=TEXT new=TEXT\n", each value
 * one word.  The live source (collectors/live_changes.c) reads the lines
 * of other processes and records each as a claim: an AUDIT input with
 * how and outcome "claim", which the knob watch (model/knobwatch.h) uses
 * to name who made a change it saw.  The directory and file are root's,
 * 0700 and 0600; a reader trusts them only so (base/beneath.h).
 */
#ifndef FT_MODEL_JOURNAL_H
#define FT_MODEL_JOURNAL_H

#include <stddef.h>

#define FT_JOURNAL_FILE	"knob-changes"
#define FT_JOURNAL_MAX	(4u << 20)	/* bytes: past it nothing is appended */
#define FT_JOURNAL_LINE	256		/* a line at most */

/*
 * One journal line (without its newline) as an AUDIT input's text,
 * "key=value\n" lines with how=claim and outcome=claim, into @out.  Its
 * length, or -1 when the line is not one (a field missing, a value with a
 * control byte, too long for @sz).
 */
int ft_journal_claim(const char *line, size_t len, char *out, size_t sz);

/* Who a claim or an audit names (its "by"), as a person reads it: "fragtop set", "the TUI"... */
const char *ft_journal_who(const char *by);

#endif
