/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_validity - is a run's result to be trusted: the verdict, its reasons and the pure checks. */
#ifndef LJ_VALIDITY_H
#define LJ_VALIDITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * valid: nothing seen that spoils the numbers. suspect: the numbers were
 * measured, but under conditions that may have moved them (a fallback, a
 * missed period, other load on the measured CPUs). invalid: the run did
 * not measure what it says (a measuring thread ran with another policy or
 * priority than asked, the clock source changed under it).
 */
enum lj_validity_level { LJ_VALID, LJ_SUSPECT, LJ_INVALID };

#define LJ_VALIDITY_MAX_REASONS 16

struct lj_validity_reason {
	enum lj_validity_level level;
	char what[24];		/* "sched", "fallback", "missed", "load", ... */
	char text[200];
};

struct lj_validity {
	enum lj_validity_level verdict;		/* the worst reason's level */
	int n;
	int more;				/* reasons beyond the array (still counted in verdict) */
	struct lj_validity_reason r[LJ_VALIDITY_MAX_REASONS];
};

void lj_validity_init(struct lj_validity *v);
/* "valid", "suspect", "invalid". */
const char *lj_validity_name(enum lj_validity_level l);
/* Add a reason; the verdict becomes the worst level seen. */
void lj_validity_add(struct lj_validity *v, enum lj_validity_level l, const char *what,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A measuring thread's policy and priority read back against what was
 * asked (lj_policy values, or any int pair the caller uses consistently):
 * a difference is invalid. @names gives the policies' names for the text.
 */
void lj_validity_check_sched(struct lj_validity *v, int tid, const char *asked_name, int asked_prio,
			     const char *got_name, int got_prio, bool same_policy);
/*
 * The same for a load thread beside the measurement (lj-frame's
 * background): the numbers were measured, under another load than asked,
 * so a difference is suspect ("load thread N ran other 0, asked fifo 50").
 */
void lj_validity_check_sched_load(struct lj_validity *v, int tid, const char *asked_name,
				  int asked_prio, const char *got_name, int got_prio, bool same_policy);

/* Missed periods and histogram overflows (of @samples): any is suspect. */
void lj_validity_check_counts(struct lj_validity *v, uint64_t missed, uint64_t overflows,
			      uint64_t samples);

/* Samples expected (loops asked, or duration / interval) against measured: fewer is suspect. */
void lj_validity_check_cut_short(struct lj_validity *v, uint64_t expected, uint64_t got);

/* The clock source before and after: a change is invalid. Empty strings: unknown, no check. */
void lj_validity_check_clocksource(struct lj_validity *v, const char *before, const char *after);

/*
 * The machine measured on (lj_virt_detect's name): in a QEMU TCG guest
 * (CPUID signature TCGTCGTCGTCG) every instruction is emulated, so its
 * latencies say nothing about the kernel: invalid. A KVM guest is not
 * judged here (the host figures are measured in one): its note is
 * lj-compare's.
 */
#define LJ_VALIDITY_TCG "QEMU TCG"
void lj_validity_check_virt(struct lj_validity *v, const char *hypervisor);

/*
 * Other work on the measured CPUs: @busy_ticks of the CPUs' /proc/stat
 * time (user, nice, system, irq, softirq, steal) during the run, less
 * @own_ticks of this process, over @total_ticks (all states) of the same
 * CPUs. Above LJ_VALIDITY_OUTSIDE_LOAD it is suspect; so is steal above
 * LJ_VALIDITY_STEAL (a hypervisor running others on the vCPUs).
 */
#define LJ_VALIDITY_OUTSIDE_LOAD 0.10
#define LJ_VALIDITY_STEAL 0.02
void lj_validity_check_load(struct lj_validity *v, const char *cpus, uint64_t busy_ticks,
			    uint64_t own_ticks, uint64_t steal_ticks, uint64_t total_ticks);

/*
 * The cpu cgroup the run's threads were in ran out of its CFS bandwidth
 * quota (cpu.cfs_quota_us / cpu.max) between the two readings of its
 * cpu.stat counters: its SCHED_OTHER tasks waited for the next period.
 */
void lj_validity_check_cfs_throttle(struct lj_validity *v, const char *group, uint64_t nr0,
				    uint64_t ns0, uint64_t nr1, uint64_t ns1);

/*
 * The measured CPUs' frequency range (kHz, scaling_cur_freq) at the start
 * and at the end: a bound that moved by more than LJ_VALIDITY_FREQ_CHANGE
 * is suspect (the governor changed the speed the run measured at). 0:
 * unknown (no cpufreq driver), no check.
 */
#define LJ_VALIDITY_FREQ_CHANGE 0.05
void lj_validity_check_freq(struct lj_validity *v, unsigned long lo0, unsigned long hi0,
			    unsigned long lo1, unsigned long hi1);

/*
 * Kernel log lines seen during the run: "RT throttling activated" is
 * suspect (RT tasks were stopped for the rest of a period), a clock source
 * marked unstable or switched is invalid. Other lines: no effect.
 */
void lj_validity_check_kmsg(struct lj_validity *v, const char *line);

/*
 * One "cpuN user nice system idle iowait irq softirq steal ..." line of
 * /proc/stat. Return: 0 (cpu >= 0; -1 for the "cpu" total line), or
 * -EINVAL when it is not a CPU line.
 */
int lj_validity_parse_cpu_line(const char *line, int *cpu, uint64_t *busy, uint64_t *steal,
			       uint64_t *total);

/*
 * utime + stime + cutime + cstime (fields 14-17: the process and its reaped
 * children) of a /proc/PID/stat line, whose comm may hold spaces.
 */
int lj_validity_parse_proc_stat(const char *line, uint64_t *ticks);

#endif
