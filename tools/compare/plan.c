// SPDX-License-Identifier: GPL-2.0-or-later
/* plan - how many runs (and samples per run) a comparison needs, from the noise of a run set. */
#include "compare.h"
#include "lj_plan.h"

#include <math.h>
#include <stdio.h>

#define PLAN_POWER 0.8

void cmp_tail_remember(struct cmp_series *se, json_object *doc)
{
	json_object *sum, *m, *v, *dur;
	double samples, secs;

	if (!json_object_object_get_ex(doc, "summary", &sum) || !json_object_object_get_ex(sum, "samples", &m) ||
	    !json_object_object_get_ex(m, "value", &v) || !v)
		return;
	samples = json_object_get_double(v);
	if (!(samples > 0))
		return;
	if (!se->min_samples || samples < se->min_samples)
		se->min_samples = samples;
	if (!json_object_object_get_ex(doc, "duration_ns", &dur) || !dur)
		return;
	secs = json_object_get_double(dur) / 1e9;
	if (secs > 0 && (!se->min_rate || samples / secs < se->min_rate))
		se->min_rate = samples / secs;
}

void cmp_tail_note(char *buf, size_t len, const struct cmp_row *r, const char *label, int set,
		   double alpha)
{
	double q = lj_plan_metric_quantile(r->metric), have = r->series[set].min_samples;
	size_t need;

	buf[0] = '\0';
	if (!(q >= 0.99 && q < 1) || !have)
		return;
	need = lj_plan_quantile_samples(q, alpha);
	if (have < (double)need)
		snprintf(buf, len, "%s needs >= %zu samples per run for a %g%% upper bound from data; "
			 "'%s' has %.0f: it is near the run's max", r->metric, need, 100 * (1 - alpha / 2),
			 label, have);
}

/* How long each run must be for the row's quantile to be backed by data, at the rate seen. */
static void plan_duration(char *buf, size_t len, const struct cmp_row *r, const char *label, int set,
			  double alpha)
{
	double q = lj_plan_metric_quantile(r->metric), rate = r->series[set].min_rate;
	size_t need;

	buf[0] = '\0';
	if (!(q >= 0.99 && q < 1) || !rate)
		return;
	need = lj_plan_quantile_samples(q, alpha);
	snprintf(buf, len, "%s: each run needs >= %zu samples: >= %.1f s at the %.0f samples/s of '%s'%s",
		 r->metric, need, (double)need / rate, rate, label,
		 r->series[set].min_samples < (double)need ? " (its runs had fewer)" : "");
}

/* One row: the runs per side that detect a change of cfg->plan_pct at the noise of each set. */
static void plan_row(FILE *out, const struct cmp_data *d, const struct cmp_config *cfg,
		     const struct cmp_row *r, double alpha_row)
{
	fprintf(out, "%-12s %-20s %-14s", r->workload, *r->cell ? r->cell : "-", r->metric);
	for (int s = 0; s < d->nsets; s++) {
		const struct cmp_cellstat *st = &r->st[s];
		char cell[64], tail[256];
		size_t n;

		if (!r->series[s].n) {
			fprintf(out, " %22s", "-");
			continue;
		}
		if (r->is_count) {
			double per_run = st->events / (double)r->series[s].n;

			n = lj_plan_runs_rate(per_run, cfg->plan_pct, alpha_row, PLAN_POWER);
			if (n)
				snprintf(cell, sizeof(cell), "%zu (%.3g/run)", n, per_run);
			else
				snprintf(cell, sizeof(cell), "? (0 events)");
		} else if (isnan(st->s.coeffvar)) {
			snprintf(cell, sizeof(cell), "? (1 run)");
		} else {
			n = lj_plan_runs_shift(st->s.coeffvar, cfg->plan_pct, alpha_row, PLAN_POWER);
			snprintf(cell, sizeof(cell), "%zu (cv %.2g%%)", n, st->s.coeffvar);
		}
		fprintf(out, " %22s", cell);
		plan_duration(tail, sizeof(tail), r, d->sets[s].label, s, cfg->alpha);
		if (*tail)
			fprintf(out, "\n    ! %s", tail);
	}
	fputc('\n', out);
}

void cmp_plan(FILE *out, const struct cmp_data *d, const struct cmp_config *cfg)
{
	double alpha_row = cfg->alpha;

	/* Holm's first step: the smallest p must beat alpha / m, so plan for that */
	if (cfg->adjust != LJ_ADJUST_NONE && d->nrows > 1)
		alpha_row = cfg->alpha / (double)d->nrows;
	fprintf(out, "plan: runs per side to detect a %+g%% change with %.0f%% power, two-sided, at alpha %g\n",
		cfg->plan_pct, 100 * PLAN_POWER, cfg->alpha);
	fprintf(out, "  per row alpha %.3g (%s over %zu rows); noise = each set's coeffvar (Mann-Whitney,\n"
		"  efficiency 3/pi) or event rate per run (counts, pooled); docs/lj-compare.md\n",
		alpha_row, lj_adjust_name(cfg->adjust), d->nrows);
	fprintf(out, "%-12s %-20s %-14s", "workload", "cell", "metric");
	for (int s = 0; s < d->nsets; s++)
		fprintf(out, " %22s", d->sets[s].label);
	fputc('\n', out);
	for (size_t i = 0; i < d->nrows; i++)
		plan_row(out, d, cfg, d->rows[i], alpha_row);
}
