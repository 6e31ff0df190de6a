// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * validity.c - lj-signal's validity verdict (lj_validity_hook): started with the
 * ring, polled while it runs, judged when it stops. Until the lifecycle driver owns
 * the hook list, lj-signal calls the hook's ops here.
 */
#include "sig.h"

#include <stdlib.h>

#include "lj_hist.h"
#include "lj_validity_hook.h"

void sig_validity_start(struct sig_ring *r)
{
	pid_t *tids = calloc(r->n, sizeof(*tids));
	struct lj_run_desc desc = { .tool = "lj-signal", .measured = r->measured, .tids = tids,
				    .ntids = r->n, .policy = r->cfg->policy, .prio = r->cfg->priority };

	r->validity = lj_vhook_new();
	for (int i = 0; tids && i < r->n; i++)
		tids[i] = r->th[i].tid;
	if (!tids || !r->validity || lj_vhook_ops.start(r->validity, &desc)) {
		lj_vhook_ops.free(r->validity);
		r->validity = NULL;
	}
	/* a thread refused its policy runs SCHED_OTHER (the fallback, recorded apart) */
	for (int i = 0; r->validity && i < r->n; i++)
		if (r->th[i].sched_err)
			lj_vhook_expect(r->validity, r->th[i].tid, LJ_POLICY_OTHER, 0);
	free(tids);
}

void sig_validity_poll(struct sig_ring *r)
{
	lj_vhook_poll(r->validity);
}

void sig_validity_finish(struct sig_ring *r, json_object *setup, struct lj_result *res)
{
	uint64_t samples = 0, overflows = 0;

	if (!r->validity)
		return;
	for (int i = 0; i < r->n; i++)
		if (r->th[i].hop) {
			samples += lj_hist_count(r->th[i].hop);
			overflows += lj_hist_overflows(r->th[i].hop);
		}
	/* every thread counts one hop per round trip: -l round trips each */
	lj_vhook_counts(r->validity, 0, overflows, samples, r->cfg->loops * (uint64_t)r->n);
	lj_vhook_finish(r->validity, setup, res);
}
