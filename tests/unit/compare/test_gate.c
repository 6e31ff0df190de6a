// SPDX-License-Identifier: GPL-2.0-or-later
/* test_gate - lj-compare's gate rules and analysis on in-memory sets with known answers. */
#include "../../../tools/compare/compare.h"
#include "lj_err.h"
#include "../tap.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void test_rule_parse(void)
{
	struct cmp_rule r;
	const char *why = NULL;

	is_int(cmp_rule_parse("cyclic.max>+10%", &r, &why), 0, "a rise rule parses");
	ok(!strcmp(r.workload, "cyclic") && !strcmp(r.metric, "max") && r.op == '>' && r.pct == 10,
	   "workload, metric, op and threshold");
	is_int(cmp_rule_parse("*.p99.9<-5.5%", &r, &why), 0, "wildcard workload, dotted metric");
	ok(!strcmp(r.workload, "*") && !strcmp(r.metric, "p99.9") && r.op == '<' && r.pct == -5.5,
	   "the metric keeps its dots");
	is_int(cmp_rule_parse("cyclic.max>10", &r, &why), -EINVAL, "no % is rejected");
	is_int(cmp_rule_parse("cyclicmax>10%", &r, &why), -EINVAL, "no workload is rejected");
	is_int(cmp_rule_parse("cyclic.>10%", &r, &why), -EINVAL, "no metric is rejected");
	is_int(cmp_rule_parse("cyclic.max>+1x%", &r, &why), -EINVAL, "junk in the number is rejected");
}

static void add_set(struct cmp_data *d, int set, const char *metric, double base, double step, int n)
{
	for (int i = 0; i < n; i++)
		cmp_add_value(d, set, "cyclic", "cgroup=off", metric, "ns", LJ_BETTER_LOWER,
			      base + step * i);
}

static void test_gate(void)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	struct cmp_data d = { 0 };
	struct cmp_rule rules[3];
	const char *why;

	d.nsets = 2;
	/* mean: 100..104 against 120..124: +19.6% (102 -> 122), every value larger: p = 2/252 */
	add_set(&d, 0, "mean", 100, 1, 5);
	add_set(&d, 1, "mean", 120, 1, 5);
	/* max: the same values in both: no change */
	add_set(&d, 0, "max", 1000, 10, 5);
	add_set(&d, 1, "max", 1000, 10, 5);
	/* p99: +50% but only 2 vs 2 runs: never significant */
	add_set(&d, 0, "p99", 10, 1, 2);
	add_set(&d, 1, "p99", 15, 1, 2);
	cmp_sort_rows(&d);
	cmp_analyse(&d, &cfg);
	is_int(d.nrows, 3, "three rows");

	cmp_rule_parse("cyclic.mean>+10%", &rules[0], &why);
	cmp_rule_parse("cyclic.p99>+10%", &rules[1], &why);
	cmp_rule_parse("*.max>+0%", &rules[2], &why);
	is_int(cmp_gate(&d, &cfg, rules, 3, false), 1, "one rule fails");
	is_int(rules[0].failures, 1, "the significant +19.6% fails its rule");
	is_int(rules[1].failures, 0, "+50% on 2 vs 2 runs is not significant: passes");
	is_int(rules[2].failures, 0, "no change passes");
	for (size_t i = 0; i < d.nrows; i++) {
		struct cmp_row *r = d.rows[i];

		if (!strcmp(r->metric, "mean")) {
			is_near(r->st[1].pct_mean, 20.0 / 102 * 100, 1e-9, "% change of the mean");
			is_near(r->st[1].mwu.p, 2.0 / 252, 1e-6, "exact Mann-Whitney p for 5 vs 5, no overlap");
			ok(r->st[1].gate_failed, "the row is marked as failing the gate");
			ok(isnan(r->st[0].pct_mean), "the first set has no % change");
		}
	}
	cmp_free(&d);
}

int main(void)
{
	lj_err_init("test_gate");
	plan_no_plan();
	test_rule_parse();
	test_gate();
	return done();
}
