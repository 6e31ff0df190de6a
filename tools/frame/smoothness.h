/* SPDX-License-Identifier: GPL-2.0-or-later */
/* smoothness.h - Chromium's smoothness figures over a run's frames: dropped frames in a sliding window, throughput jank, missed vsyncs per 64 frames. */
#ifndef FRM_SMOOTHNESS_H
#define FRM_SMOOTHNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"

/*
 * Pure functions fed with each frame's fate in vsync order (they are a
 * frm_fate_fn), as the accounting core decides it: no clock, no threads.
 * docs/lj-frame.md ("Dropped frames in a sliding window") states each
 * rule, its source in Chromium and where ljkit departs from it; keep the
 * two in step.
 */

/* The smoothness buckets' lower bounds, in % dropped (Chromium's DroppedFrameCounter). */
#define FRM_SMOOTH_BUCKETS 7
extern const int frm_smooth_bucket_pct[FRM_SMOOTH_BUCKETS];

/* Frames per scroll-jank window: its missed vsyncs are summed per 64 new frames. */
#define FRM_SCROLL_WINDOW 64

/* The longest --drop-window: long windows only blur what a sliding window is for. */
#define FRM_MAX_DROP_WINDOW_NS (60LL * 1000000000LL)

/* Vsyncs in a window of @window_ns: floor(window * rate), as Chromium divides; 0 if shorter than a period. */
uint64_t frm_window_frames(const struct frm_clock *clk, int64_t window_ns);

/* The last @n frames, sliding by one frame. */
struct frm_window {
	uint64_t n;
	uint8_t *ring;			/* dropped (1) or not, of the last n frames */
	uint64_t seen;			/* frames pushed */
	uint64_t dropped;		/* dropped among the last min(seen, n) */
};

/* 0 or -ENOMEM (@n >= 1). */
int frm_window_init(struct frm_window *w, uint64_t n);
void frm_window_free(struct frm_window *w);
/* The next frame: true once the window holds n frames (w->dropped is then its count). */
bool frm_window_push(struct frm_window *w, bool dropped);

struct frm_smooth {
	struct frm_clock clk;
	uint64_t first;			/* vsync index of the first frame fed, UINT64_MAX before */
	uint64_t frames;		/* frames fed */
	/* DroppedFrameCounter: one window per frame that ends a full window. */
	struct frm_window win;		/* n = 0: the run is shorter than the window, no windows */
	uint32_t *by_dropped;		/* windows by their dropped count, 0..n */
	uint64_t windows;
	uint64_t max_dropped;		/* the most dropped frames in one window */
	uint64_t max_last;		/* vsync index of the last frame of the first such window */
	/* Throughput jank: a new frame whose gap to the last is longer than the one before. */
	int64_t last_shown;		/* display vsync index of the last new frame, -1 */
	int64_t last_gap;		/* vsyncs between the last two new frames, 0 before */
	uint64_t gaps_compared;		/* gaps that had a gap before them */
	uint64_t janks;
	bool jank_now;			/* the frame just fed was a jank */
	/* Scroll jank's fixed windows of 64 new frames (each new frame's gap, the first excluded). */
	uint64_t sw_frames, sw_delayed, sw_missed, sw_missed_max;	/* the window being filled */
	uint64_t scroll_windows;
	uint64_t delayed_max;		/* the most delayed frames (gap of 2+ vsyncs) in one window */
	uint64_t missed_sum_max;	/* the largest sum of missed vsyncs in one window */
	uint64_t missed_max;		/* the most vsyncs one frame missed, in a full window */
};

/*
 * @window_frames: frm_window_frames() of the window asked; @nframes: the
 * frames the run will feed (no window when fewer than @window_frames).
 * Return 0 or -ENOMEM.
 */
int frm_smooth_init(struct frm_smooth *s, const struct frm_clock *clk, uint64_t window_frames,
		    uint64_t nframes);
void frm_smooth_free(struct frm_smooth *s);
/* A frm_fate_fn: @arg is the struct frm_smooth. */
void frm_smooth_fate(void *arg, uint64_t index, enum frm_fate fate, int stage, int64_t shown_ns);

/* The % dropped of a window with @dropped frames dropped. */
double frm_smooth_pct(const struct frm_smooth *s, uint64_t dropped);
/*
 * The % dropped at percentile @p (0 < p < 100) of the windows, by
 * Chromium's rule counted from the top: the k-th largest window with
 * k = ceil((100 - p) * windows / 100). -1 without windows.
 */
double frm_smooth_percentile(const struct frm_smooth *s, int p);
/* The share (%) of windows in each bucket; all 0 without windows. */
void frm_smooth_buckets(const struct frm_smooth *s, double share[FRM_SMOOTH_BUCKETS]);
/* Throughput janks in % of the frames fed. */
double frm_smooth_jank_pct(const struct frm_smooth *s);

#endif
