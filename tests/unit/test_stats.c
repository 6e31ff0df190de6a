// SPDX-License-Identifier: GPL-2.0-or-later
/* test_stats - run statistics: summaries, t quantiles, Mann-Whitney U, bimodality. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "lj_stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state;

/* splitmix64 with a fixed seed: the same "random" samples every run */
static double rng_unit(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(double mean, double sd)
{
	double u = rng_unit(), w = rng_unit();

	return mean + sd * sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * w);
}

static void test_summary(void)
{
	/*
	 * Hand-computed: mean 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16
	 * = 32, sample variance 32/7, stddev 2.1380899353; median (4+5)/2;
	 * coeffvar 2.1380899353/5*100; t(0.975, 7) = 2.364624 (any t table),
	 * half-width 2.364624 * 2.1380899353 / sqrt(8) = 1.7874879.
	 */
	const double v[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	const double copy[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct lj_stats_summary s;

	lj_stats_summarise(v, N(v), &s);
	is_int(s.n, 8, "summary: n");
	is_near(s.min, 2, 0, "summary: min");
	is_near(s.max, 9, 0, "summary: max");
	is_near(s.mean, 5, 1e-12, "summary: mean");
	is_near(s.median, 4.5, 1e-12, "summary: median of an even count interpolates");
	is_near(s.stddev, 2.1380899353, 1e-9, "summary: sample stddev (n - 1)");
	is_near(s.coeffvar, 42.761798706, 1e-7, "summary: coeffvar in percent");
	is_near(s.ci95_lo, 5 - 1.7874879, 1e-6, "summary: 95% CI low (Student t, 7 df)");
	is_near(s.ci95_hi, 5 + 1.7874879, 1e-6, "summary: 95% CI high");
	ok(!memcmp(v, copy, sizeof(v)), "summary: input not modified");

	lj_stats_summarise(v, 0, &s);
	ok(s.n == 0 && s.mean == 0 && s.stddev == 0 && s.ci95_hi == 0, "summary: n = 0 gives zeros");
	lj_stats_summarise((const double[]){ 7 }, 1, &s);
	ok(s.mean == 7 && s.median == 7 && isnan(s.stddev) && isnan(s.coeffvar) &&
	   s.ci95_lo == 7 && s.ci95_hi == 7, "summary: n = 1, spread unknown (NAN), CI collapses to the mean");
}

static void test_quantile(void)
{
	const double v[] = { 4, 1, 3, 2 };

	/* type 7: position (n - 1) * q in the sorted sample 1 2 3 4 */
	is_near(lj_stats_quantile(v, 4, 0.5), 2.5, 1e-12, "quantile: 0.5 of 1..4 is 2.5");
	is_near(lj_stats_quantile(v, 4, 0.25), 1.75, 1e-12, "quantile: 0.25 of 1..4 is 1.75");
	is_near(lj_stats_quantile(v, 4, 0.9), 3.7, 1e-12, "quantile: 0.9 of 1..4 is 3.7");
	is_near(lj_stats_quantile(v, 4, 0.0), 1, 0, "quantile: 0 is the min");
	is_near(lj_stats_quantile(v, 4, 1.0), 4, 0, "quantile: 1 is the max");
	is_near(lj_stats_quantile(v, 1, 0.3), 4, 0, "quantile: one value is every quantile");
	ok(isnan(lj_stats_quantile(v, 0, 0.5)), "quantile: empty sample is NAN");
}

static void test_t_quantile(void)
{
	/* df 1 and 2 have closed forms: tan(pi (p - 1/2)) and (2p-1)/sqrt(2p(1-p)) */
	is_near(lj_stats_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-9, "t: 1 df closed form");
	is_near(lj_stats_t_quantile(0.975, 2), 0.95 / sqrt(2 * 0.975 * 0.025), 1e-9,
		"t: 2 df closed form");
	/* t tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), 0.975 column */
	is_near(lj_stats_t_quantile(0.975, 4), 2.776, 5e-4, "t: 4 df is 2.776");
	is_near(lj_stats_t_quantile(0.975, 9), 2.262, 5e-4, "t: 9 df is 2.262");
	is_near(lj_stats_t_quantile(0.975, 29), 2.045, 5e-4, "t: 29 df is 2.045");
	is_near(lj_stats_t_quantile(0.995, 10), 3.169, 5e-4, "t: 10 df, 0.995 is 3.169");
	/* large df tends to the normal quantile 1.959964 */
	is_near(lj_stats_t_quantile(0.975, 1e7), 1.959964, 1e-5, "t: huge df is the normal");
	is_near(lj_stats_t_quantile(0.025, 4), -lj_stats_t_quantile(0.975, 4), 1e-12,
		"t: symmetric");
	ok(isnan(lj_stats_t_quantile(1.0, 4)) && isnan(lj_stats_t_quantile(0.5, 0)),
	   "t: outside the domain is NAN");
}

static void test_mwu_exact(void)
{
	const double a1[] = { 1, 2, 3 }, b1[] = { 4, 5, 6 };
	const double a2[] = { 1, 3, 5 }, b2[] = { 2, 4, 6 };
	/* R's ?wilcox.test example (Hollander & Wolfe, permeability constants) */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct lj_mwu r;

	/* U = 0; only 1 of C(6,3) = 20 orderings is as extreme: p = 2/20 */
	lj_stats_mann_whitney(a1, 3, b1, 3, &r);
	ok(r.exact, "mwu: 3 vs 3 without ties is exact");
	is_near(r.u, 0, 0, "mwu: 1..3 vs 4..6 has U = 0");
	is_near(r.p, 0.1, 1e-12, "mwu: 1..3 vs 4..6 p = 0.1 (R: 0.1)");
	/*
	 * U = 3; the null distribution of U for 3 vs 3 counts 1 1 2 3 3 3 3 2
	 * 1 1 for U = 0..9, so P(U <= 3) = 7/20 and p = 2 * 7/20 = 0.7.
	 */
	lj_stats_mann_whitney(a2, 3, b2, 3, &r);
	is_near(r.u, 3, 0, "mwu: interleaved U = 3");
	is_near(r.p, 0.7, 1e-12, "mwu: interleaved p = 0.7 (R: 0.7)");
	/* R prints W = 35, p = 0.1272 for alternative "greater": two-sided 0.2544 */
	lj_stats_mann_whitney(x, N(x), y, N(y), &r);
	ok(r.exact, "mwu: 10 vs 5 without ties is exact");
	is_near(r.u, 35, 0, "mwu: R example W = 35");
	is_near(r.p, 0.2544, 5e-5, "mwu: R example two-sided p = 0.2544");
	lj_stats_mann_whitney(y, N(y), x, N(x), &r);
	ok(r.u == 15 && fabs(r.p - 0.2544) < 5e-5, "mwu: swapping samples gives U' = 50 - U, same p");
}

static void test_mwu_normal(void)
{
	const double a[] = { 1, 2, 2, 3, 3, 3 }, b[] = { 3, 4, 4, 5, 5, 5 };
	double c[15], d[15], e[10], f[11];
	const double same1[] = { 5, 5, 5 }, same2[] = { 5, 5, 5, 5 };
	struct lj_mwu r;
	size_t i;

	/*
	 * Ties: mid-ranks 1, 2.5 2.5, 5.5 x4, 8.5 x2, 11 x3; R_a = 22.5, U =
	 * 22.5 - 21 = 1.5. Tie term (2^3-2)+(4^3-4)+(2^3-2)+(3^3-3) = 96,
	 * sigma^2 = 36/12 * (13 - 96/132) = 36.818, z = (1.5 - 18 + 0.5)/6.0678
	 * = -2.63687, p = erfc(2.63687/sqrt 2) = 0.008367 (R's wilcox.test
	 * gives W = 1.5, p-value = 0.008367 with its ties warning).
	 */
	lj_stats_mann_whitney(a, N(a), b, N(b), &r);
	ok(!r.exact, "mwu: ties force the normal approximation");
	is_near(r.u, 1.5, 0, "mwu: ties get mid-ranks (U = 1.5)");
	is_near(r.p, 0.008367475, 1e-8, "mwu: tie-corrected normal p = 0.008367");

	/*
	 * 15 odd vs 15 even values, no ties: both sides below 50, so the exact
	 * path, as R's wilcox.test: U = 105 (each odd 2k-1 beats k-1 evens),
	 * p = 0.7748403 (R; the normal approximation would give 0.771551).
	 */
	for (i = 0; i < 15; i++) {
		c[i] = 2.0 * i + 1;
		d[i] = 2.0 * i + 2;
	}
	lj_stats_mann_whitney(c, 15, d, 15, &r);
	ok(r.exact, "mwu: 15 vs 15 without ties is exact (each side < 50)");
	is_near(r.u, 105, 0, "mwu: 15 odd vs 15 even U = 105");
	is_near(r.p, 0.7748403017, 1e-9, "mwu: 15 odd vs 15 even p = 0.77484 (R)");

	/* 10 vs 10 and 10 vs 11 are both exact now (the 50 boundary: test_verdicts) */
	for (i = 0; i < 11; i++) {
		f[i] = 100.0 + i;
		if (i < 10)
			e[i] = 0.5 + i;
	}
	lj_stats_mann_whitney(e, 10, f, 10, &r);
	/* U = 0 of 10 vs 10: p = 2 / C(20, 10) = 2 / 184756 */
	ok(r.exact && fabs(r.p - 2.0 / 184756.0) < 1e-15, "mwu: 10 vs 10 exact, p = 2/C(20,10)");
	lj_stats_mann_whitney(e, 10, f, 11, &r);
	ok(r.exact && fabs(r.p - 2.0 / 352716.0) < 1e-15, "mwu: 10 vs 11 exact, p = 2/C(21,10)");

	lj_stats_mann_whitney(same1, 3, same2, 4, &r);
	ok(r.p == 1.0 && r.u == 6.0, "mwu: identical samples, U = na nb / 2 and p = 1");
	lj_stats_mann_whitney(same1, 3, same2, 0, &r);
	ok(r.p == 1.0 && !r.exact, "mwu: an empty sample gives p = 1");
}

static void test_mwu_shift(void)
{
	double base[10], shifted[10], noise[10];
	struct lj_mwu r;
	int i;

	/* what lj-compare gates on: a real 10% shift vs run-to-run noise of 2% */
	rng_state = 7;
	for (i = 0; i < 10; i++) {
		base[i] = rng_normal(100.0, 2.0);
		shifted[i] = rng_normal(110.0, 2.0);
		noise[i] = rng_normal(100.0, 2.0);
	}
	lj_stats_mann_whitney(base, 10, shifted, 10, &r);
	ok(r.p < 0.05, "mwu: a 10% shift over 10 runs is significant");
	lj_stats_mann_whitney(base, 10, noise, 10, &r);
	ok(r.p > 0.05, "mwu: the same distribution twice is not");
}

/*
 * The median's order-statistic interval against R 4.2.2:
 * l <- max(1, qbinom(0.025, n, 0.5)); 1 - 2 * pbinom(l - 1, n, 0.5)
 * n = 3: l 1 (0.75), 5: 1 (0.9375), 8: 1 (0.9921875), 10: 2 (0.9785156),
 * 20: 6 (0.9586105).
 */
static void test_median_ci(void)
{
	const size_t ns[] = { 3, 5, 8, 10, 20 }, ls[] = { 1, 1, 1, 2, 6 };
	const double lv[] = { 0.75, 0.9375, 0.9921875, 0.9785156, 0.9586105 };
	double v[20], lo, hi, lev;

	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		char name[96];

		for (size_t i = 0; i < ns[k]; i++)
			v[i] = (double)((i * 7) % ns[k]) + 1;	/* 1..n, shuffled */
		is_int(lj_stats_median_ci(v, ns[k], 0.95, &lo, &hi, &lev), 0, "median CI runs");
		snprintf(name, sizeof(name), "median CI of %zu values: ranks %zu and %zu", ns[k], ls[k],
			 ns[k] + 1 - ls[k]);
		ok(lo == (double)ls[k] && hi == (double)(ns[k] + 1 - ls[k]), name);
		snprintf(name, sizeof(name), "median CI of %zu values: level %g (R)", ns[k], lv[k]);
		is_near(lev, lv[k], 1e-7, name);
	}
	is_int(lj_stats_median_ci(v, 0, 0.95, &lo, &hi, &lev), -EINVAL, "no values: -EINVAL");
}

static void test_bimodal(void)
{
	const double four[] = { 1, 2, 3, 4 };
	const double flat[] = { 3, 3, 3, 3, 3 };
	double two[40], normal[200], coef;
	int i;

	/*
	 * 1..4 by hand: m2 = 1.25, m3 = 0, m4 = 2.5625; G1 = 0;
	 * G2 = 3/(2*1) * (5 * 2.5625/1.5625 - 9) = -1.2; the small-sample
	 * term 3 * 9 / (2 * 1) = 13.5; BC = 1 / 12.3.
	 */
	ok(!lj_stats_bimodal(four, 4, &coef), "bimodal: 1..4 not flagged");
	is_near(coef, 1.0 / 12.3, 1e-12, "bimodal: 1..4 coefficient 1/12.3 by hand");
	ok(!lj_stats_bimodal(four, 3, &coef) && isnan(coef), "bimodal: < 4 samples cannot be judged");
	ok(!lj_stats_bimodal(flat, 5, &coef) && isnan(coef), "bimodal: constant sample not judged");

	/* two tight clusters, like the ZRAM runs that were fast or slow */
	rng_state = 99;
	for (i = 0; i < 40; i++)
		two[i] = rng_normal(i % 2 ? 100.0 : 200.0, 3.0);
	ok(lj_stats_bimodal(two, 40, &coef), "bimodal: two clusters flagged");
	ok(coef > LJ_STATS_BIMODAL_THRESHOLD, "bimodal: two clusters above 5/9");
	diag("two clusters: BC = %.3f", coef);

	for (i = 0; i < 200; i++)
		normal[i] = rng_normal(100.0, 3.0);
	ok(!lj_stats_bimodal(normal, 200, &coef), "bimodal: a normal sample not flagged");
	is_near(coef, 1.0 / 3.0, 0.1, "bimodal: a normal sample is near the expected 1/3");
	ok(!lj_stats_bimodal(four, 4, NULL), "bimodal: coef may be NULL");

	/* run counts where the flag can fire (docs/statistics.md): */
	for (i = 0; i < 10; i++)
		two[i] = i % 2 ? 100.0 : 150.0;
	ok(lj_stats_bimodal(two, 10, &coef), "bimodal: 5 fast + 5 slow runs flagged");
	is_near(coef, 0.566, 5e-4, "bimodal: 5 + 5 two-valued runs, BC = 0.566");
	ok(!lj_stats_bimodal(two, 8, &coef), "bimodal: 4 fast + 4 slow runs are too few");
	for (i = 0; i < 6; i++)
		two[i] = i ? 100.0 : 150.0;
	ok(lj_stats_bimodal(two, 6, &coef), "bimodal: one outlier among 6 runs is flagged too");
}

int main(void)
{
	plan_no_plan();
	test_summary();
	test_quantile();
	test_t_quantile();
	test_mwu_exact();
	test_mwu_normal();
	test_mwu_shift();
	test_median_ci();
	test_bimodal();
	return done();
}
