/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_stats - statistics across repeated runs: summaries, Mann-Whitney U, bimodality. */
#ifndef LJ_STATS_H
#define LJ_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct lj_stats_summary {
	size_t n;
	double min, mean, median, stddev, max;
	double coeffvar;	/* stddev / mean * 100 (percent), as mmtests prints it */
	double ci95_lo, ci95_hi;	/* Student-t confidence interval of the mean */
};

/* @v is not modified. n == 0 gives all zeros. Sample stddev (n - 1). */
void lj_stats_summarise(const double *v, size_t n, struct lj_stats_summary *out);

/* Percentile of @v by linear interpolation between closest ranks, q in [0,1]. */
double lj_stats_quantile(const double *v, size_t n, double q);

/*
 * Two-sided Mann-Whitney U test of @a against @b, ties given mid-ranks and
 * the tie correction. Exact p-value by enumeration for small samples
 * (na + nb <= 20 and no ties), normal approximation with continuity
 * correction otherwise. Returns the p-value (1.0 when either is empty).
 */
struct lj_mwu {
	double u;		/* U of sample a */
	double p;		/* two-sided p-value */
	bool exact;
};
void lj_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			   struct lj_mwu *out);

/*
 * Bimodality: the sample bimodality coefficient (skewness^2 + 1) /
 * (kurtosis + 3(n-1)^2/((n-2)(n-3))) above 5/9 suggests two modes; with
 * fewer than 4 samples it cannot be judged (returns false, *coef = NAN).
 */
bool lj_stats_bimodal(const double *v, size_t n, double *coef);

#endif
