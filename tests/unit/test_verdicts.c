// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_verdicts - the statistics behind lj-compare's verdicts against R's answers
 * (fixture_verdicts.h, written by tests/fixtures/stats/reference.R): the
 * Hodges-Lehmann shift and its interval (exact and asymptotic), Mann-Whitney's
 * exact/asymptotic switch, the conditional binomial rate test, Holm and BH.
 */
#include "lj_adjust.h"
#include "lj_plan.h"
#include "lj_rate.h"
#include "lj_shift.h"
#include "lj_stats.h"
#include "fixture_verdicts.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* R's asymptotic bounds come from uniroot (tol 1e-4 of the range); exact ones are data values. */
static double tol_for(const struct hl_case *c)
{
	return c->exact ? 1e-9 : 1e-4 * (fabs(c->hi - c->lo) + 1);
}

static void test_hl(void)
{
	for (size_t i = 0; i < N(hl_cases); i++) {
		const struct hl_case *c = &hl_cases[i];
		struct lj_shift s;
		struct lj_mwu m;
		char name[128];

		is_int(lj_shift_hl(c->a, c->na, c->b, c->nb, 0.95, &s), 0, c->name);
		snprintf(name, sizeof(name), "%s: %s path as R", c->name, c->exact ? "exact" : "asymptotic");
		is_int(s.exact, c->exact, name);
		snprintf(name, sizeof(name), "%s: Hodges-Lehmann estimate %g", c->name, c->estimate);
		is_near(s.estimate, c->estimate, tol_for(c), name);
		snprintf(name, sizeof(name), "%s: 95%% interval low %g", c->name, c->lo);
		is_near(s.lo, c->lo, tol_for(c), name);
		snprintf(name, sizeof(name), "%s: 95%% interval high %g", c->name, c->hi);
		is_near(s.hi, c->hi, tol_for(c), name);
		lj_stats_mann_whitney(c->b, c->nb, c->a, c->na, &m);
		snprintf(name, sizeof(name), "%s: Mann-Whitney p %g", c->name, c->p);
		is_near(m.p, c->p, 1e-9 + 1e-7 * c->p, name);
	}
}

static void test_hl_reach(void)
{
	struct lj_shift s;

	lj_shift_hl(hl_three_vs_three_a, 3, hl_three_vs_three_b, 3, 0.95, &s);
	ok(!s.reached, "3 vs 3 cannot reach 95%: flagged");
	is_near(s.level, 0.9, 1e-12, "3 vs 3: the interval over all differences has level 1 - 2/20");
	lj_shift_hl(hl_five_vs_five_a, 5, hl_five_vs_five_b, 5, 0.95, &s);
	ok(s.reached && s.level >= 0.95, "5 vs 5 reaches 95%");
	is_int(lj_shift_hl(hl_five_vs_five_a, 0, hl_five_vs_five_b, 5, 0.95, &s), -22, "an empty side is -EINVAL");
}

/*
 * The exact table: R's dwilcox(0:24, 4, 6) * choose(10, 4), and for 49 vs 49
 * dwilcox(1200, 49, 49) * choose(98, 49) = 7.1884097112430515e25 (the
 * middle), dwilcox(7, ...) * choose(...) = 15, total choose(98, 49).
 */
static void test_counts(void)
{
	const double want[25] = { 1, 1, 2, 3, 5, 6, 9, 10, 13, 14, 16, 16, 18, 16, 16, 14, 13, 10, 9, 6,
				  5, 3, 2, 1, 1 };
	double *c = lj_stats_mwu_counts(4, 6), total = 0;
	size_t bad = 0;

	for (int u = 0; u < 25; u++)
		bad += c[u] != want[u];
	is_int(bad, 0, "U table for 4 vs 6: R's dwilcox, every count");
	free(c);
	c = lj_stats_mwu_counts(49, 49);
	for (int u = 0; u <= 49 * 49; u++)
		total += c[u];
	is_near(c[1200], 7.1884097112430515e25, 1e-12 * 7.2e25, "U table for 49 vs 49: the middle count (R)");
	is_near(c[7], 15, 0, "...a tail count, exact");
	is_near(c[49 * 49 - 7], 15, 0, "...and its mirror");
	is_near(total, 2.5477612258980968e28, 1e-12 * 2.55e28, "...summing to C(98, 49)");
	free(c);
}

static void test_switch(void)
{
	struct lj_mwu m;

	lj_stats_mann_whitney(mwu_switch_a, 50, mwu_switch_b, 49, &m);
	ok(!m.exact, "50 vs 49: normal approximation, as R");
	is_near(m.p, MWU_SWITCH_P, 1e-12, "50 vs 49: R's p");
	lj_stats_mann_whitney(mwu_switch_a, 49, mwu_switch_b, 49, &m);
	ok(m.exact, "49 vs 49 without ties: exact, as R");
	is_near(m.p, MWU_SWITCH_P49, 1e-12, "49 vs 49: R's exact p");
}

static void test_rate(void)
{
	for (size_t i = 0; i < N(rate_cases); i++) {
		const struct rate_case *c = &rate_cases[i];
		struct lj_rate_test t;
		char name[160];

		is_int(lj_rate_compare(c->x1, c->e1, c->x2, c->e2, 0.95, &t), 0, "rate test runs");
		snprintf(name, sizeof(name), "rate %g/%g vs %g/%g: p = %g", c->x1, c->e1, c->x2, c->e2, c->p);
		/* the incomplete beta's continued fraction: 1e-9 relative at two million events */
		is_near(t.p, c->p, 1e-8 * c->p + 1e-15, name);
		snprintf(name, sizeof(name), "rate %g/%g vs %g/%g: ratio interval low %g", c->x1, c->e1,
			 c->x2, c->e2, c->ratio_lo);
		is_near(t.ratio_lo, c->ratio_lo, 1e-7 * c->ratio_lo + 1e-12, name);
		snprintf(name, sizeof(name), "rate %g/%g vs %g/%g: ratio interval high %g", c->x1, c->e1,
			 c->x2, c->e2, c->ratio_hi);
		if (c->ratio_hi < 0)
			ok(isinf(t.ratio_hi), name);
		else
			is_near(t.ratio_hi, c->ratio_hi, 1e-7 * c->ratio_hi, name);
	}
}

static void test_adjust(void)
{
	double adj[N(adj_p)], with_nan[3] = { 0.01, NAN, 0.02 };
	size_t bad = 0;

	lj_adjust_p(adj_p, N(adj_p), LJ_ADJUST_HOLM, adj);
	for (size_t i = 0; i < N(adj_p); i++)
		bad += fabs(adj[i] - adj_holm[i]) > 1e-15;
	is_int(bad, 0, "Holm: R's p.adjust for 14 p-values");
	lj_adjust_p(adj_p, N(adj_p), LJ_ADJUST_BH, adj);
	bad = 0;
	for (size_t i = 0; i < N(adj_p); i++)
		bad += fabs(adj[i] - adj_bh[i]) > 1e-15;
	is_int(bad, 0, "Benjamini-Hochberg: R's p.adjust for 14 p-values");
	lj_adjust_p(with_nan, 3, LJ_ADJUST_HOLM, with_nan);
	ok(isnan(with_nan[1]) && with_nan[0] == 0.02 && with_nan[2] == 0.02,
	   "NAN is no test: Holm over the two others, in place");
}

/*
 * Sizes: R 4.2.2, z <- qnorm(0.975) + qnorm(0.8); ceiling(2 z^2 (cv/d)^2 /
 * (3/pi)) gives 3, 17, 264 for cv/d = 2/5, 10/10, 20/5; the rate formula
 * gives 88 (9.4/run, +10%), 23 (0.5/run, +100%), 79 (1000/run, +1%). The
 * tail sizes are checked with qbinom: at n = 368 the 97.5% upper rank of
 * the 0.99 quantile, qbinom(0.975, 368, 0.99) + 1 = 368 <= n, at 367 it is
 * 368 > n (likewise 3688 and 36887).
 */
static void test_plan(void)
{
	is_int(lj_plan_runs_shift(2, 5, 0.05, 0.8), 4, "plan: 2.63 runs, but 4 is the fewest that can reach 0.05");
	is_int(lj_plan_runs_shift(10, 10, 0.05, 0.8), 17, "plan: cv 10%, 10% change: 17 runs");
	is_int(lj_plan_runs_shift(20, 5, 0.05, 0.8), 264, "plan: cv 20%, 5% change: 264 runs");
	is_int(lj_plan_runs_rate(9.4, 10, 0.05, 0.8), 88, "plan: 9.4 events/run, +10%: 88 runs");
	is_int(lj_plan_runs_rate(0.5, 100, 0.05, 0.8), 23, "plan: 0.5 events/run doubling: 23 runs");
	is_int(lj_plan_runs_rate(1000, 1, 0.05, 0.8), 79, "plan: 1000 events/run, +1%: 79 runs");
	is_int(lj_plan_runs_rate(0, 10, 0.05, 0.8), 0, "plan: no baseline events, no answer");
	is_int(lj_plan_quantile_samples(0.99, 0.05), 368, "p99 needs 368 samples (qbinom)");
	is_int(lj_plan_quantile_samples(0.999, 0.05), 3688, "p99.9 needs 3688 samples");
	is_int(lj_plan_quantile_samples(0.9999, 0.05), 36887, "p99.99 needs 36887 samples");
	is_near(lj_plan_metric_quantile("p99_9"), 0.999, 1e-12, "p99_9 is the 0.999 quantile");
	is_near(lj_plan_metric_quantile("p99.99"), 0.9999, 1e-12, "p99.99 is the 0.9999 quantile");
	is_near(lj_plan_metric_quantile("rt_p99"), 0.99, 1e-12, "rt_p99 is the 0.99 quantile");
	is_near(lj_plan_metric_quantile("frame_p99"), 0.99, 1e-12, "frame_p99 is the 0.99 quantile");
	is_near(lj_plan_metric_quantile("rt_max"), 1, 0, "rt_max is the maximum");
	is_near(lj_plan_metric_quantile("dropped"), 0, 0, "dropped is no quantile");
	is_near(lj_plan_metric_quantile("samples"), 0, 0, "samples is no quantile");
}

int main(void)
{
	plan_no_plan();
	test_hl();
	test_hl_reach();
	test_counts();
	test_switch();
	test_rate();
	test_adjust();
	test_plan();
	return done();
}
