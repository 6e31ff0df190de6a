// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_powersample - the first and last power snapshots of a run and a sleeping sampler thread between them. */
#include "lj_powersample.h"
#include "lj_cpus.h"
#include "lj_powerread.h"
#include "lj_time.h"

#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct lj_pw_sampler {
	char root[256];
	uint64_t interval_ns;
	struct lj_pw_snap *first, *prev, *cur;
	struct lj_pw_accum acc;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	cpu_set_t avoid;
	bool threaded, stopping, stopped;
	bool paused;			/* lj_pw_sampler_pause: the thread waits, reading nothing */
	struct lj_pw_series *series;	/* NULL: not asked */
	struct lj_pw_cost cost;		/* what it cost: thread_ns written by the thread before it ends */
};

static bool worth_sampling(const struct lj_pw_sampler *s)
{
	const struct lj_pw_snap *f = s->first;

	return f->npol || f->nsrc || f->nzone || (s->series && f->ncpu && f->have[LJ_PWO_CPUIDLE]);
}

static void series_free(struct lj_pw_series *se)
{
	if (!se)
		return;
	free(se->t_ns);
	free(se->khz);
	free(se->idle_us);
	free(se);
}

/* Room for @max readings of the first snapshot's policies and CPUs; NULL when out of memory. */
static struct lj_pw_series *series_new(const struct lj_pw_snap *first, size_t max)
{
	struct lj_pw_series *se = calloc(1, sizeof(*se));

	if (!se)
		return NULL;
	se->max = max;
	se->npol = first->npol;
	se->ncpu = first->ncpu;
	se->t_ns = calloc(max, sizeof(*se->t_ns));
	se->khz = calloc(max * (size_t)(se->npol ? se->npol : 1), sizeof(*se->khz));
	se->idle_us = calloc(max * (size_t)(se->ncpu ? se->ncpu : 1), sizeof(*se->idle_us));
	if (!se->t_ns || !se->khz || !se->idle_us) {
		series_free(se);
		return NULL;
	}
	return se;
}

/* Keep reading @r in the series (same machine as the first snapshot: same columns). */
static void series_add(struct lj_pw_series *se, const struct lj_pw_snap *r)
{
	size_t k;

	if (!se)
		return;
	if (se->n == se->max || r->npol != se->npol || r->ncpu != se->ncpu) {
		se->dropped++;
		return;
	}
	k = se->n++;
	se->t_ns[k] = r->t_ns;
	for (int p = 0; p < se->npol; p++)
		se->khz[k * (size_t)se->npol + (size_t)p] = r->pol[p].cur_khz;
	for (int c = 0; c < se->ncpu; c++) {
		uint64_t us = 0;

		for (int i = 0; i < r->cpu[c].nidle; i++)
			us += r->cpu[c].s[i].time_us;
		se->idle_us[k * (size_t)se->ncpu + (size_t)c] = us;
	}
}

/* One step: read into cur, fold prev -> cur, keep cur as prev. */
static void step(struct lj_pw_sampler *s)
{
	struct lj_pw_snap *t;

	__atomic_fetch_add(&s->cost.samples, 1, __ATOMIC_RELAXED);	/* read while the thread runs (lj_pw_sampler_steps) */
	if (lj_pw_read(s->root, s->cur))
		return;
	series_add(s->series, s->cur);
	lj_pw_accum_add(&s->acc, s->prev, s->cur);
	t = s->prev;
	s->prev = s->cur;
	s->cur = t;
}

static void *sampler_main(void *arg)
{
	struct lj_pw_sampler *s = arg;
	struct timespec due;

	/* Off the measured CPUs when others are allowed: its reads must not be the noise it runs beside. */
	s->cost.apart = !CPU_COUNT(&s->avoid) || lj_cpus_keep_off(&s->avoid);
	clock_gettime(CLOCK_MONOTONIC, &due);
	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		if (s->paused) {
			pthread_cond_wait(&s->cond, &s->lock);
			clock_gettime(CLOCK_MONOTONIC, &due);	/* the next reading an interval after the resume */
			continue;
		}
		due.tv_nsec += (long)(s->interval_ns % 1000000000u);
		due.tv_sec += (time_t)(s->interval_ns / 1000000000u) + due.tv_nsec / 1000000000;
		due.tv_nsec %= 1000000000;
		/* Paused while it waited: no reading (the window without it begins). */
		if (pthread_cond_timedwait(&s->cond, &s->lock, &due) == ETIMEDOUT && !s->stopping && !s->paused) {
			pthread_mutex_unlock(&s->lock);
			step(s);
			pthread_mutex_lock(&s->lock);
		}
	}
	pthread_mutex_unlock(&s->lock);
	s->cost.thread_ns = (uint64_t)lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);	/* read by stop after the join */
	return NULL;
}

static int start_thread(struct lj_pw_sampler *s)
{
	pthread_condattr_t ca;
	int ret;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&s->lock, NULL);
	ret = pthread_create(&s->thread, NULL, sampler_main, s);
	if (ret) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		return -ret;
	}
	s->threaded = true;
	/* visible in ps and /proc/PID/task/TID/comm; tests wait for it to know the first snapshot is read */
	pthread_setname_np(s->thread, "lj-power");
	return 0;
}

int lj_pw_sampler_start(struct lj_pw_sampler **out, const char *root, uint64_t interval_ns,
			const cpu_set_t *avoid, size_t series_max)
{
	struct lj_pw_sampler *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM;
	int64_t cpu0 = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	*out = NULL;
	if (!s)
		return -ENOMEM;
	snprintf(s->root, sizeof(s->root), "%s", root);
	s->interval_ns = interval_ns ? interval_ns : 100000000u;
	if (avoid)
		s->avoid = *avoid;
	s->first = lj_pw_snap_new();
	s->prev = lj_pw_snap_new();
	s->cur = lj_pw_snap_new();
	if (!s->first || !s->prev || !s->cur || lj_pw_read(root, s->first) || lj_pw_read(root, s->prev))
		goto fail;
	s->prev->t_ns = s->first->t_ns;	/* the same instant, read twice: prev is the sampler's copy */
	lj_pw_accum_begin(&s->acc, s->first);
	if (series_max) {
		s->series = series_new(s->first, series_max);	/* without it the figures still come */
		series_add(s->series, s->first);
	}
	s->cost.edge_ns = (uint64_t)(lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0);
	if (worth_sampling(s)) {
		ret = start_thread(s);
		if (ret)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	s->stopped = true;	/* nothing to read at the end */
	lj_pw_sampler_free(s);
	return ret;
}

void lj_pw_sampler_stop(struct lj_pw_sampler *s)
{
	int64_t cpu0;

	if (!s || s->stopped)
		return;
	if (s->threaded) {
		pthread_mutex_lock(&s->lock);
		s->stopping = true;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->threaded = false;
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		s->cost.threaded = true;
	}
	cpu0 = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	step(s);
	s->cost.edge_ns += (uint64_t)(lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0);
	s->stopped = true;
}

bool lj_pw_sampler_threaded(const struct lj_pw_sampler *s)
{
	return s && s->threaded;
}

void lj_pw_sampler_pause(struct lj_pw_sampler *s, bool paused)
{
	if (!s || !s->threaded)
		return;
	pthread_mutex_lock(&s->lock);
	s->paused = paused;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

uint64_t lj_pw_sampler_steps(const struct lj_pw_sampler *s)
{
	return __atomic_load_n(&s->cost.samples, __ATOMIC_RELAXED);
}

void lj_pw_sampler_cost(const struct lj_pw_sampler *s, struct lj_pw_cost *c)
{
	*c = s->cost;
	if (!c->threaded)
		c->apart = false;
}

int lj_pw_sampler_derive(const struct lj_pw_sampler *s, struct lj_pw_figures *out)
{
	if (!s->stopped)
		return -EINVAL;
	return lj_power_derive(s->first, s->prev, &s->acc, out);
}

const struct lj_pw_series *lj_pw_sampler_series(const struct lj_pw_sampler *s)
{
	return s && s->stopped ? s->series : NULL;
}

const struct lj_pw_snap *lj_pw_sampler_first(const struct lj_pw_sampler *s)
{
	return s->first;
}

void lj_pw_sampler_free(struct lj_pw_sampler *s)
{
	if (!s)
		return;
	lj_pw_sampler_stop(s);
	lj_pw_snap_free(s->first);
	lj_pw_snap_free(s->prev);
	lj_pw_snap_free(s->cur);
	series_free(s->series);
	free(s);
}
