// SPDX-License-Identifier: GPL-2.0-or-later
/* setupargs - translate a cell's setup axes and the scenario's watch into lj-env options. */
#include "matrix.h"

#include <errno.h>
#include <string.h>

/* Axis name, lj-env option, and the value that means "leave it alone". */
static const struct {
	const char *axis, *opt, *keep;
} map[] = {
	{ "cgroup", "--cgroup", NULL },		/* "off" is a choice: the root groups */
	{ "cpus", "--cpus", NULL },
	{ "governor", "--governor", "keep" },
	{ "preempt", "--preempt", "keep" },
	{ "dma_latency", "--dma-latency", "none" },
	{ "idle_state", "--idle-state", "none" },
};

/*
 * Fill @argv with option/value pairs (pointers into the scenario, not
 * copies). Returns the count (0: the cell needs no lj-env), or -E2BIG.
 */
int mx_setup_args(const struct lj_scenario *s, const struct lj_scenario_cell *c,
		  const char **argv, int max)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const char *v = lj_scenario_value(s, c, map[i].axis);

		if (!v || (map[i].keep && !strcmp(v, map[i].keep)))
			continue;
		if (n + 2 > max)
			return -E2BIG;
		argv[n++] = map[i].opt;
		/* "on" names the group lj-matrix uses; anything else is a group name. */
		if (!strcmp(map[i].axis, "cgroup") && !strcmp(v, "on"))
			v = "ljkit-matrix";
		argv[n++] = v;
	}
	/* watch = ...: every run counts those tasks' context switches (run.c merges them) */
	for (int i = 0; i < s->nwatch; i++) {
		if (n + 2 > max)
			return -E2BIG;
		argv[n++] = "--watch";
		argv[n++] = s->watch[i];
	}
	return n;
}
