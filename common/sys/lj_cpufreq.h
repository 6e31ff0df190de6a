/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_cpufreq - cpufreq governors per policy (libcpupower) and a frequency sampler. */
#ifndef LJ_CPUFREQ_H
#define LJ_CPUFREQ_H

#include <json-c/json.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct lj_setup;

/* One cpufreq policy: the CPUs that share a clock. */
struct lj_cpufreq_policy {
	int cpu;			/* first CPU of the policy */
	cpu_set_t cpus;			/* related CPUs */
	char driver[32];
	char governor[32];
	char governors[256];		/* available governors, space-separated */
	unsigned long min_khz, max_khz;	/* policy limits */
	unsigned long cur_khz;		/* 0 when unreadable */
};

/*
 * 0 when a cpufreq driver is present for some CPU of @cpus, otherwise
 * -ENODEV with @why "no cpufreq driver".
 */
int lj_cpufreq_available(const cpu_set_t *cpus, char *why, size_t len);

/*
 * The policies covering @cpus, each once, into @out (capacity @max).
 * Return: the count, or -ENODEV without a driver.
 */
int lj_cpufreq_policies(const cpu_set_t *cpus, struct lj_cpufreq_policy *out, int max);

/*
 * Set governor @gov on every policy covering @cpus, each old governor
 * recorded on @s, and read back to verify. Checked first, before any
 * change: a driver exists (-ENODEV), @gov is offered by every policy
 * (-EINVAL, "unknown governor 'x' (available: a b)"), the file is
 * writable (-EACCES). Return: number of policies changed (0 when all
 * already had @gov) or -errno with @why.
 *
 * The write goes through the setup stack's O_TRUNC writer, not
 * cpufreq_modify_policy_governor(): libcpupower reports every failure as
 * -19 and does not truncate (fake trees in tests keep stale bytes).
 */
int lj_cpufreq_set_governor(struct lj_setup *s, const cpu_set_t *cpus, const char *gov,
			    char *why, size_t len);

/*
 * The sampler: a thread (pinned to @cpu when >= 0, which should be off the
 * measured CPUs) that reads the current frequency of every CPU of @cpus
 * each @period_ns and records a sample when it changed (and the first
 * value of each CPU). Samples go into a fixed buffer allocated at start;
 * when it is full further changes are counted as dropped.
 */
struct lj_cpufreq_sample {
	int64_t t_ns;			/* CLOCK_MONOTONIC */
	int cpu;
	unsigned long khz;
};

struct lj_cpufreq_sampler;

/* Return: 0 or -errno (-ENODEV without a driver: nothing to sample). */
int lj_cpufreq_sampler_start(struct lj_cpufreq_sampler **out, const cpu_set_t *cpus,
			     int64_t period_ns, int cpu, size_t capacity);
/* Stop the thread; samples stay readable until free. */
void lj_cpufreq_sampler_stop(struct lj_cpufreq_sampler *s);
const struct lj_cpufreq_sample *lj_cpufreq_sampler_samples(const struct lj_cpufreq_sampler *s,
							   size_t *n, size_t *dropped);
/* {"period_ns", "dropped", "samples": [[t_ns, cpu, khz], ...]} (new reference). */
json_object *lj_cpufreq_sampler_json(const struct lj_cpufreq_sampler *s);
void lj_cpufreq_sampler_free(struct lj_cpufreq_sampler *s);

#endif
