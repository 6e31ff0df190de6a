/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_trace - the flight recorder: a tracefs instance of ljkit's own recording the events lj_explain reads. */
#ifndef LJ_TRACE_H
#define LJ_TRACE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_explain.h"

/*
 * lj_trace_open() mounts tracefs at /sys/kernel/tracing when nothing is
 * mounted there (shared with the other ljkit runs: the last one out
 * unmounts it), creates the instance "ljkit-PID" ("ljkit-PID@NS" in a container's PID namespace; never the top-level
 * buffer, which the user may be using), both through the setup stack and
 * its own journal (lj_setup_tracefs_*: a killed run is undone by lj-env
 * --restore), and in it:
 * trace_clock "mono" (timestamps on CLOCK_MONOTONIC, the clock the tools
 * measure with), tracing_cpumask = @cpus, buffer_size_kb = @buffer_kb per
 * CPU in overwrite mode (the newest events are kept), and the events of
 * lj_tev.h an explanation reads enabled (lj_tev_needed: no
 * hrtimer_expire_entry, sched_wakeup only without sched_waking; those the
 * kernel lacks, such as power:cpu_frequency without cpufreq, are skipped;
 * sched:sched_switch is required).
 *
 * Errors (-errno, with one line in @why): -ENODEV no tracefs in this
 * kernel, -EPERM/-EACCES not allowed (not root, lockdown), -ENOENT an
 * event missing, or what a write returned.
 */
#define LJ_TRACE_BUFFER_KB 8192

/*
 * Which recorder (docs/explain.md, "The BPF recorder"): AUTO takes the
 * BPF one where it loads (libbpf, BTF, the permission) and the tracefs
 * instance otherwise; the other two only that one (an error if it cannot
 * start). The BPF recorder has no instance: lj_trace_dir() is "" and
 * lj_trace_mark() fails (-ENOTSUP): --tracemark's kept trace asks for tracefs.
 */
enum lj_trace_backend { LJ_TRACE_AUTO, LJ_TRACE_TRACEFS, LJ_TRACE_BPF };

struct lj_trace;

struct lj_trace_stats {
	uint64_t events;	/* events read */
	uint64_t lost;		/* events the ring buffer dropped while read (missed_events) */
	uint64_t overrun;	/* events overwritten before they were read (per_cpu stats) */
	int ncpus;
	bool mounted;		/* tracefs was mounted by this process */
	int events_enabled, events_missing;
	uint64_t by_type[LJ_TEV_NTYPES];	/* events read, per lj_tev_type */
	int pid_filter;		/* threads the wake-up and migration events are filtered on (0: none) */
};

int lj_trace_open(struct lj_trace **out, const cpu_set_t *cpus, size_t buffer_kb,
		  enum lj_trace_backend want, char *why, size_t len);

/* One BPF program's work in the kernel during the measurement: its runs on every CPU and their time. */
struct lj_trace_prog_cost {
	const char *tracepoint, *program;	/* the program's name: sched_switch has one per kernel generation */
	uint64_t runs, ns;
};
#define LJ_TRACE_MAXPROGS 16

/*
 * The BPF recorder only (-ENOTSUP on tracefs): measure what its programs
 * cost in the kernel, from now until tracing stops (lj_trace_off);
 * lj_trace_programs() gives the figures then. The kernel's statistics add
 * two clock reads to every program run while on (docs/explain.md, "The
 * recorder's cost"). Return: 0, or -errno with one line in @why.
 */
int lj_trace_measure_programs(struct lj_trace *t, char *why, size_t len);
/* Return: the programs measured (0: not measured), at most @max into @out. */
int lj_trace_programs(const struct lj_trace *t, struct lj_trace_prog_cost *out, int max);

/*
 * The BPF recorder only (-ENOTSUP on tracefs): detach its programs, or
 * attach them again, for windows of a run without the recorder beside
 * windows with it (LJ_EXPLAIN_ALTERNATE). Return: 0, or -errno with one
 * line in @why.
 */
int lj_trace_attached(struct lj_trace *t, bool on, char *why, size_t len);
/* The BPF recorder only (-ENOTSUP): its programs stay attached and record nothing (@on false), or record again. */
int lj_trace_recording(struct lj_trace *t, bool on);
/* The BPF recorder's records written so far on the measured CPUs (0 on tracefs). */
uint64_t lj_trace_recorded(const struct lj_trace *t);

/* "bpf" or "tracefs": the recorder that runs. */
const char *lj_trace_backend_name(const struct lj_trace *t);

/* With AUTO on tracefs: why the BPF recorder did not start ("" when it was not tried). */
const char *lj_trace_bpf_why(const struct lj_trace *t);

/*
 * For tests (LJ_EXPLAIN_BPF_PLAIN): true loads the BPF recorder's object
 * for kernels before 5.12 (each record's place taken without the atomic
 * fetch-and-add they lack) whatever the kernel; false, the default: that
 * object on such a kernel only.
 */
extern bool lj_trace_bpf_plain_claim;

/* The BPF recorder runs its object for kernels before 5.12. */
bool lj_trace_bpf_plain(const struct lj_trace *t);

/* "bpf", "tracefs" or "auto" as a backend. Return: 0, or -EINVAL. */
int lj_trace_backend_parse(const char *s, enum lj_trace_backend *out);

/*
 * Record the wake-ups and migrations of these threads only (event
 * filters, lj_tev_pid_filter; @n 0 or more than LJ_TEV_FILTER_MAX: of
 * every task). Called again when the threads change (lj-frame's trials).
 * Return: 0 or -errno (the events are then recorded unfiltered).
 */
int lj_trace_threads(struct lj_trace *t, const pid_t *tids, int n);

/*
 * The measured threads are woken by their own timers on their own CPUs
 * (lj-cyclic's pinned RT threads): the BPF recorder then detaches its
 * sched_waking program, one program fewer on every wake-up's path, and
 * the explanations take a wake-up from the local timer interrupt that ran
 * the timer (lj_trace_view's timer_wakeups). Only where the local timer's
 * interrupt is recorded (x86's local_timer_entry/exit). Return: true when
 * it did; false on tracefs or without those events (sched_waking stays).
 */
bool lj_trace_wakeups_by_timer(struct lj_trace *t);

/* The instance directory ("/sys/kernel/tracing/instances/ljkit-PID"). */
const char *lj_trace_dir(const struct lj_trace *t);

/*
 * Write @text into the instance's trace_marker, and stop tracing
 * (tracing_on = 0). Both are one write() on a file opened at start: they
 * may be called from a measuring thread. Return: 0 or -errno.
 */
int lj_trace_mark(struct lj_trace *t, const char *text);
int lj_trace_off(struct lj_trace *t);

/*
 * Stop tracing and read every CPU's buffer into events (lj_trace_view()).
 * A record after dropped events gets an LJ_TEV_LOST marker before it.
 * With @keep the buffers are read without consuming them (the text
 * "trace" files, microsecond timestamps), so the trace stays for the
 * user. Return: 0 or -errno (detail in @why).
 */
int lj_trace_collect(struct lj_trace *t, bool keep, char *why, size_t len);

/*
 * While the run goes on (one thread, not beside lj_trace_collect): read
 * what the buffers hold now, consuming it, so the kernel's buffer never
 * wraps; and drop from what was read the events before @before outside
 * @keep (lj_tev_prune). Return: 0 or -errno.
 */
int lj_trace_drain(struct lj_trace *t);
/*
 * The same with the windows known so far: the BPF recorder copies out of
 * the kernel only the events before @hold_from inside @keep (the later
 * ones stay there until their windows are known); tracefs reads all.
 */
int lj_trace_drain_keep(struct lj_trace *t, uint64_t hold_from, const struct lj_tev_window *keep,
			size_t nkeep);
void lj_trace_prune(struct lj_trace *t, uint64_t before, const struct lj_tev_window *keep,
		    size_t nkeep);
const struct lj_trace_view *lj_trace_view(const struct lj_trace *t);
void lj_trace_get_stats(const struct lj_trace *t, struct lj_trace_stats *st);

/* The policy (SCHED_*) of @pid if it still runs with @comm, else LJ_POLICY_UNKNOWN. */
int lj_trace_policy_of(pid_t pid, const char *comm);

/*
 * Remove the instance (unless @keep: the user reads it after a break,
 * and the journal hands it over) and unmount tracefs if no other run
 * claims it (lj_setup_tracefs_mount). Return: 0, or -errno when something
 * could not be undone (@why says what; the journal is kept for lj-env
 * --restore).
 */
int lj_trace_close(struct lj_trace *t, bool keep, char *why, size_t len);

#endif
