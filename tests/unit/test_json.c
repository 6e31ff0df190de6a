// SPDX-License-Identifier: GPL-2.0-or-later
/* test_json - the one number writer: every figure JSON has, null (and why) for one it has not. */
#include "lj_json.h"
#include "tap.h"

#include <math.h>

/* The document as json-c writes it. */
static const char *text(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

int main(void)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *x;
	char where[64];

	plan(12);
	ok(lj_json_num(NAN) == NULL && lj_json_num(INFINITY) == NULL && lj_json_num(-INFINITY) == NULL,
	   "NaN and +-Infinity become null");
	x = lj_json_num(0.25);
	is_str(text(x), "0.25", "a finite number is itself");
	json_object_put(x);
	x = lj_json_num_fixed(2.0 / 3.0, 2);
	is_str(text(x), "0.67", "a fixed number of decimals");
	json_object_put(x);
	ok(lj_json_num_fixed(NAN, 2) == NULL, "...and null when not finite");
	x = lj_json_uint(UINT64_MAX);
	is_str(text(x), "18446744073709551615", "unsigned 64-bit integers whole");
	json_object_put(x);
	ok(lj_json_str(NULL) == NULL, "a NULL string is null");

	lj_json_add_num(o, "a", 1.5, "never said");
	lj_json_add_num(o, "b", NAN, "one trial");
	lj_json_add_num(o, "c", INFINITY, NULL);
	is_str(text(o), "{\"a\":1.5,\"b\":null,\"b_why\":\"one trial\",\"c\":null}",
	       "an undefined figure is null with KEY_why, a defined one has no reason");
	ok(!lj_json_nonfinite(o, where, sizeof(where)), "a document of ours has nothing to refuse");

	/* json-c reads NaN and Infinity: what the readers must refuse. */
	json_object_array_add(a, json_object_new_double(1));
	json_object_array_add(a, json_object_new_double(NAN));
	json_object_object_add(o, "list", a);
	ok(lj_json_nonfinite(o, where, sizeof(where)), "a NaN inside an array is found");
	is_str(where, "list[1]", "...with its place");
	json_object_put(o);
	x = json_tokener_parse("{\"side\":{\"ramp\":{\"s\":Infinity}}}");
	ok(x && lj_json_nonfinite(x, where, sizeof(where)), "json-c's reading of Infinity is found");
	is_str(where, "side.ramp.s", "...nested in objects");
	json_object_put(x);
	return done();
}
