/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stamp.h - lj-hackbench's message stamps: the counter CLOCK_MONOTONIC is built on, read directly. */
#ifndef HB_STAMP_H
#define HB_STAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lj_time.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define HB_TSC_ARCH 1
#else
#define HB_TSC_ARCH 0
#endif

/*
 * A message carries two stamps, and clock_gettime wraps the counter it
 * reads in an ordering fence and a sequence retry: 36 ns a read on the
 * development VM against 21 ns for the bare counter (scripts/bench-stamp),
 * on a message of about 400 ns. So where the kernel's clocksource is the
 * TSC (the kernel has found it synchronised across CPUs and constant in
 * rate), a stamp is the raw counter, and a difference of two stamps
 * becomes ns with a rate measured against CLOCK_MONOTONIC before the
 * workers start. Otherwise stamps are CLOCK_MONOTONIC ns and the
 * conversions are the identity. The struct is read-only once hb_tsc_rate
 * returned: forked workers use their copy.
 */
struct hb_tsc {
	bool on;			/* stamps are TSC ticks; false: CLOCK_MONOTONIC ns */
	uint64_t t0;			/* where the rate's span began: a tick reading paired with ns0 */
	int64_t ns0;
	double ns_per_tick;		/* 1 when off */
};

/* The rate is measured over at least this span (the rest slept): pairing error / span < 1e-5. */
#define HB_TSC_MIN_SPAN_NS (10 * LJ_NSEC_PER_MSEC)

/*
 * Begin: use the counter when @want and the kernel's clocksource is "tsc"
 * on x86-64; otherwise stamps are CLOCK_MONOTONIC and @why (if not NULL)
 * says why not.
 */
void hb_tsc_start(struct hb_tsc *c, bool want, char *why, size_t why_len);
/* Finish the rate, sleeping until HB_TSC_MIN_SPAN_NS after hb_tsc_start. 0, or -errno with @why (off again). */
int hb_tsc_rate(struct hb_tsc *c, char *why, size_t why_len);

static inline uint64_t hb_tsc_now(const struct hb_tsc *c)
{
#if HB_TSC_ARCH
	if (c->on)
		return __rdtsc();
#else
	(void)c;
#endif
	return (uint64_t)lj_now_ns();
}

/* The length in ns of @ticks (a difference of two stamps). */
static inline int64_t hb_tsc_ns(const struct hb_tsc *c, uint64_t ticks)
{
	return c->on ? (int64_t)((double)ticks * c->ns_per_tick) : (int64_t)ticks;
}

/* "tsc" or "CLOCK_MONOTONIC": what the stamps were read from, for the result. */
static inline const char *hb_tsc_source(const struct hb_tsc *c)
{
	return c->on ? "tsc" : "CLOCK_MONOTONIC";
}

#endif
