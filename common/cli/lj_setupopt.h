/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_setupopt - the setup options every tool shares (--cgroup, --cpus, --governor, ...). */
#ifndef LJ_SETUPOPT_H
#define LJ_SETUPOPT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_cpus.h"
#include "lj_opt.h"

struct lj_topo;
struct lj_setup;

/*
 * What the user asked for; filled by the option table below, applied by
 * lj_setupopt_apply() through the setup stack (lj_setup), undone by
 * lj_setupopt_restore(). One table and one implementation for lj-env and
 * every measuring tool.
 *
 *   --cgroup NAME|off   run in group NAME (created in the cpuset and cpu
 *                       hierarchies) or in the root groups ("off")
 *   --cpus SELECTOR     the group's cpuset; without a group, the affinity
 *   --governor NAME     cpufreq governor on the policies covering --cpus
 *   --preempt MODE      dynamic preemption mode
 *   --dma-latency US    hold /dev/cpu_dma_latency at US
 *   --idle-state N      disable cpuidle states deeper than N on --cpus
 *   --rt-runtime US     the group's cpu.rt_runtime_us
 *   --rt-throttle on|off  /proc/sys/kernel/sched_rt_runtime_us
 *   --cpu-weight N      the group's CPU weight (v2 cpu.weight, v1 cpu.shares)
 *   --cpu-max Q[/P]     the group's CPU bandwidth: Q us per P us (v2 cpu.max,
 *                       v1 cpu.cfs_quota_us and cpu.cfs_period_us)
 *   --strict            a capability that is missing is fatal (exit 77)
 *   --policy-fallback   a measuring tool whose threads cannot get the policy asked for
 *                       measures at SCHED_OTHER and exits 0 (the run is invalid either
 *                       way; without it the tool exits 1 after its report, as rt-tests)
 *   --journal PATH      setup journal (default /run/ljkit/journal.PID)
 *   --restore-stale     replay journals of dead ljkit processes first
 *   --power             sample frequency, idle, energy and thermals beside the
 *                       run (not a setup change: read by lj_tool and lj-env)
 *   --perfetto FILE     write a trace of the run that Perfetto and
 *                       chrome://tracing load (read by lj_tool; lj-env refuses it)
 *   --perfetto-threshold TIME  the samples the trace keeps as slices
 */
struct lj_setupopt {
	const char *cgroup;		/* NULL: not given */
	const char *cpus;		/* selector text, NULL: all allowed CPUs */
	const char *governor;
	const char *preempt;
	int dma_latency_us;		/* -1: not given; an int: typed LJ_OPT_INT */
	int idle_state;			/* -1: not given */
	int64_t rt_runtime_us;		/* -1: not given */
	int rt_throttle;		/* -1: not given, 0 off, 1 on */
	int cgroup_depth;		/* nesting depth of the created group, default 1 */
	int cpu_weight;			/* --cpu-weight 1..10000 (v2's scale), 0: not given */
	int64_t cpu_max_us, cpu_period_us;	/* --cpu-max QUOTA[/PERIOD], 0: not given */
	bool strict;
	bool policy_fallback;		/* --policy-fallback: lj_tool's policy rule exits 0 */
	bool restore_stale;
	bool power;			/* --power: the power hook beside the run */
	const char *perfetto;		/* --perfetto FILE, NULL: none (docs/perfetto.md) */
	int64_t perfetto_threshold_ns;	/* --perfetto-threshold, 0: not given */
	const char *journal;

	/* Resolved by lj_setupopt_apply: the CPUs the workload runs on. */
	struct lj_cpu_selection cpusel;
	int dma_fd;
};

void lj_setupopt_init(struct lj_setupopt *o);

/* The option table to list in a tool's lj_opt_spec. */
struct lj_opt_table lj_setupopt_table(struct lj_setupopt *o);

/*
 * Resolve --cpus against @t, then apply every requested change through a
 * new setup stack (*stack), moving the calling process (all its threads)
 * into the group and onto the CPUs. What was applied and what fell back
 * is recorded in @record (the result's "setup" object; may be NULL).
 * A missing capability warns once and falls back unless strict.
 * Return: 0, or an exit code after a message (2 bad input, 77 missing
 * capability under --strict, 1 runtime error); on failure everything
 * already applied has been undone.
 */
int lj_setupopt_apply(struct lj_setupopt *o, const struct lj_topo *t,
		      struct lj_setup **stack, json_object *record);

/*
 * Move thread @tid (0 = the caller) out of the --cgroup group into the
 * root groups, so that a reporter or housekeeping thread can run off the
 * group's (measured) CPUs. No-op without a group. Return: 0 or -errno.
 */
int lj_setupopt_leave_group(const struct lj_setupopt *o, pid_t tid);

/*
 * Move thread @tid (0 = the caller) back into the --cgroup group after
 * lj_setupopt_leave_group, so that threads it creates start in the group.
 * No-op without a group. Return: 0 or -errno.
 */
int lj_setupopt_join_group(const struct lj_setupopt *o, pid_t tid);

/* Undo everything lj_setupopt_apply did (reverse order) and free the stack. */
void lj_setupopt_restore(struct lj_setupopt *o, struct lj_setup *stack);

#endif
