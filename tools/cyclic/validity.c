// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * validity.c - lj-cyclic's validity verdict (lj_validity_hook), started with the
 * measuring threads, polled while they run, judged when they are done. Until
 * the lifecycle driver owns the hook list, lj-cyclic calls the hook's ops here.
 */
#include "cyclic.h"

#include <stdlib.h>

#include "lj_hist.h"
#include "lj_validity_hook.h"

void cyc_validity_start(struct cyc_run *run)
{
	pid_t *tids = calloc(run->nthreads, sizeof(*tids));
	struct lj_run_desc desc = { .tool = "lj-cyclic", .measured = run->measured, .tids = tids,
				    .ntids = run->nthreads, .policy = run->cfg->policy,
				    .prio = run->cfg->priority };

	run->validity = lj_vhook_new();
	if (!tids || !run->validity) {
		free(tids);
		lj_vhook_ops.free(run->validity);
		run->validity = NULL;
		return;
	}
	for (int i = 0; i < run->nthreads; i++)
		tids[i] = run->th[i].tid;
	if (lj_vhook_ops.start(run->validity, &desc)) {
		lj_vhook_ops.free(run->validity);
		run->validity = NULL;
	}
	/* what each thread was set to run with: --priospread, or the fallback */
	for (int i = 0; run->validity && i < run->nthreads; i++)
		lj_vhook_expect(run->validity, run->th[i].tid, run->th[i].policy, run->th[i].prio);
	free(tids);
}

void cyc_validity_poll(struct cyc_run *run)
{
	lj_vhook_poll(run->validity);
}

void cyc_validity_finish(struct cyc_run *run, json_object *setup_rec, struct lj_result *res)
{
	uint64_t missed = 0, overflows = 0, samples = 0;

	if (!run->validity)
		return;
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_live lv;

		if (!run->th[i].hist)
			continue;
		cyc_live_read(&run->th[i], &lv);
		missed += lv.missed;
		overflows += lj_hist_overflows(run->th[i].hist);
		samples += lj_hist_count(run->th[i].hist);
	}
	lj_vhook_counts(run->validity, missed, overflows, samples,
			run->cfg->loops * (uint64_t)run->nthreads);
	lj_vhook_ops.stop(run->validity);
	lj_vhook_fallbacks(run->validity, setup_rec);
	if (res)
		json_object_object_add(lj_result_root(res), "validity",
				       lj_validity_json(lj_vhook_verdict(run->validity)));
}

void cyc_validity_report(struct cyc_run *run, FILE *out)
{
	if (run->validity)
		lj_vhook_ops.report(run->validity, out);
}

void cyc_validity_free(struct cyc_run *run)
{
	if (run->validity)
		lj_vhook_ops.free(run->validity);
	run->validity = NULL;
}
