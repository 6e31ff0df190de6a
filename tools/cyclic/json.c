// SPDX-License-Identifier: GPL-2.0-or-later
/* json.c - lj-cyclic's ljkit-result/1 document: params, per-thread results, summary, side. */
#include "cyclic.h"

#include "lj_cpus.h"
#include "lj_hist.h"
#include "lj_json.h"
#include "lj_rtjson.h"
#include "lj_time.h"

static const char *wait_name(enum cyc_wait w)
{
	switch (w) {
	case CYC_WAIT_ABSOLUTE:
		return "clock_nanosleep_abs";
	case CYC_WAIT_RELATIVE:
		return "clock_nanosleep_rel";
	default:
		return "posix_timer";
	}
}

static void params(struct cyc_run *run, json_object *p)
{
	const struct cyc_config *cfg = run->cfg;

	lj_json_add_int(p, "interval_ns", cfg->interval_ns);
	lj_json_add_int(p, "distance_ns", cfg->distance_ns);
	lj_json_add_int(p, "loops", (int64_t)cfg->loops);
	lj_json_add_int(p, "duration_ns", cfg->duration_ns);
	lj_json_add_int(p, "threads", run->nthreads);
	json_object_object_add(p, "policy", json_object_new_string(lj_sched_policy_name(cfg->policy)));
	lj_json_add_int(p, "priority", cfg->priority);
	json_object_object_add(p, "priospread", json_object_new_boolean(cfg->priospread));
	json_object_object_add(p, "wait", json_object_new_string(wait_name(cfg->wait)));
	json_object_object_add(p, "catch_up", json_object_new_string(
		cfg->wait == CYC_WAIT_ABSOLUTE ?
		(cfg->catchup == CYC_CATCHUP_SKIP ? "skip" : "burst") :
		cfg->wait == CYC_WAIT_TIMER ? "timer_overrun" : "none"));
	json_object_object_add(p, "mlockall", json_object_new_boolean(cfg->mlock));
	json_object_object_add(p, "unit", json_object_new_string(cfg->nsecs ? "ns" : "us"));
	lj_json_add_int(p, "histogram_buckets", cfg->histogram);
	lj_json_add_int(p, "breaktrace_ns", cfg->breaktrace_ns);
	lj_json_add_int(p, "spike_ns", cfg->spike_ns);
	lj_json_add_int(p, "latency_us", cfg->laptop ? -1 : cfg->latency_us);
}

/* The statistics block's keys go straight into @dst (count, min_ns, ... histogram). */
static void merge_into(json_object *dst, json_object *src)
{
	json_object_object_foreach(src, key, val)
		json_object_object_add(dst, key, json_object_get(val));
	json_object_put(src);
}

static void thread_result(struct cyc_run *run, const struct cyc_thread *t, json_object *arr)
{
	json_object *o = json_object_new_object();
	struct cyc_live lv;

	cyc_live_read(t, &lv);
	lj_json_add_int(o, "thread", t->index);
	lj_json_add_int(o, "tid", t->tid);
	lj_json_add_int(o, "cpu", t->cpu);
	lj_json_add_int(o, "interval_ns", t->interval_ns);
	json_object_object_add(o, "policy", json_object_new_string(lj_sched_policy_name(t->policy)));
	lj_json_add_int(o, "priority", t->prio);
	merge_into(o, lj_result_hist_json(t->hist, true));
	lj_json_add_int(o, "missed", (int64_t)lv.missed);
	lj_json_add_int(o, "negatives", (int64_t)lj_hist_negatives(t->hist));
	lj_json_add_int(o, "errors", (int64_t)t->errors);
	if (run->cfg->spike_ns)
		lj_json_add_int(o, "spikes", (int64_t)t->nspikes);
	if (run->cfg->histogram)	/* cyclictest's -h overflows, not lj_hist's */
		lj_json_add_int(o, "h_overflows", (int64_t)t->cthist_overflows);
	json_object_array_add(arr, o);
}

static void side(struct cyc_run *run, json_object *s)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];
		json_object *o = json_object_new_object();

		lj_json_add_int(o, "thread", i);
		lj_json_add_int(o, "nvcsw", t->nvcsw);
		lj_json_add_int(o, "nivcsw", t->nivcsw);
		lj_json_add_int(o, "minflt_measuring", t->minflt_measuring);
		lj_json_add_int(o, "majflt_measuring", t->majflt_measuring);
		lj_json_add_int(o, "cpu_changes_seen", (int64_t)t->migrations);
		lj_json_add_int(o, "nr_migrations", t->nr_migrations);
		lj_json_add_int(o, "first_cpu", t->first_cpu);
		lj_json_add_int(o, "last_cpu", t->last_cpu);
		json_object_array_add(arr, o);
	}
	json_object_object_add(s, "threads", arr);
	lj_json_add_int(s, "reporter_cpu", run->reporter_cpu);
	if (run->break_tid) {
		lj_json_add_int(s, "break_tid", run->break_tid);
		lj_json_add_int(s, "break_value", run->break_value);
	}
}

/* Headline metrics over all threads, for lj-matrix and lj-compare. */
static void summary(struct cyc_run *run, struct lj_result *r)
{
	struct lj_hist *all = lj_hist_new();
	uint64_t missed = 0;

	if (!all)
		return;
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_live lv;

		lj_hist_merge(all, run->th[i].hist);
		cyc_live_read(&run->th[i], &lv);
		missed += lv.missed;
	}
	lj_result_summary_hist(r, "", all);
	lj_result_summary(r, "missed", (double)missed, "count", LJ_BETTER_LOWER);
	lj_result_summary(r, "overflows", (double)lj_hist_overflows(all), "count", LJ_BETTER_LOWER);
	lj_hist_free(all);
}

/*
 * cyclictest's own keys (num_threads, resolution_in_ns, thread{"<i>"}),
 * in its units: the T: lines' numbers, the -h buckets as its histogram.
 */
static void rt_keys(struct cyc_run *run, json_object *root)
{
	const struct cyc_config *cfg = run->cfg;
	json_object *threads;

	lj_rtjson_header(root);
	lj_json_add_int(root, "num_threads", run->nthreads);
	lj_json_add_int(root, "resolution_in_ns", cfg->nsecs);
	threads = lj_rtjson_threads(root);
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];
		struct lj_rtjson_thread rt = { .hist = t->cthist, .nbuckets = t->cthist ? cfg->histogram : 0 };
		uint64_t none = 0;
		struct cyc_live lv;

		cyc_live_read(t, &lv);
		if (!rt.hist)
			rt.hist = &none;	/* cyclictest writes "histogram": {} without -h */
		rt.cycles = lv.cycles;
		if (lv.cycles) {
			rt.min = cyc_to_unit(cfg, lv.min_ns);
			rt.max = cyc_to_unit(cfg, lv.max_ns);
			rt.avg = (double)lv.sum_ns / (double)lv.cycles / (cfg->nsecs ? 1.0 : 1000.0);
		}
		rt.cpu = t->cpu;
		rt.node = lj_cpus_node(t->cpu);
		lj_rtjson_thread_add(threads, i, &rt);
	}
}

void cyc_json_fill(struct cyc_run *run, struct lj_result *r)
{
	params(run, lj_result_params(r));
	for (int i = 0; i < run->nthreads; i++)
		thread_result(run, &run->th[i], lj_result_results(r));
	summary(run, r);
	side(run, lj_result_side(r));
	rt_keys(run, lj_result_root(r));
}
