// SPDX-License-Identifier: GPL-2.0-or-later
/* account.c - lj-frame's accounting core and the zero-latency pipeline simulator. */
#include "account.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lj_hist.h"

#define NS_PER_S 1000000000LL

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int frm_clock_parse(const char *s, struct frm_clock *c)
{
	int64_t num = 0, den = 1, g;
	int digits = 0, decimals = -1;

	for (; *s; s++) {
		if (*s == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || digits >= 15 || decimals >= 9)
			return -EINVAL;
		num = num * 10 + (*s - '0');
		digits++;
		if (decimals >= 0) {
			decimals++;
			den *= 10;
		}
	}
	if (!digits || num <= 0)
		return -EINVAL;
	g = gcd64(num, den);
	c->num = num / g;
	c->den = den / g;
	return 0;
}

void frm_clock_hz(struct frm_clock *c, int64_t hz)
{
	c->num = hz;
	c->den = 1;
}

double frm_clock_rate(const struct frm_clock *c)
{
	return (double)c->num / (double)c->den;
}

int64_t frm_vsync_ns(const struct frm_clock *c, int64_t i)
{
	/* floor((2 * i * 1e9 * den + num) / (2 * num)): i * 1e9 * den / num rounded half up */
	__int128 n = (__int128)2 * i * NS_PER_S * c->den + c->num, d = (__int128)2 * c->num;
	__int128 q = n / d;

	if (n % d && n < 0)
		q--;
	return (int64_t)q;
}

int64_t frm_vsync_at_or_after(const struct frm_clock *c, int64_t t)
{
	int64_t k = (int64_t)((__int128)t * c->num / ((__int128)NS_PER_S * c->den));

	while (frm_vsync_ns(c, k) < t)
		k++;
	while (frm_vsync_ns(c, k - 1) >= t)
		k--;
	return k;
}

const char *frm_model_name(enum frm_model m)
{
	return m == FRM_MODEL_STRICT ? "strict" : "display";
}

void frm_frame_clear(struct frm_frame *f)
{
	f->present = FRM_NOT_PRESENTED;
	f->waited_ns = 0;
	f->late_stage = -1;
	f->gone_stage = -1;
	f->skipped = false;
}

const char *frm_fate_name(enum frm_fate f)
{
	static const char *const names[FRM_NFATES] = {
		[FRM_FATE_ON_TIME] = "on_time",
		[FRM_FATE_MISSED] = "deadline_missed",
		[FRM_FATE_STUFFED] = "buffer_stuffing",
		[FRM_FATE_SKIPPED] = "skipped",
		[FRM_FATE_ABANDONED] = "abandoned",
		[FRM_FATE_REPLACED] = "replaced",
		[FRM_FATE_LATE] = "late",
	};

	return f < FRM_NFATES ? names[f] : "?";
}

bool frm_fate_displayed(enum frm_fate f)
{
	return f == FRM_FATE_ON_TIME || f == FRM_FATE_MISSED || f == FRM_FATE_STUFFED;
}

void frm_account_init(struct frm_account *a, const struct frm_clock *clk, int latency_frames,
		      enum frm_model model)
{
	memset(a, 0, sizeof(*a));
	a->clk = *clk;
	a->latency_frames = latency_frames;
	a->model = model;
	a->last_shown = -1;
	a->last_kept_present = FRM_NOT_PRESENTED;
}

static int64_t deadline(const struct frm_account *a, uint64_t i)
{
	return frm_vsync_ns(&a->clk, (int64_t)i + a->latency_frames);
}

/* Presented and, in the strict model, by its deadline: the display may show it. */
static bool showable(const struct frm_account *a, const struct frm_frame *f, uint64_t i)
{
	if (f->present == FRM_NOT_PRESENTED)
		return false;
	return a->model == FRM_MODEL_DISPLAY || f->present <= deadline(a, i);
}

/* The vsync that shows frame @i: the first at or after its present, never before i + 1. */
static int64_t display_index(const struct frm_account *a, const struct frm_frame *f, uint64_t i)
{
	int64_t d = frm_vsync_at_or_after(&a->clk, f->present);

	return d > (int64_t)i ? d : (int64_t)i + 1;
}

/* A shown frame's class: on time, or late by its own work or by queueing. */
static enum frm_fate shown_fate(const struct frm_account *a, const struct frm_frame *f,
				uint64_t i, int64_t d)
{
	if (d <= (int64_t)i + a->latency_frames)
		return FRM_FATE_ON_TIME;
	if (f->present - f->waited_ns <= deadline(a, i))
		return FRM_FATE_STUFFED;
	return FRM_FATE_MISSED;
}

/* A new frame on screen at vsync @d: one display interval since the last. */
static void count_shown(struct frm_account *a, uint64_t i, int64_t d)
{
	const struct frm_clock *c = &a->clk;
	int64_t at = frm_vsync_ns(c, d), lat = at - frm_vsync_ns(c, (int64_t)i);

	a->displayed++;
	a->latency_sum_ns += lat;
	if (lat > a->latency_max_ns)
		a->latency_max_ns = lat;
	if (a->latency)
		lj_hist_add(a->latency, lat);
	if (a->shown && a->nshown < a->shown_cap)
		a->shown[a->nshown++] = at;
	if (a->last_shown >= 0) {
		int64_t iv = at - frm_vsync_ns(c, a->last_shown);

		a->intervals++;
		a->interval_sum_ns += iv;
		/* Telemetry's 17 ms at 60 Hz, i.e. 1.02 periods: iv * rate < 1.02 s. */
		if ((__int128)iv * c->num * 50 < (__int128)51 * NS_PER_S * c->den)
			a->smooth++;
		if (iv > a->longest_freeze_ns)
			a->longest_freeze_ns = iv;
		a->freeze_ns += at - frm_vsync_ns(c, a->last_shown + 1);
		if (a->frame_times)
			lj_hist_add(a->frame_times, iv);
	}
	a->last_shown = d;
}

/* How steadily the pipeline delivered the frames it kept (shown or replaced). */
static void count_present(struct frm_account *a, int64_t present)
{
	if (a->last_kept_present != FRM_NOT_PRESENTED) {
		double period = (double)NS_PER_S * (double)a->clk.den / (double)a->clk.num;
		double off = fabs((double)(present - a->last_kept_present) - period);

		a->present_intervals++;
		if (off <= (double)FRM_STEADY_SLACK_NS)
			a->steady++;
		if (a->jitter)
			lj_hist_add(a->jitter, llround(off));
	}
	a->last_kept_present = present;
}

static void count_fate(struct frm_account *a, enum frm_fate fate, int stage)
{
	a->fate[fate]++;
	if (fate == FRM_FATE_MISSED && stage >= 0 && stage < FRM_MAX_STAGES)
		a->missed_by_stage[stage]++;
	if (fate == FRM_FATE_MISSED || fate == FRM_FATE_STUFFED)
		a->janky++;
	if (frm_fate_displayed(fate)) {
		a->streak = 0;
		return;
	}
	a->dropped++;
	if (++a->streak > a->longest_streak)
		a->longest_streak = a->streak;
}

/* The next showable frame after @i in the range, or @end. */
static uint64_t next_showable(const struct frm_account *a, const struct frm_frame *f,
			      uint64_t i, uint64_t end)
{
	for (i++; i < end; i++)
		if (showable(a, &f[i], i))
			return i;
	return end;
}

void frm_account_frames(struct frm_account *a, const struct frm_frame *f, uint64_t first,
			uint64_t end, frm_fate_fn cb, void *arg)
{
	uint64_t next = first;

	if (next < end && !showable(a, &f[next], next))
		next = next_showable(a, f, next, end);
	for (uint64_t i = first; i < end; i++) {
		const struct frm_frame *fr = &f[i];
		enum frm_fate fate;
		int64_t d = -1;
		int stage = -1;

		a->frames++;
		a->presented += fr->present != FRM_NOT_PRESENTED;
		if (i == next) {
			next = next_showable(a, f, i, end);
			d = display_index(a, fr, i);
			/* The compositor latches the newest frame: a later one for the same vsync wins. */
			if (next < end && display_index(a, &f[next], next) == d) {
				fate = FRM_FATE_REPLACED;
				d = -1;
			} else {
				fate = shown_fate(a, fr, i, d);
				stage = fate == FRM_FATE_MISSED ? fr->late_stage : -1;
				count_shown(a, i, d);
			}
			count_present(a, fr->present);
		} else if (fr->present != FRM_NOT_PRESENTED) {
			fate = FRM_FATE_LATE;
		} else {
			fate = fr->skipped ? FRM_FATE_SKIPPED : FRM_FATE_ABANDONED;
			stage = fr->gone_stage;
		}
		count_fate(a, fate, stage);
		if (cb)
			cb(arg, i, fate, stage, d >= 0 ? frm_vsync_ns(&a->clk, d) : 0);
	}
}

void frm_account_sum(struct frm_account *a, const struct frm_account *b)
{
	a->frames += b->frames;
	a->presented += b->presented;
	a->displayed += b->displayed;
	a->dropped += b->dropped;
	a->janky += b->janky;
	for (int k = 0; k < FRM_NFATES; k++)
		a->fate[k] += b->fate[k];
	for (int s = 0; s < FRM_MAX_STAGES; s++)
		a->missed_by_stage[s] += b->missed_by_stage[s];
	a->intervals += b->intervals;
	a->smooth += b->smooth;
	a->interval_sum_ns += b->interval_sum_ns;
	a->freeze_ns += b->freeze_ns;
	a->latency_sum_ns += b->latency_sum_ns;
	a->present_intervals += b->present_intervals;
	a->steady += b->steady;
	if (b->longest_freeze_ns > a->longest_freeze_ns)
		a->longest_freeze_ns = b->longest_freeze_ns;
	if (b->latency_max_ns > a->latency_max_ns)
		a->latency_max_ns = b->latency_max_ns;
	if (b->longest_streak > a->longest_streak)
		a->longest_streak = b->longest_streak;
}

double frm_drop_rate(const struct frm_account *a)
{
	return a->frames ? (double)a->dropped / (double)a->frames : 0.0;
}

double frm_fps(const struct frm_account *a)
{
	if (!a->frames || a->clk.num <= 0)
		return 0.0;
	return (double)a->displayed * frm_clock_rate(&a->clk) / (double)a->frames;
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

double frm_mean_frame_time(const struct frm_account *a)
{
	return a->intervals ? (double)a->interval_sum_ns / (double)a->intervals : 0.0;
}

double frm_mean_latency(const struct frm_account *a)
{
	return a->displayed ? (double)a->latency_sum_ns / (double)a->displayed : 0.0;
}

/*
 * The timestamps mapped onto [0, 1] as telemetry maps them (first at
 * 0.5/n, last at (n-0.5)/n); the locations are 0, each sample and 1. For
 * locations u < v, with cl = samples below and cle = samples at or below,
 * the closed interval's local discrepancy is |(cle_v - cl_u)/n - (x_v - x_u)|
 * and the open one's |(cl_v - cle_u)/n - (x_v - x_u)|. With A = cl/n - x and
 * B = cle/n - x these are |B_v - A_u| and |A_v - B_u|: one pass keeping the
 * extremes of A and B over the locations before v finds the maximum.
 */
double frm_discrepancy_ns(const int64_t *t, uint64_t n)
{
	long double scale, best = 0, mina = 0, maxa = 0, minb = 0, maxb = 0;

	if (n < 2 || t[n - 1] == t[0])
		return 0.0;
	scale = ((long double)(n - 1) / (long double)n) / (long double)(t[n - 1] - t[0]);
	for (uint64_t k = 0; k <= n; k++) {
		long double x = k < n ? (long double)(t[k] - t[0]) * scale + 0.5L / (long double)n : 1.0L;
		long double av = (long double)k / (long double)n - x;
		long double bv = k < n ? av + 1.0L / (long double)n : av;
		long double c[4] = { bv - mina, maxa - bv, av - minb, maxb - av };

		for (int j = 0; j < 4; j++)
			if (c[j] > best)
				best = c[j];
		mina = av < mina ? av : mina;
		maxa = av > maxa ? av : maxa;
		minb = bv < minb ? bv : minb;
		maxb = bv > maxb ? bv : maxb;
	}
	return (double)(best / scale);
}

/* The next frame after @i still in the pipeline has reached this stage by @t. */
static bool newer_waiting(const struct frm_frame *f, const int64_t *arrive, uint64_t i,
			  uint64_t nframes, int64_t t)
{
	for (uint64_t j = i + 1; j < nframes; j++)
		if (f[j].gone_stage < 0)
			return arrive[j] <= t;
	return false;
}

/*
 * Stage by stage: stage s sees the frames in order, each when stage s - 1
 * finished it (arrive[]), which is all known once stage s - 1 is done,
 * because a stage never waits for the next one.
 */
void frm_simulate(int nstages, const struct frm_clock *clk, int latency_frames, enum frm_model model,
		  uint64_t nframes, frm_work_fn work_ns, void *arg, struct frm_frame *f, int64_t *arrive)
{
	if (nstages > FRM_MAX_STAGES)
		nstages = FRM_MAX_STAGES;
	for (uint64_t i = 0; i < nframes; i++) {
		frm_frame_clear(&f[i]);
		arrive[i] = frm_vsync_ns(clk, (int64_t)i);
	}
	for (int s = 0; s < nstages; s++) {
		int64_t free_at = 0;

		for (uint64_t i = 0; i < nframes; i++) {
			int64_t due = frm_vsync_ns(clk, (int64_t)i + latency_frames);
			int64_t start = arrive[i] > free_at ? arrive[i] : free_at;

			if (f[i].gone_stage >= 0)
				continue;
			if (start >= due && (s == 0 || model == FRM_MODEL_STRICT ||
					     newer_waiting(f, arrive, i, nframes, start))) {
				f[i].gone_stage = (int8_t)s;
				f[i].skipped = s == 0;
				continue;
			}
			f[i].waited_ns += start - arrive[i];
			free_at = start + work_ns(arg, i, s);
			arrive[i] = free_at;
			if (free_at > due && f[i].late_stage < 0)
				f[i].late_stage = (int8_t)s;
		}
	}
	for (uint64_t i = 0; i < nframes; i++)
		if (f[i].gone_stage < 0)
			f[i].present = arrive[i];
}
