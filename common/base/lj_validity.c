// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_validity - the validity verdict of a run and the checks that feed it (no system access). */
#include "lj_validity.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lj_validity_init(struct lj_validity *v)
{
	memset(v, 0, sizeof(*v));
	v->verdict = LJ_VALID;
}

const char *lj_validity_name(enum lj_validity_level l)
{
	return l == LJ_INVALID ? "invalid" : l == LJ_SUSPECT ? "suspect" : "valid";
}

void lj_validity_add(struct lj_validity *v, enum lj_validity_level l, const char *what,
		     const char *fmt, ...)
{
	struct lj_validity_reason *r;
	va_list ap;

	if (l > v->verdict)
		v->verdict = l;
	if (v->n == LJ_VALIDITY_MAX_REASONS) {
		v->more++;
		return;
	}
	r = &v->r[v->n++];
	r->level = l;
	snprintf(r->what, sizeof(r->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

void lj_validity_check_sched(struct lj_validity *v, int tid, const char *asked_name, int asked_prio,
			     const char *got_name, int got_prio, bool same_policy)
{
	if (same_policy && asked_prio == got_prio)
		return;
	lj_validity_add(v, LJ_INVALID, "sched", "thread %d ran %s %d, asked %s %d", tid, got_name,
			got_prio, asked_name, asked_prio);
}

void lj_validity_check_sched_load(struct lj_validity *v, int tid, const char *asked_name,
				  int asked_prio, const char *got_name, int got_prio, bool same_policy)
{
	if (same_policy && asked_prio == got_prio)
		return;
	lj_validity_add(v, LJ_SUSPECT, "sched", "load thread %d ran %s %d, asked %s %d", tid, got_name,
			got_prio, asked_name, asked_prio);
}

void lj_validity_check_counts(struct lj_validity *v, uint64_t missed, uint64_t overflows,
			      uint64_t samples)
{
	if (missed)
		lj_validity_add(v, LJ_SUSPECT, "missed", "%" PRIu64 " missed period%s of %" PRIu64 " samples",
				missed, missed == 1 ? "" : "s", samples);
	if (overflows)
		lj_validity_add(v, LJ_SUSPECT, "overflows", "%" PRIu64 " sample%s beyond the histogram",
				overflows, overflows == 1 ? "" : "s");
}

void lj_validity_check_cut_short(struct lj_validity *v, uint64_t expected, uint64_t got)
{
	if (expected && got < expected)
		lj_validity_add(v, LJ_SUSPECT, "cut-short", "run cut short: %" PRIu64 " of %" PRIu64 " samples measured (%.1f%%)",
				got, expected, 100.0 * (double)got / (double)expected);
}

void lj_validity_check_clocksource(struct lj_validity *v, const char *before, const char *after)
{
	if (!*before || !*after || !strcmp(before, after))
		return;
	lj_validity_add(v, LJ_INVALID, "clocksource", "clock source changed: %s -> %s", before, after);
}

void lj_validity_check_virt(struct lj_validity *v, const char *hypervisor)
{
	if (!hypervisor || strcmp(hypervisor, LJ_VALIDITY_TCG))
		return;
	lj_validity_add(v, LJ_INVALID, "tcg", "measured in a QEMU TCG guest: an emulated CPU's timing says "
			"nothing about the kernel");
}

void lj_validity_check_load(struct lj_validity *v, const char *cpus, uint64_t busy_ticks,
			    uint64_t own_ticks, uint64_t steal_ticks, uint64_t total_ticks)
{
	double outside, steal;

	if (!total_ticks)
		return;
	outside = busy_ticks > own_ticks ? (double)(busy_ticks - own_ticks) / (double)total_ticks : 0;
	steal = (double)steal_ticks / (double)total_ticks;
	if (outside > LJ_VALIDITY_OUTSIDE_LOAD)
		lj_validity_add(v, LJ_SUSPECT, "load", "CPU %s %.0f%% busy with other work (limit %.0f%%)",
				cpus, 100 * outside, 100 * LJ_VALIDITY_OUTSIDE_LOAD);
	if (steal > LJ_VALIDITY_STEAL)
		lj_validity_add(v, LJ_SUSPECT, "steal", "CPU %s: the hypervisor took %.1f%% (steal)", cpus,
				100 * steal);
}

static bool moved(unsigned long a, unsigned long b)
{
	double d = a > b ? (double)(a - b) : (double)(b - a);

	return d > LJ_VALIDITY_FREQ_CHANGE * (double)(a > b ? a : b);
}

void lj_validity_check_freq(struct lj_validity *v, unsigned long lo0, unsigned long hi0,
			    unsigned long lo1, unsigned long hi1)
{
	if (!lo0 || !hi0 || !lo1 || !hi1 || (!moved(lo0, lo1) && !moved(hi0, hi1)))
		return;
	lj_validity_add(v, LJ_SUSPECT, "frequency", "CPU frequency %lu-%lu MHz at the start, %lu-%lu MHz at the end",
			lo0 / 1000, hi0 / 1000, lo1 / 1000, hi1 / 1000);
}

void lj_validity_check_cfs_throttle(struct lj_validity *v, const char *group, uint64_t nr0,
				    uint64_t ns0, uint64_t nr1, uint64_t ns1)
{
	if (nr1 <= nr0)
		return;
	lj_validity_add(v, LJ_SUSPECT, "cfs-throttling",
			"cgroup %s throttled %" PRIu64 " times (%.1f ms) by its CPU bandwidth quota",
			group, nr1 - nr0, ns1 > ns0 ? (double)(ns1 - ns0) / 1e6 : 0.0);
}

void lj_validity_check_kmsg(struct lj_validity *v, const char *line)
{
	if (strstr(line, "RT throttling activated"))
		lj_validity_add(v, LJ_SUSPECT, "rt-throttling", "RT throttling engaged during the run");
	else if (strstr(line, "clocksource") && (strstr(line, "unstable") || strstr(line, "Switched to")))
		lj_validity_add(v, LJ_INVALID, "clocksource", "kernel: %.150s", line);
}

int lj_validity_parse_cpu_line(const char *line, int *cpu, uint64_t *busy, uint64_t *steal,
			       uint64_t *total)
{
	unsigned long long f[8] = { 0 };
	const char *p = line + 3;
	char *end;
	int n;

	if (strncmp(line, "cpu", 3))
		return -EINVAL;
	if (*p == ' ') {
		*cpu = -1;
	} else {
		long c = strtol(p, &end, 10);

		if (end == p || *end != ' ' || c < 0)
			return -EINVAL;
		*cpu = (int)c;
		p = end;
	}
	/* user nice system idle iowait irq softirq steal (guest is inside user) */
	n = sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
		   &f[5], &f[6], &f[7]);
	if (n < 4)
		return -EINVAL;
	*busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
	*steal = f[7];
	*total = *busy + f[3] + f[4];
	return 0;
}

int lj_validity_parse_proc_stat(const char *line, uint64_t *ticks)
{
	const char *p = strrchr(line, ')');
	unsigned long long ut, st;
	long long cut, cst;

	/*
	 * After "pid (comm)": state is field 3, utime 14, stime 15, and the
	 * reaped children's cutime 16, cstime 17 (lj-hackbench's workers).
	 */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld", &ut,
			 &st, &cut, &cst) != 4)
		return -EINVAL;
	*ticks = ut + st + (uint64_t)(cut > 0 ? cut : 0) + (uint64_t)(cst > 0 ? cst : 0);
	return 0;
}
