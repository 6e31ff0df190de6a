// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loop.c - one measuring thread: pinned to its CPU at its policy, it reads
 * CLOCK_MONOTONIC in a busy loop; a gap between two reads is time its CPU
 * spent on something else. The preheat only finds the smallest gap (-B's
 * bias); the measured phase counts every gap in oslat's buckets and the
 * histogram, keeps the largest with their times, and tells the hooks.
 */
#include "oslat.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_hist.h"
#include "lj_hot.h"
#include "lj_sched.h"
#include "lj_time.h"
#include "lj_topk.h"

static inline int phase(struct osl_run *run)
{
	return atomic_load_explicit(&run->phase, memory_order_relaxed);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* -w memmove: the work oslat puts between two clock reads. */
static inline void work(struct osl_thread *t)
{
	if (t->src)
		memmove(t->dst, t->src, t->run->cfg->workload_mem);
}

/* -T fired: the first thread marks the trace (kept for the user) and stops every loop and main's wait. */
static void __attribute__((noinline)) trace_break(struct osl_thread *t, uint64_t us)
{
	struct osl_run *run = t->run;
	char msg[160];
	int none = 0;

	if (!atomic_compare_exchange_strong(&run->broke, &none, t->index + 1))
		return;
	run->broke_us = us;
	snprintf(msg, sizeof(msg), "%s: Trace threshold (%d us) triggered on cpu %d with %llu us!",
		 lj_prog(), run->cfg->trace_threshold_us, t->cpu, (unsigned long long)us);
	lj_explain_break(run->explain, msg);
	atomic_store_explicit(&run->phase, OSL_STOP, memory_order_relaxed);
	pthread_kill(run->main, SIGALRM);	/* a stop signal: main's wait returns now */
}

/* A gap over the hooks' threshold (the recorder's): from the read before to this one. */
static void __attribute__((noinline)) tell_hooks(struct osl_thread *t, int64_t prev, int64_t now)
{
	struct lj_late ev = { .kind = LJ_LATE_SAMPLE, .cpu = t->cpu, .tid = t->tid, .index = t->index,
			      .due_ns = (uint64_t)prev, .ran_ns = (uint64_t)now };

	lj_hooks_late(t->run->hooks, &ev);
}

static void __attribute__((noinline)) keep_top(struct osl_thread *t, uint64_t ns, int64_t now)
{
	struct osl_gap g = { ns, now };

	lj_topk_add(t->top, &t->ntop, OSL_TOP_GAPS, sizeof(g), &g);
}

/* The measured phase: every gap into the buckets, the histogram, the largest, the hooks, -T. */
static void LJ_HOT measure(struct osl_thread *t)
{
	struct osl_run *run = t->run;
	const struct lj_hooks *hooks = run->hooks;
	uint64_t threshold_us = (uint64_t)run->cfg->trace_threshold_us;
	int64_t prev = lj_now_ns(), now;

	t->start_ns = prev;
	while (phase(run) == OSL_MEASURE) {
		uint64_t ns, us;

		work(t);
		now = lj_now_ns();
		ns = (uint64_t)(now - prev);
		us = osl_bucket_add(&t->b, ns);
		lj_hist_add(t->hist, (int64_t)ns);
		if (lj_topk_enters(t->top, t->ntop, OSL_TOP_GAPS, ns))
			keep_top(t, ns, now);
		if (lj_hooks_wants(hooks, ns))
			tell_hooks(t, prev, now);
		if (threshold_us && us >= threshold_us)
			trace_break(t, us);
		prev = now;
	}
	t->stop_ns = prev;
}

/* The preheat: the same loop, keeping only its smallest gap (oslat's bias). */
static void preheat(struct osl_thread *t)
{
	int64_t prev = lj_now_ns(), now;
	uint64_t min = UINT64_MAX;

	while (phase(t->run) == OSL_PREHEAT) {
		work(t);
		now = lj_now_ns();
		if ((uint64_t)(now - prev) < min)
			min = (uint64_t)(now - prev);
		prev = now;
	}
	t->preheat_min_ns = min;
}

/* Pinned, at its policy, its buffers touched; then counted ready. */
static void setup(struct osl_thread *t)
{
	const struct osl_config *cfg = t->run->cfg;
	struct lj_sched_param sp = { .policy = LJ_POLICY_FIFO, .priority = cfg->rtprio };

	t->tid = gettid();
	t->pin_err = lj_cpus_pin_one(0, t->cpu);
	if (cfg->rtprio)
		t->sched_err = lj_sched_apply(0, &sp);
	lj_sched_prefault_stack(16 * 1024);
	if (t->src) {
		memset(t->src, 1, cfg->workload_mem);
		memset(t->dst, 0, cfg->workload_mem);
	}
	lj_now_ns();		/* the vDSO's pages, before the first measured read */
	atomic_fetch_add(&t->run->ready, 1);
}

void *osl_thread_main(void *arg)
{
	struct osl_thread *t = arg;
	struct osl_run *run = t->run;
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };
	struct rusage ru;

	setup(t);
	while (phase(run) == OSL_WAIT)
		nanosleep(&ms, NULL);
	if (phase(run) == OSL_PREHEAT && (t->index == 0 || !run->cfg->single_preheat))
		preheat(t);
	/* All start together, as oslat's threads do; a stop may come first. */
	atomic_fetch_add(&run->settled, 1);
	while (phase(run) < OSL_MEASURE)
		cpu_relax();
	atomic_thread_fence(memory_order_acquire);	/* main's -B bias, written before the phase */
	if (phase(run) == OSL_MEASURE)
		measure(t);
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		t->nvcsw = ru.ru_nvcsw;
		t->nivcsw = ru.ru_nivcsw;
	}
	/* Leave together, so that one thread's exit does not disturb those still measuring. */
	atomic_fetch_add(&run->done, 1);
	while (atomic_load(&run->done) < atomic_load(&run->ncreated))
		cpu_relax();
	return NULL;
}
