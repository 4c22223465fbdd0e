// SPDX-License-Identifier: GPL-2.0-or-later
#include "cmd/signals.h"

#include <signal.h>
#include <string.h>

void ft_catch_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

const volatile sig_atomic_t *ft_catch_stop(void)
{
	ft_catch_stop_signals(on_stop);
	return &stop_sig;
}

int ft_stop_signal(void)
{
	return stop_sig;
}

volatile sig_atomic_t ft_tstp_flag;

void ft_on_tstp(int sig)
{
	(void)sig;
	ft_tstp_flag = 1;
}
