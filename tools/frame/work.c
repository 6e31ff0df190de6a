// SPDX-License-Identifier: GPL-2.0-or-later
/* work.c - lj-frame's work units (fixed instruction sequence) and their calibration. */
#include "frame.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lj_file.h"

#include "lj_cpus.h"
#include "lj_parse.h"
#include "lj_time.h"

/*
 * One unit is FRM_UNIT_STEPS steps of a dependent multiply-xorshift chain:
 * integer only (no memory traffic), so its wall time follows the core's
 * clock and capacity, which is what lj-frame studies. The empty asm makes
 * the value opaque each unit, so the compiler can neither fold the chain
 * nor drop it.
 */
#define FRM_UNIT_STEPS 512

uint64_t frm_work(uint64_t units, uint64_t seed)
{
	uint64_t x = seed | 1;

	for (uint64_t u = 0; u < units; u++) {
		for (int k = 0; k < FRM_UNIT_STEPS; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			x ^= x >> 29;
		}
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static double ns_per_unit_once(uint64_t units, uint64_t *sink)
{
	int64_t t = lj_now_ns();

	*sink ^= frm_work(units, (uint64_t)t);
	return (double)(lj_now_ns() - t) / (double)units;
}

/*
 * ns per unit on the CPU the caller runs on: grow the batch to ~5 ms
 * (which also lets a governor raise the clock), then keep the fastest of
 * @batches batches: interruptions only ever make a batch slower.
 */
static double measure(int batches)
{
	uint64_t units = 16, sink = 0;
	double best, v;
	int64_t t;

	for (;;) {
		t = lj_now_ns();
		sink ^= frm_work(units, (uint64_t)t);
		t = lj_now_ns() - t;
		if (t >= 5 * LJ_NSEC_PER_MSEC || units >= (1ULL << 32))
			break;
		units *= 2;
	}
	best = (double)t / (double)units;
	for (int i = 0; i < batches; i++) {
		v = ns_per_unit_once(units, &sink);
		if (v < best)
			best = v;
	}
	/* Publish the sink so the batches are not dead code. */
	__asm__ volatile("" : : "r"(sink));
	return best > 0 ? best : 1e-3;
}

/* Batches of the per-run check, and of a figure that is stored for later runs. */
#define CHECK_BATCHES 5
#define STORE_BATCHES 40

/* The CPU's current clock in kHz, 0 when cpufreq does not say. */
static long cur_khz(int cpu)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
	return lj_file_read(path, buf, sizeof(buf)) > 0 ? atol(buf) : 0;
}

/* The stored figures this run reads and may add to. */
struct store {
	bool on;
	bool dirty;
	struct frm_calib_entry e[FRM_CALIB_MAX];
	int n;
	char model[128];
};

static void store_open(struct store *st, const struct lj_topo *t, const struct frm_config *cfg,
		       struct frm_calibration *cal)
{
	int n;

	memset(st, 0, sizeof(*st));
	/* A substitute topology (HWLOC_XMLFILE...) does not describe this machine's CPUs. */
	if (t->substitute)
		return;
	if (frm_calib_path(cfg, cal->file, sizeof(cal->file))) {
		snprintf(cal->file_error, sizeof(cal->file_error), "no writable location ($HOME unset)");
		cal->file[0] = '\0';
		return;
	}
	n = frm_calib_load(cal->file, st->e, FRM_CALIB_MAX);
	if (n < 0) {
		snprintf(cal->file_error, sizeof(cal->file_error), "cannot read: %s", strerror(-n));
		cal->file[0] = '\0';
		return;
	}
	st->n = n;
	st->on = true;
	snprintf(st->model, sizeof(st->model), "%s", t->cpu_model[0] ? t->cpu_model : "unknown");
	/* The file is tab-separated. */
	for (char *c = st->model; *c; c++)
		if (*c == '\t' || *c == '\n')
			*c = ' ';
}

/*
 * On the CPU the caller is pinned to: this run's check, and the figure to
 * use: the stored one, or (first run, or --calibrate) a longer measurement
 * that is stored for the runs after.
 */
static void calibrate_kind(struct frm_calib_kind *ck, struct store *st, const struct lj_topo *t,
			   const struct frm_config *cfg)
{
	struct frm_calib_entry *e = st->on ? frm_calib_find(st->e, st->n, st->model, ck->kind) : NULL;

	ck->check_ns_per_unit = measure(CHECK_BATCHES);
	if (e && !cfg->calibrate) {
		ck->ns_per_unit = e->ns_per_unit;
		ck->khz = e->khz;
		ck->measured_at = e->measured_at;
		ck->source = "stored";
		return;
	}
	if (!st->on || (!e && st->n >= FRM_CALIB_MAX)) {
		ck->ns_per_unit = ck->check_ns_per_unit;
		ck->khz = cur_khz(ck->cpu);
		ck->measured_at = (long long)time(NULL);
		ck->source = "run";
		return;
	}
	if (!e) {
		e = &st->e[st->n++];
		snprintf(e->model, sizeof(e->model), "%s", st->model);
		e->kind = ck->kind;
		snprintf(e->kind_name, sizeof(e->kind_name), "%s",
			 ck->kind >= 0 && ck->kind < t->nkinds ? t->kinds[ck->kind].name : "");
	}
	e->ns_per_unit = measure(STORE_BATCHES);
	e->khz = cur_khz(ck->cpu);
	e->measured_at = (long long)time(NULL);
	st->dirty = true;
	ck->ns_per_unit = e->ns_per_unit;
	ck->khz = e->khz;
	ck->measured_at = e->measured_at;
	ck->source = "new";
}

static void store_close(struct store *st, struct frm_calibration *cal)
{
	int ret;

	if (!st->dirty)
		return;
	ret = frm_calib_save(cal->file, st->e, st->n);
	if (!ret)
		return;
	snprintf(cal->file_error, sizeof(cal->file_error), "cannot write %s: %s", cal->file,
		 strerror(-ret));
	/* Measured like a stored figure, but later runs will not find it. */
	for (int k = 0; k < cal->n; k++)
		if (!strcmp(cal->k[k].source, "new"))
			cal->k[k].source = "run";
	cal->file[0] = '\0';
	st->on = false;
}

/* The figure --work-time converts with (the fastest kind's), and a name for it. */
static void calibration_finish(struct frm_calibration *cal, const struct store *st)
{
	int best = 0;

	for (int i = 1; i < cal->n; i++)
		if (cal->k[i].ns_per_unit < cal->k[best].ns_per_unit)
			best = i;
	cal->ns_per_unit = cal->k[best].ns_per_unit;
	snprintf(cal->id, sizeof(cal->id), "%s/kind %d/%s %lld/%.3f ns",
		 st->on ? st->model : "unstored", cal->k[best].kind, cal->k[best].source,
		 cal->k[best].measured_at, cal->k[best].ns_per_unit);
}

/*
 * Every CPU: the kernel narrows the mask to the process's cpuset. While
 * the cpuset is being changed the kernel may refuse even that for a
 * moment: a few tries, 1 ms apart.
 */
static int pin_anywhere(void)
{
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };
	cpu_set_t all;
	int ret = 0;

	CPU_ZERO(&all);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &all);
	for (int i = 0; i < 10; i++) {
		ret = lj_cpus_pin(0, &all);
		if (ret != -EINVAL)
			break;
		nanosleep(&ms, NULL);
	}
	return ret;
}

/*
 * Back to the CPUs the process had. When its cpuset changed meanwhile
 * (lj-env --sweep) and holds none of them, the kernel refuses that mask:
 * then anywhere in the cpuset.
 */
static int restore_affinity(const cpu_set_t *allowed)
{
	int r = lj_cpus_pin(0, allowed);

	if (r == -EINVAL)
		r = pin_anywhere();
	/* Still refused: the cpuset is changing, and its change resets the affinity. */
	return r == -EINVAL ? 0 : r;
}

/*
 * Pin to the first CPU of @kind among @allowed: *@cpus gets the kind's
 * CPUs there, *@cpu the one. If the cpuset changed meanwhile (lj-env
 * --sweep) and no longer holds it, the kind's CPUs the cpuset holds now;
 * -EINVAL when there are none.
 */
static int pin_kind(const cpu_set_t *kind, const cpu_set_t *allowed, cpu_set_t *cpus, int *cpu)
{
	cpu_set_t now;
	int ret;

	CPU_AND(cpus, kind, allowed);
	if (lj_cpus_to_array(cpus, cpu, 1) < 1)
		return -EINVAL;
	ret = lj_cpus_pin_one(0, *cpu);
	if (ret != -EINVAL)
		return ret;
	if (pin_anywhere() || sched_getaffinity(0, sizeof(now), &now))
		return -EINVAL;
	CPU_AND(cpus, kind, &now);
	if (lj_cpus_to_array(cpus, cpu, 1) < 1)
		return -EINVAL;
	return lj_cpus_pin_one(0, *cpu);
}

int frm_calibrate(const struct lj_topo *t, const struct frm_config *cfg,
		  struct frm_calibration *cal)
{
	cpu_set_t allowed, cpus;
	struct store *st;
	int ret = 0, r;

	memset(cal, 0, sizeof(*cal));
	if (cfg->fake_ns_per_unit > 0) {
		cal->fake = true;
		cal->ns_per_unit = cfg->fake_ns_per_unit;
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	st = malloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	store_open(st, t, cfg, cal);
	for (int k = 0; k < t->nkinds && cal->n < LJ_TOPO_MAX_KINDS; k++) {
		struct frm_calib_kind *ck = &cal->k[cal->n];
		int cpu;

		ret = pin_kind(&t->kinds[k].cpus, &allowed, &cpus, &cpu);
		if (ret == -EINVAL) {
			ret = 0;
			continue;	/* none of the kind's CPUs is in the cpuset now */
		}
		if (ret)
			break;
		ck->kind = k;
		ck->cpu = cpu;
		lj_cpulist_format(&cpus, ck->cpus, sizeof(ck->cpus));
		calibrate_kind(ck, st, t, cfg);
		cal->n++;
	}
	if (!cal->n && !ret) {
		/* No kinds from the topology (or none in the cpuset now): measure where we are. */
		cal->k[0].cpu = sched_getcpu();
		cal->k[0].kind = t->nkinds ? lj_topo_kind_of(t, cal->k[0].cpu) : -1;
		lj_cpulist_format(&allowed, cal->k[0].cpus, sizeof(cal->k[0].cpus));
		calibrate_kind(&cal->k[0], st, t, cfg);
		cal->n = 1;
	}
	r = restore_affinity(&allowed);
	if (r && !ret)
		ret = r;
	store_close(st, cal);
	calibration_finish(cal, st);
	free(st);
	return ret;
}

void frm_work_resolve(const struct frm_config *cfg, const struct frm_calibration *cal,
		      uint64_t *units)
{
	for (int s = 0; s < cfg->nstages; s++) {
		if (cfg->nwork_units) {
			units[s] = (uint64_t)cfg->work_units[cfg->nwork_units > 1 ? s : 0];
		} else {
			/* One value is the frame's: each stage does an equal share. */
			double ns = cfg->nwork_ns > 1 ? (double)cfg->work_ns[s] :
				    (double)cfg->work_ns[0] / cfg->nstages;

			/* Before calibration (a failed start) there is nothing to convert with. */
			units[s] = cal->ns_per_unit > 0 ? (uint64_t)llround(ns / cal->ns_per_unit) : 0;
		}
	}
}
