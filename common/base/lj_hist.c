// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_hist - log-linear latency histogram with bounded relative error. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lj_hist.h"
#include "lj_hot.h"

#define SUB_COUNT (1ULL << LJ_HIST_SUB_BITS)

/*
 * Index scheme: with msb the highest set bit of v and shift = max(msb -
 * SUB_BITS, 0), index = (shift << SUB_BITS) + (v >> shift). For v < 256
 * this is v itself (one bucket per ns); above, v >> shift lies in
 * [128, 256), so each octave [2^msb, 2^(msb+1)) gets 128 buckets of width
 * 2^shift, and consecutive octaves continue where the previous ended.
 */
#define TOP_MSB 36		/* highest set bit of LJ_HIST_MAX_NS */
#define TOP_SHIFT (TOP_MSB - LJ_HIST_SUB_BITS)
#define NBUCKETS (((size_t)TOP_SHIFT << LJ_HIST_SUB_BITS) + \
		  (size_t)(LJ_HIST_MAX_NS >> TOP_SHIFT) + 1)

_Static_assert((1LL << TOP_MSB) <= LJ_HIST_MAX_NS && LJ_HIST_MAX_NS < (1LL << (TOP_MSB + 1)),
	       "TOP_MSB must be the highest bit of LJ_HIST_MAX_NS");

/*
 * The sum and the sum of squares are kept as exact integers so that mean
 * and stddev stay exact for any run length: a 64-bit sum of squares
 * overflows after ~1.8e9 samples of 100 us, a double loses the low bits
 * long before. In-range squares are below 2^74, so a 128-bit sum cannot
 * overflow in practice; only samples near 2^63 ns (overflows) can
 * saturate it. Targets without __int128 (32-bit) fall back to long double.
 */
#ifdef __SIZEOF_INT128__
#define WIDE_EXACT 1
typedef unsigned __int128 wide_t;
#define WIDE_MAX (~(wide_t)0)
#else
#define WIDE_EXACT 0
typedef long double wide_t;
#define WIDE_MAX HUGE_VALL
#endif

struct lj_hist {
	uint64_t count;		/* all samples, overflows included */
	uint64_t overflows;
	uint64_t negatives;
	uint64_t min, max;	/* min is UINT64_MAX while empty */
	wide_t sum, sumsq;
	uint64_t bucket[NBUCKETS];
};

static inline size_t bucket_index(uint64_t v)
{
	/*
	 * shift = max(msb - SUB_BITS, 0) without a compare: v | 255 has its
	 * highest bit at max(msb, 7), so 56 - clz(v | 255) is that minus 7.
	 */
	unsigned int shift = (63 - LJ_HIST_SUB_BITS) - __builtin_clzll(v | ((SUB_COUNT << 1) - 1));

	return ((size_t)shift << LJ_HIST_SUB_BITS) + (size_t)(v >> shift);
}

static wide_t wide_add_sat(wide_t a, wide_t b)
{
#if WIDE_EXACT
	wide_t r;

	if (__builtin_add_overflow(a, b, &r))
		return WIDE_MAX;
	return r;
#else
	return a + b;
#endif
}

static wide_t wide_mul_sat(wide_t a, wide_t b)
{
#if WIDE_EXACT
	wide_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return WIDE_MAX;
	return r;
#else
	return a * b;
#endif
}

struct lj_hist *lj_hist_new(void)
{
	struct lj_hist *h = calloc(1, sizeof(*h));

	if (h)
		h->min = UINT64_MAX;
	return h;
}

_Static_assert(LJ_HIST_ALIGN % _Alignof(struct lj_hist) == 0, "LJ_HIST_ALIGN too small");

size_t lj_hist_size(void)
{
	return sizeof(struct lj_hist);
}

struct lj_hist *lj_hist_init(void *zeroed)
{
	struct lj_hist *h = zeroed;

	h->min = UINT64_MAX;
	return h;
}

void lj_hist_free(struct lj_hist *h)
{
	free(h);
}

void lj_hist_reset(struct lj_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* Everything but the bucket: shared by the hot path and the slow ones. */
static inline void account(struct lj_hist *h, uint64_t v, uint64_t n)
{
	h->count += n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Out of line so that lj_hist_add's common path stays short. */
static void LJ_HOT __attribute__((noinline)) add_overflow(struct lj_hist *h, uint64_t v, uint64_t n)
{
	wide_t sq = wide_mul_sat(wide_mul_sat((wide_t)v, (wide_t)v), (wide_t)n);

	h->overflows += n;
	h->sum = wide_add_sat(h->sum, wide_mul_sat((wide_t)v, (wide_t)n));
	h->sumsq = wide_add_sat(h->sumsq, sq);
	account(h, v, n);
}

/* A negative sample (counted, then added as 0) or one above the range. */
static void LJ_HOT __attribute__((noinline)) add_outside(struct lj_hist *h, int64_t ns)
{
	if (ns >= 0) {
		add_overflow(h, (uint64_t)ns, 1);
		return;
	}
	h->negatives++;
	h->bucket[0]++;
	account(h, 0, 1);
}

void LJ_HOT lj_hist_add(struct lj_hist *h, int64_t ns)
{
	uint64_t v = (uint64_t)ns;

	/* One compare for both rare cases: a negative is above the range as unsigned. */
	if (__builtin_expect(v > (uint64_t)LJ_HIST_MAX_NS, 0)) {
		add_outside(h, ns);
		return;
	}
	h->bucket[bucket_index(v)]++;
	/* v <= 2^37: neither sum can overflow within any possible run */
	h->sum += v;
	h->sumsq += (wide_t)v * v;
	account(h, v, 1);
}

void lj_hist_add_n(struct lj_hist *h, int64_t ns, uint64_t n)
{
	uint64_t v;

	if (!n)
		return;
	if (ns < 0) {
		h->negatives += n;
		ns = 0;
	}
	v = (uint64_t)ns;
	if (v > (uint64_t)LJ_HIST_MAX_NS) {
		add_overflow(h, v, n);
		return;
	}
	h->bucket[bucket_index(v)] += n;
	h->sum = wide_add_sat(h->sum, wide_mul_sat((wide_t)v, (wide_t)n));
	h->sumsq = wide_add_sat(h->sumsq, wide_mul_sat((wide_t)v * v, (wide_t)n));
	account(h, v, n);
}

int lj_hist_merge(struct lj_hist *dst, const struct lj_hist *src)
{
	size_t i;

	if (!dst || !src)
		return -EINVAL;
	if (!src->count)
		return 0;
	for (i = 0; i < NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->overflows += src->overflows;
	dst->negatives += src->negatives;
	dst->sum = wide_add_sat(dst->sum, src->sum);
	dst->sumsq = wide_add_sat(dst->sumsq, src->sumsq);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

uint64_t lj_hist_count(const struct lj_hist *h)
{
	return h->count;
}

uint64_t lj_hist_overflows(const struct lj_hist *h)
{
	return h->overflows;
}

uint64_t lj_hist_negatives(const struct lj_hist *h)
{
	return h->negatives;
}

int64_t lj_hist_min(const struct lj_hist *h)
{
	return h->count ? (int64_t)h->min : 0;
}

int64_t lj_hist_max(const struct lj_hist *h)
{
	return h->count ? (int64_t)h->max : 0;
}

double lj_hist_sum(const struct lj_hist *h)
{
	return (double)h->sum;
}

double lj_hist_mean(const struct lj_hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)((long double)h->sum / (long double)h->count);
}

double lj_hist_stddev(const struct lj_hist *h)
{
	long double n = (long double)h->count, var;

	if (h->count < 2)
		return 0.0;
	if (h->sumsq == WIDE_MAX)
		return NAN;
#if WIDE_EXACT
	{
		/*
		 * n * sumsq - sum^2 is an exact integer while it fits, so the
		 * cancellation between the two terms costs nothing.
		 */
		wide_t a, b;

		if (!__builtin_mul_overflow(h->sumsq, (wide_t)h->count, &a) &&
		    !__builtin_mul_overflow(h->sum, h->sum, &b)) {
			var = (long double)(a - b) / (n * n);
			return (double)sqrtl(var);
		}
	}
#endif
	/* long double: 64-bit mantissa keeps ~1e-9 relative accuracy even
	 * when the mean is 1e5 times the stddev */
	{
		long double mean = (long double)h->sum / n;

		var = (long double)h->sumsq / n - mean * mean;
	}
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

/*
 * Nearest rank ceil(q * count), tolerating the representation error of q:
 * 0.99 * 100 must give rank 99, not 100, although 0.99 is not exact in
 * binary. The tolerance (count * 2^-50) is far below one rank.
 */
static uint64_t nearest_rank(double q, uint64_t count)
{
	long double x = (long double)q * (long double)count;
	long double fl = floorl(x);
	uint64_t r = (uint64_t)fl;

	if (x - fl > (long double)count * 0x1p-50L)
		r++;
	if (r < 1)
		r = 1;
	if (r > count)
		r = count;
	return r;
}

int64_t lj_hist_quantile(const struct lj_hist *h, double q)
{
	uint64_t rank, seen = 0;
	size_t i;

	if (!h->count)
		return 0;
	if (!(q > 0.0))		/* also catches NaN */
		return (int64_t)h->min;
	if (q >= 1.0)
		return (int64_t)h->max;
	rank = nearest_rank(q, h->count);
	for (i = 0; i < NBUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			int64_t lo = lj_hist_bucket_lower(i);
			int64_t mid = lo + (lj_hist_bucket_upper(i) - lo) / 2;

			if (mid < (int64_t)h->min)
				mid = (int64_t)h->min;
			if (mid > (int64_t)h->max)
				mid = (int64_t)h->max;
			return mid;
		}
	}
	return (int64_t)h->max;	/* the rank lies among the overflows */
}

void lj_hist_foreach(const struct lj_hist *h,
		     void (*fn)(int64_t lower_ns, uint64_t count, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < NBUCKETS; i++)
		if (h->bucket[i])
			fn(lj_hist_bucket_lower(i), h->bucket[i], arg);
}

size_t lj_hist_nbuckets(void)
{
	return NBUCKETS;
}

size_t lj_hist_bucket_of(int64_t ns)
{
	if (ns < 0)
		return 0;
	if (ns > LJ_HIST_MAX_NS)
		return NBUCKETS - 1;
	return bucket_index((uint64_t)ns);
}

int64_t lj_hist_bucket_lower(size_t idx)
{
	size_t shift;

	if (idx < 2 * SUB_COUNT)
		return (int64_t)idx;
	shift = (idx >> LJ_HIST_SUB_BITS) - 1;
	return (int64_t)((SUB_COUNT + (idx & (SUB_COUNT - 1))) << shift);
}

int64_t lj_hist_bucket_upper(size_t idx)
{
	size_t shift = idx < 2 * SUB_COUNT ? 0 : (idx >> LJ_HIST_SUB_BITS) - 1;

	return lj_hist_bucket_lower(idx) + (1LL << shift);
}
