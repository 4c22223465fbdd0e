/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal UI shared by the live mode (tui/mode_live.c) and the replay mode
 * (tui/mode_replay.c): header, status line, prompts, the key tables and their
 * dispatch, the views and the one loop, ft_ui_run().  The commands that
 * start them (cmd/top.c, cmd/replay.c) set up the source, the controls
 * and the signals; a mode adds its keys and its work between keys.
 */
#ifndef FT_TUI_UI_H
#define FT_TUI_UI_H

/*
 * The source's descriptors one wait covers at most (a trace pipe a CPU; the rest drain at ticks).
 */
#define FT_UI_POLL_FDS	1024

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/tick.h"
#include "collectors/live.h"
#include "collectors/recorder.h"
#include "controls/control.h"
#include "tui/rcfile.h"
#include "tui/termin.h"
#include "tui/view.h"

struct ft_view;
struct ft_replay;
struct ft_ui;

/*
 * A key binding (htop's key tables): the codes that trigger it, what help
 * shows, and the word in the status line's hint.  Tables end with a NULL
 * label.  The hint shows the bindings of both tables in hint_pos order.
 */
struct ft_key {
	const char *label;		/* as help shows it: "b B" */
	int codes[12];			/* 0 ends */
	const char *help;		/* NULL: not listed (a refusal) */
	const char *hint;		/* "b/B boost", or NULL */
	int hint_pos;
	void (*fn)(struct ft_ui *ui, int ch);
};

struct ft_ui {
	struct ft_live *live;		/* the live source; NULL in replay */
	struct ft_replay *rp;		/* the replay source; NULL live */
	const struct ft_session *s;	/* what the views show: the source's session, read only */
	const struct ft_key *mode_keys;	/* the entry point's own keys */
	/*
	 * the entry point's work between keys: ticks due, trace pages (also while a prompt is open)
	 */
	void (*idle)(struct ft_ui *ui);
	/* the mode's part of the header (replay: the timeline), or NULL */
	void (*header)(struct ft_ui *ui);
	int header_end;			/* the header's columns before the mode's part */
	/* the columns the mode's part needs at least (its position) */
	int header_room;
	/* how soon idle wants to run again, ms (at most 1000; the boost sampler's 20); NULL: 250 */
	int (*idle_ms)(struct ft_ui *ui);
	/*
	 * The source's descriptors to wait on beside the terminal (up to
	 * @cap into @fds, how many), and what to do when @n of them are
	 * readable; NULL: none.
	 */
	int (*poll_fds)(struct ft_ui *ui, int *fds, int cap);
	void (*polled)(struct ft_ui *ui, int n);
	struct ft_tick tick;		/* when the next tick is due */
	uint64_t iterations;		/* -n: quit after the draw of this many ticks (0: never) */
	/* after each tick (cmd/top.c's --cost-log), or NULL */
	void (*on_tick)(void *ctx, struct ft_ui *ui);
	void *on_tick_ctx;
	double speed;			/* replay: recorded seconds per second */
	double interval;		/* seconds between ticks */
	double pti_interval;		/* seconds between pagetypeinfo reads */
	bool paused;
	bool at_end;			/* replay: nothing more to step */
	bool color;			/* colours are on */
	bool color_wanted;		/* the scheme asked for (the setup view toggles it) */
	bool color_set, interval_set;	/* changed in the TUI: the rc file keeps them */
	bool quit;
	bool redraw;			/* idle has something new to show before the next tick */
	/* non-zero: a signal asked to stop (cmd/signals.h) */
	const volatile sig_atomic_t *stop;
	const struct ft_view *view;	/* current */
	const struct ft_view *prev_view;	/* to go back from help */
	const struct ft_view *drawn_view;	/* the one the last draw drew (its scroll_info) */
	char scroll_info[192];		/* set by the view, shown in the status line */
	uint64_t rescan_t0;		/* the map's R began then (its pass runs in slices) */
	struct ft_ctl *ctl;		/* every knob write */
	struct ft_recorder *rec;	/* -w FILE; NULL when not recording */
	bool restore_on_exit;
	bool writes_confirmed;		/* the operator said yes to changing knobs here */
	/*
	 * the rc file's settings: applied when the loop starts, collected when it ends; NULL: none
	 */
	struct ft_rc *rc;
	const char *rc_path;		/* where they are kept, for the setup view ("": not kept) */
	const char *rc_note;		/* why they will not be written, or NULL */
	char status[256];		/* last diagnostic */
	/* the view it was said in: another does not show it */
	const struct ft_view *status_view;
	int status_level;
	uint64_t status_t_ns;
	/* terminal input fragtop reads itself (tui/termin.h): the last mouse report (KEY_MOUSE) */
	struct ft_mouse_ev mouse;
	/* the terminal reports the mouse and pastes (xterm's modes set) */
	bool mouse_on;
	bool pasting;			/* inside a bracketed paste: its bytes are not keys */
	bool prompting;			/* a prompt is open: pasted text is typed into it */
	/* each view's state (struct ft_view's state_size), in the order of
	 * tui/ui.c's views_all: ft_views, then help and setup */
	void *view_state[FT_UI_VIEWS_ALL];
	int tab_x[16 + 1];		/* where the last draw put each tab (clicks) */
	/* ^Z: the flag a SIGTSTP handler sets, and the handler (cmd/signals.h); NULL: not caught */
	volatile sig_atomic_t *tstp;
	void (*on_tstp)(int sig);
};

/* Keys both entry points have (quit, help, views, pause, redraw). */
extern const struct ft_key ft_ui_keys[];
/* The live TUI's own keys (tui/mode_live.c) and the replay's (tui/mode_replay.c). */
extern const struct ft_key ft_ui_live_keys[], ft_ui_replay_keys[];

/* The views of keys 1 to 7, in that order: the one list the keys, the tab bar and help use. */
extern const struct ft_view *const ft_views[];
extern const int ft_views_nr;

/* Each view takes what @rc keeps (and the view to open on). */
void ft_ui_rc_apply(struct ft_ui *ui, const struct ft_rc *rc);
/* The settings now, for the rc file: the view, the interval, the scheme, each view's. */
void ft_ui_rc_collect(const struct ft_ui *ui, struct ft_rc *rc);

/* After a tick of the source: every view's tick_always, then the shown view's tick. */
void ft_ui_ticked(struct ft_ui *ui);

/* The live mode (tui/mode_live.c): its keys, its work between keys, the audit hook. */
void ft_ui_live_mode(struct ft_ui *ui);
/* Record the live session to @path from now on (-w, the w key).  0 or -errno. */
int ft_ui_record_start(struct ft_ui *ui, const char *path);
/* Close the recording; @msg says what it holds.  0 or -errno. */
int ft_ui_record_stop(struct ft_ui *ui, char *msg, size_t sz);
/* The replay mode (tui/mode_replay.c): its keys (the live ones refused) and its stepping. */
void ft_ui_replay_mode(struct ft_ui *ui);

/*
 * The loop of both modes: start the terminal, then run what is due, draw,
 * wait for a key, until q or *ui->stop; endwin() at the end.  -1 if the
 * terminal could not run the TUI (said on stderr), else 0.
 */
int ft_ui_run(struct ft_ui *ui, bool color);

/* The terminal: false (and said on stderr) if it cannot run the TUI. */
bool ft_ui_curses_start(struct ft_ui *ui, bool color);

/* One screen: header, the view, the status line. */
void ft_ui_draw(struct ft_ui *ui);

/* A key: the help view takes any; then the entry point's keys, the shared ones, the view's. */
void ft_ui_key(struct ft_ui *ui, int ch);

/*
 * Wait for a key up to @ms, running ui->idle meanwhile; ERR if none came.
 * KEY_MOUSE with the report in ui->mouse; escape sequences fragtop does
 * not know and pasted text (outside a prompt) are swallowed, never keys.
 */
int ft_ui_getch(struct ft_ui *ui, int ms);

/* Show a message in the status line (also the diag hook's target). */
void ft_ui_status(struct ft_ui *ui, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ft_diag_fn that shows diagnostics in @ctx's status line. */
void ft_ui_diag(void *ctx, enum ft_diag_level level, const char *msg);

/* A line of input on the status row; false if cancelled (Esc, empty). Sampling goes on. */
bool ft_ui_prompt(struct ft_ui *ui, const char *question, char *buf, int sz);

/* The same, the line starting from what @buf holds (the last answer, to keep or edit). */
bool ft_ui_prompt_edit(struct ft_ui *ui, const char *question, char *buf, int sz);

/* A y/N question on the status row; true only for y or Y.  Sampling goes on. */
bool ft_ui_confirm(struct ft_ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/*
 * Before a knob write from a key: the first of the session asks once
 * ("change vm knobs on HOST? y/N", naming the host); later ones go ahead.
 * A read-only session goes ahead (the controls refuse, and say why).
 */
bool ft_ui_may_write(struct ft_ui *ui);

/* Sample every @v seconds from now on (live; d and the setup view). */
void ft_ui_set_interval(struct ft_ui *ui, double v);

/* Re-read the knobs now (live only): after a control change. */
void ft_ui_read_knobs(struct ft_ui *ui);

/* After a control change: re-read the knobs, report the outcome. */
void ft_ui_control_done(struct ft_ui *ui, const struct ft_audit *a);

#endif
