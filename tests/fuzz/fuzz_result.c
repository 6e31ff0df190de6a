// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_result - the result reader and validator: any bytes as a result
 * file through lj_result_read (which parses and validates), and, when the
 * bytes are JSON at all, lj_result_validate on the parsed document too.
 * A rejection names its reason.
 */
#include "fuzz.h"
#include "lj_result.h"

#include <limits.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[PATH_MAX];
	json_tokener *tok;
	json_object *doc = NULL;
	char why[256];
	int ret;

	if (!path[0])
		snprintf(path, sizeof(path), "%s/result.json", fuzz_tmpdir());
	fuzz_write(path, data, size);
	ret = lj_result_read(path, &doc, why, sizeof(why));
	if (ret) {
		fuzz_assert(!doc);
		fuzz_assert(why[0]);
	} else {
		fuzz_assert(doc);
		fuzz_assert(!lj_result_validate(doc, why, sizeof(why)));
	}
	json_object_put(doc);

	/* The validator alone, on JSON the reader may have refused for other reasons. */
	tok = json_tokener_new();
	if (!tok)
		return 0;
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)(size > INT_MAX ? INT_MAX : size));
	if (doc && lj_result_validate(doc, why, sizeof(why)))
		fuzz_assert(why[0]);
	json_object_put(doc);
	json_tokener_free(tok);
	return 0;
}
