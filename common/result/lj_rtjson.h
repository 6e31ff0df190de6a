/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_rtjson - rt-tests' --json keys beside ljkit's own, in the same document. */
#ifndef LJ_RTJSON_H
#define LJ_RTJSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Programs that run cyclictest or signaltest (LAVA test definitions,
 * tuxrun, mmtests) load its --json file and read keys such as
 * "return_code", "num_threads" and thread["0"]["max"]. These helpers add
 * those keys, with rt-tests' names, meanings and units, to the top level
 * of an ljkit-result/1 document; no ljkit key has one of these names, so
 * both kinds of reader take the same file (docs/result-format.md, "rt-tests
 * keys").
 */

/* The rt-tests release whose --json layout these keys reproduce. */
#define LJ_RTJSON_RT_VERSION "2.40"

/*
 * Add file_version, "cmdline:", "rt_test_version:", start_time, end_time,
 * return_code and sysinfo to @root, taken from the document's own argv
 * and start (end_time and return_code are null until
 * lj_rtjson_finish). Call it once, before the tool's rt-tests keys, so
 * they come first as in rt-tests' files.
 */
void lj_rtjson_header(json_object *root);

/* Set end_time (now) and return_code; lj_result_finish calls it when the header is there. */
void lj_rtjson_finish(json_object *root, int exit_code);

/* True when @root carries the rt-tests header. */
bool lj_rtjson_present(json_object *root);

/* One thread's figures as rt-tests writes them, in the run's display unit (us, or ns with -N). */
struct lj_rtjson_thread {
	const uint64_t *hist;		/* -h buckets, NULL: no "histogram" key (signaltest) */
	uint64_t nbuckets;		/* with @hist: an empty object when 0 */
	uint64_t cycles;
	int64_t min, max;
	double avg;			/* written with two decimals, as rt-tests does */
	int cpu;			/* -1: not pinned */
	int node;			/* NUMA node, -1: do not write the key (signaltest) */
};

/* "thread": {} under @root, created on the first call; returns it. */
json_object *lj_rtjson_threads(json_object *root);
void lj_rtjson_thread_add(json_object *threads, int index, const struct lj_rtjson_thread *t);

#endif
