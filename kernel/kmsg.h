/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Page allocation failures in the kernel log: warn_alloc() prints
 * "COMM: page allocation failure: order:N, mode:0xHEX(GFP_NAMES),
 * nodemask=..." for an allocation that failed without __GFP_NOWARN.  The
 * live source reads /dev/kmsg from its start on and keeps those records
 * only (a KMSG input each, the record as the kernel gave it); this
 * module parses one and counts them by order.  Pure: text in, numbers
 * out; the comm and the gfp names are untrusted (escaped when shown).
 */
#ifndef FT_KERNEL_KMSG_H
#define FT_KERNEL_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_KMSG_ORDERS	16	/* orders counted apart; larger ones in the last */
#define FT_KMSG_LAST	4	/* the newest failures kept whole */
#define FT_KMSG_TEXT	1024	/* a KMSG input at most: a /dev/kmsg record is < 1 KiB of text */
#define FT_KMSG_COMM_MAX 15	/* a task's name at most (TASK_COMM_LEN less its NUL) */

struct ft_kmsg_fail {
	uint64_t seq;			/* the record's sequence number */
	uint64_t ts_us;			/* its time, us since boot (the kernel's clock) */
	int order;
	uint32_t mode;			/* the gfp mask */
	char comm[32];			/* the task that failed */
	char gfp[96];			/* the mask's names, cut */
};

/* The failures seen (a session's, plain values: a checkpoint saves them). */
struct ft_kmsg {
	bool known;			/* the source said whether it reads the log */
	int err;			/* why it cannot (-errno), 0: it reads it */
	uint64_t lost;			/* records the log overwrote before they were read */
	uint64_t failures;
	uint64_t by_order[FT_KMSG_ORDERS];
	struct ft_kmsg_fail last[FT_KMSG_LAST];	/* newest at (nlast - 1) % FT_KMSG_LAST */
	uint64_t nlast;
};

/*
 * One /dev/kmsg record ("PRIO,SEQ,USEC,FLAGS;MESSAGE\n", continuation
 * lines after) into @out: 0, or -EINVAL when it is not a page allocation
 * failure in the kernel's own form or is malformed.  The kernel's form:
 * facility 0 in PRIO (user space's writes are LOG_USER at least), and the
 * message "COMM: page allocation failure: order:N, mode:0xHEX" with COMM
 * at most FT_KMSG_COMM_MAX bytes; the phrase anywhere else (a user's mount
 * option echoed by the kernel) or a line cut before its mode is refused.
 */
int ft_kmsg_parse(const char *rec, size_t len, struct ft_kmsg_fail *out);

/* Count @f in @k. */
void ft_kmsg_add(struct ft_kmsg *k, const struct ft_kmsg_fail *f);

/* The largest order with a failure in @to less @from (the window's), -1: none. */
int ft_kmsg_max_order(const uint64_t from[FT_KMSG_ORDERS], const uint64_t to[FT_KMSG_ORDERS]);

#endif
