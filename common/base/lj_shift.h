/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_shift - the Hodges-Lehmann shift between two samples and its Mann-Whitney interval. */
#ifndef LJ_SHIFT_H
#define LJ_SHIFT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How far @b lies from @a: the estimate and confidence interval of the
 * location shift b - a that R's wilcox.test(b, a, conf.int = TRUE,
 * conf.level = level) reports (docs/statistics.md).
 *
 * The estimate is the median of the na * nb differences b_j - a_i (the
 * Hodges-Lehmann estimator; R's asymptotic path reports a root of a
 * function that is flat around it, within the same step).
 *
 * Exact path (each side < 50 values, no ties in the pooled sample): the
 * interval is [D(k), D(nm + 1 - k)] of the sorted differences with k from
 * the exact U distribution (R's qwilcox). When the sizes are too small for
 * the level (2 / C(na + nb, na) >= 1 - level) k is 1, the interval spans
 * every difference and @reached is false: the sample cannot exclude 0.
 *
 * Asymptotic path (ties, or a side of 50 or more): the bounds are the
 * shifts d at which the tie- and continuity-corrected normal
 * statistic of (b - d) against a crosses -+ z(1 - alpha/2), found
 * among the pairwise differences (where that statistic steps) as R's
 * uniroot finds them.
 */
struct lj_shift {
	double estimate, lo, hi;	/* in the samples' unit; NAN when not defined */
	double level;			/* the confidence level actually achieved (exact path) */
	bool exact;
	bool reached;			/* the sizes allow the requested level */
};

/* 0, -EINVAL (empty sample, level not in (0,1)), -ENOMEM. */
int lj_shift_hl(const double *a, size_t na, const double *b, size_t nb, double level,
		struct lj_shift *out);

#endif
