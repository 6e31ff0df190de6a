/* SPDX-License-Identifier: GPL-2.0-or-later */
/* account.h - lj-frame's accounting core: on time, dropped, streaks, smoothness. */
#ifndef FRM_ACCOUNT_H
#define FRM_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

struct lj_hist;

/*
 * Pure functions over a schedule of (vsync, present time): no clock, no
 * threads, so the unit tests inject exact overruns. docs/lj-frame.md
 * states each rule in words; keep the two in step.
 */

/* Pipeline depth limit (stage threads). */
#define FRM_MAX_STAGES 16

/* A frame that never reached the display (skipped or abandoned). */
#define FRM_NOT_PRESENTED INT64_MIN

/* The smoothness tolerance: a display interval of one period plus this is smooth. */
#define FRM_SMOOTH_SLACK_NS 1000000LL

/* The steadiness tolerance: presents one period +- this apart are steady. */
#define FRM_STEADY_SLACK_NS 1000000LL

/*
 * Two views of the frames that made their deadline:
 *
 * - What the display showed (percentage_smooth, as browser telemetry
 *   counts it). An on-time frame is shown at the first vsync at or after
 *   its present time, and never before the vsync after its own (vsync i is
 *   being scanned out while frame i is made). The compositor latches the
 *   newest frame at each vsync: when two frames land on the same vsync the
 *   later-completed one is shown and the other is 'replaced'. Display
 *   intervals are between consecutive vsyncs that showed a new frame, so
 *   they are whole periods: completion jitter inside a period is invisible.
 * - When the pipeline delivered (percentage_steady, present jitter): the
 *   intervals between the present times of consecutive on-time frames.
 */
struct frm_account {
	int64_t period_ns;
	int64_t deadline_ns;		/* latency_frames * period */
	int64_t smooth_ns;		/* period + FRM_SMOOTH_SLACK_NS */
	uint64_t frames;		/* vsyncs accounted */
	uint64_t dropped;		/* not presented by the deadline */
	uint64_t presented;		/* presented at all, on time or late */
	uint64_t late;			/* presented after the deadline (dropped) */
	uint64_t displayed;		/* on-time frames a vsync showed */
	uint64_t replaced;		/* on-time frames a later one replaced at their vsync */
	uint64_t intervals;		/* between consecutive display vsyncs */
	uint64_t smooth;		/* of those, <= smooth_ns */
	uint64_t present_intervals;	/* between presents of consecutive on-time frames */
	uint64_t steady;		/* of those, within period +- FRM_STEADY_SLACK_NS */
	uint64_t streak;		/* current run of consecutive drops */
	uint64_t longest_streak;
	int64_t last_on_time;		/* present time of the last on-time frame */
	int64_t last_display;		/* the last vsync that showed a new frame */
	/*
	 * Optional, NULL after init: when the caller sets it, each present
	 * interval's |interval - period| is added (present jitter).
	 */
	struct lj_hist *jitter;
};

void frm_account_init(struct frm_account *a, int64_t period_ns, int latency_frames);

/*
 * Account the frame of vsync @vsync_ns, presented at @present_ns (or
 * FRM_NOT_PRESENTED). Frames are added in vsync order, and vsyncs are
 * period_ns apart. Returns true when the frame was on time:
 * present_ns - vsync_ns <= deadline_ns.
 */
bool frm_account_add(struct frm_account *a, int64_t vsync_ns, int64_t present_ns);

/*
 * The vsync that shows an on-time frame of vsync @vsync_ns presented at
 * @present_ns: the first vsync at or after the present, at least
 * vsync_ns + period_ns.
 */
int64_t frm_display_vsync(const struct frm_account *a, int64_t vsync_ns, int64_t present_ns);

/* Add @b's counts to @a (for totals over ramp trials); streaks keep the max. */
void frm_account_sum(struct frm_account *a, const struct frm_account *b);

double frm_drop_rate(const struct frm_account *a);	/* dropped / frames, 0 when empty */
double frm_fps(const struct frm_account *a);		/* on-time frames per second of vsync time */
double frm_percentage_smooth(const struct frm_account *a);	/* 0..100, display intervals */
double frm_percentage_steady(const struct frm_account *a);	/* 0..100, present intervals */

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
