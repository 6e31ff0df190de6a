/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_json - the JSON vocabulary every writer uses: numbers that are JSON (finite, or null with the reason), strings. */
#ifndef LJ_JSON_H
#define LJ_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * JSON has no NaN or Infinity: json-c would write them as the bare words
 * NaN and Infinity, which strict parsers (JavaScript's JSON.parse, Python
 * with parse_constant) refuse. Every number ljkit writes goes through
 * these: a figure that is not finite becomes null (json-c's NULL object).
 */
json_object *lj_json_num(double v);
/* Written with exactly @decimals decimals ("%.*f"): rt-tests' "%.2f", ns figures without float noise. */
json_object *lj_json_num_fixed(double v, int decimals);
/* @v written as @text, formatted by the caller (an exact integer division, "%.9g"): null when @v is not finite. */
json_object *lj_json_num_text(double v, const char *text);
/*
 * A figure that need not show float noise (a mean in ns, a summary value):
 * at most three decimals, one for a whole number ("226.333", "49896.0"),
 * where json-c would print 17 significant digits (226.33333333333334).
 */
json_object *lj_json_num_short(double v);
json_object *lj_json_int(int64_t v);
json_object *lj_json_uint(uint64_t v);
/* ns as microseconds with three decimals made from the integer, so exact: "12.345" (Trace Event Format's ts and dur). */
json_object *lj_json_usec(uint64_t ns);
/* A string, or null for NULL. */
json_object *lj_json_str(const char *s);
/* A string made as printf makes it ("unavailable: no cpufreq driver"). */
json_object *lj_json_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * @v under @key of object @o, which takes it (NULL: null); a key already
 * there is replaced in place. Return: @v, so that a new block can be
 * added and kept in one line.
 */
json_object *lj_json_add(json_object *o, const char *key, json_object *v);
void lj_json_add_int(json_object *o, const char *key, int64_t v);
/* @s, or null for NULL. */
void lj_json_add_str(json_object *o, const char *key, const char *s);

/*
 * An optional number: @key is @v, or, where the figure is undefined (not
 * finite), null and "@key_why": @why (when not NULL) beside it, so a
 * reader learns why it is missing ("spread_stddev_why": "one trial per
 * step: a spread needs two").
 */
void lj_json_add_num(json_object *o, const char *key, double v, const char *why);

/*
 * A number in @doc that is not finite (json-c reads NaN and Infinity
 * though JSON has neither): its place ("side.ramp.spread_stddev") in
 * @where. Return: true when there is one.
 */
bool lj_json_nonfinite(json_object *doc, char *where, size_t len);

#endif
