// SPDX-License-Identifier: GPL-2.0-or-later
/* test_json - lj-cyclic's result document validates against ljkit-result/1 and holds its numbers. */
#include <stdlib.h>

#include "../../../tools/cyclic/cyclic.h"
#include "../tap.h"
#include "lj_hist.h"

static int64_t get_i64(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : -999;
}

int main(void)
{
	struct cyc_config cfg;
	struct cyc_run run = { 0 };
	struct cyc_thread th[2] = { 0 };
	char *argv[] = { "lj-cyclic", "-q", "-t", "2", NULL };
	struct lj_result *r;
	json_object *res, *t0, *sum, *v;
	char why[256];
	int ret;

	setenv("LJ_RESULT_NO_SYSINFO", "1", 1);
	plan(9);
	cyc_config_init(&cfg);
	cfg.threads = 2;
	run.cfg = &cfg;
	run.nthreads = 2;
	run.th = th;
	run.reporter_cpu = -1;
	for (int i = 0; i < 2; i++) {
		th[i].index = i;
		th[i].run = &run;
		th[i].cpu = i;
		th[i].interval_ns = cfg.interval_ns + i * cfg.distance_ns;
		th[i].hist = lj_hist_new();
		th[i].nr_migrations = -1;
		/* 1000 samples 10..19.99 us, plus one of 5 ms */
		for (int k = 0; k < 1000; k++)
			lj_hist_add(th[i].hist, 10000 + k * 10);
		lj_hist_add(th[i].hist, 5000000);
		th[i].live.cycles = 1001;
		th[i].live.missed = 4 + i;
	}

	r = lj_result_new("lj-cyclic", 4, argv);
	ok(r != NULL, "result document created");
	cyc_json_fill(&run, r);
	lj_result_finish(r, 0);
	ret = lj_result_validate(lj_result_root(r), why, sizeof(why));
	is_int(ret, 0, "the document passes lj_result_validate");
	if (ret)
		diag("%s", why);

	json_object_object_get_ex(lj_result_root(r), "results", &res);
	is_int(json_object_array_length(res), 2, "one result per thread");
	t0 = json_object_array_get_idx(res, 0);
	is_int(get_i64(t0, "count"), 1001, "count holds every sample");
	is_int(get_i64(t0, "max_ns"), 5000000, "max is exact");
	is_int(get_i64(t0, "missed"), 4, "missed periods per thread");
	json_object_object_get_ex(lj_result_root(r), "summary", &sum);
	ok(json_object_object_get_ex(sum, "missed", &v) && json_object_object_get_ex(v, "value", &v) &&
	   json_object_get_double(v) == 9.0, "summary missed adds the threads");
	ok(json_object_object_get_ex(sum, "p99_9", &v) && json_object_object_get_ex(sum, "p50", &v),
	   "summary has p50 and p99_9");
	ok(json_object_object_get_ex(sum, "p50", &v) && json_object_object_get_ex(v, "value", &v) &&
	   json_object_get_double(v) >= 14900 && json_object_get_double(v) <= 15100,
	   "summary p50 over both threads is the middle sample (within the histogram's error)");

	lj_result_free(r);
	for (int i = 0; i < 2; i++)
		lj_hist_free(th[i].hist);
	return done();
}
