// SPDX-License-Identifier: GPL-2.0-or-later
/* account.c - lj-frame's accounting core and the zero-latency pipeline simulator. */
#include "account.h"

#include <string.h>

#include "lj_hist.h"

void frm_account_init(struct frm_account *a, int64_t period_ns, int latency_frames)
{
	memset(a, 0, sizeof(*a));
	a->period_ns = period_ns;
	a->deadline_ns = period_ns * latency_frames;
	a->smooth_ns = period_ns + FRM_SMOOTH_SLACK_NS;
	a->last_on_time = FRM_NOT_PRESENTED;
	a->last_display = FRM_NOT_PRESENTED;
}

int64_t frm_display_vsync(const struct frm_account *a, int64_t vsync_ns, int64_t present_ns)
{
	int64_t after = present_ns - vsync_ns, k;

	if (a->period_ns <= 0)
		return present_ns;
	k = after > 0 ? (after + a->period_ns - 1) / a->period_ns : 1;
	/* Vsync i is already being scanned out when frame i starts: never before i + 1. */
	if (k < 1)
		k = 1;
	return vsync_ns + k * a->period_ns;
}

/* What the display showed: a new frame at vsync @shown, or a replaced one. */
static void account_display(struct frm_account *a, int64_t shown)
{
	if (a->last_display != FRM_NOT_PRESENTED && shown <= a->last_display) {
		/*
		 * Two frames for one vsync: the compositor latches the one
		 * completed last and the other is never seen. The display
		 * intervals do not change. (The pipeline presents in frame
		 * order, so a frame never lands before the last one shown.)
		 */
		a->replaced++;
		return;
	}
	a->displayed++;
	if (a->last_display != FRM_NOT_PRESENTED) {
		a->intervals++;
		if (shown - a->last_display <= a->smooth_ns)
			a->smooth++;
	}
	a->last_display = shown;
}

/* When the pipeline delivered: the present interval's distance from a period. */
static void account_present(struct frm_account *a, int64_t present_ns)
{
	if (a->last_on_time != FRM_NOT_PRESENTED) {
		int64_t off = present_ns - a->last_on_time - a->period_ns;

		if (off < 0)
			off = -off;
		a->present_intervals++;
		if (off <= FRM_STEADY_SLACK_NS)
			a->steady++;
		if (a->jitter)
			lj_hist_add(a->jitter, off);
	}
	a->last_on_time = present_ns;
}

bool frm_account_add(struct frm_account *a, int64_t vsync_ns, int64_t present_ns)
{
	bool on_time = false;

	a->frames++;
	if (present_ns != FRM_NOT_PRESENTED) {
		a->presented++;
		on_time = present_ns - vsync_ns <= a->deadline_ns;
		if (!on_time)
			a->late++;
	}
	if (!on_time) {
		a->dropped++;
		if (++a->streak > a->longest_streak)
			a->longest_streak = a->streak;
		return false;
	}
	a->streak = 0;
	account_display(a, frm_display_vsync(a, vsync_ns, present_ns));
	account_present(a, present_ns);
	return true;
}

void frm_account_sum(struct frm_account *a, const struct frm_account *b)
{
	a->frames += b->frames;
	a->dropped += b->dropped;
	a->presented += b->presented;
	a->late += b->late;
	a->displayed += b->displayed;
	a->replaced += b->replaced;
	a->intervals += b->intervals;
	a->smooth += b->smooth;
	a->present_intervals += b->present_intervals;
	a->steady += b->steady;
	if (b->longest_streak > a->longest_streak)
		a->longest_streak = b->longest_streak;
}

double frm_drop_rate(const struct frm_account *a)
{
	return a->frames ? (double)a->dropped / (double)a->frames : 0.0;
}

double frm_fps(const struct frm_account *a)
{
	if (!a->frames || a->period_ns <= 0)
		return 0.0;
	return (double)(a->frames - a->dropped) * 1e9 /
	       ((double)a->frames * (double)a->period_ns);
}

double frm_percentage_smooth(const struct frm_account *a)
{
	return a->intervals ? 100.0 * (double)a->smooth / (double)a->intervals : 0.0;
}

double frm_percentage_steady(const struct frm_account *a)
{
	return a->present_intervals ?
	       100.0 * (double)a->steady / (double)a->present_intervals : 0.0;
}

void frm_simulate(int nstages, int64_t period_ns, int latency_frames, uint64_t nframes,
		  frm_work_fn work_ns, void *arg, int64_t *present)
{
	int64_t free_at[FRM_MAX_STAGES];
	int64_t deadline = period_ns * latency_frames;

	if (nstages > FRM_MAX_STAGES)
		nstages = FRM_MAX_STAGES;
	for (int s = 0; s < nstages; s++)
		free_at[s] = 0;
	for (uint64_t i = 0; i < nframes; i++) {
		int64_t vsync = (int64_t)i * period_ns;
		int64_t ready = vsync;		/* when the frame reaches the stage */

		present[i] = FRM_NOT_PRESENTED;
		for (int s = 0; s < nstages; s++) {
			int64_t start = ready > free_at[s] ? ready : free_at[s];

			if (start >= vsync + deadline)
				break;		/* skipped (s == 0) or abandoned */
			free_at[s] = start + work_ns(arg, i, s);
			ready = free_at[s];
			if (s == nstages - 1)
				present[i] = ready;
		}
	}
}
