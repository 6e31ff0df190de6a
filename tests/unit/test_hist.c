// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hist - log-linear histogram: buckets, exact fields, quantile error bound, merge. */
#include <errno.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lj_hist.h"
#include "tap.h"

/* splitmix64: a fixed seed makes every run test the same samples */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static double rng_unit(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

enum dist { UNIFORM, EXPONENTIAL, LOGNORMAL, PARETO, BIMODAL, NDIST };
static const char *const dist_name[NDIST] = {
	"uniform", "exponential", "lognormal", "pareto", "bimodal"
};

static int64_t draw(enum dist d)
{
	double u = rng_unit(), x;

	switch (d) {
	case UNIFORM:		/* 0 .. 1 ms: exercises the exact region too */
		return (int64_t)(rng_next() % 1000001);
	case EXPONENTIAL:	/* mean 50 us */
		return (int64_t)(-50000.0 * log(u));
	case LOGNORMAL:		/* median ~20 us, sigma 1.5: spans decades */
		x = sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * rng_unit());
		return (int64_t)(20000.0 * exp(1.5 * x));
	case PARETO:		/* alpha 1.1 from 2 us: heavy tail up to seconds */
		x = 2000.0 / pow(u, 1.0 / 1.1);
		return x > 1e11 ? 100000000000LL : (int64_t)x;
	case BIMODAL:		/* 10 us and 5 ms modes, like a hit/miss latency */
		x = (rng_next() & 1) ? 10000.0 : 5000000.0;
		return (int64_t)(x * (1.0 + 0.1 * (rng_unit() - 0.5)));
	default:
		return 0;
	}
}

static void test_empty(void)
{
	struct lj_hist *h = lj_hist_new();

	ok(h != NULL, "lj_hist_new allocates");
	if (!h)
		exit(1);
	is_int(lj_hist_count(h), 0, "empty: count 0");
	is_int(lj_hist_min(h), 0, "empty: min 0");
	is_int(lj_hist_max(h), 0, "empty: max 0");
	is_near(lj_hist_mean(h), 0.0, 0.0, "empty: mean 0");
	is_near(lj_hist_stddev(h), 0.0, 0.0, "empty: stddev 0");
	is_int(lj_hist_quantile(h, 0.5), 0, "empty: p50 0");
	is_int(lj_hist_overflows(h), 0, "empty: no overflows");
	lj_hist_free(h);
}

static void count_cb(int64_t lower, uint64_t count, void *arg)
{
	uint64_t *acc = arg;

	acc[0] += count;
	acc[1]++;
	if ((uint64_t)lower < acc[2])
		acc[3] = 1;	/* not ascending */
	acc[2] = (uint64_t)lower;
}

static void test_empty_foreach(void)
{
	struct lj_hist *h = lj_hist_new();
	uint64_t acc[4] = { 0 };

	lj_hist_foreach(h, count_cb, acc);
	is_int(acc[1], 0, "empty: foreach visits no bucket");
	lj_hist_free(h);
}

static void test_single(void)
{
	struct lj_hist *h = lj_hist_new();
	double qs[] = { 0.0, 0.001, 0.5, 0.99, 1.0 };
	size_t i;
	int same = 1;

	lj_hist_add(h, 123457);
	is_int(lj_hist_count(h), 1, "single: count 1");
	is_int(lj_hist_min(h), 123457, "single: min exact");
	is_int(lj_hist_max(h), 123457, "single: max exact");
	is_near(lj_hist_mean(h), 123457.0, 0.0, "single: mean exact");
	is_near(lj_hist_stddev(h), 0.0, 0.0, "single: stddev 0");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		same &= lj_hist_quantile(h, qs[i]) == 123457;
	ok(same, "single: every quantile is the value (clamped to min/max)");
	lj_hist_free(h);
}

static void test_boundaries(void)
{
	int64_t vals[80];
	size_t n = 0, i, nb = lj_hist_nbuckets();
	int k, in_bucket = 1, step = 1, exact = 1;
	struct lj_hist *h = lj_hist_new();

	vals[n++] = 0;
	vals[n++] = 1;
	vals[n++] = 127;
	vals[n++] = 128;
	for (k = 8; k <= 36; k++) {
		vals[n++] = (1LL << k) - 1;
		vals[n++] = 1LL << k;
	}
	vals[n++] = LJ_HIST_MAX_NS;
	for (i = 0; i < n; i++) {
		size_t b = lj_hist_bucket_of(vals[i]);

		if (!(lj_hist_bucket_lower(b) <= vals[i] && vals[i] < lj_hist_bucket_upper(b))) {
			diag("%" PRId64 " not in bucket %zu", vals[i], b);
			in_bucket = 0;
		}
	}
	ok(in_bucket, "boundary values lie in [lower, upper) of their bucket");
	for (k = 8; k <= 36; k++) {
		size_t below = lj_hist_bucket_of((1LL << k) - 1), at = lj_hist_bucket_of(1LL << k);

		if (at != below + 1 || lj_hist_bucket_lower(at) != 1LL << k)
			step = 0;
	}
	ok(step, "a power of two starts a new bucket");
	is_int(lj_hist_bucket_of(0), 0, "0 is bucket 0");
	is_int(lj_hist_bucket_of(127), 127, "127 has its own bucket");
	is_int(lj_hist_bucket_of(128), 128, "128 has its own bucket");
	is_int(lj_hist_bucket_of(255), 255, "below 256 a bucket is one ns");
	is_int(lj_hist_bucket_of(256), lj_hist_bucket_of(257), "256 and 257 share a 2 ns bucket");
	is_int(lj_hist_bucket_of(LJ_HIST_MAX_NS), nb - 1, "LJ_HIST_MAX_NS is in the last bucket");
	ok(LJ_HIST_MAX_NS >= 100LL * 1000000000LL, "range reaches at least 100 s");
	for (i = 0; i < n; i++) {
		lj_hist_reset(h);
		lj_hist_add(h, vals[i]);
		if (lj_hist_min(h) != vals[i] || lj_hist_max(h) != vals[i] ||
		    lj_hist_quantile(h, 0.5) != vals[i] || lj_hist_overflows(h))
			exact = 0;
	}
	ok(exact, "each boundary value alone: exact min, max, p50, no overflow");
	lj_hist_free(h);
}

static void test_bounds_contiguous(void)
{
	size_t nb = lj_hist_nbuckets(), i;
	int contiguous = 1, self = 1, narrow = 1;

	ok(nb * sizeof(uint64_t) <= 64 * 1024, "bucket array is a few tens of KiB");
	is_int(lj_hist_bucket_lower(0), 0, "bucket 0 starts at 0");
	for (i = 0; i < nb; i++) {
		int64_t lo = lj_hist_bucket_lower(i), up = lj_hist_bucket_upper(i);

		if (i + 1 < nb && up != lj_hist_bucket_lower(i + 1))
			contiguous = 0;
		if (lj_hist_bucket_of(lo) != i || lj_hist_bucket_of(up - 1) != i)
			self = 0;
		/* width <= lower / 128 bounds the error of any value in it */
		if (up - lo > 1 && (double)(up - lo) > lo * LJ_HIST_MAX_REL_ERROR)
			narrow = 0;
	}
	ok(contiguous, "upper(i) == lower(i + 1) for every bucket");
	ok(self, "bucket_of(lower(i)) == bucket_of(upper(i) - 1) == i");
	ok(narrow, "every bucket is at most 1/128 of its lower bound wide");
	ok(lj_hist_bucket_upper(nb - 1) > LJ_HIST_MAX_NS, "last bucket ends above LJ_HIST_MAX_NS");
}

/* Nearest rank ceil(q * n) with q = num / den, in integers: no rounding doubt. */
static size_t rank_of(uint64_t num, uint64_t den, size_t n)
{
	uint64_t r = (num * n + den - 1) / den;

	return r < 1 ? 1 : r;
}

static void test_distribution(enum dist d)
{
	static const struct { uint64_t num, den; } qs[] = {
		{ 0, 1 }, { 1, 100 }, { 1, 10 }, { 1, 4 }, { 1, 2 }, { 9, 10 },
		{ 99, 100 }, { 999, 1000 }, { 9999, 10000 }, { 1, 1 },
	};
	const size_t n = 100000;
	int64_t *s = malloc(n * sizeof(*s));
	struct lj_hist *h = lj_hist_new();
	long double sum = 0, mean, ss = 0;
	double worst = 0.0;
	size_t i, j;
	char name[96];

	if (!s || !h)
		exit(1);
	rng_state = 0x1234 + d;
	for (i = 0; i < n; i++) {
		s[i] = draw(d);
		lj_hist_add(h, s[i]);
		sum += s[i];
	}
	qsort(s, n, sizeof(*s), cmp_i64);
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (s[i] - mean) * (s[i] - mean);
	for (j = 0; j < sizeof(qs) / sizeof(qs[0]); j++) {
		double q = (double)qs[j].num / (double)qs[j].den;
		int64_t want = s[rank_of(qs[j].num, qs[j].den, n) - 1];
		int64_t got = lj_hist_quantile(h, q);
		double err = want ? fabs((double)(got - want)) / (double)want : (double)(got != 0);

		if (err > worst)
			worst = err;
		if (err > LJ_HIST_MAX_REL_ERROR)
			diag("%s q=%g: want %" PRId64 " got %" PRId64, dist_name[d], q, want, got);
	}
	snprintf(name, sizeof(name), "%s: quantiles within 1/128 of the exact ones (worst %.5f)",
		 dist_name[d], worst);
	ok(worst <= LJ_HIST_MAX_REL_ERROR, name);
	snprintf(name, sizeof(name), "%s: count, min, max exact", dist_name[d]);
	ok(lj_hist_count(h) == n && lj_hist_min(h) == s[0] && lj_hist_max(h) == s[n - 1], name);
	snprintf(name, sizeof(name), "%s: sum exact, mean and stddev to 1e-12", dist_name[d]);
	ok(lj_hist_sum(h) == (double)sum &&
	   fabs(lj_hist_mean(h) - (double)mean) <= 1e-12 * (double)mean &&
	   fabs(lj_hist_stddev(h) - (double)sqrtl(ss / n)) <= 1e-12 * (double)sqrtl(ss / n), name);
	free(s);
	lj_hist_free(h);
}

struct walk {
	int64_t lower[8192];
	uint64_t count[8192];
	size_t n;
};

static void walk_cb(int64_t lower, uint64_t count, void *arg)
{
	struct walk *w = arg;

	if (w->n < 8192) {
		w->lower[w->n] = lower;
		w->count[w->n] = count;
	}
	w->n++;
}

/* A histogram in caller-owned zeroed memory: the same answers, and only its first page touched by init. */
static void test_in_place(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = lj_hist_size();
	size_t npages = (len + page - 1) / page, resident = 0, i;
	unsigned char vec[64];
	void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lj_hist *h, *ref = lj_hist_new();
	double qs[] = { 0.0, 0.5, 0.9, 0.99, 0.999, 1.0 };
	int same = 1;

	ok(mem != MAP_FAILED && npages <= sizeof(vec), "in place: the histogram's bytes mapped");
	if (mem == MAP_FAILED || npages > sizeof(vec))
		exit(1);
	h = lj_hist_init(mem);
	ok(!mincore(mem, len, vec), "in place: mincore");
	for (i = 0; i < npages; i++)
		resident += vec[i] & 1;
	ok(npages > 1 && resident == 1, "in place: init touches one page of several");
	is_int(lj_hist_count(h), 0, "in place: empty count 0");
	is_int(lj_hist_min(h), 0, "in place: empty min 0");
	rng_state = 7;
	for (i = 0; i < 20000; i++) {
		int64_t v = draw(i % 2 ? LOGNORMAL : PARETO);

		lj_hist_add(h, v);
		lj_hist_add(ref, v);
	}
	ok(lj_hist_count(h) == lj_hist_count(ref) && lj_hist_min(h) == lj_hist_min(ref) &&
	   lj_hist_max(h) == lj_hist_max(ref) && lj_hist_sum(h) == lj_hist_sum(ref) &&
	   lj_hist_stddev(h) == lj_hist_stddev(ref), "in place: count, min, max, sum, stddev as on the heap");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		same &= lj_hist_quantile(h, qs[i]) == lj_hist_quantile(ref, qs[i]);
	ok(same, "in place: quantiles as on the heap");
	lj_hist_free(ref);
	munmap(mem, len);
}

static void test_merge(void)
{
	struct lj_hist *a = lj_hist_new(), *b = lj_hist_new(), *all = lj_hist_new();
	static struct walk wm, wa;
	double qs[] = { 0.0, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0 };
	size_t i;
	int same_q = 1;

	rng_state = 42;
	for (i = 0; i < 50000; i++) {
		int64_t v = draw(i % 3 ? LOGNORMAL : PARETO);

		if (i % 7 == 0)
			v += 200000000000LL;	/* some overflows on both sides */
		lj_hist_add(i % 2 ? a : b, v);
		lj_hist_add(all, v);
	}
	lj_hist_add(b, -3);
	lj_hist_add(all, -3);
	is_int(lj_hist_merge(a, b), 0, "merge returns 0");
	is_int(lj_hist_merge(NULL, b), -EINVAL, "merge into NULL is -EINVAL");
	is_int(lj_hist_count(a), lj_hist_count(all), "merge: count of the union");
	is_int(lj_hist_overflows(a), lj_hist_overflows(all), "merge: overflows of the union");
	is_int(lj_hist_negatives(a), 1, "merge: negatives of the union");
	ok(lj_hist_min(a) == lj_hist_min(all) && lj_hist_max(a) == lj_hist_max(all),
	   "merge: min and max of the union");
	ok(lj_hist_sum(a) == lj_hist_sum(all) && lj_hist_stddev(a) == lj_hist_stddev(all),
	   "merge: sum and stddev of the union");
	lj_hist_foreach(a, walk_cb, &wm);
	lj_hist_foreach(all, walk_cb, &wa);
	ok(wm.n == wa.n && wm.n <= 8192 &&
	   !memcmp(wm.lower, wa.lower, wm.n * sizeof(wm.lower[0])) &&
	   !memcmp(wm.count, wa.count, wm.n * sizeof(wm.count[0])),
	   "merge: every bucket equals the union's");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		same_q &= lj_hist_quantile(a, qs[i]) == lj_hist_quantile(all, qs[i]);
	ok(same_q, "merge: quantiles equal the union's");
	lj_hist_reset(b);
	is_int(lj_hist_merge(a, b), 0, "merging an empty histogram");
	is_int(lj_hist_count(a), lj_hist_count(all), "merging an empty histogram changes nothing");
	lj_hist_free(a);
	lj_hist_free(b);
	lj_hist_free(all);
}

static void test_overflow(void)
{
	struct lj_hist *h = lj_hist_new();
	uint64_t acc[4] = { 0 };
	double sd;
	int i;

	lj_hist_add(h, 1000);
	lj_hist_add(h, LJ_HIST_MAX_NS);
	lj_hist_add(h, LJ_HIST_MAX_NS + 1);
	lj_hist_add(h, 300LL * 1000000000LL);
	is_int(lj_hist_count(h), 4, "overflow: counted in count");
	is_int(lj_hist_overflows(h), 2, "overflow: values above LJ_HIST_MAX_NS counted, not the limit");
	is_int(lj_hist_max(h), 300LL * 1000000000LL, "overflow: max exact");
	is_near(lj_hist_sum(h), 1000.0 + 2.0 * LJ_HIST_MAX_NS + 1.0 + 300e9, 0.0,
		"overflow: in the sum");
	is_int(lj_hist_quantile(h, 1.0), 300LL * 1000000000LL, "overflow: p100 is the max");
	is_int(lj_hist_quantile(h, 0.9), 300LL * 1000000000LL,
	       "overflow: a rank among the overflows gives the max");
	is_near(lj_hist_quantile(h, 0.25), 1000, 1000 * LJ_HIST_MAX_REL_ERROR,
		"overflow: lower ranks unaffected");
	lj_hist_foreach(h, count_cb, acc);
	is_int(acc[0], 2, "overflow: foreach sees only in-range samples");
	lj_hist_add(h, -7);
	ok(lj_hist_negatives(h) == 1 && lj_hist_min(h) == 0, "negative: clamped to 0 and counted");
	lj_hist_reset(h);
	ok(lj_hist_count(h) == 0 && lj_hist_overflows(h) == 0 && lj_hist_max(h) == 0 &&
	   lj_hist_negatives(h) == 0, "reset empties everything");
	/*
	 * Samples near 2^63 ns saturate the 128-bit sum of squares: stddev
	 * must then say NAN (the long double fallback of 32-bit targets
	 * stays close to the truth, INT64_MAX / 4).
	 */
	for (i = 0; i < 6; i++)
		lj_hist_add(h, i % 2 ? INT64_MAX : INT64_MAX / 2);
	sd = lj_hist_stddev(h);
	ok((isnan(sd) || fabs(sd - INT64_MAX / 4.0) < 1e-6 * INT64_MAX) &&
	   lj_hist_max(h) == INT64_MAX && lj_hist_min(h) == INT64_MAX / 2,
	   "absurd values: stddev is NAN or right, never a wrong number");
	lj_hist_free(h);
}

static void test_exact_region(void)
{
	struct lj_hist *h = lj_hist_new();
	int64_t v;

	for (v = 1; v <= 100; v++)
		lj_hist_add(h, v);
	/* nearest rank: p50 of 1..100 is the 50th value, p99 the 99th */
	is_int(lj_hist_quantile(h, 0.5), 50, "1..100: p50 = 50");
	is_int(lj_hist_quantile(h, 0.99), 99, "1..100: p99 = 99 (0.99 * 100 is rank 99)");
	is_int(lj_hist_quantile(h, 0.01), 1, "1..100: p1 = 1");
	is_int(lj_hist_quantile(h, 0.995), 100, "1..100: p99.5 = 100");
	is_near(lj_hist_mean(h), 50.5, 0.0, "1..100: mean 50.5");
	/* population stddev of 1..100 is sqrt((100^2 - 1) / 12) */
	is_near(lj_hist_stddev(h), sqrt(9999.0 / 12.0), 1e-12, "1..100: stddev sqrt(9999/12)");
	lj_hist_free(h);
}

static void test_long_run(void)
{
	struct lj_hist *h = lj_hist_new(), *r = lj_hist_new();
	int i;

	/*
	 * 1e9 samples around 100 us: half 99 us, half 101 us, so mean 100 us
	 * and population stddev exactly 1 us. A double sum of squares (1e19)
	 * would have lost the 1e15 that the stddev is made of.
	 */
	lj_hist_add_n(h, 99000, 500000000);
	lj_hist_add_n(h, 101000, 500000000);
	is_int(lj_hist_count(h), 1000000000, "1e9 samples counted");
	is_near(lj_hist_mean(h), 100000.0, 0.0, "1e9 samples: mean exact");
	is_near(lj_hist_stddev(h), 1000.0, 1e-9, "1e9 samples: stddev exact");
	for (i = 0; i < 5; i++)
		lj_hist_add(r, 777777);
	lj_hist_reset(h);
	lj_hist_add_n(h, 777777, 5);
	ok(lj_hist_count(h) == lj_hist_count(r) && lj_hist_sum(h) == lj_hist_sum(r) &&
	   lj_hist_quantile(h, 0.5) == lj_hist_quantile(r, 0.5),
	   "add_n(v, 5) equals five adds");
	lj_hist_free(h);
	lj_hist_free(r);
}

int main(void)
{
	int d;

	plan_no_plan();
	test_empty();
	test_empty_foreach();
	test_single();
	test_boundaries();
	test_bounds_contiguous();
	for (d = 0; d < NDIST; d++)
		test_distribution((enum dist)d);
	test_merge();
	test_in_place();
	test_overflow();
	test_exact_region();
	test_long_run();
	return done();
}
