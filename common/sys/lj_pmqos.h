/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_pmqos - /dev/cpu_dma_latency hold and cpuidle state limits. */
#ifndef LJ_PMQOS_H
#define LJ_PMQOS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct lj_setup;

/*
 * Holding /dev/cpu_dma_latency open with a 32-bit value keeps the request
 * in force; closing the fd drops it, so no journal entry is needed: the
 * kernel undoes it when the process dies. Return: fd >= 0 or -errno.
 */
int lj_pmqos_dma_latency_hold(int32_t us);
void lj_pmqos_dma_latency_release(int fd);

/*
 * Disable the cpuidle states deeper than @max_state (0 keeps only the
 * shallowest) on every CPU of @cpus through libcpupower, each old
 * "disable" flag recorded on the setup stack @s so it is restored.
 * A CPU with fewer states is left as is. Return: number of states
 * disabled, or -errno with @why saying why ("no cpuidle driver",
 * "state2/disable of cpu0 not writable: Permission denied").
 */
int lj_pmqos_idle_limit(struct lj_setup *s, const cpu_set_t *cpus, int max_state,
			char *why, size_t len);

/* Number of cpuidle states of @cpu, or -ENODEV without a cpuidle driver. */
int lj_pmqos_idle_states(int cpu);

#endif
