// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_result_schema - check a document against ljkit-result/1 (lj_result_validate). */
#include "lj_result.h"
#include "lj_why.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *type_name(json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

/* Key @key of @obj must exist and have type @t (null allowed if @nullable). */
static int need(json_object *obj, const char *path, const char *key, json_type t,
		bool nullable, json_object **out, char *why, size_t len)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return lj_why_err(why, len, -EINVAL, "%s%s%s: missing",
				  path, *path ? "." : "", key);
	if (!v && nullable) {
		*out = NULL;
		return 0;
	}
	if (!json_object_is_type(v, t))
		return lj_why_err(why, len, -EINVAL,
				  "%s%s%s: %s, expected %s", path, *path ? "." : "",
				  key, type_name(v), json_type_to_name(t));
	*out = v;
	return 0;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

/* The statistics block keys, in the order they must not decrease: min_ns, the lj_pcts, max_ns. */
#define NORDER (LJ_PCT_N + 2)
static const char *order_key(size_t i, char *buf, size_t len)
{
	if (!i)
		return "min_ns";
	if (i == NORDER - 1)
		return "max_ns";
	snprintf(buf, len, "%s_ns", lj_pcts[i - 1].name);
	return buf;
}

static int check_buckets(json_object *hist, const char *path, int64_t count,
			 int64_t overflows, int64_t min, int64_t max, char *why, size_t len)
{
	size_t i, n = json_object_array_length(hist);
	int64_t prev = -1, sum = 0;

	for (i = 0; i < n; i++) {
		json_object *pair = json_object_array_get_idx(hist, i);
		json_object *lo, *cnt;
		int64_t l, c;

		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram[%zu]: not a [lower_ns, count] pair",
					  path, i);
		lo = json_object_array_get_idx(pair, 0);
		cnt = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(lo, json_type_int) ||
		    !json_object_is_type(cnt, json_type_int))
			return lj_why_err(why, len, -EINVAL, "%s.histogram[%zu]: not integers",
					  path, i);
		l = json_object_get_int64(lo);
		c = json_object_get_int64(cnt);
		if (l < 0 || l <= prev)
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram[%zu]: lower_ns %lld not above %lld",
					  path, i, (long long)l, (long long)prev);
		if (c <= 0)
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram[%zu]: count %lld is not positive",
					  path, i, (long long)c);
		if (i == 0 && l > min)
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram[0]: lower_ns %lld above min_ns %lld",
					  path, (long long)l, (long long)min);
		if (l > max)
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram[%zu]: lower_ns %lld above max_ns %lld",
					  path, i, (long long)l, (long long)max);
		if (c > INT64_MAX - sum)
			return lj_why_err(why, len, -EINVAL, "%s.histogram: counts overflow", path);
		sum += c;
		prev = l;
	}
	if (sum + overflows != count)
		return lj_why_err(why, len, -EINVAL,
				  "%s.histogram: buckets hold %lld + %lld overflows, count is %lld",
				  path, (long long)sum, (long long)overflows, (long long)count);
	return 0;
}

/* An object holding "p50_ns" is a statistics block (lj_result_hist_json). */
static int check_hist(json_object *o, const char *path, char *why, size_t len)
{
	json_object *v, *hist;
	int64_t val[NORDER], count, overflows;
	char k[32], kprev[32];
	double mean, sd;
	size_t i;
	int ret;

	if ((ret = need(o, path, "count", json_type_int, false, &v, why, len)))
		return ret;
	count = json_object_get_int64(v);
	if (count < 0)
		return lj_why_err(why, len, -EINVAL, "%s.count: %lld is negative",
				  path, (long long)count);
	if ((ret = need(o, path, "overflows", json_type_int, false, &v, why, len)))
		return ret;
	overflows = json_object_get_int64(v);
	if (overflows < 0 || overflows > count)
		return lj_why_err(why, len, -EINVAL,
				  "%s.overflows: %lld outside 0..count %lld", path,
				  (long long)overflows, (long long)count);
	for (i = 0; i < NORDER; i++) {
		const char *key = order_key(i, k, sizeof(k));

		if ((ret = need(o, path, key, json_type_int, false, &v, why, len)))
			return ret;
		val[i] = json_object_get_int64(v);
		if (val[i] < 0)
			return lj_why_err(why, len, -EINVAL,
					  "%s.%s: %lld is negative", path, key,
					  (long long)val[i]);
		if (i && val[i] < val[i - 1])
			return lj_why_err(why, len, -EINVAL,
					  "%s.%s %lld < %s %lld", path, key,
					  (long long)val[i], order_key(i - 1, kprev, sizeof(kprev)),
					  (long long)val[i - 1]);
	}
	if (!count && val[NORDER - 1])
		return lj_why_err(why, len, -EINVAL, "%s: count is 0 but max_ns is %lld", path,
				  (long long)val[NORDER - 1]);
	for (i = 0; i < 2; i++) {
		const char *key = i ? "stddev_ns" : "mean_ns";

		if (!json_object_object_get_ex(o, key, &v))
			return lj_why_err(why, len, -EINVAL, "%s.%s: missing", path, key);
		/* stddev is null when lj_hist's sum of squares overflowed */
		if (!is_number(v) && (v || !i))
			return lj_why_err(why, len, -EINVAL,
					  "%s.%s: %s, expected a number", path, key,
					  type_name(v));
	}
	json_object_object_get_ex(o, "mean_ns", &v);
	mean = json_object_get_double(v);
	json_object_object_get_ex(o, "stddev_ns", &v);
	sd = v ? json_object_get_double(v) : 0.0;
	if (!isfinite(sd) || sd < 0)
		return lj_why_err(why, len, -EINVAL, "%s.stddev_ns: %g is negative", path, sd);
	/* mean is written with three decimals: allow for that rounding */
	if (count && (!isfinite(mean) || mean < (double)val[0] - 0.01 ||
		      mean > (double)val[NORDER - 1] + 0.01))
		return lj_why_err(why, len, -EINVAL, "%s.mean_ns: %g outside min_ns..max_ns",
				  path, mean);
	if (json_object_object_get_ex(o, "histogram", &hist)) {
		if (!json_object_is_type(hist, json_type_array))
			return lj_why_err(why, len, -EINVAL,
					  "%s.histogram: %s, expected array", path,
					  type_name(hist));
		return check_buckets(hist, path, count, overflows, val[0],
				     val[NORDER - 1], why, len);
	}
	return 0;
}

/* Find statistics blocks anywhere below @o. */
static int walk(json_object *o, const char *path, int depth, char *why, size_t len)
{
	char sub[512];
	int ret;

	if (depth > 32)
		return lj_why_err(why, len, -EINVAL, "%s: nested too deeply", path);
	if (json_object_is_type(o, json_type_array)) {
		size_t i, n = json_object_array_length(o);

		for (i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			ret = walk(json_object_array_get_idx(o, i), sub, depth + 1, why, len);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (!json_object_is_type(o, json_type_object))
		return 0;
	if (json_object_object_get_ex(o, "p50_ns", NULL)) {
		ret = check_hist(o, path, why, len);
		if (ret)
			return ret;
	}
	json_object_object_foreach(o, key, val) {
		if (!strcmp(key, "histogram"))
			continue;	/* checked with its block */
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		ret = walk(val, sub, depth + 1, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_summary(json_object *summary, char *why, size_t len)
{
	json_object_object_foreach(summary, key, m) {
		char path[160];
		json_object *v;
		const char *b;
		int ret;

		snprintf(path, sizeof(path), "summary.%s", key);
		if (!json_object_is_type(m, json_type_object))
			return lj_why_err(why, len, -EINVAL, "%s: %s, expected object",
					  path, type_name(m));
		if (!json_object_object_get_ex(m, "value", &v))
			return lj_why_err(why, len, -EINVAL, "%s.value: missing", path);
		if (v && !is_number(v))
			return lj_why_err(why, len, -EINVAL,
					  "%s.value: %s, expected a number or null", path,
					  type_name(v));
		if ((ret = need(m, path, "unit", json_type_string, false, &v, why, len)))
			return ret;
		if ((ret = need(m, path, "better", json_type_string, false, &v, why, len)))
			return ret;
		b = json_object_get_string(v);
		if (strcmp(b, "lower") && strcmp(b, "higher") && strcmp(b, "none"))
			return lj_why_err(why, len, -EINVAL,
					  "%s.better: '%s' is not lower, higher or none",
					  path, b);
	}
	return 0;
}

/* "2026-11-30T02:50:00.123Z": ISO 8601 in UTC as lj_result writes it. */
static bool is_iso8601(const char *s)
{
	int y, mo, d, h, mi, sec, n = 0;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 ||
	    n != 19)
		return false;
	return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 &&
	       sec <= 60 && s[strlen(s) - 1] == 'Z';
}

int lj_result_validate(json_object *doc, char *why, size_t len)
{
	json_object *v, *setup;
	const char *s;
	size_t i;
	int ret;

	lj_why(why, len, "%s", "");
	if (!json_object_is_type(doc, json_type_object))
		return lj_why_err(why, len, -EINVAL, "document: %s, expected object",
				  type_name(doc));
	if ((ret = need(doc, "", "schema", json_type_string, false, &v, why, len)))
		return ret;
	s = json_object_get_string(v);
	if (strcmp(s, LJ_RESULT_SCHEMA))
		return lj_why_err(why, len, -EINVAL, "schema '%s' is not " LJ_RESULT_SCHEMA, s);
	if ((ret = need(doc, "", "tool", json_type_string, false, &v, why, len)))
		return ret;
	if (!*json_object_get_string(v))
		return lj_why_err(why, len, -EINVAL, "tool: empty");
	if ((ret = need(doc, "", "version", json_type_string, false, &v, why, len)) ||
	    (ret = need(doc, "", "argv", json_type_array, false, &v, why, len)))
		return ret;
	for (i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string))
			return lj_why_err(why, len, -EINVAL, "argv[%zu]: not a string", i);
	if ((ret = need(doc, "", "start", json_type_string, false, &v, why, len)))
		return ret;
	if (!is_iso8601(json_object_get_string(v)))
		return lj_why_err(why, len, -EINVAL, "start: '%s' is not ISO 8601 UTC",
				  json_object_get_string(v));
	if ((ret = need(doc, "", "end", json_type_string, true, &v, why, len)))
		return ret;
	if (v && !is_iso8601(json_object_get_string(v)))
		return lj_why_err(why, len, -EINVAL, "end: '%s' is not ISO 8601 UTC",
				  json_object_get_string(v));
	if ((ret = need(doc, "", "duration_ns", json_type_int, true, &v, why, len)))
		return ret;
	if (v && json_object_get_int64(v) < 0)
		return lj_why_err(why, len, -EINVAL, "duration_ns: negative");
	if ((ret = need(doc, "", "exit_code", json_type_int, true, &v, why, len)) ||
	    (ret = need(doc, "", "system", json_type_object, false, &v, why, len)) ||
	    (ret = need(doc, "", "setup", json_type_object, false, &setup, why, len)) ||
	    (ret = need(setup, "setup", "applied", json_type_array, false, &v, why, len)) ||
	    (ret = need(setup, "setup", "fallbacks", json_type_array, false, &v, why, len)) ||
	    (ret = need(doc, "", "params", json_type_object, false, &v, why, len)) ||
	    (ret = need(doc, "", "results", json_type_array, false, &v, why, len)))
		return ret;
	for (i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_object))
			return lj_why_err(why, len, -EINVAL, "results[%zu]: not an object", i);
	if ((ret = need(doc, "", "summary", json_type_object, false, &v, why, len)))
		return ret;
	if ((ret = check_summary(v, why, len)))
		return ret;
	if ((ret = need(doc, "", "side", json_type_object, false, &v, why, len)))
		return ret;
	return walk(doc, "", 0, why, len);
}
