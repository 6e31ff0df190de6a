/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclic.h - lj-cyclic's configuration, per-thread state and the phases main() wires. */
#ifndef LJ_CYCLIC_H
#define LJ_CYCLIC_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_opt.h"
#include "lj_report.h"
#include "lj_result.h"
#include "lj_sched.h"
#include "lj_setupopt.h"
#include "lj_time.h"

#define CYC_DEFAULT_INTERVAL_NS 1000000LL	/* cyclictest's -i default, 1000 us */
#define CYC_DEFAULT_DISTANCE_NS 500000LL	/* cyclictest's -d default, 500 us */
#define CYC_HIST_MAX 1000000LL			/* cyclictest clamps -h to this */
#define CYC_DEFAULT_SPIKE_NODES 1024
#define CYC_THREAD_STACK (64 * 1024)		/* measurement thread stack (see run.c) */
#define CYC_MSR_SMI_COUNT 0x34			/* Intel: SMIs since reset, for --smi */
#define CYC_VALUES_RING (1 << 16)		/* -v values kept per thread until main prints them */

/* How the thread waits for its next period. */
enum cyc_wait {
	CYC_WAIT_ABSOLUTE,	/* clock_nanosleep(TIMER_ABSTIME), -n, the default */
	CYC_WAIT_RELATIVE,	/* clock_nanosleep relative, -r */
	CYC_WAIT_TIMER,		/* POSIX interval timer + sigwaitinfo, -x */
};

/* What happens after a wake-up so late that later periods already passed. */
enum cyc_catchup {
	CYC_CATCHUP_SKIP,	/* next deadline = first future period; passed ones counted as missed */
	CYC_CATCHUP_BURST,	/* every deadline is kept: wake at once for each passed one */
};

enum cyc_affinity {
	CYC_AFF_DEFAULT,	/* no -a: as cyclictest 2.x, thread i on the i-th allowed CPU (or --cpus) */
	CYC_AFF_NONE,		/* --no-affinity: threads not pinned, the reporter moved off them */
	CYC_AFF_EACH,		/* thread i on the i-th allowed CPU (-a, -a all, -S) */
	CYC_AFF_LIST,		/* round robin over a list (-a LIST, !LIST, +LIST, --cpus) */
};

struct cyc_config {
	int64_t interval_ns;
	int64_t distance_ns;
	bool distance_given;
	uint64_t loops;			/* 0: endless */
	int64_t duration_ns;		/* 0: none */
	int threads;			/* 0: not given (1 thread); -1: one per CPU */
	enum cyc_affinity affinity;
	cpu_set_t affinity_set;		/* CYC_AFF_LIST, resolved by place_threads */
	const char *affinity_text;	/* -a's value: LIST, all, !LIST, +LIST */
	bool loops_each;		/* --loops-per-thread: every thread runs -l wake-ups */
	bool smp;
	bool mainaffinity_given;
	cpu_set_t mainaffinity;
	int priority;
	bool priority_given;
	enum lj_policy policy;
	bool policy_given;
	bool priospread;
	bool mlock;
	bool nsecs;			/* -N: print ns */
	bool quiet;
	enum cyc_wait wait;
	enum cyc_catchup catchup;
	int64_t histogram;		/* -h/-H buckets (display units), 0: off */
	bool histofall;
	const char *histfile;
	const char *breaktrace_text;	/* -b, display units (us, ns with -N) */
	int64_t breaktrace_ns;		/* 0: off */
	bool tracemark;
	struct lj_explain_opts explain;	/* --explain; .explain false: not asked */
	const char *spike_text;		/* --spike, display units */
	int64_t spike_ns;		/* 0: off */
	int spike_nodes;
	const char *json;
	int32_t latency_us;		/* --latency, the /dev/cpu_dma_latency hold */
	bool laptop;
	bool default_system;		/* --default-system: no PM QoS hold, no tuning */
	bool percentiles;
	bool verbose;			/* -v: one n:c:v line per wake-up */
	int oscope;			/* -o: -v prints the max of each group of this many */
	bool refresh_on_max;		/* -M: redraw the live screen on a new max only */
	int64_t aligned_ns;		/* -A: thread i starts at a shared base + i * this */
	bool aligned;
	bool secaligned;		/* --secaligned: start on the next full second (+ offset) */
	int64_t secaligned_ns;
	int clock;			/* -c: 0 CLOCK_MONOTONIC, 1 CLOCK_REALTIME */
	bool system_sleep;		/* -s: cyclictest's "system" mode, clock_nanosleep only */
	bool resolution;		/* -R: report the clock's resolution before the run */
	bool smi;			/* --smi: count SMIs (needs the MSR) */
	bool dbg;			/* --dbg_cyclictest */
	const char *fifo;		/* -F: named pipe the T: lines are written to */
	const char *shm_path;		/* the SIGUSR2 snapshot file, set by the run */
	struct lj_setupopt setup;
};

/* A latency above the threshold, for --spike. */
struct cyc_spike {
	int64_t value;			/* display units */
	int64_t ts_us;			/* CLOCK_MONOTONIC at wake-up, us (cyclictest's TS:) */
};

/*
 * Numbers the display and SIGUSR1 read while the thread runs: the thread
 * publishes them under a sequence count (odd while writing), readers retry
 * until they see the same even count before and after.
 */
struct cyc_live {
	unsigned int seq;
	uint64_t cycles;
	int64_t min_ns, max_ns, act_ns, sum_ns;
	uint64_t missed;
};

struct cyc_run;

struct cyc_thread {
	struct cyc_run *run;
	int index;
	int cpu;			/* pinned CPU, -1: not pinned */
	enum lj_policy policy;
	int prio;
	int64_t interval_ns;
	pid_t tid;
	pthread_t pt;
	bool created;

	/* written by the thread only; read by main after join */
	struct lj_hist *hist;		/* ns, for percentiles and JSON */
	uint64_t *cthist;		/* cyclictest's linear -h buckets, cfg->histogram of them */
	uint64_t cthist_overflows;
	uint64_t *oflow_cycles;		/* cycle numbers of the first cfg->histogram overflows */
	struct cyc_spike *spikes;	/* first cfg->spike_nodes spikes */
	uint64_t nspikes;		/* all spikes, even those not stored */
	int64_t *values;		/* -v: ring of values_cap display-unit values */
	uint64_t values_cap;
	uint64_t nvalues;		/* values (or -o groups) written so far (atomic) */
	uint64_t printed;		/* main: values already printed */
	int64_t group_max;		/* -o: the current group's maximum */
	int smi_fd;			/* --smi: /dev/cpu/N/msr, else 0 or -1 */
	uint64_t smi_start, smi_end;	/* --smi: the CPU's SMI count around the loop */
	int sched_err;			/* -errno of applying the policy, 0 ok */
	int pin_err;
	int loop_err;			/* -errno of a failed wait, ends the thread */
	uint64_t errors;		/* failed waits and trace_marker writes */

	/* side metrics, filled when the loop ends */
	long nvcsw, nivcsw;
	long minflt_start;		/* the thread's minor faults as the loop starts */
	long minflt_measuring, majflt_measuring;	/* faults taken inside the loop, -1 unknown */
	uint64_t migrations;		/* CPU changes seen at wake-ups */
	int64_t nr_migrations;		/* the scheduler's count (/proc), -1 unknown */
	int first_cpu, last_cpu;

	struct cyc_live live;
};

struct cyc_run {
	struct cyc_config *cfg;
	int nthreads;
	struct cyc_thread *th;
	cpu_set_t measured;		/* CPUs measurement threads are pinned to */
	int reporter_cpu;		/* -1: not moved */
	int stop;			/* set by signals, -b, -D; read by all threads (atomics) */
	int done;			/* threads finished (atomic) */
	/* start gate: threads report their setup, main opens the gate (or stops) */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	int ready;			/* threads that finished their setup */
	bool go;
	int64_t start_ns;
	int64_t stop_at_ns;		/* -D, 0: none (CLOCK_MONOTONIC) */
	clockid_t clock;		/* -c: the clock the threads wait on and read */
	int64_t align_base_ns;		/* -A, --secaligned: the shared start on that clock, 0: none */
	pid_t break_tid;		/* -b: first thread over the threshold (atomic) */
	int64_t break_value;
	FILE *text;			/* cyclictest's lines: stdout, stderr with --json - */
	const struct lj_hooks *hooks;	/* the driver's (lj_hooks_none before start), read by the loop */
	int trace_fd;			/* trace_marker, -1 */
	int tracing_on_fd;		/* tracing_on, -1 */
	struct lj_explain *explain;	/* --explain or -b --tracemark: the recorder, NULL: none */
	bool sched_fallback;		/* RT policy asked but not granted */
	int dma_fd;
	int64_t end_ns;
	int shm_fd;			/* SIGUSR2's /dev/shm/cyclictest<PID>, -1 */
	char shm_path[64];		/* "" when there is none */
	char shm_mark[128];		/* its last line: who made it (snapshot.c) */
	bool fifo_created;		/* -F's pipe is ours to remove */
	int64_t shown_maxsum;		/* -M: the maxima the live screen last showed */
};

/* options.c */
void cyc_config_init(struct cyc_config *cfg);
int cyc_options_parse(struct cyc_config *cfg, int argc, char **argv);
int cyc_config_finish(struct cyc_config *cfg);
/* -a's value against the allowed CPUs: LIST, all, !LIST (all but), +LIST (relative). 0 or -EINVAL. */
int cyc_affinity_resolve(const char *text, const cpu_set_t *allowed, cpu_set_t *out,
			 char *why, size_t len);

/* loop.c */
void *cyc_thread_main(void *arg);
struct cyc_pace {
	int64_t interval_ns;
	enum cyc_catchup policy;
	int64_t counted_until;		/* last deadline already counted as missed */
	uint64_t missed;
};
int64_t cyc_pace_next(struct cyc_pace *p, int64_t deadline, int64_t now);
void cyc_live_read(const struct cyc_thread *t, struct cyc_live *out);

/* run.c (phases return 0, -errno or an exit code after a message: lj_tool.h) */
struct lj_topo;
struct lj_tool;
int cyc_signals_block(void);
int cyc_run_prepare(struct cyc_run *run, struct cyc_config *cfg, const struct lj_topo *topo);
/* Before memory is locked: -v's header, --smi, -F, the snapshot file, the PM QoS hold. */
int cyc_run_setup(struct cyc_run *run, struct lj_tool *tool);
/* Threads created and set up, waiting at the gate; fallbacks recorded in @tool. */
int cyc_run_start(struct cyc_run *run, struct lj_tool *tool);
/* Start the clock and open the gate (closed again at once when a stop came first). */
void cyc_run_go(struct cyc_run *run);
int cyc_run_wait(struct cyc_run *run);
void cyc_run_free(struct cyc_run *run);

/* report.c */
void cyc_report_live(struct cyc_run *run, FILE *out, bool first);
void cyc_report_status(struct cyc_run *run, FILE *out);
/* The status block headed "# NAME current status:" (SIGUSR2's file says "cyclictest"). */
void cyc_report_status_as(struct cyc_run *run, FILE *out, const char *name);
/* The T: lines of every thread, now. */
void cyc_report_threads(struct cyc_run *run, FILE *out);
/* -v: the values written since the last call, as cyclictest's "%8d:%8lu:%8ld" lines. */
void cyc_report_values(struct cyc_run *run, FILE *out);
/* -v, -R, --dbg_cyclictest: what cyclictest prints before the run. */
void cyc_report_start(struct cyc_run *run, FILE *out);
void cyc_report_intervals(struct cyc_run *run, FILE *out);
/* Return: 0, or -errno when the --histfile could not be written (said why). */
int cyc_report_final(struct cyc_run *run, FILE *out);
void cyc_line_of(const struct cyc_run *run, const struct cyc_thread *t,
		 const struct cyc_live *lv, struct lj_report_line *l);
/* @ns in the display unit: us, or ns with -N (inline: histogram.c and report.c both use it). */
static inline int64_t cyc_to_unit(const struct cyc_config *cfg, int64_t ns)
{
	return cfg->nsecs ? ns : ns / LJ_NSEC_PER_USEC;
}

/* snapshot.c: SIGUSR2's /dev/shm/cyclictest<PID> file and -F's named pipe */
int cyc_snapshot_open(struct cyc_run *run);
/*
 * Remove @shm_dir/cyclictest<PID> files that are provably stale: our own
 * regular files, marked by an lj-cyclic, whose maker no longer holds
 * their lock (whatever PID namespace it ran in).
 */
void cyc_snapshot_remove_stale(const char *shm_dir);
void cyc_snapshot_write(struct cyc_run *run);
void cyc_snapshot_close(struct cyc_run *run);
int cyc_fifo_open(struct cyc_run *run);
void cyc_fifo_write(struct cyc_run *run);
void cyc_fifo_close(struct cyc_run *run);

/* histogram.c */
int cyc_hist_print(struct cyc_run *run);

/* json.c */
void cyc_json_fill(struct cyc_run *run, struct lj_result *r);

#endif
