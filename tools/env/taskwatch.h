/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_taskwatch - context switches of named tasks (kernel threads included) and of the system, before and after. */
#ifndef LJ_TASKWATCH_H
#define LJ_TASKWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The schedfreq question ("does this kernel wake the governor's thread
 * less?") needs no perf: /proc/PID/task/TID/status counts every thread's
 * voluntary and involuntary context switches, /proc/stat counts the
 * system's. A watch snapshots every thread whose comm matches one of its
 * glob patterns (fnmatch without FNM_PATHNAME, so a '*' also matches the '/' of
 * "ksoftirqd/0"),
 * twice, and reports the deltas. Threads are matched by tid and comm
 * across the snapshots. A thread that appeared in between counts all its
 * switches (they all happened in the window); one that vanished counts
 * none (its last counts are gone) and is reported as vanished.
 *
 * The /proc root is a parameter so tests run on a fake tree; production
 * passes LJ_TASKWATCH_PROC.
 */
#define LJ_TASKWATCH_PROC		"/proc"
#define LJ_TASKWATCH_MAX_PATTERNS	32
#define LJ_TASKWATCH_COMM_LEN		64	/* TASK_COMM_LEN is 16; kthreads may show more */

struct lj_taskwatch_task {
	pid_t pid, tid;
	char comm[LJ_TASKWATCH_COMM_LEN];
	uint64_t voluntary, involuntary;
	int64_t migrations;		/* -1: no /proc/.../sched (CONFIG_SCHED_DEBUG off) */
	uint32_t match;			/* bit i: pattern i matches comm */
};

struct lj_taskwatch_snap {
	int64_t t_ns;			/* CLOCK_MONOTONIC when taken */
	bool have_ctxt;
	uint64_t ctxt;			/* /proc/stat "ctxt": all CPUs, since boot */
	struct lj_taskwatch_task *tasks;
	size_t ntasks, cap;
};

struct lj_taskwatch {
	char *patterns[LJ_TASKWATCH_MAX_PATTERNS];
	int npatterns;
	struct lj_taskwatch_snap before, after;
};

/* Deltas of pattern i between the two snapshots. */
struct lj_taskwatch_delta {
	const char *pattern;
	int tasks;			/* matched in either snapshot */
	int appeared, vanished;
	uint64_t voluntary, involuntary;
	uint64_t ctxsw;			/* voluntary + involuntary */
	int64_t migrations;		/* -1 when no matched thread has the counter */
	double per_s;			/* ctxsw per second of elapsed time, 0 when none elapsed */
};

/* System-wide deltas. */
struct lj_taskwatch_system {
	int64_t elapsed_ns;
	bool have_ctxt;
	uint64_t ctxsw;
	double per_s;
};

void lj_taskwatch_init(struct lj_taskwatch *w);
void lj_taskwatch_free(struct lj_taskwatch *w);

/*
 * Add one glob pattern. Return: 0, -EINVAL (empty, or not a pattern
 * fnmatch accepts), -EEXIST (given twice), -E2BIG (too many), -ENOMEM.
 */
int lj_taskwatch_add(struct lj_taskwatch *w, const char *glob);
/* Add each pattern of a comma-separated list ("sugov:*, rcu_*"); an empty item is -EINVAL. */
int lj_taskwatch_add_list(struct lj_taskwatch *w, const char *list);

/*
 * Snapshot into w->before (@after false) or w->after under @root: every
 * thread of every process whose comm matches, and /proc/stat's ctxt.
 * Threads that exit while being read are left out. Return: 0 or -errno
 * when @root cannot be read at all.
 */
int lj_taskwatch_snapshot(struct lj_taskwatch *w, const char *root, bool after);

/* Pattern @i's deltas (0 <= i < npatterns). */
void lj_taskwatch_delta(const struct lj_taskwatch *w, int i, struct lj_taskwatch_delta *d);
void lj_taskwatch_system(const struct lj_taskwatch *w, struct lj_taskwatch_system *s);
/* The thread of @s with @t's tid and comm, or NULL (for per-thread detail). */
const struct lj_taskwatch_task *lj_taskwatch_find(const struct lj_taskwatch_snap *s,
						  const struct lj_taskwatch_task *t);

/*
 * A summary metric name for @glob: "ctxsw_" then the pattern with each
 * run of characters other than letters and digits made one '_', and no
 * trailing '_' ("sugov:*" -> "ctxsw_sugov", "rcu_*" -> "ctxsw_rcu"). Returns the length snprintf would have written.
 */
int lj_taskwatch_metric(const char *glob, char *buf, size_t len);

/*
 * Pure parsers of /proc text, for the snapshot and for tests.
 * status: "voluntary_ctxt_switches:\tN" and "nonvoluntary_ctxt_switches:\tN".
 * sched:  "se.nr_migrations   :   N" (older kernels: "nr_migrations").
 * stat:   "ctxt N".
 * Return: 0, or -ENOENT when the field is missing, -EINVAL when malformed.
 */
int lj_taskwatch_parse_status(const char *text, uint64_t *voluntary, uint64_t *involuntary);
int lj_taskwatch_parse_sched(const char *text, int64_t *migrations);
int lj_taskwatch_parse_stat(const char *text, uint64_t *ctxt);

#endif
