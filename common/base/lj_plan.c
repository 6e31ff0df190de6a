// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_plan - sample sizes for a comparison to detect a change, and the samples a tail needs. */
#include "lj_plan.h"
#include "lj_stats.h"

#include <math.h>
#include <string.h>

static double z_sum(double alpha, double power)
{
	return lj_stats_norm_quantile(1 - alpha / 2) + lj_stats_norm_quantile(power);
}

/* The fewest runs per side whose exact two-sided Mann-Whitney p can fall below alpha. */
static size_t fewest_runs(double alpha)
{
	for (size_t n = 1; n < 64; n++) {
		double c = 1;

		for (size_t i = 1; i <= n; i++)
			c = c * (double)(n + i) / (double)i;
		if (2.0 / c < alpha)
			return n;
	}
	return 64;
}

size_t lj_plan_runs_shift(double cv_pct, double change_pct, double alpha, double power)
{
	double z, n;

	if (!(cv_pct >= 0) || !(change_pct != 0) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return 0;
	z = z_sum(alpha, power);
	n = 2 * z * z * (cv_pct / change_pct) * (cv_pct / change_pct) / (3 / M_PI);
	n = ceil(n - 1e-9);
	return n < (double)fewest_runs(alpha) ? fewest_runs(alpha) : (size_t)n;
}

size_t lj_plan_runs_rate(double per_run, double change_pct, double alpha, double power)
{
	double z, d, n;

	if (!(per_run > 0) || !(change_pct > -100) || change_pct == 0 || !(alpha > 0 && alpha < 1) ||
	    !(power > 0 && power < 1))
		return 0;
	z = z_sum(alpha, power);
	d = sqrt(per_run * (1 + change_pct / 100)) - sqrt(per_run);
	n = ceil(z * z / (4 * d * d) - 1e-9);
	return n < 1 ? 1 : (size_t)n;
}

size_t lj_plan_quantile_samples(double q, double alpha)
{
	if (!(q > 0 && q < 1) || !(alpha > 0 && alpha < 1))
		return 0;
	return (size_t)ceil(log(alpha / 2) / log(q) - 1e-9);
}

double lj_plan_metric_quantile(const char *name)
{
	const char *p;
	size_t len = strlen(name);
	double q = 0, scale = 0.1;

	if (!strcmp(name, "max") || (len > 4 && !strcmp(name + len - 4, "_max")))
		return 1;
	/* the quantile part: "p" then digits, "." or "_" as the decimal point of 99.9 */
	p = name;
	while ((p = strchr(p, 'p'))) {
		if ((p == name || p[-1] == '_') && p[1] >= '0' && p[1] <= '9')
			break;
		p++;
	}
	if (!p)
		return 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		q = q * 10 + (*p - '0');
	if (*p == '.' || *p == '_')
		for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10)
			q += (*p - '0') * scale;
	if (*p || q <= 0 || q >= 100)
		return 0;
	return q / 100;
}
