// SPDX-License-Identifier: GPL-2.0-or-later
/* smoothreport.c - lj-frame's Chromium smoothness figures (smoothness.h) in the text summary and the result document. */
#include "frame.h"

#include <math.h>

#include "lj_json.h"
#include "lj_result.h"

int frm_trial_smooth_init(const struct frm_trial *tr, struct frm_smooth *s)
{
	const struct frm_config *cfg = tr->cfg;
	uint64_t measured = tr->nrun > tr->warmup ? tr->nrun - tr->warmup : 0;

	return frm_smooth_init(s, &cfg->clock, frm_window_frames(&cfg->clock, cfg->drop_window_ns), measured);
}

int frm_trial_smoothness(const struct frm_trial *tr, struct frm_smooth *s)
{
	const struct frm_config *cfg = tr->cfg;
	struct frm_account a;
	int ret;

	ret = frm_trial_smooth_init(tr, s);
	if (ret)
		return ret;
	/* The accounting decides each frame's fate; replayed here with the smoothness as listener. */
	frm_account_init(&a, &cfg->clock, cfg->latency_frames, cfg->model);
	frm_account_frames(&a, tr->frames, tr->warmup, tr->nrun, frm_smooth_fate, s);
	return 0;
}

/* Where the first worst window starts, in s from the first measured vsync (the timeline's t_s). */
static double worst_start_s(const struct frm_smooth *s)
{
	return (double)(frm_vsync_ns(&s->clk, (int64_t)(s->max_last + 1 - s->win.n)) -
			frm_vsync_ns(&s->clk, (int64_t)s->first)) / 1e9;
}

static void text_window(FILE *out, const struct frm_config *cfg, const struct frm_smooth *s)
{
	double share[FRM_SMOOTH_BUCKETS];

	fprintf(out, "dropped in %.9g s windows", (double)cfg->drop_window_ns / 1e9);
	if (!s->windows) {
		fprintf(out, ": none (the run's %llu frames are fewer than a window's %llu)\n",
			(unsigned long long)s->frames,
			(unsigned long long)frm_window_frames(&cfg->clock, cfg->drop_window_ns));
		return;
	}
	fprintf(out, " (%llu window%s of %llu frames): max %.2f%% (%llu) at +%.3f s, p50 %.2f%%, p95 %.2f%%,"
		" p99 %.2f%%\nwindows by %% dropped:",
		(unsigned long long)s->windows, s->windows == 1 ? "" : "s", (unsigned long long)s->win.n,
		frm_smooth_pct(s, s->max_dropped),
		(unsigned long long)s->max_dropped, worst_start_s(s), frm_smooth_percentile(s, 50),
		frm_smooth_percentile(s, 95), frm_smooth_percentile(s, 99));
	frm_smooth_buckets(s, share);
	for (int b = 0; b < FRM_SMOOTH_BUCKETS; b++)
		fprintf(out, "%s [%d,%d%c %.2f%%", b ? "," : "", frm_smooth_bucket_pct[b],
			b + 1 < FRM_SMOOTH_BUCKETS ? frm_smooth_bucket_pct[b + 1] : 100,
			b + 1 < FRM_SMOOTH_BUCKETS ? ')' : ']', share[b]);
	fputc('\n', out);
}

void frm_smooth_text(FILE *out, const struct frm_config *cfg, const struct frm_smooth *s)
{
	text_window(out, cfg, s);
	fprintf(out, "jank (throughput drops between consecutive frames): %llu (%.2f%% of frames);"
		" missed vsyncs per %d frames", (unsigned long long)s->janks, frm_smooth_jank_pct(s),
		FRM_SCROLL_WINDOW);
	if (s->scroll_windows)
		fprintf(out, " (%llu window%s): sum max %llu, frame max %llu, delayed frames max %.2f%%\n",
			(unsigned long long)s->scroll_windows, s->scroll_windows == 1 ? "" : "s",
			(unsigned long long)s->missed_sum_max,
			(unsigned long long)s->missed_max, 100.0 * (double)s->delayed_max / FRM_SCROLL_WINDOW);
	else
		fprintf(out, ": no full window\n");
}

/* NAN (null in the JSON) when the run had no window to measure. */
static double or_nan(bool have, double v)
{
	return have ? v : NAN;
}

static json_object *window_json(const struct frm_config *cfg, const struct frm_smooth *s)
{
	json_object *o = json_object_new_object(), *buckets = json_object_new_array();
	json_object *by = json_object_new_array();
	double share[FRM_SMOOTH_BUCKETS];

	lj_json_add(o, "name", json_object_new_string("dropped_window"));
	lj_json_add(o, "window_ns", lj_json_int(cfg->drop_window_ns));
	lj_json_add(o, "window_frames", lj_json_uint(frm_window_frames(&cfg->clock, cfg->drop_window_ns)));
	lj_json_add(o, "windows", lj_json_uint(s->windows));
	lj_json_add_num(o, "max_pct", or_nan(s->windows, frm_smooth_pct(s, s->max_dropped)), NULL);
	lj_json_add(o, "max_dropped", s->windows ? lj_json_uint(s->max_dropped) : NULL);
	lj_json_add(o, "max_start_ns", s->windows ? lj_json_int(llround(worst_start_s(s) * 1e9)) : NULL);
	lj_json_add_num(o, "p50_pct", or_nan(s->windows, frm_smooth_percentile(s, 50)), NULL);
	lj_json_add_num(o, "p95_pct", or_nan(s->windows, frm_smooth_percentile(s, 95)), NULL);
	lj_json_add_num(o, "p99_pct", or_nan(s->windows, frm_smooth_percentile(s, 99)), NULL);
	frm_smooth_buckets(s, share);
	for (int b = 0; b < FRM_SMOOTH_BUCKETS; b++) {
		json_object *x = json_object_new_object();

		lj_json_add(x, "from_pct", lj_json_int(frm_smooth_bucket_pct[b]));
		lj_json_add(x, "to_pct", lj_json_int(b + 1 < FRM_SMOOTH_BUCKETS ? frm_smooth_bucket_pct[b + 1] : 100));
		lj_json_add(x, "share_pct", lj_json_num(share[b]));
		json_object_array_add(buckets, x);
	}
	lj_json_add(o, "buckets", buckets);
	/* The whole distribution: [dropped in the window, windows], non-empty counts only. */
	for (uint64_t d = 0; s->windows && d <= s->win.n; d++) {
		json_object *pair;

		if (!s->by_dropped[d])
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, lj_json_uint(d));
		json_object_array_add(pair, lj_json_uint(s->by_dropped[d]));
		json_object_array_add(by, pair);
	}
	lj_json_add(o, "windows_by_dropped", by);
	return o;
}

static json_object *jank_json(const struct frm_smooth *s)
{
	json_object *o = json_object_new_object();

	lj_json_add(o, "name", json_object_new_string("throughput_jank"));
	lj_json_add(o, "janks", lj_json_uint(s->janks));
	lj_json_add(o, "gaps_compared", lj_json_uint(s->gaps_compared));
	lj_json_add(o, "jank_pct", lj_json_num(frm_smooth_jank_pct(s)));
	return o;
}

static json_object *missed_json(const struct frm_smooth *s)
{
	json_object *o = json_object_new_object();
	bool any = s->scroll_windows > 0;

	lj_json_add(o, "name", json_object_new_string("missed_vsyncs"));
	lj_json_add(o, "window_frames", lj_json_int(FRM_SCROLL_WINDOW));
	lj_json_add(o, "windows", lj_json_uint(s->scroll_windows));
	lj_json_add(o, "missed_vsyncs_sum_max", any ? lj_json_uint(s->missed_sum_max) : NULL);
	lj_json_add(o, "missed_vsyncs_max", any ? lj_json_uint(s->missed_max) : NULL);
	lj_json_add(o, "delayed_frames_pct_max", any ? lj_json_num(100.0 * (double)s->delayed_max /
									FRM_SCROLL_WINDOW) : NULL);
	return o;
}

void frm_smooth_json(struct lj_result *res, const struct frm_config *cfg, const struct frm_smooth *s)
{
	json_object *results = lj_result_results(res);
	bool win = s->windows > 0, sw = s->scroll_windows > 0;

	json_object_array_add(results, window_json(cfg, s));
	json_object_array_add(results, jank_json(s));
	json_object_array_add(results, missed_json(s));
	lj_result_summary(res, "window_dropped_max", or_nan(win, frm_smooth_pct(s, s->max_dropped)), "%",
			  LJ_BETTER_LOWER);
	lj_result_summary(res, "window_dropped_p50", or_nan(win, frm_smooth_percentile(s, 50)), "%",
			  LJ_BETTER_LOWER);
	lj_result_summary(res, "window_dropped_p95", or_nan(win, frm_smooth_percentile(s, 95)), "%",
			  LJ_BETTER_LOWER);
	lj_result_summary(res, "window_dropped_p99", or_nan(win, frm_smooth_percentile(s, 99)), "%",
			  LJ_BETTER_LOWER);
	lj_result_summary(res, "throughput_janks", (double)s->janks, "count", LJ_BETTER_LOWER);
	lj_result_summary(res, "throughput_jank_pct", frm_smooth_jank_pct(s), "%", LJ_BETTER_LOWER);
	lj_result_summary(res, "missed_vsyncs_sum_max", or_nan(sw, (double)s->missed_sum_max), "vsyncs",
			  LJ_BETTER_LOWER);
	lj_result_summary(res, "missed_vsyncs_max", or_nan(sw, (double)s->missed_max), "vsyncs",
			  LJ_BETTER_LOWER);
}
