/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oslat.h - lj-oslat's configuration, oslat's bucket arithmetic, the run's threads and phases. */
#ifndef LJ_OSLAT_H
#define LJ_OSLAT_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_result.h"
#include "lj_setupopt.h"

#define OSL_BUCKETS		32		/* oslat's default -b: 1-us buckets */
#define OSL_BUCKETS_MIN		4
#define OSL_BUCKETS_MAX		1024
#define OSL_WORKLOAD_MEM	(16 << 10)	/* oslat's default -m */
#define OSL_TOP_GAPS		64		/* largest gaps kept per thread, with their times */
#define OSL_POLL_NS		1000000000LL	/* main's read-back of the threads' policy: once a second */
#define OSL_THREAD_STACK	(64 * 1024)
/* The ns clock's "frequency" in oslat's Counter Freq line: 1000 ticks per us. */
#define OSL_COUNTER_MHZ		1000

struct osl_config {
	int bucket_size;		/* -b */
	bool bias;			/* -B */
	const char *cpu_list;		/* -c, NULL: all allowed CPUs */
	int main_cpu;			/* -C, -1: a CPU outside the measured ones where there is one */
	int64_t duration_ns;		/* -D */
	int64_t preheat_ns;		/* --preheat */
	int rtprio;			/* -f, 0: SCHED_OTHER */
	uint64_t workload_mem;		/* -m, bytes per buffer */
	const char *workload;		/* -w: "no" or "memmove" */
	bool quiet;			/* -q */
	bool single_preheat;		/* -s */
	int trace_threshold_us;		/* -T, 0: off */
	bool zero_omit;			/* -z */
	const char *json;
	struct lj_explain_opts explain;	/* --explain, and -T's trace marker */
	struct lj_setupopt setup;
};

/*
 * oslat's accounting of one thread: bucket i counts the gaps of [i, i+1)
 * us after the bias, labelled by its upper bound bias + i + 1; gaps past
 * the last bucket go into it and their excess us add to overflow_us.
 * min_us and max_us are floor(gap in us) + 1, before the bias.
 */
struct osl_buckets {
	uint64_t *count;
	int size;
	uint64_t bias_us;
	uint64_t overflow_us;
	uint64_t min_us, max_us;	/* min_us UINT64_MAX: no gap yet */
};

/* Count one gap. Return: its oslat value, floor(us) + 1 (what -T compares). */
static inline uint64_t osl_bucket_add(struct osl_buckets *b, uint64_t gap_ns)
{
	uint64_t idx = gap_ns / 1000, us = idx + 1;

	if (us > b->max_us)
		b->max_us = us;
	if (us < b->min_us)
		b->min_us = us;
	if (b->bias_us)
		idx = idx > b->bias_us ? idx - b->bias_us : 0;
	if (idx >= (uint64_t)b->size) {
		b->overflow_us += idx - (uint64_t)b->size;
		idx = (uint64_t)b->size - 1;
	}
	b->count[idx]++;
	return us;
}

/* bucket.c */
/* Zeroed buckets of @size (UINT64_MAX minimum). Return: 0 or -ENOMEM. */
int osl_buckets_init(struct osl_buckets *b, int size);
void osl_buckets_free(struct osl_buckets *b);
uint64_t osl_buckets_total(const struct osl_buckets *b);
/* oslat's Average: the buckets' labels weighted by their counts, plus the overflow, per gap (0: none). */
double osl_buckets_average(const struct osl_buckets *b);

/* A gap among the thread's largest (lj_topk: the key first). */
struct osl_gap {
	uint64_t ns;
	int64_t end_ns;			/* CLOCK_MONOTONIC when the thread read the clock again */
};

/* What the threads do, set by main (relaxed atomic loads in the loops). */
enum osl_phase { OSL_WAIT, OSL_PREHEAT, OSL_SETTLE, OSL_MEASURE, OSL_STOP };

struct osl_run;

struct osl_thread {
	struct osl_run *run;
	int index, cpu;
	pthread_t pt;
	bool created;
	pid_t tid;
	int sched_err, pin_err;
	char *src, *dst;		/* -w memmove's buffers */

	/* written by the thread only; read by main after the join */
	struct lj_hist *hist;		/* every gap of the measured phase, ns */
	struct osl_buckets b;
	uint64_t preheat_min_ns;	/* the smallest gap of the preheat (UINT64_MAX: none) */
	int64_t start_ns, stop_ns;	/* the measured phase, CLOCK_MONOTONIC */
	struct osl_gap top[OSL_TOP_GAPS];
	int ntop;
	long nvcsw, nivcsw;		/* its context switches over the whole thread */
};

struct osl_run {
	const struct osl_config *cfg;
	int n;
	struct osl_thread *th;
	cpu_set_t measured;
	int main_cpu;			/* -1: not pinned */
	pthread_t main;
	FILE *text;			/* oslat's lines: stdout, stderr with --json - */
	const struct lj_hooks *hooks;	/* the driver's (lj_hooks_none before start) */
	struct lj_explain *explain;	/* -T marks its trace, NULL: no recorder */
	_Atomic int phase;		/* enum osl_phase */
	_Atomic int ncreated, ready, settled, done;
	_Atomic int broke;		/* -T fired: the thread's index + 1 */
	uint64_t broke_us;
	bool sched_fallback;
	uint64_t bias_us;
};

/* options.c */
void osl_config_init(struct osl_config *cfg);
int osl_parse(struct osl_config *cfg, int argc, char **argv);

/* loop.c */
void *osl_thread_main(void *arg);

/* run.c (phases return 0, -errno or an exit code after a message: lj_tool.h) */
struct lj_topo;
struct lj_tool;
int osl_run_prepare(struct osl_run *run, const struct osl_config *cfg, const struct lj_topo *topo);
/* Threads pinned and at their policy, waiting; a refused policy is a fallback in @tool. */
int osl_run_start(struct osl_run *run, struct lj_tool *tool);
/* The preheat, the bias, the measured phase to its end or a stop; the threads joined. */
int osl_run_wait(struct osl_run *run);
void osl_run_free(struct osl_run *run);

/* report.c */
/* "oslat V 2.40" and, unless -q, oslat's settings block. */
void osl_report_header(const struct osl_run *run);
/* oslat's summary: Core, Counter Freq, the buckets, Minimum ... Duration. */
void osl_report_summary(const struct osl_run *run, FILE *out);
void osl_report_json(const struct osl_run *run, struct lj_result *res);
/* @ns as oslat prints durations: whole seconds as an integer, else three decimals. */
void osl_seconds(char *buf, size_t len, int64_t ns);

#endif
