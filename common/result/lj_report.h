/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_report - human output: rt-tests-compatible lines, tables, progress on stderr. */
#ifndef LJ_REPORT_H
#define LJ_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * One rt-tests status line, as cyclictest and signaltest print it:
 *   T: 0 ( 2240) P: 0 I:1000 C:  50000 Min:     46 Act:  228 Avg:  226 Max:    5693
 * interval < 0 omits the I: field (signaltest). Values are in the unit
 * the tool prints (us, or ns with -N). @nsecs selects cyclictest's -N
 * layout, whose Act: and Avg: fields are 8 wide instead of 5; it is the
 * last member so that existing initialisers leave it false.
 */
struct lj_report_line {
	int thread;
	pid_t tid;
	int prio;
	long interval;		/* < 0: no I: field */
	uint64_t cycles;
	long min, act, avg, max;
	bool nsecs;
};

void lj_report_rt_line(FILE *out, const struct lj_report_line *l);

/*
 * The same line, without the newline, into @buf. Returns what snprintf
 * returns (the length the full line needs), so a caller can build a whole
 * screen and write it at once.
 */
int lj_report_rt_format(char *buf, size_t len, const struct lj_report_line *l);

#endif
