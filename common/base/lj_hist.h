/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_hist - log-linear latency histogram with bounded relative error. */
#ifndef LJ_HIST_H
#define LJ_HIST_H

#include <stdint.h>
#include <stddef.h>

/*
 * Values are ns (int64; negatives are clamped to 0 and counted in
 * 'negatives'). Buckets are log-linear: below 2^LJ_HIST_SUB_BITS every
 * value has its own bucket; above, each power of two is split into
 * 2^LJ_HIST_SUB_BITS equal buckets, so a bucket is at most 1/128 of its
 * lower bound wide and a reported value (the bucket's midpoint, clamped to
 * the exact min/max) is within LJ_HIST_MAX_REL_ERROR of the truth (in fact
 * within half of it). Values above LJ_HIST_MAX_NS (>= 100 s) go to the
 * overflow counter (and still count in min/max/count/sum).
 * docs/statistics.md describes the scheme.
 *
 * lj_hist_add is O(1), allocation-free and lock-free for its one writer
 * thread: it only touches plain fields of its own histogram.
 */
#define LJ_HIST_SUB_BITS 7
#define LJ_HIST_MAX_REL_ERROR 0.0078125	/* 1/128 */
#define LJ_HIST_MAX_NS (128LL * 1000000000LL)

struct lj_hist;

struct lj_hist *lj_hist_new(void);		/* NULL on ENOMEM */
void lj_hist_free(struct lj_hist *h);
/*
 * A histogram in memory the caller owns (for instance a mapping shared
 * with forked workers, which then need no copy to hand it back):
 * lj_hist_size() bytes aligned to LJ_HIST_ALIGN, all zero (fresh
 * anonymous pages are). lj_hist_init writes only the first fields, so
 * the bucket pages are touched when a sample first lands in them. Never
 * passed to lj_hist_free.
 */
#define LJ_HIST_ALIGN 64
size_t lj_hist_size(void);
struct lj_hist *lj_hist_init(void *zeroed);
void lj_hist_reset(struct lj_hist *h);
void lj_hist_add(struct lj_hist *h, int64_t ns);
/*
 * Add @n samples of value @ns at once (rebuilding a histogram from its
 * sparse JSON, replaying counts). Same rules as lj_hist_add.
 */
void lj_hist_add_n(struct lj_hist *h, int64_t ns, uint64_t n);
int lj_hist_merge(struct lj_hist *dst, const struct lj_hist *src);	/* dst += src */

uint64_t lj_hist_count(const struct lj_hist *h);
uint64_t lj_hist_overflows(const struct lj_hist *h);
uint64_t lj_hist_negatives(const struct lj_hist *h);	/* samples < 0, counted as 0 */
int64_t lj_hist_min(const struct lj_hist *h);	/* exact; 0 when empty */
int64_t lj_hist_max(const struct lj_hist *h);	/* exact; 0 when empty */
double lj_hist_sum(const struct lj_hist *h);	/* exact up to 2^53 */
double lj_hist_mean(const struct lj_hist *h);	/* exact (sum/count); 0 when empty */
/*
 * Population standard deviation (divides by count: the histogram holds
 * every sample of the run, not a sample of runs) from the exact integer sum
 * of squares; 0 with fewer than 2 samples, NAN if samples near 2^63 ns made
 * the sum of squares saturate.
 */
double lj_hist_stddev(const struct lj_hist *h);
/*
 * Value at quantile q in [0,1] (0.999 for p99.9); within the stated error.
 * The quantile is the nearest-rank sample (rank ceil(q * count), at least
 * 1): q = 0 gives the exact min, q = 1 the exact max. A rank that falls
 * among the overflows gives the exact max. 0 when empty.
 */
int64_t lj_hist_quantile(const struct lj_hist *h, double q);

/*
 * Walk the non-empty buckets in ascending order: @fn gets each bucket's
 * lower bound in ns and its count (for the sparse [[lower_ns, count]]
 * JSON and for plots). Overflows are not included.
 */
void lj_hist_foreach(const struct lj_hist *h,
		     void (*fn)(int64_t lower_ns, uint64_t count, void *arg), void *arg);

/*
 * Bucket index and bounds, for the unit tests and for readers of the JSON.
 * Buckets 0 .. lj_hist_nbuckets() - 1 are contiguous: bucket i covers
 * [lower(i), upper(i)); the last one holds LJ_HIST_MAX_NS.
 * lj_hist_bucket_of clamps negatives to bucket 0 and values above
 * LJ_HIST_MAX_NS to the last bucket.
 */
size_t lj_hist_nbuckets(void);
size_t lj_hist_bucket_of(int64_t ns);
int64_t lj_hist_bucket_lower(size_t idx);
int64_t lj_hist_bucket_upper(size_t idx);	/* exclusive */

#endif
