// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cpufreq - policies, governor changes and the sampler on fake cpufreq trees of several shapes. */
#include "lj_cpufreq.h"
#include "lj_setup.h"
#include "tap.h"
#include "../fixtures/fake_sysfs.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define P0 FAKE_CPU_DIR "/cpufreq/policy0/"
#define P1 FAKE_CPU_DIR "/cpufreq/policy1/"

static cpu_set_t all, cpu1;

static void test_percpu(const char *dir)
{
	struct lj_cpufreq_policy pol[8];
	struct lj_cpufreq_sampler *smp;
	const struct lj_cpufreq_sample *sm;
	struct lj_setup *s;
	char why[256] = "";
	size_t n, dropped;
	bool saw_change = false;

	if (fake_sysfs_mount(dir, "percpu")) {
		skip(16, "cannot mount the percpu fake tree");
		return;
	}
	is_int(lj_cpufreq_available(&all, why, sizeof(why)), 0, "percpu: a driver is found");
	is_int(lj_cpufreq_policies(&all, pol, 8), 2, "percpu: one policy per CPU");
	is_str(pol[0].governor, "schedutil", "governor read through libcpupower");
	is_str(pol[0].driver, "fake-cpufreq", "driver name");
	is_str(pol[1].governors, "performance powersave schedutil", "available governors");
	ok(pol[0].min_khz == 800000 && pol[0].max_khz == 3000000 && pol[0].cur_khz == 1200000,
	   "limits and current frequency");

	lj_setup_new(&s, NULL);
	is_int(lj_cpufreq_set_governor(s, &all, "ondemand", why, sizeof(why)), -EINVAL,
	       "a governor no policy offers is refused");
	ok(strstr(why, "available: performance powersave schedutil") != NULL, "...naming the available ones");
	is_str(fake_sysfs_get(P0 "scaling_governor"), "schedutil\n", "...and nothing changed");
	is_int(lj_cpufreq_set_governor(s, &all, "performance", why, sizeof(why)), 2, "performance set on two policies");
	ok(!strcmp(fake_sysfs_get(P0 "scaling_governor"), "performance\n") &&
	   !strcmp(fake_sysfs_get(P1 "scaling_governor"), "performance\n"), "both files say performance");
	is_int(lj_cpufreq_set_governor(s, &all, "performance", why, sizeof(why)), 0, "setting it again changes nothing");
	lj_setup_undo(s, NULL, NULL);
	ok(!strcmp(fake_sysfs_get(P0 "scaling_governor"), "schedutil\n") &&
	   !strcmp(fake_sysfs_get(P1 "scaling_governor"), "schedutil\n"), "undo restores schedutil byte for byte");
	lj_setup_free(s);

	/*
	 * The sampler must read cpu0 before the change and again after it. A
	 * loaded machine (or a sanitizer build) can keep its thread off the CPU
	 * for the whole wait: then try again with ten times the wait.
	 */
	for (long wait_ns = 20000000; ; wait_ns *= 10) {
		fake_sysfs_put(P0 "scaling_cur_freq", "1200000\n");
		if (lj_cpufreq_sampler_start(&smp, &all, 1000000, -1, 64)) {
			skip(3, "sampler did not start");
			return;
		}
		nanosleep(&(struct timespec){ wait_ns / 1000000000, wait_ns % 1000000000 }, NULL);
		fake_sysfs_put(P0 "scaling_cur_freq", "2400000\n");
		nanosleep(&(struct timespec){ wait_ns / 1000000000, wait_ns % 1000000000 }, NULL);
		lj_cpufreq_sampler_stop(smp);
		sm = lj_cpufreq_sampler_samples(smp, &n, &dropped);
		for (size_t i = 1; i < n; i++)
			if (sm[i].cpu == 0 && sm[i].khz == 2400000 && sm[i].t_ns > sm[0].t_ns)
				saw_change = true;
		if ((n >= 3 && saw_change) || wait_ns >= 2000000000)
			break;
		diag("sampler: %zu samples within %ld ms waits, change %sseen; waiting longer",
		     n, wait_ns / 1000000, saw_change ? "" : "not ");
		lj_cpufreq_sampler_free(smp);
		saw_change = false;
	}
	ok(n >= 3, "sampler: the first value of each CPU and the change");
	ok(saw_change, "sampler: cpu0's change to 2.4 GHz recorded later than the start");
	{
		json_object *j = lj_cpufreq_sampler_json(smp), *arr;

		ok(json_object_object_get_ex(j, "samples", &arr) && json_object_array_length(arr) == n,
		   "sampler JSON holds every sample");
		json_object_put(j);
	}
	lj_cpufreq_sampler_free(smp);
}

static void test_shared(const char *dir)
{
	struct lj_cpufreq_policy pol[8];
	struct lj_setup *s;
	char why[256];

	if (fake_sysfs_mount(dir, "shared")) {
		skip(3, "cannot mount the shared fake tree");
		return;
	}
	is_int(lj_cpufreq_policies(&all, pol, 8), 1, "shared: one policy covers every CPU");
	ok(CPU_COUNT(&pol[0].cpus) == CPU_COUNT(&all), "shared: its related CPUs are all CPUs");
	lj_setup_new(&s, NULL);
	is_int(lj_cpufreq_set_governor(s, &cpu1, "powersave", why, sizeof(why)), 1,
	       "shared: setting cpu1 changes the one policy");
	lj_setup_free(s);
}

static void test_biglittle(const char *dir)
{
	struct lj_cpufreq_policy pol[8];
	struct lj_setup *s;
	char why[256] = "";

	if (fake_sysfs_mount(dir, "biglittle")) {
		skip(6, "cannot mount the biglittle fake tree");
		return;
	}
	is_int(lj_cpufreq_policies(&all, pol, 8), 2, "big/little: two policies");
	ok(!strcmp(pol[0].governor, "powersave") && !strcmp(pol[1].governor, "performance"),
	   "big/little: different governors per policy");
	lj_setup_new(&s, NULL);
	is_int(lj_cpufreq_set_governor(s, &all, "performance", why, sizeof(why)), -EINVAL,
	       "big/little: a governor the little policy lacks is refused for all");
	is_str(fake_sysfs_get(P0 "scaling_governor"), "powersave\n", "...before anything changed");
	is_int(lj_cpufreq_set_governor(s, &cpu1, "performance", why, sizeof(why)), 0,
	       "big/little: cpu1 already has it");
	is_int(lj_cpufreq_set_governor(s, &all, "schedutil", why, sizeof(why)), 2,
	       "big/little: a governor both offer is set on both");
	lj_setup_free(s);
}

static void test_nodriver(const char *dir)
{
	struct lj_cpufreq_sampler *smp;
	struct lj_setup *s;
	char why[256] = "";

	if (fake_sysfs_mount(dir, "nodriver")) {
		skip(4, "cannot mount the nodriver fake tree");
		return;
	}
	is_int(lj_cpufreq_available(&all, why, sizeof(why)), -ENODEV, "no driver: -ENODEV");
	is_str(why, "no cpufreq driver", "...saying so");
	lj_setup_new(&s, NULL);
	is_int(lj_cpufreq_set_governor(s, &all, "performance", why, sizeof(why)), -ENODEV,
	       "no driver: a governor cannot be set");
	is_int(lj_cpufreq_sampler_start(&smp, &all, 1000000, -1, 8), -ENODEV, "no driver: no sampler");
	lj_setup_free(s);
}

int main(void)
{
	struct fake_sysfs_tmp tmp;
	const char *why;

	if (fake_sysfs_tmp_make(&tmp, "ljcf"))
		skip_all("cannot create a temporary directory");
	why = fake_sysfs_enter();
	if (why) {
		rmdir(tmp.dir);
		skip_all(why);
	}
	CPU_ZERO(&all);
	CPU_SET(0, &all);
	CPU_SET(1, &all);
	CPU_ZERO(&cpu1);
	CPU_SET(1, &cpu1);

	plan(29);
	test_percpu(tmp.cpu);
	test_shared(tmp.cpu);
	test_biglittle(tmp.cpu);
	test_nodriver(tmp.cpu);

	fake_sysfs_tmp_remove(&tmp);
	return done();
}
