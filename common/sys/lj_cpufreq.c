// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_cpufreq - governors per policy through libcpupower, verified; frequency sampler thread. */
#include "lj_cpufreq.h"
#include "lj_json.h"
#include "lj_setup.h"
#include "lj_time.h"

#include <cpufreq.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu"

int lj_cpufreq_available(const cpu_set_t *cpus, char *why, size_t len)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char *drv;

		if (!CPU_ISSET(cpu, cpus))
			continue;
		drv = cpufreq_get_driver(cpu);
		if (drv) {
			cpufreq_put_driver(drv);
			return 0;
		}
	}
	if (why)
		snprintf(why, len, "no cpufreq driver");
	return -ENODEV;
}

static void fill_policy(int cpu, struct lj_cpufreq_policy *p)
{
	struct cpufreq_affected_cpus *rel, *r;
	struct cpufreq_available_governors *gov, *g;
	struct cpufreq_policy *pol;
	char *drv;
	size_t n = 0;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	CPU_SET(cpu, &p->cpus);
	rel = cpufreq_get_related_cpus(cpu);
	for (r = rel; r; r = r->next)
		if (r->cpu < CPU_SETSIZE)
			CPU_SET(r->cpu, &p->cpus);
	if (rel)
		cpufreq_put_related_cpus(rel);
	drv = cpufreq_get_driver(cpu);
	if (drv) {
		snprintf(p->driver, sizeof(p->driver), "%s", drv);
		cpufreq_put_driver(drv);
	}
	pol = cpufreq_get_policy(cpu);
	if (pol) {
		snprintf(p->governor, sizeof(p->governor), "%s", pol->governor ? pol->governor : "");
		p->min_khz = pol->min;
		p->max_khz = pol->max;
		cpufreq_put_policy(pol);
	}
	gov = cpufreq_get_available_governors(cpu);
	for (g = gov; g; g = g->next)
		n += snprintf(p->governors + n, n < sizeof(p->governors) ? sizeof(p->governors) - n : 0,
			      "%s%s", n ? " " : "", g->governor);
	if (gov)
		cpufreq_put_available_governors(gov);
	p->cur_khz = cpufreq_get_freq_kernel(cpu);
}

int lj_cpufreq_policies(const cpu_set_t *cpus, struct lj_cpufreq_policy *out, int max)
{
	cpu_set_t seen;
	int n = 0;

	CPU_ZERO(&seen);
	if (lj_cpufreq_available(cpus, NULL, 0))
		return -ENODEV;
	for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++) {
		char *drv;

		if (!CPU_ISSET(cpu, cpus) || CPU_ISSET(cpu, &seen))
			continue;
		drv = cpufreq_get_driver(cpu);
		if (!drv)
			continue;	/* this CPU has no policy (offline, no driver) */
		cpufreq_put_driver(drv);
		fill_policy(cpu, &out[n]);
		CPU_OR(&seen, &seen, &out[n].cpus);
		n++;
	}
	return n;
}

static bool offers(const char *list, const char *gov)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (!strcmp(t, gov))
			return true;
	return false;
}

#define MAX_POLICIES 256

int lj_cpufreq_set_governor(struct lj_setup *s, const cpu_set_t *cpus, const char *gov,
			    char *why, size_t len)
{
	struct lj_cpufreq_policy *pol;
	int n, changed = 0, ret = 0;

	if (!gov || !*gov || strchr(gov, '/') || strlen(gov) >= sizeof(pol->governor)) {
		snprintf(why, len, "invalid governor name '%s'", gov ? gov : "");
		return -EINVAL;
	}
	if (lj_cpufreq_available(cpus, why, len))
		return -ENODEV;
	pol = calloc(MAX_POLICIES, sizeof(*pol));
	if (!pol)
		return -ENOMEM;
	n = lj_cpufreq_policies(cpus, pol, MAX_POLICIES);
	if (n < 0) {
		ret = n;
		goto out;
	}
	/* Check every policy before changing any, so bad input changes nothing. */
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (!offers(pol[i].governors, gov)) {
			snprintf(why, len, "unknown governor '%s' for cpu%d (available: %s)",
				 gov, pol[i].cpu, pol[i].governors[0] ? pol[i].governors : "none");
			ret = -EINVAL;
			goto out;
		}
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpufreq/scaling_governor", pol[i].cpu);
		if (strcmp(pol[i].governor, gov) && access(path, W_OK)) {
			ret = -errno;
			snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
			goto out;
		}
	}
	for (int i = 0; i < n; i++) {
		struct cpufreq_policy *now;
		char path[PATH_MAX];
		bool took;

		if (!strcmp(pol[i].governor, gov))
			continue;
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpufreq/scaling_governor", pol[i].cpu);
		ret = lj_setup_write(s, path, gov);
		if (ret) {
			snprintf(why, len, "%s: %s", path,
				 lj_setup_why(s, ret));
			goto out;
		}
		/* Verify through libcpupower: a driver may refuse silently. */
		now = cpufreq_get_policy(pol[i].cpu);
		took = now && now->governor && !strcmp(now->governor, gov);
		if (now)
			cpufreq_put_policy(now);
		if (!took) {
			snprintf(why, len, "governor of cpu%d did not change to '%s'", pol[i].cpu, gov);
			ret = -EIO;
			goto out;
		}
		changed++;
	}
	ret = changed;
out:
	free(pol);
	return ret;
}

/* ---- sampler ---- */

struct lj_cpufreq_sampler {
	pthread_t thread;
	bool running;
	atomic_bool stop;
	cpu_set_t cpus;
	int pin;
	int64_t period_ns;
	struct lj_cpufreq_sample *buf;
	size_t cap, n, dropped;
	unsigned long last[CPU_SETSIZE];
};

static void *sampler_main(void *arg)
{
	struct lj_cpufreq_sampler *s = arg;
	struct timespec next;

	if (s->pin >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(s->pin, &one);
		pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&s->stop)) {
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			unsigned long khz;

			if (!CPU_ISSET(cpu, &s->cpus))
				continue;
			khz = cpufreq_get_freq_kernel(cpu);
			if (khz == s->last[cpu])
				continue;
			s->last[cpu] = khz;
			if (s->n == s->cap) {
				s->dropped++;
				continue;
			}
			s->buf[s->n].t_ns = lj_now_ns();
			s->buf[s->n].cpu = cpu;
			s->buf[s->n].khz = khz;
			s->n++;
		}
		lj_ts_add_ns(&next, s->period_ns);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return NULL;
}

int lj_cpufreq_sampler_start(struct lj_cpufreq_sampler **out, const cpu_set_t *cpus,
			     int64_t period_ns, int cpu, size_t capacity)
{
	struct lj_cpufreq_sampler *s;
	int ret;

	*out = NULL;
	if (period_ns <= 0 || !capacity)
		return -EINVAL;
	if (lj_cpufreq_available(cpus, NULL, 0))
		return -ENODEV;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->buf = calloc(capacity, sizeof(*s->buf));
	if (!s->buf) {
		free(s);
		return -ENOMEM;
	}
	s->cap = capacity;
	s->cpus = *cpus;
	s->pin = cpu;
	s->period_ns = period_ns;
	atomic_init(&s->stop, false);
	ret = -pthread_create(&s->thread, NULL, sampler_main, s);
	if (ret) {
		free(s->buf);
		free(s);
		return ret;
	}
	s->running = true;
	*out = s;
	return 0;
}

void lj_cpufreq_sampler_stop(struct lj_cpufreq_sampler *s)
{
	if (!s || !s->running)
		return;
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	s->running = false;
}

const struct lj_cpufreq_sample *lj_cpufreq_sampler_samples(const struct lj_cpufreq_sampler *s,
							   size_t *n, size_t *dropped)
{
	/* Only after stop: the thread owns the buffer while it runs. */
	*n = s && !s->running ? s->n : 0;
	if (dropped)
		*dropped = s ? s->dropped : 0;
	return s ? s->buf : NULL;
}

json_object *lj_cpufreq_sampler_json(const struct lj_cpufreq_sampler *s)
{
	json_object *o = json_object_new_object(), *arr;
	size_t n, dropped;
	const struct lj_cpufreq_sample *smp = lj_cpufreq_sampler_samples(s, &n, &dropped);

	if (!o)
		return NULL;
	arr = json_object_new_array();
	json_object_object_add(o, "period_ns", lj_json_int(s ? s->period_ns : 0));
	json_object_object_add(o, "dropped", lj_json_int((int64_t)dropped));
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_new_array();

		json_object_array_add(row, lj_json_int(smp[i].t_ns));
		json_object_array_add(row, lj_json_int(smp[i].cpu));
		json_object_array_add(row, lj_json_int((int64_t)smp[i].khz));
		json_object_array_add(arr, row);
	}
	json_object_object_add(o, "samples", arr);
	return o;
}

void lj_cpufreq_sampler_free(struct lj_cpufreq_sampler *s)
{
	if (!s)
		return;
	lj_cpufreq_sampler_stop(s);
	free(s->buf);
	free(s);
}
