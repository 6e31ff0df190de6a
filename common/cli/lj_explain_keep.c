// SPDX-License-Identifier: GPL-2.0-or-later
#include "lj_explain_keep.h"

#include "lj_err.h"
#include "lj_setup.h"
#include "lj_trace_top.h"

void lj_explain_keep_start(struct lj_explain_keep *k)
{
	if (lj_trace_top_watch(&k->top, k->top_what, sizeof(k->top_what)) < 0)
		lj_info("--tracemark: cannot open the top-level trace's files: the break stops only the run's own");
	lj_setup_tracefs_kept(k->kept_before, sizeof(k->kept_before));
}

void lj_explain_keep_break(struct lj_explain_keep *k, const char *marker)
{
	k->top_stopped = k->top && !lj_trace_top_break(k->top, marker);
}

/*
 * The trace kept replaces those of runs over before this one started, as
 * a break in the peers' one top-level buffer replaces the last: a loop of
 * breaks would pile them up, megabytes per CPU each. Runs beside this one
 * keep theirs.
 */
void lj_explain_keep_replace(struct lj_explain_keep *k)
{
	k->nreplaced = lj_setup_tracefs_drop_kept(k->kept_before, k->replaced, sizeof(k->replaced));
}

void lj_explain_keep_json(const struct lj_explain_keep *k, json_object *o)
{
	json_object_object_add(o, "replaced_kept_traces", k->replaced[0] ?
			       json_object_new_string(k->replaced) : NULL);
	json_object_object_add(o, "top_level_stopped", k->top_stopped ?
			       json_object_new_string(k->top_what) : NULL);
}

void lj_explain_keep_report(const struct lj_explain_keep *k, FILE *out)
{
	if (k->top_stopped)
		fprintf(out, "## your top-level trace (%s) marked and stopped at the break too, as cyclictest stops it\n",
			k->top_what);
	if (k->nreplaced)
		fprintf(out, "## it replaces the trace%s kept by earlier runs (%s): one kept trace at a time\n",
			k->nreplaced > 1 ? "s" : "", k->replaced);
}

void lj_explain_keep_free(struct lj_explain_keep *k)
{
	lj_trace_top_free(k->top);
	k->top = NULL;
}
