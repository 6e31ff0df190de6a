/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_power_hook - frequency, idle, energy and thermal figures of a run, as a hook (--power). */
#ifndef LJ_POWER_HOOK_H
#define LJ_POWER_HOOK_H

#include "lj_hook.h"
#include "lj_power.h"

struct lj_topo;

/*
 * --power: start() reads the first snapshot (lj_powersample) and starts
 * the sampler; stop() reads the last and derives the figures; a run that
 * was throttled (a max-frequency cap, a crossed trip point, thermal
 * throttle events) adds a "throttle" reason to the validity verdict of the
 * same hook list, when it has one. contribute() writes summary metrics
 * (energy_j, power_w, freq_avg_mhz_cN, idle_share_cN, ..., and energy per
 * frame / per million messages from the tool's own summary) and the side
 * block "power"; report() prints "power: ..." lines, one per source the
 * machine lacks. docs/power.md defines every figure.
 */
struct lj_power_hook;

extern const struct lj_hook_ops lj_power_hook_ops;

/*
 * @hs: the list the hook joins (its validity hook gets the throttle
 * reason; may be NULL); @topo: the core kinds, for figures per kind (may
 * be NULL). The sampler thread keeps off the run's measured CPUs when
 * others are allowed.
 */
struct lj_power_hook *lj_power_hook_new(struct lj_hooks *hs, const struct lj_topo *topo);
/* A window length in ms: windows of the run with and without the sampler (lj_alternate.h, docs/power.md); unset: none. */
#define LJ_POWER_ALTERNATE_ENV "LJ_POWER_ALTERNATE"

/*
 * Create and add to @hs; *@out (may be NULL) gets the hook. Return: 0,
 * -ENOMEM, -ENOSPC, or LJ_EXIT_USAGE (said) for a bad LJ_POWER_ALTERNATE.
 */
int lj_power_hook_add(struct lj_hooks *hs, const struct lj_topo *topo, struct lj_power_hook **out);
/* Before start: keep up to @max readings as a series (lj_pw_series), for a trace of the run. */
void lj_power_hook_keep_series(struct lj_power_hook *h, size_t max);
/* After stop: the series and the first snapshot it follows (NULL when none was kept). */
struct lj_pw_series;
const struct lj_pw_series *lj_power_hook_series(const struct lj_power_hook *h, const struct lj_pw_snap **first);
/* The figures after stop (NULL before, or when the sampler could not start). */
const struct lj_pw_figures *lj_power_hook_figures(const struct lj_power_hook *h);

#endif
