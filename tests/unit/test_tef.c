// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_tef - the Trace Event Format writer: what it writes is read back
 * with json-c and as text (the importers' rules in lj_tef.h: ph and ts
 * first, ts in us to the ns, every event with pid and tid, made-up tids
 * above any kernel's), the lanes for overlapping slices, and a full disk.
 */
#include <errno.h>
#include <json-c/json.h>
#include <unistd.h>

#include "lj_tef.h"
#include "tap.h"

static char path[128];

static char *slurp(const char *p)
{
	static char buf[1 << 16];
	FILE *f = fopen(p, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

static json_object *event(json_object *doc, size_t i)
{
	json_object *ev = NULL;

	json_object_object_get_ex(doc, "traceEvents", &ev);
	return ev ? json_object_array_get_idx(ev, i) : NULL;
}

static const char *str(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : "";
}

static void test_write(void)
{
	struct lj_tef w;
	json_object *doc, *e, *other = json_object_new_object();
	uint32_t tid;
	char *text;
	int ok_keys = 1;

	is_int(lj_tef_open(&w, path, NULL, 0), 0, "open a trace file");
	lj_tef_process(&w, 42, "lj-test (pid 42)", 0);
	lj_tef_thread(&w, 42, 43, "thread 0", 0);
	tid = lj_tef_track(&w, 42, "display", 3);
	ok(tid >= LJ_TEF_TID_BASE, "a made-up track's tid is above any kernel's (2^22)");
	lj_tef_slice(&w, 42, 43, "late wake-up", "sample", 5123456789012ULL, 2500001, NULL);
	lj_tef_instant(&w, 42, tid, "vsync", "frame", 1000, NULL);
	lj_tef_counter(&w, 42, "fps", "Hz", 2000, 59.5);
	lj_tef_counter(&w, 42, "fps", "Hz", 3000, 0.0 / 0.0);
	json_object_object_add(other, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	is_int(lj_tef_close(&w, other), 0, "close commits it");
	text = slurp(path);
	ok(!strncmp(text, "{\"traceEvents\":[\n{\"ph\":\"M\",\"ts\":0.000,", strlen("{\"traceEvents\":[\n{\"ph\":\"M\",\"ts\":0.000,")),
	   "the file starts with the array, ph and ts first");
	ok(strstr(text, "{\"ph\":\"X\",\"ts\":5123456789.012,\"dur\":2500.001,\"pid\":42,\"tid\":43,") != NULL,
	   "a slice: ts and dur in us with three decimals (every ns), then pid and tid");
	ok(strstr(text, "displayTimeUnit") == NULL, "no displayTimeUnit");
	doc = json_tokener_parse(text);
	ok(doc != NULL, "it is JSON");
	is_int(doc ? json_object_array_length(json_object_object_get(doc, "traceEvents")) : 0, 4 + 2 + 1 + 1 + 1,
	       "2 process and 4 thread metadata events, a slice, an instant, one counter (NaN left out)");
	for (size_t i = 0; doc && i < 9; i++) {
		struct json_object_iterator it = json_object_iter_begin(event(doc, i));
		json_object *o = event(doc, i), *v;

		ok_keys &= !strcmp(json_object_iter_peek_name(&it), "ph");
		json_object_iter_next(&it);
		ok_keys &= !strcmp(json_object_iter_peek_name(&it), "ts");
		ok_keys &= json_object_object_get_ex(o, "pid", &v) && json_object_object_get_ex(o, "tid", &v);
	}
	ok(ok_keys, "every event: ph, ts first, and a pid and a tid");
	e = doc ? event(doc, 7) : NULL;
	is_str(e ? str(e, "s") : "", "t", "the instant is on its thread's track");
	e = doc ? event(doc, 8) : NULL;
	ok(e && !strcmp(str(e, "ph"), "C") && json_object_get_double(json_object_object_get(json_object_object_get(e, "args"), "Hz")) == 59.5,
	   "the counter's value under its key");
	is_str(doc ? str(json_object_object_get(doc, "otherData"), "clock") : "", "CLOCK_MONOTONIC", "otherData after the array");
	json_object_put(doc);
}

/* Slices sorted by start take the first lane free at their start. */
static void test_lanes(void)
{
	uint64_t ends[3] = { 0 };
	int n = 0;

	is_int(lj_tef_lane(ends, &n, 3, 0, 10), 0, "the first slice: lane 0");
	is_int(lj_tef_lane(ends, &n, 3, 5, 15), 1, "one that overlaps it: lane 1");
	is_int(lj_tef_lane(ends, &n, 3, 10, 12), 0, "one starting where lane 0 ended: lane 0 again");
	is_int(lj_tef_lane(ends, &n, 3, 11, 30), 2, "overlapping both: lane 2");
	is_int(lj_tef_lane(ends, &n, 3, 11, 20), -1, "all three busy at 11: -1, left out");
	is_int(lj_tef_lane(ends, &n, 3, 15, 16), 0, "at 15 the first free lane is 0 (ended at 12)");
}

static void test_full(void)
{
	struct lj_tef w;

	if (access("/dev/full", W_OK)) {
		skip(1, "no writable /dev/full");
		return;
	}
	is_int(lj_tef_open(&w, "/dev/full", NULL, 0), 0, "/dev/full opens (a device, written in place)");
	for (int i = 0; i < 1000; i++)
		lj_tef_slice(&w, 1, 1, "x", NULL, (uint64_t)i * 1000, 10, NULL);
	is_int(lj_tef_close(&w, NULL), -ENOSPC, "a full disk comes back from close: -ENOSPC");
}

int main(void)
{
	snprintf(path, sizeof(path), "%s/test_tef.%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	plan_no_plan();
	test_write();
	test_lanes();
	test_full();
	unlink(path);
	return done();
}
