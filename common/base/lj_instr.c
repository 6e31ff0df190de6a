// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_instr - what a run's own instruments cost it, and when that makes the run suspect. */
#include "lj_instr.h"

#include <stdio.h>

double lj_instr_share(const struct lj_instr_cost *c, uint64_t span_ns)
{
	return span_ns ? (double)c->cpu_ns / (double)span_ns : 0.0;
}

double lj_instr_limit(const struct lj_instr_cost *c)
{
	return c->threaded && !c->apart ? LJ_INSTR_SHARE_LIMIT_SHARED : LJ_INSTR_SHARE_LIMIT;
}

bool lj_instr_suspect(const struct lj_instr_cost *c, uint64_t span_ns, char *text, size_t len)
{
	double share = lj_instr_share(c, span_ns), limit = lj_instr_limit(c);

	if (!span_ns || share <= limit)
		return false;
	if (text)
		snprintf(text, len, "%s used %.1f%% of the run's time (%.1f ms of CPU over %.2f s, %s; limit %g%%)",
			 c->what, 100.0 * share, (double)c->cpu_ns / 1e6, (double)span_ns / 1e9,
			 c->apart ? "off the measured CPUs" : "on the measured CPUs", 100.0 * limit);
	return true;
}

bool lj_instr_emulator_suspect(double ns_per_frame, uint64_t period_ns, char *text, size_t len)
{
	double share = period_ns ? ns_per_frame / (double)period_ns : 0.0;

	if (!period_ns || share <= LJ_INSTR_EMULATOR_LIMIT)
		return false;
	if (text)
		snprintf(text, len, "lj-frame's own overhead was %.1f%% of the frame period (%.0f us per frame of %.2f ms; limit %g%%)",
			 100.0 * share, ns_per_frame / 1e3, (double)period_ns / 1e6, 100.0 * LJ_INSTR_EMULATOR_LIMIT);
	return true;
}
