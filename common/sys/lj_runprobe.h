/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_runprobe - what the machine did during a run: CPU time and frequency of the measured CPUs, clock source, kernel log. */
#ifndef LJ_RUNPROBE_H
#define LJ_RUNPROBE_H

#include <sched.h>
#include <stdint.h>
#include <stddef.h>

#include "lj_cgstat.h"

/* One reading; two of them bracket a run. Ticks are USER_HZ (/proc/stat). */
struct lj_runprobe {
	char clocksource[32];		/* "" when unknown */
	uint64_t busy, steal, total;	/* summed over the CPUs asked for */
	uint64_t own;			/* this process's utime + stime */
	unsigned long freq_lo, freq_hi;	/* kHz over the CPUs asked for (scaling_cur_freq), 0: unknown */
	int kmsg_fd;			/* /dev/kmsg positioned at the reading, -1 without */
	struct lj_cgstat cg;		/* the calling thread's cpu group's throttling counters */
};

/*
 * Read the clock source, /proc/stat for @cpus, this process's CPU time and
 * the CFS throttling counters of the calling thread's cpu cgroup;
 * with @kmsg, open /dev/kmsg at its end (root or dmesg_restrict=0; -1 if
 * not). Return: 0, or -errno when /proc/stat cannot be read (fields then 0).
 */
int lj_runprobe_read(struct lj_runprobe *p, const cpu_set_t *cpus, int kmsg);

/* Call @fn with each kernel log message written since the reading. Non-blocking. */
void lj_runprobe_kmsg(struct lj_runprobe *p, void (*fn)(const char *msg, void *arg), void *arg);

void lj_runprobe_close(struct lj_runprobe *p);

#endif
