/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_tef - a trace in the Trace Event Format (JSON) that ui.perfetto.dev and chrome://tracing load. */
#ifndef LJ_TEF_H
#define LJ_TEF_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lj_outfile.h"

/*
 * The file is {"traceEvents":[...],"otherData":{...}}, one event per
 * line, written as the events come (nothing is held in memory but the
 * event being written). What the readers require and how this writer
 * meets it (docs/perfetto.md has the sources):
 *
 * - "ts" and "dur" are microseconds: written with three decimals, so
 *   every CLOCK_MONOTONIC nanosecond survives (Perfetto reads the number
 *   as text).
 * - Every event starts with "ph" and "ts": Perfetto's tokenizer finds
 *   "ts" by scanning the event's keys in order and gives up on an array
 *   value met before it. No event holds an array at all.
 * - Slices ('X') on one track must nest; a caller writes one track's
 *   slices by start, the longer first at an equal start (parents before
 *   children), and never lets two partly overlap (lj_tef_lanes).
 * - Metadata ('M') names processes and threads; Perfetto keys a thread's
 *   name by its tid alone, so the tracks this writer makes up
 *   (lj_tef_track) take tids no kernel gives (LJ_TEF_TID_BASE and up).
 * - A counter ('C') track is "NAME KEY" in Perfetto: name counters for
 *   what they count and key them by unit ("fps" "Hz").
 * - No "displayTimeUnit": older Perfetto versions read "ns" or "ms" there
 *   as the unit of "ts" itself, where the format says it only chooses
 *   the display unit.
 */

/* Made-up tids and pids: above any kernel's PID_MAX_LIMIT (2^22). */
#define LJ_TEF_TID_BASE (1u << 23)

struct lj_tef {
	struct lj_outfile out;
	FILE *f;
	uint64_t events;
	uint32_t next_tid;		/* the next made-up tid */
	bool open;
};

/* Open @path (lj_outfile's rules) and start the event array. Return: 0 or -errno (@why as lj_outfile_open). */
int lj_tef_open(struct lj_tef *w, const char *path, char *why, size_t len);

/* Name process @pid (and its place in the UI, lower first). */
void lj_tef_process(struct lj_tef *w, uint32_t pid, const char *name, int sort);
/* Name thread @tid of @pid (and its place among the process's tracks). */
void lj_tef_thread(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, int sort);
/* A made-up track (thread) of @pid named @name. Return: its tid. */
uint32_t lj_tef_track(struct lj_tef *w, uint32_t pid, const char *name, int sort);

/*
 * A slice ('X') of @dur_ns from @ts_ns (CLOCK_MONOTONIC) on track
 * @pid/@tid. @cat may be NULL; @args (may be NULL) is taken over.
 */
void lj_tef_slice(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, const char *cat,
		  uint64_t ts_ns, uint64_t dur_ns, json_object *args);
/* An instant ('i') at @ts_ns on the thread's track ("s": "t"). @args taken over. */
void lj_tef_instant(struct lj_tef *w, uint32_t pid, uint32_t tid, const char *name, const char *cat,
		    uint64_t ts_ns, json_object *args);
/* A counter ('C') of process @pid: track "@name @key" takes @value at @ts_ns. */
void lj_tef_counter(struct lj_tef *w, uint32_t pid, const char *name, const char *key,
		    uint64_t ts_ns, double value);

/*
 * End the array, write "otherData" (@other, taken over; may be NULL) and
 * commit the file. Return: 0 or the first -errno of any write.
 */
int lj_tef_close(struct lj_tef *w, json_object *other);
/* Give up: the target keeps what it held. */
void lj_tef_abort(struct lj_tef *w);

/*
 * Lanes for slices that may overlap (intervals sorted by start): the
 * first lane whose last slice ended at or before @start, or a new one.
 * @ends has room for @max ends, zeroed before the first call.
 * Return: the lane, or -1 when all @max are busy (the caller leaves the
 * slice out and counts it: overlapping slices on one track do not nest).
 */
int lj_tef_lane(uint64_t *ends, int *nlanes, int max, uint64_t start, uint64_t end);

#endif
