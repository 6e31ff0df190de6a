// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_result - the ljkit-result/1 JSON document: build, write atomically, read back. */
#include "lj_result.h"
#include "lj_json.h"
#include "lj_outfile.h"

#include "lj_hist.h"
#include "lj_readall.h"
#include "lj_rtjson.h"
#include "lj_sysinfo.h"
#include "lj_time.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef LJ_VERSION
#define LJ_VERSION "unknown"
#endif

struct lj_result {
	json_object *root;
	json_object *params, *setup, *results, *summary, *side;
	int64_t start_mono_ns;
	bool finished;
};

/* UTC wall-clock time as ISO 8601 with milliseconds: sortable and unambiguous. */
static json_object *iso8601_now(void)
{
	struct timespec ts;
	struct tm tm;
	char buf[40], out[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, sizeof(out), "%s.%03dZ", buf, (int)(ts.tv_nsec / 1000000L) % 1000);
	return json_object_new_string(out);
}

struct lj_result *lj_result_new(const char *tool, int argc, char **argv)
{
	struct lj_result *r = calloc(1, sizeof(*r));
	json_object *args, *sys = NULL;
	int i;

	if (!r)
		return NULL;
	r->start_mono_ns = lj_now_ns();
	r->root = json_object_new_object();
	if (!r->root)
		goto fail;
	/*
	 * Keys are added in the order a reader wants them; json-c keeps
	 * insertion order and replacing a value keeps its place, so end,
	 * duration_ns and exit_code start as null and are filled in later.
	 */
	lj_json_add(r->root, "schema", json_object_new_string(LJ_RESULT_SCHEMA));
	lj_json_add(r->root, "tool", json_object_new_string(tool ? tool : "unknown"));
	lj_json_add(r->root, "version", json_object_new_string(LJ_VERSION));
	args = lj_json_add(r->root, "argv", json_object_new_array());
	for (i = 0; args && argv && i < argc && argv[i]; i++)
		json_object_array_add(args, json_object_new_string(argv[i]));
	lj_json_add(r->root, "start", iso8601_now());
	lj_json_add(r->root, "end", NULL);
	lj_json_add(r->root, "duration_ns", NULL);
	lj_json_add(r->root, "exit_code", NULL);
	if (!getenv("LJ_RESULT_NO_SYSINFO"))
		sys = lj_sysinfo_collect();
	lj_json_add(r->root, "system", sys ? sys : json_object_new_object());
	r->setup = lj_json_add(r->root, "setup", json_object_new_object());
	if (r->setup) {
		lj_json_add(r->setup, "applied", json_object_new_array());
		lj_json_add(r->setup, "fallbacks", json_object_new_array());
	}
	r->params = lj_json_add(r->root, "params", json_object_new_object());
	r->results = lj_json_add(r->root, "results", json_object_new_array());
	r->summary = lj_json_add(r->root, "summary", json_object_new_object());
	r->side = lj_json_add(r->root, "side", json_object_new_object());
	if (!args || !r->setup || !r->params || !r->results || !r->summary || !r->side)
		goto fail;
	return r;
fail:
	lj_result_free(r);
	return NULL;
}

void lj_result_free(struct lj_result *r)
{
	if (!r)
		return;
	json_object_put(r->root);
	free(r);
}

json_object *lj_result_root(struct lj_result *r)
{
	return r->root;
}

json_object *lj_result_params(struct lj_result *r)
{
	return r->params;
}

json_object *lj_result_setup(struct lj_result *r)
{
	return r->setup;
}

json_object *lj_result_results(struct lj_result *r)
{
	return r->results;
}

json_object *lj_result_side(struct lj_result *r)
{
	return r->side;
}

void lj_result_set_system(struct lj_result *r, json_object *system)
{
	json_object_object_add(r->root, "system",
			       system ? system : json_object_new_object());
}

void lj_result_summary(struct lj_result *r, const char *metric, double value,
		       const char *unit, enum lj_better better)
{
	lj_summary_put(r->summary, metric, value, unit, better);
}

void lj_result_summary_hist(struct lj_result *r, const char *prefix, const struct lj_hist *h)
{
	lj_summary_hist(r->summary, prefix, h);
}

static void add_bucket(int64_t lower_ns, uint64_t count, void *arg)
{
	json_object *pair = json_object_new_array_ext(2);

	if (!pair)
		return;
	json_object_array_add(pair, lj_json_int(lower_ns));
	json_object_array_add(pair, lj_json_int((int64_t)count));
	json_object_array_add(arg, pair);
}

json_object *lj_result_hist_json(const struct lj_hist *h, bool with_buckets)
{
	json_object *o = json_object_new_object();
	uint64_t n = lj_hist_count(h);
	char key[32];

	if (!o)
		return NULL;
	lj_json_add(o, "count", lj_json_int((int64_t)n));
	lj_json_add(o, "min_ns", lj_json_int(lj_hist_min(h)));
	lj_json_add(o, "mean_ns", lj_json_num_short(n ? lj_hist_mean(h) : 0.0));
	lj_json_add(o, "stddev_ns", lj_json_num_short(n > 1 ? lj_hist_stddev(h) : 0.0));
	for (int i = 0; i < LJ_PCT_N; i++) {
		snprintf(key, sizeof(key), "%s_ns", lj_pcts[i].name);
		lj_json_add(o, key, lj_json_int(n ? lj_hist_quantile(h, lj_pcts[i].q) : 0));
	}
	lj_json_add(o, "max_ns", lj_json_int(lj_hist_max(h)));
	lj_json_add(o, "overflows", lj_json_int((int64_t)lj_hist_overflows(h)));
	if (with_buckets) {
		json_object *b = lj_json_add(o, "histogram", json_object_new_array());

		if (b)
			lj_hist_foreach(h, add_bucket, b);
	}
	return o;
}

void lj_result_finish(struct lj_result *r, int exit_code)
{
	lj_json_add(r->root, "end", iso8601_now());
	lj_json_add(r->root, "duration_ns", lj_json_int(lj_now_ns() - r->start_mono_ns));
	lj_json_add(r->root, "exit_code", lj_json_int(exit_code));
	if (lj_rtjson_present(r->root))	/* rt-tests' copies of the same two facts */
		lj_rtjson_finish(r->root, exit_code);
	r->finished = true;
}

int lj_result_write(struct lj_result *r, const char *path)
{
	/* A document written before finish still says when it was taken. */
	if (!r->finished) {
		lj_json_add(r->root, "end", iso8601_now());
		lj_json_add(r->root, "duration_ns",
		    lj_json_int(lj_now_ns() - r->start_mono_ns));
	}
	return lj_json_write_atomic(r->root, path);
}

int lj_result_check_path(const char *path)
{
	if (!path || !*path)
		return -EINVAL;
	return lj_outfile_check(path, NULL, 0);
}

/*
 * Through lj_outfile: a regular file is replaced by rename (a reader or a
 * crash sees the old document or the new one, never half), a device or
 * FIFO written in place ("--json /dev/null" must not turn /dev/null into a
 * regular file), a link planted in a shared directory refused.
 */
int lj_json_write_atomic(json_object *obj, const char *path)
{
	struct lj_outfile o;
	const char *text;
	int ret;

	if (!obj || !path || !*path)
		return -EINVAL;
	text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	ret = lj_outfile_open(&o, path, NULL, 0);
	if (ret)
		return ret;
	ret = lj_outfile_write(&o, text, strlen(text));
	if (!ret)
		ret = lj_outfile_write(&o, "\n", 1);
	if (ret) {
		lj_outfile_abort(&o);
		return ret;
	}
	return lj_outfile_commit(&o);
}

int lj_json_read(const char *path, size_t max, json_object **out, char *why, size_t why_len)
{
	struct json_tokener *tok;
	json_object *doc;
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = lj_readall(path, max, &text, &len, why, why_len);
	if (ret)
		return ret;
	tok = json_tokener_new();
	if (!tok) {
		free(text);
		return -ENOMEM;
	}
	doc = json_tokener_parse_ex(tok, text, (int)len);
	if (!doc || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		size_t end = json_tokener_get_parse_end(tok);

		/* trailing white space after the document is fine */
		while (doc && end < len && (text[end] == ' ' || text[end] == '\t' ||
					       text[end] == '\r' || text[end] == '\n'))
			end++;
		if (!doc || end < len) {
			enum json_tokener_error e = json_tokener_get_error(tok);

			lj_why(why, why_len, "not JSON: %s at byte %zu",
			       doc ? "trailing data" :
			       e == json_tokener_continue ? "unexpected end of input" :
			       json_tokener_error_desc(e),
			       json_tokener_get_parse_end(tok));
			json_object_put(doc);
			json_tokener_free(tok);
			free(text);
			return -EINVAL;
		}
	}
	json_tokener_free(tok);
	free(text);
	*out = doc;
	return 0;
}

int lj_result_read(const char *path, json_object **out, char *why, size_t len)
{
	json_object *doc;
	int ret = lj_json_read(path, LJ_RESULT_MAX_BYTES, &doc, why, len);

	*out = NULL;
	if (ret)
		return ret;
	ret = lj_result_validate(doc, why, len);
	if (ret) {
		json_object_put(doc);
		return ret;
	}
	*out = doc;
	return 0;
}
