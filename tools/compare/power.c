// SPDX-License-Identifier: GPL-2.0-or-later
/* power.c - the perf/power view: a performance metric against an energy metric per set, and the cheapest set that holds. */
#include "compare.h"
#include "lj_err.h"
#include "lj_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "PERF,ENERGY[,LIMIT]" into its parts. Return: 0 or -EINVAL after a usage line. */
int cmp_perf_power_parse(const char *spec, struct cmp_perf_power *pp)
{
	char *lim;

	memset(pp, 0, sizeof(*pp));
	pp->limit = NAN;
	snprintf(pp->perf, sizeof(pp->perf), "%s", spec);
	lim = strchr(pp->perf, ',');
	if (!lim || lim == pp->perf || !lim[1])
		return -EINVAL;
	*lim++ = 0;
	snprintf(pp->energy, sizeof(pp->energy), "%s", lim);
	lim = strchr(pp->energy, ',');
	if (lim) {
		*lim++ = 0;
		if (lj_parse_double(lim, -1e300, 1e300, &pp->limit, NULL, 0))
			return -EINVAL;
	}
	return pp->energy[0] ? 0 : -EINVAL;
}

static const struct cmp_row *find_row(const struct cmp_data *d, const char *workload, const char *cell,
				      const char *metric)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (!strcmp(d->rows[i]->workload, workload) && !strcmp(d->rows[i]->cell, cell) &&
		    !strcmp(d->rows[i]->metric, metric))
			return d->rows[i];
	return NULL;
}

/* Whether @v meets the limit in the direction the metric is better (no limit: every set holds). */
static bool holds(const struct cmp_perf_power *pp, const struct cmp_row *perf, double v)
{
	if (isnan(pp->limit))
		return true;
	return perf->better == LJ_BETTER_LOWER ? v <= pp->limit : v >= pp->limit;
}

/* One workload and cell: each set's means, and the set of lowest energy that holds. */
static void view_cell(FILE *out, FILE *csv, const struct cmp_data *d, const struct cmp_perf_power *pp,
		      const struct cmp_row *perf, const struct cmp_row *energy)
{
	int best = -1;

	for (int s = 0; s < d->nsets; s++)
		if (perf->st[s].s.n && energy->st[s].s.n && holds(pp, perf, perf->st[s].s.mean) &&
		    (best < 0 || energy->st[s].s.mean < energy->st[best].s.mean))
			best = s;
	fprintf(out, "%s [%s]\n", perf->workload, perf->cell[0] ? perf->cell : "-");
	for (int s = 0; s < d->nsets; s++) {
		if (!perf->st[s].s.n || !energy->st[s].s.n) {
			fprintf(out, "  %-24s %14s %14s  (missing)\n", d->sets[s].label, "-", "-");
			continue;
		}
		fprintf(out, "  %-24s %14.3f %14.3f%s\n", d->sets[s].label, perf->st[s].s.mean,
			energy->st[s].s.mean, s == best ? "  <- lowest energy that holds" :
			!holds(pp, perf, perf->st[s].s.mean) ? "  (does not hold)" : "");
		if (csv)
			fprintf(csv, "%s %s,%.9g,%.9g,%d\n", perf->workload, d->sets[s].label, perf->st[s].s.mean,
				energy->st[s].s.mean, s == best);
	}
}

int cmp_perf_power(FILE *out, const struct cmp_data *d, const struct cmp_perf_power *pp, const char *csv_path)
{
	FILE *csv = NULL;
	int cells = 0;

	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			lj_error_errno(-errno, "cannot write %s", csv_path);
			return LJ_EXIT_RUNTIME;
		}
		fprintf(csv, "label,perf,energy,best\n");
	}
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cmp_row *p = d->rows[i], *e;

		if (strcmp(p->metric, pp->perf))
			continue;
		e = find_row(d, p->workload, p->cell, pp->energy);
		if (!e)
			continue;
		if (!cells++) {
			fprintf(out, "perf/power: %s (%s, %s better) against %s (%s, lower better)", pp->perf, p->unit,
				p->better == LJ_BETTER_LOWER ? "lower" : "higher", pp->energy, e->unit);
			if (!isnan(pp->limit))
				fprintf(out, ", holding %s %s %g", pp->perf, p->better == LJ_BETTER_LOWER ? "<=" : ">=",
					pp->limit);
			fprintf(out, "\n  %-24s %14s %14s\n", "set", pp->perf, pp->energy);
		}
		view_cell(out, csv, d, pp, p, e);
	}
	if (csv && fclose(csv)) {
		lj_error("cannot write %s", csv_path);
		return LJ_EXIT_RUNTIME;
	}
	if (!cells) {
		lj_error("--perf-power: no workload has both %s and %s", pp->perf, pp->energy);
		return LJ_EXIT_USAGE;
	}
	return LJ_EXIT_OK;
}
