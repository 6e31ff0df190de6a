// SPDX-License-Identifier: GPL-2.0-or-later
/* watch.c - --watch GLOB: context switches of named tasks and of the system around COMMAND. */
#include "env.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_result.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int env_watch_add(struct env_config *cfg, const char *list)
{
	int ret = lj_taskwatch_add_list(&cfg->watch, list);

	if (ret == -EINVAL)
		return lj_usage_error("invalid --watch '%s': empty pattern", list);
	if (ret == -EEXIST)
		return lj_usage_error("invalid --watch '%s': a pattern is given twice", list);
	if (ret == -E2BIG)
		return lj_usage_error("invalid --watch '%s': more than %d patterns", list,
				      LJ_TASKWATCH_MAX_PATTERNS);
	if (ret)
		return lj_usage_error("invalid --watch '%s': %s", list, lj_strerror(ret));
	return 0;
}

int env_watch_snapshot(struct env_config *cfg, bool after)
{
	int ret;

	if (!cfg->watch.npatterns)
		return 0;
	ret = lj_taskwatch_snapshot(&cfg->watch, LJ_TASKWATCH_PROC, after);
	if (ret)
		lj_error_errno(ret, "watch: cannot read %s", LJ_TASKWATCH_PROC);
	return ret;
}

/*
 * The summary name of pattern @i: ctxsw_<sanitised pattern>, with _N
 * appended when two patterns sanitise alike ("rcu_*" and "rcu*") or one
 * takes the system's name, so no metric silently overwrites another.
 */
static void metric_name(const struct lj_taskwatch *w, int i, char *buf, size_t len)
{
	char other[128];
	bool clash = false;

	lj_taskwatch_metric(w->patterns[i], buf, len);
	clash = !strcmp(buf, "ctxsw_system");
	for (int k = 0; k < i && !clash; k++) {
		lj_taskwatch_metric(w->patterns[k], other, sizeof(other));
		clash = !strcmp(buf, other);
	}
	if (clash) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "_%d", i + 1);
	}
}

static json_object *threads_json(const struct lj_taskwatch *w, int i)
{
	json_object *arr = json_object_new_array();
	uint32_t bit = 1u << i;

	for (size_t k = 0; k < w->after.ntasks; k++) {
		const struct lj_taskwatch_task *a = &w->after.tasks[k];
		const struct lj_taskwatch_task *b = lj_taskwatch_find(&w->before, a);
		uint64_t v0 = b ? b->voluntary : 0, n0 = b ? b->involuntary : 0;
		json_object *t;

		if (!(a->match & bit))
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "comm", json_object_new_string(a->comm));
		json_object_object_add(t, "pid", lj_json_int(a->pid));
		json_object_object_add(t, "tid", lj_json_int(a->tid));
		/* as lj_taskwatch_delta: a counter that went backwards is a reused tid, 0 */
		json_object_object_add(t, "voluntary",
				       lj_json_int(a->voluntary >= v0 ? (int64_t)(a->voluntary - v0) : 0));
		json_object_object_add(t, "involuntary",
				       lj_json_int(a->involuntary >= n0 ? (int64_t)(a->involuntary - n0) : 0));
		if (!b)
			json_object_object_add(t, "appeared", json_object_new_boolean(1));
		json_object_array_add(arr, t);
	}
	for (size_t k = 0; k < w->before.ntasks; k++) {
		const struct lj_taskwatch_task *b = &w->before.tasks[k];
		json_object *t;

		if (!(b->match & bit) || lj_taskwatch_find(&w->after, b))
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "comm", json_object_new_string(b->comm));
		json_object_object_add(t, "pid", lj_json_int(b->pid));
		json_object_object_add(t, "tid", lj_json_int(b->tid));
		json_object_object_add(t, "vanished", json_object_new_boolean(1));
		json_object_array_add(arr, t);
	}
	return arr;
}

void env_watch_report(struct env_config *cfg, struct lj_result *res)
{
	const struct lj_taskwatch *w = &cfg->watch;
	struct lj_taskwatch_system sys;
	json_object *side = NULL, *pats = NULL;

	/* no second snapshot (already reported): no numbers rather than wrong ones */
	if (!w->npatterns || !w->after.t_ns)
		return;
	lj_taskwatch_system(w, &sys);
	if (res) {
		json_object *o = json_object_new_object();

		side = json_object_new_object();
		pats = json_object_new_array();
		json_object_object_add(side, "elapsed_ns", lj_json_int(sys.elapsed_ns));
		json_object_object_add(o, "ctxsw", sys.have_ctxt ? lj_json_int((int64_t)sys.ctxsw) : NULL);
		json_object_object_add(o, "per_s", lj_json_num(sys.per_s));
		json_object_object_add(side, "system", o);
		json_object_object_add(side, "patterns", pats);
		json_object_object_add(lj_result_side(res), "watch", side);
	}
	for (int i = 0; i < w->npatterns; i++) {
		struct lj_taskwatch_delta d;
		char metric[128], extra[96] = "";

		lj_taskwatch_delta(w, i, &d);
		metric_name(w, i, metric, sizeof(metric));
		if (d.appeared || d.vanished)
			snprintf(extra, sizeof(extra), ", %d appeared, %d vanished", d.appeared, d.vanished);
		fprintf(stderr, "%s: watch '%s': %d task%s, %" PRIu64 " context switches (%.1f/s): %" PRIu64
			" voluntary, %" PRIu64 " involuntary%s\n", lj_prog(), d.pattern, d.tasks,
			d.tasks == 1 ? "" : "s", d.ctxsw, d.per_s, d.voluntary, d.involuntary, extra);
		if (!res)
			continue;
		{
			json_object *p = json_object_new_object();

			json_object_object_add(p, "pattern", json_object_new_string(d.pattern));
			json_object_object_add(p, "metric", json_object_new_string(metric));
			json_object_object_add(p, "tasks", lj_json_int(d.tasks));
			json_object_object_add(p, "appeared", lj_json_int(d.appeared));
			json_object_object_add(p, "vanished", lj_json_int(d.vanished));
			json_object_object_add(p, "voluntary", lj_json_int((int64_t)d.voluntary));
			json_object_object_add(p, "involuntary", lj_json_int((int64_t)d.involuntary));
			json_object_object_add(p, "ctxsw", lj_json_int((int64_t)d.ctxsw));
			json_object_object_add(p, "per_s", lj_json_num(d.per_s));
			json_object_object_add(p, "migrations",
					       d.migrations >= 0 ? lj_json_int(d.migrations) : NULL);
			json_object_object_add(p, "threads", threads_json(w, i));
			json_object_array_add(pats, p);
		}
		lj_result_summary(res, metric, (double)d.ctxsw, "count", LJ_BETTER_LOWER);
	}
	if (sys.have_ctxt)
		fprintf(stderr, "%s: watch system: %" PRIu64 " context switches (%.1f/s) in %.3f s\n",
			lj_prog(), sys.ctxsw, sys.per_s, (double)sys.elapsed_ns / 1e9);
	else
		fprintf(stderr, "%s: watch system: no ctxt in %s/stat\n", lj_prog(), LJ_TASKWATCH_PROC);
	if (res && sys.have_ctxt)
		lj_result_summary(res, "ctxsw_system", (double)sys.ctxsw, "count", LJ_BETTER_LOWER);
}
