// SPDX-License-Identifier: GPL-2.0-or-later
/* test_pace - lj-cyclic's next-deadline rule: missed periods and the skip/burst catch-up. */
#include "../../../tools/cyclic/cyclic.h"
#include "../tap.h"

#define T 1000000LL	/* a 1 ms period */

static void test_on_time(void)
{
	struct cyc_pace p = { .interval_ns = T, .policy = CYC_CATCHUP_SKIP };

	is_int(cyc_pace_next(&p, 10 * T, 10 * T + 50000), 11 * T, "on time: next period");
	is_int(cyc_pace_next(&p, 11 * T, 12 * T - 1), 12 * T, "late by less than a period: next period");
	is_int(p.missed, 0, "no period missed");
}

static void test_skip(void)
{
	struct cyc_pace p = { .interval_ns = T, .policy = CYC_CATCHUP_SKIP };

	/* Woke 3.5 periods late: deadlines 11, 12, 13 passed meanwhile. */
	is_int(cyc_pace_next(&p, 10 * T, 13 * T + T / 2), 14 * T, "skip: resumes at the first future period");
	is_int(p.missed, 3, "skip: the three passed periods are counted");
	is_int(cyc_pace_next(&p, 14 * T, 15 * T), 16 * T, "late by exactly one period: that one is missed");
	is_int(p.missed, 4, "exactly one period late counts one");
}

static void test_burst(void)
{
	struct cyc_pace p = { .interval_ns = T, .policy = CYC_CATCHUP_BURST };
	int64_t next;

	next = cyc_pace_next(&p, 10 * T, 13 * T + T / 2);
	is_int(next, 11 * T, "burst: keeps the next deadline even though it passed");
	is_int(p.missed, 3, "burst: the passed periods are counted once");
	/* The thread wakes at once for 11, 12 and 13: none is counted again. */
	next = cyc_pace_next(&p, next, 13 * T + T / 2 + 1000);
	next = cyc_pace_next(&p, next, 13 * T + T / 2 + 2000);
	next = cyc_pace_next(&p, next, 13 * T + T / 2 + 3000);
	is_int(next, 14 * T, "burst: back on the grid after the passed deadlines");
	is_int(p.missed, 3, "burst: catching up does not count the same periods twice");
	/* A new late wake-up during catch-up adds only the newly passed periods. */
	next = cyc_pace_next(&p, 14 * T, 16 * T + 10);
	is_int(p.missed, 5, "burst: later passed periods are added");
	is_int(next, 15 * T, "burst: next deadline is the following period");
}

static void test_argv(void)
{
	char *in[] = { "lj-cyclic", "-t", "2", "-q", "-a", "0-1", "--threads", "3", "-t", "-p", "90", NULL };
	char **out = cyc_argv_normalise(11, in);

	is_str(out[1], "-t2", "-t N becomes -tN (cyclictest takes the next word)");
	is_str(out[2], "-q", "flags stay");
	is_str(out[3], "-a0-1", "-a LIST becomes -aLIST");
	is_str(out[4], "--threads=3", "--threads N becomes --threads=N");
	is_str(out[5], "-t", "-t before an option keeps no argument");
	is_str(out[6], "-p", "the following option is untouched");
	ok(out[8] == NULL, "argv stays NULL-terminated");
	cyc_argv_free(out, in);
}

int main(void)
{
	plan(20);
	test_on_time();
	test_skip();
	test_burst();
	test_argv();
	return done();
}
