// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_summary - a result's "summary" entries, and the one percentile set every histogram is summarised by. */
#include "lj_summary.h"
#include "lj_json.h"

#include "lj_hist.h"

#include <stdio.h>

const struct lj_pct lj_pcts[LJ_PCT_N] = {
	{ "p50", "p50", 0.50 }, { "p90", "p90", 0.90 }, { "p99", "p99", 0.99 },
	{ "p99_9", "p99.9", 0.999 }, { "p99_99", "p99.99", 0.9999 },
};

const char *lj_better_name(enum lj_better b)
{
	switch (b) {
	case LJ_BETTER_LOWER:
		return "lower";
	case LJ_BETTER_HIGHER:
		return "higher";
	default:
		return "none";
	}
}

void lj_summary_put(json_object *summary, const char *metric, double value, const char *unit,
		    enum lj_better better)
{
	json_object *m = json_object_new_object();

	if (!m)
		return;
	lj_json_add(m, "value", lj_json_num_short(value));
	lj_json_add(m, "unit", json_object_new_string(unit ? unit : ""));
	lj_json_add(m, "better", json_object_new_string(lj_better_name(better)));
	lj_json_add(summary, metric, m);
}

/* @prefix @name into @buf. */
static const char *named(char *buf, size_t len, const char *prefix, const char *name)
{
	snprintf(buf, len, "%s%s", prefix, name);
	return buf;
}

void lj_summary_hist(json_object *summary, const char *prefix, const struct lj_hist *h)
{
	char k[96];

	lj_summary_put(summary, named(k, sizeof(k), prefix, "min"), (double)lj_hist_min(h), "ns", LJ_BETTER_LOWER);
	lj_summary_put(summary, named(k, sizeof(k), prefix, "mean"), lj_hist_mean(h), "ns", LJ_BETTER_LOWER);
	for (int i = 0; i < LJ_PCT_N; i++)
		lj_summary_put(summary, named(k, sizeof(k), prefix, lj_pcts[i].name),
			       (double)lj_hist_quantile(h, lj_pcts[i].q), "ns", LJ_BETTER_LOWER);
	lj_summary_put(summary, named(k, sizeof(k), prefix, "max"), (double)lj_hist_max(h), "ns", LJ_BETTER_LOWER);
	lj_summary_put(summary, named(k, sizeof(k), prefix, "samples"), (double)lj_hist_count(h), "count",
		       LJ_BETTER_NONE);
}
