/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_phases - the sweep phases lj-env --sweep announces to the command it runs (LJ_SWEEP_PHASES). */
#ifndef LJ_PHASES_H
#define LJ_PHASES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Under lj-env --sweep (docs/lj-env.md) the environment variable
 * LJ_SWEEP_PHASES names a file of "CLOCK_MONOTONIC_NS LABEL" lines, one
 * per change of setting, in time order ("81234567890 cpus=2-3"). A
 * measuring tool reads it after its run to label its timeline rows and
 * its trace's phases.
 */
#define LJ_PHASES_MAX 1024

struct lj_phase {
	int64_t t_ns;			/* CLOCK_MONOTONIC when it began */
	char label[64];			/* the setting in force, e.g. "cpus=2-3" */
};

/* Read up to @max phases from @path (NULL or "": none). Return: how many (0 when unreadable). */
size_t lj_phases_load(const char *path, struct lj_phase *ph, size_t max);

/* The label of the phase in force at @t, or "" before the first. */
const char *lj_phase_at(const struct lj_phase *ph, size_t n, int64_t t);

#endif
