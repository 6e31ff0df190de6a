// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyse - per set against the first: summary, % change, the row's test (Mann-Whitney
 * with the Hodges-Lehmann shift, or pooled counts for count metrics), then the
 * multiple-comparison adjustment across all rows of the comparison.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>

static double pct(double v, double base)
{
	if (base == 0)
		return v == 0 ? 0 : NAN;
	return (v - base) / fabs(base) * 100.0;
}

double cmp_min_p(size_t na, size_t nb)
{
	double c = 1;

	for (size_t i = 1; i <= nb; i++)
		c = c * (double)(na + i) / (double)i;
	return c > 0 ? fmin(1.0, 2.0 / c) : 1.0;
}

static void pooled(const struct cmp_series *se, double *events, double *exposure)
{
	*events = *exposure = 0;
	for (size_t i = 0; i < se->n; i++) {
		*events += se->events[i];
		*exposure += se->exposure[i];
	}
}

/* Counts: the rate test on the pooled counts; the interval is the rate ratio's, in %. */
static void test_counts(struct cmp_row *r, int s, const struct cmp_config *cfg)
{
	struct cmp_cellstat *st = &r->st[s], *b = &r->st[0];

	pooled(&r->series[s], &st->events, &st->exposure);
	lj_rate_compare(b->events, b->exposure, st->events, st->exposure, 1 - cfg->alpha, &st->rate);
	st->p = st->rate.p;
	st->judgeable = true;
	st->pct_est = (st->rate.ratio - 1) * 100;
	st->pct_lo = (st->rate.ratio_lo - 1) * 100;
	st->pct_hi = (st->rate.ratio_hi - 1) * 100;
	if (b->events + st->events == 0)
		st->pct_est = st->pct_lo = st->pct_hi = 0;
}

/* Every run's value positive (@or_zero: or zero). */
static bool all_positive(const struct cmp_series *se, bool or_zero)
{
	for (size_t i = 0; i < se->n; i++)
		if (!(se->v[i] > 0 || (or_zero && se->v[i] == 0)))
			return false;
	return true;
}

/*
 * The Hodges-Lehmann shift of log(b) against log(a), as a ratio b/a with
 * its interval, in % ((ratio - 1) x 100: never below -100 %). Return:
 * false without memory (the caller falls back to differences).
 */
static bool shift_ratio(const struct cmp_series *a, const struct cmp_series *b, double level,
			struct cmp_cellstat *st)
{
	double *la = malloc(a->n * sizeof(*la)), *lb = malloc(b->n * sizeof(*lb));
	bool ok = la && lb;

	for (size_t i = 0; ok && i < a->n; i++)
		la[i] = log(a->v[i]);
	for (size_t i = 0; ok && i < b->n; i++)
		lb[i] = log(b->v[i]);
	if (ok) {
		lj_shift_hl(la, a->n, lb, b->n, level, &st->shift);
		st->ratio = true;
		st->pct_est = expm1(st->shift.estimate) * 100;
		st->pct_lo = expm1(st->shift.lo) * 100;
		st->pct_hi = expm1(st->shift.hi) * 100;
	}
	free(la);
	free(lb);
	return ok;
}

/*
 * Other metrics: Mann-Whitney (on ranks: the same p on any monotone scale),
 * and the Hodges-Lehmann shift. Latencies and rates are positive and
 * skewed: a change of them is a factor, and their shift is taken on the
 * log scale when every run of both sets is positive (a ratio and its
 * interval). Otherwise the shift of the values in % of the first set's
 * median; for a metric that is never negative its interval is cut at
 * -100 %, the most it can fall.
 */
static void test_values(struct cmp_row *r, int s, const struct cmp_config *cfg)
{
	struct cmp_cellstat *st = &r->st[s];
	const struct cmp_series *a = &r->series[0], *b = &r->series[s];
	double med = r->st[0].s.median;

	lj_stats_mann_whitney(a->v, a->n, b->v, b->n, &st->mwu);
	st->p = st->mwu.p;
	st->ratio = false;
	st->pct_est = st->pct_lo = st->pct_hi = NAN;
	if (all_positive(a, false) && all_positive(b, false) && shift_ratio(a, b, 1 - cfg->alpha, st)) {
		st->judgeable = st->shift.reached;
		return;
	}
	lj_shift_hl(a->v, a->n, b->v, b->n, 1 - cfg->alpha, &st->shift);
	st->judgeable = st->shift.reached;
	if (med != 0) {
		st->pct_est = st->shift.estimate / fabs(med) * 100;
		st->pct_lo = st->shift.lo / fabs(med) * 100;
		st->pct_hi = st->shift.hi / fabs(med) * 100;
	}
	if (!isnan(st->pct_est) && all_positive(a, true) && all_positive(b, true)) {
		st->pct_est = fmax(st->pct_est, -100);
		st->pct_lo = fmax(st->pct_lo, -100);
		st->pct_hi = fmax(st->pct_hi, -100);
	}
}

static void analyse_row(struct cmp_row *r, const struct cmp_data *d, const struct cmp_config *cfg)
{
	const struct cmp_series *base = &r->series[0];

	for (int s = 0; s < d->nsets; s++) {
		const struct cmp_series *se = &r->series[s];
		struct cmp_cellstat *st = &r->st[s];
		double b[5], v[5];

		lj_stats_summarise(se->v, se->n, &st->s);
		st->bimodal = lj_stats_bimodal(se->v, se->n, &st->bimodal_coef);
		st->high_cv = se->n > 1 && (isnan(st->s.coeffvar) || st->s.coeffvar > cfg->cv_warn);
		st->mwu.p = st->p = st->p_adj = NAN;
		st->pct_mean = st->pct_est = st->pct_lo = st->pct_hi = NAN;
		for (int k = 0; k < 5; k++)
			st->pct[k] = NAN;
		if (r->is_count)
			pooled(se, &st->events, &st->exposure);
		st->med_lo = st->med_hi = st->med_level = NAN;
		if (se->n)
			lj_stats_median_ci(se->v, se->n, 1 - cfg->alpha, &st->med_lo, &st->med_hi, &st->med_level);
		if (s == 0 || !se->n || !base->n)
			continue;
		b[0] = r->st[0].s.min;
		b[1] = r->st[0].s.mean;
		b[2] = r->st[0].s.stddev;
		b[3] = r->st[0].s.coeffvar;
		b[4] = r->st[0].s.max;
		v[0] = st->s.min;
		v[1] = st->s.mean;
		v[2] = st->s.stddev;
		v[3] = st->s.coeffvar;
		v[4] = st->s.max;
		for (int k = 0; k < 5; k++)
			st->pct[k] = pct(v[k], b[k]);
		st->pct_mean = st->pct[1];
		if (r->is_count)
			test_counts(r, s, cfg);
		else
			test_values(r, s, cfg);
	}
}

/* One family: every (row, set) test of the comparison. */
static void adjust(struct cmp_data *d, const struct cmp_config *cfg)
{
	size_t n = d->nrows * (size_t)(d->nsets > 1 ? d->nsets - 1 : 0), k = 0;
	double *p = malloc((n ? n : 1) * sizeof(*p));

	if (!p)
		n = 0;		/* no memory: keep the raw p (the header still names the method) */
	for (size_t i = 0; i < d->nrows && p; i++)
		for (int s = 1; s < d->nsets; s++)
			p[k++] = d->rows[i]->st[s].p;
	if (p && lj_adjust_p(p, n, cfg->adjust, p))
		n = 0;
	k = 0;
	for (size_t i = 0; i < d->nrows; i++)
		for (int s = 1; s < d->nsets; s++, k++) {
			struct cmp_cellstat *st = &d->rows[i]->st[s];

			st->p_adj = n ? p[k] : st->p;
			st->significant = st->p_adj < cfg->alpha;
		}
	free(p);
}

void cmp_analyse(struct cmp_data *d, const struct cmp_config *cfg)
{
	for (size_t i = 0; i < d->nrows; i++)
		analyse_row(d->rows[i], d, cfg);
	adjust(d, cfg);
}
