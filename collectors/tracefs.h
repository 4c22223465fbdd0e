/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragtop's private tracefs instance: created as
 * "fragtop-<pid>-<pid namespace inode>-<start time>", with the mm events
 * this kernel has enabled in it, removed on close.  At start fragtop
 * removes the instances that provably belong to a fragtop that died: the
 * exact name form, the same PID namespace, and that pid gone or now
 * another process (a different start time).  Anything else, an older
 * fragtop's "fragtop-<pid>", one from another namespace or a name that
 * only looks like ours, is left alone, events and all.  Never touches the
 * top-level buffer or /proc/sys/kernel/ftrace_enabled; of the top level it
 * only reads saved_cmdlines.
 *
 * Ownership: struct ft_tracefs owns its tracefs_instance; ft_tracefs_close()
 * destroys the instance directory and frees it.
 */
#ifndef FT_COLLECTORS_TRACEFS_H
#define FT_COLLECTORS_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/tracedec.h"

#define FT_TRACE_PREFIX "fragtop-"

struct tracefs_instance;
struct tracefs_cpu;

/* The texts a trace keeps: each event kind's format (kernel_stack's too), then header_page. */
enum {
	FT_TRACE_STACK = FT_EV_KERNEL_STACK,
	FT_TRACE_HEADER = FT_EV_KINDS,
	FT_TRACE_TEXTS
};

struct ft_tracefs {
	struct tracefs_instance *inst;	/* owned */
	char name[64];
	unsigned int enabled;		/* bit per enum ft_trace_event */
	int nr_cpus;
	struct tracefs_cpu **cpus;	/* owned; NULL entries for CPUs not opened */
	/* per_cpu/cpuN/stats, held open for ft_tracefs_lost(); -1: none */
	int *stats_fd;
	/* per_cpu/cpuN/trace_pipe_raw, cpus[N]'s, for poll(); -1: none */
	int *pipe_fd;
	void *page;			/* one sub-buffer, owned */
	int page_size;
	struct ft_tracedec dec;		/* formats of this kernel, owned */
	uint64_t pages_read;
	uint64_t bytes_read;
	/*
	 * The texts the decoder was built from, for the recorder, by event
	 * kind (kernel/tracedec.h): [FT_TRACE_STACK] is ftrace/kernel_stack's
	 * format (with --stacks only), [FT_TRACE_HEADER] header_page.
	 */
	char *text[FT_TRACE_TEXTS];
	size_t text_len[FT_TRACE_TEXTS];
	/* --stacks: the stacktrace trigger on mm_page_alloc_extfrag */
	bool stacks;
	int stacks_order;		/* fragmenting: fallback_order below it */
	unsigned int stacks_per_sec;	/* the trigger's count, given again each second */
	uint64_t stacks_rearmed;	/* times the count was spent and given again */
};

/*
 * The tracer's saved_cmdlines (top level, read only): "PID COMM" lines for
 * the tasks that recorded events in any buffer, ours included, while the
 * top-level record-cmd option is on (kernel/cmdlines.h parses them).  A
 * malloc'd NUL-terminated text in *@buf and its length, or a negative errno.
 */
int ft_tracefs_saved_cmdlines(char **buf, size_t *len);

/* One sub-buffer of @cpu as read, valid during the call. */
typedef void (*ft_tracefs_page_fn)(void *ctx, int cpu, const void *buf, size_t len);

/*
 * Remove the instances ft_tracefs_instance_stale() says belong to a dead
 * fragtop.  Returns how many were removed, or -errno (-ENOENT: tracefs is
 * not mounted).
 */
int ft_tracefs_remove_stale(void);

/* The instance name of process @pid in PID namespace @ns started at @start. */
int ft_tracefs_instance_name(char *buf, size_t sz, long pid, unsigned long long ns,
			   unsigned long long start);
/* Its inverse: 0 only for a name in exactly that form, else -EINVAL. */
int ft_tracefs_instance_parse(const char *name, long *pid, unsigned long long *ns,
			    unsigned long long *start);
/*
 * Whether instance @name is a dead fragtop's, as seen by process @self in
 * PID namespace @self_ns; @start_of gives a live pid's start time (0 if
 * the pid is gone).
 */
bool ft_tracefs_instance_stale(const char *name, long self, unsigned long long self_ns,
			     unsigned long long (*start_of)(long pid));

/*
 * Create our instance with a per-CPU buffer of @buffer_kb (0: kernel
 * default) and enable every listed event this kernel has.  0 or -errno:
 * -ENOENT no tracefs, -EACCES/-EPERM not root, -ENODEV no event exists.
 */
int ft_tracefs_open(struct ft_tracefs *t, size_t buffer_kb);
void ft_tracefs_close(struct ft_tracefs *t);

/*
 * Read everything the kernel has buffered on every CPU (whole pages by
 * splice, then the partial page by read), handing each sub-buffer to
 * @fn.  Returns the number of sub-buffers, or -errno.
 */
long ft_tracefs_drain(struct ft_tracefs *t, ft_tracefs_page_fn fn, void *ctx);

/*
 * --stacks: give each fragmenting fallback (fallback_order below
 * @pageblock_order) the kernel stack that made it, through the stacktrace
 * trigger on mm_page_alloc_extfrag in our instance (the kernel writes a
 * kernel_stack record right after the event, on its CPU).  At most
 * @per_sec stacks a second: the trigger's count, given again by
 * ft_tracefs_stacks_rearm(); later fallbacks of the second go without.  The
 * trigger goes with the instance.  0 or -errno (-ENODEV: no extfrag
 * event or no kernel_stack format; the trigger write's error otherwise).
 */
int ft_tracefs_stacks_on(struct ft_tracefs *t, int pageblock_order, unsigned int per_sec);
/*
 * Once a second: give the trigger its count again when three quarters of
 * it are spent (taking the trigger off to write it again leaves a gap of
 * an RCU grace period without stacks).  Returns 1 if it was, 0 if not,
 * -errno.
 */
int ft_tracefs_stacks_rearm(struct ft_tracefs *t);

/*
 * The descriptors of every CPU's pages, for poll(): readable (POLLIN) as
 * soon as a CPU has an event (the instance's buffer_percent is 0), so an
 * idle reader sleeps until one comes.  Up to @cap into @fds; how many.
 */
int ft_tracefs_fds(const struct ft_tracefs *t, int *fds, int cap);

/* Stop recording (before a last drain, so that nothing recorded is left unread). */
void ft_tracefs_stop(struct ft_tracefs *t);

/*
 * Events lost in the kernel: the per-CPU overrun and dropped counts of
 * our instance (what the sub-buffers say was missed is the decoder's).
 */
uint64_t ft_tracefs_lost(struct ft_tracefs *t);

static inline bool ft_tracefs_has(const struct ft_tracefs *t, enum ft_trace_event ev)
{
	return t->enabled & (1u << ev);
}

/* One line on why tracing is unavailable, for the status line. */
const char *ft_tracefs_strerror(int err);

#endif
