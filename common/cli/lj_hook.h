/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_hook - what runs beside a measurement: flight recorder, samplers, validity checks. */
#ifndef LJ_HOOK_H
#define LJ_HOOK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct lj_result;

/*
 * The lifecycle driver (lj_tool) holds one struct lj_hooks per run. It
 * calls lj_hooks_start() after setup is applied and the measuring threads
 * exist, before the first measured sample; lj_hooks_stop() after the last;
 * then lj_hooks_contribute() (blocks of the result document: summary
 * metrics, side blocks, validity reasons) and lj_hooks_report() (text after
 * the tool's own lines); lj_hooks_free() at the end, however far the run got.
 *
 * The measuring loops report a late sample through lj_hooks_late(); the
 * hot path pays one relaxed load and a compare (lj_hooks_wants()), the call
 * is made only for a sample above the lowest threshold a hook asked for and
 * for every missed deadline. A hook's late() runs on the measuring thread:
 * it must not block, allocate or take a lock another thread can hold.
 */

enum lj_late_kind {
	LJ_LATE_SAMPLE,		/* a wake-up above the threshold */
	LJ_LATE_MISSED,		/* a missed period / deadline */
	LJ_LATE_FRAME_DROPPED,	/* a frame never displayed */
	LJ_LATE_FRAME_JANKY,	/* a frame displayed late */
};

struct lj_late {
	enum lj_late_kind kind;
	int cpu;		/* the CPU the thread was due on (-1: unknown) */
	pid_t tid;		/* the late thread */
	int index;		/* thread index, or lj-frame stage */
	uint64_t due_ns;	/* CLOCK_MONOTONIC: when it should have run */
	uint64_t ran_ns;	/* CLOCK_MONOTONIC: when it ran */
};

/*
 * One of the run's threads, as the hooks are told of it: at start (the
 * run description's array, filled by the tool's start phase through
 * lj_tool_threads) or while the run goes (lj_hooks_threads), for threads
 * whose ids were not known at start: lj-frame's stage threads exist only
 * inside a trial, a new set for each of the ramp's trials.
 */
struct lj_run_thread {
	pid_t tid;
	int index;		/* as struct lj_late's: lj-frame's stage; -1 for a thread that reports nothing */
	int policy, prio;	/* what it was set to run with (enum lj_policy, after a fallback); -1: nothing asked */
	_Bool measured;		/* false: load beside the measurement (lj-frame's background threads) */
};

/* What a hook is told about the run when it starts. */
struct lj_instr_cost;

struct lj_run_desc {
	const char *tool;	/* "lj-cyclic", ... */
	cpu_set_t measured;	/* the CPUs the measuring threads run on */
	const struct lj_run_thread *threads;	/* the measuring threads, index i at [i]; NULL: told later */
	int nthreads;
};

struct lj_hook_ops {
	const char *name;	/* "explain", "power", "validity", ... */
	/* 0, or -errno: the driver records a fallback {name, reason} (77 under --strict). */
	int (*start)(void *priv, const struct lj_run_desc *run);
	void (*late)(void *priv, const struct lj_late *ev);
	void (*stop)(void *priv);
	/* 0 or -errno. */
	int (*contribute)(void *priv, struct lj_result *res);
	void (*report)(void *priv, FILE *out);
	void (*free)(void *priv);
	/* Optional: the threads that run now, replacing those told before (lj_hooks_threads). */
	void (*threads)(void *priv, const struct lj_run_thread *th, int n);
	/* Optional: read back now what the hook watches while the run goes (lj_hooks_poll). */
	void (*poll)(void *priv);
	/*
	 * Optional, after stop: what this instrument cost the run, measured
	 * (lj_instr.h). Return: 1 @c filled, 0 nothing to say (not started).
	 */
	int (*cost)(void *priv, struct lj_instr_cost *c);
	/*
	 * Optional, after start() failed: why, in words (the fallback's
	 * reason: the step that failed); NULL or "": start's errno says it.
	 */
	const char *(*why)(void *priv);
};

#define LJ_HOOKS_MAX 8

struct lj_hook {
	const struct lj_hook_ops *ops;
	void *priv;
	uint64_t threshold_ns;	/* late samples above this reach late(); UINT64_MAX: none */
	int start_err;		/* what start() returned */
	_Bool started;
};

struct lj_hooks {
	struct lj_hook h[LJ_HOOKS_MAX];
	int n;
	/*
	 * ~(the lowest threshold of the started hooks), stored inverted so
	 * that zero-initialised hooks want nothing (threshold UINT64_MAX).
	 */
	_Atomic uint64_t inv_threshold_ns;
	_Atomic int nlate;		/* started hooks with a late(): missed periods go to them */
};

/* Zero-initialised hooks are valid too: no hook, nothing wanted. */
void lj_hooks_init(struct lj_hooks *hs);
/*
 * The one empty list: a measuring loop outside the driver (a unit test)
 * points at it until the driver's list is handed over, and pays the same
 * single load per sample for nothing.
 */
extern const struct lj_hooks lj_hooks_none;
/* Return: 0, or -ENOSPC when LJ_HOOKS_MAX hooks are held already. */
int lj_hooks_add(struct lj_hooks *hs, const struct lj_hook_ops *ops, void *priv,
		 uint64_t threshold_ns);
/* A hook may lower or raise its threshold while the run goes (a running p99.9). */
void lj_hooks_set_threshold(struct lj_hooks *hs, int i, uint64_t threshold_ns);

/*
 * Start every hook; a hook whose start fails stays in the list, not
 * started (its start_err says why). Return: the number of hooks that
 * failed to start.
 */
int lj_hooks_start(struct lj_hooks *hs, const struct lj_run_desc *run);

static inline _Bool lj_hooks_wants(const struct lj_hooks *hs, uint64_t latency_ns)
{
	return latency_ns > ~atomic_load_explicit(&hs->inv_threshold_ns, memory_order_relaxed);
}

/*
 * The lowest threshold a started hook asked for (UINT64_MAX: none), for a
 * measuring process that holds only a copy of the hooks (lj-hackbench's
 * forked workers filter by it and hand their late samples back).
 */
static inline uint64_t lj_hooks_threshold(const struct lj_hooks *hs)
{
	return ~atomic_load_explicit(&hs->inv_threshold_ns, memory_order_relaxed);
}

/* Whether a missed period / dropped frame reaches any hook (one relaxed load). */
static inline _Bool lj_hooks_wants_missed(const struct lj_hooks *hs)
{
	return atomic_load_explicit(&hs->nlate, memory_order_relaxed) != 0;
}

void lj_hooks_late(const struct lj_hooks *hs, const struct lj_late *ev);

/*
 * Tell the started hooks which of the run's threads exist now, when they
 * were not known at lj_hooks_start (@th replaces what the previous call
 * told: those threads have ended or are told again; n 0: none runs now).
 * Called from the thread that controls the run, after the threads set
 * their policy and before they measure: a hook may read them back at once
 * (the validity hook does), and its late() may look their ids up.
 */
void lj_hooks_threads(const struct lj_hooks *hs, const struct lj_run_thread *th, int n);
/*
 * Have the started hooks read back now what they watch while the run goes
 * (the validity hook: the threads' policy and priority). Called by the
 * thread that waits for the run, never a measuring thread: between
 * samples, or every so often while the measuring threads run.
 */
void lj_hooks_poll(const struct lj_hooks *hs);
void lj_hooks_stop(struct lj_hooks *hs);
/* Return: 0, or the first -errno a hook returned (every hook is still called). */
int lj_hooks_contribute(struct lj_hooks *hs, struct lj_result *res);
void lj_hooks_report(struct lj_hooks *hs, FILE *out);
void lj_hooks_free(struct lj_hooks *hs);

#endif
