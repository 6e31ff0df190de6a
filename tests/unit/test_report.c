// SPDX-License-Identifier: GPL-2.0-or-later
/* test_report - rt-tests status lines have cyclictest's and signaltest's field widths. */
#include "lj_report.h"
#include "tap.h"

static const char *fmt(const struct lj_report_line *l)
{
	static char buf[256];

	lj_report_rt_format(buf, sizeof(buf), l);
	return buf;
}

int main(void)
{
	struct lj_report_line l = {
		.thread = 0, .tid = 2240, .prio = 0, .interval = 1000, .cycles = 50000,
		.min = 46, .act = 228, .avg = 226, .max = 5693,
	};
	char big[8];
	FILE *f;
	char line[256];

	plan(7);
	is_str(fmt(&l), "T: 0 ( 2240) P: 0 I:1000 C:  50000 Min:     46 Act:  228 Avg:  226 Max:    5693",
	       "cyclictest line in us");
	l.nsecs = true;
	l.min = 12382; l.act = 14732; l.avg = 19415; l.max = 61921;
	l.prio = 90;
	is_str(fmt(&l), "T: 0 ( 2240) P:90 I:1000 C:  50000 Min:  12382 Act:   14732 Avg:   19415 Max:   61921",
	       "-N widens Act and Avg to 8");
	l = (struct lj_report_line){ .thread = 1, .tid = 8757, .interval = -1, .cycles = 100,
				     .min = 39, .act = 62, .avg = 766, .max = 10292 };
	is_str(fmt(&l), "T: 1 ( 8757) P: 0 C:    100 Min:     39 Act:   62 Avg:  766 Max:   10292",
	       "negative interval gives the signaltest line");
	l.thread = 12; l.tid = 1234567; l.cycles = 123456789;
	is_str(fmt(&l), "T:12 (1234567) P: 0 C:123456789 Min:     39 Act:   62 Avg:  766 Max:   10292",
	       "wide values push the line right, as rt-tests does");
	is_int(lj_report_rt_format(big, sizeof(big), &l), 76, "format returns the full length when truncated");
	is_int((int)strlen(big), 7, "truncated output is terminated");

	f = tmpfile();
	lj_report_rt_line(f, &l);
	rewind(f);
	ok(fgets(line, sizeof(line), f) && !strcmp(line, "T:12 (1234567) P: 0 C:123456789 Min:     39 Act:   62 Avg:  766 Max:   10292\n"),
	   "rt_line writes the line and a newline");
	fclose(f);
	return done();
}
