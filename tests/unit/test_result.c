// SPDX-License-Identifier: GPL-2.0-or-later
/* test_result - the ljkit-result/1 document: build, statistics blocks, atomic write, read, validate. */
#include "lj_hist.h"
#include "lj_result.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/test_result.XXXXXX";

static struct lj_result *new_result(void)
{
	char *argv[] = { "lj-test", "-l", "10", NULL };

	return lj_result_new("lj-test", 3, argv);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static long long get_i(json_object *o, const char *key)
{
	return (long long)json_object_get_int64(get(o, key));
}

/* Validate and return the reason, "" when valid (until the next call). */
static const char *why_invalid(json_object *doc)
{
	static char why[256];

	return lj_result_validate(doc, why, sizeof(why)) ? why : "";
}

static void test_new_document(void)
{
	struct lj_result *r = new_result();
	json_object *root = lj_result_root(r);

	is_str(json_object_get_string(get(root, "schema")), LJ_RESULT_SCHEMA,
	       "schema is ljkit-result/1");
	is_str(json_object_get_string(get(root, "tool")), "lj-test", "tool recorded");
	is_int(json_object_array_length(get(root, "argv")), 3, "argv recorded");
	ok(get(root, "exit_code") == NULL, "exit_code is null before finish");
	is_str(why_invalid(root), "", "a fresh document validates");
	lj_result_finish(r, 3);
	is_int(get_i(root, "exit_code"), 3, "finish records the exit code");
	ok(get_i(root, "duration_ns") >= 0 && get(root, "end"), "finish records end and duration");
	is_str(why_invalid(root), "", "a finished document validates");
	lj_result_free(r);
}

static void test_summary(void)
{
	struct lj_result *r = new_result();
	json_object *s, *m;

	lj_result_summary(r, "p99", 1234.5, "ns", LJ_BETTER_LOWER);
	lj_result_summary(r, "fps", NAN, "1/s", LJ_BETTER_HIGHER);
	s = get(lj_result_root(r), "summary");
	m = get(s, "p99");
	is_near(json_object_get_double(get(m, "value")), 1234.5, 1e-9, "summary value");
	is_str(json_object_get_string(get(m, "better")), "lower", "summary better");
	ok(json_object_object_get_ex(get(s, "fps"), "value", &m) && m == NULL,
	   "a non-finite value is written as null");
	is_str(why_invalid(lj_result_root(r)), "", "summary validates");
	lj_result_free(r);
}

/* Validation fails and its reason contains @want. */
static void rejects(json_object *doc, const char *want, const char *name)
{
	char why[256];
	int ret = lj_result_validate(doc, why, sizeof(why));

	if (!ok(ret == -EINVAL && strstr(why, want), name))
		diag("want -EINVAL with '%s', got %d '%s'", want, ret, why);
}

static void test_hist_block(void)
{
	struct lj_hist *h = lj_hist_new();
	struct lj_result *r = new_result();
	json_object *b, *hist, *empty, *nobuckets;
	long long sum = 0;
	size_t i;
	int64_t v;

	for (v = 1; v <= 1000; v++)
		lj_hist_add(h, v * 1000);
	lj_hist_add(h, LJ_HIST_MAX_NS + 1);	/* one overflow */
	b = lj_result_hist_json(h, true);
	is_int(get_i(b, "count"), 1001, "block count");
	is_int(get_i(b, "min_ns"), 1000, "block min is exact");
	is_int(get_i(b, "max_ns"), LJ_HIST_MAX_NS + 1, "block max is exact, overflow included");
	is_int(get_i(b, "overflows"), 1, "overflow counted");
	is_near(get_i(b, "p50_ns"), 501000, 501000 * LJ_HIST_MAX_REL_ERROR + 1000,
		"p50 within the histogram's error");
	ok(get_i(b, "p50_ns") <= get_i(b, "p90_ns") && get_i(b, "p90_ns") <= get_i(b, "p99_ns") &&
	   get_i(b, "p99_ns") <= get_i(b, "p99_9_ns") &&
	   get_i(b, "p99_9_ns") <= get_i(b, "p99_99_ns"), "percentiles ascend");
	hist = get(b, "histogram");
	for (i = 0; hist && i < json_object_array_length(hist); i++)
		sum += json_object_get_int64(json_object_array_get_idx(
				json_object_array_get_idx(hist, i), 1));
	is_int(sum, 1000, "buckets hold every sample but the overflow");
	nobuckets = lj_result_hist_json(h, false);
	ok(nobuckets && !json_object_object_get_ex(nobuckets, "histogram", NULL),
	   "without buckets there is no histogram key");
	json_object_put(nobuckets);
	json_object_array_add(lj_result_results(r), b);

	lj_hist_reset(h);
	empty = lj_result_hist_json(h, true);
	ok(get_i(empty, "count") == 0 && get_i(empty, "max_ns") == 0 &&
	   json_object_get_double(get(empty, "mean_ns")) == 0.0 &&
	   json_object_array_length(get(empty, "histogram")) == 0,
	   "empty histogram gives zeros");
	json_object_array_add(lj_result_results(r), empty);
	is_str(why_invalid(lj_result_root(r)), "", "document with statistics blocks validates");

	/* each broken invariant is caught, naming the key path */
	json_object_object_add(empty, "count", json_object_new_int64(-1));
	rejects(lj_result_root(r), "results[1].count: -1 is negative", "negative count rejected");
	json_object_object_add(empty, "count", json_object_new_int64(0));
	json_object_object_add(b, "p90_ns", json_object_new_int64(1));
	rejects(lj_result_root(r), "results[0].p90_ns 1 < p50_ns", "p90 below p50 rejected");
	json_object_object_add(b, "p90_ns", json_object_get(get(b, "p99_ns")));
	is_str(why_invalid(lj_result_root(r)), "", "restored block validates again");
	json_object_array_put_idx(json_object_array_get_idx(hist, 0), 1, json_object_new_int64(7));
	rejects(lj_result_root(r), "results[0].histogram: buckets hold 1006",
		"bucket counts that do not add up are rejected");
	json_object_array_put_idx(json_object_array_get_idx(hist, 0), 1, json_object_new_int64(1));
	json_object_object_add(b, "max_ns", json_object_new_int64(500));
	rejects(lj_result_root(r), "results[0].max_ns 500 < p99_99_ns", "max below p99.99 rejected");
	json_object_object_add(b, "max_ns", json_object_new_int64(LJ_HIST_MAX_NS + 1));
	json_object_object_del(b, "stddev_ns");
	rejects(lj_result_root(r), "results[0].stddev_ns: missing", "missing block key rejected");
	json_object_object_add(b, "stddev_ns", json_object_new_string("1"));
	rejects(lj_result_root(r), "results[0].stddev_ns: string, expected a number",
		"wrongly typed block key rejected");
	json_object_object_add(b, "stddev_ns", NULL);
	is_str(why_invalid(lj_result_root(r)), "", "null stddev (sum of squares overflowed) is accepted");
	json_object_object_add(b, "mean_ns", NULL);
	rejects(lj_result_root(r), "results[0].mean_ns: null, expected a number", "null mean rejected");
	lj_result_free(r);
	lj_hist_free(h);
}

static void test_validate_top_level(void)
{
	struct lj_result *r = new_result();
	json_object *root = lj_result_root(r);

	rejects(NULL, "document: null", "null document rejected");
	json_object_object_add(root, "schema", json_object_new_string("ljkit-result/0"));
	rejects(root, "schema 'ljkit-result/0' is not ljkit-result/1", "other schema rejected");
	json_object_object_add(root, "schema", json_object_new_string(LJ_RESULT_SCHEMA));
	json_object_object_add(root, "start", json_object_new_string("yesterday"));
	rejects(root, "start: 'yesterday' is not ISO 8601", "bad start time rejected");
	json_object_object_add(root, "start", json_object_new_string("2026-11-30T02:50:00.123Z"));
	json_object_array_add(lj_result_results(r), json_object_new_int(5));
	rejects(root, "results[0]: not an object", "non-object result rejected");
	json_object_array_del_idx(lj_result_results(r), 0, 1);
	lj_result_summary(r, "min", 1, "ns", LJ_BETTER_LOWER);
	json_object_object_add(get(get(root, "summary"), "min"), "better",
			       json_object_new_string("smaller"));
	rejects(root, "summary.min.better: 'smaller'", "unknown summary direction rejected");
	json_object_object_del(get(root, "summary"), "min");
	json_object_object_add(root, "exit_code", json_object_new_string("0"));
	rejects(root, "exit_code: string, expected int", "string exit code rejected");
	json_object_object_add(root, "exit_code", NULL);
	json_object_object_del(root, "side");
	rejects(root, "side: missing", "missing side rejected");
	json_object_object_add(root, "side", json_object_new_object());
	is_str(why_invalid(root), "", "repaired document validates");
	lj_result_free(r);
}

static int count_dir_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

static void test_write_read(void)
{
	struct lj_result *r = new_result();
	json_object *back = NULL;
	char path[64], bad[80], why[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/r.json", dir);
	json_object_object_add(lj_result_params(r), "path/with/slashes",
			       json_object_new_string("a/b \"q\""));
	lj_result_finish(r, 0);
	is_int(lj_result_write(r, path), 0, "write succeeds");
	is_int(count_dir_entries(), 1, "no temporary file left behind");
	is_int(lj_result_read(path, &back, why, sizeof(why)), 0, "written document reads back");
	is_str(why, "", "a good read leaves the caller's why empty");
	ok(back && json_object_equal(back, lj_result_root(r)), "read-back equals what was written");
	json_object_put(back);

	lj_result_summary(r, "min", 5, "ns", LJ_BETTER_LOWER);
	is_int(lj_result_write(r, path), 0, "rewrite over an existing file succeeds");
	lj_result_read(path, &back, why, sizeof(why));
	ok(back && get(get(back, "summary"), "min"), "rewrite replaced the document");
	json_object_put(back);

	snprintf(bad, sizeof(bad), "%s/missing/r.json", dir);
	is_int(lj_result_write(r, bad), -ENOENT, "write into a missing directory is -ENOENT");
	is_int(lj_result_read(bad, &back, why, sizeof(why)), -ENOENT, "reading a missing file is -ENOENT");

	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	f = fopen(bad, "w");
	fputs("{\"schema\": \"ljkit-result/1\", ", f);
	fclose(f);
	is_int(lj_result_read(bad, &back, why, sizeof(why)), -EINVAL, "truncated JSON is -EINVAL");
	ok(!strncmp(why, "not JSON: unexpected end", 24), "truncated JSON reason");
	f = fopen(bad, "w");
	fputs("{} x", f);
	fclose(f);
	lj_result_read(bad, &back, why, sizeof(why));
	ok(strstr(why, "trailing data") != NULL, "trailing data after the document is rejected");
	f = fopen(bad, "w");
	fputs("{\"schema\": \"other/2\"}\n", f);
	fclose(f);
	is_int(lj_result_read(bad, &back, why, sizeof(why)), -EINVAL, "foreign schema is -EINVAL");
	is_str(why, "schema 'other/2' is not ljkit-result/1", "foreign schema reason");
	ok(back == NULL, "nothing returned on failure");
	unlink(bad);
	unlink(path);
	lj_result_free(r);
}

/* "-" writes the document to stdout: capture it through a pipe in a child. */
static void test_write_stdout(void)
{
	int pfd[2], status = -1;
	char buf[65536];
	size_t n = 0;
	ssize_t got;
	json_object *doc;
	pid_t pid;

	if (pipe(pfd)) {
		skip(2, "no pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct lj_result *r = new_result();

		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		_exit(lj_result_write(r, "-") ? 1 : 0);
	}
	close(pfd[1]);
	while (n < sizeof(buf) - 1 && (got = read(pfd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	is_int(status, 0, "writing to - succeeds");
	doc = json_tokener_parse(buf);
	is_str(doc ? why_invalid(doc) : "not JSON", "", "stdout carries a valid document");
	json_object_put(doc);
}

int main(void)
{
	/* lj_sysinfo has its own test; keep this one independent of the host */
	setenv("LJ_RESULT_NO_SYSINFO", "1", 1);
	if (!mkdtemp(dir))
		skip_all("cannot create a temporary directory");
	plan(56);
	test_new_document();
	test_summary();
	test_hist_block();
	test_validate_top_level();
	test_write_read();
	test_write_stdout();
	rmdir(dir);
	return done();
}
