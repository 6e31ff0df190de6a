// SPDX-License-Identifier: GPL-2.0-or-later
/* test_power - lj_power's arithmetic on injected snapshots: wraps, gauges, a cap applied and lifted, idle, trips. */
#include "lj_power.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct lj_pw_snap *snap(uint64_t t_ns)
{
	struct lj_pw_snap *s = calloc(1, sizeof(*s));

	s->t_ns = t_ns;
	s->cpu = calloc(1, sizeof(*s->cpu));
	s->ncpu = 1;
	s->npol = 1;
	CPU_SET(0, &s->pol[0].cpus);
	s->pol[0].limit_khz = 2000000;
	s->nsrc = 2;
	s->src[0] = (struct lj_pw_source){ LJ_PWO_POWERCAP, LJ_PWK_COUNTER_UJ, "rapl", true, 0, 1000 };
	s->src[1] = (struct lj_pw_source){ LJ_PWO_BATTERY, LJ_PWK_GAUGE_UW, "bat", true, 0, 0 };
	s->nzone = 1;
	s->zone[0].ntrip = 1;
	s->zone[0].trip_mc[0] = 70000;
	strcpy(s->zone[0].trip_type[0], "passive");
	s->cpu[0].nidle = 1;
	return s;
}

static void release(struct lj_pw_snap *s)
{
	free(s->cpu);
	free(s);
}

int main(void)
{
	struct lj_pw_snap *a = snap(0), *b = snap(1000000000), *c = snap(3000000000u);
	struct lj_pw_accum acc;
	struct lj_pw_figures f;
	bool w;

	plan(20);
	is_int((int)lj_pw_counter_delta(100, 400, 1000, &w), 300, "counter: plain delta");
	is_int((int)lj_pw_counter_delta(900, 50, 1000, &w), 150, "counter: one wrap = max - start + end");
	ok(w, "...and says it wrapped");
	is_int((int)lj_pw_counter_delta(900, 50, 0, &w), 0, "counter: no range known, a drop is a reset: 0");

	/* 0 s: rapl 800, 2 W, 50 C; 1 s: rapl 100 (wrapped), 4 W, cap 1 GHz, 75 C; 3 s: rapl 300, 4 W, cap lifted, 60 C */
	a->src[0].value = 800; a->src[1].value = 2000000; a->zone[0].temp_mc = 50000;
	b->src[0].value = 100; b->src[1].value = 4000000; b->zone[0].temp_mc = 75000; b->pol[0].limit_khz = 1000000;
	c->src[0].value = 300; c->src[1].value = 4000000; c->zone[0].temp_mc = 60000;
	a->pol[0].cur_khz = 1000000; b->pol[0].cur_khz = 2000000; c->pol[0].cur_khz = 2000000;
	c->cpu[0].s[0].time_us = 750000; c->cpu[0].s[0].usage = 9;
	lj_pw_accum_begin(&acc, a);
	lj_pw_accum_add(&acc, a, b);
	lj_pw_accum_add(&acc, b, c);
	ok(!lj_power_derive(a, c, &acc, &f), "derive");
	is_near(f.duration_s, 3.0, 1e-12, "duration 3 s");
	is_near(f.e[0].energy_j, (1000 - 800 + 100 + 200) / 1e6, 1e-15, "rapl: 200 + wrap 300 = 500 uJ");
	is_int(f.e[0].wraps, 1, "...one wrap");
	is_near(f.e[1].energy_j, (2 + 4) / 2.0 * 1 + 4 * 2, 1e-9, "gauge: trapezoids 3 J + 8 J");
	is_str(f.energy_from, "powercap energy", "the run's energy from powercap first");
	is_near(f.power_w, 500e-6 / 3, 1e-15, "mean power = energy / duration");
	/* sampled frequency: (1+2)/2 GHz for 1 s, 2 GHz for 2 s */
	is_near(f.cl[0].avg_khz, (1500000.0 * 1 + 2000000.0 * 2) / 3, 1e-6, "sampled average frequency");
	ok(f.cl[0].from == LJ_PWF_SAMPLED && f.cl[0].capped && f.cl[0].limit_min_khz == 1000000,
	   "a cap lifted before the end is still seen (sampled)");
	is_near(f.cpu[0].idle_share, 0.25, 1e-12, "idle 0.75 s of 3 s");
	ok(f.ntrips == 1 && f.zone[0].max_c == 75.0 && f.zone[0].end_c == 60.0,
	   "a trip crossed and left again: max 75 C, end 60 C");
	ok(f.throttled, "throttled");
	{
		/* two kinds: little = cpu0 (cluster at 1 GHz), big = cpus 1-3 (a cluster of 1 at 2 GHz, one of 2 at 3 GHz) */
		struct lj_pw_figures g = { .nclusters = 3, .ncpu = 4 };
		struct lj_pw_cpu_idle ci[4] = { { .cpu = 0, .idle_share = 0.5 }, { .cpu = 1, .idle_share = 0.1 },
						{ .cpu = 2, .idle_share = 0.2 }, { .cpu = 3, .idle_share = NAN } };
		struct lj_pw_kindfig kf[2];
		cpu_set_t kinds[2];

		g.cpu = ci;
		CPU_ZERO(&kinds[0]);
		CPU_ZERO(&kinds[1]);
		CPU_SET(0, &kinds[0]);
		for (int k = 1; k < 4; k++)
			CPU_SET(k, &kinds[1]);
		g.cl[0] = (struct lj_pw_cluster){ .id = 0, .from = LJ_PWF_TIME_IN_STATE, .avg_khz = 1e6 };
		g.cl[1] = (struct lj_pw_cluster){ .id = 1, .from = LJ_PWF_TIME_IN_STATE, .avg_khz = 2e6 };
		g.cl[2] = (struct lj_pw_cluster){ .id = 2, .from = LJ_PWF_SAMPLED, .avg_khz = 3e6 };
		CPU_SET(0, &g.cl[0].cpus);
		CPU_SET(1, &g.cl[1].cpus);
		CPU_SET(2, &g.cl[2].cpus);
		CPU_SET(3, &g.cl[2].cpus);
		lj_pw_kinds(&g, kinds, 2, kf);
		ok(kf[0].avg_khz == 1e6 && kf[0].from == LJ_PWF_TIME_IN_STATE && kf[0].idle_share == 0.5,
		   "little kind: its one cluster, its one CPU");
		is_near(kf[1].avg_khz, (2e6 * 1 + 3e6 * 2) / 3, 1e-6, "big kind: clusters weighted by their CPUs");
		ok(kf[1].from == LJ_PWF_SAMPLED, "...said sampled when one of its clusters was");
		is_near(kf[1].idle_share, 0.15, 1e-12, "...idle: the mean of the CPUs that have cpuidle");
	}
	lj_power_figures_free(&f);
	release(a);
	release(b);
	release(c);
	return done();
}
