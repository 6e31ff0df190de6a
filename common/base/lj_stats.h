/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_stats - statistics across repeated runs: summaries, Mann-Whitney U, bimodality. */
#ifndef LJ_STATS_H
#define LJ_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* docs/statistics.md gives the formulas and their sources. Inputs must be finite. */

struct lj_stats_summary {
	size_t n;
	double min, mean, median, stddev, max;
	double coeffvar;	/* stddev / |mean| * 100 (percent), as mmtests prints it */
	double ci95_lo, ci95_hi;	/* Student-t confidence interval of the mean */
};

/*
 * @v is not modified. n == 0 gives all zeros. Sample stddev (n - 1).
 * n == 1: stddev and coeffvar are unknown (NAN: one run says nothing about
 * the spread), and no interval can be given, so ci95_lo == ci95_hi == mean.
 * coeffvar is NAN when the mean is 0 but the stddev is not.
 */
void lj_stats_summarise(const double *v, size_t n, struct lj_stats_summary *out);

/*
 * Percentile of @v by linear interpolation between closest ranks, q in [0,1]
 * (R's and numpy's default, "type 7": position (n - 1) * q in the sorted
 * sample). NAN when n == 0 or on ENOMEM (it sorts a copy).
 */
double lj_stats_quantile(const double *v, size_t n, double q);

/*
 * Quantile of Student's t distribution with @df degrees of freedom (df > 0,
 * p in (0,1)): lj_stats_t_quantile(0.975, n - 1) is the factor of a 95%
 * confidence interval. NAN outside the domain.
 */
double lj_stats_t_quantile(double p, double df);

/*
 * Two-sided Mann-Whitney U test of @a against @b, ties given mid-ranks and
 * the tie correction. Exact p-value by enumeration when each side has fewer
 * than 50 values and there are no ties, normal approximation with tie and
 * continuity correction otherwise: the same switch and formulas as R's
 * wilcox.test. p is 1.0 when either is empty, or when all values are equal.
 */
struct lj_mwu {
	double u;		/* U of sample a: pairs with a > b, ties count 1/2 */
	double p;		/* two-sided p-value */
	bool exact;
};
#define LJ_STATS_MWU_EXACT_BELOW 50	/* exact p when na and nb are both below this */
/* Return: 0, or -ENOMEM (then out->p is NaN: no test was made). */
int lj_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			  struct lj_mwu *out);

/*
 * The exact null distribution of U: counts[u] orderings of na a's and nb
 * b's (no ties) give U = u, u = 0 .. na * nb. Allocated (free() it); NULL
 * on ENOMEM. The total is C(na + nb, na).
 */
double *lj_stats_mwu_counts(size_t na, size_t nb);

/* Standard normal distribution function and its inverse (NAN outside (0,1)). */
double lj_stats_norm_cdf(double z);
double lj_stats_norm_quantile(double p);
/* Regularised incomplete beta I_x(a, b), and its inverse in x (bisection). */
double lj_stats_inc_beta(double x, double a, double b);
double lj_stats_beta_quantile(double p, double a, double b);

/*
 * Distribution-free confidence interval of the median of @v (order
 * statistics, as for any quantile of the runs): with l the largest rank
 * such that P(Binomial(n, 1/2) <= l - 1) <= (1 - level) / 2 (at least 1,
 * R's max(1, qbinom((1 - level) / 2, n, 0.5))), the interval is
 * [x_(l), x_(n + 1 - l)] of the sorted values, its achieved level
 * 1 - 2 P(Binomial(n, 1/2) <= l - 1). Too few values for @level (5 runs:
 * at most 93.75 %) give the full range and *achieved below @level.
 * Return: 0, -EINVAL (n == 0) or -ENOMEM.
 */
int lj_stats_median_ci(const double *v, size_t n, double level, double *lo, double *hi,
		       double *achieved);

/*
 * Bimodality: the sample bimodality coefficient (skewness^2 + 1) /
 * (kurtosis + 3(n-1)^2/((n-2)(n-3))) above 5/9 suggests two modes; with
 * fewer than 4 samples it cannot be judged (returns false, *coef = NAN).
 * Skewness and excess kurtosis are the bias-corrected sample estimators
 * (G1, G2). All-equal samples also give false and NAN. @coef may be NULL.
 */
#define LJ_STATS_BIMODAL_THRESHOLD (5.0 / 9.0)
bool lj_stats_bimodal(const double *v, size_t n, double *coef);

#endif
