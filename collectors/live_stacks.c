// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source's --stacks: the stacktrace trigger's state and the frames named from
 * /proc/kallsyms.
 */
#include "collectors/live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/file.h"
#include "base/cost.h"
#include "base/grow.h"
#include "base/zero.h"
#include "model/cost.h"

/* --stacks' state: a SOURCE input each tick, so each file of a series has it */
void ft_live_stacks_emit_status(struct ft_live *l, uint64_t t_ns)
{
	int32_t e = l->stacks.err;
	uint8_t b[8];

	if (!l->stacks.asked)
		return;
	memcpy(b, &e, 4);
	memcpy(b + 4, &l->stacks.per_sec, 4);
	ft_live_emit(l, FT_RR_SOURCE, FT_RS_STACKS, t_ns, b, 8);
}

/* /proc/kallsyms, read whole (it has no size) into the symbol table. */
static int read_kallsyms(struct ft_live *l)
{
	struct ft_file f;
	int err;

	ft_file_init(&f, "proc/kallsyms");
	err = ft_file_read(&f, l->procfs.rootfd);
	if (!err)
		err = ft_kallsyms_parse(f.buf, f.len, &l->stacks.ksyms);
	ft_file_close(&f);
	return err;
}

/*
 * Name the frames of the stacks the session interned since the last look:
 * a KSYM input for each address not named yet (addresses unnamed stay
 * hex; kallsyms hidden by kptr_restrict names none).
 */
void ft_live_stacks_name(struct ft_live *l)
{
	const struct ft_events *ev = &l->session.events;
	char name[FT_SYMNAME_LEN + 8], rec[8 + FT_SYMNAME_LEN];

	if (l->stacks.named >= ev->nr_stacks)
		return;
	if (l->stacks.ksyms_err > 0) {
		l->stacks.ksyms_err = read_kallsyms(l);
		if (l->stacks.ksyms_err)
			ft_diag(FT_DIAG_WARN, "kernel stacks stay unnamed: %s",
				l->stacks.ksyms_err == -ENOENT && l->stacks.ksyms.hidden ?
				"/proc/kallsyms hides its addresses (kernel.kptr_restrict)" :
				strerror(-l->stacks.ksyms_err));
	}
	for (; l->stacks.named < ev->nr_stacks; l->stacks.named++) {
		const struct ft_ev_stack *st = &ev->stacks[l->stacks.named];

		for (int i = 0; !l->stacks.ksyms_err && i < st->n; i++) {
			size_t n;

			if (ft_symnames_get(&l->session.syms, st->ip[i]))
				continue;
			n = ft_kallsyms_name(&l->stacks.ksyms, st->ip[i], name, sizeof(name));
			if (!n)
				continue;
			if (n >= FT_SYMNAME_LEN)
				n = FT_SYMNAME_LEN - 1;
			memcpy(rec, &st->ip[i], 8);
			memcpy(rec + 8, name, n);
			ft_live_emit(l, FT_RR_KSYM, 0, ft_now_ns(), rec, 8 + n);
		}
	}
}

/* The trigger's count, given again once a second: so many stacks a second at most. */
void ft_live_stacks_rearm(struct ft_live *l)
{
	uint64_t now = ft_now_ns();
	int err;

	if (now - l->stacks.armed_ns < 1000000000ull)
		return;
	l->stacks.armed_ns = now;
	err = ft_live_trace_stacks_rearm(l);
	if (err < 0 && !l->stacks.err) {
		l->stacks.err = err;
		ft_diag(FT_DIAG_WARN,
			"kernel stacks stopped: the trigger could not be set again: %s",
			strerror(-err));
	}
}

int ft_live_stacks_start(struct ft_live *l, unsigned int per_sec)
{
	int order = l->session.events.pageblock_order;

	l->stacks.asked = true;
	if (!per_sec)
		per_sec = (unsigned int)strtoul(ft_live_stacks_per_sec_default, NULL, 10);
	l->stacks.per_sec = per_sec;
	l->stacks.ksyms_err = 1;
	if (!ft_live_trace_on(l))
		l->stacks.err = l->session.trace_err ? l->session.trace_err : -ENODEV;
	else
		l->stacks.err = ft_live_trace_stacks_on(l, order > 0 ? order : l->host.pmd_order,
							l->stacks.per_sec);
	if (l->stacks.err) {
		if (ft_live_trace_on(l))
			ft_diag(FT_DIAG_WARN, "no kernel stacks: the stacktrace trigger: %s",
				strerror(-l->stacks.err));
	} else {
		ft_live_emit_format(l, FT_TRACE_STACK, NULL, NULL);
		l->stacks.armed_ns = ft_now_ns();
	}
	ft_live_stacks_emit_status(l, ft_now_ns());
	return l->stacks.err;
}

void ft_live_stacks_free(struct ft_live *l)
{
	ft_kallsyms_release(&l->stacks.ksyms);
}
