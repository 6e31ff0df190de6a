// SPDX-License-Identifier: GPL-2.0-or-later
/* gate - regression rules 'WORKLOAD.METRIC>+10%': pass, fail or cannot judge, each with its reason. */
#include "compare.h"
#include "lj_err.h"
#include "lj_parse.h"
#include "lj_why.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * WORKLOAD.METRIC OP PERCENT%: OP is > (fail on a significant rise whose
 * whole interval lies above PERCENT) or < (a fall below it); WORKLOAD may
 * be '*'. The metric may
 * itself contain dots ("p99.9"): the workload ends at the first dot.
 */
int cmp_rule_parse(const char *text, struct cmp_rule *r, char *why, size_t why_len)
{
	const char *dot = strchr(text, '.'), *op = strpbrk(text, "<>");
	char num[64];
	size_t len;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", text);
	if (!dot || !op || dot > op || dot == text || op == dot + 1) {
		return lj_why_err(why, why_len, -EINVAL, "%s",
				  "expected WORKLOAD.METRIC>+N% or WORKLOAD.METRIC<-N%");
	}
	if ((size_t)(dot - text) >= sizeof(r->workload) || (size_t)(op - dot - 1) >= sizeof(r->metric)) {
		return lj_why_err(why, why_len, -EINVAL, "name too long");
	}
	snprintf(r->workload, sizeof(r->workload), "%.*s", (int)(dot - text), text);
	snprintf(r->metric, sizeof(r->metric), "%.*s", (int)(op - dot - 1), dot + 1);
	r->op = *op;
	len = strlen(op + 1);
	if (!len || op[len] != '%' || len >= sizeof(num)) {
		return lj_why_err(why, why_len, -EINVAL, "the threshold must be a percentage ending in %%");
	}
	snprintf(num, sizeof(num), "%.*s", (int)(len - 1), op + 1);
	if (lj_parse_double(num, -1e9, 1e9, &r->pct, why, why_len))
		return -EINVAL;
	return 0;
}

static bool rule_matches(const struct cmp_rule *ru, const struct cmp_row *row)
{
	return (!strcmp(ru->workload, "*") || !strcmp(ru->workload, row->workload)) &&
	       !strcmp(ru->metric, row->metric);
}

/* Is a change in the rule's direction a worsening of this metric? */
static bool rule_means_worse(const struct cmp_rule *ru, const struct cmp_row *row)
{
	if (row->better == LJ_BETTER_NONE)
		return true;
	return (ru->op == '>') == (row->better == LJ_BETTER_LOWER);
}

/*
 * One rule on one row and set: pass, fail or cannot judge, with the reason.
 * It fails only when the change is significant in the rule's own direction
 * and the whole confidence interval of the shift (or of the rate ratio)
 * lies beyond the threshold.
 */
static enum cmp_outcome judge(const struct cmp_rule *ru, const struct cmp_row *row, int s,
			      const struct cmp_config *cfg, char *why, size_t len)
{
	const struct cmp_cellstat *st = &row->st[s];
	size_t na = row->series[0].n, nb = row->series[s].n;
	bool beyond;

	if (!na || !nb) {
		snprintf(why, len, "no values of '%s' in the %s set", row->metric, !na ? "first" : "compared");
		return CMP_CANNOT_JUDGE;
	}
	if (!st->judgeable) {
		snprintf(why, len, "%zu vs %zu runs: the smallest possible p is %.3g >= alpha %g (use repeat >= 5)",
			 na, nb, cmp_min_p(na, nb), cfg->alpha);
		return CMP_CANNOT_JUDGE;
	}
	if (isnan(st->pct_lo) || isnan(st->pct_hi)) {
		snprintf(why, len, "the first set's median is 0: a %% change cannot be formed");
		return CMP_CANNOT_JUDGE;
	}
	if (!rule_means_worse(ru, row)) {
		snprintf(why, len, "a %s of '%s' is an improvement (%s is better)",
			 ru->op == '>' ? "rise" : "fall", row->metric,
			 row->better == LJ_BETTER_LOWER ? "lower" : "higher");
		return CMP_PASS;
	}
	beyond = ru->op == '>' ? st->pct_lo > ru->pct : st->pct_hi < ru->pct;
	if (st->p < cfg->alpha && beyond) {
		snprintf(why, len, "%+.2f%% [%+.2f%%, %+.2f%%] (p=%.3g, n=%zu vs %zu)", st->pct_est,
			 st->pct_lo, st->pct_hi, st->p, na, nb);
		return CMP_FAIL;
	}
	snprintf(why, len, "%+.2f%% [%+.2f%%, %+.2f%%]: interval not beyond %+g%%", st->pct_est,
		 st->pct_lo, st->pct_hi, ru->pct);
	return CMP_PASS;
}

static void report_outcome(const struct cmp_rule *ru, const struct cmp_row *row, const char *label,
			   enum cmp_outcome o, const char *why)
{
	const char *pre = *row->cell ? " [" : "", *post = *row->cell ? "]" : "";

	if (o == CMP_FAIL)
		lj_error("gate failed: %s: %s%s%s%s %s: %s in '%s'", ru->text, row->workload, pre,
			 row->cell, post, row->metric, why, label);
	else if (o == CMP_CANNOT_JUDGE)
		lj_warn("gate cannot judge: %s: %s%s%s%s %s in '%s': %s", ru->text, row->workload, pre,
			row->cell, post, row->metric, label, why);
}

static void rule_apply(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_rule *ru, bool report)
{
	for (size_t i = 0; i < d->nrows; i++) {
		struct cmp_row *row = d->rows[i];

		if (!rule_matches(ru, row))
			continue;
		ru->matched++;
		for (int s = 1; s < d->nsets; s++) {
			struct cmp_cellstat *st = &row->st[s];
			char why[160];
			enum cmp_outcome o = judge(ru, row, s, cfg, why, sizeof(why));

			if (o == CMP_FAIL)
				ru->failures++;
			if (o == CMP_CANNOT_JUDGE)
				ru->cannot_judge++;
			/* a row keeps its worst outcome: fail, then cannot judge, then pass */
			if (st->outcome == CMP_NOT_GATED || (o == CMP_FAIL) ||
			    (o == CMP_CANNOT_JUDGE && st->outcome == CMP_PASS)) {
				st->outcome = o;
				snprintf(st->reason, sizeof(st->reason), "%s: %s", ru->text, why);
			}
			st->gate_failed |= o == CMP_FAIL;
			if (report)
				report_outcome(ru, row, d->sets[s].label, o, why);
		}
	}
}

int cmp_gate(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_rule *rules, int nrules,
	     bool report)
{
	int failing = 0, undecided = 0, unmatched = 0;

	for (int k = 0; k < nrules; k++) {
		struct cmp_rule *ru = &rules[k];

		rule_apply(d, cfg, ru, report);
		if (!ru->matched) {
			if (report)
				lj_error("--fail-on '%s': no result has metric '%s' for workload '%s'", ru->text,
					 ru->metric, ru->workload);
			unmatched++;
		}
		failing += ru->failures > 0;
		undecided += ru->cannot_judge > 0;
	}
	return cmp_rules_exit(cfg, unmatched, failing, undecided);
}

int cmp_rules_exit(const struct cmp_config *cfg, int unmatched, int failing, int undecided)
{
	if (unmatched)
		return LJ_EXIT_USAGE;
	if (failing)
		return LJ_EXIT_THRESHOLD;
	if (undecided && !cfg->cannot_judge_ok)
		return CMP_EXIT_CANNOT_JUDGE;
	return 0;
}
