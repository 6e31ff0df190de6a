// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_parse - the strict number, duration, size, boolean and CPU-list
 * parsers (lj_parse) on any text. Beyond "no crash, no UB": what a parser
 * accepts is within the range it was given, and a CPU list it accepts
 * formats back into a list that parses to the same set.
 */
#include "fuzz.h"
#include "lj_parse.h"
#include "lj_time.h"

#include <errno.h>
#include <math.h>

static void numbers(const char *s)
{
	char why[256] = "";
	int64_t i64;
	uint64_t u64;
	double d;
	int i;
	bool b;

	if (!lj_parse_i64(s, -1000, 1000, &i64, why, sizeof(why)))
		fuzz_assert(i64 >= -1000 && i64 <= 1000);
	lj_parse_i64(s, INT64_MIN, INT64_MAX, &i64, why, sizeof(why));
	if (!lj_parse_u64(s, 5, 50, &u64, why, sizeof(why)))
		fuzz_assert(u64 >= 5 && u64 <= 50);
	lj_parse_u64(s, 0, UINT64_MAX, &u64, why, sizeof(why));
	if (!lj_parse_int(s, 1, 99, &i, why, sizeof(why)))
		fuzz_assert(i >= 1 && i <= 99);
	if (!lj_parse_double(s, -1.5, 1e9, &d, why, sizeof(why)))
		fuzz_assert(d >= -1.5 && d <= 1e9 && !isnan(d));
	lj_parse_size(s, &u64, why, sizeof(why));
	lj_parse_bool(s, &b, why, sizeof(why));
}

static void durations(const char *s)
{
	static const int64_t units[] = { 1, LJ_NSEC_PER_USEC, LJ_NSEC_PER_MSEC, LJ_NSEC_PER_SEC };
	int64_t ns, list[8];
	char why[256] = "";
	int n;

	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		if (!lj_parse_duration_ns(s, units[u], &ns, why, sizeof(why)))
			fuzz_assert(ns >= 0);
		n = 8;
		if (!lj_parse_duration_list(s, units[u], list, &n, why, sizeof(why)))
			fuzz_assert(n >= 1 && n <= 8);
	}
	n = 8;
	if (!lj_parse_i64_list(s, 0, 100, list, &n, why, sizeof(why))) {
		fuzz_assert(n >= 1 && n <= 8);
		for (int k = 0; k < n; k++)
			fuzz_assert(list[k] >= 0 && list[k] <= 100);
	}
}

static void cpulists(const char *s)
{
	char text[CPU_SETSIZE * 6];
	cpu_set_t set, again;
	char why[256] = "";

	if (!lj_parse_cpulist(s, &set, 64, why, sizeof(why))) {
		for (int c = 64; c < CPU_SETSIZE; c++)
			fuzz_assert(!CPU_ISSET(c, &set));
	}
	if (lj_parse_cpulist(s, &set, 0, why, sizeof(why)))
		return;
	lj_cpulist_format(&set, text, sizeof(text));
	if (CPU_COUNT(&set)) {
		fuzz_assert(!lj_parse_cpulist(text, &again, 0, why, sizeof(why)));
		fuzz_assert(CPU_EQUAL(&set, &again));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);

	if (!s)
		return 0;
	numbers(s);
	durations(s);
	cpulists(s);
	free(s);
	return 0;
}
