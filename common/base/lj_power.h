/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_power - snapshots of frequency, idle, energy and thermal counters, and what they add up to over a run. */
#ifndef LJ_POWER_H
#define LJ_POWER_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * A snapshot is what the sysfs readers (common/sys/lj_powerread) saw at one
 * instant: per cpufreq policy (a cluster: the CPUs that share a clock) the
 * time_in_state table, transitions and limits; per CPU its cpuidle states
 * and thermal throttle counters; the energy counters and power gauges of
 * every source; the thermal zones. An accumulator follows consecutive
 * snapshots (a start, the sampler's, a stop) for what only sampling can
 * see: counters that wrap, gauges to integrate, a limit lowered and
 * raised again, the highest temperature. lj_power_derive turns the first
 * snapshot, the last and the accumulator into figures. All pure.
 * Units are the kernel's: kHz, 10 ms (time_in_state), us (cpuidle), uJ,
 * uW, uWh, uA, uV, millidegrees Celsius.
 */

#define LJ_PW_MAX_FREQS 48
#define LJ_PW_MAX_IDLE 12
#define LJ_PW_MAX_POLICIES 64
#define LJ_PW_MAX_SOURCES 16
#define LJ_PW_MAX_ZONES 16
#define LJ_PW_MAX_TRIPS 8

/* The sources, each reported available or not (with the reason) once. */
enum lj_pw_origin {
	LJ_PWO_CPUFREQ, LJ_PWO_CPUIDLE, LJ_PWO_POWERCAP, LJ_PWO_HWMON, LJ_PWO_BATTERY,
	LJ_PWO_THERMAL, LJ_PWO_THROTTLE, LJ_PWO_COUNT
};
const char *lj_pw_origin_name(enum lj_pw_origin o);

struct lj_pw_freq {
	uint64_t khz;
	uint64_t time;			/* time_in_state, 10 ms units */
};

struct lj_pw_policy {
	int id;				/* the first CPU of related_cpus */
	cpu_set_t cpus;
	int nfreq;			/* 0: no stats/time_in_state */
	struct lj_pw_freq f[LJ_PW_MAX_FREQS];
	bool has_trans;
	uint64_t total_trans;
	uint64_t cur_khz;		/* scaling_cur_freq, 0: unknown */
	uint64_t limit_khz;		/* scaling_max_freq, 0: unknown */
	uint64_t min_khz, max_khz;	/* cpuinfo_{min,max}_freq, 0: unknown */
};

struct lj_pw_idle {
	char name[16];
	uint64_t time_us, usage, above, below;
};

struct lj_pw_cpu {
	int cpu;
	int nidle;
	struct lj_pw_idle s[LJ_PW_MAX_IDLE];
	bool has_throttle;
	uint64_t throttle;		/* core + package thermal throttle counts */
};

enum lj_pw_kind {
	LJ_PWK_COUNTER_UJ,		/* powercap energy_uj, hwmon energyN_input */
	LJ_PWK_GAUGE_UW,		/* hwmon powerN_input, battery power_now or current x voltage */
	LJ_PWK_BATTERY_UWH,		/* battery energy_now: falls while discharging */
};

struct lj_pw_source {
	enum lj_pw_origin origin;	/* POWERCAP, HWMON or BATTERY */
	enum lj_pw_kind kind;
	char name[64];			/* "intel-rapl:0 package-0", "hwmon0 power1", "BAT0 energy_now" */
	bool top;			/* counts toward the total (powercap: not a subzone) */
	uint64_t value;			/* uJ, uW or uWh as the kind says */
	uint64_t max_range;		/* counter: max_energy_range_uj (0: unknown, no wrap handled) */
};

struct lj_pw_zone {
	char name[32];			/* "thermal_zone0 x86_pkg_temp" */
	int64_t temp_mc;
	int ntrip;
	int64_t trip_mc[LJ_PW_MAX_TRIPS];
	char trip_type[LJ_PW_MAX_TRIPS][12];
};

struct lj_pw_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	int npol, ncpu, nsrc, nzone;
	struct lj_pw_policy pol[LJ_PW_MAX_POLICIES];
	struct lj_pw_cpu *cpu;		/* ncpu entries, owned by the caller */
	int cpu_cap;
	struct lj_pw_source src[LJ_PW_MAX_SOURCES];
	struct lj_pw_zone zone[LJ_PW_MAX_ZONES];
	bool have[LJ_PWO_COUNT];		/* origin seen at all */
	char why[LJ_PWO_COUNT][112];	/* why not, when !have */
};

/* Across consecutive snapshots. Zero-initialised before the first lj_pw_accum_add. */
struct lj_pw_accum {
	int nsamples;			/* snapshot pairs added */
	double energy_uj[LJ_PW_MAX_SOURCES];	/* counters: wrap-corrected; gauges: integrated; battery: drop */
	int wraps[LJ_PW_MAX_SOURCES];
	uint64_t freq_khz_ns[LJ_PW_MAX_POLICIES];	/* sampled scaling_cur_freq x time */
	uint64_t freq_ns[LJ_PW_MAX_POLICIES];
	uint64_t min_limit_khz[LJ_PW_MAX_POLICIES];	/* lowest scaling_max_freq seen, 0: none */
	int64_t max_temp_mc[LJ_PW_MAX_ZONES];
};

/* Energy between two readings of a counter that wraps to 0 after @max_range (0: no wrap known). */
uint64_t lj_pw_counter_delta(uint64_t start, uint64_t end, uint64_t max_range, bool *wrapped);

/* Fold the step @prev -> @cur into @acc (same machine: sources and policies in the same order). */
void lj_pw_accum_add(struct lj_pw_accum *acc, const struct lj_pw_snap *prev, const struct lj_pw_snap *cur);
/* Seed @acc from the first snapshot (limits, temperatures). */
void lj_pw_accum_begin(struct lj_pw_accum *acc, const struct lj_pw_snap *first);

enum lj_pw_freq_from { LJ_PWF_NONE, LJ_PWF_TIME_IN_STATE, LJ_PWF_SAMPLED };
const char *lj_pw_freq_from_name(enum lj_pw_freq_from f);

struct lj_pw_cluster {
	int id;
	cpu_set_t cpus;
	enum lj_pw_freq_from from;
	double avg_khz;			/* 0: unknown */
	double share_min, share_max;	/* of the time in the table's lowest / highest state */
	int nfreq;
	struct lj_pw_freq f[LJ_PW_MAX_FREQS];	/* time per frequency during the run, 10 ms units */
	bool has_trans;
	uint64_t trans;
	uint64_t limit_start_khz, limit_end_khz, limit_min_khz;
	bool capped;			/* scaling_max_freq was lowered during the run */
	/* idle of the cluster's CPUs (NaN: no cpuidle) */
	double idle_share;
};

struct lj_pw_cpu_idle {
	int cpu;
	int nidle;
	struct lj_pw_idle d[LJ_PW_MAX_IDLE];	/* deltas over the run */
	double idle_share;		/* sum of the states' time over the run's time */
	bool has_throttle;
	uint64_t throttle;		/* throttle events during the run */
};

struct lj_pw_energy {
	char name[64];
	enum lj_pw_origin origin;
	enum lj_pw_kind kind;
	bool top;
	double energy_j;
	double mean_w;
	int wraps;
};

struct lj_pw_trip {
	char zone[32];
	char type[12];
	double trip_c, start_c, max_c;
};

struct lj_pw_figures {
	double duration_s;
	int nclusters;
	struct lj_pw_cluster cl[LJ_PW_MAX_POLICIES];
	int ncpu;
	struct lj_pw_cpu_idle *cpu;	/* ncpu entries, allocated by lj_power_derive; lj_power_figures_free */
	int nenergy;
	struct lj_pw_energy e[LJ_PW_MAX_SOURCES];
	/* the run's energy: powercap top zones, else hwmon energy, else battery, else integrated gauges */
	bool have_energy;
	double energy_j, power_w;
	char energy_from[64];
	int nzone;
	struct { char name[32]; double start_c, end_c, max_c; } zone[LJ_PW_MAX_ZONES];
	int ntrips;
	struct lj_pw_trip trip[LJ_PW_MAX_ZONES];	/* trip points crossed upwards */
	uint64_t throttle_events;
	bool throttled;			/* a cap, a crossed passive/hot/critical trip, or throttle events */
};

/* Return: 0, or -ENOMEM. */
int lj_power_derive(const struct lj_pw_snap *first, const struct lj_pw_snap *last,
		    const struct lj_pw_accum *acc, struct lj_pw_figures *out);
void lj_power_figures_free(struct lj_pw_figures *f);

/*
 * Per core kind (@kinds: each kind's CPUs, as lj_topo ranks them): the
 * frequency of its clusters weighted by their CPUs in the kind (from
 * time_in_state when every such cluster has it, else "sampled"; NONE:
 * no cluster), and its CPUs' mean idle share (NaN: no cpuidle).
 */
struct lj_pw_kindfig {
	cpu_set_t cpus;
	enum lj_pw_freq_from from;
	double avg_khz;
	double idle_share;
};
void lj_pw_kinds(const struct lj_pw_figures *f, const cpu_set_t *kinds, int nkinds, struct lj_pw_kindfig *out);

/* Energy per unit of work: mJ per frame, J per million messages (NaN: no energy or no work). */
double lj_pw_per_unit(const struct lj_pw_figures *f, double units, double scale);

#endif
