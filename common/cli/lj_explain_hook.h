/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_explain_hook - --explain: the flight recorder beside a measurement, explaining late samples. */
#ifndef LJ_EXPLAIN_HOOK_H
#define LJ_EXPLAIN_HOOK_H

#include <stdbool.h>
#include <stdint.h>

#include "lj_hook.h"

/*
 * docs/explain.md. start() opens the recorder (lj_trace) on the measured
 * CPUs; late() keeps candidates without blocking or allocating (per
 * measuring thread: every missed deadline / dropped or janky frame, and
 * the largest samples, or every sample above an explicit threshold);
 * stop() reads the trace and explains them; contribute() adds
 * side.explain to the result; report() prints one "## ..." line each.
 */
struct lj_explain_opts {
	uint64_t threshold_ns;	/* 0: the run's p99.9 and above (largest LJ_EXPLAIN_TOPK) */
	size_t buffer_kb;	/* per CPU; 0: LJ_TRACE_BUFFER_KB */
	bool explain;		/* --explain given: explain; else only the recorder for -b/--tracemark */
	bool tracemark;		/* -b with --tracemark: the trace is kept whole, read after the run only */
	int recorder;		/* enum lj_trace_backend: LJ_EXPLAIN_RECORDER, auto by default */
	bool measure_programs;	/* LJ_EXPLAIN_PROGRAM_COST=1: the BPF programs' run time in the kernel */
	uint32_t alternate_ms;	/* LJ_EXPLAIN_ALTERNATE: windows with and without the recorder; 0 off */
	bool alternate_attached;	/* ...without it meaning attached and not recording */
	bool timer_wakeups;	/* the tool's: its measured threads are woken by their own timers on their CPUs */
};

/* The environment variable that forces a recorder: bpf, tracefs or auto (docs/explain.md). */
#define LJ_EXPLAIN_RECORDER_ENV "LJ_EXPLAIN_RECORDER"
/* MS or MS,attached: windows of the run with and without the BPF recorder (lj_alternate.h); unset: none. */
#define LJ_EXPLAIN_ALTERNATE_ENV "LJ_EXPLAIN_ALTERNATE"
/* 1: measure the BPF recorder's programs in the kernel (side.explain.programs); 0 or unset: not. */
#define LJ_EXPLAIN_PROGRAM_COST_ENV "LJ_EXPLAIN_PROGRAM_COST"
/* 1: the BPF recorder's object for kernels before 5.12 on any kernel (a test's); 0 or unset: by the kernel. */
#define LJ_EXPLAIN_BPF_PLAIN_ENV "LJ_EXPLAIN_BPF_PLAIN"

/* The samples kept per thread without a threshold, and the candidates kept at most. */
#define LJ_EXPLAIN_TOPK 64
#define LJ_EXPLAIN_MAXCAND 1024
/*
 * Measuring threads kept apart (by their index) when the tool gives no
 * threads at start (lj-frame names its stages per trial through
 * lj_hooks_threads) or more than this many (hackbench's workers).
 */
#define LJ_EXPLAIN_ANON_SLOTS 512
/* Text lines at most (the largest); the JSON holds every explanation. */
#define LJ_EXPLAIN_LINES 20

struct lj_explain;

/*
 * Parse --explain's optional THRESHOLD ("200us", "1ms"; NULL: default)
 * into @o, and LJ_EXPLAIN_RECORDER. Return: 0, or LJ_EXIT_USAGE after a message.
 */
int lj_explain_parse(const char *arg, struct lj_explain_opts *o);

/* Return: 0, or -ENOMEM. */
int lj_explain_new(struct lj_explain **out, const struct lj_explain_opts *o);

/* Add the hook to @hs (it keeps @hs to move its threshold). Return: 0 or -ENOSPC. */
int lj_explain_add(struct lj_hooks *hs, struct lj_explain *x);

/*
 * The driver's (lj_tool), for the options a tool describes: when @o asks
 * for it (explain or tracemark), create the recorder and add it to @hs;
 * *@out (may be NULL) gets it for lj_explain_break(). Return: 0 (nothing
 * asked: *@out NULL), or -errno.
 */
int lj_explain_register(struct lj_hooks *hs, const struct lj_explain_opts *o,
			struct lj_explain **out);

/*
 * -b fired: write @marker into the trace and stop tracing there; the
 * instance is kept for the user to read (its path printed by report()).
 * Safe from a measuring thread (two write() calls). No-op if the recorder
 * did not start.
 */
void lj_explain_break(struct lj_explain *x, const char *marker);

/*
 * After stop: how many samples were explained, and the @i-th of them in
 * time order, with what it was ("spike", "missed period", "dropped
 * frame", ...) in *@what. For readers of the explanations after the run
 * (the --perfetto trace); NULL past the end or without a recorder.
 */
struct lj_explanation;
int lj_explain_count(const struct lj_explain *x);
const struct lj_explanation *lj_explain_get(const struct lj_explain *x, int i, const char **what);

extern const struct lj_hook_ops lj_explain_ops;

#endif
