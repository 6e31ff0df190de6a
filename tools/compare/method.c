// SPDX-License-Identifier: GPL-2.0-or-later
/* method.c - warn when the compared runs measured differently: lj-frame calibrations, lj-hackbench stamp clocks. */
#include "compare.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lj_err.h"

/*
 * Params that name how a tool measured, not what it measured: two runs
 * with different values differ by the tool's own doing as well as by the
 * system's, so a difference lj-compare finds between them is not the
 * system's alone. Each is said once, on stderr, naming both files. A run
 * whose value is null (lj-hackbench without stamps) says nothing; one
 * without the key says what the tool did before it recorded it, where
 * that is known.
 */
static const char *older_hackbench_clock(json_object *doc);
static void calibration_itself(const char *id, char *out, size_t len);

static const struct method_key {
	const char *key, *what, *why;
	const char *(*missing)(json_object *doc);	/* the value of a result without the key, or NULL */
	void (*itself)(const char *v, char *out, size_t len);	/* what is compared, or NULL: all of it */
} method_keys[CMP_METHOD_KEYS] = {
	{ "calibration_id", "lj-frame calibrations",
	  "the same --work-time was a different amount of work", NULL, calibration_itself },
	{ "stamp_clock", "lj-hackbench stamp clocks",
	  "per-message stamps cost differently, so time and msgs_per_s move with the tool too"
	  " (compare --no-latency runs, or runs with the same clock)", older_hackbench_clock, NULL },
};

/*
 * lj-frame's calibration_id, "MODEL/kind K/SOURCE MEASURED_AT/NS ns",
 * names where the figure came from too: "new" in the run that measured
 * and stored it, "stored" in the runs that read it back. The same figure
 * from either place is the same calibration: the source word is not
 * compared ("vm/kind 0/stored 1796195124/774.488 ns" is
 * "vm/kind 0/new 1796195124/774.488 ns").
 */
static void calibration_itself(const char *id, char *out, size_t len)
{
	const char *kind = strstr(id, "/kind "), *src = kind ? strchr(kind + 1, '/') : NULL;
	const char *sp = src ? strchr(src, ' ') : NULL;

	if (sp)
		snprintf(out, len, "%.*s%s", (int)(src + 1 - id), id, sp + 1);
	else
		snprintf(out, len, "%s", id);
}

/*
 * lj-hackbench stamped from clock_gettime before it recorded stamp_clock:
 * a result of it with a latency and no key is that (the case of a board
 * farm comparing its history across an ljkit upgrade).
 */
static const char *older_hackbench_clock(json_object *doc)
{
	json_object *tool, *results, *r, *lat;

	if (!json_object_object_get_ex(doc, "tool", &tool) || !json_object_is_type(tool, json_type_string) ||
	    strcmp(json_object_get_string(tool), "lj-hackbench") ||
	    !json_object_object_get_ex(doc, "results", &results) ||
	    !json_object_is_type(results, json_type_array) || !json_object_array_length(results))
		return NULL;
	r = json_object_array_get_idx(results, 0);
	if (!json_object_object_get_ex(r, "latency", &lat) || !json_object_is_type(lat, json_type_object))
		return NULL;
	return "CLOCK_MONOTONIC";
}

/* What the two values name is the same (for calibrations: the figure, wherever it came from). */
static bool same(const struct method_key *k, const char *a, const char *b)
{
	char ca[256], cb[256];

	if (!k->itself)
		return !strncmp(a, b, sizeof(ca) - 1);
	k->itself(a, ca, sizeof(ca));
	k->itself(b, cb, sizeof(cb));
	return !strcmp(ca, cb);
}

void cmp_check_method(struct cmp_data *d, const char *path, json_object *doc)
{
	json_object *params, *v;

	if (!json_object_object_get_ex(doc, "params", &params))
		return;
	for (size_t i = 0; i < CMP_METHOD_KEYS; i++) {
		const struct method_key *k = &method_keys[i];
		struct cmp_method_seen *seen = &d->method[i];
		const char *s;

		if (!json_object_object_get_ex(params, k->key, &v))
			s = k->missing ? k->missing(doc) : NULL;
		else
			s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
		if (!s)
			continue;
		if (!seen->value[0]) {
			snprintf(seen->value, sizeof(seen->value), "%s", s);
			snprintf(seen->path, sizeof(seen->path), "%s", path);
			continue;
		}
		if (seen->warned || same(k, seen->value, s))
			continue;
		seen->warned = true;
		lj_warn("runs used different %s ('%s' in %s, '%s' in %s): %s", k->what, seen->value,
			seen->path, s, path, k->why);
	}
}
