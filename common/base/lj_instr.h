/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_instr - what a run's own instruments cost it, and when that makes the run suspect. */
#ifndef LJ_INSTR_H
#define LJ_INSTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * docs/validity.md, "The instruments' own cost". An instrument (the
 * --explain recorder, the --power sampler) measures its own cost during
 * the run: the CPU time of its threads while the tool measured, and
 * whether they kept off the measured CPUs. lj-frame measures its own
 * overhead per frame (the emulator: bookkeeping and hand-off around the
 * work). Each limit below is a share of what it sits beside; above it the
 * verdict is suspect, with a reason naming the instrument and its cost.
 */

/* An instrument's threads: their CPU time over the measurement's wall time. */
#define LJ_INSTR_SHARE_LIMIT 0.02
/* When its threads shared the measured CPUs (nothing else allowed), half of that. */
#define LJ_INSTR_SHARE_LIMIT_SHARED 0.01
/* lj-frame's own overhead per frame over the frame period. */
#define LJ_INSTR_EMULATOR_LIMIT 0.05

struct lj_instr_cost {
	char name[24];		/* "explain", "power" */
	char what[48];		/* "--explain's recorder (tracefs)", in the reason */
	uint64_t cpu_ns;	/* its threads' CPU time while the tool measured */
	uint64_t after_ns;	/* CPU time before and after the measurement (setup, reading, explaining) */
	uint64_t events;	/* events recorded (a recorder; 0 otherwise) */
	uint64_t passes;	/* the thread's wake-ups (reads, samples) */
	bool threaded;		/* it ran a thread beside the measurement */
	bool apart;		/* that thread kept off the measured CPUs */
	bool kernel_measured;	/* the kernel's side was measured (the BPF recorder's programs) */
	uint64_t kernel_ns;	/* ...their run time, every CPU */
	uint64_t kernel_runs;	/* ...and their runs */
};

/* @c's CPU time over @span_ns (0 when @span_ns is 0). */
double lj_instr_share(const struct lj_instr_cost *c, uint64_t span_ns);
/* The limit that applies to @c (LJ_INSTR_SHARE_LIMIT, or _SHARED when it was not apart). */
double lj_instr_limit(const struct lj_instr_cost *c);

/*
 * Whether @c's cost over a measurement of @span_ns exceeds its limit;
 * then @text (when not NULL) gets the reason ("--explain's recorder
 * (tracefs) used 3.1% of the run's time (62.0 ms of CPU over 2.00 s, on
 * other CPUs than the measured ones; limit 2%)"). A span of 0 judges
 * nothing.
 */
bool lj_instr_suspect(const struct lj_instr_cost *c, uint64_t span_ns, char *text, size_t len);

/*
 * The same for lj-frame's own overhead: @ns_per_frame (all stages) over
 * @period_ns above LJ_INSTR_EMULATOR_LIMIT.
 */
bool lj_instr_emulator_suspect(double ns_per_frame, uint64_t period_ns, char *text, size_t len);

#endif
