// SPDX-License-Identifier: GPL-2.0-or-later
/* test_instr - the instruments' own cost against their limits, on injected figures (docs/validity.md). */
#include <string.h>

#include "lj_instr.h"
#include "tap.h"

#define MS 1000000ULL

int main(void)
{
	struct lj_instr_cost c = { .name = "explain", .what = "--explain's recorder (tracefs)",
				   .cpu_ns = 20 * MS, .threaded = true, .apart = true };
	char text[256] = "";

	plan_no_plan();
	/* 20 ms of 1 s: 2.0 %, at the limit, not over it. */
	ok(!lj_instr_suspect(&c, 1000 * MS, text, sizeof(text)), "2.0% of the run off the measured CPUs: valid");
	c.cpu_ns = 21 * MS;
	ok(lj_instr_suspect(&c, 1000 * MS, text, sizeof(text)), "2.1%: suspect");
	is_str(text, "--explain's recorder (tracefs) used 2.1% of the run's time (21.0 ms of CPU over 1.00 s, "
	       "off the measured CPUs; limit 2%)", "the reason names the instrument and its cost");
	c.apart = false;
	c.cpu_ns = 11 * MS;
	ok(lj_instr_suspect(&c, 1000 * MS, text, sizeof(text)), "1.1% on the measured CPUs: suspect (limit 1%)");
	ok(strstr(text, "on the measured CPUs; limit 1%") != NULL, "the reason says where it ran and the limit");
	c.cpu_ns = 10 * MS;
	ok(!lj_instr_suspect(&c, 1000 * MS, NULL, 0), "1.0% there: valid");
	ok(!lj_instr_suspect(&c, 0, NULL, 0), "no span: nothing judged");
	c.threaded = false;
	c.cpu_ns = 0;
	ok(!lj_instr_suspect(&c, 1000 * MS, NULL, 0), "no thread, no cost: valid");
	is_int((int)(lj_instr_limit(&c) * 1000), 20, "without a thread the limit is the general 2%");
	ok(lj_instr_share(&c, 0) == 0.0, "a share over nothing is 0");

	/* lj-frame: 1.69 ms per frame of 16.67 ms (the sweep of issue 26): 10.1 %. */
	ok(lj_instr_emulator_suspect(1690000.0, 16666667, text, sizeof(text)), "1.69 ms of a 60 Hz frame: suspect");
	is_str(text, "lj-frame's own overhead was 10.1% of the frame period (1690 us per frame of 16.67 ms; limit 5%)",
	       "the reason gives the overhead and the period");
	ok(!lj_instr_emulator_suspect(833333.0, 16666667, NULL, 0), "5.0%: valid");
	ok(lj_instr_emulator_suspect(833334.0, 16666667, NULL, 0), "just over 5%: suspect");
	ok(!lj_instr_emulator_suspect(1e9, 0, NULL, 0), "no period: nothing judged");
	return done();
}
