/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `fragtop report FILE`, `fragtop compare A B` and `fragtop export FILE`. */
#ifndef FT_TUI_REPORT_H
#define FT_TUI_REPORT_H

#include "collectors/report.h"

int ft_cmd_report(int argc, char **argv);
int ft_cmd_compare(int argc, char **argv);
int ft_cmd_export(int argc, char **argv);	/* tui/export.c */

#endif
