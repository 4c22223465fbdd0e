/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watermark boost as a fast sampler sees it.  A fragmenting fallback
 * boosts its zone's watermarks (fragmentation avoidance v2, patches 2-3),
 * kswapd reclaims and the boost drops back to 0 within milliseconds, so a
 * once-a-tick read of zoneinfo almost never sees it.  The sampler reads
 * each zone's boost many times a tick (50 Hz by default); this module
 * folds those reads into one compact record per tick (per zone: reads,
 * reads that found it boosted, episodes started, peak), which a recording
 * keeps instead of the raw reads.  Pure: text and numbers in, numbers out.
 */
#ifndef FT_MODEL_BOOST_H
#define FT_MODEL_BOOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FT_BOOST_ZONES	64	/* zones of zoneinfo followed, in its order */

/* One zone over one tick (or, summed, over a window). */
struct ft_boost_tick {
	uint32_t samples;	/* reads, at the full rate's weight */
	uint32_t boosted;	/* of them, found boost > 0 */
	uint32_t episodes;	/* boost went from 0 to > 0, or fell and rose again */
	uint64_t peak;		/* pages */
};

/* What the sampler keeps between ticks. */
struct ft_boost_acc {
	int nr;					/* zones seen in the last read */
	struct ft_boost_tick z[FT_BOOST_ZONES];	/* this tick so far */
	bool was_boosted[FT_BOOST_ZONES];	/* at the last read (episodes span ticks) */
	uint64_t last[FT_BOOST_ZONES];		/* the value at the last read */
};

/*
 * The "boost" of every zone of a zoneinfo text, in its order, into @out
 * (at most @max); zones without the line (kernels before 5.0) read 0.
 * Returns the number of zones, or -EINVAL if the text has none.
 */
int ft_boost_scan(const char *buf, size_t len, uint64_t *out, int max);

/*
 * One read of every zone, standing for @weight reads at the full rate (a
 * sampler that slows down while nothing happens counts each read for the
 * ones it skipped, so samples and boosted stay shares of time).
 */
void ft_boost_acc_add(struct ft_boost_acc *a, const uint64_t *boost, int nr, uint32_t weight);

/* Fold zone @src into a window's sum (peak: the larger). */
void ft_boost_sum(struct ft_boost_tick *sum, const struct ft_boost_tick *src);

/* The share of @t's reads that found the zone boosted, 0..1 (0 without reads). */
double ft_boost_share(const struct ft_boost_tick *t);

/*
 * The tick's record: u16 zones, then per zone u32 samples, boosted,
 * episodes and u64 peak (little-endian, 20 bytes a zone).  Returns its
 * length; @a's per-tick counts start again.
 */
size_t ft_boost_encode(struct ft_boost_acc *a, uint8_t *out, size_t sz);

/* Decode a record into @out (at most @max zones): the number of zones, or -EINVAL. */
int ft_boost_decode(const uint8_t *p, size_t len, struct ft_boost_tick *out, int max);

/*
 * The largest boost the kernel allows a zone now: max(pageblock,
 * high * factor / 10000), with high the base high watermark (zoneinfo
 * prints it with the boost added; @boost_now is taken off).  0 when the
 * factor is 0 (boosting off).
 */
uint64_t ft_boost_ceiling(uint64_t high_printed, uint64_t boost_now, int64_t factor,
			  int pageblock_order);

#endif
