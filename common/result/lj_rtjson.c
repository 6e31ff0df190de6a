// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_rtjson - rt-tests' --json keys beside ljkit's own, in the same document. */
#include "lj_rtjson.h"
#include "lj_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* rt-tests' time stamps: "Tue, 01 Dec 2026 20:58:50 +0000", local time. */
static json_object *rt_time(time_t t)
{
	struct tm tm;
	char buf[64];

	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S %z", &tm);
	return json_object_new_string(buf);
}

/* The document's ISO 8601 UTC "start" back to a time_t; now when unreadable. */
static time_t doc_start(json_object *root)
{
	json_object *v;
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (json_object_object_get_ex(root, "start", &v) && json_object_is_type(v, json_type_string) &&
	    strptime(json_object_get_string(v), "%Y-%m-%dT%H:%M:%S", &tm))
		return timegm(&tm);
	return time(NULL);
}

/* rt-tests' "cmdline:": argv joined by single blanks. */
static json_object *cmdline(json_object *root)
{
	json_object *argv, *out;
	size_t len = 1, n;
	char *s;

	if (!json_object_object_get_ex(root, "argv", &argv) || !json_object_is_type(argv, json_type_array))
		return json_object_new_string("");
	n = json_object_array_length(argv);
	for (size_t i = 0; i < n; i++)
		len += strlen(json_object_get_string(json_object_array_get_idx(argv, i))) + 1;
	s = calloc(1, len);
	if (!s)
		return json_object_new_string("");
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, json_object_get_string(json_object_array_get_idx(argv, i)));
	}
	out = json_object_new_string(s);
	free(s);
	return out;
}

static json_object *sysinfo(void)
{
	json_object *o = json_object_new_object();
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_object_add(o, "sysname", json_object_new_string(u.sysname));
	json_object_object_add(o, "nodename", json_object_new_string(u.nodename));
	json_object_object_add(o, "release", json_object_new_string(u.release));
	json_object_object_add(o, "version", json_object_new_string(u.version));
	json_object_object_add(o, "machine", json_object_new_string(u.machine));
	/* rt-tests' test for a PREEMPT_RT kernel. */
	json_object_object_add(o, "realtime",
			       lj_json_int(access("/sys/kernel/realtime", F_OK) == 0));
	return o;
}

void lj_rtjson_header(json_object *root)
{
	json_object_object_add(root, "file_version", lj_json_int(1));
	json_object_object_add(root, "cmdline:", cmdline(root));
	json_object_object_add(root, "rt_test_version:", json_object_new_string(LJ_RTJSON_RT_VERSION));
	json_object_object_add(root, "start_time", rt_time(doc_start(root)));
	json_object_object_add(root, "end_time", NULL);
	json_object_object_add(root, "return_code", NULL);
	json_object_object_add(root, "sysinfo", sysinfo());
}

bool lj_rtjson_present(json_object *root)
{
	return json_object_object_get_ex(root, "return_code", NULL);
}

void lj_rtjson_finish(json_object *root, int exit_code)
{
	json_object_object_add(root, "end_time", rt_time(time(NULL)));
	json_object_object_add(root, "return_code", lj_json_int(exit_code));
}

json_object *lj_rtjson_threads(json_object *root)
{
	json_object *t;

	if (json_object_object_get_ex(root, "thread", &t))
		return t;
	t = json_object_new_object();
	json_object_object_add(root, "thread", t);
	return t;
}

void lj_rtjson_thread_add(json_object *threads, int index, const struct lj_rtjson_thread *t)
{
	json_object *o = json_object_new_object();
	char key[24];

	if (t->hist) {
		json_object *h = json_object_new_object();

		for (uint64_t b = 0; b < t->nbuckets; b++) {
			if (!t->hist[b])
				continue;
			snprintf(key, sizeof(key), "%llu", (unsigned long long)b);
			lj_json_add_int(h, key, (int64_t)t->hist[b]);
		}
		json_object_object_add(o, "histogram", h);
	}
	lj_json_add_int(o, "cycles", (int64_t)t->cycles);
	lj_json_add_int(o, "min", t->min);
	lj_json_add_int(o, "max", t->max);
	/* "%.2f" as rt-tests prints it: the text is what readers see. */
	json_object_object_add(o, "avg", lj_json_num_fixed(t->avg, 2));
	lj_json_add_int(o, "cpu", t->cpu);
	if (t->node >= 0)
		lj_json_add_int(o, "node", t->node);
	snprintf(key, sizeof(key), "%d", index);
	json_object_object_add(threads, key, o);
}
