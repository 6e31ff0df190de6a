// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_rtload - lj-compare's import of rt-tests' own --json files
 * (tools/compare/rtload.c) on any file: a document comes back only with
 * the summary it promises, finite, min <= mean <= max; a refusal always
 * says why.
 */
#include "../fuzz.h"
#include "lj_err.h"
#include "../../../tools/compare/compare.h"

#include <limits.h>
#include <math.h>

static char file[PATH_MAX];

/* The summary's @name value; NAN when absent. */
static double value(json_object *sum, const char *name)
{
	json_object *m, *v;

	if (!json_object_object_get_ex(sum, name, &m) || !json_object_object_get_ex(m, "value", &v))
		return NAN;
	return json_object_get_double(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tool = NULL;
	char why[256];
	json_object *doc, *sum;

	if (!file[0]) {
		snprintf(file, sizeof(file), "%s/rt.json", fuzz_tmpdir());
		lj_err_set_verbosity(-1);
	}
	fuzz_write(file, data, size);
	doc = cmp_rt_doc(file, &tool, why, sizeof(why));
	if (!doc)
		return 0;
	fuzz_assert(!why[0] && tool && !strncmp(tool, "lj-", 3));
	fuzz_assert(json_object_object_get_ex(doc, "summary", &sum));
	fuzz_assert(isfinite(value(sum, "min")) && isfinite(value(sum, "mean")) && isfinite(value(sum, "max")));
	fuzz_assert(value(sum, "min") >= 0 && value(sum, "min") <= value(sum, "max"));
	fuzz_assert(value(sum, "mean") >= value(sum, "min") - 10 && value(sum, "mean") <= value(sum, "max") + 10);
	fuzz_assert(value(sum, "samples") > 0);
	json_object_put(doc);
	return 0;
}
