/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_result - the ljkit-result/1 JSON document: build, write atomically, read back. */
#ifndef LJ_RESULT_H
#define LJ_RESULT_H

#include <json-c/json.h>
#include <stdbool.h>

struct lj_hist;

#define LJ_RESULT_SCHEMA "ljkit-result/1"

/*
 * Document layout (docs/result-format.md is the reference):
 * {
 *   "schema": "ljkit-result/1", "tool": "lj-cyclic", "version": "0.1.0",
 *   "argv": [...], "start": "ISO8601", "end": "ISO8601", "duration_ns": N,
 *   "exit_code": 0,
 *   "system":  { lj_sysinfo },
 *   "setup":   { "applied": [...], "fallbacks": [...], ... },
 *   "params":  { tool parameters },
 *   "results": [ per thread/CPU objects, each may hold lj_result_hist_json() blocks ],
 *   "summary": { "METRIC": { "value": x, "unit": "ns", "better": "lower" }, ... },
 *   "side":    { context switches, migrations, frequency samples, ... }
 * }
 * "summary" holds the headline metrics of the run under short names
 * (min, mean, p99, max, time, dropped, fps, ...): lj-matrix and lj-compare
 * compare these without knowing the tool.
 */
struct lj_result;

enum lj_better { LJ_BETTER_LOWER, LJ_BETTER_HIGHER, LJ_BETTER_NONE };

struct lj_result *lj_result_new(const char *tool, int argc, char **argv);
void lj_result_free(struct lj_result *r);

json_object *lj_result_root(struct lj_result *r);
json_object *lj_result_params(struct lj_result *r);	/* object */
json_object *lj_result_setup(struct lj_result *r);	/* object */
json_object *lj_result_results(struct lj_result *r);	/* array */
json_object *lj_result_side(struct lj_result *r);	/* object */

/* Fill "system" from lj_sysinfo (done by lj_result_new unless LJ_RESULT_NO_SYSINFO is set in the environment for tests). */
void lj_result_set_system(struct lj_result *r, json_object *system);

void lj_result_summary(struct lj_result *r, const char *metric, double value,
		       const char *unit, enum lj_better better);

/*
 * The statistics block of a histogram: count, min_ns, mean_ns, stddev_ns,
 * p50_ns, p90_ns, p99_ns, p99_9_ns, p99_99_ns, max_ns, overflows, and
 * "histogram": [[lower_ns, count], ...] (non-empty buckets) when
 * @with_buckets. Integers in ns.
 */
json_object *lj_result_hist_json(const struct lj_hist *h, bool with_buckets);

/* Record the end time and exit code. */
void lj_result_finish(struct lj_result *r, int exit_code);

/*
 * Write to @path atomically (path.tmp.PID, fsync, rename), or to stdout
 * when @path is "-". Return: 0 or -errno.
 */
int lj_result_write(struct lj_result *r, const char *path);
int lj_json_write_atomic(json_object *obj, const char *path);

/*
 * Read a result document and check its schema. Return: 0 or -errno
 * (-EINVAL with @why "not JSON", "schema 'x' is not ljkit-result/1", ...).
 */
int lj_result_read(const char *path, json_object **out, const char **why);

#endif
