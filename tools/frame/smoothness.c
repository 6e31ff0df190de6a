// SPDX-License-Identifier: GPL-2.0-or-later
/* smoothness.c - Chromium's smoothness figures: dropped frames in a sliding window, throughput jank, missed vsyncs. */
#include "smoothness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000LL

const int frm_smooth_bucket_pct[FRM_SMOOTH_BUCKETS] = { 0, 3, 6, 12, 25, 50, 75 };

uint64_t frm_window_frames(const struct frm_clock *clk, int64_t window_ns)
{
	if (window_ns <= 0 || clk->num <= 0 || clk->den <= 0)
		return 0;
	return (uint64_t)((__int128)window_ns * clk->num / ((__int128)NS_PER_S * clk->den));
}

int frm_window_init(struct frm_window *w, uint64_t n)
{
	memset(w, 0, sizeof(*w));
	w->ring = calloc(n ? n : 1, 1);
	if (!w->ring)
		return -ENOMEM;
	w->n = n;
	return 0;
}

void frm_window_free(struct frm_window *w)
{
	free(w->ring);
	w->ring = NULL;
}

bool frm_window_push(struct frm_window *w, bool dropped)
{
	uint8_t *slot;

	if (!w->n)
		return false;
	slot = &w->ring[w->seen % w->n];
	/* The frame n back leaves as this one enters. */
	if (w->seen >= w->n)
		w->dropped -= *slot;
	*slot = dropped;
	w->dropped += dropped;
	w->seen++;
	return w->seen >= w->n;
}

int frm_smooth_init(struct frm_smooth *s, const struct frm_clock *clk, uint64_t window_frames,
		    uint64_t nframes)
{
	uint64_t n = window_frames && window_frames <= nframes ? window_frames : 0;

	memset(s, 0, sizeof(*s));
	s->clk = *clk;
	s->first = UINT64_MAX;
	s->last_shown = -1;
	if (frm_window_init(&s->win, n))
		return -ENOMEM;
	s->by_dropped = calloc(n + 1, sizeof(*s->by_dropped));
	if (!s->by_dropped) {
		frm_window_free(&s->win);
		return -ENOMEM;
	}
	return 0;
}

void frm_smooth_free(struct frm_smooth *s)
{
	frm_window_free(&s->win);
	free(s->by_dropped);
	s->by_dropped = NULL;
}

/* A full window ends with the frame of vsync @index. */
static void count_window(struct frm_smooth *s, uint64_t index)
{
	uint64_t d = s->win.dropped;

	s->by_dropped[d]++;
	if (!s->windows++ || d > s->max_dropped) {
		s->max_dropped = d;
		s->max_last = index;
	}
}

/* One new frame's gap, in scroll jank's windows of 64 new frames. */
static void count_scroll_gap(struct frm_smooth *s, uint64_t gap)
{
	uint64_t missed = gap - 1;

	s->sw_frames++;
	/* Chromium's rule: a gap longer than 1.5 vsyncs; gaps here are whole vsyncs. */
	s->sw_delayed += gap >= 2;
	s->sw_missed += missed;
	if (missed > s->sw_missed_max)
		s->sw_missed_max = missed;
	if (s->sw_frames < FRM_SCROLL_WINDOW)
		return;
	s->scroll_windows++;
	if (s->sw_delayed > s->delayed_max)
		s->delayed_max = s->sw_delayed;
	if (s->sw_missed > s->missed_sum_max)
		s->missed_sum_max = s->sw_missed;
	if (s->sw_missed_max > s->missed_max)
		s->missed_max = s->sw_missed_max;
	s->sw_frames = s->sw_delayed = s->sw_missed = s->sw_missed_max = 0;
}

/* A new frame on screen at vsync @shown: the gap since the last one, in vsyncs. */
static void count_shown(struct frm_smooth *s, int64_t shown)
{
	int64_t gap;

	if (s->last_shown >= 0 && shown > s->last_shown) {
		gap = shown - s->last_shown;
		/* Chromium tolerates half a vsync; whole-vsync gaps differ by one or more. */
		if (s->last_gap) {
			s->gaps_compared++;
			s->jank_now = gap > s->last_gap;
			s->janks += s->jank_now;
		}
		s->last_gap = gap;
		count_scroll_gap(s, (uint64_t)gap);
	}
	s->last_shown = shown;
}

void frm_smooth_fate(void *arg, uint64_t index, enum frm_fate fate, int stage, int64_t shown_ns)
{
	struct frm_smooth *s = arg;
	bool shown = frm_fate_displayed(fate);

	(void)stage;
	if (s->first == UINT64_MAX)
		s->first = index;
	s->frames++;
	s->jank_now = false;
	if (frm_window_push(&s->win, !shown))
		count_window(s, index);
	if (shown)
		count_shown(s, frm_vsync_at_or_after(&s->clk, shown_ns));
}

double frm_smooth_pct(const struct frm_smooth *s, uint64_t dropped)
{
	return s->win.n ? 100.0 * (double)dropped / (double)s->win.n : 0.0;
}

double frm_smooth_percentile(const struct frm_smooth *s, int p)
{
	uint64_t k, seen = 0;

	if (!s->windows || p <= 0 || p >= 100)
		return -1.0;
	/* ceil((100 - p) * windows / 100), exactly: the k-th largest window. */
	k = ((uint64_t)(100 - p) * s->windows + 99) / 100;
	for (uint64_t d = s->win.n + 1; d-- > 0;) {
		seen += s->by_dropped[d];
		if (seen >= k)
			return frm_smooth_pct(s, d);
	}
	return 0.0;
}

void frm_smooth_buckets(const struct frm_smooth *s, double share[FRM_SMOOTH_BUCKETS])
{
	uint64_t count[FRM_SMOOTH_BUCKETS] = { 0 };

	for (uint64_t d = 0; s->windows && d <= s->win.n; d++) {
		int b = FRM_SMOOTH_BUCKETS - 1;

		/* The bucket whose lower bound is the largest at or below d / n (in %), exactly. */
		while (b > 0 && 100 * d < (uint64_t)frm_smooth_bucket_pct[b] * s->win.n)
			b--;
		count[b] += s->by_dropped[d];
	}
	for (int b = 0; b < FRM_SMOOTH_BUCKETS; b++)
		share[b] = s->windows ? 100.0 * (double)count[b] / (double)s->windows : 0.0;
}

double frm_smooth_jank_pct(const struct frm_smooth *s)
{
	return s->frames ? 100.0 * (double)s->janks / (double)s->frames : 0.0;
}
