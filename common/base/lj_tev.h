/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_tev - one kernel trace event in the compact form the explanation reads. */
#ifndef LJ_TEV_H
#define LJ_TEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The generic trace events every kernel has (docs/explain.md): the
 * recorder (common/sys/lj_trace) turns the ring buffer's records into
 * these, and the unit tests read them from the kernel's own text output
 * (tests/fixtures/explain/) with lj_tev_parse_line().
 */
enum lj_tev_type {
	LJ_TEV_SWITCH,		/* sched:sched_switch */
	LJ_TEV_WAKING,		/* sched:sched_waking (the waker's CPU) */
	LJ_TEV_WAKEUP,		/* sched:sched_wakeup */
	LJ_TEV_MIGRATE,		/* sched:sched_migrate_task */
	LJ_TEV_IRQ_ENTRY,	/* irq:irq_handler_entry */
	LJ_TEV_IRQ_EXIT,	/* irq:irq_handler_exit */
	LJ_TEV_SOFTIRQ_ENTRY,	/* irq:softirq_entry */
	LJ_TEV_SOFTIRQ_EXIT,	/* irq:softirq_exit */
	LJ_TEV_TIMER_ENTRY,	/* irq_vectors:local_timer_entry */
	LJ_TEV_TIMER_EXIT,	/* irq_vectors:local_timer_exit */
	LJ_TEV_HRTIMER,		/* timer:hrtimer_expire_entry */
	LJ_TEV_IDLE,		/* power:cpu_idle */
	LJ_TEV_FREQ,		/* power:cpu_frequency */
	LJ_TEV_LOST,		/* the ring buffer dropped events here */
	LJ_TEV_NTYPES
};

#define LJ_TEV_COMM 16
#define LJ_TEV_IRQNAME 24
/* power:cpu_idle's state when the CPU leaves idle (PWR_EVENT_EXIT). */
#define LJ_TEV_IDLE_EXIT UINT32_MAX
/* sched_switch prev_state bits below this are sleeping states; 0 is runnable. */
#define LJ_TEV_STATE_MASK 0xff

struct lj_tev {
	uint64_t ts;			/* ns, CLOCK_MONOTONIC (the instance's "mono" clock) */
	enum lj_tev_type type;
	pid_t pid;			/* the task current on the CPU (common_pid; 0: idle) */
	union {
		struct {
			pid_t prev_pid, next_pid;
			int prev_prio, next_prio;	/* kernel prio: 0-98 RT, 100-139 normal, -1 deadline */
			long prev_state;
			char prev_comm[LJ_TEV_COMM], next_comm[LJ_TEV_COMM];
		} sw;
		struct {
			pid_t pid;
			int prio, target_cpu;
			char comm[LJ_TEV_COMM];
		} wake;			/* WAKING, WAKEUP */
		struct {
			pid_t pid;
			int prio, orig_cpu, dest_cpu;
			char comm[LJ_TEV_COMM];
		} mig;
		struct {
			int irq;
			char name[LJ_TEV_IRQNAME];	/* entry only */
		} irq;
		unsigned int softirq_vec;
		uint32_t idle_state;		/* LJ_TEV_IDLE_EXIT when leaving idle */
		uint32_t freq_khz;
		uint64_t lost;			/* events lost (0: an unknown number) */
	};
};

/* One CPU's events, in time order. */
struct lj_tev_seq {
	const struct lj_tev *ev;
	size_t n;
};

/* A stretch of time whose events must be kept: [from, to], ns. */
struct lj_tev_window {
	uint64_t from, to;
};

/*
 * Drop from @ev (one CPU's events, in time order) those before @before
 * that lie in none of @keep's windows (sorted by from, may overlap). Where
 * events were dropped before a kept one, an LJ_TEV_LOST marker (lost = 0:
 * an unknown number) takes their place, at the kept event's time, so the
 * explanation does not carry the CPU's state across the hole. Return: the
 * number of events left (compacted in place; markers never make it grow).
 */
size_t lj_tev_prune(struct lj_tev *ev, size_t n, uint64_t before,
		    const struct lj_tev_window *keep, size_t nkeep);

/*
 * Is @ts inside one of @keep's windows (sorted by from)? @k (start at 0)
 * walks forward with the times asked, which must not go back by more
 * than the windows' gaps: the events of one CPU in time order.
 */
bool lj_tev_kept(uint64_t ts, const struct lj_tev_window *keep, size_t nkeep, size_t *k);

/*
 * The recorder's selection (docs/explain.md, "What is recorded"): whether
 * @e is an event an explanation reads, given the measured threads @tids
 * (@n 0: not known, then every task's wake-ups count). Not read:
 * hrtimer_expire_entry (it fires inside the local timer's entry and exit,
 * which already give the interrupt its time), sched_wakeup when the kernel
 * has sched_waking (@have_waking: the earlier of the two, the one the
 * explanation prefers), cpu_idle (the switch to the idle task says the
 * CPU went idle; the interrupt that ends the idle says it left, or else
 * the switch away from the idle task, a microsecond or two after the
 * exit: a program there ran on every wake-up's path, and a dozen times
 * more per wake-up while idle on a polling cpuidle driver), and
 * the wake-ups and migrations of tasks other than the measured threads
 * (a late thread's story is its own events).
 * The recorder asks the kernel for exactly this set (events left
 * disabled, filters on the pid); tests/unit/test_explain.c explains the
 * recorded traces both ways and expects the same explanations.
 */
bool lj_tev_needed(const struct lj_tev *e, const pid_t *tids, int n, bool have_waking);

/* More measured threads than this and the recorder filters no pid (a filter's length is bounded). */
#define LJ_TEV_FILTER_MAX 64

/*
 * The event filter that keeps the events about @tids only ("pid == 12 ||
 * pid == 15"), or "0" (the kernel's word for no filter) when @n is 0 or
 * above LJ_TEV_FILTER_MAX or a tid is not positive. Return: 1 a filter,
 * 0 none, -ENOSPC @len too small.
 */
int lj_tev_pid_filter(const pid_t *tids, int n, char *buf, size_t len);

/* The kernel's name of an event type ("sched_switch"; "lost" for LJ_TEV_LOST). */
const char *lj_tev_type_name(enum lj_tev_type t);

/* "NET_RX" for softirq vector 3, "?" for an unknown one. */
const char *lj_tev_softirq_name(unsigned int vec);

/*
 * Parse one line of the kernel's text trace ("trace" file, default
 * options, a clock printing seconds.fraction), e.g.
 *   "  hog-1234  [001] d.h1.  812.000120: irq_handler_entry: irq=36 name=virtio1-req.0"
 * or a "CPU:1 [LOST 12 EVENTS]" line (ts 0: the caller places it after the
 * CPU's previous event). Task names are read whole, whatever their 15
 * bytes hold (spaces, "] ", another field's text: tests/fuzz/fuzz_tev.c).
 * Return: 1 and @ev and @cpu filled, 0 for a line
 * that is not one of the events above (headers, other events), or -EINVAL
 * for a line of a known event whose fields do not parse.
 */
int lj_tev_parse_line(const char *line, struct lj_tev *ev, int *cpu);

#endif
