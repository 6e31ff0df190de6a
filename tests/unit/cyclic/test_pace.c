// SPDX-License-Identifier: GPL-2.0-or-later
/* test_pace - lj-cyclic's next-deadline rule: missed periods and the skip/burst catch-up. */
#include "../../../tools/cyclic/cyclic.h"
#include "../tap.h"

#include <string.h>

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

/* cyclictest's optional arguments also come as the next word ("-t 2", "-a 0-1"). */
static int parse(struct cyc_config *c, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	cyc_config_init(c);
	return cyc_options_parse(c, argc, argv);
}

static void test_argv(void)
{
	char *a1[] = { "lj-cyclic", "-t", "2", "-q", NULL };
	char *a2[] = { "lj-cyclic", "-a", "0-1", "--threads", "3", NULL };
	char *a3[] = { "lj-cyclic", "-t", "-p", "90", NULL };
	char *a4[] = { "lj-cyclic", "-a", "all", "-a", NULL };
	struct cyc_config c;

	is_int(parse(&c, a1), 0, "-t 2 -q parses");
	is_int(c.threads, 2, "-t N: the next word is its value");
	ok(c.quiet, "a flag after it stays a flag");
	is_int(parse(&c, a2), 0, "-a LIST --threads N parses");
	ok(c.affinity == CYC_AFF_LIST && c.threads == 3 && !strcmp(c.affinity_text, "0-1"),
	   "-a 0-1 takes the list, --threads 3 the count");
	ok(!parse(&c, a3) && c.threads == -1 && c.priority == 90,
	   "-t before an option keeps no argument (one thread per CPU)");
	ok(!parse(&c, a4) && c.affinity == CYC_AFF_EACH && !c.affinity_text,
	   "-a all, then a bare -a: every allowed CPU in turn");
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
