/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_tool - the lifecycle every measuring tool runs through: per-tool operations, one driver. */
#ifndef LJ_TOOL_H
#define LJ_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_instruments.h"
#include "lj_result.h"
#include "lj_setupopt.h"
#include "lj_tef.h"
#include "lj_topo.h"

/*
 * A measuring tool (lj-cyclic, lj-signal, lj-hackbench, lj-frame,
 * lj-oslat) is a struct lj_tool_ops and a main() that calls
 * lj_tool_main(). The driver runs the phases in this order
 * (docs/architecture.md, "The lifecycle"):
 *
 *   parse        argv into the tool's configuration
 *   describe     what the driver needs from it: --json, outputs, setup,
 *                -m, its --explain options
 *   (driver)     check the outputs, install the stop handlers (lj_stop),
 *                load the topology, create the result, apply the setup
 *   prepare      place threads, allocate, check policies; may withdraw
 *                the --explain it described (lj-cyclic with -c 1)
 *   (driver)     lock memory (the one mlockall rule); add the hooks: the
 *                validity verdict always, the recorder when the described
 *                --explain asks, the power sampler with --power
 *   start        create the measuring threads, set up but not measuring;
 *                fill the struct lj_run_desc (measured CPUs, and each
 *                thread with what it runs with through lj_tool_threads)
 *   (driver)     lj_hooks_start; one warning naming every fallback
 *   go           release the threads (optional)
 *   wait         until the run ends (loops, duration, -b, a stop); the
 *                thread that waits calls lj_hooks_poll now and then
 *   counts       the tool's own figures for the verdict (optional)
 *   (driver)     lj_hooks_stop
 *   report_text  the tool's lines; then the driver hands the setup's
 *                fallbacks to the verdict and prints lj_hooks_report (on
 *                stderr: stdout keeps exactly the tool's lines for their
 *                parsers)
 *   (driver)     with --perfetto, the trace (lj_perfetto), the tool's
 *                own tracks from its trace op (optional)
 *   report_json  the result's blocks, then lj_hooks_contribute; written
 *   free         whatever the tool holds, however far it got
 *
 * Return convention of the phases: 0, or -errno after one line on stderr
 * saying what failed; only the driver turns that into an exit code
 * (lj_exit_code: a missing capability 77, bad input 2, else 1). A phase
 * may instead return a positive LJ_EXIT_* it decided itself: parse (the
 * option parser's code, or LJ_OPT_EXIT_HELP for a help already printed),
 * LJ_EXIT_THRESHOLD for a run that completed over a threshold, or
 * LJ_EXIT_RUNTIME for a runtime failure whose errno alone would read as
 * bad input. The first non-zero result of the run phases is the exit code.
 */

struct lj_tool;

/* What the driver needs to know of the tool's configuration after parse. */
#define LJ_TOOL_MAX_OUTPUTS 4
struct lj_tool_desc {
	const char *json;		/* --json path, or NULL */
	const char *outputs[LJ_TOOL_MAX_OUTPUTS];	/* other files the run writes (NULL: none) */
	struct lj_setupopt *setup;	/* the tool's setup options (--strict among them) */
	bool mlock;			/* lock memory before the threads start */
	bool prefault_hot;		/* the measuring threads run only LJ_HOT code (lj_prefault_hot) */
	bool topo_apart;		/* discover the topology in a child (lj_topo_load_apart) */
	/*
	 * The tool's --explain (and -b --tracemark) options, NULL: it has
	 * none. Read after prepare, which may clear what it asks for.
	 */
	const struct lj_explain_opts *explain;
	/* What a late sample is, in --perfetto's trace ("late wake-up", "gap"); NULL: "late sample". */
	const char *trace_sample;
};

/* The tool's own figures the validity verdict judges (docs/validity.md). */
struct lj_tool_counts {
	uint64_t missed;		/* missed periods or deadlines */
	uint64_t overflows;		/* samples beyond the histogram's range */
	uint64_t samples;		/* samples measured */
	uint64_t expected;		/* samples asked for (-l), 0: unknown */
	/*
	 * Of those, how many were measured: the samples, or (lj-cyclic's -l,
	 * the run ending when its first thread has them) the furthest thread's.
	 */
	uint64_t reached;
	/* The tool's own overhead per period (lj-frame: per frame, all stages) and that period; 0: none. */
	double own_ns_per_period;
	uint64_t period_ns;
};

struct lj_tool_ops {
	const char *name;		/* "lj-cyclic": the result's tool */
	size_t size;			/* the tool's state, zeroed by the driver */
	int (*parse)(void *tool, int argc, char **argv);
	void (*describe)(void *tool, struct lj_tool_desc *d);
	int (*prepare)(void *tool, struct lj_tool *t);
	int (*start)(void *tool, struct lj_tool *t, struct lj_run_desc *run);
	int (*go)(void *tool, struct lj_tool *t);			/* optional */
	int (*wait)(void *tool, struct lj_tool *t);
	/* Optional, after wait (the threads are done): the figures only the tool knows. */
	void (*counts)(void *tool, struct lj_tool_counts *c);
	/* Called only when start succeeded; @ret is the run's result so far. */
	int (*report_text)(void *tool, struct lj_tool *t, int ret);
	/* Called whenever a result exists (the run may not have started: @started). */
	int (*report_json)(void *tool, struct lj_tool *t, struct lj_result *res, bool started, int ret);
	/*
	 * Optional, with --perfetto after a run that started: the tool's own
	 * tracks from what it kept (lj-frame's stages and frames), written
	 * into the trace of process @pid (lj_tef.h). Return: 0 or -errno.
	 */
	int (*trace)(void *tool, struct lj_tef *w, uint32_t pid);
	void (*free)(void *tool);
};

/*
 * What the driver holds for a run, besides the tool's own state. The
 * tool's measuring loops keep &t->hooks (a pointer in their run or thread
 * struct) and call lj_hooks_wants()/lj_hooks_late() on it.
 */
struct lj_tool {
	const struct lj_tool_ops *ops;
	struct lj_tool_desc desc;
	struct lj_topo topo;
	struct lj_result *res;		/* NULL without --json */
	json_object *setup_rec;		/* the result's "setup", or the driver's own without --json */
	struct lj_setup *stack;
	struct lj_hooks hooks;
	struct lj_run_desc run;		/* what start described; the hooks start with it */
	struct lj_run_thread *threads;	/* run.threads, the driver's (lj_tool_threads) */
	struct lj_vhook *validity;	/* the verdict, in hooks; NULL until added */
	struct lj_explain *explain;	/* the recorder, in hooks; NULL: not asked (-b's marker goes to it) */
	struct lj_power_hook *power;	/* --power's sampler, in hooks; NULL: not asked */
	struct lj_perfetto *perfetto;	/* --perfetto's hook, in hooks; NULL: not asked */
	FILE *text;			/* the tool's lines: stdout, stderr with --json - */
	char fallbacks[512];		/* "what (reason), ..." for the one warning */
	bool topo_loaded, applied, mlocked, strict;
	bool policy_fell;		/* lj_tool_policy_fallback was called */
	struct lj_instruments instr;	/* what the instruments cost the run (side.instruments) */
};

/* The whole lifecycle. Return: the exit code. */
int lj_tool_main(const struct lj_tool_ops *ops, int argc, char **argv);

/*
 * In start: the run's @n measuring threads, zeroed, for the tool to fill
 * (thread i at [i], its index in struct lj_late; the policy and priority
 * it runs with after any fallback, -1: nothing asked; measured). The
 * driver owns the array and hands it to the hooks.
 * Return: the array, or NULL after "out of memory" (start returns -ENOMEM).
 */
struct lj_run_thread *lj_tool_threads(struct lj_tool *t, int n);

/*
 * The one strict-or-fallback rule, for a capability the run goes without
 * (@what: "mlockall", "sched", a hook's name; @reason: why, or NULL for
 * lj_strerror(@err)). Under --strict: one error line, return
 * LJ_EXIT_NOCAP (the phase returns it). Otherwise record {what, reason}
 * in the result's setup.fallbacks, add it to the one warning the driver
 * prints before the measurement starts, return 0.
 */
int lj_tool_fallback(struct lj_tool *t, const char *what, int err, const char *reason);

/*
 * The same for the measuring threads' scheduling policy: a run whose
 * threads did not get the policy asked for measured something else. The
 * fallback entry carries "measuring_policy": true, which makes the run's
 * validity verdict invalid, and without --policy-fallback the driver ends
 * the run with exit 1 after its report, as cyclictest, signaltest and
 * hackbench do (docs/validity.md, "The policy rule").
 */
int lj_tool_policy_fallback(struct lj_tool *t, const char *what, int err, const char *reason);

/* Record {what, value} in setup.applied, or {what, value} in setup.notes (no-op without a result). */
void lj_tool_applied(struct lj_tool *t, const char *what, const char *value);
void lj_tool_note(struct lj_tool *t, const char *what, const char *value);

/*
 * Check that each non-NULL path of @paths can be written
 * (lj_result_check_path), before anything is measured, so a bad --json,
 * --histfile or --timeline does not cost a run.
 * Return: 0, or LJ_EXIT_RUNTIME after "cannot write PATH: why".
 */
int lj_tool_check_outputs(const char *const *paths, size_t n);

#endif
