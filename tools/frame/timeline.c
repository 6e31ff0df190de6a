// SPDX-License-Identifier: GPL-2.0-or-later
/* timeline.c - lj-frame's --timeline CSV: sweep phase, fps, drops and CPU frequency per interval. */
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_cpufreq.h"
#include "lj_outfile.h"
#include "lj_phases.h"
#include "lj_time.h"

/* Counts of one timeline interval, by the vsync of each frame. */
struct bin {
	uint64_t frames, displayed, dropped, janky;
	uint64_t janks;			/* throughput janks (smoothness.h) */
	bool window;			/* a full sliding window ends in the interval */
	uint64_t window_dropped;	/* ...its dropped frames, at the interval's last frame */
};

struct binner {
	const struct frm_trial *tr;
	struct bin *bins;
	uint64_t nbins;
	int64_t interval_ns;
	struct frm_smooth smooth;	/* the sliding window and the janks, frame by frame */
};

static uint64_t bin_of(const struct frm_trial *tr, uint64_t i, int64_t interval_ns)
{
	return (uint64_t)((frm_vsync_ns(&tr->cfg->clock, (int64_t)i) -
			   frm_vsync_ns(&tr->cfg->clock, (int64_t)tr->warmup)) / interval_ns);
}

static void bin_fate(void *arg, uint64_t index, enum frm_fate fate, int stage, int64_t shown_ns)
{
	struct binner *b = arg;
	uint64_t k = bin_of(b->tr, index, b->interval_ns);
	struct bin *x;

	frm_smooth_fate(&b->smooth, index, fate, stage, shown_ns);
	if (k >= b->nbins)
		return;
	x = &b->bins[k];
	x->janks += b->smooth.jank_now;
	if (b->smooth.win.n && b->smooth.win.seen >= b->smooth.win.n) {
		x->window = true;
		x->window_dropped = b->smooth.win.dropped;
	}
	x->frames++;
	if (frm_fate_displayed(fate))
		x->displayed++;
	else
		x->dropped++;
	x->janky += fate == FRM_FATE_MISSED || fate == FRM_FATE_STUFFED;
}

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

/* The sweep phases (lj_phases), their labels made fit for a CSV cell: no commas or quotes. */
static size_t phases_load(struct lj_phase *ph, size_t max)
{
	size_t n = lj_phases_load(getenv("LJ_SWEEP_PHASES"), ph, max);

	for (size_t k = 0; k < n; k++)
		for (char *c = ph[k].label; *c; c++)
			if (*c == ',' || *c == '"')
				*c = ';';
	return n;
}

static void write_rows(FILE *f, const struct frm_trial *tr, const struct binner *b,
		       const struct lj_cpufreq_sample *smp, size_t nsmp, const cpu_set_t *cpus,
		       const struct lj_phase *ph, size_t nph)
{
	int64_t base = frm_trial_vsync(tr, tr->warmup);
	double rate = frm_clock_rate(&tr->cfg->clock);
	unsigned long *khz = calloc(CPU_SETSIZE, sizeof(*khz));
	size_t pos = 0;

	for (uint64_t k = 0; khz && k < b->nbins; k++) {
		const struct bin *x = &b->bins[k];
		int64_t start = base + (int64_t)k * b->interval_ns, end = start + b->interval_ns;

		fprintf(f, "%.3f,%s,%llu,%llu,%llu,%llu,%.2f", (double)k * (double)b->interval_ns / 1e9,
			lj_phase_at(ph, nph, start), (unsigned long long)x->frames,
			(unsigned long long)x->displayed, (unsigned long long)x->dropped,
			(unsigned long long)x->janky,
			x->frames ? (double)x->displayed * rate / (double)x->frames : 0.0);
		freq_at(smp, nsmp, &pos, end, khz);
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, cpus))
				continue;
			if (khz[c])
				fprintf(f, ",%lu", khz[c]);
			else
				fputc(',', f);
		}
		/* Added columns go last: the frequency columns keep their places. */
		if (x->window)
			fprintf(f, ",%.2f", frm_smooth_pct(&b->smooth, x->window_dropped));
		else
			fputc(',', f);
		fprintf(f, ",%llu\n", (unsigned long long)x->janks);
	}
	free(khz);
}

int frm_timeline_write(const char *path, const struct frm_trial *tr, int64_t interval_ns,
		       const struct lj_cpufreq_sample *smp, size_t nsmp)
{
	struct binner b = { .tr = tr, .interval_ns = interval_ns };
	struct lj_phase *ph = calloc(LJ_PHASES_MAX, sizeof(*ph));
	size_t nph = ph ? phases_load(ph, LJ_PHASES_MAX) : 0;
	struct lj_outfile out;
	struct frm_account a;
	cpu_set_t cpus;
	FILE *f;
	int ret;

	/* From the first measured vsync to the interval holding the last. */
	b.nbins = tr->nrun > tr->warmup ? bin_of(tr, tr->nrun - 1, interval_ns) + 1 : 0;
	b.bins = calloc(b.nbins ? b.nbins : 1, sizeof(*b.bins));
	if (!b.bins || !ph || frm_trial_smooth_init(tr, &b.smooth)) {
		free(b.bins);
		free(ph);
		return -ENOMEM;
	}
	frm_account_init(&a, &tr->cfg->clock, tr->cfg->latency_frames, tr->cfg->model);
	frm_account_frames(&a, tr->frames, tr->warmup, tr->nrun, bin_fate, &b);
	ret = lj_outfile_open(&out, path, NULL, 0);
	f = ret ? NULL : lj_outfile_stdio(&out);
	if (!ret && !f) {
		lj_outfile_abort(&out);
		ret = -ENOMEM;
	}
	if (ret) {
		frm_smooth_free(&b.smooth);
		free(b.bins);
		free(ph);
		return ret;
	}
	CPU_ZERO(&cpus);
	for (size_t k = 0; k < nsmp; k++)
		if (smp[k].cpu >= 0 && smp[k].cpu < CPU_SETSIZE)
			CPU_SET(smp[k].cpu, &cpus);
	fprintf(f, "t_s,phase,frames,displayed,dropped,janky,fps");
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cpus))
			fprintf(f, ",cpu%d_khz", c);
	fprintf(f, ",window_dropped_pct,throughput_janks\n");
	write_rows(f, tr, &b, smp, nsmp, &cpus, ph, nph);
	frm_smooth_free(&b.smooth);
	free(b.bins);
	free(ph);
	/* Every write error (a full disk) surfaces here; "-" is flushed, not closed. */
	return lj_outfile_commit(&out);
}
