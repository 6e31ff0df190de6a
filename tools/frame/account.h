/* SPDX-License-Identifier: GPL-2.0-or-later */
/* account.h - lj-frame's accounting core: on time, dropped, streaks, smoothness. */
#ifndef FRM_ACCOUNT_H
#define FRM_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Pure functions over a schedule of (vsync, present time): no clock, no
 * threads, so the unit tests inject exact overruns. docs/lj-frame.md
 * states each rule in words; keep the two in step.
 */

/* Pipeline depth limit (stage threads). */
#define FRM_MAX_STAGES 16

/* A frame that never reached the display (skipped or abandoned). */
#define FRM_NOT_PRESENTED INT64_MIN

/* The smoothness tolerance: an interval of one period plus this is smooth. */
#define FRM_SMOOTH_SLACK_NS 1000000LL

struct frm_account {
	int64_t period_ns;
	int64_t deadline_ns;		/* latency_frames * period */
	int64_t smooth_ns;		/* period + FRM_SMOOTH_SLACK_NS */
	uint64_t frames;		/* vsyncs accounted */
	uint64_t dropped;		/* not presented by the deadline */
	uint64_t presented;		/* presented at all, on time or late */
	uint64_t late;			/* presented after the deadline (dropped) */
	uint64_t intervals;		/* between consecutive on-time frames */
	uint64_t smooth;		/* of those, <= smooth_ns */
	uint64_t streak;		/* current run of consecutive drops */
	uint64_t longest_streak;
	int64_t last_on_time;		/* present time of the last on-time frame */
};

void frm_account_init(struct frm_account *a, int64_t period_ns, int latency_frames);

/*
 * Account the frame of vsync @vsync_ns, presented at @present_ns (or
 * FRM_NOT_PRESENTED). Frames are added in vsync order. Returns true when
 * the frame was on time: present_ns - vsync_ns <= deadline_ns.
 */
bool frm_account_add(struct frm_account *a, int64_t vsync_ns, int64_t present_ns);

/* Add @b's counts to @a (for totals over ramp trials); streaks keep the max. */
void frm_account_sum(struct frm_account *a, const struct frm_account *b);

double frm_drop_rate(const struct frm_account *a);	/* dropped / frames, 0 when empty */
double frm_fps(const struct frm_account *a);		/* on-time frames per second of vsync time */
double frm_percentage_smooth(const struct frm_account *a);	/* 0..100 */

/*
 * The pipeline model shared by the real stage threads and the simulator:
 * stage 0 starts frame i at max(vsync_i, when it finished the previous
 * frame) and skips the frame if that is already at or past its deadline;
 * stage s > 0 starts it at max(hand-off, when it is free) and abandons it
 * if that is at or past the deadline. The last stage's finish is the
 * present time.
 *
 * frm_simulate runs that model with zero wake-up latency: @work_ns gives
 * the duration of stage @stage's work on frame @frame. Writes
 * present[0..nframes) relative to vsync 0 at time 0.
 */
typedef int64_t (*frm_work_fn)(void *arg, uint64_t frame, int stage);

void frm_simulate(int nstages, int64_t period_ns, int latency_frames, uint64_t nframes,
		  frm_work_fn work_ns, void *arg, int64_t *present);

#endif
