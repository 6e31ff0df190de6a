/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_plan - how many runs and samples a comparison needs: sample sizes and tail limits. */
#ifndef LJ_PLAN_H
#define LJ_PLAN_H

#include <stddef.h>

/*
 * Runs per side for a two-sided Mann-Whitney test at @alpha to detect a
 * shift of @change_pct % with probability @power, when the runs vary with
 * coefficient of variation @cv_pct %: the normal-theory size
 * 2 (z(1 - alpha/2) + z(power))^2 (cv / change)^2, divided by Mann-Whitney's
 * efficiency against the t test for normal data (3 / pi), rounded up, and
 * never below the fewest runs whose exact test can reach @alpha at all
 * (2 / C(2n, n) < alpha). 0 on bad input.
 */
size_t lj_plan_runs_shift(double cv_pct, double change_pct, double alpha, double power);

/*
 * Runs per side to detect a change of @change_pct % in a count whose
 * baseline rate is @per_run events per run (pooled-count test, the
 * square-root normal approximation of two Poisson rates):
 * (z(1 - alpha/2) + z(power))^2 / (4 (sqrt(r (1 + d)) - sqrt(r))^2).
 * 0 when @per_run is 0 (no rate to scale) or on bad input.
 */
size_t lj_plan_runs_rate(double per_run, double change_pct, double alpha, double power);

/*
 * Samples a run needs before its @q quantile is backed by data: the
 * distribution-free upper confidence bound (level 1 - alpha/2 one-sided)
 * of the q quantile is the sample of rank u with P(Binomial(n, q) < u) >=
 * 1 - alpha/2; it exists (u <= n) once 1 - q^n >= 1 - alpha/2, i.e.
 * n >= ln(alpha/2) / ln(q). p99: 368, p99.9: 3,688, p99.99: 36,887 at
 * alpha 0.05. 0 on bad input.
 */
size_t lj_plan_quantile_samples(double q, double alpha);

/*
 * The quantile a summary metric name stands for: "p99" 0.99, "p99_9" and
 * "p99.9" 0.999, "p50" 0.5, "rt_p99" 0.99; 1 for "max" and names ending
 * in "_max"; 0 when the name is not a quantile.
 */
double lj_plan_metric_quantile(const char *name);

#endif
