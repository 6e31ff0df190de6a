/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_perfetto - --perfetto: the run as a trace Perfetto and chrome://tracing load, written after the run. */
#ifndef LJ_PERFETTO_H
#define LJ_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_hook.h"
#include "lj_tef.h"

struct lj_explain;
struct lj_power_hook;

/*
 * docs/perfetto.md. The hook keeps, while the run goes, what no tool
 * keeps: the late samples the measuring loops tell the hooks (a wake-up,
 * a hop, a gap, a message), each with its thread, CPU, due and ran
 * times. Without a threshold each thread's LJ_PERFETTO_TOPK largest
 * (lj_topk, one compare per sample once full) and every missed period;
 * with one every sample above it, into a pool of LJ_PERFETTO_POOL
 * claimed with one atomic add (more are counted, not kept). Frames
 * (LJ_LATE_FRAME_*) are not kept: lj-frame writes its own. The memory is
 * allocated and touched in start(), before anything is measured.
 */
#define LJ_PERFETTO_TOPK 64
#define LJ_PERFETTO_POOL 32768
/* Threads kept apart by index when the tool names none at start (lj-frame, hackbench's workers). */
#define LJ_PERFETTO_SLOTS 512

struct lj_perfetto;

/* One kept sample. */
struct lj_pf_sample {
	uint64_t lat;			/* ran - due: first, lj_topk's key */
	enum lj_late_kind kind;
	int cpu, index;
	pid_t tid;
	uint64_t due_ns, ran_ns;	/* CLOCK_MONOTONIC */
};

/* Create the hook and add it to @hs (@threshold_ns 0: the largest). Return: 0, -ENOMEM or -ENOSPC. */
int lj_perfetto_add(struct lj_hooks *hs, uint64_t threshold_ns, struct lj_perfetto **out);

extern const struct lj_hook_ops lj_perfetto_ops;

/*
 * After stop: the kept samples, deduplicated (a wake-up told both as a
 * sample and as a missed period is one missed period) and sorted by
 * thread and due time, in a new array (*@n of them; free() it), and how
 * many were not kept. NULL with *@n 0 when none, or out of memory (-ENOMEM in *@err).
 */
struct lj_pf_sample *lj_perfetto_samples(const struct lj_perfetto *p, size_t *n, uint64_t *dropped,
					 int *err);

/* A thread the hook was told of (at start or by lj_hooks_threads). */
struct lj_pf_thread {
	pid_t tid;
	int index;		/* the tool's index (lj-frame's stage), -1: none */
	bool measured;		/* false: load beside the measurement */
};
/* The threads told, each once, in the order first told. */
const struct lj_pf_thread *lj_perfetto_threads(const struct lj_perfetto *p, int *n);
/* The run's window: from the hook's start to its stop (CLOCK_MONOTONIC). */
void lj_perfetto_window(const struct lj_perfetto *p, uint64_t *start_ns, uint64_t *stop_ns);
/* The threshold (0: the largest kept). */
uint64_t lj_perfetto_threshold(const struct lj_perfetto *p);

/* What the trace is written from, besides the hook. */
struct lj_perfetto_parts {
	const char *path;
	const char *tool;		/* "lj-cyclic" */
	const char *sample;		/* what a kept sample is: "late wake-up", "gap" (NULL: "late sample") */
	int argc;
	char *const *argv;		/* the command line, for the trace's metadata */
	const struct lj_explain *explain;	/* NULL: no --explain */
	const struct lj_power_hook *power;	/* NULL: no --power */
	/* The tool's own tracks (lj-frame's frames), written last; NULL: none. */
	int (*tool_trace)(void *ctx, struct lj_tef *w, uint32_t pid);
	void *ctx;
};

/*
 * Write the trace: the process and its threads, the kept samples as
 * slices, the explanations on per-CPU tracks, the power readings and the
 * sweep phases as counters and slices, then the tool's tracks; the clock
 * and what was kept in "otherData". Return: 0 or -errno (@why: a phrase
 * when the path was refused, as lj_outfile_open).
 */
int lj_perfetto_write(const struct lj_perfetto *p, const struct lj_perfetto_parts *parts,
		      char *why, size_t len);

#endif
