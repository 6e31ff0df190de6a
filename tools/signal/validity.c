// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * validity.c - lj-signal's validity verdict (lj_validity_hook), one of the
 * run's hooks: told what each ring thread was set to, polled while the ring
 * runs (sig_ring_wait), given the counts it judges when the ring is done.
 */
#include "sig.h"

#include "lj_hist.h"
#include "lj_validity_hook.h"

/* A thread refused its policy runs SCHED_OTHER (the fallback, recorded apart). */
void sig_validity_expect(struct sig_ring *r)
{
	for (int i = 0; r->validity && i < r->n; i++)
		lj_vhook_expect(r->validity, r->th[i].tid,
				r->th[i].sched_err ? LJ_POLICY_OTHER : (int)r->cfg->policy,
				r->th[i].sched_err ? 0 : r->cfg->priority);
}

void sig_validity_counts(struct sig_ring *r)
{
	uint64_t samples = 0, overflows = 0;

	for (int i = 0; r->validity && i < r->n; i++)
		if (r->th[i].hop) {
			samples += lj_hist_count(r->th[i].hop);
			overflows += lj_hist_overflows(r->th[i].hop);
		}
	/* every thread counts one hop per round trip: -l round trips each */
	if (r->validity)
		lj_vhook_counts(r->validity, 0, overflows, samples, r->cfg->loops * (uint64_t)r->n);
}
