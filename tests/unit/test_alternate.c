// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_alternate - an instrument's windows (LJ_EXPLAIN_ALTERNATE, LJ_POWER_ALTERNATE) on injected
 * samples: the rotation of the recorder's window in each triple, which
 * samples each window keeps (after its settle time, not across its end,
 * none after the last), and its figures by exact arithmetic.
 */
#include <string.h>

#include "lj_alternate.h"
#include "tap.h"

#define MS 1000000ull
#define T0 (1000 * MS)
#define W (100 * MS)

static json_object *field(json_object *arr, int k, const char *name)
{
	return json_object_object_get(json_object_array_get_idx(arr, (size_t)k), name);
}

static int64_t num(json_object *arr, int k, const char *name)
{
	return json_object_get_int64(field(arr, k, name));
}

/* A sample due @due_ms after T0 that ran @lat_ns late. */
static struct lj_alt_sample at(uint64_t due_ms, uint64_t lat_ns)
{
	return lj_alternate_encode(T0, W, T0 + due_ms * MS, T0 + due_ms * MS + lat_ns);
}

static void rotation(void)
{
	/* B's place in triples 0, 1, 2: second, first, third; then again. */
	static const int want[12] = { 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0 };
	int bad = 0;

	for (int k = 0; k < 12; k++)
		bad += lj_alternate_on(k) != want[k];
	is_int(bad, 0, "the recorder is on in one window of each triple, its place rotating 1, 0, 2");
}

static void encoding(void)
{
	struct lj_alt_sample s = at(150, 7000);

	ok(s.due_us == 150000 && s.lat_ns == 7000, "a sample: due 150000 us after t0, 7000 ns late");
	s = lj_alternate_encode(T0, W, T0 - 1, T0 + 5);
	ok(s.lat_ns == LJ_ALTERNATE_ACROSS, "due before t0: left out");
	s = at(199, 1 * MS);
	ok(s.lat_ns == LJ_ALTERNATE_ACROSS, "due in a window, ran in the next: left out");
	s = lj_alternate_encode(T0, W, T0 + 5 * MS, T0 + 4 * MS);
	ok(s.due_us == 5000 && s.lat_ns == 0, "ran before it was due: 0 late");
	s = lj_alternate_encode(T0, 10000 * MS, T0, T0 + 5000 * MS);
	ok(s.lat_ns == LJ_ALTERNATE_ACROSS - 1, "later than 32 bits of ns: capped below the mark");
}

static void windows(void)
{
	struct lj_alt_sample s[] = {
		at(5, 99999),	/* window 0, inside its first tenth: out */
		at(20, 10000), at(30, 30000), at(40, 20000), at(50, 40000),
		at(120, 99999),	/* window 1, after its start's tenth but before 10 ms after the attach: out */
		at(150, 7000), at(160, 5000),
		at(199, 2 * MS),	/* across window 1's end: out */
		at(250, 1000),
		at(350, 1000),	/* after the last window: out */
	};
	struct lj_alt_window w[3] = {
		{ .ready_ns = 0, .toggle_ns = 0, .work0 = 0, .work1 = 0 },
		{ .ready_ns = 130 * MS, .toggle_ns = 30 * MS, .work0 = 100, .work1 = 1100 },
		{ .ready_ns = 200 * MS + 5000, .toggle_ns = 5000, .work0 = 1100, .work1 = 0 },
	};
	json_object *arr = lj_alternate_windows(s, sizeof(s) / sizeof(s[0]), w, 3, W, NULL);

	is_int((int)json_object_array_length(arr), 3, "three windows");
	ok(num(arr, 0, "n") == 4 && num(arr, 0, "min_ns") == 10000 && num(arr, 0, "p50_ns") == 20000 &&
	   json_object_get_double(field(arr, 0, "mean_ns")) == 25000 && num(arr, 0, "p99_ns") == 40000,
	   "window 0: 4 samples, min 10 us, p50 20 us (nearest rank), mean 25 us, p99 40 us");
	ok(num(arr, 1, "n") == 2 && num(arr, 1, "min_ns") == 5000 && num(arr, 1, "p50_ns") == 5000 &&
	   json_object_get_double(field(arr, 1, "mean_ns")) == 6000 && num(arr, 1, "p99_ns") == 7000,
	   "window 1: the 2 samples after its attach settled: min 5 us, p50 5 us, mean 6 us, p99 7 us");
	ok(num(arr, 2, "n") == 1 && num(arr, 2, "min_ns") == 1000, "window 2: one sample, the later one left out");
	ok(!json_object_get_boolean(field(arr, 0, "on")) && json_object_get_boolean(field(arr, 1, "on")) &&
	   !json_object_get_boolean(field(arr, 2, "on")), "the instrument off, on, off");
	is_str(json_object_get_string(field(arr, 0, "role")), "a", "window 0 is A");
	is_str(json_object_get_string(field(arr, 1, "role")), "b", "window 1 is B");
	is_str(json_object_get_string(field(arr, 2, "role")), "c", "window 2 is C");
	ok(num(arr, 0, "work") == 0 && num(arr, 1, "work") == 1000 && !field(arr, 2, "work"),
	   "the instrument's work per window; none said for the last (its end not read)");
	is_int((int)num(arr, 1, "toggle_ns"), (int)(30 * MS), "what the attach took, as told");
	json_object_put(arr);
}

static void quantiles(void)
{
	struct lj_alt_sample s[100];
	struct lj_alt_window w[1] = { { 0 } };
	json_object *arr;

	/* 1..100 us in a shuffled order, due from 11 ms to 90.2 ms. */
	for (int i = 0; i < 100; i++)
		s[i] = at(11 + (uint64_t)((i * 37) % 100) * 4 / 5, (uint64_t)((i * 37) % 100 + 1) * 1000);
	arr = lj_alternate_windows(s, 100, w, 1, W, NULL);
	ok(num(arr, 0, "n") == 100 && num(arr, 0, "min_ns") == 1000 && num(arr, 0, "p50_ns") == 50000 &&
	   num(arr, 0, "p99_ns") == 99000 && json_object_get_double(field(arr, 0, "mean_ns")) == 50500,
	   "1..100 us: min 1, p50 50, p99 99 (nearest rank), mean 50.5");
	json_object_put(arr);
}

int main(void)
{
	struct lj_alternate_opts o;
	char why[200];

	plan_no_plan();
	rotation();
	encoding();
	windows();
	quantiles();
	ok(!lj_alternate_parse("250", "attached", &o, why, sizeof(why)) && o.ms == 250 && !o.word,
	   "250: windows of 250 ms");
	ok(!lj_alternate_parse("100,attached", "attached", &o, why, sizeof(why)) && o.ms == 100 && o.word,
	   "100,attached: windows of 100 ms, the variant");
	ok(!lj_alternate_parse("", NULL, &o, why, sizeof(why)) && o.ms == 0, "empty: off");
	ok(lj_alternate_parse("19", NULL, &o, why, sizeof(why)) && strstr(why, "20 to 60000"),
	   "below 20 ms: refused, the range said");
	ok(lj_alternate_parse("1s", NULL, &o, why, sizeof(why)), "a unit: refused (milliseconds)");
	ok(lj_alternate_parse("100,detached", "attached", &o, why, sizeof(why)) && strstr(why, ",attached or nothing"),
	   "another word after the comma: refused, the one allowed said");
	ok(lj_alternate_parse("100,attached", NULL, &o, why, sizeof(why)) && !strstr(why, "then ,"),
	   "a word where none is allowed: refused");
	ok(lj_alternate_parse("000000000000000000000000250", NULL, &o, why, sizeof(why)),
	   "a number longer than any window: refused, not cut");
	return done();
}
