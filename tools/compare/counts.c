// SPDX-License-Identifier: GPL-2.0-or-later
/* counts - which summary metrics count events, what they are out of, and bad values. */
#include "compare.h"
#include "lj_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * The metrics whose exposure lj-compare knows: a missed period is one of
 * the run's samples, a dropped frame one of its frames. drop_rate is the
 * same count divided by its frames, so it is compared as dropped of frames.
 */
static const struct {
	const char *metric, *of;
	bool scaled;
} exposures[] = {
	{ "missed", "samples", false },
	{ "overflows", "samples", false },
	{ "dropped", "frames", false },
	{ "drop_rate", "frames", true },
};

bool cmp_count_metric(const char *name, const char *unit, enum lj_better better,
		      const char **exposure_metric, bool *scaled)
{
	*exposure_metric = NULL;
	*scaled = false;
	for (size_t i = 0; i < sizeof(exposures) / sizeof(exposures[0]); i++)
		if (!strcmp(name, exposures[i].metric)) {
			*exposure_metric = exposures[i].of;
			*scaled = exposures[i].scaled;
			return true;
		}
	/*
	 * Any other count a tool marks as worse when higher (context switches,
	 * longest drop streak) is compared per run: its exposure is the run.
	 * Totals such as "samples" or "frames" (better: none) are not events.
	 */
	return better != LJ_BETTER_NONE && (!strcmp(unit, "count") || !strcmp(unit, "frames"));
}

int cmp_check_values(json_object *doc, char *why, size_t len)
{
	char where[128];
	json_object *sum;

	if (!json_object_object_get_ex(doc, "summary", &sum) || !json_object_is_type(sum, json_type_object))
		return 0;
	json_object_object_foreach(sum, name, m) {
		json_object *v;

		if (!json_object_is_type(m, json_type_object) || !json_object_object_get_ex(m, "value", &v) ||
		    !v || !json_object_is_type(v, json_type_double))
			continue;
		if (!isfinite(json_object_get_double(v))) {
			snprintf(why, len, "summary metric '%s' is %s", name,
				 isnan(json_object_get_double(v)) ? "NaN" : "infinite");
			return -EINVAL;
		}
	}
	/* Anywhere else too: a document with NaN or Infinity is not JSON (strict parsers refuse it). */
	if (lj_json_nonfinite(doc, where, sizeof(where))) {
		snprintf(why, len, "%s is NaN or Infinity, which JSON has not", where);
		return -EINVAL;
	}
	return 0;
}
