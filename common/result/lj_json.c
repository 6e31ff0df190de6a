// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_json - the JSON vocabulary every writer uses: numbers that are JSON (finite, or null with the reason), strings. */
#include "lj_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

json_object *lj_json_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *lj_json_num_fixed(double v, int decimals)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return lj_json_num_text(v, buf);
}

json_object *lj_json_num_text(double v, const char *text)
{
	return isfinite(v) ? json_object_new_double_s(v, text) : NULL;
}

json_object *lj_json_num_short(double v)
{
	return lj_json_num_fixed(v, v == floor(v) && fabs(v) < 9.0e15 ? 1 : 3);
}

json_object *lj_json_int(int64_t v)
{
	return json_object_new_int64(v);
}

json_object *lj_json_uint(uint64_t v)
{
	return json_object_new_uint64(v);
}

json_object *lj_json_usec(uint64_t ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
	return lj_json_num_text((double)ns / 1e3, buf);
}

json_object *lj_json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *lj_json_strf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_object_new_string(buf);
}

json_object *lj_json_add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
	return v;
}

void lj_json_add_int(json_object *o, const char *key, int64_t v)
{
	json_object_object_add(o, key, lj_json_int(v));
}

void lj_json_add_str(json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, lj_json_str(s));
}

void lj_json_add_num(json_object *o, const char *key, double v, const char *why)
{
	char wkey[128];

	json_object_object_add(o, key, lj_json_num(v));
	if (isfinite(v) || !why)
		return;
	snprintf(wkey, sizeof(wkey), "%s_why", key);
	json_object_object_add(o, wkey, json_object_new_string(why));
}

/* @where holds the path so far (@used bytes): append ".key" or "[i]" and search below. */
static bool find(json_object *o, char *where, size_t len, size_t used)
{
	if (json_object_is_type(o, json_type_double))
		return !isfinite(json_object_get_double(o));
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			int n = snprintf(where + used, len - used, "%s%s", used ? "." : "", k);

			if (find(v, where, len, n < 0 || used + (size_t)n >= len ? len - 1 : used + (size_t)n))
				return true;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			int n = snprintf(where + used, len - used, "[%zu]", i);

			if (find(json_object_array_get_idx(o, i), where, len,
				 n < 0 || used + (size_t)n >= len ? len - 1 : used + (size_t)n))
				return true;
		}
	}
	where[used] = '\0';
	return false;
}

bool lj_json_nonfinite(json_object *doc, char *where, size_t len)
{
	char dummy[1];

	if (!where || !len) {
		where = dummy;
		len = sizeof(dummy);
	}
	where[0] = '\0';
	return find(doc, where, len, 0);
}
