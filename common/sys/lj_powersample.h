/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_powersample - power snapshots at the start and end of a run, and a slow sampler between them. */
#ifndef LJ_POWERSAMPLE_H
#define LJ_POWERSAMPLE_H

#include <sched.h>
#include <stdbool.h>
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

/*
 * @avoid: CPUs the thread keeps off when it may run elsewhere (the
 * measured ones; NULL: none). @series_max: keep up to that many readings
 * as a time series (struct lj_pw_series; 0: none): then the thread also
 * runs on a machine with only cpuidle, so that each CPU's idle time has
 * readings between the first and the last.
 */
int lj_pw_sampler_start(struct lj_pw_sampler **out, const char *root, uint64_t interval_ns,
			const cpu_set_t *avoid, size_t series_max);
void lj_pw_sampler_stop(struct lj_pw_sampler *s);

/* Whether a thread samples between the ends (not when there is nothing to read but at them). */
bool lj_pw_sampler_threaded(const struct lj_pw_sampler *s);
/* The thread sleeps reading nothing (@paused), or reads again an interval later (LJ_POWER_ALTERNATE's windows). */
void lj_pw_sampler_pause(struct lj_pw_sampler *s, bool paused);
/* The readings taken so far (cost.samples, while the run goes). */
uint64_t lj_pw_sampler_steps(const struct lj_pw_sampler *s);
/* After stop: the figures of the run. Return: 0, -EINVAL before stop, -ENOMEM. */
int lj_pw_sampler_derive(const struct lj_pw_sampler *s, struct lj_pw_figures *out);
/*
 * The readings kept as a series, for a trace of the run: at each reading
 * (the first, every interval, the last) its time, each cpufreq policy's
 * scaling_cur_freq (the first snapshot's pol[] order) and each CPU's idle
 * time so far, all its idle states summed (the first snapshot's cpu[]
 * order). 16 bytes per policy and CPU per reading.
 */
struct lj_pw_series {
	size_t n, max;			/* readings kept, room */
	uint64_t dropped;		/* readings past max */
	int npol, ncpu;			/* columns, as the first snapshot */
	uint64_t *t_ns;			/* [n] CLOCK_MONOTONIC */
	uint64_t *khz;			/* [n][npol], 0: unknown */
	uint64_t *idle_us;		/* [n][ncpu] */
};
/* After stop: the series (NULL when none was asked or it could not be allocated). */
const struct lj_pw_series *lj_pw_sampler_series(const struct lj_pw_sampler *s);

/*
 * What the sampler cost, measured (after stop): @thread_ns the sampler
 * thread's CPU time (0 without a thread: the machine had nothing worth
 * sampling), @edge_ns the CPU time of the first and last snapshots read
 * on the caller's thread (before and after the measurement), @samples
 * the readings, @apart whether the thread kept off the measured CPUs.
 */
struct lj_pw_cost {
	uint64_t thread_ns, edge_ns, samples;
	bool threaded, apart;
};
void lj_pw_sampler_cost(const struct lj_pw_sampler *s, struct lj_pw_cost *c);

/* The first snapshot: which sources exist, and why not. */
const struct lj_pw_snap *lj_pw_sampler_first(const struct lj_pw_sampler *s);
void lj_pw_sampler_free(struct lj_pw_sampler *s);

#endif
