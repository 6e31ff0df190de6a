// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_rate - the conditional binomial test of two Poisson rates, with the rate ratio's interval. */
#include "lj_rate.h"
#include "lj_stats.h"

#include <errno.h>
#include <math.h>

static double log_dbinom(double k, double n, double p)
{
	if (p <= 0)
		return k == 0 ? 0 : -INFINITY;
	if (p >= 1)
		return k == n ? 0 : -INFINITY;
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + k * log(p) + (n - k) * log1p(-p);
}

/* P(X <= k) and P(X >= k) for X ~ Binomial(n, p), through the incomplete beta. */
static double pbinom_le(double k, double n, double p)
{
	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	return lj_stats_inc_beta(1 - p, n - k, k + 1);
}

static double pbinom_ge(double k, double n, double p)
{
	return k <= 0 ? 1 : 1 - pbinom_le(k - 1, n, p);
}

/*
 * The number of outcomes i in [from, to] (a side where the density is
 * monotonic: rising when @rising) whose density is <= @ld: found by
 * bisection instead of summing, so a million events cost a few dozen terms.
 */
static double count_le(double from, double to, double n, double p, double ld, bool rising)
{
	double lo = from, hi = to;

	if (from > to)
		return 0;
	/* rising: the outcomes <= ld are a prefix [from, b]; falling: a suffix [b, to] */
	if (rising) {
		if (log_dbinom(from, n, p) > ld)
			return 0;
		while (hi - lo > 0) {
			double mid = floor((lo + hi + 1) / 2);

			if (log_dbinom(mid, n, p) <= ld)
				lo = mid;
			else
				hi = mid - 1;
		}
		return lo - from + 1;
	}
	if (log_dbinom(to, n, p) > ld)
		return 0;
	while (hi - lo > 0) {
		double mid = floor((lo + hi) / 2);

		if (log_dbinom(mid, n, p) <= ld)
			hi = mid;
		else
			lo = mid + 1;
	}
	return to - lo + 1;
}

double lj_rate_binom_p(double x, double n, double p)
{
	/* R: outcomes whose density is within a relative 1e-7 of the observed count as "as extreme" */
	double ld = log_dbinom(x, n, p) + log1p(1e-7), m = n * p, y, r;

	if (n <= 0 || x == m)
		return 1.0;
	if (x < m) {
		y = count_le(ceil(m), n, n, p, ld, false);
		r = pbinom_le(x, n, p) + pbinom_ge(n - y + 1, n, p);
	} else {
		y = count_le(0, floor(m), n, p, ld, true);
		r = pbinom_le(y - 1, n, p) + pbinom_ge(x, n, p);
	}
	return r > 1 ? 1 : r;
}

int lj_rate_compare(double x1, double e1, double x2, double e2, double level,
		    struct lj_rate_test *out)
{
	double n = x1 + x2, pe = e2 / (e1 + e2), a = 1 - level, plo, phi;

	out->p = 1.0;
	out->ratio = out->ratio_lo = out->ratio_hi = out->diff = NAN;
	if (x1 < 0 || x2 < 0 || !(e1 > 0) || !(e2 > 0) || !(level > 0 && level < 1))
		return -EINVAL;
	out->diff = x2 / e2 - x1 / e1;
	if (n == 0)
		return 0;
	out->p = lj_rate_binom_p(x2, n, pe);
	plo = x2 == 0 ? 0 : lj_stats_beta_quantile(a / 2, x2, n - x2 + 1);
	phi = x2 == n ? 1 : lj_stats_beta_quantile(1 - a / 2, x2 + 1, n - x2);
	out->ratio = x1 == 0 ? INFINITY : (x2 / e2) / (x1 / e1);
	out->ratio_lo = plo / (1 - plo) * e1 / e2;
	out->ratio_hi = phi >= 1 ? INFINITY : phi / (1 - phi) * e1 / e2;
	return 0;
}
