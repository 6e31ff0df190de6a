// SPDX-License-Identifier: GPL-2.0-or-later
/* test_account - lj-frame's accounting core and pipeline simulator on injected schedules. */
#include "../../../tools/frame/account.h"
#include "../tap.h"

#include <stdlib.h>

#include "lj_hist.h"
#include "display_fixtures.h"

#define MS 1000000LL
#define N 60

/* "@what: @tail" into @buf, for the TAP test names. */
#define NAME(tail) (snprintf(name, sizeof(name), "%s: %s", what, (tail)), name)

static struct frm_clock hz60 = { 60, 1 };

/* Frames presented at the given offsets after their vsyncs (FRM_NOT_PRESENTED: skipped). */
static void inject(struct frm_frame *f, int n, const int64_t *after)
{
	for (int i = 0; i < n; i++) {
		frm_frame_clear(&f[i]);
		if (after[i] == FRM_NOT_PRESENTED) {
			f[i].gone_stage = 0;
			f[i].skipped = true;
		} else {
			f[i].present = frm_vsync_ns(&hz60, i) + after[i];
			if (f[i].present > frm_vsync_ns(&hz60, i + 1))
				f[i].late_stage = 0;
		}
	}
}

static void test_clock(void)
{
	struct frm_clock c;

	is_int(frm_vsync_ns(&hz60, 1), 16666667, "60 Hz: vsync 1 at 16666667 ns");
	is_int(frm_vsync_ns(&hz60, 2), 33333333, "60 Hz: vsync 2 at 33333333 ns, not 2 x 16666667");
	is_int(frm_vsync_ns(&hz60, 3000000), 50000000000000LL, "60 Hz: vsync 3e6 exactly 50000 s: no accumulated rounding");
	ok(!frm_clock_parse("59.94", &c) && c.num == 2997 && c.den == 50, "59.94 parses as 2997/50");
	is_int(frm_vsync_ns(&c, 2997), 50000000000LL, "59.94 Hz: vsync 2997 at exactly 50 s");
	ok(!frm_clock_parse("144", &c) && frm_vsync_ns(&c, 144) == 1000000000LL, "144 Hz: vsync 144 at 1 s");
	is_int(frm_vsync_ns(&c, 1), 6944444, "144 Hz: vsync 1 rounded to 6944444 ns");
	ok(!frm_clock_parse("90", &c) && frm_vsync_ns(&c, 1) == 11111111, "90 Hz: 11111111 ns");
	ok(!frm_clock_parse("120", &c) && frm_vsync_ns(&c, 7) == 58333333, "120 Hz: vsync 7 at 58333333 ns");
	ok(frm_clock_parse("6x", &c) && frm_clock_parse("", &c) && frm_clock_parse("1.2.3", &c) &&
	   frm_clock_parse("0", &c), "bad rates are refused");
	is_int(frm_vsync_at_or_after(&hz60, 16666667), 1, "at-or-after: exactly at vsync 1");
	is_int(frm_vsync_at_or_after(&hz60, 16666668), 2, "at-or-after: 1 ns later is vsync 2");
	is_int(frm_vsync_at_or_after(&hz60, 1), 1, "at-or-after: just after vsync 0");
}

static int64_t fixture_work(void *arg, uint64_t frame, int stage)
{
	const struct display_fixture *x = *(const struct display_fixture *const *)arg;

	if ((int)frame == x->over_frame && stage == x->over_stage)
		return x->over_ns;
	return x->work[stage];
}

/* Every fixture: the reference's counts and figures, exactly (the discrepancy to 1 ns). */
static void test_fixture(const struct display_fixture *x)
{
	struct frm_clock c = { x->rate_num, x->rate_den };
	struct frm_frame *f = calloc(x->nframes, sizeof(*f));
	int64_t *shown = calloc(x->nframes, sizeof(*shown));
	struct frm_account a;
	char what[64], name[128];
	bool same;

	snprintf(what, sizeof(what), "%s, %s model", x->name, x->strict ? "strict" : "display");
	frm_simulate(x->nstages, &c, x->latency, x->strict ? FRM_MODEL_STRICT : FRM_MODEL_DISPLAY,
		     x->nframes, fixture_work, &x, f, shown);
	frm_account_init(&a, &c, x->latency, x->strict ? FRM_MODEL_STRICT : FRM_MODEL_DISPLAY);
	a.shown = shown;
	a.shown_cap = x->nframes;
	frm_account_frames(&a, f, x->first, x->nframes, NULL, NULL);
	same = (long long)a.frames == x->frames && (long long)a.displayed == x->displayed &&
	       (long long)a.fate[FRM_FATE_ON_TIME] == x->on_time &&
	       (long long)a.fate[FRM_FATE_MISSED] == x->missed &&
	       (long long)a.fate[FRM_FATE_STUFFED] == x->stuffed &&
	       (long long)a.fate[FRM_FATE_SKIPPED] == x->skipped &&
	       (long long)a.fate[FRM_FATE_ABANDONED] == x->abandoned &&
	       (long long)a.fate[FRM_FATE_REPLACED] == x->replaced &&
	       (long long)a.fate[FRM_FATE_LATE] == x->late &&
	       (long long)a.missed_by_stage[0] == x->missed0 && (long long)a.missed_by_stage[1] == x->missed1;
	ok(same, NAME("frame classes"));
	if (!same)
		printf("# displayed %llu on_time %llu missed %llu stuffed %llu skipped %llu abandoned %llu replaced %llu late %llu\n",
		     (unsigned long long)a.displayed, (unsigned long long)a.fate[0], (unsigned long long)a.fate[1],
		     (unsigned long long)a.fate[2], (unsigned long long)a.fate[3], (unsigned long long)a.fate[4],
		     (unsigned long long)a.fate[5], (unsigned long long)a.fate[6]);
	ok((long long)a.dropped == x->skipped + x->abandoned + x->replaced + x->late &&
	   (long long)a.janky == x->missed + x->stuffed, NAME("dropped and janky"));
	ok((long long)a.intervals == x->intervals && (long long)a.smooth == x->smooth &&
	   a.interval_sum_ns == x->interval_sum && a.longest_freeze_ns == x->longest_freeze &&
	   a.freeze_ns == x->freeze, NAME("frame_times, smooth, freezes"));
	ok(a.latency_sum_ns == x->latency_sum && a.latency_max_ns == x->latency_max &&
	   (long long)a.longest_streak == x->longest_streak, NAME("latency and streak"));
	is_near(frm_fps(&a), x->fps, 1e-9, NAME("fps"));
	is_near(frm_discrepancy_ns(shown, a.nshown), x->discrepancy_ns, 1.0, NAME("discrepancy"));
	free(shown);
	free(f);
}

static const struct display_fixture *find(const char *name, int strict)
{
	for (size_t k = 0; k < sizeof(fixtures) / sizeof(fixtures[0]); k++)
		if (!strcmp(fixtures[k].name, name) && fixtures[k].strict == strict)
			return &fixtures[k];
	return NULL;
}

/* The figures, as telemetry would print them, from a 3 s run (180 frames). */
static void test_telemetry_figures(void)
{
	const struct display_fixture *x = find("1x17ms", 0), *y = find("2x10ms", 0);
	double smooth = 100.0 * (double)x->smooth / (double)x->intervals;
	double mean = (double)x->interval_sum / (double)x->intervals / 1e6;

	is_near(x->fps, 59.0, 0.05, "1 x 17 ms: 59.0 fps");
	is_near(smooth, 98.3, 0.05, "1 x 17 ms: 98.3% smooth");
	is_near(mean, 16.95, 0.005, "1 x 17 ms: mean_frame_time 16.95 ms");
	is_near(y->fps, 60.0, 1e-9, "2 x 10 ms: 60 fps shown, every frame one vsync late");
	is_int(y->missed1, 180, "2 x 10 ms: all 180 frames missed the deadline in stage 1");
}

/* Completion jitter inside each period: the display still changes every vsync. */
static void test_jitter_is_not_jank(void)
{
	struct lj_hist *h = lj_hist_new();
	struct frm_frame f[N];
	int64_t after[N];
	struct frm_account a;

	for (int i = 0; i < N; i++)
		after[i] = i % 2 ? 14 * MS : 2 * MS;
	inject(f, N, after);
	frm_account_init(&a, &hz60, 1, FRM_MODEL_DISPLAY);
	a.jitter = h;
	frm_account_frames(&a, f, 0, N, NULL, NULL);
	ok(a.dropped == 0 && a.janky == 0 && a.displayed == N, "jitter: all shown on time");
	is_near(frm_percentage_smooth(&a), 100.0, 1e-9, "jitter: 100% smooth, as the display shows it");
	is_near(frm_percentage_steady(&a), 0.0, 0.0, "jitter: presents P +- 12 ms apart: 0% steady");
	ok(h && lj_hist_count(h) == N - 1, "jitter: one |interval - P| per present interval");
	lj_hist_free(h);
}

/* The callback hears each frame once, in order, with its display time. */
struct seen {
	uint64_t n, next;
	bool in_order;
	int64_t last_shown;
	uint64_t fates[FRM_NFATES];
};

static void on_fate(void *arg, uint64_t index, enum frm_fate fate, int stage, int64_t shown_ns)
{
	struct seen *s = arg;

	(void)stage;
	s->in_order &= index == s->next;
	s->next = index + 1;
	s->n++;
	s->fates[fate]++;
	if (frm_fate_displayed(fate))
		s->last_shown = shown_ns;
}

static void test_callback_and_strict(void)
{
	struct frm_frame f[N];
	int64_t after[N];
	struct frm_account a;
	struct seen s = { .next = 0, .in_order = true };

	for (int i = 0; i < N; i++)
		after[i] = i == 10 ? 20 * MS : (i == 30 ? FRM_NOT_PRESENTED : 5 * MS);
	inject(f, N, after);
	frm_account_init(&a, &hz60, 1, FRM_MODEL_DISPLAY);
	frm_account_frames(&a, f, 0, N, on_fate, &s);
	ok(s.n == N && s.in_order, "callback: every frame once, in vsync order");
	/* Frame 10 done at vsync 11 + 3.3 ms, frame 11 at vsync 11 + 5 ms: both for vsync 12. */
	ok(s.fates[FRM_FATE_MISSED] == 0 && s.fates[FRM_FATE_SKIPPED] == 1 && s.fates[FRM_FATE_REPLACED] == 1,
	   "display: the 20 ms frame is replaced at vsync 12 by the newer frame 11; the gap skipped");
	is_int(s.last_shown, frm_vsync_ns(&hz60, N), "callback: the last frame shown at vsync N");
	frm_account_init(&a, &hz60, 1, FRM_MODEL_STRICT);
	frm_account_frames(&a, f, 0, N, NULL, NULL);
	ok(a.fate[FRM_FATE_LATE] == 1 && a.fate[FRM_FATE_REPLACED] == 0 && a.dropped == 2,
	   "strict: the late frame is dropped, not replaced");
}

static void test_sum_and_empty(void)
{
	struct frm_account a, b;
	struct frm_frame f[2];
	int64_t after[2] = { MS, FRM_NOT_PRESENTED };

	frm_account_init(&a, &hz60, 1, FRM_MODEL_DISPLAY);
	ok(frm_drop_rate(&a) == 0 && frm_percentage_smooth(&a) == 0 && frm_fps(&a) == 0 &&
	   frm_mean_frame_time(&a) == 0 && frm_mean_latency(&a) == 0, "empty: all rates 0");
	is_near(frm_discrepancy_ns(NULL, 0), 0.0, 0.0, "discrepancy of nothing: 0");
	inject(f, 2, after);
	frm_account_init(&b, &hz60, 1, FRM_MODEL_DISPLAY);
	frm_account_frames(&b, f, 0, 2, NULL, NULL);
	b.longest_freeze_ns = 5;
	frm_account_sum(&a, &b);
	frm_account_sum(&a, &b);
	ok(a.frames == 4 && a.dropped == 2 && a.displayed == 2 && a.fate[FRM_FATE_SKIPPED] == 2 &&
	   a.longest_streak == 1 && a.longest_freeze_ns == 5, "sum adds counts, keeps maxima");
}

int main(void)
{
	size_t nfix = sizeof(fixtures) / sizeof(fixtures[0]);

	plan(13 + 6 * (int)nfix + 5 + 4 + 4 + 3);
	test_clock();
	for (size_t k = 0; k < nfix; k++)
		test_fixture(&fixtures[k]);
	test_telemetry_figures();
	test_jitter_is_not_jank();
	test_callback_and_strict();
	test_sum_and_empty();
	return done();
}
