/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_instruments - the run's instruments' own cost: gathered from the hooks, judged, written in side.instruments. */
#ifndef LJ_INSTRUMENTS_H
#define LJ_INSTRUMENTS_H

#include <stdint.h>

#include "lj_hook.h"
#include "lj_instr.h"

struct lj_result;

/*
 * docs/validity.md, "The instruments' own cost". The driver gathers,
 * after the hooks stop, what each instrument measured of itself (the
 * hooks' cost op: the --explain recorder's reader, the --power sampler)
 * over the measurement's wall time (@span_ns, from the hooks' start to
 * the end of the tool's wait), and the tool's own overhead per period
 * (lj-frame's emulator, from its counts); judges each against its limit
 * (lj_instr_suspect: a `suspect` reason "instrument" or "emulator" to the
 * verdict of the same list); and writes side.instruments.
 */
struct lj_instruments {
	struct lj_instr_cost c[LJ_HOOKS_MAX];
	int n;
	uint64_t span_ns;		/* the measurement's wall time */
	uint64_t samples;		/* the tool's samples (wake-ups, frames), for per-sample figures */
	double own_ns_per_period;	/* the tool's own overhead (lj-frame), 0: none measured */
	uint64_t period_ns;		/* the period it is judged against */
};

void lj_instruments_gather(struct lj_instruments *in, const struct lj_hooks *hs, uint64_t span_ns);
/* Judge every figure; a reason for each over its limit goes to the validity hook of @hs. */
void lj_instruments_judge(const struct lj_instruments *in, struct lj_hooks *hs);
/* side.instruments in @res (nothing when no instrument ran and the tool measured no overhead). */
void lj_instruments_json(const struct lj_instruments *in, struct lj_result *res);

#endif
