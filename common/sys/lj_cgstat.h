/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_cgstat - the CFS bandwidth counters (cpu.stat) of the cpu cgroup a thread runs in. */
#ifndef LJ_CGSTAT_H
#define LJ_CGSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

/* One reading of a group's throttling counters. */
struct lj_cgstat {
	bool known;			/* false: no cpu controller, or cpu.stat unreadable */
	uint64_t nr_throttled;		/* periods in which the group ran out of quota */
	uint64_t throttled_ns;		/* time its tasks waited for the next period */
	char group[256];		/* the group's path under the controller ("/" the root) */
};

/*
 * The cpu controller's group in the text of /proc/PID/cgroup: a v1 line
 * whose controller list holds "cpu" ("1:cpu,cpuacct:/a/b"), else the v2
 * line ("0::/a/b") when @v2_cpu. Return: 0, or -ENOENT (no such line) or
 * -ENAMETOOLONG.
 */
int lj_cgstat_parse_cgroup(const char *text, bool v2_cpu, bool *v2, char *path, size_t len);

/*
 * nr_throttled and the throttled time of a cpu.stat text: v1
 * "throttled_time" in ns, v2 "throttled_usec" in us. Return: 0 or -EINVAL
 * when either is missing.
 */
int lj_cgstat_parse_stat(const char *text, uint64_t *nr_throttled, uint64_t *throttled_ns);

/*
 * Read the counters of the cpu group thread @tid (0: the caller's) is in.
 * Return: 0 (out->known), or -errno (out->known false).
 */
int lj_cgstat_read(pid_t tid, struct lj_cgstat *out);

#endif
