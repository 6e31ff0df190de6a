// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run.c - lj-oslat's run: a thread per measured CPU, created set up and
 * waiting; main releases the preheat, computes -B's bias, releases the
 * measured phase, waits its duration (reading the threads' policy back
 * once a second) and stops them together, as oslat does.
 */
#include "oslat.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_hist.h"
#include "lj_sched.h"
#include "lj_stop.h"
#include "lj_time.h"
#include "lj_tool.h"
#include "lj_topo.h"

static void set_phase(struct osl_run *run, enum osl_phase p)
{
	atomic_store(&run->phase, p);
}

/* -c's CPUs among those the process may use; -C's CPU, or one outside them. */
static int place(struct osl_run *run, const struct lj_topo *topo)
{
	const struct osl_config *cfg = run->cfg;
	const char *list = cfg->cpu_list ? cfg->cpu_list : "all";
	struct lj_cpu_selection sel;
	char why[256];

	if (lj_cpus_select(topo, list, &sel, why, sizeof(why)))
		return lj_usage_error("invalid --cpu-list '%s': %s", list, why);
	run->measured = sel.set;
	run->n = CPU_COUNT(&sel.set);
	run->main_cpu = cfg->main_cpu >= 0 ? cfg->main_cpu : lj_topo_housekeeping_cpu(topo, &sel.set);
	return 0;
}

static int alloc_thread(struct osl_thread *t, const struct osl_config *cfg)
{
	t->hist = lj_hist_new();
	if (!t->hist || osl_buckets_init(&t->b, cfg->bucket_size))
		return -ENOMEM;
	if (strcmp(cfg->workload, "memmove"))
		return 0;
	if (posix_memalign((void **)&t->src, 4096, cfg->workload_mem) ||
	    posix_memalign((void **)&t->dst, 4096, cfg->workload_mem))
		return -ENOMEM;
	return 0;
}

int osl_run_prepare(struct osl_run *run, const struct osl_config *cfg, const struct lj_topo *topo)
{
	int cpus[CPU_SETSIZE], ret;

	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	run->hooks = &lj_hooks_none;	/* a run outside the driver (unit tests) */
	run->main = pthread_self();
	run->text = cfg->json && !strcmp(cfg->json, "-") ? stderr : stdout;
	ret = place(run, topo);
	if (ret)
		return ret;
	run->th = calloc((size_t)run->n, sizeof(*run->th));
	if (!run->th) {
		lj_error("out of memory");
		return -ENOMEM;
	}
	lj_cpus_to_array(&run->measured, cpus, CPU_SETSIZE);
	for (int i = 0; i < run->n; i++) {
		struct osl_thread *t = &run->th[i];

		*t = (struct osl_thread){ .run = run, .index = i, .cpu = cpus[i], .preheat_min_ns = UINT64_MAX };
		ret = alloc_thread(t, cfg);
		if (ret) {
			lj_error_errno(ret, "cannot allocate thread %d's statistics", i);
			return ret;
		}
	}
	return 0;
}

static int create_threads(struct osl_run *run)
{
	pthread_attr_t attr;
	sigset_t stop, old;
	int ret = 0;

	/* The stop signals go to main, which waits for them; the loops never run a handler. */
	lj_stop_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, LJ_SANITIZED ? LJ_SCHED_THREAD_STACK : OSL_THREAD_STACK);
	for (int i = 0; i < run->n && !ret; i++) {
		ret = -pthread_create(&run->th[i].pt, &attr, osl_thread_main, &run->th[i]);
		run->th[i].created = !ret;
		atomic_fetch_add(&run->ncreated, !ret);
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static void join_all(struct osl_run *run)
{
	set_phase(run, OSL_STOP);
	for (int i = 0; i < run->n; i++)
		if (run->th[i].created) {
			pthread_join(run->th[i].pt, NULL);
			run->th[i].created = false;
		}
}

/* A thread that could not take its CPU fails the run; a refused policy falls back to SCHED_OTHER. */
static int check_threads(struct osl_run *run, struct lj_tool *tool)
{
	int sched_err = 0;
	char detail[96];

	for (int i = 0; i < run->n; i++) {
		if (run->th[i].pin_err) {
			lj_error_errno(run->th[i].pin_err, "thread %d: cannot pin to CPU %d", i, run->th[i].cpu);
			return LJ_EXIT_RUNTIME;
		}
		if (run->th[i].sched_err)
			sched_err = run->th[i].sched_err;
	}
	if (!sched_err)
		return 0;
	run->sched_fallback = true;
	snprintf(detail, sizeof(detail), "fifo %d -> other: %s", run->cfg->rtprio, lj_strerror(sched_err));
	return lj_tool_policy_fallback(tool, "sched", sched_err, detail);
}

/*
 * Main off the measured CPUs (-C, or the housekeeping CPU), out of a
 * --cgroup group whose cpuset holds only them. Its once-a-second wake-up
 * then disturbs no loop.
 */
static void move_main(struct osl_run *run)
{
	int err;

	if (run->main_cpu < 0)
		return;
	err = lj_setupopt_leave_group(&run->cfg->setup, 0);
	if (!err)
		err = lj_cpus_pin_one(0, run->main_cpu);
	if (err) {
		lj_warn_errno(err, "cannot move the main thread to CPU %d", run->main_cpu);
		run->main_cpu = -1;
	}
}

int osl_run_start(struct osl_run *run, struct lj_tool *tool)
{
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };
	int ret = create_threads(run);

	while (atomic_load(&run->ready) < atomic_load(&run->ncreated))
		nanosleep(&ms, NULL);
	if (ret) {
		lj_error_errno(ret, "cannot create the measuring threads");
		join_all(run);
		return LJ_EXIT_RUNTIME;
	}
	ret = check_threads(run, tool);
	if (ret) {
		join_all(run);
		return ret;
	}
	move_main(run);
	return 0;
}

/* Wait @ns, or until a stop or -T; the threads' policy is read back now and every second. */
static void wait_for(struct osl_run *run, int64_t ns)
{
	int64_t end = lj_now_ns() + ns;

	for (;;) {
		int64_t left = end - lj_now_ns();

		lj_hooks_poll(run->hooks);
		if (left <= 0 || lj_stop_requested() || atomic_load(&run->phase) == OSL_STOP)
			return;
		lj_stop_wait(left < OSL_POLL_NS ? left : OSL_POLL_NS, NULL);
	}
}

/* The preheat's smallest gap over the threads that ran it, in oslat's units. */
static void set_bias(struct osl_run *run)
{
	uint64_t min = UINT64_MAX;

	for (int i = 0; i < run->n; i++)
		if (run->th[i].preheat_min_ns < min)
			min = run->th[i].preheat_min_ns;
	if (min == UINT64_MAX)
		return;
	run->bias_us = min / 1000 + 1;
	for (int i = 0; i < run->n; i++)
		run->th[i].b.bias_us = run->bias_us;
	fprintf(run->text, "Global bias set to %llu (us)\n", (unsigned long long)run->bias_us);
}

int osl_run_wait(struct osl_run *run)
{
	const struct osl_config *cfg = run->cfg;
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };
	char secs[32];

	if (cfg->preheat_ns > 0) {
		osl_seconds(secs, sizeof(secs), cfg->preheat_ns);
		if (!cfg->quiet)
			fprintf(run->text, "Pre-heat for %s seconds...\n", secs);
		set_phase(run, OSL_PREHEAT);
		wait_for(run, cfg->preheat_ns);
	}
	if (!lj_stop_requested()) {
		set_phase(run, OSL_SETTLE);
		while (atomic_load(&run->settled) < run->n)
			nanosleep(&ms, NULL);
		if (cfg->bias)
			set_bias(run);
		if (!cfg->quiet)
			fprintf(run->text, "Test starts...\n");
		set_phase(run, OSL_MEASURE);
		wait_for(run, cfg->duration_ns);
	}
	join_all(run);
	if (!cfg->quiet && !lj_stop_requested())
		fprintf(run->text, "Test completed.\n\n");
	if (!run->broke)
		return 0;
	lj_error("Trace threshold (%d us) triggered on cpu %d with %llu us!", cfg->trace_threshold_us,
		 run->th[run->broke - 1].cpu, (unsigned long long)run->broke_us);
	fprintf(stderr, "Stopping the test.\n");
	return LJ_EXIT_THRESHOLD;
}

void osl_run_free(struct osl_run *run)
{
	if (!run->th)
		return;
	join_all(run);
	for (int i = 0; i < run->n; i++) {
		lj_hist_free(run->th[i].hist);
		osl_buckets_free(&run->th[i].b);
		free(run->th[i].src);
		free(run->th[i].dst);
	}
	free(run->th);
	run->th = NULL;
}
