// SPDX-License-Identifier: GPL-2.0-or-later
/* timeline.c - lj-frame's --timeline CSV: fps, drops and CPU frequency per interval. */
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_cpufreq.h"
#include "lj_outfile.h"
#include "lj_time.h"

/* Each CPU's frequency at @t: the last change sampled at or before it, 0 if none yet. */
static void freq_at(const struct lj_cpufreq_sample *smp, size_t nsmp, size_t *pos,
		    int64_t t, unsigned long *khz)
{
	while (*pos < nsmp && smp[*pos].t_ns <= t) {
		if (smp[*pos].cpu >= 0 && smp[*pos].cpu < CPU_SETSIZE)
			khz[smp[*pos].cpu] = smp[*pos].khz;
		(*pos)++;
	}
}

int frm_timeline_write(const char *path, const struct frm_trial *tr, int64_t interval_ns,
		       const struct lj_cpufreq_sample *smp, size_t nsmp)
{
	const struct frm_config *cfg = tr->cfg;
	/* From the first measured vsync to the interval holding the last. */
	uint64_t n = tr->nrun > tr->warmup ? tr->nrun - tr->warmup : 0;
	uint64_t nint = n ? (uint64_t)((n - 1) * cfg->period_ns / interval_ns) + 1 : 0;
	int64_t base = frm_trial_vsync(tr, tr->warmup);
	unsigned long *khz = calloc(CPU_SETSIZE, sizeof(*khz));
	cpu_set_t cpus;
	uint64_t i = tr->warmup;
	size_t pos = 0;
	struct lj_outfile out;
	FILE *f;
	int ret;

	if (!khz)
		return -ENOMEM;
	ret = lj_outfile_open(&out, path, NULL, 0);
	if (ret) {
		free(khz);
		return ret;
	}
	f = lj_outfile_stdio(&out);
	if (!f) {
		lj_outfile_abort(&out);
		free(khz);
		return -ENOMEM;
	}
	CPU_ZERO(&cpus);
	for (size_t k = 0; k < nsmp; k++)
		if (smp[k].cpu >= 0 && smp[k].cpu < CPU_SETSIZE)
			CPU_SET(smp[k].cpu, &cpus);
	fprintf(f, "t_s,frames,dropped,fps");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cpus))
			fprintf(f, ",cpu%d_khz", c);
	fputc('\n', f);
	for (uint64_t k = 0; k < nint; k++) {
		int64_t end = base + (int64_t)(k + 1) * interval_ns;
		struct frm_account a;

		frm_account_init(&a, cfg->period_ns, cfg->latency_frames);
		for (; i < tr->nrun && frm_trial_vsync(tr, i) < end; i++)
			frm_account_add(&a, frm_trial_vsync(tr, i), tr->present[i]);
		fprintf(f, "%.3f,%llu,%llu,%.2f", (double)k * interval_ns / 1e9,
			(unsigned long long)a.frames, (unsigned long long)a.dropped, frm_fps(&a));
		freq_at(smp, nsmp, &pos, end, khz);
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &cpus))
				continue;
			if (khz[c])
				fprintf(f, ",%lu", khz[c]);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
	free(khz);
	/* Every write error (a full disk) surfaces here; "-" is flushed, not closed. */
	return lj_outfile_commit(&out);
}
