/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_scenario - scenario file parser (INI-like matrices) and axis expansion. */
#ifndef LJ_SCENARIO_H
#define LJ_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A scenario (docs/scenarios.md is the reference):
 *
 *   [matrix]                 run settings and axes
 *   repeat = 3               measured runs per cell (1..1000)
 *   warmup = 1               discarded runs before them (0..100)
 *   order  = random          sequential (default) or random cell order
 *   seed   = 42              random order seed (default: from the clock)
 *   watch  = sugov:*, rcu_*  task name globs: every run goes through
 *                            lj-env --watch, whose ctxsw_* summary
 *                            metrics join the run's result
 *   cgroup = off, on         setup axes: cgroup cpus governor preempt
 *                            dma_latency idle_state load
 *   interval = 1000, 500     any other key is a custom axis; a workload
 *                            command must use it as ${interval}
 *   [workload cyclic]
 *   command = lj-cyclic -l 50000 -q -i ${interval}
 *   timeout = 60s            optional: kill the run after this long
 *   [load burn]              optional: a background load for the load axis
 *   command = stress-ng --cpu 0
 *   [kernel rt]              optional: a kernel for the kernel axis
 *   image = /boot/vmlinuz-*-rt-amd64   a glob: the newest match, in version order
 *   modules = DIR            optional: its modules tree (default: found from the image)
 *   initramfs = FILE         optional: an initramfs of the user's
 *   cmdline = WORDS          optional: boot words this kernel always gets
 *
 * The kernel axis (values: host, a [kernel NAME], or an image path) and
 * the cmdline axis (values: none, or boot words) make cells that run in
 * a guest booted with that kernel and those words (docs/lj-matrix.md).
 *
 * Cells are the cross product of the axes for every workload: workload is
 * the outermost loop, then the axes in declaration order (the first
 * declared varies slowest). An axis list has no empty or repeated values.
 */
#define LJ_SCENARIO_MAX_AXES	16
#define LJ_SCENARIO_MAX_VALUES	64
#define LJ_SCENARIO_MAX_CELLS	100000
#define LJ_SCENARIO_MAX_WATCH	32	/* = LJ_TASKWATCH_MAX_PATTERNS */
#define LJ_SCENARIO_MAX_COMMAND	65536	/* bytes of a command after expansion (exec allows 128 KiB) */

enum lj_scenario_order {
	LJ_SCENARIO_SEQUENTIAL,
	LJ_SCENARIO_RANDOM,
};

struct lj_scenario_axis {
	char *name;
	char *values[LJ_SCENARIO_MAX_VALUES];
	int nvalues;
	int line;
	bool custom;		/* not a setup axis: substituted as ${name} */
};

struct lj_scenario_section {	/* a [workload NAME] or [load NAME] */
	char *name;
	char *command;
	int64_t timeout_ns;	/* 0: none */
	int line;
};

struct lj_scenario_kernel {	/* a [kernel NAME] */
	char *name;
	char *image, *modules, *initramfs, *cmdline;	/* NULL when not given */
	int line;
};

struct lj_scenario {
	char *path;		/* as given, for messages */
	char *text;		/* the whole file, for the manifest */
	int repeat;		/* default 1 */
	int warmup;		/* default 0 */
	enum lj_scenario_order order;
	bool seed_set;
	uint64_t seed;
	char *watch[LJ_SCENARIO_MAX_WATCH];	/* "watch" run setting: task name globs */
	int nwatch;
	struct lj_scenario_axis axes[LJ_SCENARIO_MAX_AXES];
	int naxes;
	struct lj_scenario_section *workloads;
	int nworkloads;
	struct lj_scenario_section *loads;
	int nloads;
	struct lj_scenario_kernel *kernels;
	int nkernels;
};

/* One point of the matrix: a workload and one value index per axis. */
struct lj_scenario_cell {
	size_t index;		/* 0-based, in expansion order */
	int workload;
	int value[LJ_SCENARIO_MAX_AXES];
};

/*
 * Parse @text (NUL-terminated) read from @path. On a problem returns
 * -EINVAL (or -ENOMEM, -E2BIG for too many cells) and writes
 * "PATH:LINE: problem" into @err (size @errlen).
 */
int lj_scenario_parse(const char *path, const char *text, struct lj_scenario **out,
		      char *err, size_t errlen);
/* Read and parse a file; -errno with "PATH: strerror" in @err when unreadable. */
int lj_scenario_load(const char *path, struct lj_scenario **out, char *err, size_t errlen);
void lj_scenario_free(struct lj_scenario *s);

/*
 * Replace the values of axis @name with the comma list @values (an axis
 * the scenario lacks is added last), checked as the parser checks a
 * [matrix] line, the whole scenario then checked again: lj-matrix's
 * --axis. Return: 0, or -EINVAL / -E2BIG with "--axis NAME: problem" in @err.
 */
int lj_scenario_set_axis(struct lj_scenario *s, const char *name, const char *values, char *err,
			 size_t errlen);

/* The [kernel NAME] section named @name, or NULL. */
const struct lj_scenario_kernel *lj_scenario_find_kernel(const struct lj_scenario *s, const char *name);
/* Lookups the parser and the cells share (scenario_cells.c). */
const struct lj_scenario_axis *lj_scenario_find_axis(const struct lj_scenario *s, const char *name,
						    size_t len);
struct lj_scenario_section *lj_scenario_find_section(struct lj_scenario_section *v, int n,
						     const char *name);
/* Is @v a word a shell takes as it is (no quoting needed)? */
bool lj_scenario_shell_plain(const char *v);

/*
 * Does cell @c run in a guest: its kernel value is not "host"? (No
 * kernel axis: no.)
 */
bool lj_scenario_in_guest(const struct lj_scenario *s, const struct lj_scenario_cell *c);

/* Is @name one of the setup axes lj-matrix knows (cgroup, cpus, ...)? */
bool lj_scenario_is_setup_axis(const char *name);

/* Number of cells: workloads times the product of the axis lengths. */
size_t lj_scenario_ncells(const struct lj_scenario *s);

/* Cell @i (0 <= i < ncells). Return: 0 or -ERANGE. */
int lj_scenario_cell(const struct lj_scenario *s, size_t i, struct lj_scenario_cell *out);

/* The value of axis @name in @c, or NULL when the scenario has no such axis. */
const char *lj_scenario_value(const struct lj_scenario *s, const struct lj_scenario_cell *c,
			      const char *name);

/*
 * The cell's axes as "a=x,b=y" in declaration order ("" without axes):
 * with the workload name, what identifies a cell across runs and kernels.
 * Returns the length snprintf would have written.
 */
int lj_scenario_cell_id(const struct lj_scenario *s, const struct lj_scenario_cell *c,
			char *buf, size_t len);

/*
 * The workload command with ${axis} replaced by the cell's values, each
 * one shell word of data: single-quoted outside quotes unless it is
 * plain (letters, digits, _ . , : = + / @ % -), as it is inside quotes.
 * malloc'd, NULL on ENOMEM.
 */
char *lj_scenario_command(const struct lj_scenario *s, const struct lj_scenario_cell *c);

/*
 * The load named @name: a [load NAME] section, else a built-in load
 * ("hackbench": lj-hackbench --load, which runs until it is stopped
 * by SIGTERM after each run), or NULL.
 */
const struct lj_scenario_section *lj_scenario_find_load(const struct lj_scenario *s,
							 const char *name);

/*
 * Fill @order with the cell indices 0..n-1 in the scenario's order:
 * ascending for sequential, a Fisher-Yates shuffle driven by @seed for
 * random (the same seed gives the same order on every machine).
 */
void lj_scenario_run_order(const struct lj_scenario *s, uint64_t seed, size_t *order, size_t n);

#endif
