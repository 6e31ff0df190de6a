/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_validity_hook - the validity verdict as a hook beside a measurement (lj_hook). */
#ifndef LJ_VALIDITY_HOOK_H
#define LJ_VALIDITY_HOOK_H

#include <json-c/json.h>
#include <stdint.h>

#include "lj_hook.h"
#include "lj_validity.h"

/*
 * The driver (lj_tool) adds the hook to every measuring run
 * (lj_vhook_add) and feeds it what only the tool knows: the counts of its
 * `counts` operation (lj_vhook_counts) and the setup record's fallbacks
 * (lj_vhook_fallbacks). start() takes the run's threads with what each was
 * set to run with (struct lj_run_desc), reads the clock source, the
 * measured CPUs' /proc/stat times and opens the kernel log; poll()
 * (lj_hooks_poll, from the thread that waits for the run) reads the
 * threads' policy and priority back (sched_getattr) while they run (they
 * are gone by stop()); late() counts missed deadlines; stop() reads again
 * and judges; contribute() writes the result's "validity" block, report()
 * the "validity: ..." line and its reasons. docs/validity.md lists the
 * checks. Threads created after the start (lj-frame's trials) come
 * through lj_hooks_threads(): the hook's threads() reads them back at
 * once, and the polls read the threads of the last such call only. A
 * thread that asked nothing (policy -1) is not read; one found gone is
 * not read again (its id may be reused).
 */
struct lj_vhook;

extern const struct lj_hook_ops lj_vhook_ops;

/* Each {"what", "reason"} of a setup record's "fallbacks" makes the run suspect (read once). */
void lj_vhook_fallbacks(struct lj_vhook *h, json_object *setup);
/*
 * Facts the tool counted: missed periods, histogram overflows, samples
 * measured, and those asked for (0: unknown) against how many of them
 * were reached (struct lj_tool_counts).
 */
void lj_vhook_counts(struct lj_vhook *h, uint64_t missed, uint64_t overflows, uint64_t samples,
		     uint64_t expected, uint64_t reached);
/* A reason found by another hook (the power sampler's "throttle"); @text is copied. */
void lj_vhook_reason(struct lj_vhook *h, enum lj_validity_level l, const char *what, const char *text);
/* The same, given to the started validity hook of @hs, if it has one. */
void lj_vhook_reason_in(struct lj_hooks *hs, enum lj_validity_level l, const char *what,
			const char *text);
/*
 * Create the hook and add it to @hooks (the driver's list, which starts,
 * stops, reports and frees it); *@out keeps it for the calls above.
 * Return: 0, -ENOMEM or lj_hooks_add's -ENOSPC (*@out NULL).
 */
int lj_vhook_add(struct lj_hooks *hooks, struct lj_vhook **out);
/* The verdict so far (final after stop). */
const struct lj_validity *lj_vhook_verdict(const struct lj_vhook *h);
/* The threads listed in the block's "threads" (all are counted in its "checked"). */
#define LJ_VHOOK_LISTED 64
/* The "validity" block: {"verdict", "reasons": [{"level", "what", "text"}]} (the hook adds "threads"). */
json_object *lj_validity_json(const struct lj_validity *v);
/* "validity: suspect" and one indented line per reason. */
void lj_validity_print(const struct lj_validity *v, FILE *out);

#endif
