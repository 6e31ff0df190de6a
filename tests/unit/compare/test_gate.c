// SPDX-License-Identifier: GPL-2.0-or-later
/* test_gate - lj-compare's gate rules and analysis on in-memory sets with known answers. */
#include "../../../tools/compare/compare.h"
#include "lj_err.h"
#include "../tap.h"
#include "../fixture_verdicts.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void test_rule_parse(void)
{
	struct cmp_rule r;
	char why[256] = "";

	is_int(cmp_rule_parse("cyclic.max>+10%", &r, why, sizeof(why)), 0, "a rise rule parses");
	ok(!strcmp(r.workload, "cyclic") && !strcmp(r.metric, "max") && r.op == '>' && r.pct == 10,
	   "workload, metric, op and threshold");
	is_int(cmp_rule_parse("*.p99.9<-5.5%", &r, why, sizeof(why)), 0, "wildcard workload, dotted metric");
	ok(!strcmp(r.workload, "*") && !strcmp(r.metric, "p99.9") && r.op == '<' && r.pct == -5.5,
	   "the metric keeps its dots");
	is_int(cmp_rule_parse("cyclic.max>10", &r, why, sizeof(why)), -EINVAL, "no % is rejected");
	is_str(why, "the threshold must be a percentage ending in %", "no %: the reason says so");
	is_int(cmp_rule_parse("cyclicmax>10%", &r, why, sizeof(why)), -EINVAL, "no workload is rejected");
	is_str(why, "expected WORKLOAD.METRIC>+N% or WORKLOAD.METRIC<-N%", "no workload: the form expected");
	is_int(cmp_rule_parse("cyclic.>10%", &r, why, sizeof(why)), -EINVAL, "no metric is rejected");
	is_int(cmp_rule_parse("cyclic.max>+1x%", &r, why, sizeof(why)), -EINVAL, "junk in the number is rejected");
}

/* The table's better/worse word for the one row's second set (output.c's rule). */
static const char *verdict_of(const struct cmp_data *d)
{
	const struct cmp_cellstat *st = &d->rows[0]->st[1];

	if (!st->significant)
		return "";
	return (st->shift.estimate < 0) == (d->rows[0]->better == LJ_BETTER_LOWER) ? "better" : "worse";
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
	char why[256] = "";

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

	cmp_rule_parse("cyclic.mean>+10%", &rules[0], why, sizeof(why));
	cmp_rule_parse("cyclic.p99>+10%", &rules[1], why, sizeof(why));
	cmp_rule_parse("*.max>+0%", &rules[2], why, sizeof(why));
	is_int(cmp_gate(&d, &cfg, rules, 3, false), LJ_EXIT_THRESHOLD, "one rule fails: exit 3");
	is_int(rules[0].failures, 1, "the significant +19.6% fails its rule");
	is_int(rules[1].failures, 0, "+50% on 2 vs 2 runs does not fail...");
	is_int(rules[1].cannot_judge, 1, "...it cannot be judged");
	is_int(rules[2].failures, 0, "no change passes");
	for (size_t i = 0; i < d.nrows; i++) {
		struct cmp_row *r = d.rows[i];

		if (!strcmp(r->metric, "mean")) {
			is_near(r->st[1].pct_mean, 20.0 / 102 * 100, 1e-9, "% change of the mean");
			is_near(r->st[1].mwu.p, 2.0 / 252, 1e-6, "exact Mann-Whitney p for 5 vs 5, no overlap");
			is_near(r->st[1].shift.estimate, log(122.0 / 102), 1e-12,
				"Hodges-Lehmann shift on the log scale: the median log ratio, 122/102");
			is_near(r->st[1].p_adj, 3 * 2.0 / 252, 1e-9, "Holm over the 3 rows: the smallest p times 3");
			ok(r->st[1].gate_failed, "the row is marked as failing the gate");
			ok(isnan(r->st[0].pct_mean), "the first set has no % change");
		}
	}
	cmp_free(&d);
}

/* A fresh two-set comparison holding whatever the caller adds. */
static void reset(struct cmp_data *d)
{
	cmp_free(d);
	memset(d, 0, sizeof(*d));
	d->nsets = 2;
}

static void add_vals(struct cmp_data *d, int set, const char *w, const char *m, enum lj_better b,
		     const double *v, int n)
{
	for (int i = 0; i < n; i++)
		cmp_add_value(d, set, w, "", m, b == LJ_BETTER_HIGHER ? "Hz" : "ns", b, v[i]);
}

/* A fresh comparison of metric @m of workload "cyclic": @a against @b. */
static void two_sets(struct cmp_data *d, const char *m, enum lj_better b, const double *a, int na,
		     const double *bv, int nb)
{
	reset(d);
	add_vals(d, 0, "cyclic", m, b, a, na);
	add_vals(d, 1, "cyclic", m, b, bv, nb);
}

static int gate1(struct cmp_data *d, const struct cmp_config *cfg, const char *text, struct cmp_rule *r)
{
	char why[256] = "";

	cmp_sort_rows(d);
	cmp_analyse(d, cfg);
	cmp_rule_parse(text, r, why, sizeof(why));
	return cmp_gate(d, cfg, r, 1, false);
}

/* Each case of issue 10's "Why" list, with the answer it should have had. */
static void test_why_cases(void)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	struct cmp_data d = { 0 };
	struct cmp_rule r;
	const double drops[] = { 7, 8, 9, 11, 12 };
	const double a8[] = { 100, 101, 102, 103, 104, 105, 106, 107 };
	/* 7 of 8 runs 5% faster, one outlier run: the mean rises 20%, the runs shifted down */
	const double b8[] = { 95, 96, 97, 98, 99, 100, 101, 310 };
	const double fa[] = { 60, 61, 59, 60.5, 59.5 }, fb[] = { 72, 73, 71, 72.5, 71.5 };
	const double three_a[] = { 10, 11, 12 }, three_b[] = { 20, 21, 22 };

	/* 1. zero baseline: dropped 0 x5 -> 7, 8, 9, 11, 12 of 120 frames per run */
	reset(&d);
	for (int i = 0; i < 5; i++) {
		cmp_add_count(&d, 0, "frame", "", "dropped", "frames", LJ_BETTER_LOWER, 0, 120);
		cmp_add_count(&d, 1, "frame", "", "dropped", "frames", LJ_BETTER_LOWER, drops[i], 120);
	}
	is_int(gate1(&d, &cfg, "frame.dropped>+10%", &r), LJ_EXIT_THRESHOLD, "1. a rise from a zero baseline fails");
	ok(d.rows[0]->st[1].significant && isinf(d.rows[0]->st[1].pct_est),
	   "1. marked significant; the change from 0 is unbounded in %");
	is_near(d.rows[0]->st[1].rate.p, pow(2, -46), 1e-20,
		"1. p = 2 * 0.5^47: 47 events, all in the candidate, equal exposure (binom.test)");

	/* 2. a typo names no metric: usage error */
	is_int(gate1(&d, &cfg, "frame.dropepd>+10%", &r), LJ_EXIT_USAGE, "2. a rule naming no metric exits 2");
	/* 2. the candidate has no values of the metric: cannot judge */
	reset(&d);
	add_vals(&d, 0, "cyclic", "p99", LJ_BETTER_LOWER, a8, 8);
	add_vals(&d, 1, "cyclic", "max", LJ_BETTER_LOWER, a8, 8);
	is_int(gate1(&d, &cfg, "cyclic.p99>+10%", &r), CMP_EXIT_CANNOT_JUDGE,
	       "2. no values in the candidate: cannot judge, exit 4");
	/* 2. 3 vs 3 runs: the smallest p is 0.1 */
	reset(&d);
	add_vals(&d, 0, "cyclic", "p99", LJ_BETTER_LOWER, three_a, 3);
	add_vals(&d, 1, "cyclic", "p99", LJ_BETTER_LOWER, three_b, 3);
	is_int(gate1(&d, &cfg, "cyclic.p99>+10%", &r), CMP_EXIT_CANNOT_JUDGE, "2. 3 vs 3 runs: cannot judge, exit 4");
	ok(strstr(d.rows[0]->st[1].reason, "smallest possible p is 0.1") != NULL, "2. the reason says why");
	cfg.cannot_judge_ok = true;
	is_int(gate1(&d, &cfg, "cyclic.p99>+10%", &r), 0, "2. --cannot-judge-ok: exit 0");
	cfg.cannot_judge_ok = false;

	/* 3. outlier-driven mean rise with a downward shift of the runs */
	reset(&d);
	add_vals(&d, 0, "cyclic", "mean", LJ_BETTER_LOWER, a8, 8);
	add_vals(&d, 1, "cyclic", "mean", LJ_BETTER_LOWER, b8, 8);
	is_int(gate1(&d, &cfg, "cyclic.mean>+10%", &r), 0, "3. a mean rise from one outlier does not fire");
	ok(d.rows[0]->st[1].pct_mean > 19 && d.rows[0]->st[1].shift.estimate < 0,
	   "3. mean +20%, Hodges-Lehmann shift downward");
	/* R: wilcox.test(log(b8), log(a8), conf.int = TRUE) (ties: asymptotic, uniroot's tolerance) */
	ok(fabs(d.rows[0]->st[1].shift.lo - -0.0792014290461092590) < 2e-4 &&
	   fabs(d.rows[0]->st[1].shift.hi - -0.0099778136871366448) < 2e-4 && d.rows[0]->st[1].pct_hi < 0,
	   "3. the runs fell: ratio interval [0.924, 0.990] (R's wilcox.test on the logs)");
	ok(!strcmp(verdict_of(&d), "") || !strcmp(verdict_of(&d), "better"),
	   "3. the table never calls it worse");
	/* 3. an improvement does not fail a rule written for the other direction */
	reset(&d);
	add_vals(&d, 0, "frame", "fps", LJ_BETTER_HIGHER, fa, 5);
	add_vals(&d, 1, "frame", "fps", LJ_BETTER_HIGHER, fb, 5);
	is_int(gate1(&d, &cfg, "frame.fps>+10%", &r), 0, "3. +20% fps (higher is better) passes 'fps>+10%'");
	ok(!strcmp(verdict_of(&d), "better"), "3. ... and the table calls it better");
	is_int(gate1(&d, &cfg, "frame.fps<-10%", &r), 0, "3. and 'fps<-10%' passes too");
	cmp_free(&d);
}

/*
 * 200 comparisons of two sets drawn from one distribution, 14 metrics each
 * (10 continuous, 4 counts), 5 vs 5 runs: with the Holm adjustment at most
 * 5% of the comparisons may show any significant row. Seeded: the same
 * data on every machine.
 */
static uint64_t rng = 0x10c0ffee;

static double urand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((rng >> 11) + 0.5) / 9007199254740992.0;
}

static double poisson(double lambda)
{
	double l = exp(-lambda), p = 1;
	int k = 0;

	do {
		k++;
		p *= urand();
	} while (p > l);
	return k - 1;
}

static void test_same_distribution(void)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	int any = 0, raw_any = 0;

	for (int c = 0; c < 200; c++) {
		struct cmp_data d = { .nsets = 2 };
		bool star = false, raw = false;

		for (int m = 0; m < 14; m++) {
			char name[16];

			snprintf(name, sizeof(name), "m%d", m);
			for (int s = 0; s < 2; s++)
				for (int i = 0; i < 5; i++) {
					if (m < 10)	/* lognormal-ish latencies */
						cmp_add_value(&d, s, "w", "", name, "ns", LJ_BETTER_LOWER,
							      1000 * exp(0.1 * (urand() + urand() + urand() - 1.5)));
					else
						cmp_add_count(&d, s, "w", "", name, "count", LJ_BETTER_LOWER,
							      poisson(m == 10 ? 0.2 : 3 * (m - 9)), 1);
				}
		}
		cmp_analyse(&d, &cfg);
		for (size_t i = 0; i < d.nrows; i++) {
			star |= d.rows[i]->st[1].significant;
			raw |= d.rows[i]->st[1].p < cfg.alpha;
		}
		any += star;
		raw_any += raw;
		cmp_free(&d);
	}
	diag("same distribution: %d of 200 comparisons with a * (Holm), %d with a raw p < 0.05", any, raw_any);
	ok(any <= 10, "same distribution: spurious * in at most 5% of 200 comparisons");
	ok(raw_any > any, "the raw p-values alone would have flagged more (the adjustment matters)");
}

/*
 * Positive metrics shift on the log scale: lj-compare's ratio and interval
 * are R's wilcox.test(log(b), log(a), conf.int = TRUE), exponentiated
 * (tests/fixtures/stats/reference.R), and never below -100 % where the
 * raw differences' interval, in % of the first median, went far below.
 */
static void test_ratio_scale(void)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	struct cmp_data d = { 0 };
	struct cmp_rule r;
	char name[160];

	for (size_t i = 0; i < sizeof(ratio_cases) / sizeof(ratio_cases[0]); i++) {
		const struct hl_case *c = &ratio_cases[i].logs;
		const struct cmp_cellstat *st;
		/* R's asymptotic bounds come from uniroot (tol 1e-4 of the range); exact ones are data */
		double tol = c->exact ? 1e-9 : 1e-4 * (fabs(c->hi - c->lo) + 1);

		two_sets(&d, "p99", LJ_BETTER_LOWER, c->a, c->na, c->b, c->nb);
		gate1(&d, &cfg, "cyclic.p99>+10%", &r);
		st = &d.rows[0]->st[1];
		snprintf(name, sizeof(name), "%s: a ratio x%.4g [%.4g, %.4g] as R's, on the log scale", c->name,
			 exp(c->estimate), exp(c->lo), exp(c->hi));
		ok(st->ratio && fabs(log1p(st->pct_est / 100) - c->estimate) <= tol &&
		   fabs(log1p(st->pct_lo / 100) - c->lo) <= tol && fabs(log1p(st->pct_hi / 100) - c->hi) <= tol, name);
		snprintf(name, sizeof(name), "%s: its interval starts at %+.1f%%, not at the differences' %+.0f%%",
			 c->name, st->pct_lo, ratio_cases[i].raw_lo_pct);
		ok(st->pct_lo > -100, name);
	}
	/* The gate keeps its meaning: a halving of a spiky p99 passes 'p99>+10%' and fails 'p99<-10%'. */
	two_sets(&d, "p99", LJ_BETTER_LOWER, ratio_spike_halved_a, 6, ratio_spike_halved_b, 6);
	is_int(gate1(&d, &cfg, "cyclic.p99>+10%", &r), 0, "a halved p99 passes a rule against a rise");
	two_sets(&d, "fps", LJ_BETTER_HIGHER, ratio_spike_halved_a, 6, ratio_spike_halved_b, 6);
	is_int(gate1(&d, &cfg, "cyclic.fps<-10%", &r), LJ_EXIT_THRESHOLD,
	       "a halved fps fails 'fps<-10%': the ratio's whole interval [0.48, 0.52] is below 0.9");
	/* A metric with a zero run: differences, cut at -100 % (the most a non-negative metric can fall). */
	{
		const double za[] = { 0, 20, 22, 400, 25 }, zb[] = { 30, 50, 1500, 0, 55 };

		two_sets(&d, "p99", LJ_BETTER_LOWER, za, 5, zb, 5);
		gate1(&d, &cfg, "cyclic.p99>+10%", &r);
		ok(!d.rows[0]->st[1].ratio && d.rows[0]->st[1].pct_lo == -100 && d.rows[0]->st[1].shift.lo / 22 * 100 < -100,
		   "a metric with a zero run: the differences' interval, cut at -100 %");
	}
	cmp_free(&d);
}

/* --limit: parsing, the worst run of the last set, units, and the exit status. */
static void test_limits(void)
{
	struct cmp_config cfg = { .alpha = 0.05, .cv_warn = 10 };
	struct cmp_data d = { 0 };
	struct cmp_limit l[2];
	char why[256] = "";
	const double lat[] = { 40000, 61234, 52000 }, rate[] = { 0.005, 0.012, 0.0 }, tput[] = { 9e5, 7e5 };

	is_int(cmp_limit_parse("*.max<=50us", &l[0], why, sizeof(why)), 0, "limit: '*.max<=50us' parses");
	ok(!strcmp(l[0].workload, "*") && !strcmp(l[0].metric, "max") && !strcmp(l[0].op, "<=") &&
	   l[0].value * l[0].scale == 50000 && l[0].time, "limit: 50 us is 50000 ns, a time");
	is_int(cmp_limit_parse("frame.drop_rate<1%", &l[0], why, sizeof(why)), 0, "limit: a percentage parses");
	ok(fabs(l[0].value * l[0].scale - 0.01) < 1e-15 && !l[0].time && !strcmp(l[0].op, "<"), "limit: 1% is 0.01");
	is_int(cmp_limit_parse("cyclic.max=50us", &l[0], why, sizeof(why)), -EINVAL, "limit: '=' is no operator");
	is_int(cmp_limit_parse("cyclic.max<=fast", &l[0], why, sizeof(why)), -EINVAL, "limit: a word is no value");
	is_int(cmp_limit_parse("max<=50us", &l[0], why, sizeof(why)), -EINVAL, "limit: a workload is needed");

	two_sets(&d, "max", LJ_BETTER_LOWER, lat, 3, lat, 3);
	d.nsets = 1;	/* limits judge the last set: here the only one */
	cmp_sort_rows(&d);
	cmp_analyse(&d, &cfg);
	cmp_limit_parse("cyclic.max<=60us", &l[0], NULL, 0);
	is_int(cmp_limits(&d, &cfg, l, 1, false), LJ_EXIT_THRESHOLD, "limit: one run of 61.2 us breaks <= 60 us: exit 3");
	ok(d.rows[0]->limit == CMP_FAIL && d.rows[0]->limit_worst == 61234 && strstr(d.rows[0]->limit_reason, "run 2 of 3"),
	   "limit: the worst run (the 2nd, 61234 ns) is the one judged and named");
	d.rows[0]->limit = CMP_NOT_GATED;
	cmp_limit_parse("cyclic.max<=61.234us", &l[0], NULL, 0);
	is_int(cmp_limits(&d, &cfg, l, 1, false), 0, "limit: <= holds at equality");
	d.rows[0]->limit = CMP_NOT_GATED;
	cmp_limit_parse("cyclic.max<61.234us", &l[0], NULL, 0);
	is_int(cmp_limits(&d, &cfg, l, 1, false), LJ_EXIT_THRESHOLD, "limit: < does not");
	d.rows[0]->limit = CMP_NOT_GATED;
	cmp_limit_parse("cyclic.p99<=60us", &l[0], NULL, 0);
	is_int(cmp_limits(&d, &cfg, l, 1, false), LJ_EXIT_USAGE, "limit: a metric no result has is bad input");

	reset(&d);
	d.nsets = 1;
	add_vals(&d, 0, "frame", "drop_rate", LJ_BETTER_LOWER, rate, 3);
	add_vals(&d, 0, "hackbench", "msgs_per_s", LJ_BETTER_HIGHER, tput, 2);
	cmp_sort_rows(&d);
	cmp_analyse(&d, &cfg);
	cmp_limit_parse("frame.drop_rate<=1%", &l[0], NULL, 0);
	cmp_limit_parse("hackbench.msgs_per_s>=800000", &l[1], NULL, 0);
	is_int(cmp_limits(&d, &cfg, l, 2, false), LJ_EXIT_THRESHOLD, "limit: 1.2% dropped and 700000 msgs/s both fail");
	ok(l[0].failures == 1 && l[1].failures == 1, "limit: the lower bound judges the smallest run");
	cmp_limit_parse("hackbench.msgs_per_s<=1ms", &l[0], NULL, 0);
	d.rows[0]->limit = d.rows[1]->limit = CMP_NOT_GATED;
	is_int(cmp_limits(&d, &cfg, l, 1, false), CMP_EXIT_CANNOT_JUDGE, "limit: a time on a rate cannot judge: exit 4");
	cmp_free(&d);
}

int main(void)
{
	lj_err_init("test_gate");
	plan_no_plan();
	test_rule_parse();
	test_gate();
	test_why_cases();
	test_same_distribution();
	test_ratio_scale();
	test_limits();
	return done();
}
