/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_time - the ns time base on CLOCK_MONOTONIC and timespec arithmetic. */
#ifndef LJ_TIME_H
#define LJ_TIME_H

#include <stdint.h>
#include <time.h>

#define LJ_NSEC_PER_USEC 1000LL
#define LJ_NSEC_PER_MSEC 1000000LL
#define LJ_NSEC_PER_SEC  1000000000LL

/* Nanoseconds since boot on CLOCK_MONOTONIC: fits int64 for 292 years. */
static inline int64_t lj_ts_to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * LJ_NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct timespec lj_ns_to_ts(int64_t ns)
{
	struct timespec ts;

	ts.tv_sec = ns / LJ_NSEC_PER_SEC;
	ts.tv_nsec = ns % LJ_NSEC_PER_SEC;
	if (ts.tv_nsec < 0) {
		ts.tv_nsec += LJ_NSEC_PER_SEC;
		ts.tv_sec--;
	}
	return ts;
}

static inline int64_t lj_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return lj_ts_to_ns(&ts);
}

static inline int64_t lj_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return lj_ts_to_ns(&ts);
}

/* a - b in ns, computed per field so large tv_sec cannot overflow first. */
static inline int64_t lj_ts_diff_ns(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(a->tv_sec - b->tv_sec) * LJ_NSEC_PER_SEC +
	       (a->tv_nsec - b->tv_nsec);
}

static inline void lj_ts_add_ns(struct timespec *ts, int64_t ns)
{
	ts->tv_sec += ns / LJ_NSEC_PER_SEC;
	ts->tv_nsec += ns % LJ_NSEC_PER_SEC;
	if (ts->tv_nsec >= LJ_NSEC_PER_SEC) {
		ts->tv_nsec -= LJ_NSEC_PER_SEC;
		ts->tv_sec++;
	} else if (ts->tv_nsec < 0) {
		ts->tv_nsec += LJ_NSEC_PER_SEC;
		ts->tv_sec--;
	}
}

/* Wall-clock time as ISO 8601 UTC ("2026-11-30T02:44:26Z") into @buf (>= 21 bytes). */
static inline const char *lj_iso8601_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

#endif
