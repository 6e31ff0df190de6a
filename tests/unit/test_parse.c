// SPDX-License-Identifier: GPL-2.0-or-later
/* test_parse - strict parsers: numbers, durations, sizes, booleans, CPU lists. */
#include <errno.h>
#include <stdint.h>

#include "lj_parse.h"
#include "lj_time.h"
#include "tap.h"

/* The @why of the last failing call, for checking that a phrase names the problem. */
static char why[256];

static int has(const char *s, const char *needle)
{
	return s && strstr(s, needle) != NULL;
}

static void test_integers(void)
{
	int64_t i = 0;
	uint64_t u = 0;
	int n = 0;
	double d = 0;

	ok(!lj_parse_i64("-42", -100, 100, &i, why, sizeof(why)) && i == -42, "i64 negative value");
	ok(!lj_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &i, why, sizeof(why)) &&
	   i == INT64_MAX, "i64 maximum");
	ok(!lj_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &i, why, sizeof(why)) &&
	   i == INT64_MIN, "i64 minimum");
	is_int(lj_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &i, why, sizeof(why)),
	       -ERANGE, "i64 overflow by one is rejected");
	is_int(lj_parse_i64("99999999999999999999999", INT64_MIN, INT64_MAX, &i, why, sizeof(why)),
	       -ERANGE, "i64 huge overflow is rejected");
	ok(has(why, "out of range"), "overflow says out of range");
	is_int(lj_parse_i64("101", -100, 100, &i, why, sizeof(why)), -ERANGE, "i64 above max");
	is_int(lj_parse_i64("", 0, 10, &i, why, sizeof(why)), -EINVAL, "empty text is rejected");
	ok(has(why, "empty"), "empty text says empty");
	is_int(lj_parse_i64(" 1", 0, 10, &i, why, sizeof(why)), -EINVAL, "leading space is rejected");
	is_int(lj_parse_i64("1 ", 0, 10, &i, why, sizeof(why)), -EINVAL, "trailing space is rejected");
	ok(has(why, "white space"), "trailing space is named");
	is_int(lj_parse_i64("1a", 0, 10, &i, why, sizeof(why)), -EINVAL, "trailing junk is rejected");
	ok(has(why, "trailing characters"), "trailing junk is named");
	is_int(lj_parse_i64("-", -10, 10, &i, why, sizeof(why)), -EINVAL, "lone sign is rejected");
	is_int(lj_parse_i64("0x10", 0, 100, &i, why, sizeof(why)), -EINVAL, "hex is not decimal");

	ok(!lj_parse_u64("18446744073709551615", 0, UINT64_MAX, &u, why, sizeof(why)) &&
	   u == UINT64_MAX, "u64 maximum");
	is_int(lj_parse_u64("18446744073709551616", 0, UINT64_MAX, &u, why, sizeof(why)), -ERANGE,
	       "u64 overflow by one is rejected");
	is_int(lj_parse_u64("-1", 0, UINT64_MAX, &u, why, sizeof(why)), -ERANGE,
	       "negative for unsigned is rejected");
	ok(has(why, "negative"), "negative unsigned is named");
	is_int(lj_parse_u64("4", 5, 9, &u, why, sizeof(why)), -ERANGE, "u64 below min");

	ok(!lj_parse_int("99", 1, 99, &n, why, sizeof(why)) && n == 99, "int at max");
	is_int(lj_parse_int("0", 1, 99, &n, why, sizeof(why)), -ERANGE, "int below min");
	is_int(lj_parse_int("2147483648", INT32_MIN, INT32_MAX, &n, why, sizeof(why)), -ERANGE,
	       "int beyond INT_MAX");

	ok(!lj_parse_double("1.25", 0, 2, &d, why, sizeof(why)) && d == 1.25, "double");
	ok(!lj_parse_double(".5", 0, 2, &d, why, sizeof(why)) && d == 0.5, "double without leading digit");
	is_int(lj_parse_double("nan", 0, 2, &d, why, sizeof(why)), -EINVAL, "nan is rejected");
	is_int(lj_parse_double("inf", 0, 1e300, &d, why, sizeof(why)), -EINVAL, "inf is rejected");
	is_int(lj_parse_double("1e999", 0, 1e300, &d, why, sizeof(why)), -ERANGE, "double overflow");
	is_int(lj_parse_double("2.5", 0, 2, &d, why, sizeof(why)), -ERANGE, "double above max");
	is_int(lj_parse_double("1.5x", 0, 2, &d, why, sizeof(why)), -EINVAL, "double trailing junk");
	is_int(lj_parse_double("0x1p3", 0, 100, &d, why, sizeof(why)), -EINVAL, "hex float is rejected");
}

static void test_durations(void)
{
	int64_t ns = 0;

	ok(!lj_parse_duration_ns("1000", LJ_NSEC_PER_USEC, &ns, why, sizeof(why)) && ns == 1000000,
	   "bare number uses the default unit (us)");
	ok(!lj_parse_duration_ns("10", LJ_NSEC_PER_SEC, &ns, why, sizeof(why)) && ns == 10000000000LL,
	   "bare number uses the default unit (s)");
	ok(!lj_parse_duration_ns("250ns", LJ_NSEC_PER_SEC, &ns, why, sizeof(why)) && ns == 250, "ns");
	ok(!lj_parse_duration_ns("3us", 1, &ns, why, sizeof(why)) && ns == 3000, "us");
	ok(!lj_parse_duration_ns("1.5ms", 1, &ns, why, sizeof(why)) && ns == 1500000, "fractional ms");
	ok(!lj_parse_duration_ns("0.1s", 1, &ns, why, sizeof(why)) && ns == 100000000,
	   "0.1s is exact, no float rounding");
	ok(!lj_parse_duration_ns("2m", 1, &ns, why, sizeof(why)) && ns == 120 * LJ_NSEC_PER_SEC, "minutes");
	ok(!lj_parse_duration_ns("1h", 1, &ns, why, sizeof(why)) && ns == 3600 * LJ_NSEC_PER_SEC, "hours");
	ok(!lj_parse_duration_ns("1d", 1, &ns, why, sizeof(why)) && ns == 86400 * LJ_NSEC_PER_SEC, "days");
	ok(!lj_parse_duration_ns("1.5", LJ_NSEC_PER_SEC, &ns, why, sizeof(why)) && ns == 1500000000,
	   "fractional bare number");
	ok(!lj_parse_duration_ns("0", LJ_NSEC_PER_USEC, &ns, why, sizeof(why)) && ns == 0, "zero");
	is_int(lj_parse_duration_ns("10q", LJ_NSEC_PER_USEC, &ns, why, sizeof(why)), -EINVAL,
	       "unknown unit is rejected");
	ok(has(why, "unknown unit"), "unknown unit is named");
	is_int(lj_parse_duration_ns("-1ms", 1, &ns, why, sizeof(why)), -ERANGE, "negative duration");
	is_int(lj_parse_duration_ns("ms", 1, &ns, why, sizeof(why)), -EINVAL, "unit without number");
	is_int(lj_parse_duration_ns("1.ms", 1, &ns, why, sizeof(why)), -EINVAL, "dot without digits");
	is_int(lj_parse_duration_ns("1 ms", 1, &ns, why, sizeof(why)), -EINVAL, "space before unit");
	is_int(lj_parse_duration_ns("1ms ", 1, &ns, why, sizeof(why)), -EINVAL, "trailing space");
	is_int(lj_parse_duration_ns("", 1, &ns, why, sizeof(why)), -EINVAL, "empty duration");
	is_int(lj_parse_duration_ns("107000d", 1, &ns, why, sizeof(why)), -ERANGE,
	       "duration beyond int64 ns is rejected");
	ok(!lj_parse_duration_ns("9223372036854775807ns", 1, &ns, why, sizeof(why)) && ns == INT64_MAX,
	   "largest duration");
}

static void test_sizes_bools(void)
{
	uint64_t sz = 0;
	bool b = false;

	ok(!lj_parse_size("4096", &sz, why, sizeof(why)) && sz == 4096, "plain size");
	ok(!lj_parse_size("8K", &sz, why, sizeof(why)) && sz == 8192, "K is 1024");
	ok(!lj_parse_size("2M", &sz, why, sizeof(why)) && sz == 2 << 20, "M");
	ok(!lj_parse_size("1GiB", &sz, why, sizeof(why)) && sz == 1ULL << 30, "GiB");
	is_int(lj_parse_size("1X", &sz, why, sizeof(why)), -EINVAL, "unknown size unit");
	is_int(lj_parse_size("-1K", &sz, why, sizeof(why)), -ERANGE, "negative size");
	is_int(lj_parse_size("17179869184G", &sz, why, sizeof(why)), -ERANGE, "size overflow");

	ok(!lj_parse_bool("on", &b, why, sizeof(why)) && b, "on");
	ok(!lj_parse_bool("No", &b, why, sizeof(why)) && !b, "No (case-insensitive)");
	ok(!lj_parse_bool("1", &b, why, sizeof(why)) && b, "1");
	is_int(lj_parse_bool("maybe", &b, why, sizeof(why)), -EINVAL, "maybe is not a boolean");
	is_int(lj_parse_bool("", &b, why, sizeof(why)), -EINVAL, "empty boolean");
}

static void test_cpulists(void)
{
	static const char *const bad[] = {
		"3-1", "0-", "1a", "", "1,,2", " 1", "1 ", ",1", "1,", "-1",
		"1-2-3", "2,1", "0-3,2", "a", "1,2 ", "99999999999999999999",
	};
	cpu_set_t set;
	char buf[64];
	size_t i;

	ok(!lj_parse_cpulist("0-3,6", &set, 0, why, sizeof(why)) && CPU_COUNT(&set) == 5 &&
	   CPU_ISSET(0, &set) && CPU_ISSET(3, &set) && !CPU_ISSET(4, &set) &&
	   CPU_ISSET(6, &set), "0-3,6");
	ok(!lj_parse_cpulist("5", &set, 8, why, sizeof(why)) && CPU_COUNT(&set) == 1, "single CPU");
	ok(!lj_parse_cpulist("2-2", &set, 8, why, sizeof(why)) && CPU_COUNT(&set) == 1, "one-CPU range");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[64];

		why[0] = '\0';
		snprintf(name, sizeof(name), "'%s' is rejected with a reason", bad[i]);
		ok(lj_parse_cpulist(bad[i], &set, 0, why, sizeof(why)) < 0 && why[0], name);
	}
	lj_parse_cpulist("3-1", &set, 0, why, sizeof(why));
	is_str(why, "reversed range 3-1", "reversed range is named");
	lj_parse_cpulist("0-", &set, 0, why, sizeof(why));
	ok(has(why, "open range"), "open range is named");
	lj_parse_cpulist("1,,2", &set, 0, why, sizeof(why));
	ok(has(why, "empty element"), "empty element is named");
	is_int(lj_parse_cpulist("8", &set, 8, why, sizeof(why)), -ERANGE, "CPU at max_cpus is rejected");
	is_str(why, "CPU 8 beyond the limit of 8 CPUs", "limit is named");
	is_int(lj_parse_cpulist("1024", &set, 0, why, sizeof(why)), -ERANGE, "CPU_SETSIZE is the default limit");

	CPU_ZERO(&set);
	is_str(lj_cpulist_format(&set, buf, sizeof(buf)), "", "empty set formats as ''");
	lj_parse_cpulist("0-3,6,8-9,11", &set, 0, why, sizeof(why));
	is_str(lj_cpulist_format(&set, buf, sizeof(buf)), "0-3,6,8-9,11", "format round trip");
	lj_parse_cpulist("0,2,4,6,8,10,12,14", &set, 0, why, sizeof(why));
	is_str(lj_cpulist_format(&set, buf, 8), "0,2,...", "truncation is marked");
}

static void test_lists(void)
{
	int64_t v[4];
	int n;

	n = 4;
	ok(!lj_parse_i64_list("4,2,8", 1, 10, v, &n, why, sizeof(why)) && n == 3 && v[0] == 4 &&
	   v[2] == 8, "int list");
	n = 4;
	ok(!lj_parse_duration_list("2ms,500", LJ_NSEC_PER_USEC, v, &n, why, sizeof(why)) && n == 2 &&
	   v[0] == 2000000 && v[1] == 500000, "duration list with default unit");
	n = 2;
	is_int(lj_parse_i64_list("1,2,3", 0, 9, v, &n, why, sizeof(why)), -ERANGE, "list beyond capacity");
	n = 4;
	is_int(lj_parse_i64_list("1,,3", 0, 9, v, &n, why, sizeof(why)), -EINVAL, "empty list element");
	n = 4;
	is_int(lj_parse_i64_list("1,", 0, 9, v, &n, why, sizeof(why)), -EINVAL, "trailing comma");
	n = 4;
	is_int(lj_parse_duration_list("1ms,2q", 1, v, &n, why, sizeof(why)), -EINVAL, "bad element");
	ok(has(why, "unknown unit"), "bad element's reason comes through");
}

/* The caller's buffer: optional, never overrun, left alone on success. */
static void test_why_buffer(void)
{
	char small[8];
	int64_t i = 0;

	is_int(lj_parse_i64("1a", 0, 10, &i, NULL, 0), -EINVAL, "no buffer: the error alone");
	is_int(lj_parse_i64("1a", 0, 10, &i, small, sizeof(small)), -EINVAL, "a short buffer");
	is_str(small, "trailin", "the phrase is cut to the buffer, NUL-terminated");
	snprintf(why, sizeof(why), "kept");
	ok(!lj_parse_i64("7", 0, 10, &i, why, sizeof(why)) && i == 7, "a valid number");
	is_str(why, "kept", "success leaves the buffer as it was");
}

/* A mount option list: whole options only, to the end, a comma or the line's end. */
static void test_mount_options(void)
{
	const char *android = "rw,cpuset,noprefix,release_agent=/sbin/cpuset_release_agent\n";

	ok(lj_opts_has(android, "cpuset") && lj_opts_has(android, "noprefix"), "Android's cpuset options found");
	ok(lj_opts_has("rw,cpu,cpuacct", "cpuacct") && lj_opts_has("rw,cpu,cpuacct", "rw"), "the last and the first");
	ok(!lj_opts_has("rw,cpu,cpuacct", "cpus") && !lj_opts_has("rw,cpuset", "cpu"), "not a prefix or a longer one");
	ok(!lj_opts_has(android, "cpuset_release_agent") && !lj_opts_has(android, "sbin"), "not inside a value");
	ok(lj_opts_has("rw,noprefix 0 0", "noprefix") && !lj_opts_has("rw noprefix", "noprefix"),
	   "the list ends at a space");
	ok(!lj_opts_has("", "rw") && !lj_opts_has(",,", "rw"), "an empty list, empty options");
}

int main(void)
{
	plan_no_plan();
	test_mount_options();
	test_integers();
	test_durations();
	test_sizes_bools();
	test_cpulists();
	test_lists();
	test_why_buffer();
	return done();
}
