// SPDX-License-Identifier: GPL-2.0-or-later
/* test_pmqos - /dev/cpu_dma_latency hold, cpuidle state limits on a fake tree, restored after. */
#include "lj_pmqos.h"
#include "lj_setup.h"
#include "tap.h"
#include "../fixtures/fake_sysfs.h"

#include <errno.h>
#include <string.h>

#define ST(c, s) FAKE_CPU_DIR "/cpu" #c "/cpuidle/state" #s "/disable"

static void test_dma_latency(void)
{
	int fd;

	is_int(lj_pmqos_dma_latency_hold(-1), -EINVAL, "a negative latency is refused");
	if (geteuid()) {
		skip(1, "/dev/cpu_dma_latency needs root");
		return;
	}
	fd = lj_pmqos_dma_latency_hold(0);
	if (fd == -ENOENT) {
		skip(1, "no /dev/cpu_dma_latency");
		return;
	}
	ok(fd >= 0, "a 0 us request is held by an open fd");
	lj_pmqos_dma_latency_release(fd);
}

static void test_idle(const char *dir)
{
	struct lj_setup *s;
	cpu_set_t all;
	char why[256] = "", path[1200];

	CPU_ZERO(&all);
	CPU_SET(0, &all);
	CPU_SET(1, &all);
	if (fake_sysfs_mount(dir, "percpu")) {
		skip(11, "cannot mount the fake tree");
		return;
	}
	is_int(lj_pmqos_idle_states(0), 3, "three idle states on cpu0");
	lj_setup_new(&s, NULL);
	is_int(lj_pmqos_idle_limit(s, &all, -1, why, sizeof(why)), -EINVAL, "a negative limit is refused");
	is_int(lj_pmqos_idle_limit(s, &all, 5, why, sizeof(why)), 0, "a limit above the deepest changes nothing");
	is_int(lj_pmqos_idle_limit(s, &all, 0, why, sizeof(why)), 3,
	       "limit 0: states 1-2 of cpu0 and 1 of cpu1 (its 2 was off already)");
	ok(!strcmp(fake_sysfs_get(ST(0, 1)), "1\n") && !strcmp(fake_sysfs_get(ST(0, 2)), "1\n") &&
	   !strcmp(fake_sysfs_get(ST(1, 1)), "1\n"), "the disable files say 1");
	is_str(fake_sysfs_get(ST(0, 0)), "0\n", "state0 stays enabled");
	is_int(lj_setup_depth(s), 3, "three old values recorded");
	lj_setup_undo(s, NULL, NULL);
	ok(!strcmp(fake_sysfs_get(ST(0, 1)), "0\n") && !strcmp(fake_sysfs_get(ST(0, 2)), "0\n") &&
	   !strcmp(fake_sysfs_get(ST(1, 1)), "0\n"), "undo enables them again");
	is_str(fake_sysfs_get(ST(1, 2)), "1\n", "a state disabled before stays disabled");
	lj_setup_free(s);

	snprintf(path, sizeof(path), "rm -rf '%s/cpuidle' '%s/cpu0/cpuidle' '%s/cpu1/cpuidle'", dir, dir, dir);
	if (system(path)) {
		skip(2, "cannot remove cpuidle from the fake tree");
		return;
	}
	is_int(lj_pmqos_idle_states(0), -ENODEV, "no cpuidle: -ENODEV");
	lj_setup_new(&s, NULL);
	is_int(lj_pmqos_idle_limit(s, &all, 0, why, sizeof(why)), -ENODEV, "no cpuidle: the limit cannot apply");
	lj_setup_free(s);
}

int main(void)
{
	struct fake_sysfs_tmp tmp;
	const char *why;

	if (fake_sysfs_tmp_make(&tmp, "ljpq"))
		skip_all("cannot create a temporary directory");

	plan(13);
	test_dma_latency();
	why = fake_sysfs_enter();
	if (why)
		skip(11, why);
	else
		test_idle(tmp.cpu);

	fake_sysfs_tmp_remove(&tmp);
	return done();
}
