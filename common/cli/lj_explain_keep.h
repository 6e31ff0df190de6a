/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lj_explain_keep - what a -b break with --tracemark hands the user
 * (docs/explain.md, "The tracefs recorder"): the run's own trace, kept,
 * replacing those kept by runs over before it started (one kept trace at
 * a time), and the user's own top-level trace marked and stopped too when
 * it traces something, as cyclictest does.
 */
#ifndef LJ_EXPLAIN_KEEP_H
#define LJ_EXPLAIN_KEEP_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

struct lj_trace_top;

struct lj_explain_keep {
	struct lj_trace_top *top;	/* the user's top-level trace, when it traces something */
	char top_what[96];
	bool top_stopped;
	char kept_before[4096];		/* traces kept by runs over when this one started */
	char replaced[4096];		/* those of them removed when this one kept its own */
	int nreplaced;
};

/* At the start, tracefs mounted (the recorder's): what is kept already, whether the top level traces. */
void lj_explain_keep_start(struct lj_explain_keep *k);
/* At the break, after the run's own mark and stop: the user's top-level trace too. */
void lj_explain_keep_break(struct lj_explain_keep *k, const char *marker);
/* After the run, when it broke: remove the traces it replaces. */
void lj_explain_keep_replace(struct lj_explain_keep *k);
/* side.explain's replaced_kept_traces and top_level_stopped. */
void lj_explain_keep_json(const struct lj_explain_keep *k, json_object *o);
/* The "## ..." lines after the run's own "trace stopped at the break". */
void lj_explain_keep_report(const struct lj_explain_keep *k, FILE *out);
void lj_explain_keep_free(struct lj_explain_keep *k);

#endif
