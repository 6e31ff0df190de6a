/* SPDX-License-Identifier: GPL-2.0-or-later */
/* account.h - lj-frame's accounting core: what the display showed, jank classes, smoothness. */
#ifndef FRM_ACCOUNT_H
#define FRM_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

struct lj_hist;

/*
 * Pure functions over a schedule of frames (vsync index, present time,
 * how the pipeline treated it): no clock, no threads, so the unit tests
 * inject exact schedules. docs/lj-frame.md states each rule in words;
 * keep the two in step.
 */

/* Pipeline depth limit (stage threads). */
#define FRM_MAX_STAGES 16

/* A frame that never reached the display (skipped or abandoned). */
#define FRM_NOT_PRESENTED INT64_MIN

/* The steadiness tolerance: presents one period +- this apart are steady. */
#define FRM_STEADY_SLACK_NS 1000000LL

/*
 * The refresh rate as the fraction num/den Hz (59.94 Hz is 5994/100), so
 * vsync i is at round(i * 1e9 * den / num) ns after vsync 0: each vsync
 * is rounded once, never a rounded period summed (60 Hz: 16666666.67 ns).
 */
struct frm_clock {
	int64_t num;
	int64_t den;
};

/* Parse a rate ("60", "59.94", "143.856"): 0, or -EINVAL. Up to 9 decimals. */
int frm_clock_parse(const char *s, struct frm_clock *c);
void frm_clock_hz(struct frm_clock *c, int64_t hz);
double frm_clock_rate(const struct frm_clock *c);
/* Vsync @i's time relative to vsync 0 (ns, rounded half up). */
int64_t frm_vsync_ns(const struct frm_clock *c, int64_t i);
/* The first vsync index k with frm_vsync_ns(k) >= t. */
int64_t frm_vsync_at_or_after(const struct frm_clock *c, int64_t t);

/* Which frames the display shows. */
enum frm_model {
	FRM_MODEL_DISPLAY,	/* a late frame is shown at the next vsync (compositors) */
	FRM_MODEL_STRICT,	/* a frame presented after its deadline is dropped */
};

const char *frm_model_name(enum frm_model m);

/* What the pipeline recorded for one frame; times relative to vsync 0. */
struct frm_frame {
	int64_t present;	/* last stage's finish, or FRM_NOT_PRESENTED */
	int64_t waited_ns;	/* time queued behind earlier frames at busy stages */
	int8_t late_stage;	/* first stage that finished past the deadline, -1: none */
	int8_t gone_stage;	/* the stage that skipped or abandoned it, -1: none */
	bool skipped;		/* stage 0 skipped it before starting */
};

void frm_frame_clear(struct frm_frame *f);

/*
 * The fate of a frame, after Android FrameTimeline's classes: displayed
 * on time; displayed late because a stage's work missed the deadline
 * ("deadline missed by stage N"); displayed late only because it queued
 * behind an earlier frame (buffer stuffing: latency jank, the rate holds);
 * or dropped (never displayed): skipped, abandoned, replaced at its vsync
 * by a newer frame, or (strict model) presented late.
 */
enum frm_fate {
	FRM_FATE_ON_TIME,
	FRM_FATE_MISSED,
	FRM_FATE_STUFFED,
	FRM_FATE_SKIPPED,
	FRM_FATE_ABANDONED,
	FRM_FATE_REPLACED,
	FRM_FATE_LATE,
	FRM_NFATES
};

const char *frm_fate_name(enum frm_fate f);
bool frm_fate_displayed(enum frm_fate f);

/* Told each frame's fate in vsync order; @shown_ns is its display vsync's time, or 0. */
typedef void (*frm_fate_fn)(void *arg, uint64_t index, enum frm_fate fate, int stage,
			    int64_t shown_ns);

struct frm_account {
	struct frm_clock clk;
	int latency_frames;
	enum frm_model model;
	uint64_t frames;		/* vsyncs accounted */
	uint64_t presented;		/* the last stage finished it at all */
	uint64_t displayed;		/* new frames the display showed */
	uint64_t dropped;		/* never displayed */
	uint64_t janky;			/* displayed late: missed + stuffed */
	uint64_t fate[FRM_NFATES];
	uint64_t missed_by_stage[FRM_MAX_STAGES];
	uint64_t intervals;		/* frame_times: between consecutive display vsyncs */
	uint64_t smooth;		/* of those, shorter than 1.02 periods (17 ms at 60 Hz) */
	int64_t interval_sum_ns;
	int64_t longest_freeze_ns;	/* the longest display interval */
	int64_t freeze_ns;		/* display time past one period, summed */
	int64_t latency_sum_ns;		/* vsync to display, of displayed frames */
	int64_t latency_max_ns;
	uint64_t present_intervals;	/* between presents of consecutive kept frames */
	uint64_t steady;		/* of those, within period +- FRM_STEADY_SLACK_NS */
	uint64_t streak, longest_streak;	/* consecutive dropped frames */
	int64_t last_shown;		/* display vsync index of the last new frame, -1 */
	int64_t last_kept_present;
	/* Optional sinks, NULL after init. */
	struct lj_hist *frame_times;	/* each display interval */
	struct lj_hist *latency;	/* each displayed frame's vsync to display */
	struct lj_hist *jitter;		/* each present interval's |interval - period| */
	int64_t *shown;			/* display times, for the discrepancy */
	uint64_t nshown, shown_cap;
};

void frm_account_init(struct frm_account *a, const struct frm_clock *clk, int latency_frames,
		      enum frm_model model);

/*
 * Account frames @first..@end-1 of @f (f[i] is the frame of vsync i).
 * Whether a frame is replaced depends on the next one shown, so the
 * whole range is given at once. @cb (may be NULL) hears every fate.
 */
void frm_account_frames(struct frm_account *a, const struct frm_frame *f, uint64_t first,
			uint64_t end, frm_fate_fn cb, void *arg);

/* Add @b's counts to @a (for totals over ramp trials); maxima stay maxima. */
void frm_account_sum(struct frm_account *a, const struct frm_account *b);

double frm_drop_rate(const struct frm_account *a);		/* dropped / frames */
double frm_fps(const struct frm_account *a);			/* new frames displayed per second */
double frm_percentage_smooth(const struct frm_account *a);	/* 0..100 of frame_times */
double frm_percentage_steady(const struct frm_account *a);	/* 0..100 of present intervals */
double frm_mean_frame_time(const struct frm_account *a);	/* ns, 0 without intervals */
double frm_mean_latency(const struct frm_account *a);		/* ns, 0 when nothing shown */

/*
 * Browser telemetry's absolute discrepancy of the timestamps @t[0..n)
 * (sorted, ns): the largest gap between the share of timestamps and the
 * share of time over any interval, scaled back to ns. Regular timestamps
 * give one interval; one pause of length d among them gives about d.
 */
double frm_discrepancy_ns(const int64_t *t, uint64_t n);

/*
 * The pipeline model shared by the real stage threads and the simulator:
 * stage 0 starts frame i at max(vsync i, when it finished the previous
 * frame) and skips the frame if that is already at or past its deadline
 * (vsync i + L); stage s > 0 starts it at max(hand-off, when it is free)
 * and abandons it if that is at or past the deadline and, in the display
 * model, a newer frame is already waiting for the stage (the newest frame
 * wins; a late frame alone is still finished, to be shown late). The last
 * stage's finish is the present time.
 *
 * frm_simulate runs that model with zero wake-up latency: @work_ns gives
 * the duration of stage @stage's work on frame @frame. Writes
 * f[0..nframes) with times relative to vsync 0 at time 0; @arrive is
 * scratch space of @nframes.
 */
typedef int64_t (*frm_work_fn)(void *arg, uint64_t frame, int stage);

void frm_simulate(int nstages, const struct frm_clock *clk, int latency_frames, enum frm_model model,
		  uint64_t nframes, frm_work_fn work_ns, void *arg, struct frm_frame *f, int64_t *arrive);

#endif
