// SPDX-License-Identifier: GPL-2.0-or-later
#include "kernel/tracedec.h"

#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ringbuf.h"
#include "base/text.h"

const struct ft_trace_event_def ft_trace_events[FT_EV_NR] = {
	[FT_EV_EXTFRAG]			= { "kmem", "mm_page_alloc_extfrag" },
	[FT_EV_FRAG_STALL]		= { "kmem", "mm_fragmentation_stall" },
	[FT_EV_COMPACT_BEGIN]		= { "compaction", "mm_compaction_begin" },
	[FT_EV_COMPACT_END]		= { "compaction", "mm_compaction_end" },
	[FT_EV_COMPACT_SUITABLE]	= { "compaction", "mm_compaction_suitable" },
	[FT_EV_COMPACT_DEFERRED]	= { "compaction", "mm_compaction_deferred" },
	[FT_EV_COMPACT_KCOMPACTD_WAKE]	= { "compaction", "mm_compaction_kcompactd_wake" },
	[FT_EV_COMPACT_MIGRATEPAGES]	= { "compaction", "mm_compaction_migratepages" },
	[FT_EV_COMPACT_TRY]		= { "compaction", "mm_compaction_try_to_compact_pages" },
	[FT_EV_COMPACT_DEFER_RESET]	= { "compaction", "mm_compaction_defer_reset" },
	[FT_EV_RECLAIM_BEGIN]		= { "vmscan", "mm_vmscan_direct_reclaim_begin" },
	[FT_EV_RECLAIM_END]		= { "vmscan", "mm_vmscan_direct_reclaim_end" },
	[FT_EV_WAKEUP_KSWAPD]		= { "vmscan", "mm_vmscan_wakeup_kswapd" },
	[FT_EV_KSWAPD_WAKE]		= { "vmscan", "mm_vmscan_kswapd_wake" },
	[FT_EV_KSWAPD_SLEEP]		= { "vmscan", "mm_vmscan_kswapd_sleep" },
	[FT_EV_COMPACT_ISO_MIGRATE]	= { "compaction", "mm_compaction_isolate_migratepages" },
	[FT_EV_COMPACT_ISO_FREE]	= { "compaction", "mm_compaction_isolate_freepages" },
};

int ft_tracedec_init(struct ft_tracedec *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < FT_EV_NR; i++)
		d->id[i] = -1;
	d->stack_type = -1;
	d->tep = tep_alloc();
	if (!d->tep)
		return -ENOMEM;
	tep_set_long_size(d->tep, 8);
	tep_set_page_size(d->tep, 4096);
	tep_set_file_bigendian(d->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(d->tep, TEP_LITTLE_ENDIAN);
	return 0;
}

void ft_tracedec_release(struct ft_tracedec *d)
{
	if (d->tep)
		tep_free(d->tep);
	d->tep = NULL;
}

int ft_tracedec_header_page(struct ft_tracedec *d, const char *buf, size_t len)
{
	char *copy;
	int err;

	/* libtraceevent wants a mutable buffer */
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	err = tep_parse_header_page(d->tep, copy, len, 8);
	free(copy);
	if (err)
		return -EINVAL;
	d->have_header = true;
	return 0;
}

static int get_field(struct tep_event *ev, const char *name, struct ft_field *f)
{
	struct tep_format_field *tf = tep_find_any_field(ev, name);

	if (!tf || tf->offset < 0 || (tf->size != 1 && tf->size != 2 &&
				      tf->size != 4 && tf->size != 8))
		return -EINVAL;
	f->offset = tf->offset;
	f->size = tf->size;
	f->is_signed = tf->flags & TEP_FIELD_IS_SIGNED;
	f->present = true;
	return 0;
}

/* What libtraceevent gets instead of an event's own print format. */
#define BLANK_PRINT_FMT	"print fmt: \"\"\n"

/* {1, "skipped"}, {2, "deferred"}, ... after "__print_symbolic(REC->@field," */
static void parse_status_names(struct ft_tracedec *d, const char *fmt, const char *field)
{
	char key[48];
	const char *p;

	snprintf(key, sizeof(key), "__print_symbolic(REC->%s,", field);
	p = strstr(fmt, key);

	d->nr_status = 0;
	while (p && d->nr_status < FT_MAX_STATUS) {
		const char *q, *e;
		char *end;
		long v;

		p = strchr(p, '{');
		if (!p)
			break;
		v = strtol(p + 1, &end, 0);
		if (end == p + 1)
			break;
		q = strchr(end, '"');
		e = q ? strchr(q + 1, '"') : NULL;
		if (!e || (size_t)(e - q - 1) >= sizeof(d->status_name[0]))
			break;
		d->status_val[d->nr_status] = (int)v;
		memcpy(d->status_name[d->nr_status], q + 1, (size_t)(e - q - 1));
		d->status_name[d->nr_status][e - q - 1] = '\0';
		d->nr_status++;
		p = e;
	}
}

/* Which of fragtop's events a format text describes ("name: EVENT" first), or -1. */
static int format_kind(const char *system, const char *buf, size_t len)
{
	int i;

	for (i = 0; i < FT_EV_NR; i++) {
		size_t n = strlen(ft_trace_events[i].event);

		if (strcmp(system, ft_trace_events[i].system))
			continue;
		/* "name: mm_page_alloc_extfrag\n" */
		if (len > 6 + n && !memcmp(buf, "name: ", 6) &&
		    !memcmp(buf + 6, ft_trace_events[i].event, n) &&
		    (buf[6 + n] == '\n' || buf[6 + n] == '\r'))
			return i;
	}
	if (!strcmp(system, "ftrace") && len > 18 && !memcmp(buf, "name: kernel_stack", 18) &&
	    (buf[18] == '\n' || buf[18] == '\r'))
		return FT_EV_KERNEL_STACK;
	return -1;
}

/*
 * The event's fields, by libtraceevent, into *@ev; @copy (len + the blank
 * print fmt's bytes) holds the original text after.  libtraceevent gets
 * the fields only: fragtop never prints an event, and its parser of
 * "print fmt" expressions crashes on some hostile texts (a recording is
 * untrusted).  The compaction status names are read from the text by
 * parse_status_names(), which bounds everything.  0 or -EINVAL.
 */
static int format_fields(struct ft_tracedec *d, const char *system, const char *buf, size_t len,
			 char *copy,
			 struct tep_event **ev)
{
	char *pf;
	size_t keep;

	memcpy(copy, buf, len);
	copy[len] = '\0';
	pf = strstr(copy, "\nprint fmt:");
	keep = pf ? (size_t)(pf - copy) + 1 : len;
	memcpy(copy + keep, BLANK_PRINT_FMT, sizeof(BLANK_PRINT_FMT));
	if (tep_parse_format(d->tep, ev, copy, keep + sizeof(BLANK_PRINT_FMT) - 1, system) || !*ev)
		return -EINVAL;
	/* the status names are in the original text */
	memcpy(copy, buf, len);
	copy[len] = '\0';
	return 0;
}

/*
 * The fields fragtop reads of an event of @kind (@text: its format, for status names). 0 or
 * -EINVAL.
 */
static int kind_fields(struct ft_tracedec *d, struct tep_event *ev, int kind, const char *text)
{
	int err = 0;

	switch (kind) {
	case FT_EV_EXTFRAG:
		err = err ?: get_field(ev, "pfn", &d->f_pfn);
		err = err ?: get_field(ev, "alloc_order", &d->f_alloc_order);
		err = err ?: get_field(ev, "fallback_order", &d->f_fallback_order);
		err = err ?: get_field(ev, "alloc_migratetype", &d->f_alloc_mt);
		err = err ?: get_field(ev, "fallback_migratetype", &d->f_fallback_mt);
		err = err ?: get_field(ev, "change_ownership", &d->f_change_ownership);
		break;
	case FT_EV_FRAG_STALL:
		err = err ?: get_field(ev, "nid", &d->f_nid);
		err = err ?: get_field(ev, "duration", &d->f_duration);
		break;
	/* optional fields: without them the zone's node is not known */
	case FT_EV_COMPACT_BEGIN:
		d->f_zone_start = (struct ft_field){ 0 };
		get_field(ev, "zone_start", &d->f_zone_start);
		break;
	case FT_EV_COMPACT_END:
		err = get_field(ev, "status", &d->f_status);
		d->f_zone_start = (struct ft_field){ 0 };
		get_field(ev, "zone_start", &d->f_zone_start);
		if (!err)
			parse_status_names(d, text, "status");
		break;
	case FT_EV_COMPACT_SUITABLE:
		err = get_field(ev, "ret", &d->f_ret);
		d->f_cnid = (struct ft_field){ 0 };
		get_field(ev, "nid", &d->f_cnid);
		/* the same table as the end's; the end's format wins when both are given */
		if (!err && !d->nr_status)
			parse_status_names(d, text, "ret");
		break;
	case FT_EV_COMPACT_DEFERRED:
		d->f_cnid = (struct ft_field){ 0 };
		get_field(ev, "nid", &d->f_cnid);
		break;
	case FT_EV_KSWAPD_WAKE:
	case FT_EV_COMPACT_KCOMPACTD_WAKE:
		err = err ?: get_field(ev, "nid",
				       &d->f_wake_nid[kind == FT_EV_COMPACT_KCOMPACTD_WAKE]);
		err = err ?: get_field(ev, "order",
				       &d->f_order[kind == FT_EV_COMPACT_KCOMPACTD_WAKE]);
		break;
	case FT_EV_COMPACT_ISO_MIGRATE:
	case FT_EV_COMPACT_ISO_FREE: {
		int k = kind == FT_EV_COMPACT_ISO_FREE;

		err = err ?: get_field(ev, "start_pfn", &d->f_iso_start[k]);
		err = err ?: get_field(ev, "end_pfn", &d->f_iso_end[k]);
		err = err ?: get_field(ev, "nr_scanned", &d->f_iso_scanned[k]);
		err = err ?: get_field(ev, "nr_taken", &d->f_iso_taken[k]);
		break;
	}
	/* "int size", then "unsigned long caller[8]" (as many as size says) */
	case FT_EV_KERNEL_STACK: {
		struct tep_format_field *tf = tep_find_any_field(ev, "caller");

		err = get_field(ev, "size", &d->f_stack_size);
		if (!err && (!tf || tf->offset < 0 || tf->offset > 64))
			err = -EINVAL;
		if (!err)
			d->f_stack_caller = (struct ft_field){ .offset = tf->offset, .size = 8,
							       .present = true };
		break;
	}
	default:
		break;
	}
	return err;
}

/* Where the extfrag fields end in a record (0: one is missing). */
static void extfrag_end(struct ft_tracedec *d)
{
	const struct ft_field *f[] = { &d->f_pfn, &d->f_alloc_order, &d->f_fallback_order,
				       &d->f_alloc_mt, &d->f_fallback_mt, &d->f_change_ownership };

	d->extfrag_end = 0;
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		if (!f[k]->present) {
			d->extfrag_end = 0;
			break;
		}
		if (f[k]->offset + f[k]->size > d->extfrag_end)
			d->extfrag_end = f[k]->offset + f[k]->size;
	}
}

int ft_tracedec_format(struct ft_tracedec *d, const char *system, const char *buf, size_t len)
{
	struct tep_event *ev = NULL;
	struct ft_field ct, cp;
	int kind = format_kind(system, buf, len), err;
	char *copy;

	if (kind < 0)
		return -ENOENT;
	copy = malloc(len + sizeof(BLANK_PRINT_FMT));
	if (!copy)
		return -ENOMEM;
	err = format_fields(d, system, buf, len, copy, &ev);
	if (!err && (get_field(ev, "common_type", &ct) || get_field(ev, "common_pid", &cp)))
		err = -EINVAL;
	if (!err)
		err = kind_fields(d, ev, kind, copy);
	free(copy);
	if (err)
		return err;
	d->common_type_off = ct.offset;
	d->common_type_size = ct.size;
	d->common_pid_off = cp.offset;
	if (kind == FT_EV_KERNEL_STACK) {
		d->stack_type = ev->id;
		return 0;
	}
	d->id[kind] = ev->id;
	if (ev->id >= 0 && ev->id < FT_TRACE_IDS)
		d->kind_of[ev->id] = (uint8_t)(kind + 1);
	if (kind == FT_EV_EXTFRAG)
		extfrag_end(d);
	return 0;
}

/* A field known to lie within the record (the caller checked its end). */
static inline int64_t field_in(const unsigned char *data, const struct ft_field *f)
{
	data += f->offset;
	switch (f->size) {
	case 1:
		return f->is_signed ? (int64_t)(int8_t)data[0] : (int64_t)data[0];
	case 2: {
		uint16_t v;

		memcpy(&v, data, 2);
		return f->is_signed ? (int64_t)(int16_t)v : (int64_t)v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, data, 4);
		return f->is_signed ? (int64_t)(int32_t)v : (int64_t)v;
	}
	default: {
		uint64_t v;

		memcpy(&v, data, 8);
		return (int64_t)v;
	}
	}
}

static int64_t field(const unsigned char *data, unsigned int size, const struct ft_field *f,
		     bool *ok)
{
	if (!f->present || (unsigned int)(f->offset + f->size) > size) {
		*ok = false;
		return 0;
	}
	return field_in(data, f);
}

/* An optional field: @dflt when the format lacks it or the record is too short for it. */
static int64_t opt_field(const unsigned char *data, unsigned int size, const struct ft_field *f,
			 int64_t dflt)
{
	bool ok = true;
	int64_t v = f->present ? field(data, size, f, &ok) : dflt;

	return ok ? v : dflt;
}

/* A kernel_stack record: its frames (as many as its size says and its length holds) to on_stack. */
static void stack_rec(struct ft_tracedec *d, const unsigned char *rec, unsigned int size,
		      uint64_t ts,
		      int cpu, void *ctx)
{
	struct ft_trace_stack st = { .ts = ts, .cpu = cpu };
	bool ok = true;
	int64_t n = field(rec, size, &d->f_stack_size, &ok);
	unsigned int off = (unsigned int)d->f_stack_caller.offset, room;
	int i;

	if (!ok || n < 0 || off > size) {
		d->bad++;
		return;
	}
	room = (size - off) / 8;
	st.all = n < (int64_t)room ? (int)n : (int)room;
	st.n = st.all < FT_STACK_DEPTH ? st.all : FT_STACK_DEPTH;
	for (i = 0; i < st.n; i++)
		memcpy(&st.ip[i], rec + off + 8 * (unsigned int)i, 8);
	d->on_stack(ctx, &st);
}

/* The fields of a record of kind r->kind into *@r; *@ok false if one lies past its @size bytes. */
static inline void rec_fields(const struct ft_tracedec *d, const unsigned char *rec, uint32_t size,
			      struct ft_trace_rec *r, bool *ok)
{
	switch (r->kind) {
	case FT_EV_EXTFRAG:
		/* the usual: all there */
		if (d->extfrag_end && size >= (unsigned int)d->extfrag_end) {
			r->u.extfrag.pfn = (uint64_t)field_in(rec, &d->f_pfn);
			r->u.extfrag.alloc_order = (int)field_in(rec, &d->f_alloc_order);
			r->u.extfrag.fallback_order = (int)field_in(rec, &d->f_fallback_order);
			r->u.extfrag.alloc_mt = (int)field_in(rec, &d->f_alloc_mt);
			r->u.extfrag.fallback_mt = (int)field_in(rec, &d->f_fallback_mt);
			r->u.extfrag.change_ownership = (int)field_in(rec, &d->f_change_ownership);
			break;
		}
		r->u.extfrag.pfn = (uint64_t)field(rec, size, &d->f_pfn, ok);
		r->u.extfrag.alloc_order = (int)field(rec, size, &d->f_alloc_order, ok);
		r->u.extfrag.fallback_order = (int)field(rec, size, &d->f_fallback_order, ok);
		r->u.extfrag.alloc_mt = (int)field(rec, size, &d->f_alloc_mt, ok);
		r->u.extfrag.fallback_mt = (int)field(rec, size, &d->f_fallback_mt, ok);
		r->u.extfrag.change_ownership = (int)field(rec, size, &d->f_change_ownership, ok);
		break;
	case FT_EV_FRAG_STALL:
		r->u.stall.nid = (int)field(rec, size, &d->f_nid, ok);
		r->u.stall.duration_us = (uint64_t)field(rec, size, &d->f_duration, ok);
		break;
	case FT_EV_COMPACT_END:
		r->u.compact.status = (int)field(rec, size, &d->f_status, ok);
		/* fall through */
	case FT_EV_COMPACT_BEGIN:
		r->u.compact.zone_start = (uint64_t)opt_field(rec, size, &d->f_zone_start,
							     (int64_t)UINT64_MAX);
		break;
	case FT_EV_COMPACT_SUITABLE:
		r->u.compact.status = (int)field(rec, size, &d->f_ret, ok);
		/* fall through */
	case FT_EV_COMPACT_DEFERRED:
		r->u.compact.nid = (int)opt_field(rec, size, &d->f_cnid, -1);
		break;
	case FT_EV_KSWAPD_WAKE:
	case FT_EV_COMPACT_KCOMPACTD_WAKE:
		r->u.wake.nid = (int)field(rec, size,
					   &d->f_wake_nid[r->kind == FT_EV_COMPACT_KCOMPACTD_WAKE],
					   ok);
		r->u.wake.order = (int)field(rec, size,
					     &d->f_order[r->kind == FT_EV_COMPACT_KCOMPACTD_WAKE],
					     ok);
		break;
	case FT_EV_COMPACT_ISO_MIGRATE:
	case FT_EV_COMPACT_ISO_FREE: {
		int k = r->kind == FT_EV_COMPACT_ISO_FREE;

		r->u.iso.start_pfn = (uint64_t)field(rec, size, &d->f_iso_start[k], ok);
		r->u.iso.end_pfn = (uint64_t)field(rec, size, &d->f_iso_end[k], ok);
		r->u.iso.scanned = (uint64_t)field(rec, size, &d->f_iso_scanned[k], ok);
		r->u.iso.taken = (uint64_t)field(rec, size, &d->f_iso_taken[k], ok);
		break;
	}
	default:
		break;
	}
}

/* The kind of event type @id, or -1: not one of fragtop's. */
static inline int rec_kind(const struct ft_tracedec *d, int id)
{
	int kind;

	if (id >= 0 && id < FT_TRACE_IDS)
		return d->kind_of[id] - 1;
	for (kind = 0; kind < FT_EV_NR; kind++)
		if (d->id[kind] == id)
			return kind;
	return -1;
}

int ft_tracedec_subbuf(struct ft_tracedec *d, const void *buf, size_t len, int cpu,
		       ft_trace_rec_fn fn, void *ctx)
{
	const unsigned char *p = buf, *rec;
	struct ft_rb_page pg;
	uint64_t commit, ts;
	uint32_t size;
	int n = 0;

	/* header: u64 timestamp, long commit; the data size is in the low bits */
	if (!d->have_header || len < 16 || len > (1u << 20))
		goto bad;
	memcpy(&commit, p + 8, 8);
	if ((commit & ((1u << 27) - 1)) > len - 16)
		goto bad;
	if (ft_rb_load(&pg, buf, len))
		goto bad;
	if (pg.lost > 0)
		d->missed += (uint64_t)pg.lost;
	else if (pg.lost < 0)
		d->missed_unknown++;
	while ((rec = ft_rb_next(&pg, &size, &ts))) {
		struct ft_trace_rec r;
		bool ok = true;
		int id, kind;

		d->walked++;
		if (size < 8 || rec + size > p + len || rec < p) {
			d->bad++;
			break;
		}
		id = (int)field(rec, size, &(struct ft_field){
			.offset = d->common_type_off, .size = d->common_type_size,
			.present = true }, &ok);
		if (ok && id == d->stack_type && d->stack_type >= 0) {
			if (d->on_stack)
				stack_rec(d, rec, size, ts, cpu, ctx);
			continue;
		}
		kind = rec_kind(d, id);
		if (kind < 0)
			continue;
		memset(&r, 0, sizeof(r));
		r.kind = kind;
		r.ts = ts;
		r.cpu = cpu;
		r.pid = (int)field(rec, size, &(struct ft_field){
			.offset = d->common_pid_off, .size = 4, .is_signed = true,
			.present = true }, &ok);
		rec_fields(d, rec, size, &r, &ok);
		if (!ok) {
			d->bad++;
			continue;
		}
		fn(ctx, &r);
		n++;
	}
	if (pg.bad)
		d->bad++;
	return n;
bad:
	d->bad++;
	return -EINVAL;
}

const char *ft_tracedec_status_name(const struct ft_tracedec *d, int status)
{
	int i;

	for (i = 0; i < d->nr_status; i++)
		if (d->status_val[i] == status)
			return d->status_name[i];
	return NULL;
}
