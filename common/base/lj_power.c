// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_power - the arithmetic of frequency, idle, energy and thermal figures over a run (pure). */
#include "lj_power.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const origin_names[LJ_PWO_COUNT] = {
	"cpufreq", "cpuidle", "powercap", "hwmon", "battery", "thermal", "throttle",
};

const char *lj_pw_origin_name(enum lj_pw_origin o)
{
	return o < LJ_PWO_COUNT ? origin_names[o] : "?";
}

const char *lj_pw_freq_from_name(enum lj_pw_freq_from f)
{
	return f == LJ_PWF_TIME_IN_STATE ? "time_in_state" : f == LJ_PWF_SAMPLED ? "sampled" : "none";
}

/*
 * powercap counters run from 0 to max_energy_range_uj and start again at
 * 0: a reading below the previous one means one wrap (a run or a sampling
 * interval must be short enough for at most one; the sampler sees to it).
 */
uint64_t lj_pw_counter_delta(uint64_t start, uint64_t end, uint64_t max_range, bool *wrapped)
{
	*wrapped = false;
	if (end >= start)
		return end - start;
	if (!max_range || start > max_range)
		return 0;		/* reset, not a wrap we can account for */
	*wrapped = true;
	return max_range - start + end;
}

void lj_pw_accum_begin(struct lj_pw_accum *acc, const struct lj_pw_snap *first)
{
	memset(acc, 0, sizeof(*acc));
	for (int p = 0; p < first->npol; p++)
		acc->min_limit_khz[p] = first->pol[p].limit_khz;
	for (int z = 0; z < first->nzone; z++)
		acc->max_temp_mc[z] = first->zone[z].temp_mc;
}

static void accum_sources(struct lj_pw_accum *acc, const struct lj_pw_snap *prev,
			  const struct lj_pw_snap *cur, double dt_s)
{
	for (int i = 0; i < cur->nsrc && i < prev->nsrc; i++) {
		const struct lj_pw_source *a = &prev->src[i], *b = &cur->src[i];
		bool wrapped;

		if (strcmp(a->name, b->name))
			continue;	/* a source came or went between the reads: no step to add */
		switch (b->kind) {
		case LJ_PWK_COUNTER_UJ:
			acc->energy_uj[i] += (double)lj_pw_counter_delta(a->value, b->value, b->max_range, &wrapped);
			acc->wraps[i] += wrapped;
			break;
		case LJ_PWK_GAUGE_UW:	/* trapezoid between the two readings */
			acc->energy_uj[i] += ((double)a->value + (double)b->value) / 2.0 * dt_s;
			break;
		case LJ_PWK_BATTERY_UWH:	/* 1 uWh = 3600 uJ; charging counts as none */
			if (a->value > b->value)
				acc->energy_uj[i] += (double)(a->value - b->value) * 3600.0;
			break;
		}
	}
}

void lj_pw_accum_add(struct lj_pw_accum *acc, const struct lj_pw_snap *prev, const struct lj_pw_snap *cur)
{
	uint64_t dt = cur->t_ns > prev->t_ns ? cur->t_ns - prev->t_ns : 0;

	acc->nsamples++;
	accum_sources(acc, prev, cur, (double)dt / 1e9);
	for (int p = 0; p < cur->npol && p < prev->npol; p++) {
		const struct lj_pw_policy *a = &prev->pol[p], *b = &cur->pol[p];

		if (a->cur_khz && b->cur_khz) {
			acc->freq_khz_ns[p] += (a->cur_khz + b->cur_khz) / 2 * dt;
			acc->freq_ns[p] += dt;
		}
		if (b->limit_khz && (!acc->min_limit_khz[p] || b->limit_khz < acc->min_limit_khz[p]))
			acc->min_limit_khz[p] = b->limit_khz;
	}
	for (int z = 0; z < cur->nzone; z++)
		if (cur->zone[z].temp_mc > acc->max_temp_mc[z])
			acc->max_temp_mc[z] = cur->zone[z].temp_mc;
}

/* The time_in_state deltas of one policy: average, time per frequency, share at the ends. */
static void derive_freq(const struct lj_pw_policy *a, const struct lj_pw_policy *b, struct lj_pw_cluster *c)
{
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;
	double weighted = 0;

	c->nfreq = b->nfreq;
	for (int i = 0; i < b->nfreq; i++) {
		uint64_t before = 0;

		for (int k = 0; k < a->nfreq; k++)
			if (a->f[k].khz == b->f[i].khz)
				before = a->f[k].time;
		c->f[i].khz = b->f[i].khz;
		c->f[i].time = b->f[i].time >= before ? b->f[i].time - before : 0;
		total += c->f[i].time;
		weighted += (double)c->f[i].khz * (double)c->f[i].time;
		lo = b->f[i].khz < lo ? b->f[i].khz : lo;
		hi = b->f[i].khz > hi ? b->f[i].khz : hi;
	}
	if (!total)
		return;		/* no time passed in the table's resolution: the sampler's figure stands */
	c->from = LJ_PWF_TIME_IN_STATE;
	c->avg_khz = weighted / (double)total;
	c->share_min = c->share_max = 0;
	for (int i = 0; i < c->nfreq; i++) {
		if (c->f[i].khz == lo)
			c->share_min += (double)c->f[i].time / (double)total;
		if (c->f[i].khz == hi)
			c->share_max += (double)c->f[i].time / (double)total;
	}
}

static void derive_cluster(const struct lj_pw_snap *first, const struct lj_pw_snap *last,
			   const struct lj_pw_accum *acc, int p, struct lj_pw_cluster *c)
{
	const struct lj_pw_policy *a = &first->pol[p], *b = &last->pol[p];

	c->id = b->id;
	c->cpus = b->cpus;
	c->idle_share = NAN;
	c->share_min = c->share_max = NAN;
	if (acc->freq_ns[p]) {
		c->from = LJ_PWF_SAMPLED;
		c->avg_khz = (double)acc->freq_khz_ns[p] / (double)acc->freq_ns[p];
	}
	if (b->nfreq)
		derive_freq(a, b, c);
	c->has_trans = a->has_trans && b->has_trans;
	c->trans = c->has_trans && b->total_trans >= a->total_trans ? b->total_trans - a->total_trans : 0;
	c->limit_start_khz = a->limit_khz;
	c->limit_end_khz = b->limit_khz;
	c->limit_min_khz = acc->min_limit_khz[p] ? acc->min_limit_khz[p] : b->limit_khz;
	if (b->limit_khz && b->limit_khz < c->limit_min_khz)
		c->limit_min_khz = b->limit_khz;
	c->capped = a->limit_khz && c->limit_min_khz && c->limit_min_khz < a->limit_khz;
}

static const struct lj_pw_cpu *find_cpu(const struct lj_pw_snap *s, int cpu)
{
	for (int i = 0; i < s->ncpu; i++)
		if (s->cpu[i].cpu == cpu)
			return &s->cpu[i];
	return NULL;
}

static void derive_cpu(const struct lj_pw_cpu *a, const struct lj_pw_cpu *b, double wall_us,
		       struct lj_pw_cpu_idle *o)
{
	double idle_us = 0;

	o->cpu = b->cpu;
	o->nidle = b->nidle;
	for (int i = 0; i < b->nidle; i++) {
		const struct lj_pw_idle *x = i < a->nidle ? &a->s[i] : b->s + i, *y = &b->s[i];

		snprintf(o->d[i].name, sizeof(o->d[i].name), "%s", y->name);
		o->d[i].time_us = y->time_us >= x->time_us ? y->time_us - x->time_us : 0;
		o->d[i].usage = y->usage >= x->usage ? y->usage - x->usage : 0;
		o->d[i].above = y->above >= x->above ? y->above - x->above : 0;
		o->d[i].below = y->below >= x->below ? y->below - x->below : 0;
		idle_us += (double)o->d[i].time_us;
	}
	o->idle_share = b->nidle && wall_us > 0 ? idle_us / wall_us : NAN;
	o->has_throttle = a->has_throttle && b->has_throttle;
	o->throttle = o->has_throttle && b->throttle >= a->throttle ? b->throttle - a->throttle : 0;
}

/* A cluster's idle share: its CPUs' idle time over their time (NaN when none has cpuidle). */
static void cluster_idle(struct lj_pw_figures *f, struct lj_pw_cluster *c, bool whole)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < f->ncpu; i++)
		if ((whole || CPU_ISSET(f->cpu[i].cpu, &c->cpus)) && !isnan(f->cpu[i].idle_share)) {
			sum += f->cpu[i].idle_share;
			n++;
		}
	c->idle_share = n ? sum / n : NAN;
}

static int derive_cpus(const struct lj_pw_snap *first, const struct lj_pw_snap *last,
		       struct lj_pw_figures *out)
{
	double wall_us = out->duration_s * 1e6;

	out->cpu = calloc(last->ncpu ? last->ncpu : 1, sizeof(*out->cpu));
	if (!out->cpu)
		return -ENOMEM;
	for (int i = 0; i < last->ncpu; i++) {
		const struct lj_pw_cpu *a = find_cpu(first, last->cpu[i].cpu);

		derive_cpu(a ? a : &last->cpu[i], &last->cpu[i], wall_us, &out->cpu[out->ncpu]);
		out->throttle_events += out->cpu[out->ncpu].throttle;
		out->ncpu++;
	}
	return 0;
}

/* The run's energy from the best source the machine has. */
static void pick_energy(struct lj_pw_figures *f)
{
	static const struct { enum lj_pw_origin o; enum lj_pw_kind k; } order[] = {
		{ LJ_PWO_POWERCAP, LJ_PWK_COUNTER_UJ }, { LJ_PWO_HWMON, LJ_PWK_COUNTER_UJ },
		{ LJ_PWO_BATTERY, LJ_PWK_BATTERY_UWH }, { LJ_PWO_BATTERY, LJ_PWK_GAUGE_UW },
		{ LJ_PWO_HWMON, LJ_PWK_GAUGE_UW },
	};

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]) && !f->have_energy; k++) {
		double sum = 0;
		int n = 0;

		for (int i = 0; i < f->nenergy; i++)
			if (f->e[i].origin == order[k].o && f->e[i].kind == order[k].k && f->e[i].top) {
				sum += f->e[i].energy_j;
				n++;
			}
		if (!n)
			continue;
		f->have_energy = true;
		f->energy_j = sum;
		f->power_w = f->duration_s > 0 ? sum / f->duration_s : NAN;
		snprintf(f->energy_from, sizeof(f->energy_from), "%s %s", lj_pw_origin_name(order[k].o),
			 order[k].k == LJ_PWK_COUNTER_UJ ? "energy" : order[k].k == LJ_PWK_BATTERY_UWH ? "energy_now" : "power");
	}
}

static void derive_thermal(const struct lj_pw_snap *first, const struct lj_pw_snap *last,
			   const struct lj_pw_accum *acc, struct lj_pw_figures *f)
{
	for (int z = 0; z < last->nzone && z < first->nzone; z++) {
		const struct lj_pw_zone *a = &first->zone[z], *b = &last->zone[z];
		double max_c = (double)(acc->max_temp_mc[z] > b->temp_mc ? acc->max_temp_mc[z] : b->temp_mc) / 1000.0;

		snprintf(f->zone[f->nzone].name, sizeof(f->zone[0].name), "%s", b->name);
		f->zone[f->nzone].start_c = (double)a->temp_mc / 1000.0;
		f->zone[f->nzone].end_c = (double)b->temp_mc / 1000.0;
		f->zone[f->nzone].max_c = max_c;
		f->nzone++;
		for (int t = 0; t < b->ntrip && f->ntrips < LJ_PW_MAX_ZONES; t++) {
			double trip = (double)b->trip_mc[t] / 1000.0;
			struct lj_pw_trip *o = &f->trip[f->ntrips];

			if (!(f->zone[f->nzone - 1].start_c < trip && max_c >= trip))
				continue;
			snprintf(o->zone, sizeof(o->zone), "%s", b->name);
			snprintf(o->type, sizeof(o->type), "%s", b->trip_type[t]);
			o->trip_c = trip;
			o->start_c = f->zone[f->nzone - 1].start_c;
			o->max_c = max_c;
			f->ntrips++;
			if (strcmp(o->type, "active"))	/* fans do not slow the CPU */
				f->throttled = true;
		}
	}
}

int lj_power_derive(const struct lj_pw_snap *first, const struct lj_pw_snap *last,
		    const struct lj_pw_accum *acc, struct lj_pw_figures *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->duration_s = last->t_ns > first->t_ns ? (double)(last->t_ns - first->t_ns) / 1e9 : 0;
	ret = derive_cpus(first, last, out);
	if (ret)
		return ret;
	for (int p = 0; p < last->npol && p < first->npol; p++) {
		derive_cluster(first, last, acc, p, &out->cl[p]);
		cluster_idle(out, &out->cl[p], false);
		out->throttled |= out->cl[p].capped;
		out->nclusters++;
	}
	if (!last->npol && last->ncpu) {	/* no cpufreq: one cluster of every CPU, for the idle share */
		struct lj_pw_cluster *c = &out->cl[out->nclusters++];

		c->id = -1;
		c->share_min = c->share_max = NAN;
		CPU_ZERO(&c->cpus);
		for (int i = 0; i < last->ncpu; i++)
			CPU_SET(last->cpu[i].cpu, &c->cpus);
		cluster_idle(out, c, true);
	}
	for (int i = 0; i < last->nsrc; i++) {
		struct lj_pw_energy *e = &out->e[out->nenergy++];

		snprintf(e->name, sizeof(e->name), "%s", last->src[i].name);
		e->origin = last->src[i].origin;
		e->kind = last->src[i].kind;
		e->top = last->src[i].top;
		e->energy_j = acc->energy_uj[i] / 1e6;
		e->mean_w = out->duration_s > 0 ? e->energy_j / out->duration_s : NAN;
		e->wraps = acc->wraps[i];
	}
	pick_energy(out);
	derive_thermal(first, last, acc, out);
	out->throttled |= out->throttle_events > 0;
	return 0;
}

void lj_pw_kinds(const struct lj_pw_figures *f, const cpu_set_t *kinds, int nkinds, struct lj_pw_kindfig *out)
{
	for (int k = 0; k < nkinds; k++) {
		struct lj_pw_kindfig *o = &out[k];
		double khz = 0, idle = 0;
		int ncpu = 0, nidle = 0;

		memset(o, 0, sizeof(*o));
		o->cpus = kinds[k];
		for (int c = 0; c < f->nclusters; c++) {
			cpu_set_t both;
			int n;

			CPU_AND(&both, &f->cl[c].cpus, &kinds[k]);
			n = CPU_COUNT(&both);
			if (!n || f->cl[c].from == LJ_PWF_NONE)
				continue;
			khz += f->cl[c].avg_khz * n;
			ncpu += n;
			if (o->from != LJ_PWF_SAMPLED)
				o->from = f->cl[c].from;
		}
		o->avg_khz = ncpu ? khz / ncpu : 0;
		for (int i = 0; i < f->ncpu; i++)
			if (CPU_ISSET(f->cpu[i].cpu, &kinds[k]) && !isnan(f->cpu[i].idle_share)) {
				idle += f->cpu[i].idle_share;
				nidle++;
			}
		o->idle_share = nidle ? idle / nidle : NAN;
	}
}

void lj_power_figures_free(struct lj_pw_figures *f)
{
	free(f->cpu);
	f->cpu = NULL;
}

double lj_pw_per_unit(const struct lj_pw_figures *f, double units, double scale)
{
	if (!f->have_energy || !(units > 0))
		return NAN;
	return f->energy_j * scale / units;
}
