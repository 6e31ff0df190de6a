// SPDX-License-Identifier: GPL-2.0-or-later
/* stamp.c - choosing the TSC for stamps and measuring its rate against CLOCK_MONOTONIC. */
#include "stamp.h"

#include <errno.h>
#include <string.h>

#include "lj_clocksource.h"
#include "lj_why.h"

#define PAIR_TRIES 7

#if HB_TSC_ARCH
/*
 * A tick reading and the CLOCK_MONOTONIC time it was taken at: the
 * middle of the tightest of a few bracketing pairs of clock reads (a
 * pair the host interrupted is wide and loses).
 */
static void pair(uint64_t *ticks, int64_t *ns)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < PAIR_TRIES; i++) {
		int64_t a = lj_now_ns();
		uint64_t t = __rdtsc();
		int64_t b = lj_now_ns();

		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
}
#endif

void hb_tsc_start(struct hb_tsc *c, bool want, char *why, size_t why_len)
{
	char src[32];

	memset(c, 0, sizeof(*c));
	c->ns_per_tick = 1;
	if (!want) {
		lj_why(why, why_len, "not asked");
		return;
	}
	if (!HB_TSC_ARCH) {
		lj_why(why, why_len, "no TSC on this architecture");
		return;
	}
	lj_clocksource(src, sizeof(src));
	if (strcmp(src, "tsc")) {
		lj_why(why, why_len, "%s", src[0] ? "the kernel's clocksource is not the TSC" :
		       "the kernel's clocksource is unknown");
		return;
	}
#if HB_TSC_ARCH
	pair(&c->t0, &c->ns0);
	c->on = true;
#endif
}

int hb_tsc_rate(struct hb_tsc *c, char *why, size_t why_len)
{
#if HB_TSC_ARCH
	uint64_t t1;
	int64_t ns1, left;

	if (!c->on)
		return 0;
	left = c->ns0 + HB_TSC_MIN_SPAN_NS - lj_now_ns();
	if (left > 0) {
		struct timespec ts = lj_ns_to_ts(left);

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	pair(&t1, &ns1);
	if (t1 <= c->t0 || ns1 <= c->ns0) {
		c->on = false;
		c->ns_per_tick = 1;
		return lj_why_err(why, why_len, -EINVAL, "the TSC did not advance with the clock");
	}
	c->ns_per_tick = (double)(ns1 - c->ns0) / (double)(t1 - c->t0);
#else
	(void)c;
	(void)why;
	(void)why_len;
#endif
	return 0;
}
