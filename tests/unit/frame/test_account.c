// SPDX-License-Identifier: GPL-2.0-or-later
/* test_account - lj-frame's accounting core and pipeline simulator on injected schedules. */
#include "../../../tools/frame/account.h"
#include "../tap.h"

#include "lj_hist.h"

#define P 16666667LL		/* a 60 Hz period, rounded as lj-frame rounds it */
#define MS 1000000LL
#define N 60

struct sched {
	int64_t base[FRM_MAX_STAGES];	/* every frame's work per stage */
	int64_t frame;			/* the frame that overruns, or -1 */
	int stage;
	int64_t overrun;		/* its work instead of base */
};

static int64_t sched_work(void *arg, uint64_t frame, int stage)
{
	const struct sched *s = arg;

	if ((int64_t)frame == s->frame && stage == s->stage)
		return s->overrun;
	return s->base[stage];
}

/* Account a simulated schedule: vsync i at i * P. */
static void account_sim(struct frm_account *a, int nstages, int latency, struct sched *s)
{
	int64_t present[N];

	frm_simulate(nstages, P, latency, N, sched_work, s, present);
	frm_account_init(a, P, latency);
	for (int i = 0; i < N; i++)
		frm_account_add(a, i * P, present[i]);
}

static void test_no_overrun(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 1);
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i * P + 5 * MS);
	is_int(a.frames, N, "no overrun: every vsync is a frame");
	is_int(a.dropped, 0, "no overrun: nothing dropped");
	is_int(a.longest_streak, 0, "no overrun: no streak");
	is_near(frm_fps(&a), 1e9 / P, 1e-9, "no overrun: fps is the refresh rate");
	is_int(a.intervals, N - 1, "no overrun: N-1 intervals between shown frames");
	is_near(frm_percentage_smooth(&a), 100.0, 1e-9, "no overrun: 100% smooth");
}

static void test_one_overrun(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 1);
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i * P + (i == 10 ? P + 2 * MS : 5 * MS));
	is_int(a.dropped, 1, "one overrun: one frame dropped");
	is_int(a.late, 1, "one overrun: it was presented, late");
	is_int(a.longest_streak, 1, "one overrun: streak of one");
	is_near(frm_drop_rate(&a), 1.0 / N, 1e-12, "one overrun: drop rate 1/N");
	is_near(frm_fps(&a), (N - 1) * 1e9 / (N * (double)P), 1e-9, "one overrun: fps loses one frame");
	/* 59 shown frames, 58 intervals, the one spanning the drop is 2P. */
	is_int(a.intervals, N - 2, "one overrun: intervals between shown frames");
	is_int(a.smooth, N - 3, "one overrun: the interval across the drop is not smooth");
}

static void test_streak(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 1);
	for (int i = 0; i < N; i++) {
		bool gone = (i >= 20 && i < 25) || (i >= 40 && i < 42);

		frm_account_add(&a, i * P, gone ? FRM_NOT_PRESENTED : i * P + MS);
	}
	is_int(a.dropped, 7, "streaks: 5 + 2 frames dropped");
	is_int(a.presented, N - 7, "streaks: never-presented frames are not presented");
	is_int(a.longest_streak, 5, "streaks: the longest run is 5");
	is_int(a.streak, 0, "streaks: run ended by an on-time frame");
}

static void test_deadline_boundary(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 2);
	ok(frm_account_add(&a, 0, 2 * P), "present exactly at the deadline is on time");
	ok(!frm_account_add(&a, P, 3 * P + 1), "1 ns past the deadline is dropped");
	frm_account_init(&a, P, 1);
	frm_account_add(&a, 0, MS);
	frm_account_add(&a, P, MS + P + FRM_STEADY_SLACK_NS);
	frm_account_add(&a, 2 * P, MS + 2 * P + 2 * FRM_STEADY_SLACK_NS + 1);
	is_int(a.steady, 1, "present interval of P + 1 ms is steady, 1 ns more is not");
	frm_account_add(&a, 3 * P, MS + 3 * P + FRM_STEADY_SLACK_NS + 1);
	is_int(a.steady, 2, "present interval of P - 1 ms is steady too");
	is_int(a.smooth, 3, "...and every display interval is one period: smooth");
}

static void test_display_vsync(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 2);
	is_int(frm_display_vsync(&a, 5 * P, 5 * P), 6 * P, "a frame done at its own vsync is shown at the next");
	is_int(frm_display_vsync(&a, 5 * P, 5 * P + 1), 6 * P, "done inside its period: the next vsync");
	is_int(frm_display_vsync(&a, 5 * P, 6 * P), 6 * P, "done exactly at a vsync: that vsync");
	is_int(frm_display_vsync(&a, 5 * P, 6 * P + 1), 7 * P, "1 ns later: the vsync after");
}

/* Completion jitter of 12 ms inside each period: the display still changes every vsync. */
static void test_jitter_is_not_jank(void)
{
	struct lj_hist *h = lj_hist_new();
	struct frm_account a;

	frm_account_init(&a, P, 1);
	a.jitter = h;
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i * P + (i % 2 ? 14 * MS : 2 * MS));
	is_int(a.dropped, 0, "jitter: nothing dropped");
	is_int(a.displayed, N, "jitter: every frame displayed");
	is_int(a.replaced, 0, "jitter: none replaced");
	is_int(a.intervals, N - 1, "jitter: N-1 display intervals");
	is_near(frm_percentage_smooth(&a), 100.0, 1e-9, "jitter: 100% smooth, as the display shows it");
	is_int(a.present_intervals, N - 1, "jitter: N-1 present intervals");
	is_near(frm_percentage_steady(&a), 0.0, 0.0, "jitter: presents P +- 12 ms apart: 0% steady");
	ok(h && lj_hist_count(h) == N - 1, "jitter: one |interval - P| per present interval");
	ok(h && lj_hist_min(h) == 12 * MS && lj_hist_max(h) == 12 * MS, "jitter: each is 12 ms");
	lj_hist_free(h);
}

/* A drop among jittered frames: only the display interval across it is not smooth. */
static void test_drop_with_jitter(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 1);
	for (int i = 0; i < N; i++) {
		int64_t at = i * P + (i % 3 ? 3 * MS : 15 * MS);

		frm_account_add(&a, i * P, i == 30 ? FRM_NOT_PRESENTED : at);
	}
	is_int(a.dropped, 1, "drop with jitter: one dropped");
	is_int(a.intervals, N - 2, "drop with jitter: N-2 display intervals");
	is_int(a.smooth, N - 3, "drop with jitter: the 2P interval across the drop is not smooth");
}

/* Two frames of latency: every frame done in its second period is shown at i + 2. */
static void test_latency2_steady(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 2);
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i * P + P + (i % 2 ? P - MS : MS));
	is_int(a.dropped, 0, "latency 2: frames done in their second period are on time");
	is_int(a.displayed, N, "latency 2: all displayed, at vsync i + 2");
	is_near(frm_percentage_smooth(&a), 100.0, 1e-9, "latency 2: 100% smooth despite 14 ms jitter");
	frm_account_init(&a, P, 2);
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i == 10 ? FRM_NOT_PRESENTED : i * P + P + P / 2);
	is_int(a.intervals, N - 2, "latency 2, one drop: N-2 display intervals");
	is_int(a.smooth, N - 3, "latency 2, one drop: the interval across it is not smooth");
}

/*
 * Two frames of latency, frames alternately slow (1.5P) and quick (0.6P):
 * odd frame 2m+1 and even frame 2m+2 both make vsync 2m+3; the later
 * completed (the even one) is shown, so the display changes every other
 * vsync although no frame missed its deadline.
 */
static void test_latency2_replaced(void)
{
	struct frm_account a;

	frm_account_init(&a, P, 2);
	for (int i = 0; i < N; i++)
		frm_account_add(&a, i * P, i * P + (i % 2 ? P + P / 2 : P * 6 / 10));
	is_int(a.dropped, 0, "latency 2, alternating: nothing dropped");
	is_int(a.replaced, N / 2 - 1, "latency 2, alternating: each slow frame but the last is replaced");
	is_int(a.displayed, N / 2 + 1, "latency 2, alternating: vsyncs 1, 3, ..., N + 1 show a new frame");
	is_int(a.intervals, N / 2, "latency 2, alternating: display intervals");
	is_near(frm_percentage_smooth(&a), 0.0, 0.0, "latency 2, alternating: every interval 2P: 0% smooth");
	is_near(frm_fps(&a), 1e9 / P, 1e-9, "latency 2, alternating: fps still counts on-time frames");
}

static void test_sim_light(void)
{
	struct sched s = { .base = { 3 * MS, 3 * MS }, .frame = -1 };
	struct frm_account a;
	int64_t present[4];

	account_sim(&a, 2, 1, &s);
	is_int(a.dropped, 0, "sim: 2 stages of 3 ms drop nothing");
	frm_simulate(2, P, 1, 4, sched_work, &s, present);
	is_int(present[3], 3 * P + 6 * MS, "sim: present = vsync + the stages' work");
}

static void test_sim_injected_overrun(void)
{
	struct sched s = { .base = { 2 * MS, 2 * MS }, .frame = 5, .stage = 1, .overrun = 2 * P };
	struct frm_account a;

	account_sim(&a, 2, 1, &s);
	/* Frame 5 is presented late; stage 1 is busy past frame 6's deadline: abandoned. */
	is_int(a.dropped, 2, "sim overrun: the long frame and the one it blocked");
	is_int(a.late, 1, "sim overrun: one late, one never presented");
	is_int(a.longest_streak, 2, "sim overrun: streak of two");
}

static void test_sim_work_longer_than_period(void)
{
	struct sched s = { .base = { P + P / 2 }, .frame = -1 };
	struct frm_account a;

	account_sim(&a, 1, 1, &s);
	is_int(a.dropped, N, "work 1.5 periods: every frame dropped");
	is_int(a.longest_streak, N, "work 1.5 periods: one streak of all frames");
	is_near(frm_fps(&a), 0.0, 0.0, "work 1.5 periods: 0 fps");
	is_near(frm_percentage_smooth(&a), 0.0, 0.0, "work 1.5 periods: 0% smooth");
}

static void test_sim_pipelining(void)
{
	struct sched s = { .base = { P * 8 / 10, P * 8 / 10 }, .frame = -1 };
	struct frm_account a;

	account_sim(&a, 2, 2, &s);
	is_int(a.dropped, 0, "two 0.8P stages hold the rate with 2 frames of latency");
	is_near(frm_percentage_smooth(&a), 100.0, 1e-9, "...and the display is 100% smooth");
	account_sim(&a, 2, 1, &s);
	is_int(a.dropped, N, "...and drop every frame with 1 frame of latency");
}

static void test_sum_and_empty(void)
{
	struct frm_account a, b;

	frm_account_init(&a, P, 1);
	is_near(frm_drop_rate(&a), 0.0, 0.0, "empty: drop rate 0");
	is_near(frm_percentage_smooth(&a), 0.0, 0.0, "empty: smooth 0");
	frm_account_init(&b, P, 1);
	frm_account_add(&b, 0, FRM_NOT_PRESENTED);
	frm_account_add(&b, P, FRM_NOT_PRESENTED);
	frm_account_add(&a, 0, MS);
	frm_account_add(&a, P, P + MS);
	frm_account_sum(&a, &b);
	ok(a.frames == 4 && a.dropped == 2 && a.longest_streak == 2, "sum adds counts, keeps the longest streak");
	ok(a.displayed == 2 && a.intervals == 1 && a.smooth == 1 && a.present_intervals == 1 &&
	   a.steady == 1, "sum keeps the display and present counts");
	b.displayed = 1;
	b.replaced = 1;
	b.intervals = 2;
	b.smooth = 1;
	b.present_intervals = 3;
	b.steady = 2;
	frm_account_sum(&a, &b);
	ok(a.displayed == 3 && a.replaced == 1 && a.intervals == 3 && a.smooth == 2 &&
	   a.present_intervals == 4 && a.steady == 3, "sum adds the display and present counts");
	is_near(frm_percentage_steady(&b), 200.0 / 3.0, 1e-9, "percentage_steady is steady / present intervals");
}

int main(void)
{
	plan(67);
	test_no_overrun();
	test_one_overrun();
	test_streak();
	test_deadline_boundary();
	test_display_vsync();
	test_jitter_is_not_jank();
	test_drop_with_jitter();
	test_latency2_steady();
	test_latency2_replaced();
	test_sim_light();
	test_sim_injected_overrun();
	test_sim_work_longer_than_period();
	test_sim_pipelining();
	test_sum_and_empty();
	return done();
}
