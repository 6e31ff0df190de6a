// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_power_report - the "power" side block and the "power: ..." text of a run's figures. */
#include "lj_power_report.h"
#include "lj_json.h"
#include "lj_parse.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static json_object *sources_json(const struct lj_pw_snap *first)
{
	json_object *o = json_object_new_object();

	for (int i = 0; i < LJ_PWO_COUNT; i++) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "available", json_object_new_boolean(first->have[i]));
		if (!first->have[i])
			json_object_object_add(s, "reason", json_object_new_string(first->why[i]));
		json_object_object_add(o, lj_pw_origin_name(i), s);
	}
	return o;
}

static json_object *cluster_json(const struct lj_pw_cluster *c)
{
	json_object *o = json_object_new_object(), *fr = json_object_new_array();
	char cpus[128];

	json_object_object_add(o, "id", lj_json_int(c->id));
	json_object_object_add(o, "cpus", json_object_new_string(lj_cpulist_format(&c->cpus, cpus, sizeof(cpus))));
	json_object_object_add(o, "freq_from", json_object_new_string(lj_pw_freq_from_name(c->from)));
	json_object_object_add(o, "avg_khz", c->from != LJ_PWF_NONE ? lj_json_num(c->avg_khz) : NULL);
	json_object_object_add(o, "share_min", lj_json_num(c->share_min));
	json_object_object_add(o, "share_max", lj_json_num(c->share_max));
	json_object_object_add(o, "transitions", c->has_trans ? lj_json_int((int64_t)c->trans) : NULL);
	for (int i = 0; i < c->nfreq; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "khz", lj_json_int((int64_t)c->f[i].khz));
		json_object_object_add(e, "time_ms", lj_json_int((int64_t)c->f[i].time * 10));
		json_object_array_add(fr, e);
	}
	json_object_object_add(o, "time_in_state", fr);
	json_object_object_add(o, "limit_start_khz", lj_json_int((int64_t)c->limit_start_khz));
	json_object_object_add(o, "limit_min_khz", lj_json_int((int64_t)c->limit_min_khz));
	json_object_object_add(o, "limit_end_khz", lj_json_int((int64_t)c->limit_end_khz));
	json_object_object_add(o, "capped", json_object_new_boolean(c->capped));
	json_object_object_add(o, "idle_share", lj_json_num(c->idle_share));
	return o;
}

static json_object *cpu_json(const struct lj_pw_cpu_idle *c)
{
	json_object *o = json_object_new_object(), *st = json_object_new_array();

	json_object_object_add(o, "cpu", lj_json_int(c->cpu));
	json_object_object_add(o, "idle_share", lj_json_num(c->idle_share));
	for (int i = 0; i < c->nidle; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "name", json_object_new_string(c->d[i].name));
		json_object_object_add(e, "time_us", lj_json_int((int64_t)c->d[i].time_us));
		json_object_object_add(e, "usage", lj_json_int((int64_t)c->d[i].usage));
		json_object_object_add(e, "above", lj_json_int((int64_t)c->d[i].above));
		json_object_object_add(e, "below", lj_json_int((int64_t)c->d[i].below));
		json_object_array_add(st, e);
	}
	json_object_object_add(o, "idle_states", st);
	if (c->has_throttle)
		json_object_object_add(o, "throttle_events", lj_json_int((int64_t)c->throttle));
	return o;
}

static json_object *energy_json(const struct lj_pw_figures *f)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < f->nenergy; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "source", json_object_new_string(lj_pw_origin_name(f->e[i].origin)));
		json_object_object_add(e, "name", json_object_new_string(f->e[i].name));
		json_object_object_add(e, "counted", json_object_new_boolean(f->e[i].top));
		json_object_object_add(e, "energy_j", lj_json_num(f->e[i].energy_j));
		json_object_object_add(e, "mean_w", lj_json_num(f->e[i].mean_w));
		json_object_object_add(e, "wraps", lj_json_int(f->e[i].wraps));
		json_object_array_add(arr, e);
	}
	return arr;
}

static json_object *thermal_json(const struct lj_pw_figures *f)
{
	json_object *arr = json_object_new_array();

	for (int i = 0; i < f->nzone; i++) {
		json_object *z = json_object_new_object(), *trips = json_object_new_array();

		json_object_object_add(z, "zone", json_object_new_string(f->zone[i].name));
		json_object_object_add(z, "start_c", lj_json_num(f->zone[i].start_c));
		json_object_object_add(z, "end_c", lj_json_num(f->zone[i].end_c));
		json_object_object_add(z, "max_c", lj_json_num(f->zone[i].max_c));
		for (int t = 0; t < f->ntrips; t++)
			if (!strcmp(f->trip[t].zone, f->zone[i].name)) {
				json_object *e = json_object_new_object();

				json_object_object_add(e, "type", json_object_new_string(f->trip[t].type));
				json_object_object_add(e, "trip_c", lj_json_num(f->trip[t].trip_c));
				json_object_array_add(trips, e);
			}
		json_object_object_add(z, "trips_crossed", trips);
		json_object_array_add(arr, z);
	}
	return arr;
}

json_object *lj_power_json(const struct lj_pw_snap *first, const struct lj_pw_figures *f, const char *throttle)
{
	json_object *o = json_object_new_object(), *cl, *cpus;

	json_object_object_add(o, "sources", sources_json(first));
	if (!f)
		return o;
	json_object_object_add(o, "duration_s", lj_json_num(f->duration_s));
	cl = json_object_new_array();
	for (int i = 0; i < f->nclusters; i++)
		json_object_array_add(cl, cluster_json(&f->cl[i]));
	json_object_object_add(o, "clusters", cl);
	cpus = json_object_new_array();
	for (int i = 0; i < f->ncpu; i++)
		json_object_array_add(cpus, cpu_json(&f->cpu[i]));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "energy", energy_json(f));
	if (f->have_energy) {
		json_object_object_add(o, "energy_from", json_object_new_string(f->energy_from));
		json_object_object_add(o, "energy_j", lj_json_num(f->energy_j));
		json_object_object_add(o, "power_w", lj_json_num(f->power_w));
	}
	json_object_object_add(o, "thermal", thermal_json(f));
	json_object_object_add(o, "throttled", json_object_new_boolean(f->throttled));
	if (f->throttled)
		json_object_object_add(o, "throttle_reasons", json_object_new_string(throttle));
	return o;
}

/* Append ", PART" to @line (or "PART" for the first part): no empty part, no stray separator. */
static void add_part(char *line, size_t len, const char *fmt, ...)
{
	size_t n = strlen(line);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(line + n, ", ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(line + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * One line per cluster, "power: cpus LIST: PART, PART": each part only
 * when its source gave it (frequency from cpufreq, idle from cpuidle), so
 * a machine with idle states and no cpufreq driver prints
 * "power: cpus 0-1: idle 98.9%", never an empty frequency part.
 */
static void print_cluster(const struct lj_pw_cluster *c, FILE *out)
{
	char cpus[128], parts[256] = "";

	if (c->from != LJ_PWF_NONE)
		add_part(parts, sizeof(parts), "average %.0f MHz (%s)", c->avg_khz / 1e3,
			 lj_pw_freq_from_name(c->from));
	if (isfinite(c->share_min))
		add_part(parts, sizeof(parts), "%.1f%% at min, %.1f%% at max", c->share_min * 100,
			 c->share_max * 100);
	if (c->has_trans)
		add_part(parts, sizeof(parts), "%llu transitions", (unsigned long long)c->trans);
	if (isfinite(c->idle_share))
		add_part(parts, sizeof(parts), "idle %.1f%%", c->idle_share * 100);
	if (parts[0])
		fprintf(out, "power: cpus %s: %s\n", lj_cpulist_format(&c->cpus, cpus, sizeof(cpus)), parts);
}

void lj_power_print(const struct lj_pw_snap *first, const struct lj_pw_figures *f, const char *throttle,
		    FILE *out)
{
	for (int i = 0; i < LJ_PWO_COUNT; i++)
		if (!first->have[i])
			fprintf(out, "power: %s unavailable: %s\n", lj_pw_origin_name(i), first->why[i]);
	if (!f)
		return;
	for (int i = 0; i < f->nclusters; i++)
		print_cluster(&f->cl[i], out);
	if (f->have_energy)
		fprintf(out, "power: energy %.3f J, mean %.3f W over %.3f s (%s)\n", f->energy_j, f->power_w,
			f->duration_s, f->energy_from);
	for (int i = 0; i < f->nzone; i++)
		fprintf(out, "power: %s %.1f -> %.1f C (max %.1f C)\n", f->zone[i].name, f->zone[i].start_c,
			f->zone[i].end_c, f->zone[i].max_c);
	if (f->throttled)
		fprintf(out, "power: throttled: %s\n", throttle);
}
