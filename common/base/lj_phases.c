// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_phases - read lj-env --sweep's phase log: "CLOCK_MONOTONIC_NS LABEL" lines. */
#include "lj_phases.h"

#include <stdio.h>
#include <string.h>

size_t lj_phases_load(const char *path, struct lj_phase *ph, size_t max)
{
	char line[256];
	size_t n = 0;
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "r")))
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		long long t;
		int off = 0;

		if (sscanf(line, "%lld %n", &t, &off) < 1 || !off)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		ph[n].t_ns = t;
		snprintf(ph[n].label, sizeof(ph[n].label), "%s", line + off);
		n++;
	}
	fclose(f);
	return n;
}

const char *lj_phase_at(const struct lj_phase *ph, size_t n, int64_t t)
{
	const char *label = "";

	for (size_t k = 0; k < n && ph[k].t_ns <= t; k++)
		label = ph[k].label;
	return label;
}
