// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_power_report - the "power: ..." lines for every combination of
 * sources (cpufreq, cpuidle, energy, thermal: each present or not), built
 * through lj_power_derive as a run would: each line well formed, each
 * figure present exactly when its source is, each missing source said once.
 */
#include "lj_power.h"
#include "lj_power_report.h"
#include "tap.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HAS_FREQ = 1, HAS_IDLE = 2, HAS_ENERGY = 4, HAS_THERMAL = 8, NCOMBOS = 16 };

/* A two-CPU snapshot at @t_s seconds with the sources of @mask; @later moves the counters. */
static void fill(struct lj_pw_snap *s, struct lj_pw_cpu cpu[2], unsigned mask, int t_s, bool later)
{
	memset(s, 0, sizeof(*s));
	memset(cpu, 0, 2 * sizeof(*cpu));
	s->t_ns = (uint64_t)t_s * 1000000000u;
	s->cpu = cpu;
	s->ncpu = 2;
	s->cpu_cap = 2;
	for (int i = 0; i < 2; i++) {
		cpu[i].cpu = i;
		if (mask & HAS_IDLE) {
			cpu[i].nidle = 1;
			snprintf(cpu[i].s[0].name, sizeof(cpu[i].s[0].name), "C1");
			cpu[i].s[0].time_us = later ? 500000 : 0;	/* idle half of 1 s */
		}
	}
	if (mask & HAS_FREQ) {
		s->npol = 1;
		CPU_SET(0, &s->pol[0].cpus);
		CPU_SET(1, &s->pol[0].cpus);
		s->pol[0].nfreq = 2;
		s->pol[0].f[0] = (struct lj_pw_freq){ 1000000, later ? 50 : 0 };
		s->pol[0].f[1] = (struct lj_pw_freq){ 2000000, later ? 50 : 0 };
		s->pol[0].limit_khz = 2000000;
	}
	if (mask & HAS_ENERGY) {
		s->nsrc = 1;
		s->src[0] = (struct lj_pw_source){ LJ_PWO_POWERCAP, LJ_PWK_COUNTER_UJ, "intel-rapl:0 package-0",
						   true, later ? 3000000 : 1000000, 0 };
	}
	if (mask & HAS_THERMAL) {
		s->nzone = 1;
		snprintf(s->zone[0].name, sizeof(s->zone[0].name), "thermal_zone0 x86_pkg_temp");
		s->zone[0].temp_mc = later ? 45000 : 40000;
	}
	for (int o = 0; o < LJ_PWO_COUNT; o++) {
		s->have[o] = (o == LJ_PWO_CPUFREQ && (mask & HAS_FREQ)) || (o == LJ_PWO_CPUIDLE && (mask & HAS_IDLE)) ||
			     (o == LJ_PWO_POWERCAP && (mask & HAS_ENERGY)) || (o == LJ_PWO_THERMAL && (mask & HAS_THERMAL));
		if (!s->have[o])
			snprintf(s->why[o], sizeof(s->why[o]), "no driver (no /sys/%s)", lj_pw_origin_name(o));
	}
}

/* Every line "power: WORD...", no empty part: nothing like ":,", ", ,", ",,", a trailing separator. */
static bool well_formed(const char *text, char *bad, size_t len)
{
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char l[512];

		snprintf(l, sizeof(l), "%.*s", (int)n, line);
		if (strncmp(l, "power: ", 7) || !isalpha((unsigned char)l[7]) || strstr(l, ":,") ||
		    strstr(l, ", ,") || strstr(l, ",,") || strstr(l, "  ") || strstr(l, ": :") ||
		    (n && (l[n - 1] == ',' || l[n - 1] == ':' || l[n - 1] == ' '))) {
			snprintf(bad, len, "%s", l);
			return false;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return true;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void check(unsigned mask)
{
	struct lj_pw_cpu ca[2], cb[2];
	struct lj_pw_snap a, b;
	struct lj_pw_accum acc = { 0 };
	struct lj_pw_figures f;
	char *text = NULL, bad[512] = "", name[160];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int failed = tap_failed;
	bool freq = mask & HAS_FREQ, idle = mask & HAS_IDLE;

	fill(&a, ca, mask, 0, false);
	fill(&b, cb, mask, 1, true);
	lj_pw_accum_begin(&acc, &a);
	lj_pw_accum_add(&acc, &a, &b);
	if (lj_power_derive(&a, &b, &acc, &f) || !out) {
		ok(0, "derive");
		skip(5, "no figures");
		return;
	}
	lj_power_print(&a, &f, "", out);
	fclose(out);
	snprintf(name, sizeof(name), "cpufreq %s, cpuidle %s, energy %s, thermal %s", freq ? "yes" : "no",
		 idle ? "yes" : "no", mask & HAS_ENERGY ? "yes" : "no", mask & HAS_THERMAL ? "yes" : "no");
	if (!ok(well_formed(text, bad, sizeof(bad)), name))
		diag("malformed line: '%s'", bad);
	/* cpufreq: either the cluster's frequency or "cpufreq unavailable", once, never both */
	ok(count(text, " MHz (time_in_state)") == freq && count(text, "power: cpufreq unavailable: ") == !freq,
	   "...frequency reported or cpufreq said unavailable, once");
	ok(count(text, ", idle 50.0%") + count(text, ": idle 50.0%") == idle &&
	   count(text, "power: cpuidle unavailable: ") == !idle, "...idle share exactly when cpuidle is there");
	ok(count(text, "power: cpus ") == (freq || idle), "...one cluster line when there is a figure for it, none otherwise");
	ok(count(text, "power: energy 2.000 J, mean 2.000 W over 1.000 s (powercap energy)\n") == !!(mask & HAS_ENERGY) &&
	   count(text, "power: powercap unavailable: ") == !(mask & HAS_ENERGY), "...energy line exactly when energy is counted");
	ok(count(text, "power: thermal_zone0 x86_pkg_temp 40.0 -> 45.0 C (max 45.0 C)\n") == !!(mask & HAS_THERMAL) &&
	   count(text, "power: thermal unavailable: ") == !(mask & HAS_THERMAL), "...temperature line exactly when a zone is read");
	if (tap_failed > failed)
		diag("output:\n%s", text);
	lj_power_figures_free(&f);
	free(text);
}

int main(void)
{
	plan(NCOMBOS * 6 + 1);
	for (unsigned mask = 0; mask < NCOMBOS; mask++)
		check(mask);
	{
		/* this VM's profile, spelled out: idle states, no cpufreq driver */
		struct lj_pw_cpu ca[2], cb[2];
		struct lj_pw_snap a, b;
		struct lj_pw_accum acc = { 0 };
		struct lj_pw_figures f;
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		fill(&a, ca, HAS_IDLE, 0, false);
		fill(&b, cb, HAS_IDLE, 1, true);
		lj_pw_accum_add(&acc, &a, &b);
		lj_power_derive(&a, &b, &acc, &f);
		lj_power_print(&a, &f, "", out);
		fclose(out);
		ok(strstr(text, "\npower: cpus 0-1: idle 50.0%\n") != NULL, "idle without cpufreq: 'power: cpus 0-1: idle 50.0%'");
		lj_power_figures_free(&f);
		free(text);
	}
	return done();
}
