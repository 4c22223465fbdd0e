/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding of raw ftrace sub-buffers (trace_pipe_raw pages) into records
 * of the mm events fragtop follows.  Pure: it is given the text of
 * events/header_page and of each event's format file, and the bytes of
 * sub-buffers; it resolves every field by name from the format (never a
 * hard-coded offset) with libtraceevent, and walks sub-buffers with its
 * own kernel/ringbuf.c (kbuffer's walk, a tenth of its cost).
 *
 * Ownership: struct ft_tracedec owns its tep handle.
 */
#ifndef FT_KERNEL_TRACEDEC_H
#define FT_KERNEL_TRACEDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ft_trace_event {
	FT_EV_EXTFRAG,
	FT_EV_FRAG_STALL,		/* kernels with the stall patch only */
	FT_EV_COMPACT_BEGIN,
	FT_EV_COMPACT_END,
	FT_EV_COMPACT_SUITABLE,
	FT_EV_COMPACT_DEFERRED,
	FT_EV_COMPACT_KCOMPACTD_WAKE,
	FT_EV_COMPACT_MIGRATEPAGES,
	FT_EV_COMPACT_TRY,		/* try_to_compact_pages: direct compaction only */
	FT_EV_COMPACT_DEFER_RESET,	/* a zone's SUCCESS, or an allocation compaction served */
	FT_EV_RECLAIM_BEGIN,
	FT_EV_RECLAIM_END,
	FT_EV_WAKEUP_KSWAPD,
	FT_EV_KSWAPD_WAKE,
	FT_EV_KSWAPD_SLEEP,
	/* the scanners' isolation, a pageblock at a time: futile compaction (model/session.h) */
	FT_EV_COMPACT_ISO_MIGRATE,
	FT_EV_COMPACT_ISO_FREE,
	FT_EV_NR
};

struct ft_trace_event_def {
	const char *system;
	const char *event;
};

extern const struct ft_trace_event_def ft_trace_events[FT_EV_NR];

/*
 * The kind of ftrace/kernel_stack's records (--stacks): a format the
 * decoder reads beside the table's events, numbered right after them.
 * FT_EV_KINDS counts both: FT_EV_NR is the table's events only.
 */
enum { FT_EV_KERNEL_STACK = FT_EV_NR, FT_EV_KINDS };

/* One decoded event. */
struct ft_trace_rec {
	enum ft_trace_event kind;
	/* extfrag: its kernel stack in events.stacks[], 1-based; 0 none */
	uint32_t stack;
	uint64_t ts;			/* ns, trace clock */
	int cpu;
	int pid;
	union {
		struct {
			uint64_t pfn;
			int alloc_order, fallback_order;
			int alloc_mt, fallback_mt;
			int change_ownership;
		} extfrag;
		struct {		/* begin, end, suitable, deferred */
			int status;	/* end: status; suitable: ret (a status value) */
			int nid;	/* suitable, deferred */
			uint64_t zone_start;	/* begin, end: the zone's first PFN */
		} compact;
		struct {
			int nid;
			uint64_t duration_us;
		} stall;
		struct {
			int nid, order;
		} wake;
		struct {		/* isolate_migratepages, isolate_freepages */
			uint64_t start_pfn, end_pfn, scanned, taken;
		} iso;
	} u;
};

#define FT_STACK_DEPTH	16	/* a kernel stack's frames kept, innermost first */

/*
 * A kernel_stack record (ftrace/kernel_stack: what the stacktrace event
 * trigger, or an instance's stacktrace option, writes right after the
 * event it was taken for, on the same CPU): its frames' addresses.
 */
struct ft_trace_stack {
	uint64_t ts;
	int cpu;
	int n;				/* frames in ip[] */
	/* frames the record holds (n: at most FT_STACK_DEPTH of them) */
	int all;
	uint64_t ip[FT_STACK_DEPTH];
};

typedef void (*ft_trace_stack_fn)(void *ctx, const struct ft_trace_stack *st);

/* A field's place in an event record, from its format file. */
struct ft_field {
	int offset, size;
	bool is_signed;
	bool present;
};

#define FT_MAX_STATUS 16
#define FT_TRACE_IDS	4096	/* event ids found by a table below this (6.18's go to ~2,000) */

/* What the decoder counts as it decodes: plain values. */
struct ft_tracedec_state {
	uint64_t missed;		/* events the kernel said it dropped */
	uint64_t missed_unknown;	/* sub-buffers flagged lossy without a count */
	uint64_t bad;			/* malformed sub-buffers or records */
	uint64_t walked;		/* records walked, ours or not */
};

struct ft_tracedec {
	struct tep_handle *tep;		/* owned */
	bool have_header;
	int common_type_off, common_type_size;
	int common_pid_off;
	int id[FT_EV_NR];		/* event id, -1 if no format was given */
	uint8_t kind_of[FT_TRACE_IDS];	/* an id's enum ft_trace_event + 1; 0: none of ours */
	int extfrag_end;		/* the extfrag fields' end in a record; 0: not all there */
	struct ft_field f_pfn, f_alloc_order, f_fallback_order, f_alloc_mt,
			f_fallback_mt, f_change_ownership, f_status, f_nid,
			f_duration, f_zone_start, f_ret, f_cnid;
	/* kswapd_wake [0] and kcompactd_wake [1] lay nid and order out differently */
	struct ft_field f_wake_nid[2], f_order[2];
	/* the two isolate events: [0] migrate, [1] free (one layout, resolved apart) */
	struct ft_field f_iso_start[2], f_iso_end[2], f_iso_scanned[2], f_iso_taken[2];
	/* ftrace/kernel_stack: its type (-1 without its format), frame count and first frame */
	int stack_type;
	struct ft_field f_stack_size, f_stack_caller;
	/* given kernel_stack records (with the sub-buffer's ctx); NULL: skipped */
	ft_trace_stack_fn on_stack;
	/*
	 * Compaction status values and names, from the print fmt of
	 * mm_compaction_end (REC->status) or of mm_compaction_suitable
	 * (REC->ret): both print the kernel's COMPACTION_STATUS table
	 */
	int nr_status;
	int status_val[FT_MAX_STATUS];
	char status_name[FT_MAX_STATUS][24];
	/* what the decode calls counted (a checkpoint saves them whole) */
	union {
		struct ft_tracedec_state;	/* its members by name (-fms-extensions) */
		struct ft_tracedec_state state;	/* the same, whole: what a checkpoint saves */
	};
};

int ft_tracedec_init(struct ft_tracedec *d);
void ft_tracedec_release(struct ft_tracedec *d);

/* events/header_page text.  0 or -EINVAL. */
int ft_tracedec_header_page(struct ft_tracedec *d, const char *buf, size_t len);

/*
 * One event's format text; the event is recognised by its "name:" line
 * and @system ("ftrace" and "kernel_stack": the stack records).  0,
 * -ENOENT (not one of ours, ignored), -EINVAL (malformed or lacking a
 * field we need).
 */
int ft_tracedec_format(struct ft_tracedec *d, const char *system, const char *buf, size_t len);

static inline bool ft_tracedec_has(const struct ft_tracedec *d, enum ft_trace_event ev)
{
	return d->id[ev] >= 0;
}

typedef void (*ft_trace_rec_fn)(void *ctx, const struct ft_trace_rec *rec);

/*
 * Decode one sub-buffer of @len bytes read from CPU @cpu, calling @fn for
 * each record of a known event.  Returns the number of records passed to
 * @fn, or -EINVAL for a malformed sub-buffer (counted in d->bad).
 */
int ft_tracedec_subbuf(struct ft_tracedec *d, const void *buf, size_t len, int cpu,
		       ft_trace_rec_fn fn, void *ctx);

/* Name of a compaction status value ("success", ...), or NULL. */
const char *ft_tracedec_status_name(const struct ft_tracedec *d, int status);

#endif
