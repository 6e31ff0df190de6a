/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_pmqos - /dev/cpu_dma_latency hold and cpuidle state limits. */
#ifndef LJ_PMQOS_H
#define LJ_PMQOS_H

#include <stdint.h>

/*
 * Holding /dev/cpu_dma_latency open with a 32-bit value keeps the request
 * in force; closing the fd drops it, so no journal entry is needed: the
 * kernel undoes it when the process dies. Return: fd >= 0 or -errno.
 */
int lj_pmqos_dma_latency_hold(int32_t us);
void lj_pmqos_dma_latency_release(int fd);

#endif
