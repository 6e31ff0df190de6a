// SPDX-License-Identifier: GPL-2.0-or-later
/* work.c - lj-frame's work units (fixed instruction sequence) and their calibration. */
#include "frame.h"

#include <errno.h>
#include <math.h>
#include <string.h>

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
 * five batches: interruptions only ever make a batch slower.
 */
static double measure(void)
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
	for (int i = 0; i < 5; i++) {
		v = ns_per_unit_once(units, &sink);
		if (v < best)
			best = v;
	}
	/* Publish the sink so the batches are not dead code. */
	__asm__ volatile("" : : "r"(sink));
	return best > 0 ? best : 1e-3;
}

int frm_calibrate(const struct lj_topo *t, const struct frm_config *cfg,
		  struct frm_calibration *cal)
{
	cpu_set_t allowed, cpus;
	int ret = 0;

	memset(cal, 0, sizeof(*cal));
	if (cfg->fake_ns_per_unit > 0) {
		cal->fake = true;
		cal->ns_per_unit = cfg->fake_ns_per_unit;
		return 0;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	for (int k = 0; k < t->nkinds && cal->n < LJ_TOPO_MAX_KINDS; k++) {
		struct frm_calib_kind *ck = &cal->k[cal->n];
		int cpu;

		CPU_AND(&cpus, &t->kinds[k].cpus, &allowed);
		if (!CPU_COUNT(&cpus))
			continue;
		if (lj_cpus_to_array(&cpus, &cpu, 1) < 1)
			continue;
		ret = lj_cpus_pin_one(0, cpu);
		if (ret)
			break;
		ck->kind = k;
		ck->cpu = cpu;
		lj_cpulist_format(&cpus, ck->cpus, sizeof(ck->cpus));
		ck->ns_per_unit = measure();
		cal->n++;
	}
	if (!cal->n && !ret) {
		/* No kinds from the topology: measure where we are. */
		cal->k[0].kind = -1;
		cal->k[0].cpu = sched_getcpu();
		lj_cpulist_format(&allowed, cal->k[0].cpus, sizeof(cal->k[0].cpus));
		cal->k[0].ns_per_unit = measure();
		cal->n = 1;
	}
	{
		int r = lj_cpus_pin(0, &allowed);

		if (r && !ret)
			ret = r;
	}
	cal->ns_per_unit = cal->k[0].ns_per_unit;
	for (int i = 1; i < cal->n; i++)
		if (cal->k[i].ns_per_unit < cal->ns_per_unit)
			cal->ns_per_unit = cal->k[i].ns_per_unit;
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
