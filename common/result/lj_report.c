// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_report - human output: rt-tests-compatible status lines. */
#include "lj_report.h"

#include <inttypes.h>

/*
 * The field widths are rt-tests' (cyclictest's print_stat, signaltest's
 * print_stat): parsers written for those tools split on them, so they are
 * part of the interface. Wider numbers push the line right, as there.
 */
int lj_report_rt_format(char *buf, size_t len, const struct lj_report_line *l)
{
	int aw = l->nsecs ? 8 : 5;
	char ifield[32] = "";

	if (l->interval >= 0)
		snprintf(ifield, sizeof(ifield), "I:%ld ", l->interval);
	return snprintf(buf, len,
			"T:%2d (%5d) P:%2d %sC:%7" PRIu64 " Min:%7ld Act:%*ld Avg:%*ld Max:%8ld",
			l->thread, (int)l->tid, l->prio, ifield, l->cycles, l->min,
			aw, l->act, aw, l->avg, l->max);
}

void lj_report_rt_line(FILE *out, const struct lj_report_line *l)
{
	char buf[256];

	lj_report_rt_format(buf, sizeof(buf), l);
	fprintf(out, "%s\n", buf);
}
