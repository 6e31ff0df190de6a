// SPDX-License-Identifier: GPL-2.0-or-later
/* test_json - the JSON vocabulary: every figure JSON has, null (and why) for one it has not; strings, members. */
#include "lj_json.h"
#include "lj_summary.h"
#include "lj_hist.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>

/* The document as json-c writes it. */
static const char *text(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

/* The short numbers, microseconds, strings and members of the vocabulary. */
static void test_values(void)
{
	json_object *o = json_object_new_object(), *x;

	x = lj_json_num_short(226.0 + 1.0 / 3.0);
	is_str(text(x), "226.333", "lj_json_num_short: three decimals, no float noise");
	json_object_put(x);
	x = lj_json_num_short(49896);
	is_str(text(x), "49896.0", "...one for a whole number");
	json_object_put(x);
	ok(lj_json_num_short(NAN) == NULL, "...null when not finite");
	x = lj_json_usec(UINT64_C(9007199254740993));
	is_str(text(x), "9007199254740.993", "lj_json_usec: exact past 2^53 ns, made from the integer");
	json_object_put(x);
	x = lj_json_strf("unavailable: %s (%d)", "no driver", 19);
	is_str(text(x), "\"unavailable: no driver (19)\"", "lj_json_strf formats");
	json_object_put(x);
	ok(lj_json_add(o, "block", json_object_new_object()) == json_object_object_get(o, "block"),
	   "lj_json_add returns what it added");
	lj_json_add_int(o, "n", -5);
	lj_json_add_str(o, "s", "x");
	lj_json_add_str(o, "none", NULL);
	lj_json_add_int(o, "block", 7);
	is_str(text(o), "{\"block\":7,\"n\":-5,\"s\":\"x\",\"none\":null}",
	       "members in order; a NULL string is null; a key added again is replaced in its place");
	json_object_put(o);
}

/* One summary helper, one percentile set: the keys and their order, whatever the tool. */
static void test_summary(void)
{
	json_object *sum = json_object_new_object(), *e;
	struct lj_hist *h = lj_hist_new();
	char keys[512] = "", want[128];
	size_t used = 0;

	for (int v = 1; v <= 1000; v++)
		lj_hist_add(h, v * 1000);
	lj_summary_hist(sum, "rt_", h);
	json_object_object_foreach(sum, k, m) {
		(void)m;
		used += snprintf(keys + used, sizeof(keys) - used, "%s ", k);
	}
	is_str(keys, "rt_min rt_mean rt_p50 rt_p90 rt_p99 rt_p99_9 rt_p99_99 rt_max rt_samples ",
	       "lj_summary_hist: min, mean, the lj_pcts, max, samples, under the prefix");
	e = json_object_object_get(sum, "rt_p99");
	snprintf(want, sizeof(want), "{\"value\":%lld.0,\"unit\":\"ns\",\"better\":\"lower\"}",
		 (long long)lj_hist_quantile(h, 0.99));
	is_str(text(e), want, "...each an entry in ns, lower is better (p99: the histogram's)");
	is_str(text(json_object_object_get(sum, "rt_samples")), "{\"value\":1000.0,\"unit\":\"count\",\"better\":\"none\"}",
	       "...samples a count with no direction");
	lj_summary_put(sum, "x", NAN, "%", LJ_BETTER_HIGHER);
	is_str(text(json_object_object_get(sum, "x")), "{\"value\":null,\"unit\":\"%\",\"better\":\"higher\"}",
	       "lj_summary_put: a value that is not finite is null");
	is_str(lj_pcts[3].name, "p99_9", "lj_pcts: the key stem");
	is_str(lj_pcts[3].label, "p99.9", "...and the text's label");
	lj_hist_free(h);
	json_object_put(sum);
}

int main(void)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *x;
	char where[64];

	plan(25);
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
	test_values();
	test_summary();
	return done();
}
