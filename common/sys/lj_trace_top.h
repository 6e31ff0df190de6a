/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lj_trace_top - the user's own trace in the top-level tracefs buffer,
 * marked and stopped at a -b break as cyclictest does (docs/explain.md).
 *
 * The recorder never records there: -b with --tracemark keeps a trace of
 * its own. But a user who traces at the top level (trace-cmd start, a
 * tracer, events enabled) and runs cyclictest -b --tracemark gets that
 * trace marked and stopped where the spike was, and reads it; so, when
 * the top level is tracing something, the break marks and stops it too.
 * A top level with nothing enabled (the kernel's default: tracing_on 1,
 * nop) is left alone, where cyclictest would turn its tracing off.
 */
#ifndef LJ_TRACE_TOP_H
#define LJ_TRACE_TOP_H

#include <stddef.h>

struct lj_trace_top;

/*
 * Whether the user traces at the top level now: tracing on, and a tracer
 * other than nop or some event enabled. If so *@out holds its marker and
 * tracing_on files, open, and @what says what it traces ("tracer
 * function_graph, 3 events"). Return: 1 (it does), 0 (it does not, or
 * tracefs is not there: *@out NULL), or -errno.
 */
int lj_trace_top_watch(struct lj_trace_top **out, char *what, size_t len);

/*
 * Write @text into its trace_marker, then stop it (tracing_on 0): two
 * write()s on files opened by lj_trace_top_watch, for a measuring thread.
 * Left stopped for the user to read, as cyclictest leaves it.
 * Return: 0, or -errno of the stop (a refused marker only loses the mark).
 */
int lj_trace_top_break(struct lj_trace_top *t, const char *text);

void lj_trace_top_free(struct lj_trace_top *t);

#endif
