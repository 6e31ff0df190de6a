/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_cpus - CPU selectors (all, online, big, little, big:N, lists) and pinning. */
#ifndef LJ_CPUS_H
#define LJ_CPUS_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

struct lj_topo;

/*
 * Selectors:
 *   all       every CPU this process may run on (its affinity)
 *   online    every online CPU
 *   big       CPUs of the most efficient kind, little: the least
 *   big:N     the N-th core (0-based) of that kind: all its SMT siblings
 *   0-3,6     a strict list (lj_parse_cpulist); each CPU must exist and be allowed
 * On a machine with one core kind, big and little mean all CPUs and
 * @note says so ("one core kind: big means all CPUs"), for the result.
 * On failure returns -EINVAL/-ERANGE with @why (the caller's buffer of
 * @len bytes, lj_why) naming the problem
 * ("CPU 7 does not exist (online: 0-1)", "CPU 1 is not allowed").
 */
struct lj_cpu_selection {
	cpu_set_t set;
	char spec[64];		/* the selector as given */
	char note[128];		/* "" or what the selector fell back to */
};

int lj_cpus_select(const struct lj_topo *t, const char *selector,
		   struct lj_cpu_selection *out, char *why, size_t len);

/* Pin thread @tid (0 = the caller) to @set. Return: 0 or -errno. */
int lj_cpus_pin(pid_t tid, const cpu_set_t *set);
int lj_cpus_pin_one(pid_t tid, int cpu);

/*
 * Move the calling thread off @avoid (an instrument's thread beside a
 * measurement: its work must not land on the CPUs it measures), when
 * its affinity allows any other CPU. Return: 1 moved off (or already
 * off), 0 it could not be (every allowed CPU is in @avoid, or the
 * affinity could not be read or set).
 */
int lj_cpus_keep_off(const cpu_set_t *avoid);

/* The CPUs of @set in ascending order into @cpus (capacity @max); returns the count. */
int lj_cpus_to_array(const cpu_set_t *set, int *cpus, int max);

/* The NUMA node of @cpu from sysfs (cpuN/nodeM), 0 on a machine without node directories. */
int lj_cpus_node(int cpu);

#endif
