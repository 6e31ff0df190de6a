// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_shift - Hodges-Lehmann shift and its Mann-Whitney confidence interval (as R computes them). */
#include "lj_shift.h"
#include "lj_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The sorted pairwise differences b_j - a_i. */
static double *sorted_diffs(const double *a, size_t na, const double *b, size_t nb)
{
	double *d = malloc(na * nb * sizeof(*d));

	if (!d)
		return NULL;
	for (size_t j = 0; j < nb; j++)
		for (size_t i = 0; i < na; i++)
			d[j * na + i] = b[j] - a[i];
	qsort(d, na * nb, sizeof(*d), cmp_double);
	return d;
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static bool has_ties(const double *a, size_t na, const double *b, size_t nb)
{
	double *all = malloc((na + nb) * sizeof(*all));
	bool ties = false;

	if (!all)
		return true;	/* the asymptotic path needs no exact table */
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, na + nb, sizeof(*all), cmp_double);
	for (size_t i = 1; i < na + nb && !ties; i++)
		ties = all[i] == all[i - 1];
	free(all);
	return ties;
}

/* Exact path: R's qwilcox(alpha / 2) picks the order statistics of the differences. */
static int exact_interval(const double *d, size_t na, size_t nb, double level, struct lj_shift *out)
{
	double *cnt = lj_stats_mwu_counts(na, nb), total = 0, cum = 0, below;
	size_t nm = na * nb, k = 0;

	if (!cnt)
		return -ENOMEM;
	for (size_t u = 0; u <= nm; u++)
		total += cnt[u];
	/* qwilcox(p): the smallest q with P(U <= q) >= p */
	for (k = 0; k <= nm; k++) {
		cum += cnt[k];
		if (cum / total >= (1.0 - level) / 2.0 * (1 - 1e-12))
			break;
	}
	out->reached = k > 0;
	if (k == 0)
		k = 1;
	/* achieved level: 1 - 2 P(U <= k - 1) */
	below = 0;
	for (size_t u = 0; u < k; u++)
		below += cnt[u];
	out->level = 1.0 - 2.0 * below / total;
	free(cnt);
	out->lo = d[k - 1];
	out->hi = d[nm - k];
	return 0;
}

struct tagged {
	double v;
	int from_b;
};

static int cmp_tagged(const void *pa, const void *pb)
{
	const struct tagged *x = pa, *y = pb;

	return (x->v > y->v) - (x->v < y->v);
}

/*
 * R's wdiff(): the continuity- and tie-corrected normal statistic of the
 * Wilcoxon rank sum of (b - shift) against a. @tmp holds na + nb items.
 */
static double wdiff(const double *a, size_t na, const double *b, size_t nb, double shift,
		    struct tagged *tmp)
{
	size_t n = na + nb;
	double ranksum = 0, ties = 0, dz, corr, sigma, dn = (double)n;

	for (size_t j = 0; j < nb; j++)
		tmp[j] = (struct tagged){ b[j] - shift, 1 };
	for (size_t i = 0; i < na; i++)
		tmp[nb + i] = (struct tagged){ a[i], 0 };
	qsort(tmp, n, sizeof(*tmp), cmp_tagged);
	for (size_t i = 0, j; i < n; i = j) {
		double t, rank;

		for (j = i + 1; j < n && tmp[j].v == tmp[i].v; j++)
			;
		t = (double)(j - i);
		rank = (double)(i + 1 + j) / 2.0;
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			ranksum += tmp[k].from_b ? rank : 0;
	}
	dz = ranksum - (double)nb * (double)(nb + 1) / 2.0 - (double)na * (double)nb / 2.0;
	corr = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0.0;
	sigma = sqrt((double)na * (double)nb / 12.0 * ((dn + 1) - ties / (dn * (dn - 1))));
	if (sigma == 0)
		return 0;
	return (dz - corr) / sigma;
}

/*
 * The root of wdiff(d) = zq over the sorted differences: wdiff falls as d
 * rises and steps only at a difference, so the root is the difference
 * where it crosses (or the end of the range, as R clamps it).
 */
static double root(const double *a, size_t na, const double *b, size_t nb, const double *d,
		   size_t nm, double zq, struct tagged *tmp)
{
	size_t lo = 0, hi = nm - 1;

	if (wdiff(a, na, b, nb, d[0], tmp) - zq <= 0)
		return d[0];
	if (wdiff(a, na, b, nb, d[nm - 1], tmp) - zq >= 0)
		return d[nm - 1];
	/* f(d[lo]) > 0 >= f(d[hi]): bisect to the first difference with f <= 0 */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (wdiff(a, na, b, nb, d[mid], tmp) - zq > 0)
			lo = mid;
		else
			hi = mid;
	}
	/* f > 0 at d[lo], <= 0 at d[hi]: the sign changes at d[hi] unless it already has just past d[lo] */
	if (d[hi] > d[lo] && wdiff(a, na, b, nb, 0.5 * (d[lo] + d[hi]), tmp) - zq <= 0)
		return d[lo];
	return d[hi];
}

int lj_shift_hl(const double *a, size_t na, const double *b, size_t nb, double level,
		struct lj_shift *out)
{
	size_t nm = na * nb;
	struct tagged *tmp;
	double *d, z;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->estimate = out->lo = out->hi = NAN;
	if (!na || !nb || !(level > 0 && level < 1))
		return -EINVAL;
	d = sorted_diffs(a, na, b, nb);
	if (!d)
		return -ENOMEM;
	out->estimate = median_sorted(d, nm);
	out->exact = na < LJ_STATS_MWU_EXACT_BELOW && nb < LJ_STATS_MWU_EXACT_BELOW &&
		     !has_ties(a, na, b, nb);
	if (out->exact) {
		ret = exact_interval(d, na, nb, level, out);
		free(d);
		return ret;
	}
	tmp = malloc((na + nb) * sizeof(*tmp));
	if (!tmp) {
		free(d);
		return -ENOMEM;
	}
	z = lj_stats_norm_quantile(1.0 - (1.0 - level) / 2.0);
	out->lo = root(a, na, b, nb, d, nm, z, tmp);
	out->hi = root(a, na, b, nb, d, nm, -z, tmp);
	out->level = level;
	/* the normal approximation has no smallest p: the interval is the answer */
	out->reached = true;
	free(tmp);
	free(d);
	return 0;
}
