/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_summary - a result's "summary" entries, and the one percentile set every histogram is summarised by. */
#ifndef LJ_SUMMARY_H
#define LJ_SUMMARY_H

#include <json-c/json.h>

struct lj_hist;

enum lj_better { LJ_BETTER_LOWER, LJ_BETTER_HIGHER, LJ_BETTER_NONE };

/*
 * The percentiles of every histogram ljkit summarises: in a statistics
 * block (NAME_ns), in "summary" (PREFIX NAME), in the tools' text (LABEL)
 * and in lj-compare's headline, so that all of them line up.
 */
struct lj_pct {
	const char *name;	/* "p99_9": a JSON key's stem */
	const char *label;	/* "p99.9": the text's */
	double q;
};
#define LJ_PCT_N 5
extern const struct lj_pct lj_pcts[LJ_PCT_N];	/* p50, p90, p99, p99_9, p99_99 */

/* "lower", "higher", "none". */
const char *lj_better_name(enum lj_better b);

/*
 * @summary's entry @metric: {"value": V, "unit": U, "better": B}, the
 * value with at most three decimals, null when not finite.
 */
void lj_summary_put(json_object *summary, const char *metric, double value, const char *unit,
		    enum lj_better better);

/*
 * A histogram in ns as summary entries, lower is better: PREFIXmin,
 * PREFIXmean, PREFIXp50 ... PREFIXp99_99 (lj_pcts), PREFIXmax, and
 * PREFIXsamples (count, no direction). @prefix is "" for a tool's main
 * figure, "rt_", "delay_", ... for another histogram of the same run.
 */
void lj_summary_hist(json_object *summary, const char *prefix, const struct lj_hist *h);

#endif
