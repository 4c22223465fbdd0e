/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop set` and `fragtop get`: the knobs from a shell. */
#ifndef FT_TUI_KNOBCMD_H
#define FT_TUI_KNOBCMD_H

int ft_cmd_set(int argc, char **argv);
int ft_cmd_get(int argc, char **argv);

#endif
