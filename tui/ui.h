/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live terminal UI: main loop, views, keys, status line. */
#ifndef FT_TUI_UI_H
#define FT_TUI_UI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "collectors/live.h"
#include "collectors/recorder.h"
#include "controls/control.h"

struct ft_view;

struct ft_replay;

struct ft_ui {
	struct ft_live *live;		/* the live source; NULL in replay */
	struct ft_replay *rp;		/* the replay source; NULL live */
	struct ft_session *s;		/* what the views show: the source's session */
	double speed;			/* replay: recorded seconds per second */
	double interval;		/* seconds between ticks */
	double pti_interval;		/* seconds between pagetypeinfo reads */
	bool paused;
	bool color;
	bool quit;
	const struct ft_view *view;	/* current */
	const struct ft_view *prev_view;	/* to go back from help */
	int scroll;			/* first line of the scrolled body */
	char scroll_info[64];		/* set by the view, shown in the status line */
	struct ft_ctl *ctl;		/* every knob write; NULL before the loop */
	struct ft_recorder *rec;	/* -w FILE; NULL when not recording */
	int ctl_sel;			/* selected knob in the controls view */
	bool restore_on_exit;
	/* map view */
	int map_zone;			/* index into live.map.zones */
	uint32_t map_bpc;		/* blocks per cell; 0: fit the zone */
	uint32_t map_cur;		/* cursor cell */
	int map_top;			/* first row shown */
	bool map_overlay;
	char status[256];		/* last diagnostic */
	int status_level;
	uint64_t status_t_ns;
};

int ft_cmd_top(int argc, char **argv);
int ft_cmd_replay(int argc, char **argv);
void ft_ui_usage(FILE *f);

/* Show a message in the status line (also the diag hook's target). */
void ft_ui_status(struct ft_ui *ui, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A line of input on the status row; false if cancelled (Esc, empty). */
bool ft_ui_prompt(const char *question, char *buf, int sz);

/* A y/N question on the status row; true only for y or Y. */
bool ft_ui_confirm(struct ft_ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The command of @pid as the session knows it ("?" if unknown), safe to print. */
const char *ft_ui_comm(const struct ft_session *s, int pid);

/* Re-read the knobs now (live only): after a control change. */
void ft_ui_read_knobs(struct ft_ui *ui);

/* After a control change: re-read the knobs, report the outcome. */
void ft_ui_control_done(struct ft_ui *ui, const struct ft_audit *a);

#endif
