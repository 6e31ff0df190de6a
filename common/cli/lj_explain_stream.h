/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_explain_stream - drain the recorder while the run goes, keeping the events around late samples. */
#ifndef LJ_EXPLAIN_STREAM_H
#define LJ_EXPLAIN_STREAM_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

struct lj_trace;
struct lj_explain_stream;

/*
 * A thread (SCHED_OTHER, off the measured CPUs @avoid when any other is
 * allowed, else where the scheduler puts it) reads @t's
 * buffers every LJ_EXPLAIN_STREAM_PERIOD_NS, so the kernel's buffer never
 * wraps however long the run, and keeps of what it read the last
 * LJ_EXPLAIN_STREAM_RECENT_NS and, for each late sample notified, the
 * window [due - LJ_EXPLAIN_STREAM_BEFORE_NS, ran + 1 ms]: memory grows
 * with the late samples, not with the run's length.
 */
#define LJ_EXPLAIN_STREAM_PERIOD_NS 100000000ULL	/* 100 ms */
#define LJ_EXPLAIN_STREAM_RECENT_NS 1000000000ULL	/* 1 s: late() comes right after ran */
#define LJ_EXPLAIN_STREAM_BEFORE_NS 50000000ULL		/* 50 ms: the thread's last switch-out */

/*
 * @nproducers: the measuring threads (each notifies through its own ring);
 * @avoid: the measured CPUs (NULL: none). Return: 0 or -errno.
 */
int lj_explain_stream_start(struct lj_explain_stream **out, struct lj_trace *t, int nproducers,
			    const cpu_set_t *avoid);

/*
 * A late sample of producer @p (its own index): keep [due - before, ran +
 * 1 ms]. Lock-free, no system call: for the measuring thread itself.
 */
void lj_explain_stream_notify(struct lj_explain_stream *s, int p, uint64_t due_ns,
			      uint64_t ran_ns);

/* Stop and join the thread. Return: 0, or the first -errno reading the trace. */
int lj_explain_stream_stop(struct lj_explain_stream *s);

/* Notifications that found their ring full (their window may be gone). */
uint64_t lj_explain_stream_dropped(const struct lj_explain_stream *s);

/* After stop: the reader thread's CPU time, its passes, whether it kept off the measured CPUs. */
struct lj_explain_stream_cost {
	uint64_t cpu_ns, passes;
	bool apart;
};
void lj_explain_stream_cost(const struct lj_explain_stream *s, struct lj_explain_stream_cost *c);

void lj_explain_stream_free(struct lj_explain_stream *s);

#endif
