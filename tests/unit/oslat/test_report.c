// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_report - lj-oslat's summary lines are oslat's (rt-tests 2.40: "%12s:\t" labels, one
 * value per CPU, -z's "    ..."), and its result document validates and carries oslat's
 * --json keys (num_threads, thread{"<i>"}: cpu, freq, min, avg, max, duration, histogram).
 */
#include <stdlib.h>
#include <string.h>

#include "../../../tools/oslat/oslat.h"
#include "../tap.h"
#include "lj_hist.h"

static char *summary_text(const struct osl_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	osl_report_summary(run, f);
	fclose(f);
	return buf;
}

/* Two CPUs, 4 buckets: CPU 2 saw 0.5, 0.7 and 40.2 us; CPU 3 saw 0.1, 2.5 and 2.6 us. */
static void fill(struct osl_run *run, struct osl_config *cfg, struct osl_thread th[2])
{
	static const uint64_t gaps[2][3] = { { 500, 700, 40200 }, { 100, 2500, 2600 } };

	osl_config_init(cfg);
	cfg->bucket_size = 4;
	memset(run, 0, sizeof(*run));
	run->cfg = cfg;
	run->n = 2;
	run->th = th;
	run->main_cpu = 0;
	for (int i = 0; i < 2; i++) {
		th[i] = (struct osl_thread){ .run = run, .index = i, .cpu = 2 + i, .tid = 100 + i,
					     .start_ns = 1000000000, .stop_ns = 1500000000 };
		osl_buckets_init(&th[i].b, 4);
		th[i].hist = lj_hist_new();
		CPU_SET(th[i].cpu, &run->measured);
		for (int k = 0; k < 3; k++) {
			osl_bucket_add(&th[i].b, gaps[i][k]);
			lj_hist_add(th[i].hist, (int64_t)gaps[i][k]);
		}
	}
}

static void test_text(struct osl_run *run, struct osl_config *cfg)
{
	char *s = summary_text(run);

	is_str(s, "        Core:\t 2 3\n"
		  "Counter Freq:\t 1000 1000 (Mhz)\n"
		  "    001 (us):\t 2 1\n"
		  "    002 (us):\t 0 0\n"
		  "    003 (us):\t 0 2\n"
		  "    004 (us):\t 1 0 (including overflows)\n"
		  "     Minimum:\t 1 1 (us)\n"
		  "     Average:\t 14.000 2.333 (us)\n"
		  "     Maximum:\t 41 3 (us)\n"
		  "     Max-Min:\t 40 2 (us)\n"
		  "    Duration:\t 0.500 0.500 (sec)\n"
		  "\n", "oslat's summary block, byte for byte (Average: the labels 2 x 1 + 4, plus 36 us over the last, / 3)");
	free(s);
	cfg->zero_omit = true;
	s = summary_text(run);
	ok(s && strstr(s, "    001 (us):\t 2 1\n    ...\n    003 (us):\t 0 2\n"),
	   "-z: a bucket empty on every CPU becomes one '    ...' line");
	free(s);
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static void test_json(struct osl_run *run)
{
	char *argv[] = { "lj-oslat", NULL };
	struct lj_result *r = lj_result_new("lj-oslat", 1, argv);
	json_object *root, *t0, *res0;
	char why[256];
	int ret;

	osl_report_json(run, r);
	lj_result_finish(r, 0);
	root = lj_result_root(r);
	ret = lj_result_validate(root, why, sizeof(why));
	is_int(ret, 0, "the document passes lj_result_validate");
	if (ret)
		diag("%s", why);
	is_int(json_object_get_int(get(root, "num_threads")), 2, "oslat's num_threads");
	t0 = get(get(root, "thread"), "0");
	ok(json_object_get_int(get(t0, "cpu")) == 2 && json_object_get_int(get(t0, "freq")) == 1000 &&
	   json_object_get_int(get(t0, "min")) == 1 && json_object_get_int(get(t0, "max")) == 41,
	   "thread \"0\": cpu, freq, min and max in oslat's units");
	is_str(json_object_to_json_string_ext(get(t0, "histogram"), JSON_C_TO_STRING_PLAIN), "{\"1\":2,\"4\":1}",
	       "its histogram: the non-empty buckets by label");
	is_near(json_object_get_double(get(t0, "duration")), 0.5, 1e-9, "duration in seconds");
	res0 = json_object_array_get_idx(lj_result_results(r), 0);
	ok(json_object_get_int64(get(get(res0, "gaps"), "max_ns")) == 40200 &&
	   json_object_get_int64(get(get(res0, "gaps"), "count")) == 3, "results[0].gaps: the exact gaps, in ns");
	ok(get(get(lj_result_root(r), "summary"), "p99_99") && get(get(lj_result_root(r), "summary"), "max"),
	   "summary: the percentiles to p99.99 and max over every CPU");
	lj_result_free(r);
}

int main(void)
{
	struct osl_config cfg;
	struct osl_run run;
	struct osl_thread th[2];

	setenv("LJ_RESULT_NO_SYSINFO", "1", 1);
	plan(9);
	fill(&run, &cfg, th);
	test_text(&run, &cfg);
	test_json(&run);
	for (int i = 0; i < 2; i++) {
		osl_buckets_free(&th[i].b);
		lj_hist_free(th[i].hist);
	}
	return done();
}
