// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the crafted recordings of tests/recordings/crafted/: small files
 * that ask a reader for much work or memory.  Each stops growing at about
 * 1 MB on disk.  tests/cli/crafted.sh holds report, export and replay of
 * each within 5 s of CPU and 256 MB of address space; the files are kept
 * (and seed the recording fuzzer's corpus), this program says how they
 * were made: `make crafted` writes them again.
 *
 *   ticks      ticks of the idle 6.18 capture's four /proc texts, 90k+
 *   audits     control changes, one a record
 *   formats    the same event format again and again
 *   trace      one real sub-buffer of extfrag events, again and again
 *   map        a zone claimed to span 2^39 pages, and whole-block KPF
 *              batches that decompress to gigabytes
 *   samples    map samples of every block of a 1 TiB zone, again and again
 *   kmsg       (tests/recordings/forged/kmsg.ftr, small) the kernel log as
 *              read: one real warn_alloc() record, and the forged forms
 *              that are no failure (user space's, the phrase echoed in
 *              another message, a line cut before its mode)
 *   extremes   (tests/recordings/forged/extremes.ftr, small) the idle
 *              capture's texts with every figure replaced, tick by tick,
 *              by 2^64-1, 0 or 2^63-1, the ticks 1 ns apart: rates,
 *              shares and means at the ends of a double (huge, 0/0)
 *
 * usage: crafted KIND OUT [ADVERSE_RECORDING]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/recwriter.h"
#include "model/pageblock.h"
#include "model/recfmt.h"
#include "tests/memsrc.h"

#define FIX "tests/fixtures/6.18-idle/proc/"
#define LIMIT (1u << 20)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(1 << 20);
	size_t n;

	if (!f || !buf) {
		fprintf(stderr, "crafted: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void must(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "crafted: %s: %s\n", what, strerror(-err));
		exit(1);
	}
}

static uint64_t on_disk(struct ft_recw *w)
{
	return w->file_bytes;
}

static const char host[] = "hostname=crafted\nrelease=6.18\npage_size=4096\npageblock_order=9\n";

/* A tick of the fixture's texts (zoneinfo replaced by @zoneinfo when given). */
static void tick(struct ft_recw *w, uint64_t t, const char *zoneinfo)
{
	static const char *const src[] = { "zoneinfo", "buddyinfo", "pagetypeinfo", "vmstat" };
	static char *text[4];
	static size_t len[4];
	uint64_t rt = t;
	int i;

	for (i = 0; i < 4; i++) {
		char path[128];

		if (!text[i]) {
			snprintf(path, sizeof(path), FIX "%s", src[i]);
			text[i] = slurp(path, &len[i]);
		}
		if (i == 0 && zoneinfo)
			must(ft_recw_add(w, FT_RR_PROC, 0, t, zoneinfo, strlen(zoneinfo)),
			     "zoneinfo");
		else
			must(ft_recw_add(w, FT_RR_PROC, (uint16_t)i, t, text[i], len[i]), src[i]);
	}
	must(ft_recw_add(w, FT_RR_TICK, 0, t, &rt, 8), "tick");
}

/* Whether the digits at @p (in @line) name a thing (a node, an order, a cpu), not a figure. */
static bool names(const char *line, const char *p)
{
	static const char *const heads[] = { "Page block order", "Pages per block",
					     "Free pages count",
					     "Number of " };
	const char *q = p;
	size_t i;

	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strncmp(line, heads[i], strlen(heads[i])))
			return true;
	while (q > line && q[-1] == ' ')
		q--;
	return (q - line >= 4 && !strncmp(q - 4, "Node", 4)) ||
	(q - line >= 4 && !strncmp(q - 4, "cpu:", 4));
}

/* @text with every figure (a run of digits that names nothing) replaced by @num (a new string). */
static char *renumbered(const char *text, const char *num)
{
	const char *line = text;
	size_t n = 0;
	char *out = malloc(strlen(text) * 20 + 1);

	while (*text) {
		if (*text >= '0' && *text <= '9' && !names(line, text)) {
			while (*text >= '0' && *text <= '9')
				text++;
			n += (size_t)sprintf(out + n, "%s", num);
		} else if (*text >= '0' && *text <= '9') {
			while (*text >= '0' && *text <= '9')
				out[n++] = *text++;
		} else {
			if (*text == '\n')
				line = text + 1;
			out[n++] = *text++;
		}
	}
	out[n] = '\0';
	return out;
}

/* A tick whose every /proc number is @num (the words and the layout kept). */
static void tick_of(struct ft_recw *w, uint64_t t, const char *num)
{
	static const char *const src[] = { "zoneinfo", "buddyinfo", "pagetypeinfo", "vmstat" };
	int i;

	for (i = 0; i < 4; i++) {
		char path[128], *text, *out;
		size_t len;

		snprintf(path, sizeof(path), FIX "%s", src[i]);
		text = slurp(path, &len);
		out = renumbered(text, num);
		must(ft_recw_add(w, FT_RR_PROC, (uint16_t)i, t, out, strlen(out)), src[i]);
		free(out);
		free(text);
	}
	must(ft_recw_add(w, FT_RR_TICK, 0, t, &t, 8), "tick");
}

/* The idle capture's zoneinfo with its Normal zone spanning @pages. */
static char *big_zone(uint64_t pages)
{
	size_t len;
	char *z = slurp(FIX "zoneinfo", &len), *out = malloc(len + 256), *p, *q;
	size_t n = 0;
	bool normal = false;

	for (p = z; *p; p = q) {
		q = strchr(p, '\n');
		q = q ? q + 1 : p + strlen(p);
		if (!strncmp(p, "Node ", 5))
			normal = strstr(p, "Normal") && strstr(p, "Normal") < q;
		if (normal &&
		    (strstr(p, "        spanned ") == p || strstr(p, "        present ") == p)) {
			n += (size_t)sprintf(out + n, "        %.7s %llu\n", p + 8,
					     (unsigned long long)pages);
			continue;
		}
		memcpy(out + n, p, (size_t)(q - p));
		n += (size_t)(q - p);
	}
	out[n] = '\0';
	free(z);
	return out;
}

/* The formats and the first big sub-buffer of a real recording. */
static uint8_t *fmt;	/* the extfrag event's format record, as recorded */
static size_t fmt_len;

static void from_recording(const char *path, struct ft_recw *w, uint8_t **page, size_t *page_len,
			   uint16_t *cpu)
{
	struct ft_rec_reader r;
	struct stat st;
	struct ft_memsrc m;
	uint8_t *all;
	int fd = open(path, O_RDONLY);
	size_t i;

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "crafted: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	all = malloc((size_t)st.st_size);
	if (!all || read(fd, all, (size_t)st.st_size) != st.st_size)
		exit(1);
	close(fd);
	m = (struct ft_memsrc){ .p = all, .len = (size_t)st.st_size };
	must(ft_rec_open(&r, ft_memsrc(&m)),
	     "open the recording");
	*page = NULL;
	for (i = 0; i < r.nr; i++) {
		const uint8_t *raw;
		size_t len, off = 0;
		struct ft_rec_record rec;
		bool bad;

		if (ft_rec_load(&r, i, &raw, &len))
			continue;
		while (ft_rec_next(raw, len, &off, &rec, &bad)) {
			if (rec.type == FT_RR_TRACE_FMT) {
				must(ft_recw_add_meta(w, rec.type, rec.sub, 1, rec.data, rec.len),
				     "format");
				if (!fmt && rec.len > 27 &&
				    !memcmp(rec.data, "kmem/mm_page_alloc_extfrag\n", 27)) {
					fmt = malloc(rec.len);
					memcpy(fmt, rec.data, rec.len);
					fmt_len = rec.len;
				}
			}
			if (rec.type == FT_RR_TRACE_PAGE && !*page && rec.len > 2048) {
				*page = malloc(rec.len);
				memcpy(*page, rec.data, rec.len);
				*page_len = rec.len;
				*cpu = rec.sub;
			}
		}
	}
	ft_rec_close(&r);
	free(all);
	if (!*page) {
		fprintf(stderr, "crafted: no trace page in %s\n", path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct ft_recw w;
	const char *kind = argc > 2 ? argv[1] : "";
	uint64_t t = 1000000000ull, i;

	if (argc < 3) {
		fprintf(stderr, "usage: crafted "
				"ticks|audits|formats|trace|map|samples|kmsg|extremes OUT "
				"[RECORDING]\n");
		return 2;
	}
	must(ft_recw_open(&w, argv[2], true), argv[2]);
	w.sync = false;
	must(ft_recw_add_meta(&w, FT_RR_HOST, 0, 1, host, sizeof(host) - 1), "host");
	if (!strcmp(kind, "ticks")) {
		for (i = 0; on_disk(&w) < LIMIT; i++, t += 1000000) {
			tick(&w, t, NULL);
			if (i % 512 == 0)
				must(ft_recw_flush(&w), "chunk");
		}
	} else if (!strcmp(kind, "audits")) {
		tick(&w, t, NULL);
		for (i = 0; on_disk(&w) < LIMIT; i++) {
			char a[128];
			int n = snprintf(a, sizeof(a), "knob=watermark_boost_factor\nold=%llu\n"
						       "new=%llu\nwho=crafted\n",
					 (unsigned long long)i, (unsigned long long)i + 1);

			must(ft_recw_add(&w, FT_RR_AUDIT, 0, t + i, a, (size_t)n), "audit");
			if (i % 4096 == 0)
				must(ft_recw_flush(&w), "chunk");
		}
		tick(&w, t + 2000000000ull, NULL);
	} else if (!strcmp(kind, "formats") || !strcmp(kind, "trace")) {
		uint8_t *page;
		size_t page_len;
		uint16_t cpu;

		if (argc < 4) {
			fprintf(stderr, "crafted: %s needs a recording with trace pages\n", kind);
			return 2;
		}
		from_recording(argv[3], &w, &page, &page_len, &cpu);
		if (!fmt) {
			fprintf(stderr, "crafted: no extfrag format in %s\n", argv[3]);
			return 1;
		}
		tick(&w, t, NULL);
		for (i = 0; on_disk(&w) < LIMIT; i++) {
			if (!strcmp(kind, "trace"))
				must(ft_recw_add(&w, FT_RR_TRACE_PAGE, cpu, t + i, page, page_len),
				     "page");
			else
				must(ft_recw_add_meta(&w, FT_RR_TRACE_FMT, 0, t + i, fmt, fmt_len),
				     "format");
			if (i % 1024 == 0) {
				tick(&w, t + i + 1, NULL);
				must(ft_recw_flush(&w), "chunk");
			}
		}
		free(page);
	} else if (!strcmp(kind, "map") || !strcmp(kind, "samples")) {
		bool samples = !strcmp(kind, "samples");
		char *zi = big_zone(samples ? 1ull << 28 : 1ull << 39);
		uint64_t first = 0x100000 >> 9, words = samples ? FT_PB_SAMPLE_WORDS : 64 << 9;
		uint8_t *rec = calloc(1, 8 + words * 16);

		tick(&w, t, zi);
		for (i = 0; on_disk(&w) < LIMIT; i++) {
			uint64_t block = first +
				(samples ? i % (1u << 19) : (i * 64) % (1ull << 30));
			uint64_t pfn = block << 9;

			memcpy(rec, &pfn, 8);
			must(ft_recw_add(&w, FT_RR_KPF,
					 (uint16_t)(2 | (samples ? FT_KPF_SAMPLE : 0)), t + i, rec,
					 8 + words * 16), "kpf");
			if (i % 256 == 0)
				tick(&w, t + i + 1, zi);
		}
		free(rec);
		free(zi);
	} else if (!strcmp(kind, "kmsg")) {
		static const char *const recs[] = {
			"4,7712,123456789,-;fio: page allocation failure: order:4, "
			"mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO), "
			"nodemask=(null),cpuset=/,mems_allowed=0\n",
			"12,7713,123456790,-;fio: page allocation failure: order:5, "
			"mode:0x40dc0(GFP_KERNEL)\n",
			"3,7714,123456791,-;tmpfs: Unknown parameter 'x: page allocation failure: "
			"order:10'\n",
			"4,7715,123456792,-;fio: page allocation failure: order:7",
		};
		uint8_t state[12] = { 0 };	/* the log read (err 0), nothing lost */

		for (i = 0; i < 3; i++) {
			must(ft_recw_add(&w, FT_RR_SOURCE, FT_RS_KMSG, t, state, sizeof(state)),
			     "kmsg source");
			if (i == 1)
				for (size_t r = 0; r < sizeof(recs) / sizeof(recs[0]); r++)
					must(ft_recw_add(&w, FT_RR_KMSG, 0, t, recs[r],
							 strlen(recs[r])), "kmsg");
			tick(&w, t, NULL);
			t += 1000000000ull;
		}
	} else if (!strcmp(kind, "extremes")) {
		static const char *const nums[] = { "18446744073709551615", "0",
						    "9223372036854775807", "1" };

		tick(&w, t, NULL);
		for (i = 0; i < 16; i++)
			tick_of(&w, t + (1 + i) * 1000000000ull, nums[i % 4]);
		tick(&w, t + 17000000000ull, NULL);
	} else {
		fprintf(stderr, "crafted: no kind '%s'\n", kind);
		return 2;
	}
	must(ft_recw_close(&w), "close");
	return 0;
}
