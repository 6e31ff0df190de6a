// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * validity.c - lj-cyclic's validity verdict (lj_validity_hook): a hook in
 * the driver's list (lj_tool), told what each thread was set to, polled
 * while the threads run and given the counts it judges when they are done.
 */
#include "cyclic.h"

#include "lj_hist.h"
#include "lj_validity_hook.h"

int cyc_validity_add(struct cyc_run *run, struct lj_hooks *hooks)
{
	return lj_vhook_add(hooks, &run->validity);
}

void cyc_validity_expect(struct cyc_run *run)
{
	for (int i = 0; run->validity && i < run->nthreads; i++)
		lj_vhook_expect(run->validity, run->th[i].tid, run->th[i].policy, run->th[i].prio);
}

void cyc_validity_poll(struct cyc_run *run)
{
	lj_vhook_poll(run->validity);
}

void cyc_validity_counts(struct cyc_run *run)
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
}

void cyc_validity_fallbacks(struct cyc_run *run, json_object *setup)
{
	lj_vhook_fallbacks(run->validity, setup);
}
