/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_rate - two event rates compared on their pooled counts (conditional binomial test). */
#ifndef LJ_RATE_H
#define LJ_RATE_H

#include <stdbool.h>

/*
 * Events x1 over exposure e1 (the baseline: frames, samples, runs) against
 * x2 over e2. Given x1 + x2 events, under "same rate" x2 is binomial with
 * n = x1 + x2 and p = e2 / (e1 + e2): the exact two-sided p-value is R's
 * binom.test (the sum of the outcomes no likelier than the observed one),
 * which is what R's poisson.test(c(x2, x1), c(e2, e1)) reports. The rate
 * ratio (x2/e2) / (x1/e1) gets the Clopper-Pearson interval of the binomial
 * proportion, transformed: ratio = p / (1 - p) * e1 / e2, so a rise from a
 * zero baseline has ratio and upper bound +inf and a finite lower bound.
 */
struct lj_rate_test {
	double p;			/* two-sided p-value; 1 when x1 + x2 == 0 */
	double ratio, ratio_lo, ratio_hi;	/* NAN when x1 + x2 == 0 */
	double diff;			/* x2/e2 - x1/e1: the absolute change of the rate */
};

/* 0, or -EINVAL (negative counts, exposures not > 0, level not in (0,1)). */
int lj_rate_compare(double x1, double e1, double x2, double e2, double level,
		    struct lj_rate_test *out);

/* Two-sided exact binomial test of x successes in n at probability p (R's binom.test). */
double lj_rate_binom_p(double x, double n, double p);

#endif
