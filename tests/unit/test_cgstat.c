// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cgstat - finding a thread's cpu group and reading its CFS throttling counters. */
#include "lj_cgstat.h"
#include "lj_cgroup.h"
#include "tap.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void test_parse_cgroup(void)
{
	char path[64];
	bool v2 = true;

	is_int(lj_cgstat_parse_cgroup("12:pids:/\n3:cpuset:/x\n2:cpu,cpuacct:/ljkit/g\n0::/user.slice\n",
				      false, &v2, path, sizeof(path)), 0, "v1: the line naming cpu among its controllers");
	ok(!v2 && !strcmp(path, "/ljkit/g"), "...its path, a v1 group");
	is_int(lj_cgstat_parse_cgroup("4:cpuacct:/a\n1:cpu:/b\n", false, &v2, path, sizeof(path)), 0,
	       "v1: cpuacct alone is not cpu");
	ok(!strcmp(path, "/b"), "...the cpu line's path");
	is_int(lj_cgstat_parse_cgroup("0::/system.slice/x.service\n", true, &v2, path, sizeof(path)), 0,
	       "v2 with the cpu controller: the unified line");
	ok(v2 && !strcmp(path, "/system.slice/x.service"), "...its path, a v2 group");
	is_int(lj_cgstat_parse_cgroup("0::/a\n", false, &v2, path, sizeof(path)), -ENOENT,
	       "v2 without the cpu controller: none");
	is_int(lj_cgstat_parse_cgroup("1:cpu:/a-long-group-name\n", false, &v2, path, 8), -ENAMETOOLONG,
	       "a path longer than the buffer is refused");
}

static void test_parse_stat(void)
{
	uint64_t nr = 0, ns = 0;

	is_int(lj_cgstat_parse_stat("nr_periods 40\nnr_throttled 9\nthrottled_time 812345678\nnr_bursts 0\n", &nr, &ns), 0,
	       "v1 cpu.stat");
	ok(nr == 9 && ns == 812345678, "...nr_throttled and throttled_time in ns");
	is_int(lj_cgstat_parse_stat("usage_usec 1\nnr_periods 4\nnr_throttled 3\nthrottled_usec 2500\n", &nr, &ns), 0,
	       "v2 cpu.stat");
	ok(nr == 3 && ns == 2500000, "...throttled_usec in ns");
	is_int(lj_cgstat_parse_stat("usage_usec 1\nuser_usec 1\n", &nr, &ns), -EINVAL,
	       "v2 without a quota controller's counters: refused");
}

static void test_read_self(void)
{
	struct lj_cgroup_mounts m;
	struct lj_cgstat st;

	if (lj_cgroup_discover(&m) || (!m.v1_cpu[0] && !m.v2_cpu)) {
		skip(2, "no cpu cgroup controller here");
		return;
	}
	is_int(lj_cgstat_read(0, &st), 0, "this thread's cpu group's counters are read");
	ok(st.known && st.group[0] == '/', "...known, with its group");
}

int main(void)
{
	plan_no_plan();
	test_parse_cgroup();
	test_parse_stat();
	test_read_self();
	return done();
}
