/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_explain - why a thread ran late: the interval's time split into causes, from trace events. */
#ifndef LJ_EXPLAIN_H
#define LJ_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_tev.h"

/*
 * docs/explain.md defines the kinds and how the time is shared. Every
 * nanosecond of [due, ran) goes to exactly one cause: the shares add up
 * to the latency.
 */
enum lj_cause_kind {
	LJ_CAUSE_TASK,		/* another task ran while the thread could have */
	LJ_CAUSE_IRQ,		/* a hard interrupt handler (local timer included) */
	LJ_CAUSE_SOFTIRQ,	/* a softirq vector */
	LJ_CAUSE_IDLE,		/* the CPU was idle (getting out of idle included) */
	LJ_CAUSE_SELF,		/* the late thread itself ran */
	LJ_CAUSE_UNACCOUNTED,	/* no event says where the time went */
	LJ_CAUSE_OTHER,		/* the smallest causes, folded when there are too many */
	LJ_CAUSE_NKINDS
};

/* What the late thread was doing in the interval. */
enum lj_late_state {
	LJ_STATE_UNKNOWN,	/* the trace does not show it leaving or coming back */
	LJ_STATE_PREEMPTED,	/* switched out runnable, came back without a wake-up */
	LJ_STATE_WAITING,	/* woken in time, waited for the CPU */
	LJ_STATE_WOKEN_LATE,	/* the wake-up itself came late (most of the interval) */
	LJ_STATE_RUNNING,	/* on the CPU at the due time: late by its own work or interrupts */
};

/* LJ_POLICY_RT: an RT priority whose FIFO/RR the trace does not say. */
#define LJ_POLICY_UNKNOWN (-1)
#define LJ_POLICY_RT (-2)

struct lj_cause {
	enum lj_cause_kind kind;
	char name[LJ_TEV_IRQNAME];	/* comm, irq name, softirq vector name, "local_timer" */
	int id;			/* pid, irq number (-1: local timer), softirq vector */
	int prio;		/* TASK: kernel prio (0-98 RT, 100-139 normal, -1 deadline) */
	int policy;		/* TASK: SCHED_*, LJ_POLICY_RT or LJ_POLICY_UNKNOWN */
	uint64_t ns;
	unsigned int count;	/* entries (irq, softirq) or runs (task) seen in the interval */
};

#define LJ_EXPLAIN_MAXCAUSES 12

/*
 * A stretch of the interval on the analysed CPU, as the walk gave it to a
 * cause: what held the CPU from @start_ns to @end_ns, named as its cause
 * is (kind, name, id, prio: struct lj_cause's), also when the cause
 * itself was folded into "other". Depth 0 is what ran (a task, the
 * thread, idle, no events), merged across the interrupts that came over
 * it; depth 1 an interrupt or a softirq, inside the depth-0 stretch it
 * interrupted when there is one. Spans do not overlap within a depth;
 * they are kept in the order they ended (a depth-0 span after the
 * interrupts inside it).
 */
struct lj_span {
	uint64_t start_ns, end_ns;
	enum lj_cause_kind kind;
	int id, prio, depth;
	char name[LJ_TEV_IRQNAME];
};

/* Spans kept per explanation: at most 16 at depth 0 and 32 at depth 1 (the first ones), the rest counted. */
#define LJ_EXPLAIN_MAXSPANS0 16
#define LJ_EXPLAIN_MAXSPANS1 32
#define LJ_EXPLAIN_MAXSPANS (LJ_EXPLAIN_MAXSPANS0 + LJ_EXPLAIN_MAXSPANS1)

struct lj_explanation {
	int cpu;		/* the CPU analysed (where the thread came back) */
	int due_cpu;		/* the CPU it was due on */
	pid_t tid;
	int tid_prio;		/* kernel prio of the late thread, -1000: unknown */
	uint64_t due_ns, ran_ns, latency_ns;
	enum lj_late_state state;
	uint64_t wake_delay_ns;	/* due -> its wake-up (0 when woken before due) */
	uint64_t runq_wait_ns;	/* max(due, wake-up) -> switched in */
	uint64_t idle_exit_ns;	/* due -> leaving idle, when the CPU was idle at due */
	/*
	 * An RT thread, woken: tasks of lower priority held its CPU anyway
	 * (the kernel did not preempt them: its preemption model, a section
	 * that cannot be preempted, the fair server or RT throttling).
	 */
	uint64_t lower_prio_ns;
	bool migrated;
	int mig_from, mig_to;
	uint32_t freq_khz;	/* last cpu_frequency of the CPU (0: none seen) */
	bool incomplete;	/* part of the interval before the trace or after lost events */
	bool switch_inferred;	/* a switch away from idle the trace lacks was placed (idle_switch_untraced) */
	int ncauses;		/* causes[] by ns, descending; the rest folded into an "other" */
	struct lj_cause causes[LJ_EXPLAIN_MAXCAUSES];
	int nspans;		/* when each cause held the CPU (a trace viewer's slices) */
	unsigned int spans_dropped;	/* past LJ_EXPLAIN_MAXSPANS0/1 */
	struct lj_span spans[LJ_EXPLAIN_MAXSPANS];
};

/*
 * The trace: @cpus[c] holds CPU c's events in time order (n = 0: none).
 * @timer_wakeups: no sched_waking was recorded because the measured
 * threads are woken by their own timers on their own CPUs (the BPF
 * recorder's lj_trace_wakeups_by_timer): a thread's wake-up is then the
 * local timer interrupt that ran its timer (docs/explain.md).
 */
struct lj_trace_view {
	const struct lj_tev_seq *cpus;
	int ncpus;
	bool timer_wakeups;
};

/*
 * Explain the interval [@due_ns, @ran_ns) of thread @tid due on @cpu.
 * Return: 0, or -EINVAL (cpu outside the view, ran before due), -ENOENT
 * (no event of that CPU: nothing to say).
 */
int lj_explain(const struct lj_trace_view *tv, int cpu, pid_t tid, uint64_t due_ns,
	       uint64_t ran_ns, struct lj_explanation *out);

/*
 * Explain @n intervals at once: the events about each thread are gathered
 * once for consecutive requests of the same tid (sort them by tid), and
 * each walk starts at the last sched_switch before its due time. @err[i]
 * gets what lj_explain would return for req[i]. Return: 0, or -ENOMEM.
 */
struct lj_explain_req {
	int cpu;
	pid_t tid;
	uint64_t due_ns, ran_ns;
};

int lj_explain_batch(const struct lj_trace_view *tv, const struct lj_explain_req *req, size_t n,
		     struct lj_explanation *out, int *err);

/* The unaccounted share (0 if none). */
uint64_t lj_explain_unaccounted(const struct lj_explanation *x);

/* "task", "irq", "softirq", "idle", "self", "unaccounted", "other" */
const char *lj_cause_kind_name(enum lj_cause_kind k);
/* "preempted", "waiting for CPU", "woken late", "running", "unknown" */
const char *lj_late_state_name(enum lj_late_state s);

/*
 * "FIFO 99", "RR 10", "RT 99" (FIFO or RR not known), "DL", "OTHER nice 0"
 * from a cause's policy and kernel prio, into @buf.
 */
const char *lj_cause_sched_text(const struct lj_cause *c, char *buf, size_t len);

/* "19.6 ms", "12 us", "850 ns": three significant digits at most. */
const char *lj_explain_dur(uint64_t ns, char *buf, size_t len);

/*
 * The text line of one explanation, without newline:
 *   "spike 19.6 ms on CPU 1 at +3.512 s (waiting for CPU): hog (pid 1234,
 *    FIFO 99) ran 19.4 ms; irq 36 virtio1-req.0 12 us; unaccounted 0.1 ms"
 * @what names the interval ("spike", "missed period", ...), @start_ns is
 * the run's start for the "+s" offset. Return: @buf.
 */
char *lj_explain_text(const struct lj_explanation *x, const char *what, uint64_t start_ns,
		      char *buf, size_t len);

/*
 * Add @x's causes to the run's totals @agg (@used entries of @max):
 * causes with the same kind and name (and pid or irq number) are summed;
 * when @agg is full its last entry becomes "other" and takes the rest.
 * Return: entries used.
 */
int lj_explain_aggregate(struct lj_cause *agg, int used, int max, const struct lj_explanation *x);

#endif
