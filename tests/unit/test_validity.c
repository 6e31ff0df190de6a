// SPDX-License-Identifier: GPL-2.0-or-later
/* test_validity - the validity checks' logic on given readings (no system access). */
#include "lj_validity.h"
#include "lj_sysinfo.h"
#include "lj_virt.h"
#include "tap.h"

#include <string.h>

static void test_levels(void)
{
	struct lj_validity v;

	lj_validity_init(&v);
	is_str(lj_validity_name(v.verdict), "valid", "a fresh verdict is valid");
	lj_validity_check_sched(&v, 42, "fifo", 80, "fifo", 80, true);
	lj_validity_check_counts(&v, 0, 0, 1000);
	lj_validity_check_cut_short(&v, 1000, 1000);
	lj_validity_check_clocksource(&v, "tsc", "tsc");
	lj_validity_check_load(&v, "0-1", 50, 40, 0, 1000);
	lj_validity_check_kmsg(&v, "usb 1-1: new high-speed USB device");
	is_int(v.n, 0, "nothing wrong: no reasons");
	is_str(lj_validity_name(v.verdict), "valid", "...and valid");

	lj_validity_check_counts(&v, 3, 0, 1000);
	is_str(lj_validity_name(v.verdict), "suspect", "a missed period is suspect");
	is_str(v.r[0].text, "3 missed periods of 1000 samples", "...with the count");
	lj_validity_check_sched(&v, 42, "fifo", 80, "fifo", 10, true);
	is_str(lj_validity_name(v.verdict), "invalid", "a priority changed behind the run's back is invalid");
	is_str(v.r[1].text, "thread 42 ran fifo 10, asked fifo 80", "...naming the thread and both settings");
	lj_validity_check_counts(&v, 0, 2, 1000);
	is_str(lj_validity_name(v.verdict), "invalid", "a later suspect reason does not lower the verdict");

	lj_validity_init(&v);
	lj_validity_check_sched_load(&v, 43, "fifo", 50, "fifo", 50, true);
	is_int(v.n, 0, "a load thread running what was asked: no reason");
	lj_validity_check_sched_load(&v, 43, "fifo", 50, "other", 0, false);
	is_str(lj_validity_name(v.verdict), "suspect", "a load thread running another policy is suspect, not invalid");
	is_str(v.r[0].text, "load thread 43 ran other 0, asked fifo 50", "...naming the load thread and both settings");
	is_str(v.r[0].what, "sched", "...as a sched reason");
}

static void test_checks(void)
{
	struct lj_validity v;

	lj_validity_init(&v);
	lj_validity_check_cut_short(&v, 2000, 500);
	ok(v.verdict == LJ_SUSPECT && strstr(v.r[0].text, "run cut short: 500 of 2000 samples measured (25.0%)"), "a run cut short is suspect");
	lj_validity_init(&v);
	lj_validity_check_clocksource(&v, "tsc", "hpet");
	ok(v.verdict == LJ_INVALID && !strcmp(v.r[0].text, "clock source changed: tsc -> hpet"),
	   "a clock source change is invalid");
	lj_validity_init(&v);
	lj_validity_check_clocksource(&v, "", "hpet");
	is_int(v.n, 0, "an unknown clock source is not judged");
	lj_validity_init(&v);
	lj_validity_check_virt(&v, lj_virt_hypervisor_name("TCGTCGTCGTCG"));
	ok(v.verdict == LJ_INVALID && !strcmp(v.r[0].what, "tcg") && strstr(v.r[0].text, "QEMU TCG guest"),
	   "QEMU's TCG signature: invalid for timing");
	lj_validity_init(&v);
	lj_validity_check_virt(&v, lj_virt_hypervisor_name("KVMKVMKVM"));
	lj_validity_check_virt(&v, NULL);
	is_int(v.n, 0, "a KVM guest or bare metal: not judged here");
	/* 1000 ticks of two CPUs: 300 busy, 150 of them the tool's own: 15% outside > 10% */
	lj_validity_init(&v);
	lj_validity_check_load(&v, "0-1", 300, 150, 0, 1000);
	ok(v.verdict == LJ_SUSPECT && !strcmp(v.r[0].text, "CPU 0-1 15% busy with other work (limit 10%)"),
	   "15% outside load is suspect");
	lj_validity_init(&v);
	lj_validity_check_load(&v, "0", 100, 10, 0, 1000);
	is_int(v.n, 0, "9% outside load is not");
	lj_validity_check_load(&v, "0", 30, 0, 30, 1000);
	ok(v.verdict == LJ_SUSPECT && !strcmp(v.r[0].what, "steal"), "3% steal is suspect");
	lj_validity_init(&v);
	lj_validity_check_kmsg(&v, "sched: RT throttling activated");
	ok(v.verdict == LJ_SUSPECT && !strcmp(v.r[0].what, "rt-throttling"), "RT throttling in the kernel log: suspect");
	lj_validity_check_kmsg(&v, "clocksource: timekeeping watchdog on CPU1: Marking clocksource 'tsc' as unstable");
	is_int(v.verdict, LJ_INVALID, "an unstable clock source in the kernel log: invalid");
}

static void test_freq(void)
{
	struct lj_validity v;

	lj_validity_init(&v);
	lj_validity_check_freq(&v, 0, 0, 0, 0);
	lj_validity_check_freq(&v, 2400000, 2400000, 2300000, 2400000);
	is_int(v.n, 0, "no cpufreq, or a 4% move: not judged / fine");
	lj_validity_check_freq(&v, 2400000, 2400000, 1800000, 2400000);
	ok(v.verdict == LJ_SUSPECT && !strcmp(v.r[0].text, "CPU frequency 2400-2400 MHz at the start, 1800-2400 MHz at the end"),
	   "a frequency that fell 25% during the run is suspect");
}

static void test_overflowing_reasons(void)
{
	struct lj_validity v;

	lj_validity_init(&v);
	for (int i = 0; i < LJ_VALIDITY_MAX_REASONS + 3; i++)
		lj_validity_add(&v, LJ_SUSPECT, "x", "reason %d", i);
	lj_validity_add(&v, LJ_INVALID, "y", "the worst, beyond the array");
	is_int(v.n, LJ_VALIDITY_MAX_REASONS, "the reasons array is bounded");
	is_int(v.more, 4, "...the others are counted");
	is_int(v.verdict, LJ_INVALID, "...and still set the verdict");
}

static void test_parse(void)
{
	uint64_t busy, steal, total, ticks;
	int cpu;

	is_int(lj_validity_parse_cpu_line("cpu1 47977 3 14328 36832 186 7 205 500 0 0\n", &cpu, &busy, &steal, &total),
	       0, "a cpuN line parses");
	ok(cpu == 1 && busy == 47977 + 3 + 14328 + 7 + 205 + 500 && steal == 500 &&
	   total == busy + 36832 + 186, "busy = user nice system irq softirq steal; total adds idle and iowait");
	is_int(lj_validity_parse_cpu_line("cpu  97048 0 27768 73330 549 0 290 1030 0 0", &cpu, &busy, &steal, &total),
	       0, "the total line parses");
	is_int(cpu, -1, "...as cpu -1");
	is_int(lj_validity_parse_cpu_line("intr 123 4 5", &cpu, &busy, &steal, &total), -22, "other lines do not");
	is_int(lj_validity_parse_proc_stat("28165 (lj cyc) lj) S 1 2 3 4 5 6 7 8 9 10 111 222 30 4 20 0", &ticks), 0,
	       "a /proc/PID/stat line with ') ' in its comm parses");
	is_int(ticks, 367, "utime + stime + cutime + cstime");
}

static void test_cfs_throttle(void)
{
	struct lj_validity v;

	lj_validity_init(&v);
	lj_validity_check_cfs_throttle(&v, "/g", 7, 1000000, 7, 1000000);
	is_int(v.n, 0, "cfs: no new throttled period, nothing said");
	lj_validity_check_cfs_throttle(&v, "/a/b", 7, 1000000, 12, 46500000);
	ok(v.verdict == LJ_SUSPECT && !strcmp(v.r[0].what, "cfs-throttling") &&
	   !strcmp(v.r[0].text, "cgroup /a/b throttled 5 times (45.5 ms) by its CPU bandwidth quota"),
	   "cfs: 5 more throttled periods, 45.5 ms more throttled: suspect, with both");
}

int main(void)
{
	plan_no_plan();
	test_levels();
	test_checks();
	test_freq();
	test_cfs_throttle();
	test_overflowing_reasons();
	test_parse();
	return done();
}
