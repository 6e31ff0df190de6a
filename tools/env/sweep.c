// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep.c - parse --sweep cpus=... into cpuset steps and check them against the allowed CPUs. */
#include "env.h"
#include "lj_parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * "cpus=1,2,2-3,0-1": each comma-separated element is a step (one CPU or
 * a range). To give a step with several ranges, separate steps with '/'
 * instead: "cpus=0,2/1,3".
 */
int env_sweep_parse(const char *text, struct env_sweep *out, const char **why)
{
	char buf[1024], *save = NULL, *tok;
	const char *sep;

	out->nsteps = 0;
	if (strncmp(text, "cpus=", 5)) {
		*why = "expected cpus=STEPS";
		return -EINVAL;
	}
	text += 5;
	if (strlen(text) >= sizeof(buf)) {
		*why = "too long";
		return -EINVAL;
	}
	if (!*text) {
		*why = "no steps";
		return -EINVAL;
	}
	sep = strchr(text, '/') ? "/" : ",";
	/* strtok would skip empty steps ("1,,2"): refuse them first */
	if (text[0] == *sep || text[strlen(text) - 1] == *sep ||
	    strstr(text, *sep == '/' ? "//" : ",,")) {
		*why = "empty step";
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		int ret;

		if (out->nsteps == ENV_MAX_STEPS) {
			*why = "more than 64 steps";
			return -ERANGE;
		}
		ret = lj_parse_cpulist(tok, &out->steps[out->nsteps], 0, why);
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
