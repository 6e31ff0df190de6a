// SPDX-License-Identifier: GPL-2.0-or-later
/* ramp.c - lj-frame's ramp: coarse doubling, then repeated bisections of the edge. */
#include "frame.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_stats.h"
#include "lj_stop.h"

/* The ramp never goes past this many frame budgets of work: it must end. */
#define RAMP_CEILING_BUDGETS 64

/* Split @work units over the stages in the proportions of @base, summing exactly to @work. */
static void split(const struct frm_config *cfg, const uint64_t *base, uint64_t work, uint64_t *units)
{
	double total = 0, cum = 0;
	uint64_t prev = 0;

	for (int s = 0; s < cfg->nstages; s++)
		total += (double)base[s];
	for (int s = 0; s < cfg->nstages; s++) {
		uint64_t upto;

		cum += total > 0 ? (double)base[s] / total : 1.0 / cfg->nstages;
		upto = s == cfg->nstages - 1 ? work : (uint64_t)floor((double)work * cum);
		units[s] = upto - prev;
		prev = upto;
	}
}

static int add_point(struct frm_ramp *r, const struct frm_ramp_point *p)
{
	if (r->npts == r->cap) {
		int cap = r->cap ? 2 * r->cap : 32;
		struct frm_ramp_point *n = realloc(r->pts, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		r->pts = n;
		r->cap = cap;
	}
	r->pts[r->npts++] = *p;
	return 0;
}

/* One trial at @work units per frame; *pass when its drop rate is within the limit. */
static int trial(struct frm_ramp *r, const struct frm_config *cfg, const uint64_t *base,
		 uint64_t work, int repeat, bool *pass)
{
	struct frm_ramp_point p = { .work = work, .repeat = repeat };
	uint64_t units[FRM_MAX_STAGES];
	struct frm_trial tr = { .told = r->told };	/* late frames: none (docs/lj-frame.md, Hooks) */
	int ret;

	split(cfg, base, work, units);
	ret = frm_trial_run(&tr, cfg, units);
	if (!ret && lj_stop_requested())
		ret = -EINTR;
	if (!ret) {
		p.frames = tr.acct.frames;
		p.dropped = tr.acct.dropped;
		p.fps = frm_fps(&tr.acct);
		p.drop_rate = frm_drop_rate(&tr.acct);
		p.smooth = frm_percentage_smooth(&tr.acct);
		p.production_p99_ns = lj_hist_count(tr.production) ? lj_hist_quantile(tr.production, 0.99) : 0;
		p.pass = p.drop_rate <= cfg->max_drop_rate;
		*pass = p.pass;
		frm_account_sum(&r->total, &tr.acct);
		/* Between trials, on request only: nothing is printed while frames run. */
		lj_info("ramp %s: work %llu units: fps %.2f drop rate %.4f %s",
			repeat < 0 ? "coarse" : "bisect", (unsigned long long)work, p.fps,
			p.drop_rate, p.pass ? "pass" : "fail");
		r->elapsed_ns += tr.wall_ns;
		ret = add_point(r, &p);
	}
	frm_trial_free(&tr);
	return ret;
}

int frm_ramp_run(struct frm_ramp *r, const struct frm_config *cfg,
		 const struct frm_calibration *cal, const uint64_t *base_units,
		 const struct frm_told *told)
{
	double budget = (double)cfg->period_ns * cfg->latency_frames / cal->ns_per_unit;
	uint64_t ceiling = (uint64_t)(budget * RAMP_CEILING_BUDGETS) + 1;
	uint64_t lo = 0, hi = 0, work = (uint64_t)(budget / 16);
	struct lj_stats_summary sum;
	bool pass, up;
	int ret;

	memset(r, 0, sizeof(*r));
	r->told = told;
	frm_account_init(&r->total, &cfg->clock, cfg->latency_frames, cfg->model);
	if (work < 1)
		work = 1;
	/* Coarse: double while the rate holds; halve if even the start fails. */
	ret = trial(r, cfg, base_units, work, -1, &pass);
	if (ret)
		return ret;
	up = pass;
	for (;;) {
		if (pass)
			lo = work;
		else
			hi = work;
		if (lo && hi)
			break;
		if (up && work >= ceiling) {
			r->never_failed = true;
			r->max_work = (double)lo;
			return 0;
		}
		if (!up && work <= 1) {
			r->never_passed = true;
			return 0;
		}
		work = up ? work * 2 : work / 2;
		ret = trial(r, cfg, base_units, work, -1, &pass);
		if (ret)
			return ret;
	}
	/* Each bisection starts from the coarse bracket: their spread is the edge's noise. */
	for (int rep = 0; rep < cfg->ramp_repeat && rep < (int)(sizeof(r->estimates) / sizeof(r->estimates[0])); rep++) {
		uint64_t a = lo, b = hi;

		while (b - a > 1 && (double)(b - a) > (double)a * cfg->ramp_precision) {
			uint64_t mid = a + (b - a) / 2;

			ret = trial(r, cfg, base_units, mid, rep, &pass);
			if (ret)
				return ret;
			if (pass)
				a = mid;
			else
				b = mid;
		}
		r->estimates[r->nest++] = (double)a;
	}
	lj_stats_summarise(r->estimates, r->nest, &sum);
	r->max_work = sum.median;
	r->spread_min = sum.min;
	r->spread_max = sum.max;
	r->spread_stddev = sum.stddev;
	return 0;
}

void frm_ramp_free(struct frm_ramp *r)
{
	free(r->pts);
	memset(r, 0, sizeof(*r));
}
