/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig.h - lj-signal's configuration, ring state and the phases main() wires. */
#ifndef LJ_SIG_H
#define LJ_SIG_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_opt.h"
#include "lj_result.h"
#include "lj_sched.h"
#include "lj_setupopt.h"
#include "lj_topo.h"

#define SIG_SIGNAL		SIGUSR1		/* the token passed around the ring, as signaltest */
#define SIG_DEFAULT_THREADS	2
#define SIG_PACE_EVERY		16		/* signaltest's pacing: 10 ms every 16 round trips */
#define SIG_PACE_NS		10000000LL
#define SIG_DISPLAY_NS		100000000LL	/* live display refresh (signaltest: 10 ms) */
#define SIG_POLL_NS		10000000LL	/* main's check of the ring's end and the stop flag */
#define SIG_VALUES_RING		16384		/* -v buffer per thread when endless */
#define SIG_VALUES_MAX		(1 << 20)
#define SIG_HIST_MAX		1000000		/* cyclictest's -h limit */

enum sig_affinity {
	SIG_AFF_EACH,		/* thread i on the i-th allowed CPU (default, -a) */
	SIG_AFF_LIST,		/* round robin over -a LIST */
	SIG_AFF_NONE,		/* --no-affinity: let the scheduler place them */
};

struct sig_config {
	int threads;			/* -t, >= 2; -1 (-S): one per allowed CPU */
	bool smp;			/* -S */
	bool break_fails;		/* --break-fails: a -b break exits 3 */
	uint64_t loops;			/* -l round trips, 0: endless */
	int64_t duration_ns;		/* -D, 0: none */
	int priority;			/* -p, 0: SCHED_OTHER unless --policy */
	enum lj_policy policy;
	bool policy_given;
	bool mlock;
	bool quiet;
	bool verbose;
	bool nsecs;
	bool percentiles;
	int64_t histogram;		/* --histogram N: cyclictest's linear buckets, 0: off */
	const char *breaktrace_text;	/* -b as given: its unit depends on -N */
	int64_t breaktrace_ns;		/* -b, 0: off */
	struct lj_explain_opts explain;	/* --explain; .explain false: not asked */
	enum sig_affinity affinity;
	cpu_set_t affinity_set;
	int64_t pace_ns;
	uint64_t pace_every;		/* 0: no pacing */
	const char *json;
	struct lj_setupopt setup;
};

/*
 * Figures the live display reads while the ring runs: single writer (the
 * thread), relaxed atomics, so a reader may see a torn set but never a
 * torn number.
 */
struct sig_live {
	uint64_t cycles;
	int64_t act_ns, min_ns, max_ns, sum_ns;
};

struct sig_ring;

struct sig_thread {
	struct sig_ring *ring;
	int index;
	int cpu;			/* pinned CPU, -1: not pinned */
	pid_t tid;
	pthread_t pt;
	bool created;

	int64_t in_sent_ns;		/* stamp the predecessor wrote before signalling (atomic) */
	int done;			/* the thread left its loop (atomic) */

	/* written by the thread only, read by main after the ring stopped */
	struct lj_hist *hop;		/* predecessor's send to this thread's receipt */
	struct lj_hist *rt;		/* thread 0: its send to its next receipt */
	uint64_t *lin;			/* --histogram: one bucket per display unit */
	uint64_t lin_over;
	int64_t *values;		/* -v */
	uint64_t nvalues, values_cap;
	int sched_err, pin_err;
	uint64_t wait_errors, kill_errors, paces;
	long nvcsw, nivcsw;
	int last_cpu;
	struct sig_live live;
	struct sig_live rt_live;
};

struct sig_ring {
	struct sig_config *cfg;
	int n;
	struct sig_thread *th;
	sigset_t sigset;		/* SIG_SIGNAL */
	int stopping;			/* atomic: loops reached, -b, -D or a signal */
	int ready;			/* threads set up (atomic) */
	int go;				/* atomic: main released the ring */
	int broke_thread;		/* -b: thread over the limit, -1 */
	int64_t broke_ns;
	int reporter_cpu;
	const struct lj_hooks *hooks;	/* the driver's (lj_hooks_none before start), read by the loop */
	bool mlocked;
	bool sched_fallback;
	int first_sched_err;		/* -errno of the first thread refused its policy */
	int first_pin_err;		/* -errno of the first thread refused its CPU (it runs unpinned) */
	int pin_fail_thread, pin_fail_cpu;
	int64_t start_ns, end_ns;
	cpu_set_t measured;
};

/* options.c */
void sig_config_init(struct sig_config *cfg);
int sig_parse(struct sig_config *cfg, int argc, char **argv);

/* ring.c */
int sig_ring_init(struct sig_ring *r, struct sig_config *cfg, const struct lj_topo *topo);
/* Threads created and set up, waiting for the token; sched_fallback says a policy was refused. */
int sig_ring_start(struct sig_ring *r);
/* Start the clock and pass the token in. */
int sig_ring_go(struct sig_ring *r);
/* Ask the ring to stop (sig_ring_wait then joins it). */
void sig_ring_stop(struct sig_ring *r);
int sig_ring_wait(struct sig_ring *r);
void sig_ring_free(struct sig_ring *r);
/* "same-cpu", "cross-cpu" or "unpinned" for the hop into thread @to (inline: report.c reads it). */
static inline const char *sig_placement(const struct sig_ring *r, int to)
{
	int from = (to + r->n - 1) % r->n;

	if (r->th[to].cpu < 0 || r->th[from].cpu < 0)
		return "unpinned";
	return r->th[to].cpu == r->th[from].cpu ? "same-cpu" : "cross-cpu";
}

/* report.c */
void sig_report_live(const struct sig_ring *r);
void sig_report_final(const struct sig_ring *r);
int sig_report_json(const struct sig_ring *r, struct lj_result *res);

#endif
