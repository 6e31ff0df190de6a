// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_adjust - Holm and Benjamini-Hochberg adjusted p-values, R's p.adjust formulas. */
#include "lj_adjust.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double p;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

const char *lj_adjust_name(enum lj_adjust_method m)
{
	return m == LJ_ADJUST_HOLM ? "holm" : m == LJ_ADJUST_BH ? "bh" : "none";
}

int lj_adjust_p(const double *p, size_t n, enum lj_adjust_method m, double *adj)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	size_t k = 0;
	double run;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[k++] = (struct ranked){ p[i], i };
	qsort(r, k, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	if (m == LJ_ADJUST_HOLM) {
		/* ascending: (k - j) p_(j), kept non-decreasing */
		run = 0;
		for (size_t j = 0; j < k; j++) {
			double v = fmin(1.0, (double)(k - j) * r[j].p);

			run = fmax(run, v);
			adj[r[j].i] = run;
		}
	} else if (m == LJ_ADJUST_BH) {
		/* descending: k / j p_(j), kept non-increasing */
		run = 1.0;
		for (size_t j = k; j-- > 0;) {
			double v = fmin(1.0, (double)k / (double)(j + 1) * r[j].p);

			run = fmin(run, v);
			adj[r[j].i] = run;
		}
	} else {
		for (size_t j = 0; j < k; j++)
			adj[r[j].i] = r[j].p;
	}
	free(r);
	return 0;
}
