// SPDX-License-Identifier: GPL-2.0-or-later
/* gate - regression rules 'WORKLOAD.METRIC>+10%': only significant changes count. */
#include "compare.h"
#include "lj_err.h"
#include "lj_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * WORKLOAD.METRIC OP PERCENT%: OP is > (fail when the mean rose by more)
 * or < (fail when it fell by more); WORKLOAD may be '*'. The metric may
 * itself contain dots ("p99.9"): the workload ends at the first dot.
 */
int cmp_rule_parse(const char *text, struct cmp_rule *r, const char **why)
{
	const char *dot = strchr(text, '.'), *op = strpbrk(text, "<>");
	char num[64];
	size_t len;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", text);
	if (!dot || !op || dot > op || dot == text || op == dot + 1) {
		*why = "expected WORKLOAD.METRIC>+N% or WORKLOAD.METRIC<-N%";
		return -EINVAL;
	}
	if ((size_t)(dot - text) >= sizeof(r->workload) || (size_t)(op - dot - 1) >= sizeof(r->metric)) {
		*why = "name too long";
		return -EINVAL;
	}
	snprintf(r->workload, sizeof(r->workload), "%.*s", (int)(dot - text), text);
	snprintf(r->metric, sizeof(r->metric), "%.*s", (int)(op - dot - 1), dot + 1);
	r->op = *op;
	len = strlen(op + 1);
	if (!len || op[len] != '%' || len >= sizeof(num)) {
		*why = "the threshold must be a percentage ending in %";
		return -EINVAL;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(len - 1), op + 1);
	if (lj_parse_double(num, -1e9, 1e9, &r->pct, why))
		return -EINVAL;
	return 0;
}

static bool rule_matches(const struct cmp_rule *ru, const struct cmp_row *row)
{
	return (!strcmp(ru->workload, "*") || !strcmp(ru->workload, row->workload)) &&
	       !strcmp(ru->metric, row->metric);
}

int cmp_gate(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_rule *rules, int nrules,
	     bool report)
{
	int failing = 0;

	for (int k = 0; k < nrules; k++) {
		struct cmp_rule *ru = &rules[k];

		for (size_t i = 0; i < d->nrows; i++) {
			struct cmp_row *row = d->rows[i];

			if (!rule_matches(ru, row))
				continue;
			ru->matched++;
			for (int s = 1; s < d->nsets; s++) {
				struct cmp_cellstat *st = &row->st[s];
				bool beyond;

				if (!st->significant || isnan(st->pct_mean))
					continue;
				beyond = ru->op == '>' ? st->pct_mean > ru->pct : st->pct_mean < ru->pct;
				if (!beyond)
					continue;
				ru->failures++;
				st->gate_failed = true;
				if (report)
					lj_error("gate failed: %s: %s%s%s%s %s: %+.2f%% (p=%.3g, n=%zu vs %zu) in '%s'",
						 ru->text, row->workload, *row->cell ? " [" : "", row->cell,
						 *row->cell ? "]" : "", row->metric, st->pct_mean, st->mwu.p,
						 row->series[0].n, row->series[s].n, d->sets[s].label);
			}
		}
		if (!ru->matched && report)
			lj_warn("rule '%s' matches no metric in these results", ru->text);
		failing += ru->failures > 0;
	}
	return failing;
}
