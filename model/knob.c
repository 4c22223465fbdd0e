// SPDX-License-Identifier: GPL-2.0-or-later
#include "model/knob.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>

#include "base/file.h"
#include "base/text.h"

const struct ft_knob ft_knobs[] = {
	{ .name = "watermark_boost_factor",
	  .path = "proc/sys/vm/watermark_boost_factor",
	  .type = FT_KNOB_INT, .min = 0, .max = INT_MAX, .step = 2500, .def = 15000,
	  .unit = "1/10000 of high wmark",
	  .help = "How far watermarks are boosted after a fragmenting fallback; 0 disables "
		  "boosting",
	  .since = "5.0" },
	{ .name = "watermark_scale_factor",
	  .path = "proc/sys/vm/watermark_scale_factor",
	  .type = FT_KNOB_INT, .min = 1, .max = 3000, .step = 10, .def = 10,
	  .unit = "1/10000 of memory",
	  .help = "Distance between the min, low and high watermarks" },
	{ .name = "min_free_kbytes",
	  .path = "proc/sys/vm/min_free_kbytes",
	  .type = FT_KNOB_INT, .min = 0, .max = INT_MAX, .step = 1024,
	  .def = FT_KNOB_NO_DEFAULT, .unit = "KiB",
	  .help = "Reserve behind the min watermark (default computed at boot)",
	  .drastic = true },
	{ .name = "extfrag_threshold",
	  .path = "proc/sys/vm/extfrag_threshold",
	  .type = FT_KNOB_INT, .min = 0, .max = 1000, .step = 50, .def = 500,
	  .unit = "fragmentation index x1000",
	  .help = "Compact rather than reclaim when the fragmentation index is above this" },
	{ .name = "compaction_proactiveness",
	  .path = "proc/sys/vm/compaction_proactiveness",
	  .type = FT_KNOB_INT, .min = 0, .max = 100, .step = 10, .def = 20,
	  .unit = "0-100",
	  .help = "How hard kcompactd compacts in the background",
	  .since = "5.9" },
	{ .name = "defrag_mode",
	  .path = "proc/sys/vm/defrag_mode",
	  .type = FT_KNOB_INT, .min = 0, .max = 1, .step = 1, .def = 0,
	  .unit = "bool",
	  .help = "Reclaim and compact rather than fragment pageblocks",
	  .since = "6.15" },
	{ .name = "fragment_stall_order",
	  .path = "proc/sys/vm/fragment_stall_order",
	  .type = FT_KNOB_INT, .min = 0, .max = 11, .step = 1, .def = 3,
	  .unit = "order",
	  .help = "Stall movable allocations that would fragment below this order",
	  .since = "the fragmentation stall patch" },
	{ .name = "compact_unevictable_allowed",
	  .path = "proc/sys/vm/compact_unevictable_allowed",
	  .type = FT_KNOB_INT, .min = 0, .max = 1, .step = 1, .def = 1,
	  .unit = "bool",
	  .help = "Let compaction migrate unevictable (mlocked) pages" },
	{ .name = "thp_enabled",
	  .path = "sys/kernel/mm/transparent_hugepage/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Transparent huge pages: always, madvise or never" },
	{ .name = "thp_defrag",
	  .path = "sys/kernel/mm/transparent_hugepage/defrag",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT,
	  .help = "How hard a THP fault reclaims and compacts" },
	{ .name = "compact_memory",
	  .path = "proc/sys/vm/compact_memory",
	  .type = FT_KNOB_TRIGGER, .min = 1, .max = 1, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Compact all zones of all nodes now", .drastic = true },
	{ .name = "compact_node",
	  .path = "sys/devices/system/node/node%d/compact",
	  .type = FT_KNOB_TRIGGER, .min = 0, .max = 1023, .def = FT_KNOB_NO_DEFAULT,
	  .per_node = true, .drastic = true,
	  .help = "Compact all zones of one node now (the value is the node)" },
	{ .name = "drop_caches",
	  .path = "proc/sys/vm/drop_caches",
	  .type = FT_KNOB_TRIGGER, .min = 1, .max = 3, .def = FT_KNOB_NO_DEFAULT,
	  .help = "Drop clean page cache (1), slab (2) or both (3): hurts performance",
	  .drastic = true },
	/*
	 * Multi-size THP, a knob per size as x86-64's 4 KiB pages give them
	 * (the kernel's words are read from the file, so a value is checked
	 * against what it lists).  Appended: a recording names knobs by
	 * their index here.
	 */
	{ .name = "thp_16kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-16kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 16 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_32kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-32kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 32 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_64kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 64 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_128kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-128kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 128 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_256kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-256kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 256 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_512kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-512kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 512 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_1024kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-1024kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 1024 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_2048kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.8 (multi-size THP)",
	  .help = "Anonymous THP of 2048 kB: always, inherit (thp_enabled), madvise or never" },
	{ .name = "thp_shmem_8kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-8kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 8 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_16kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-16kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 16 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_32kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-32kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 32 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_64kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 64 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_128kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-128kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 128 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_256kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-256kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 256 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_512kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-512kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 512 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_1024kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-1024kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 1024 kB: always, inherit, within_size, advise or never" },
	{ .name = "thp_shmem_2048kB",
	  .path = "sys/kernel/mm/transparent_hugepage/hugepages-2048kB/shmem_enabled",
	  .type = FT_KNOB_SELECT, .def = FT_KNOB_NO_DEFAULT, .since = "6.11 (multi-size shmem THP)",
	  .help = "shmem THP of 2048 kB: always, inherit, within_size, advise or never" },
};

const size_t ft_knobs_nr = sizeof(ft_knobs) / sizeof(ft_knobs[0]);

const struct ft_knob *ft_knob_find(const char *name)
{
	size_t i;

	if (!strncmp(name, "vm.", 3))
		name += 3;
	for (i = 0; i < ft_knobs_nr; i++)
		if (!strcmp(ft_knobs[i].name, name))
			return &ft_knobs[i];
	return NULL;
}

int ft_knob_parse(const struct ft_knob *k, const char *buf, size_t n, struct ft_knob_value *v)
{
	memset(v, 0, sizeof(*v));
	if (k->type == FT_KNOB_TRIGGER || k->per_node)
		return v->err = -EOPNOTSUPP;
	if (n > sizeof(v->raw))
		return v->err = -E2BIG;
	memcpy(v->raw, buf, n);
	v->raw_len = n;
	if (k->type == FT_KNOB_INT) {
		v->err = ft_sysfile_parse_int(buf, n, &v->num);
	} else {
		struct ft_span all = ft_span_trim((struct ft_span){ buf, n });
		struct ft_span tok;

		v->err = ft_sysfile_parse_selector(buf, n, &v->sel);
		/*
		 * A captured tree after `fragtop set --root`: a plain file holds
		 * just the word written.  The kernel always brackets one.
		 */
		if (v->err == -EINVAL && v->sel.nr_options == 1 && ft_tok_next(&all, &tok) &&
		    !ft_tok_next(&all, &tok) && !strpbrk(v->sel.options[0], "[]")) {
			v->sel.selected = 0;
			v->err = 0;
		}
	}
	return v->err;
}

void ft_knob_value_text(const struct ft_knob *k, const struct ft_knob_value *v,
			char *buf, size_t sz)
{
	if (!sz)
		return;
	buf[0] = '\0';
	if (v->err || k->type == FT_KNOB_TRIGGER)
		return;
	if (k->type == FT_KNOB_INT)
		snprintf(buf, sz, "%" PRId64, v->num);
	else if (v->sel.selected >= 0 && v->sel.selected < v->sel.nr_options)
		snprintf(buf, sz, "%s", v->sel.options[v->sel.selected]);
}

static void say(char *why, size_t sz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!why || !sz)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sz, fmt, ap);
	va_end(ap);
}

int ft_knob_validate(const struct ft_knob *k, const char *text,
		     const struct ft_knob_value *cur, char canon[FT_KNOB_TEXT],
		     int *node, char *why, size_t why_sz)
{
	struct ft_span s = { text, strlen(text) };
	int64_t v;
	int err, i;

	*node = -1;
	canon[0] = '\0';
	s = ft_span_trim(s);
	if (!s.len) {
		say(why, why_sz, "no value given");
		return -EINVAL;
	}
	if (k->type == FT_KNOB_SELECT) {
		char word[FT_KNOB_TEXT];

		if (ft_span_copy(&s, word, sizeof(word)) || strpbrk(word, " \t[]")) {
			say(why, why_sz, "'%.*s' is not an option name",
			    (int)(s.len > 40 ? 40 : s.len), s.p);
			return -EINVAL;
		}
		if (cur && !cur->err && cur->sel.nr_options) {
			char opts[FT_SEL_MAX_OPTIONS * (FT_SEL_NAME_LEN + 1)] = "";

			for (i = 0; i < cur->sel.nr_options; i++) {
				if (!strcmp(cur->sel.options[i], word))
					break;
				if (i)
					strcat(opts, ", ");
				strcat(opts, cur->sel.options[i]);
			}
			if (i == cur->sel.nr_options) {
				say(why, why_sz, "'%s' is not one of %s", word, opts);
				return -EINVAL;
			}
		}
		memcpy(canon, word, sizeof(word));
		return 0;
	}
	err = ft_span_i64(&s, &v);
	if (err == -ERANGE) {
		say(why, why_sz, "'%.*s' is out of range (%" PRId64 "..%" PRId64 ")",
		    (int)(s.len > 40 ? 40 : s.len), s.p, k->min, k->max);
		return -ERANGE;
	}
	if (err) {
		say(why, why_sz, "'%.*s' is not an integer", (int)(s.len > 40 ? 40 : s.len), s.p);
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		say(why, why_sz, "%" PRId64 " is %s %" PRId64 "%s", v,
		    v < k->min ? "below the minimum" : "above the maximum",
		    v < k->min ? k->min : k->max,
		    k->per_node ? " (a node number)" : "");
		return -ERANGE;
	}
	if (k->per_node) {
		*node = (int)v;
		strcpy(canon, "1");
	} else {
		snprintf(canon, FT_KNOB_TEXT, "%" PRId64, v);
	}
	return 0;
}

void ft_knob_range_text(const struct ft_knob *k, const struct ft_knob_value *v,
			char *buf, size_t sz)
{
	size_t n = 0;
	int i;

	if (!sz)
		return;
	buf[0] = '\0';
	if (k->type == FT_KNOB_SELECT) {
		for (i = 0; !v->err && i < v->sel.nr_options && n < sz; i++)
			n += (size_t)snprintf(buf + n, sz - n, "%s%s", i ? " " : "",
					      v->sel.options[i]);
	} else if (k->per_node) {
		snprintf(buf, sz, "node number");
	} else if (k->min == k->max) {
		snprintf(buf, sz, "%" PRId64, k->min);
	} else if (k->max == INT_MAX) {
		snprintf(buf, sz, ">= %" PRId64, k->min);
	} else {
		snprintf(buf, sz, "%" PRId64 "..%" PRId64, k->min, k->max);
	}
}

void ft_knob_path(const struct ft_knob *k, int node, char *buf, size_t sz)
{
	/* a per-node path has "%d" where the node goes; never used as a format */
	const char *at = k->per_node ? strstr(k->path, "%d") : NULL;

	if (at)
		snprintf(buf, sz, "%.*s%d%s", (int)(at - k->path), k->path, node < 0 ? 0 : node,
			 at + 2);
	else
		snprintf(buf, sz, "%s", k->path);
}

const char *ft_knob_strerror(const struct ft_knob *k, int err, char *buf, size_t sz)
{
	switch (-err) {
	case ENOENT:
		if (k && k->since)
			snprintf(buf, sz, "absent on this kernel (needs %s)", k->since);
		else
			snprintf(buf, sz, "absent on this kernel");
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, sz, "permission denied (needs root)");
		break;
	case EROFS:
		snprintf(buf, sz, "read-only file system (a container's /proc/sys?)");
		break;
	case EINVAL:
		snprintf(buf, sz, "the kernel rejected the value");
		break;
	case ENXIO:	/* a FIFO nobody reads, opened for writing */
		snprintf(buf, sz, "%s", ft_file_strerror(-EBADFD));
		break;
	default:	/* the tree's own cases: a FIFO, a link */
		snprintf(buf, sz, "%s", ft_file_strerror(err));
	}
	return buf;
}

bool ft_knob_per_size(const struct ft_knob *k)
{
	return strstr(k->path, "/hugepages-") != NULL;
}
