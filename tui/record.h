/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop record`: a headless recording of the live collectors. */
#ifndef FT_TUI_RECORD_H
#define FT_TUI_RECORD_H

int ft_cmd_record(int argc, char **argv);

#endif
