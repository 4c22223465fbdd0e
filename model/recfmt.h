/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recording format (model/RECORDING.md has the layout and the reasons):
 * a file header, then append-only chunks, each a fixed header with its own
 * CRC and a zstd-compressed payload with a CRC, holding records (type,
 * sub, length, time, bytes).  Index chunks every so often and an END chunk
 * on a clean close make seeking cheap; a file cut anywhere (SIGKILL, power
 * loss) is read by a linear scan up to its last complete chunk, and a
 * damaged header is skipped by searching for the next chunk magic.
 *
 * Pure: bytes come through a pread-like callback, so the reader runs on a
 * file, a buffer (tests, fuzzing) or anything else.  Every length read
 * from a file is checked before it sizes an allocation or an offset.
 */
#ifndef FT_MODEL_RECFMT_H
#define FT_MODEL_RECFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_REC_MAGIC		"FRAGTOP\0"
#define FT_REC_VERSION		1
#define FT_REC_FILE_HDR		48
#define FT_REC_CHUNK_HDR	48
#define FT_REC_CHUNK_MAGIC	0x4b435446u	/* "FTCK" little-endian */
#define FT_REC_CHUNK_MAX	(64u << 20)	/* raw or stored payload */
#define FT_REC_REC_HDR		16
#define FT_REC_INDEX_ENTRY	40
#define FT_REC_END_PAYLOAD	16

enum ft_rec_chunk_type {
	FT_RC_META = 1,		/* host facts, trace formats: read at open */
	FT_RC_DATA = 2,		/* ticks */
	FT_RC_INDEX = 3,	/* where the chunks since the previous index are */
	FT_RC_END = 4,		/* clean close: where the last index is */
};

/*
 * Chunk flags.  ZSTD: the payload is one zstd frame.  PREFIX: that frame
 * was compressed with the previous DATA chunk's raw payload as its prefix
 * (consecutive ticks differ in a few numbers: ~170 bytes a tick instead of
 * ~2.7 KB); a DATA chunk without it is a key chunk, and the writer makes
 * one every FT_REC_KEY_EVERY DATA chunks so that a seek or a damaged chunk
 * costs at most that many.
 */
enum { FT_RC_ZSTD = 1, FT_RC_PREFIX = 2 };
#define FT_REC_KEY_EVERY	30
#define FT_REC_CHAIN_MAX	1024	/* longest prefix chain a reader follows */

enum ft_rec_record_type {
	FT_RR_HOST = 1,		/* "key=value\n" lines */
	FT_RR_TICK = 2,		/* a tick starts; data: u64 CLOCK_REALTIME ns */
	FT_RR_PROC = 3,		/* sub: source (enum ft_source); the file's bytes */
	FT_RR_KNOB = 4,		/* sub: index in ft_knobs[]; the file's bytes */
	FT_RR_TRACE_FMT = 5,	/* "name\n" then the format text ("header_page" first) */
	FT_RR_TRACE_PAGE = 6,	/* sub: cpu; one ring-buffer sub-buffer */
	FT_RR_AUDIT = 7,	/* a control change, "key=value\n" lines */
	FT_RR_TRACE_LOST = 8,	/* data: u64 events lost so far */
	FT_RR_IOMEM = 9,	/* /proc/iomem's text (META) */
	FT_RR_KPF = 10,		/* u64 first PFN, then kpageflags words, then kpagecount words */
	FT_RR_NAME = 11,	/* u32 pid, then its command (<= 31 bytes), named when seen;
				 * sub FT_NAME_EXITED and no command: the process exited */
	FT_RR_BOOST = 12,	/* the boost sampler's tick (model/boost.h) */
	FT_RR_CGROUP =
		13,	/* u32 pid, then its cgroup's key (kernel/cgroup.h, < FT_CG_PATH bytes;
				 * older recordings: a path cut to 127), taken with its name */
	/* u32 pid (a thread), u32 its thread group id, taken with its name */
	FT_RR_GROUP = 14,
	FT_RR_SOURCE = 15,	/* sub: enum ft_rs; what the source says of itself (below) */
	/* multi-size THP's settings and counters, "<kB> <name> <value>" lines */
	FT_RR_THP = 16,
	FT_RR_KSYM = 17,	/* u64 a kernel address of a traced stack, then its name,
				 * "symbol+0xoff [module]" (< 64 bytes); META, once per file */
	FT_RR_OWNER = 18,	/* a look at one pageblock's page_owner: struct ft_rec_owner
				 * (below), then the pinning allocations' text as the kernel
				 * printed it (<= FT_REC_OWNER_TEXT bytes) */
	FT_RR_CGROUPS = 19,	/* the memory cgroups, pressure and pods: kernel/cgroup.h's text */
	/* u32 pid, then its /proc/PID/smaps_rollup text (<= FT_REC_SMAPS_TEXT bytes) */
	FT_RR_SMAPS = 20,
	FT_RR_KMSG = 21,	/* a /dev/kmsg record that is a page allocation failure, as read
				 * (< FT_KMSG_TEXT bytes; kernel/kmsg.h) */
};

#define FT_REC_SMAPS_TEXT	4096

/* An OWNER record's fixed part, little-endian, packed: 32 bytes. */
struct ft_rec_owner {
	uint64_t pfn;		/* the block's first PFN */
	uint32_t pages;		/* pages in the block */
	uint32_t entries;	/* allocations page_owner listed in it */
	uint64_t other_pages;	/* pages of those that do not pin it (not in the text) */
	uint32_t cut;		/* pinning allocations left out of the text (it was full) */
	uint32_t flags;		/* 0 */
};
#define FT_REC_OWNER_HDR	32
#define FT_REC_OWNER_TEXT	(64u << 10)
/*
 * An OWNER record with this sub is page_owner_stacks/show_stacks instead
 * (6.9+: every stack that owns pages, with its count): u32 flags (bit 0:
 * the text was cut at FT_REC_OWNER_STACKS_TEXT), then the text.
 */
#define FT_OWNER_STACKS		1
#define FT_OWNER_STACKS_CUT	1u
#define FT_REC_OWNER_STACKS_TEXT	(1u << 20)

/*
 * SOURCE records: the live source's own state, so the views read it from
 * the session like everything else.
 */
enum ft_rs {
	FT_RS_TRACE = 0,	/* i32: why tracing is off (-errno), 0: not asked for */
	FT_RS_MAP = 1,		/* i32: why there is no pageblock map (-errno), 0: fine */
	FT_RS_MEMORY = 2,	/* u64 MemTotal kB, u64 MemAvailable kB (/proc/meminfo) */
	FT_RS_MAPSCAN = 3,	/* f64 CPU share allowed, u64 rescans after fallbacks,
				 * u64 of them over 1 s late, u64 the latest lag in ns,
				 * u64 rescans put off for the budget */
	FT_RS_STACKS = 4,	/* i32 why the stacktrace trigger is off (-errno; 0: on),
				 * u32 stacks a second at most (--stacks) */
	FT_RS_OWNER = 5,	/* i32 why page_owner cannot be read (-errno), 0: it can */
	FT_RS_COST = 6,		/* fragtop's own cost so far: model/cost.h */
	/* text: what the kernel config check before the map found (kernel/kconfig.h) */
	FT_RS_MAP_CHECK = 7,
	/* u32: the reading fragtop's own process id: its rows are its own footprint */
	FT_RS_SELF = 8,
	FT_RS_KMSG = 9,		/* i32 why the kernel log cannot be read (-errno; 0: read from the
				 * start on), u64 records it overwrote before they were read */
};

#define FT_NAME_EXITED	1	/* a NAME record's sub: the pid's process exited */
#define FT_KPF_RESCAN	0x4000	/* a KPF record's sub bit: one block read out of turn, not a pass */
/*
 * A KPF record's sub bit: a sample of one block (u64 the block's first
 * PFN, then the words of FT_PB_SAMPLE_SPOTS runs spread over it, then
 * their kpagecount words; model/pageblock.h)
 */
#define FT_KPF_SAMPLE	0x2000

struct ft_rec_filehdr {
	uint32_t version;
	uint64_t created_realtime_ns;
	uint64_t created_mono_ns;
	/*
	 * A series of files `record --dir` writes: the recorder's id (that of
	 * its directory) and the file's place in the series, counted up from
	 * 1 whatever the clock does.  0 in a file outside a series (and in
	 * files of versions before the fields: they were reserved zeros).
	 */
	uint64_t series_id;
	uint32_t series_seq;
};

struct ft_rec_chunk {
	uint16_t type, flags;
	uint32_t seq;
	uint32_t raw_len, stored_len;
	uint32_t nr_records;
	uint64_t t_first, t_last;	/* CLOCK_MONOTONIC ns of its records */
	uint32_t payload_crc;
};

struct ft_rec_record {
	uint16_t type, sub;
	uint32_t len;
	uint64_t t_ns;
	const uint8_t *data;
};

uint32_t ft_crc32c(uint32_t crc, const void *buf, size_t len);

/* A record type's name ("KPF"), or "?" for one this build does not know. */
const char *ft_rec_type_name(unsigned int type);

void ft_rec_filehdr_encode(const struct ft_rec_filehdr *h, uint8_t out[FT_REC_FILE_HDR]);
/* 0, -EINVAL (not a recording), -EPROTONOSUPPORT (a newer version), -EBADMSG (CRC). */
int ft_rec_filehdr_decode(const uint8_t in[FT_REC_FILE_HDR], struct ft_rec_filehdr *h);

void ft_rec_chunk_encode(const struct ft_rec_chunk *c, uint8_t out[FT_REC_CHUNK_HDR]);
/* 0, -EINVAL (no magic), -EBADMSG (header CRC), -EFBIG (lengths past the bounds). */
int ft_rec_chunk_decode(const uint8_t in[FT_REC_CHUNK_HDR], struct ft_rec_chunk *c);

/* Records that belong in META chunks: host facts, trace formats, iomem, stack names. */
static inline bool ft_rec_is_meta(uint16_t type)
{
	return type == FT_RR_HOST || type == FT_RR_TRACE_FMT || type == FT_RR_IOMEM ||
	       type == FT_RR_KSYM;
}

/*
 * Next record of a raw payload from *@off on.  false at the end or on a
 * record that does not fit (*@bad is then set).
 */
bool ft_rec_next(const uint8_t *raw, size_t len, size_t *off, struct ft_rec_record *out, bool *bad);

/* Append a record to a buffer (the writer's); returns the bytes it takes. */
size_t ft_rec_record_size(size_t len);
void ft_rec_record_put(uint8_t *dst, uint16_t type, uint16_t sub, uint64_t t_ns,
		       const void *data, uint32_t len);

/* Where the reader gets bytes: like pread(2); returns bytes read or -errno. */
struct ft_rec_src {
	long (*pread)(void *ctx, void *buf, size_t n, uint64_t off);
	uint64_t size;
	void *ctx;
};

struct ft_rec_chunk_ref {
	uint64_t off;			/* of the chunk header */
	struct ft_rec_chunk c;
};

struct ft_rec_reader {
	struct ft_rec_src src;
	struct ft_rec_filehdr hdr;
	struct ft_rec_chunk_ref *chunks;	/* META, DATA and unknown types, file order */
	size_t nr, cap;
	bool clean;			/* an END chunk led to a complete index */
	bool truncated;			/* the file ends inside a chunk */
	uint64_t resyncs;		/* damaged headers skipped by searching */
	uint64_t skipped_bytes;
	uint64_t unknown;		/* chunks of types this version does not know */
	uint8_t *stored, *raw;		/* the last loaded chunk */
	size_t stored_cap, raw_cap;
	uint8_t *prev;			/* raw payload of DATA chunk prev_idx */
	size_t prev_len, prev_cap, prev_idx;	/* prev_idx == SIZE_MAX: none */
	void *dctx;			/* ZSTD_DCtx */
	char why[160];			/* the last problem, in words */
};

/*
 * Read the file header and build the chunk table: through the index
 * chain when an END chunk is present and sound, else by a linear scan
 * that stops at a cut and resynchronises past damaged headers.
 * 0 or -errno (not a recording, unreadable); r->why says what.
 */
int ft_rec_open(struct ft_rec_reader *r, struct ft_rec_src src);
void ft_rec_close(struct ft_rec_reader *r);

/*
 * Load chunk @i: read, check the payload CRC, decompress.  0 with *@raw,
 * *@len valid until the next load; -EBADMSG on a damaged chunk (skip it),
 * -errno otherwise.
 */
int ft_rec_load(struct ft_rec_reader *r, size_t i, const uint8_t **raw, size_t *len);

/* First DATA chunk whose records reach @t_ns (binary search); r->nr if none. */
size_t ft_rec_find(const struct ft_rec_reader *r, uint64_t t_ns);

#endif
