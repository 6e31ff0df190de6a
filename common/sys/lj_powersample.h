/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_powersample - power snapshots at the start and end of a run, and a slow sampler between them. */
#ifndef LJ_POWERSAMPLE_H
#define LJ_POWERSAMPLE_H

#include <sched.h>
#include <stdint.h>

#include "lj_power.h"

/*
 * lj_pw_sampler_start reads the first snapshot under @root ("/sys") and,
 * when the machine has anything worth sampling (a cpufreq policy, an
 * energy counter or gauge, a thermal zone), starts one thread that reads
 * again every @interval_ns: it sees counters wrap more than once,
 * integrates power gauges, catches a frequency cap applied and lifted
 * and the hottest temperature. The thread sleeps between reads; it reads
 * sysfs files only, a few hundred per second at most.
 * lj_pw_sampler_stop reads the last snapshot and joins the thread.
 * Return: 0, -ENOMEM, or -errno of pthread_create.
 */
struct lj_pw_sampler;

/* @avoid: CPUs the thread keeps off when it may run elsewhere (the measured ones; NULL: none). */
int lj_pw_sampler_start(struct lj_pw_sampler **out, const char *root, uint64_t interval_ns,
			const cpu_set_t *avoid);
void lj_pw_sampler_stop(struct lj_pw_sampler *s);
/* After stop: the figures of the run. Return: 0, -EINVAL before stop, -ENOMEM. */
int lj_pw_sampler_derive(const struct lj_pw_sampler *s, struct lj_pw_figures *out);
/* The first snapshot: which sources exist, and why not. */
const struct lj_pw_snap *lj_pw_sampler_first(const struct lj_pw_sampler *s);
void lj_pw_sampler_free(struct lj_pw_sampler *s);

#endif
