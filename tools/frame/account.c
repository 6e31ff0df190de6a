// SPDX-License-Identifier: GPL-2.0-or-later
/* account.c - lj-frame's accounting core and the zero-latency pipeline simulator. */
#include "account.h"

#include <string.h>

void frm_account_init(struct frm_account *a, int64_t period_ns, int latency_frames)
{
	memset(a, 0, sizeof(*a));
	a->period_ns = period_ns;
	a->deadline_ns = period_ns * latency_frames;
	a->smooth_ns = period_ns + FRM_SMOOTH_SLACK_NS;
	a->last_on_time = FRM_NOT_PRESENTED;
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
	/* Smoothness is judged between frames the display actually showed. */
	if (a->last_on_time != FRM_NOT_PRESENTED) {
		a->intervals++;
		if (present_ns - a->last_on_time <= a->smooth_ns)
			a->smooth++;
	}
	a->last_on_time = present_ns;
	return true;
}

void frm_account_sum(struct frm_account *a, const struct frm_account *b)
{
	a->frames += b->frames;
	a->dropped += b->dropped;
	a->presented += b->presented;
	a->late += b->late;
	a->intervals += b->intervals;
	a->smooth += b->smooth;
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
