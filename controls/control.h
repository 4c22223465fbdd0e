/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every write fragtop makes goes through here.  A change is validated
 * (nothing is written when that fails), written, read back, and becomes
 * an audit entry whatever its outcome.  Successful changes can be undone
 * one by one, or all restored to the values they had before fragtop first
 * touched them.  The TUI, `fragtop set` and the recorder share this.  A
 * knob an experiment is trying is written by that experiment alone: any
 * other write of it is refused (outcome denied, -EBUSY) while it runs.
 *
 * Ownership: struct ft_ctl owns its audit ring and undo stack; audit
 * entries returned by the functions below stay valid until the next call
 * that adds an entry.
 */
#ifndef FT_CONTROLS_CONTROL_H
#define FT_CONTROLS_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/knob.h"

enum ft_ctl_outcome {
	FT_CTL_OK,		/* written and read back as asked */
	FT_CTL_INVALID,		/* refused before writing: unknown knob, bad value */
	FT_CTL_READ_ONLY,	/* fragtop runs --read-only */
	FT_CTL_ABSENT,		/* not on this kernel (or no such node) */
	FT_CTL_DENIED,		/* EACCES, EPERM, EROFS */
	FT_CTL_REJECTED,	/* the kernel refused the value (EINVAL...) */
	FT_CTL_MISMATCH,	/* written, but reads back something else */
	FT_CTL_FAILED,		/* any other error */
};

enum ft_ctl_how { FT_CTL_SET, FT_CTL_STEP, FT_CTL_UNDO, FT_CTL_RESTORE, FT_CTL_REASSERT };

extern const char *const ft_ctl_outcome_names[];	/* "ok", "invalid"... */
extern const char *const ft_ctl_how_names[];		/* "set", "step"... */

struct ft_audit {
	uint64_t seq;			/* 1, 2, ... in this session */
	int64_t t_ns;			/* CLOCK_REALTIME */
	uint32_t uid;			/* real uid */
	uint32_t loginuid;		/* who logged in (the operator behind sudo) */
	enum ft_ctl_how how;
	enum ft_ctl_outcome outcome;
	int err;			/* -errno when there is one */
	char knob[FT_KNOB_TEXT];	/* as typed if unknown */
	int node;			/* per-node triggers; -1 otherwise */
	char old[FT_KNOB_TEXT];		/* "" for triggers or unreadable */
	char new[FT_KNOB_TEXT];		/* what was asked (canonical when valid) */
	char readback[FT_KNOB_TEXT];	/* after the write */
	char msg[192];			/* one sentence for the status line */
	char by[16];			/* who wrote: struct ft_ctl's by ("" unsaid) */
};

#define FT_CTL_AUDIT_MAX	1024	/* session ring; the recorder keeps all */
#define FT_CTL_UNDO_MAX		256

struct ft_ctl_change {
	const struct ft_knob *knob;
	char old[FT_KNOB_TEXT], new[FT_KNOB_TEXT];
};

struct ft_ctl {
	int rootfd;			/* borrowed */
	bool read_only;
	const char *read_only_why;	/* shown in refusals */
	struct ft_audit audit[FT_CTL_AUDIT_MAX];
	uint64_t audit_nr;		/* total ever added */
	struct ft_ctl_change undo[FT_CTL_UNDO_MAX];
	int undo_nr;
	/* value of each knob before fragtop first changed it; "" if never */
	char orig[64][FT_KNOB_TEXT];
	/* handed every entry as it is added (the recorder) */
	void (*hook)(void *ctx, const struct ft_audit *a);
	void *hook_ctx;
	/*
	 * Also log every entry to syslog(3) (authpriv: uid, knob, old -> new,
	 * outcome), so other operators see the change in the system log.
	 * Set for the real root; a --root tree is not the host.
	 */
	bool syslog;
	/*
	 * Writes a value instead of the real writer when set: a test's kernel
	 * that takes something else than asked (the read-back's failure).
	 */
	int (*write)(void *ctx, int rootfd, const struct ft_knob *k, int node, const char *text);
	void *write_ctx;
	/*
	 * Who writes, a word for the audit entries and the change journal:
	 * "set", "tui", "experiment", "restore", "preflight" (NULL: unsaid).
	 */
	const char *by;
	/*
	 * Append each knob write to the change journal first (controls/
	 * journal.h): set for the real root, so a recording of the host can
	 * tell this process's changes from changes outside fragtop.
	 */
	bool journal;
	/*
	 * The experiment's own: it may write the knob under experiment, which
	 * every other writer is refused (controls/expstate.h).
	 */
	bool experiment;
};

/*
 * Read a non-trigger, non-per-node knob under @rootfd (what fragtop shows
 * before and after a change).  0 or -errno, also in v->err.
 */
int ft_ctl_read(int rootfd, const struct ft_knob *k, struct ft_knob_value *v);

/*
 * The entry as "key=value\n" lines (what a recording keeps and the session
 * reads back): seq, t_ns, uid, loginuid, how, outcome, err, knob, node,
 * old, new, readback, msg.  Returns the length (like snprintf).
 */
int ft_audit_text(const struct ft_audit *a, char *buf, size_t sz);

/* @why_read_only: NULL for a writable session, else the reason shown. */
void ft_ctl_init(struct ft_ctl *c, int rootfd, const char *why_read_only);

/*
 * Write @value again after someone else changed the knob (an experiment
 * holding its block's value): a set whose audit says "reassert", so a
 * reader of the recording does not take it for a new block.
 */
const struct ft_audit *ft_ctl_reassert(struct ft_ctl *c, const struct ft_knob *k,
				       const char *value);

/* Set knob @name (with or without "vm.") to @value. */
const struct ft_audit *ft_ctl_set(struct ft_ctl *c, const char *name, const char *value);
const struct ft_audit *ft_ctl_set_knob(struct ft_ctl *c, const struct ft_knob *k,
				       const char *value);

/*
 * One step up (@dir > 0) or down: INT knobs by their step, clamped to the
 * range; SELECT knobs to the next or previous option.
 */
const struct ft_audit *ft_ctl_step(struct ft_ctl *c, const struct ft_knob *k, int dir);

/* Undo the last successful change not yet undone; NULL if there is none. */
const struct ft_audit *ft_ctl_undo(struct ft_ctl *c);

/*
 * Put every knob fragtop changed back to the value it had before the
 * first change (only where it differs now).  Returns how many writes
 * failed; each attempt is an audit entry.
 */
int ft_ctl_restore_all(struct ft_ctl *c);

/* Knobs whose current value differs from the one fragtop found. */
int ft_ctl_nr_changed(struct ft_ctl *c);

/* The @i-th entry from the oldest kept (0 .. ft_ctl_audit_kept() - 1). */
size_t ft_ctl_audit_kept(const struct ft_ctl *c);
const struct ft_audit *ft_ctl_audit_get(const struct ft_ctl *c, size_t i);

/* Render an entry as "21:40:01 uid 0 set watermark_boost_factor 15000 -> 4321 ok". */
void ft_audit_format(const struct ft_audit *a, char *buf, size_t sz);

#endif
