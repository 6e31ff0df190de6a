// SPDX-License-Identifier: GPL-2.0-or-later
/* method.c - warn when the compared runs measured differently: lj-frame calibrations, lj-hackbench stamp clocks. */
#include "compare.h"

#include <stdio.h>
#include <string.h>

#include "lj_err.h"

/*
 * Params that name how a tool measured, not what it measured: two runs
 * with different values differ by the tool's own doing as well as by the
 * system's, so a difference lj-compare finds between them is not the
 * system's alone. Each is said once, on stderr, naming both files. A run
 * without the key (an older result, or lj-hackbench without stamps)
 * says nothing.
 */
static const struct method_key {
	const char *key, *what, *why;
} method_keys[CMP_METHOD_KEYS] = {
	{ "calibration_id", "lj-frame calibrations",
	  "the same --work-time was a different amount of work" },
	{ "stamp_clock", "lj-hackbench stamp clocks",
	  "per-message stamps cost differently, so time and msgs_per_s move with the tool too"
	  " (compare --no-latency runs, or runs with the same clock)" },
};

void cmp_check_method(struct cmp_data *d, const char *path, json_object *doc)
{
	json_object *params, *v;

	if (!json_object_object_get_ex(doc, "params", &params))
		return;
	for (size_t i = 0; i < CMP_METHOD_KEYS; i++) {
		const struct method_key *k = &method_keys[i];
		struct cmp_method_seen *seen = &d->method[i];
		const char *s;

		if (!json_object_object_get_ex(params, k->key, &v) || !json_object_is_type(v, json_type_string))
			continue;
		s = json_object_get_string(v);
		if (!seen->value[0]) {
			snprintf(seen->value, sizeof(seen->value), "%s", s);
			snprintf(seen->path, sizeof(seen->path), "%s", path);
			continue;
		}
		if (seen->warned || !strncmp(seen->value, s, sizeof(seen->value) - 1))
			continue;
		seen->warned = true;
		lj_warn("runs used different %s ('%s' in %s, '%s' in %s): %s", k->what, seen->value,
			seen->path, s, path, k->why);
	}
}
