// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/ui.h"

int ft_cmd_top(int argc, char **argv)
{
	(void)argc; (void)argv;
	return 1;
}

void ft_ui_usage(FILE *f)
{
	(void)f;
}
