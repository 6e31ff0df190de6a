// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.c - lj-frame's tracks in --perfetto's trace: stage work, vsyncs, each frame's fate, the display, the window's counters. */
#include "frame.h"
#include "lj_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_tef.h"

/*
 * Lanes the frames' slices spread over where frames overlap (a late
 * frame and those queued behind it). Past them a frame is written with
 * no duration on the last lane: still there, still counted.
 */
#define FRAME_LANES 32

/* Each measured frame's fate, as the accounting decides it, and the window's counters on the way. */
struct fates {
	const struct frm_trial *tr;
	struct lj_tef *w;
	uint32_t pid;
	uint8_t *fate;			/* [nrun] */
	int64_t *shown;			/* [nrun] display vsync, relative to vsync 0 */
	struct frm_smooth smooth;
	char fps_name[48], drop_name[48];
	double last_fps, last_pct;	/* counters are written when they change */
	uint32_t janks;			/* the janks' track, 0 until the first */
};

static uint64_t abs_ns(const struct frm_trial *tr, int64_t rel)
{
	return (uint64_t)(tr->t0 + rel);
}

/* The sliding window's fps and % dropped at each frame that ends a full window; Chromium's janks. */
static void fate_cb(void *arg, uint64_t i, enum frm_fate fate, int stage, int64_t shown_ns)
{
	struct fates *f = arg;
	const struct frm_trial *tr = f->tr;
	uint64_t at = (uint64_t)frm_trial_vsync(tr, i);

	f->fate[i] = (uint8_t)fate;
	f->shown[i] = shown_ns;
	frm_smooth_fate(&f->smooth, i, fate, stage, shown_ns);
	if (f->smooth.jank_now) {
		if (!f->janks)
			f->janks = lj_tef_track(f->w, f->pid, "Chromium janks (throughput drops)", 4);
		lj_tef_instant(f->w, f->pid, f->janks, "jank", "frame", abs_ns(tr, shown_ns), NULL);
	}
	if (f->smooth.win.n && f->smooth.win.seen >= f->smooth.win.n) {
		double rate = frm_clock_rate(&tr->cfg->clock), n = (double)f->smooth.win.n;
		double fps = ((n - (double)f->smooth.win.dropped) * rate) / n;
		double pct = frm_smooth_pct(&f->smooth, f->smooth.win.dropped);

		if (fps != f->last_fps)
			lj_tef_counter(f->w, f->pid, f->fps_name, "Hz", at, fps);
		if (pct != f->last_pct)
			lj_tef_counter(f->w, f->pid, f->drop_name, "%", at, pct);
		f->last_fps = fps;
		f->last_pct = pct;
	}
}

static json_object *frame_args(const struct frm_trial *tr, uint64_t i, enum frm_fate fate)
{
	json_object *a = json_object_new_object();
	const struct frm_frame *fr = &tr->frames[i];
	int stage = fr->gone_stage >= 0 ? fr->gone_stage : fr->late_stage;

	json_object_object_add(a, "frame", lj_json_int((int64_t)(i - tr->warmup)));
	json_object_object_add(a, "class", json_object_new_string(frm_fate_name(fate)));
	json_object_object_add(a, "stage", stage >= 0 ? lj_json_int(stage) : NULL);
	json_object_object_add(a, "waited_ns", lj_json_int(fr->waited_ns));
	json_object_object_add(a, "presented", json_object_new_boolean(fr->present != FRM_NOT_PRESENTED));
	return a;
}

/*
 * The stages' work on each measured frame, on the stage threads' own
 * tracks (real runs: a simulated run has no threads).
 */
static void write_stages(const struct fates *f)
{
	const struct frm_trial *tr = f->tr;
	char name[32];

	for (int s = 0; s < tr->cfg->nstages; s++) {
		const struct frm_stage *st = &tr->stage[s];

		if (!st->spans || !st->tid)
			continue;
		snprintf(name, sizeof(name), "stage %d", s);
		lj_tef_thread(f->w, f->pid, (uint32_t)st->tid, name, s);
		for (uint64_t i = tr->warmup; i < tr->nrun; i++) {
			const struct frm_span *sp = &st->spans[i];

			if (sp->end <= sp->start)
				continue;	/* not worked on by this stage */
			snprintf(name, sizeof(name), "frame %llu", (unsigned long long)(i - tr->warmup));
			lj_tef_slice(f->w, f->pid, (uint32_t)st->tid, name, "stage", (uint64_t)sp->start,
				     (uint64_t)(sp->end - sp->start), frame_args(tr, i, f->fate[i]));
		}
	}
}

/*
 * Each measured frame once, named by its class: from its vsync to its
 * presentation, or to its deadline when it was never presented (lanes
 * where frames overlap). The counts by name are the result's frames block.
 */
static void write_frames(const struct fates *f)
{
	const struct frm_trial *tr = f->tr;
	uint64_t ends[FRAME_LANES] = { 0 };
	uint32_t lanes[FRAME_LANES] = { 0 };
	int nlanes = 0;

	for (uint64_t i = tr->warmup; i < tr->nrun; i++) {
		uint64_t a = (uint64_t)frm_trial_vsync(tr, i), b;
		int lane;

		b = tr->frames[i].present != FRM_NOT_PRESENTED ? abs_ns(tr, tr->frames[i].present)
			: (uint64_t)frm_trial_vsync(tr, i + (uint64_t)tr->cfg->latency_frames);
		lane = lj_tef_lane(ends, &nlanes, FRAME_LANES, a, b);
		if (lane < 0) {
			lane = FRAME_LANES - 1;
			b = a;
		}
		if (!lanes[lane]) {
			char name[48];

			snprintf(name, sizeof(name), lane ? "frames (%d)" : "frames", lane + 1);
			lanes[lane] = lj_tef_track(f->w, f->pid, name, 10 + lane);
		}
		lj_tef_slice(f->w, f->pid, lanes[lane], frm_fate_name(f->fate[i]), "frame", a, b - a,
			     frame_args(tr, i, f->fate[i]));
	}
}

/* What the display showed: each new frame from its display vsync to the next new frame's; the vsyncs. */
static void write_display(const struct fates *f)
{
	const struct frm_trial *tr = f->tr;
	uint32_t vs = lj_tef_track(f->w, f->pid, "VSYNC", 2);
	uint32_t disp = lj_tef_track(f->w, f->pid, "display", 3);
	uint64_t prev = UINT64_MAX;
	int64_t end = frm_trial_vsync(tr, tr->nrun) - tr->t0;

	for (uint64_t i = tr->warmup; i < tr->nrun; i++)
		lj_tef_instant(f->w, f->pid, vs, "vsync", "frame", (uint64_t)frm_trial_vsync(tr, i), NULL);
	for (uint64_t i = tr->warmup; i <= tr->nrun; i++) {
		bool last = i == tr->nrun;

		if (!last && !frm_fate_displayed(f->fate[i]))
			continue;
		if (prev != UINT64_MAX) {
			int64_t a = f->shown[prev], b;

			/* the last on screen until the run's end, at least one period */
			b = !last ? f->shown[i] : end > a + tr->cfg->period_ns ? end : a + tr->cfg->period_ns;
			if (b > a)
				lj_tef_slice(f->w, f->pid, disp, frm_fate_name(f->fate[prev]), "frame",
					     abs_ns(tr, a), (uint64_t)(b - a), frame_args(tr, prev, f->fate[prev]));
		}
		prev = i;
	}
}

int frm_trace_write(const struct frm_trial *tr, struct lj_tef *w, uint32_t pid)
{
	struct fates f = { .tr = tr, .w = w, .pid = pid, .last_fps = -1, .last_pct = -1 };
	struct frm_account a;
	int ret = 0;

	if (tr->nrun <= tr->warmup)
		return 0;
	f.fate = calloc(tr->nrun, sizeof(*f.fate));
	f.shown = calloc(tr->nrun, sizeof(*f.shown));
	if (!f.fate || !f.shown || frm_trial_smooth_init(tr, &f.smooth)) {
		free(f.fate);
		free(f.shown);
		return -ENOMEM;
	}
	snprintf(f.fps_name, sizeof(f.fps_name), "fps (%.9g s window)", (double)tr->cfg->drop_window_ns / 1e9);
	snprintf(f.drop_name, sizeof(f.drop_name), "dropped (%.9g s window)", (double)tr->cfg->drop_window_ns / 1e9);
	frm_account_init(&a, &tr->cfg->clock, tr->cfg->latency_frames, tr->cfg->model);
	frm_account_frames(&a, tr->frames, tr->warmup, tr->nrun, fate_cb, &f);
	write_display(&f);
	write_frames(&f);
	write_stages(&f);
	frm_smooth_free(&f.smooth);
	free(f.fate);
	free(f.shown);
	return ret;
}
