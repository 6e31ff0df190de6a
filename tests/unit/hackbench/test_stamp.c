// SPDX-License-Identifier: GPL-2.0-or-later
/* test_stamp - lj-hackbench's message stamps against CLOCK_MONOTONIC: the fallback is the identity, converted ticks keep time. */
#include "../../../tools/hackbench/stamp.h"
#include "../tap.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static void sleep_ns(int64_t ns)
{
	struct timespec ts = lj_ns_to_ts(ns);

	while (nanosleep(&ts, &ts))
		;
}

/* A tick reading and the CLOCK_MONOTONIC time it was taken at (the tightest of a few bracketed tries). */
static void paired(const struct hb_tsc *c, uint64_t *ticks, int64_t *ns)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 20; i++) {
		int64_t a = lj_now_ns();
		uint64_t t = hb_tsc_now(c);
		int64_t b = lj_now_ns();

		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
}

/* How far an interval of @span_ns measured in ticks is from the clock's. */
static int64_t interval_error(const struct hb_tsc *c, int64_t span_ns)
{
	uint64_t t0, t1;
	int64_t n0, n1, err;

	paired(c, &t0, &n0);
	sleep_ns(span_ns);
	paired(c, &t1, &n1);
	err = hb_tsc_ns(c, t1 - t0) - (n1 - n0);
	return err < 0 ? -err : err;
}

int main(void)
{
	struct hb_tsc c;
	char why[64];
	int64_t a, b, t0, ns, err;
	uint64_t x;

	plan(10);
	hb_tsc_start(&c, false, why, sizeof(why));
	ok(!c.on && !strcmp(why, "not asked"), "not wanted: off, and says why");
	is_int(hb_tsc_rate(&c, why, sizeof(why)), 0, "the rate of an unused counter is no error");
	a = lj_now_ns();
	x = hb_tsc_now(&c);
	b = lj_now_ns();
	ok((int64_t)x >= a && (int64_t)x <= b, "off: a stamp is CLOCK_MONOTONIC ns");
	ok(hb_tsc_ns(&c, 12345) == 12345 && !strcmp(hb_tsc_source(&c), "CLOCK_MONOTONIC"),
	   "off: the conversion is the identity");

	hb_tsc_start(&c, true, why, sizeof(why));
	if (!c.on) {
		diag("stamps stay on CLOCK_MONOTONIC here: %s", why);
		skip(6, why);
		return done();
	}
	t0 = c.ns0;
	is_int(hb_tsc_rate(&c, why, sizeof(why)), 0, "the rate is measured");
	ok(lj_now_ns() - t0 >= HB_TSC_MIN_SPAN_NS, "...over at least its minimum span");
	diag("%.6f ns per tick (a %.0f MHz counter)", c.ns_per_tick, 1e3 / c.ns_per_tick);
	ok(c.on && c.ns_per_tick > 0.01 && c.ns_per_tick < 100 && !strcmp(hb_tsc_source(&c), "tsc"),
	   "on: a plausible rate, the source named tsc");

	/* 30 ms of ticks are 30 ms of CLOCK_MONOTONIC, within 0.1 % (a wrong rate is off by far more) */
	a = lj_now_ns();
	x = hb_tsc_now(&c);
	sleep_ns(30 * LJ_NSEC_PER_MSEC);
	ns = hb_tsc_ns(&c, hb_tsc_now(&c) - x);
	b = lj_now_ns();
	diag("a 30 ms sleep: %.3f ms in ticks, %.3f ms of clock around it", ns / 1e6, (b - a) / 1e6);
	ok(ns >= 30 * LJ_NSEC_PER_MSEC && ns <= (b - a) + 30 * LJ_NSEC_PER_USEC,
	   "a 30 ms sleep measures 30 ms in ticks");
	err = interval_error(&c, 200 * LJ_NSEC_PER_MSEC);
	diag("200 ms in ticks is %lld ns off the clock's", (long long)err);
	ok(err < 20 * LJ_NSEC_PER_USEC, "200 ms in ticks is 200 ms of CLOCK_MONOTONIC");
	err = interval_error(&c, 1000 * LJ_NSEC_PER_MSEC);
	diag("1 s in ticks is %lld ns off the clock's", (long long)err);
	ok(err < 50 * LJ_NSEC_PER_USEC, "...and 1 s is 1 s");
	return done();
}
