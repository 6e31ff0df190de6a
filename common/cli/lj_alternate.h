/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_alternate - an instrument's cost inside one run: windows with it and without it. */
#ifndef LJ_ALTERNATE_H
#define LJ_ALTERNATE_H

#include <json-c/json.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lj_hook.h"

/*
 * docs/explain.md, "Its cost inside one run". Separate runs with and
 * without an instrument cannot resolve a few per cent on a machine whose
 * latency moves between modes over seconds; windows of one run can.
 * A thread off the measured CPUs cuts the run into windows of MS
 * milliseconds, in triples: in one window of each triple the instrument
 * is on, in the two others off (the --explain recorder's programs
 * detached, --power's sampler asleep), the window with it rotating from
 * triple to triple as bench-lib.sh's pairs rotate. Every sample is kept
 * with its due time; after the run each window's samples (those due after
 * its first tenth, which absorbs the switch, and that ran before it
 * ended) give its min, p50, mean and p99, beside what the instrument did
 * in it (records written, samples taken: none in a window without it,
 * the check that switching it off worked). The environment variables
 * LJ_EXPLAIN_ALTERNATE and LJ_POWER_ALTERNATE ask for it.
 */
#define LJ_ALTERNATE_MIN_MS 20
#define LJ_ALTERNATE_MAX_MS 60000
/* Samples kept (8 bytes each) and windows switched at most: the rest of a longer run is not split. */
#define LJ_ALTERNATE_SAMPLES (1u << 20)
#define LJ_ALTERNATE_WINDOWS 3072

/* "MS" or "MS,WORD" (an instrument's variant: --explain's "attached"). */
struct lj_alternate_opts {
	uint32_t ms;		/* 0: off */
	bool word;		/* ",WORD" given */
};

/* @val (NULL or "": off); @word the one variant allowed, or NULL. Return: 0, or -EINVAL with one line in @why. */
int lj_alternate_parse(const char *val, const char *word, struct lj_alternate_opts *o, char *why, size_t len);

/* The instrument, as the windows switch it. */
struct lj_alternate_ops {
	/* On or off. Return: 0, or -errno with one line in @why (the windows stop there). */
	int (*set)(void *ctx, bool on, char *why, size_t len);
	/* What it has done so far, a count that only grows: records written, samples taken. */
	uint64_t (*work)(void *ctx);
	/* Why it cannot be switched in this run (the tracefs recorder), or NULL: it can. */
	const char *(*unavailable)(void *ctx);
	const char *env;	/* the variable that asked, for the messages ("LJ_EXPLAIN_ALTERNATE") */
	const char *without;	/* what off means, for the result ("detached") */
	const char *work_is;	/* what work() counts ("records") */
};

struct lj_alternate;

/*
 * Start the windows of @run, the instrument on, the switching thread kept
 * off its measured CPUs. Only for the tools whose samples are timed
 * wake-ups the windows can split by their due time (lj-cyclic,
 * lj-signal: lj-frame reports frames, lj-oslat every turn of its loop),
 * and an instrument that can be switched (ops->unavailable). Return: 0,
 * or -errno with one line in @why naming ops->env.
 */
int lj_alternate_start(struct lj_alternate **out, uint32_t ms, const struct lj_alternate_ops *ops, void *ctx,
		       const struct lj_run_desc *run, char *why, size_t len);

/* One sample (CLOCK_MONOTONIC): on the measuring thread, no lock, no allocation. */
void lj_alternate_sample(struct lj_alternate *a, uint64_t due_ns, uint64_t ran_ns);

/* End the windows; the instrument is on again. */
void lj_alternate_stop(struct lj_alternate *a);

/* The block for the instrument's side entry ("alternate"), after stop. */
json_object *lj_alternate_json(struct lj_alternate *a);

void lj_alternate_free(struct lj_alternate *a);

/* Pure parts (unit-tested on injected samples). */

/* A sample: its due time from t0 in us, its latency in ns (LJ_ALTERNATE_ACROSS: left out). */
struct lj_alt_sample {
	uint32_t due_us;
	uint32_t lat_ns;
};
#define LJ_ALTERNATE_ACROSS UINT32_MAX	/* ran after its window ended, or was due before t0 */

/* What the switching thread did at a window's start (times from t0). */
struct lj_alt_window {
	uint64_t ready_ns;	/* the instrument on or off as the window wants */
	uint64_t toggle_ns;	/* what switching it took (0: no change) */
	uint64_t work0, work1;	/* its work count then, and at the next window's start */
};

/* Whether the instrument is on in window @k (0, 1, 2, ...): in one of each triple, rotating. */
bool lj_alternate_on(int k);

/* A sample due at @due_ns that ran at @ran_ns, for windows of @w_ns from @t0. */
struct lj_alt_sample lj_alternate_encode(uint64_t t0, uint64_t w_ns, uint64_t due_ns, uint64_t ran_ns);

/*
 * The windows' figures ("windows"): each of @nwin windows of @w_ns with
 * the samples of @s due in it after its settle time (a tenth of it, from
 * its start or from @w[k].ready_ns if later); *@in (may be NULL) gets how
 * many samples the windows kept.
 */
json_object *lj_alternate_windows(const struct lj_alt_sample *s, uint32_t ns, const struct lj_alt_window *w,
				  int nwin, uint64_t w_ns, uint32_t *in);

#endif
