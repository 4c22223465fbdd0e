/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where fragtoprc lives and how the TUI's two commands read and write it
 * (the format is tui/rcfile.h): $XDG_CONFIG_HOME/fragtop/fragtoprc, or
 * ~/.config/fragtop/fragtoprc.  --no-config skips both.
 */
#ifndef FT_CMD_RC_H
#define FT_CMD_RC_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/rcfile.h"

struct ft_rc_file {
	struct ft_rc rc;
	char path[4096];	/* "": no place for it (no HOME) */
	char msg[256];		/* what the reading found wrong, for the status line; "": nothing */
	char note[512];		/* why it will not be written on quit; "": it will */
};

/*
 * Read the file into f->rc (defaults where it says nothing, or where a
 * line is broken).  A missing file is quiet; anything else wrong is said
 * in f->msg.  A file with errors is not written over on quit (f->note).
 */
void ft_settings_load(struct ft_rc_file *f);

/* Write f->rc whole (a temp file renamed over it).  0, or -1 with the reason in @why. */
int ft_settings_save(const struct ft_rc_file *f, char *why, size_t sz);

struct ft_ui;
/* Hand @f (NULL: --no-config) to the TUI: its settings, its place, what reading it found. */
void ft_cmd_rc_attach(struct ft_ui *ui, struct ft_rc_file *f);
/* After the TUI: write what it collected into f->rc, or say on stderr why not. */
void ft_cmd_rc_finish(struct ft_rc_file *f);

#endif
