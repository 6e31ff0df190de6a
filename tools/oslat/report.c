// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - oslat's lines (rt-tests 2.40's layout) and lj-oslat's result document with oslat's keys. */
#include "oslat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lj_hist.h"
#include "lj_json.h"
#include "lj_parse.h"
#include "lj_rtjson.h"
#include "lj_sched.h"
#include "lj_time.h"

void osl_seconds(char *buf, size_t len, int64_t ns)
{
	if (ns % LJ_NSEC_PER_SEC == 0)
		snprintf(buf, len, "%lld", (long long)(ns / LJ_NSEC_PER_SEC));
	else
		snprintf(buf, len, "%.3f", (double)ns / LJ_NSEC_PER_SEC);
}

void osl_report_header(const struct osl_run *run)
{
	const struct osl_config *cfg = run->cfg;
	FILE *out = run->text;
	char secs[32];

	fprintf(out, "oslat V %s\n", LJ_RTJSON_RT_VERSION);
	if (cfg->rtprio && CPU_ISSET(0, &run->measured))
		fprintf(out, "WARNING: Running SCHED_FIFO workload on CPU 0 may hang the thread\n");
	if (cfg->quiet)
		return;
	osl_seconds(secs, sizeof(secs), cfg->duration_ns);
	fprintf(out, "Total runtime: \t\t%s seconds\n", secs);
	if (cfg->rtprio)
		fprintf(out, "Thread priority: \tSCHED_FIFO:%d\n", cfg->rtprio);
	else
		fprintf(out, "Thread priority: \tdefault\n");
	fprintf(out, "CPU list: \t\t%s\n", cfg->cpu_list ? cfg->cpu_list : "all");
	if (run->main_cpu >= 0)
		fprintf(out, "CPU for main thread: \t%d\n", run->main_cpu);
	else
		fprintf(out, "CPU for main thread: \t(not pinned)\n");
	fprintf(out, "Workload: \t\t%s\n", cfg->workload);
	fprintf(out, "Workload mem: \t\t%llu (KiB)\n",
		(unsigned long long)(strcmp(cfg->workload, "memmove") ? 0 : cfg->workload_mem / 1024));
	fprintf(out, "Preheat cores: \t\t%d\n\n", cfg->single_preheat ? 1 : run->n);
}

static uint64_t min_us(const struct osl_thread *t)
{
	return t->b.min_us == UINT64_MAX ? 0 : t->b.min_us;
}

static bool bucket_empty(const struct osl_run *run, int j)
{
	for (int i = 0; i < run->n; i++)
		if (run->th[i].b.count[j])
			return false;
	return true;
}

/* One line per bucket, labelled by its upper bound; -z leaves empty ones out ("    ..."). */
static void buckets(const struct osl_run *run, FILE *out)
{
	int size = run->cfg->bucket_size;
	bool dots = false;

	for (int j = 0; j < size; j++) {
		char name[48];

		if (j < size - 1 && run->cfg->zero_omit && bucket_empty(run, j)) {
			dots = true;
			continue;
		}
		if (dots)
			fprintf(out, "    ...\n");
		dots = false;
		snprintf(name, sizeof(name), "%03llu (us)", (unsigned long long)(run->bias_us + (uint64_t)j + 1));
		fprintf(out, "%12s:\t", name);
		for (int i = 0; i < run->n; i++)
			fprintf(out, " %llu", (unsigned long long)run->th[i].b.count[j]);
		fprintf(out, "%s\n", j == size - 1 ? " (including overflows)" : "");
	}
}

/* oslat's "%12s:\t" label, then one value per thread. */
#define FIELD(out, run, label, fmt, val, end) do {					\
		fprintf(out, "%12s:\t", label);						\
		for (int i_ = 0; i_ < (run)->n; i_++) {					\
			const struct osl_thread *t = &(run)->th[i_];			\
			(void)t;							\
			fprintf(out, " " fmt, val);					\
		}									\
		fprintf(out, "%s\n", end);						\
	} while (0)

void osl_report_summary(const struct osl_run *run, FILE *out)
{
	FIELD(out, run, "Core", "%d", t->cpu, "");
	FIELD(out, run, "Counter Freq", "%d", OSL_COUNTER_MHZ, " (Mhz)");
	buckets(run, out);
	FIELD(out, run, "Minimum", "%llu", (unsigned long long)min_us(t), " (us)");
	FIELD(out, run, "Average", "%.3f", osl_buckets_average(&t->b), " (us)");
	FIELD(out, run, "Maximum", "%llu", (unsigned long long)t->b.max_us, " (us)");
	FIELD(out, run, "Max-Min", "%llu", (unsigned long long)(t->b.max_us - min_us(t)), " (us)");
	FIELD(out, run, "Duration", "%.3f", (double)(t->stop_ns - t->start_ns) / LJ_NSEC_PER_SEC, " (sec)");
	fprintf(out, "\n");
}

static void params(const struct osl_run *run, json_object *p)
{
	const struct osl_config *cfg = run->cfg;
	char cpus[256];

	json_object_object_add(p, "duration_ns", lj_json_int(cfg->duration_ns));
	json_object_object_add(p, "preheat_ns", lj_json_int(cfg->preheat_ns));
	json_object_object_add(p, "cpus", json_object_new_string(lj_cpulist_format(&run->measured, cpus,
										       sizeof(cpus))));
	json_object_object_add(p, "threads", lj_json_int(run->n));
	json_object_object_add(p, "policy", json_object_new_string(cfg->rtprio ? "fifo" : "default"));
	json_object_object_add(p, "priority", lj_json_int(cfg->rtprio));
	json_object_object_add(p, "bucket_size", lj_json_int(cfg->bucket_size));
	json_object_object_add(p, "bias_us", lj_json_int((int64_t)run->bias_us));
	json_object_object_add(p, "workload", json_object_new_string(cfg->workload));
	json_object_object_add(p, "workload_mem", lj_json_int(
		strcmp(cfg->workload, "memmove") ? 0 : (int64_t)cfg->workload_mem));
	json_object_object_add(p, "single_preheat", json_object_new_boolean(cfg->single_preheat));
	json_object_object_add(p, "trace_threshold_us", lj_json_int(cfg->trace_threshold_us));
	json_object_object_add(p, "main_cpu", lj_json_int(run->main_cpu));
	json_object_object_add(p, "clock", json_object_new_string("CLOCK_MONOTONIC"));
}

/* oslat's own figures of a thread: its buckets, in us. */
static json_object *oslat_block(const struct osl_thread *t)
{
	json_object *o = json_object_new_object(), *counts = json_object_new_array();

	for (int j = 0; j < t->b.size; j++)
		json_object_array_add(counts, lj_json_int((int64_t)t->b.count[j]));
	json_object_object_add(o, "min_us", lj_json_int((int64_t)min_us(t)));
	json_object_object_add(o, "avg_us", lj_json_num(osl_buckets_average(&t->b)));
	json_object_object_add(o, "max_us", lj_json_int((int64_t)t->b.max_us));
	json_object_object_add(o, "overflow_us", lj_json_int((int64_t)t->b.overflow_us));
	json_object_object_add(o, "counts", counts);
	return o;
}

static void thread_result(const struct osl_thread *t, json_object *arr)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "thread", lj_json_int(t->index));
	json_object_object_add(o, "tid", lj_json_int(t->tid));
	json_object_object_add(o, "cpu", lj_json_int(t->cpu));
	json_object_object_add(o, "start_ns", lj_json_int(t->start_ns));
	json_object_object_add(o, "end_ns", lj_json_int(t->stop_ns));
	json_object_object_add(o, "gaps", lj_result_hist_json(t->hist, true));
	json_object_object_add(o, "buckets", oslat_block(t));
	json_object_array_add(arr, o);
}

/* Headline metrics over every CPU's gaps, for lj-matrix and lj-compare. */
static void summary(const struct osl_run *run, struct lj_result *res)
{
	struct lj_hist *all = lj_hist_new();

	if (!all)
		return;
	for (int i = 0; i < run->n; i++)
		lj_hist_merge(all, run->th[i].hist);
	lj_result_summary_hist(res, "", all);
	lj_hist_free(all);
}

static int by_gap_desc(const void *a, const void *b)
{
	const struct osl_gap *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* Each thread's largest gaps, largest first, with when they ended; -T's break. */
static void side(const struct osl_run *run, json_object *s)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < run->n; i++) {
		const struct osl_thread *t = &run->th[i];
		json_object *o = json_object_new_object(), *gaps = json_object_new_array();
		struct osl_gap top[OSL_TOP_GAPS];

		memcpy(top, t->top, sizeof(top));
		qsort(top, (size_t)t->ntop, sizeof(top[0]), by_gap_desc);
		for (int k = 0; k < t->ntop; k++) {
			json_object *g = json_object_new_object();

			json_object_object_add(g, "gap_ns", lj_json_int((int64_t)top[k].ns));
			json_object_object_add(g, "end_ns", lj_json_int(top[k].end_ns));
			json_object_array_add(gaps, g);
		}
		json_object_object_add(o, "thread", lj_json_int(i));
		json_object_object_add(o, "nvcsw", lj_json_int(t->nvcsw));
		json_object_object_add(o, "nivcsw", lj_json_int(t->nivcsw));
		json_object_object_add(o, "largest", gaps);
		json_object_array_add(arr, o);
	}
	json_object_object_add(s, "threads", arr);
	if (run->broke)
		json_object_object_add(s, "break_us", lj_json_int((int64_t)run->broke_us));
}

/* oslat's --json keys: num_threads and thread{"<i>"} with its units (us, MHz, s) and its histogram. */
static void rt_keys(const struct osl_run *run, json_object *root)
{
	json_object *threads;

	lj_rtjson_header(root);
	json_object_object_add(root, "num_threads", lj_json_int(run->n));
	threads = lj_rtjson_threads(root);
	for (int i = 0; i < run->n; i++) {
		const struct osl_thread *t = &run->th[i];
		json_object *o = json_object_new_object(), *hist = json_object_new_object();
		char key[24];

		for (int j = 0; j < t->b.size; j++) {
			if (!t->b.count[j])
				continue;
			snprintf(key, sizeof(key), "%llu", (unsigned long long)(run->bias_us + (uint64_t)j + 1));
			json_object_object_add(hist, key, lj_json_int((int64_t)t->b.count[j]));
		}
		json_object_object_add(o, "cpu", lj_json_int(t->cpu));
		json_object_object_add(o, "freq", lj_json_int(OSL_COUNTER_MHZ));
		json_object_object_add(o, "min", lj_json_int((int64_t)min_us(t)));
		json_object_object_add(o, "avg", lj_json_num(osl_buckets_average(&t->b)));
		json_object_object_add(o, "max", lj_json_int((int64_t)t->b.max_us));
		json_object_object_add(o, "duration", lj_json_num(
			round((double)(t->stop_ns - t->start_ns) / 1e6) / 1e3));
		json_object_object_add(o, "histogram", hist);
		snprintf(key, sizeof(key), "%d", i);
		json_object_object_add(threads, key, o);
	}
}

void osl_report_json(const struct osl_run *run, struct lj_result *res)
{
	params(run, lj_result_params(res));
	for (int i = 0; i < run->n; i++)
		thread_result(&run->th[i], lj_result_results(res));
	summary(run, res);
	side(run, lj_result_side(res));
	rt_keys(run, lj_result_root(res));
}
