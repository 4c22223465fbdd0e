// SPDX-License-Identifier: GPL-2.0-or-later
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>

static ft_diag_fn diag_fn;
static void *diag_ctx;

void ft_diag_set_hook(ft_diag_fn fn, void *ctx)
{
	diag_fn = fn;
	diag_ctx = ctx;
}

void ft_diag(enum ft_diag_level level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (diag_fn)
		diag_fn(diag_ctx, level, msg);
	else
		fprintf(stderr, "fragtop: %s\n", msg);
}
