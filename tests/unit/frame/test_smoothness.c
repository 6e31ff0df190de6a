// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_smoothness - Chromium's smoothness figures (tools/frame/smoothness.c) on
 * injected schedules whose answers are worked out by hand in the comments.
 */
#include "../../../tools/frame/smoothness.h"
#include "../tap.h"

#define MS 1000000LL
#define RUN 600			/* 10 s at 60 Hz */

static struct frm_clock hz60 = { 60, 1 };

static void test_window_frames(void)
{
	struct frm_clock c;

	is_int(frm_window_frames(&hz60, 1000 * MS), 60, "1 s at 60 Hz: 60 frames");
	is_int(frm_window_frames(&hz60, 500 * MS), 30, "0.5 s at 60 Hz: 30 frames");
	frm_clock_parse("59.94", &c);
	/* 59.94 frames in 1 s: Chromium divides the window by the interval and keeps the integer part. */
	is_int(frm_window_frames(&c, 1000 * MS), 59, "1 s at 59.94 Hz: 59 frames");
	frm_clock_parse("144", &c);
	is_int(frm_window_frames(&c, 1000 * MS), 144, "1 s at 144 Hz: 144 frames");
	is_int(frm_window_frames(&hz60, 16 * MS), 0, "16 ms at 60 Hz: shorter than a period, no frame");
}

static void test_window_slides(void)
{
	struct frm_window w;
	const bool d[7] = { 1, 0, 1, 1, 0, 0, 0 };
	uint64_t got[7];
	bool full[7];

	frm_window_init(&w, 3);
	for (int i = 0; i < 7; i++) {
		full[i] = frm_window_push(&w, d[i]);
		got[i] = w.dropped;
	}
	/* windows of 3: [1 0 1] 2, [0 1 1] 2, [1 1 0] 2, [1 0 0] 1, [0 0 0] 0 */
	ok(!full[0] && !full[1] && full[2] && got[2] == 2 && got[3] == 2 && got[4] == 2 &&
	   got[5] == 1 && got[6] == 0, "a window of 3 frames slides one frame at a time");
	frm_window_free(&w);
}

/* Feed @n frames at 60 Hz: dropped ones never shown, the others shown one vsync after their own. */
static void feed(struct frm_smooth *s, uint64_t n, bool (*dropped)(uint64_t))
{
	for (uint64_t i = 0; i < n; i++) {
		bool d = dropped(i);

		frm_smooth_fate(s, i, d ? FRM_FATE_SKIPPED : FRM_FATE_ON_TIME, d ? 0 : -1,
				d ? 0 : frm_vsync_ns(&hz60, (int64_t)i + 1));
	}
}

/* A 200 ms stall: frames 300..311 (12 vsyncs) never shown. */
static bool stall12(uint64_t i)
{
	return i >= 300 && i <= 311;
}

/*
 * 600 frames, 60 per window: windows start at frames 0..540 (541). The
 * window starting at s holds frames s..s+59 and drops |[s, s+59] n [300, 311]|:
 *   0 for s <= 240 (241 windows) and s >= 312 (229): 470 windows;
 *   k = 1..11 at s = 240 + k (rising) and s = 312 - k (falling): 2 windows each;
 *   12 for s = 252..300: 49 windows.
 * max 12/60 = 20 %, first in the window starting at frame 252 (4.2 s).
 * From the top (k-th largest, k = ceil((100 - p) * 541 / 100)): p99 k = 6 and
 * p95 k = 28 fall in the 49 windows at 20 %; p50 k = 271 is past the 49 + 22
 * windows above 0 %: 0 %.
 * Buckets by 100 d / 60: [0,3) d <= 1: 470 + 2; [3,6) d = 2, 3: 4; [6,12)
 * d = 4..7: 8; [12,25) d = 8..14: 8 + 49; none above.
 * The whole run: 12 of 600 dropped, 2 %.
 */
static void test_stall(void)
{
	struct frm_smooth s;
	double share[FRM_SMOOTH_BUCKETS];
	bool by_ok = true;

	frm_smooth_init(&s, &hz60, 60, RUN);
	feed(&s, RUN, stall12);
	is_int(s.windows, 541, "stall: 541 windows of 60 frames in 600");
	is_int(s.max_dropped, 12, "stall: the worst window drops the 12 frames of the stall");
	is_near(frm_smooth_pct(&s, s.max_dropped), 20.0, 1e-9, "stall: worst window 20 % (12 of 60)");
	is_int(s.max_last + 1 - s.win.n, 252, "stall: the first worst window starts at frame 252");
	is_near(frm_smooth_percentile(&s, 99), 20.0, 1e-9, "stall: p99 20 % (6th largest of 541)");
	is_near(frm_smooth_percentile(&s, 95), 20.0, 1e-9, "stall: p95 20 % (28th largest)");
	is_near(frm_smooth_percentile(&s, 50), 0.0, 1e-9, "stall: p50 0 % (271st largest)");
	for (uint64_t d = 0; d <= 60; d++)
		by_ok &= s.by_dropped[d] == (d == 0 ? 470u : d <= 11 ? 2u : d == 12 ? 49u : 0u);
	ok(by_ok, "stall: windows by dropped count 470 x 0, 2 x each of 1..11, 49 x 12");
	frm_smooth_buckets(&s, share);
	ok(share[0] * 541 / 100 > 471.99 && share[0] * 541 / 100 < 472.01 &&
	   share[1] * 541 / 100 > 3.99 && share[1] * 541 / 100 < 4.01 &&
	   share[2] * 541 / 100 > 7.99 && share[2] * 541 / 100 < 8.01 &&
	   share[3] * 541 / 100 > 56.99 && share[3] * 541 / 100 < 57.01 &&
	   share[4] == 0 && share[5] == 0 && share[6] == 0,
	   "stall: buckets 472, 4, 8, 57, 0, 0, 0 of 541 windows");
	is_int(s.frames, RUN, "stall: 600 frames fed (12 dropped: 2 % over the run)");
	frm_smooth_free(&s);
}

/*
 * Display gaps (vsyncs between new frames on screen) of the same stall:
 * 1 everywhere but 13 for frame 312 (frame 299 shown at vsync 300, 312 at
 * 313). Jank: a gap longer than the one before: once (13 > 1); 1 < 13 is
 * not. Scroll windows: 588 frames shown, 587 gaps, 9 full windows of 64;
 * frame 312's gap is the 300th, in the 5th window: 12 missed vsyncs, one
 * delayed frame (1/64 = 1.5625 %).
 */
static void test_stall_jank(void)
{
	struct frm_smooth s;

	frm_smooth_init(&s, &hz60, 60, RUN);
	feed(&s, RUN, stall12);
	is_int(s.janks, 1, "stall: one throughput jank");
	is_int(s.gaps_compared, 586, "stall: 586 gaps compared with the one before");
	is_near(frm_smooth_jank_pct(&s), 100.0 / 600, 1e-12, "stall: jank 1 of 600 frames");
	ok(s.scroll_windows == 9 && s.missed_sum_max == 12 && s.missed_max == 12 && s.delayed_max == 1,
	   "stall: 9 windows of 64 frames; the worst sums 12 missed vsyncs, one frame missed 12, one delayed");
	frm_smooth_free(&s);
}

/*
 * The definitions doc's sequences (9 vsyncs; shown marked): throughput per
 * gap between consecutive shown frames falls once in "12_4_6789" and once
 * in "1234____9", never in "1_3_5_7_9" (every gap 2).
 */
static const char *const seqs[3] = { "12_4_6789", "1234____9", "1_3_5_7_9" };
static const char *seq;

static bool not_in_seq(uint64_t i)
{
	return seq[i] == '_';
}

static void test_definitions_doc(void)
{
	const uint64_t want[3] = { 1, 1, 0 };

	for (int k = 0; k < 3; k++) {
		struct frm_smooth s;
		char name[96];

		seq = seqs[k];
		frm_smooth_init(&s, &hz60, 60, 9);
		feed(&s, 9, not_in_seq);
		snprintf(name, sizeof(name), "definitions doc: %s has %llu jank", seq, (unsigned long long)want[k]);
		is_int(s.janks, want[k], name);
		frm_smooth_free(&s);
	}
}

/*
 * The percentile rule, counted from the top as Chromium's sliding-window
 * histogram does: 89 frames make 30 windows of 60; only the first holds the
 * dropped frame 0 (1/60). p99: k = ceil(0.3) = 1, the largest, 1.67 %; p95:
 * k = ceil(1.5) = 2, the second largest, 0 % (skipping 1.5 windows from the
 * top needs two).
 */
static bool first_only(uint64_t i)
{
	return i == 0;
}

static void test_percentile_rule(void)
{
	struct frm_smooth s;

	frm_smooth_init(&s, &hz60, 60, 89);
	feed(&s, 89, first_only);
	ok(s.windows == 30 && s.by_dropped[1] == 1, "30 windows, one with a drop");
	is_near(frm_smooth_percentile(&s, 99), 100.0 / 60, 1e-9, "p99 of 30 windows: the largest");
	is_near(frm_smooth_percentile(&s, 95), 0.0, 0.0, "p95 of 30 windows: the second largest (k = ceil(1.5))");
	frm_smooth_free(&s);
}

/* Exactly 3 % dropped is in the bucket that starts at 3 %. */
static bool three_of_100(uint64_t i)
{
	return i == 10 || i == 20 || i == 30;
}

static void test_bucket_bound_and_short(void)
{
	struct frm_clock hz100 = { 100, 1 };
	double share[FRM_SMOOTH_BUCKETS];
	struct frm_smooth s;

	frm_smooth_init(&s, &hz100, 100, 100);
	for (uint64_t i = 0; i < 100; i++)
		frm_smooth_fate(&s, i, three_of_100(i) ? FRM_FATE_SKIPPED : FRM_FATE_ON_TIME, -1,
				three_of_100(i) ? 0 : frm_vsync_ns(&hz100, (int64_t)i + 1));
	frm_smooth_buckets(&s, share);
	ok(s.windows == 1 && share[1] == 100.0 && share[0] == 0.0, "a window exactly 3 % dropped is in [3,6)");
	frm_smooth_free(&s);
	frm_smooth_init(&s, &hz60, 60, 59);
	feed(&s, 59, stall12);
	ok(s.windows == 0 && frm_smooth_percentile(&s, 95) < 0 && s.scroll_windows == 0,
	   "a run shorter than the window has no window and no percentile");
	frm_smooth_free(&s);
}

/*
 * Through the pipeline: one stage of 2 ms whose frame 300 takes 200 ms
 * (12 periods) from vsync 300 = 5 s to 5.2 s = vsync 312. Frames 301..311
 * would start at or past their deadline (vsync j + 1 <= vsync 312): skipped,
 * 11 frames; frame 300 itself is shown late at vsync 312, frame 312 on
 * time at 313. Windows holding all of 301..311 start at 252..301 (50 at
 * 11/60 = 18.33 %); rising 242..251 and falling 302..311 hold 1..10; the
 * rest (471) none. p95 and p99: 18.33 %; p50: 0. One jank (gap 12 after
 * gaps of 1); frame 300's gap missed 11 vsyncs.
 */
static int64_t stall_work(void *arg, uint64_t frame, int stage)
{
	(void)arg;
	(void)stage;
	return frame == 300 ? 200 * MS : 2 * MS;
}

static void test_pipeline_stall(void)
{
	struct frm_frame *f = calloc(RUN, sizeof(*f));
	int64_t *scratch = calloc(RUN, sizeof(*scratch));
	struct frm_account a;
	struct frm_smooth s;

	frm_simulate(1, &hz60, 1, FRM_MODEL_DISPLAY, RUN, stall_work, NULL, f, scratch);
	frm_smooth_init(&s, &hz60, 60, RUN);
	frm_account_init(&a, &hz60, 1, FRM_MODEL_DISPLAY);
	frm_account_frames(&a, f, 0, RUN, frm_smooth_fate, &s);
	ok(a.dropped == 11 && a.fate[FRM_FATE_SKIPPED] == 11 && a.fate[FRM_FATE_MISSED] == 1,
	   "pipeline stall: 11 frames skipped, the long one shown late");
	ok(s.max_dropped == 11 && s.max_last + 1 - s.win.n == 252 && s.by_dropped[11] == 50 && s.by_dropped[0] == 471,
	   "pipeline stall: worst window 11 of 60 from frame 252, 50 such windows, 471 without a drop");
	is_near(frm_smooth_percentile(&s, 95), 1100.0 / 60, 1e-9, "pipeline stall: p95 18.33 %");
	is_near(frm_smooth_percentile(&s, 50), 0.0, 0.0, "pipeline stall: p50 0 %");
	ok(s.janks == 1 && s.missed_max == 11 && s.missed_sum_max == 11, "pipeline stall: one jank, 11 missed vsyncs");
	frm_smooth_free(&s);
	free(scratch);
	free(f);
}

int main(void)
{
	plan(5 + 1 + 10 + 4 + 3 + 3 + 2 + 5);
	test_window_frames();
	test_window_slides();
	test_stall();
	test_stall_jank();
	test_definitions_doc();
	test_percentile_rule();
	test_bucket_bound_and_short();
	test_pipeline_stall();
	return done();
}
