// SPDX-License-Identifier: GPL-2.0-or-later
#include "tui/options.h"

#include <signal.h>
#include <string.h>

void ft_opt_catch_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
