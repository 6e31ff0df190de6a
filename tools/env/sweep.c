// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep.c - parse --sweep cpus=... into cpuset steps and check them against the allowed CPUs. */
#include "env.h"
#include "lj_setup.h"
#include "lj_parse.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * "cpus=1,2,2-3,0-1": each comma-separated element is a step (one CPU or
 * a range). To give a step with several ranges, separate steps with '/'
 * instead: "cpus=0,2/1,3".
 */
int env_sweep_parse(const char *text, struct env_sweep *out, char *why, size_t len)
{
	char buf[1024], *save = NULL, *tok;
	const char *sep;

	out->nsteps = 0;
	if (strncmp(text, "cpus=", 5)) {
		return lj_why_err(why, len, -EINVAL, "expected cpus=STEPS");
	}
	text += 5;
	if (strlen(text) >= sizeof(buf)) {
		return lj_why_err(why, len, -EINVAL, "too long");
	}
	if (!*text) {
		return lj_why_err(why, len, -EINVAL, "no steps");
	}
	sep = strchr(text, '/') ? "/" : ",";
	/* strtok would skip empty steps ("1,,2"): refuse them first */
	if (text[0] == *sep || text[strlen(text) - 1] == *sep ||
	    strstr(text, *sep == '/' ? "//" : ",,")) {
		return lj_why_err(why, len, -EINVAL, "empty step");
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		int ret;

		if (out->nsteps == ENV_MAX_STEPS) {
			return lj_why_err(why, len, -ERANGE, "more than 64 steps");
		}
		ret = lj_parse_cpulist(tok, &out->steps[out->nsteps], 0, why, len);
		if (ret)
			return ret;
		out->nsteps++;
	}
	return 0;
}

int env_sweep_check(const struct env_sweep *sw, const cpu_set_t *allowed, char *why, size_t len)
{
	for (int i = 0; i < sw->nsteps; i++)
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &sw->steps[i]) && !CPU_ISSET(cpu, allowed)) {
				char list[256];

				snprintf(why, len, "step %d: CPU %d is not allowed (allowed: %s)",
					 i + 1, cpu, lj_cpulist_format(allowed, list, sizeof(list)));
				return -EINVAL;
			}
	return 0;
}

/*
 * Tools with a timeline label their rows with the setting in force
 * (docs/lj-frame.md): they read this log when they write the timeline,
 * times on CLOCK_MONOTONIC, which parent and child share.
 */
int env_phase_open(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	/*
	 * Beside the journal: a SIGKILL leaves it to lj-env --restore (in
	 * $TMPDIR it stayed for good). Only a run that cannot use the journal
	 * directory (without privilege) puts it in $TMPDIR.
	 */
	int fd = lj_setup_runfile("phases", path, len);

	if (fd < 0) {
		snprintf(path, len, "%s/lj-env-phases.XXXXXX", dir && *dir ? dir : "/tmp");
		fd = mkstemp(path);
	}
	if (fd < 0) {
		path[0] = '\0';
		return -errno;
	}
	close(fd);
	if (setenv("LJ_SWEEP_PHASES", path, 1)) {
		unlink(path);
		path[0] = '\0';
		return -ENOMEM;
	}
	return 0;
}

void env_phase_note(const char *path, int64_t mono_ns, const char *label)
{
	char line[320];
	int fd, n;

	if (!path[0])
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	/* One write per line: a reader never sees half a line. */
	n = snprintf(line, sizeof(line), "%lld %s\n", (long long)mono_ns, label);
	if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) < 0)
		n = -1;
	close(fd);
}

void env_phase_close(char *path)
{
	if (!path[0])
		return;
	unlink(path);
	unsetenv("LJ_SWEEP_PHASES");
	path[0] = '\0';
}
