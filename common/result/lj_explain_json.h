/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_explain_json - explanations and aggregated causes as result-document JSON. */
#ifndef LJ_EXPLAIN_JSON_H
#define LJ_EXPLAIN_JSON_H

#include <json-c/json.h>
#include <stdint.h>

#include "lj_explain.h"

/*
 * One element of side.explain.explanations (docs/result-format.md):
 * {"kind": @what, "cpu", "due_cpu", "tid", "at_ns" (due - @start_ns),
 *  "latency_ns", "state", "wake_delay_ns", "runq_wait_ns", "idle_exit_ns",
 *  "migrated": {"from", "to"} or null, "freq_khz" or null,
 *  "unaccounted_ns", "incomplete", "causes": [cause, ...]}.
 * New reference.
 */
json_object *lj_explanation_json(const struct lj_explanation *x, const char *what,
				 uint64_t start_ns);

/*
 * One cause: {"kind", "name", "ns", "count"} plus "pid", "sched" ("FIFO 99",
 * "OTHER nice 0": lj_cause_sched_text) and "prio" (the kernel's)
 * for a task, "irq" for an interrupt (null: the local timer), "vec" for a
 * softirq. New reference.
 */
json_object *lj_cause_json(const struct lj_cause *c);

#endif
