/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_result - the ljkit-result/1 JSON document: build, write atomically, read back. */
#ifndef LJ_RESULT_H
#define LJ_RESULT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "lj_summary.h"

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
/* Histogram @h (ns) as the shared summary entries, each name prefixed with @prefix (lj_summary_hist). */
void lj_result_summary_hist(struct lj_result *r, const char *prefix, const struct lj_hist *h);

/*
 * The statistics block of a histogram: count, min_ns, mean_ns, stddev_ns,
 * p50_ns, p90_ns, p99_ns, p99_9_ns, p99_99_ns (lj_pcts), max_ns, overflows, and
 * "histogram": [[lower_ns, count], ...] (non-empty buckets) when
 * @with_buckets. Integers in ns.
 */
json_object *lj_result_hist_json(const struct lj_hist *h, bool with_buckets);

/* Record the end time and exit code. */
void lj_result_finish(struct lj_result *r, int exit_code);

/*
 * Write to @path atomically (path.tmp.PID in the same directory, fsync,
 * rename, fsync the directory), or to stdout when @path is "-". Pretty
 * printed, slashes unescaped. lj_result_write also records "end" and
 * "duration_ns" if lj_result_finish was not called. A @path that exists
 * and is not a regular file (a device, a FIFO, /dev/stdout) is written in
 * place, never renamed over; a symlink is followed only where lj_outfile
 * expects it (not one planted in a directory others can write: -ELOOP).
 * Return: 0 or -errno (the temporary file is removed on failure).
 */
int lj_result_write(struct lj_result *r, const char *path);
int lj_json_write_atomic(json_object *obj, const char *path);

/*
 * lj_result_check_path - can a result be written to @path? Call it before
 * measuring so a bad --json path costs nothing: it creates and removes
 * the write's own temporary file (lj_outfile_check, which also says why
 * in words). Return: 0 or -errno (-EISDIR, -ENOENT, -EACCES, -ELOOP, ...).
 */
int lj_result_check_path(const char *path);

/*
 * The largest documents readers accept (docs/result-format.md): a result,
 * and an lj-matrix manifest (100,000 cells with their runs fit well).
 */
#define LJ_RESULT_MAX_BYTES	(64u << 20)
#define LJ_MANIFEST_MAX_BYTES	(256u << 20)

/*
 * lj_json_read - one JSON document from @path ("-" = stdin), a regular
 * file of at most @max bytes (lj_readall), with nothing but white space
 * after it. Return: 0, or -errno with @why (the caller's buffer of
 * @why_len bytes, may be NULL; lj_why) as lj_readall gives it or
 * "not JSON: ... at byte N" (-EINVAL); "" when the errno says it all
 * (-ENOMEM). *@out is the caller's to put.
 */
int lj_json_read(const char *path, size_t max, json_object **out, char *why, size_t why_len);

/*
 * Read a result document ("-" = stdin; at most LJ_RESULT_MAX_BYTES, a
 * regular file) and check it with lj_result_validate. Return: 0 or
 * -errno (-EINVAL with @why "not JSON: ...", "not a regular file",
 * "schema 'x' is not ljkit-result/1", ...; -EFBIG "larger than N bytes";
 * the open/read error otherwise), @why in the caller's buffer as
 * lj_json_read fills it. *@out is the caller's to json_object_put().
 */
int lj_result_read(const char *path, json_object **out, char *why, size_t len);

/*
 * Check @doc against ljkit-result/1 (docs/result-format.md): required
 * keys and their types, summary entries, and every statistics block (an
 * object holding "p50_ns") anywhere in the document: count >= 0,
 * min_ns <= p50_ns <= p90_ns <= p99_ns <= p99_9_ns <= p99_99_ns <= max_ns,
 * overflows <= count, and its histogram buckets ascending and adding up
 * to count - overflows. Return: 0, or -EINVAL with @why (the caller's
 * buffer of @len bytes, may be NULL; lj_why) naming the key path and the
 * problem ("results[0].p90_ns 12 < p50_ns 40"); "" when valid.
 */
int lj_result_validate(json_object *doc, char *why, size_t len);

#endif
