// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_cgstat - the CFS bandwidth counters of a thread's cpu cgroup, read around a run. */
#include "lj_cgstat.h"
#include "lj_cgroup.h"
#include "lj_file.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lj_cgstat_parse_cgroup(const char *text, bool v2_cpu, bool *v2, char *path, size_t len)
{
	int ret = lj_cgroup_parse_proc(text, "cpu", path, len);

	if (ret != -ENOENT) {
		*v2 = false;
		return ret;
	}
	if (!v2_cpu)
		return -ENOENT;
	*v2 = true;
	return lj_cgroup_parse_proc(text, NULL, path, len);
}

int lj_cgstat_parse_stat(const char *text, uint64_t *nr_throttled, uint64_t *throttled_ns)
{
	bool got_nr = false, got_time = false;

	for (const char *line = text; line && *line;) {
		uint64_t v;

		if (sscanf(line, "nr_throttled %" SCNu64, &v) == 1) {
			*nr_throttled = v;
			got_nr = true;
		} else if (sscanf(line, "throttled_time %" SCNu64, &v) == 1) {
			*throttled_ns = v;
			got_time = true;
		} else if (sscanf(line, "throttled_usec %" SCNu64, &v) == 1) {
			*throttled_ns = v * 1000;
			got_time = true;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return got_nr && got_time ? 0 : -EINVAL;
}

int lj_cgstat_read(pid_t tid, struct lj_cgstat *out)
{
	struct lj_cgroup_mounts m;
	char self[64], text[4096], file[PATH_MAX + 300];
	const char *mount;
	bool v2 = false;
	ssize_t n;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = lj_cgroup_discover(&m);
	if (ret)
		return ret;
	snprintf(self, sizeof(self), "/proc/self/task/%d/cgroup", (int)(tid ? tid : gettid()));
	n = lj_file_read(self, text, sizeof(text));
	if (n < 0)
		return (int)n;
	ret = lj_cgstat_parse_cgroup(text, m.v2_cpu, &v2, out->group, sizeof(out->group));
	if (ret)
		return ret;
	mount = v2 ? m.unified : m.v1_cpu;
	if (!mount[0])
		return -ENOENT;
	snprintf(file, sizeof(file), "%s%s/cpu.stat", mount, strcmp(out->group, "/") ? out->group : "");
	n = lj_file_read(file, text, sizeof(text));
	if (n < 0)
		return (int)n;
	ret = lj_cgstat_parse_stat(text, &out->nr_throttled, &out->throttled_ns);
	out->known = !ret;
	return ret;
}
