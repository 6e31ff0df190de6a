// SPDX-License-Identifier: GPL-2.0-or-later
/* analyse - per set: summary, % change against the first set, Mann-Whitney U, flags. */
#include "compare.h"

#include <math.h>

static double pct(double v, double base)
{
	if (base == 0)
		return v == 0 ? 0 : NAN;
	return (v - base) / fabs(base) * 100.0;
}

void cmp_analyse(struct cmp_data *d, const struct cmp_config *cfg)
{
	for (size_t i = 0; i < d->nrows; i++) {
		struct cmp_row *r = d->rows[i];
		const struct cmp_series *base = &r->series[0];

		for (int s = 0; s < d->nsets; s++) {
			const struct cmp_series *se = &r->series[s];
			struct cmp_cellstat *st = &r->st[s];
			double b[5], v[5];

			lj_stats_summarise(se->v, se->n, &st->s);
			st->bimodal = lj_stats_bimodal(se->v, se->n, &st->bimodal_coef);
			st->high_cv = se->n > 1 && (isnan(st->s.coeffvar) || st->s.coeffvar > cfg->cv_warn);
			st->mwu.p = NAN;
			st->pct_mean = NAN;
			for (int k = 0; k < 5; k++)
				st->pct[k] = NAN;
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
			lj_stats_mann_whitney(base->v, base->n, se->v, se->n, &st->mwu);
			st->significant = st->mwu.p < cfg->alpha;
		}
	}
}
