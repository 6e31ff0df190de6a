/* SPDX-License-Identifier: GPL-2.0-or-later */
/* frame.h - lj-frame's configuration, trial and ramp structures shared by its files. */
#ifndef FRM_FRAME_H
#define FRM_FRAME_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "account.h"
#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_sched.h"
#include "lj_setupopt.h"
#include "lj_topo.h"
#include "smoothness.h"

struct lj_hist;
struct lj_result;

#define FRM_MAX_LATENCY_FRAMES 16
#define FRM_MAX_BACKGROUND 64
/* Frames of one trial are kept in memory (24 bytes each): bound a trial. */
#define FRM_MAX_FRAMES (20ULL * 1000 * 1000)

struct frm_config {
	double fps;
	struct frm_clock clock;		/* the exact rate: vsync times come from it */
	int64_t period_ns;		/* 1e9 / fps, rounded to the nearest ns: display only */
	enum frm_model model;		/* --display-model */
	int64_t duration_ns;		/* the run, or one ramp trial */
	bool duration_set;
	int nstages;
	int64_t work_units[FRM_MAX_STAGES];	/* --work */
	int nwork_units;
	int64_t work_ns[FRM_MAX_STAGES];	/* --work-time: one value is per frame */
	int nwork_ns;
	int latency_frames;
	struct lj_explain_opts explain;	/* --explain; .explain false: not asked */
	int warmup;			/* frames run before the measured ones */

	const char *policy_name;	/* stage threads; NULL: other */
	int prio;			/* -1: not given */
	struct lj_sched_param policy;

	int background;
	const char *bg_policy_name;
	int bg_prio;
	struct lj_sched_param bg_policy;
	const char *bg_cpus;		/* selector, NULL: the process's CPUs */
	const char *bg_cgroup;		/* existing group or "off" (root), NULL: the process's */
	int bg_load;			/* percent busy per 10 ms */

	bool ramp;
	double max_drop_rate;		/* ramp pass rule; fixed-mode gate when given */
	bool max_drop_set;
	int ramp_repeat;
	double ramp_precision;		/* relative width that ends a bisection */

	const char *timeline;
	int64_t timeline_interval_ns;
	int64_t drop_window_ns;		/* --drop-window: the sliding window of dropped frames */
	bool drop_window_set;
	const char *frame_log;		/* --frame-log */
	const char *json;
	double fake_ns_per_unit;	/* > 0: simulate, test aid */
	bool quiet;
	bool calibrate;			/* --calibrate: measure, store, no run */
	const char *calib_file;		/* --calibration-file */

	struct lj_setupopt setup;
};

/* Calibration: ns per work unit on one CPU of each core kind the stages may use. */
struct frm_calib_kind {
	int kind;			/* lj_topo kind index, 0 = least efficient */
	int cpu;			/* where it was measured */
	char cpus[64];			/* the kind's CPUs among the allowed ones */
	double ns_per_unit;		/* the figure used: stored, or measured now */
	double check_ns_per_unit;	/* this run's own measurement */
	long khz;			/* the clock when the used figure was taken, 0 unknown */
	long long measured_at;		/* unix time of the used figure */
	const char *source;		/* "stored", "new" (stored now) or "run" (not stored) */
};

#define FRM_CALIB_PATH 512
struct frm_calibration {
	int n;
	struct frm_calib_kind k[LJ_TOPO_MAX_KINDS];
	double ns_per_unit;		/* the fastest kind: converts --work-time */
	bool fake;
	char file[FRM_CALIB_PATH];	/* "" when not stored */
	char file_error[FRM_CALIB_PATH + 96];	/* why it could not be read or written, "" */
	char id[256];			/* names the figures used, for lj-compare */
};

/* calib.c: the stored calibration file. */
struct frm_calib_entry {
	char model[128];
	int kind;
	char kind_name[32];
	long khz;
	double ns_per_unit;
	long long measured_at;
};

#define FRM_CALIB_MAX 64
int frm_calib_path(const struct frm_config *cfg, char *buf, size_t len);
int frm_calib_load(const char *path, struct frm_calib_entry *e, int max);
int frm_calib_save(const char *path, const struct frm_calib_entry *e, int n);
struct frm_calib_entry *frm_calib_find(struct frm_calib_entry *e, int n, const char *model, int kind);

/* A single-producer single-consumer hand-off between two stages. */
#define FRM_RING 256
struct frm_ring {
	_Atomic uint32_t head;		/* pushed; the consumer's futex word */
	_Atomic uint32_t tail;		/* popped */
	_Atomic uint32_t sleeping;	/* the consumer is (about to be) in futex_wait */
	uint32_t frame[FRM_RING];
	int64_t sent[FRM_RING];		/* hand-off time */
};

struct frm_trial;

/*
 * The run's hooks as the trials tell them of their threads: each trial's
 * stage threads, with the background threads (load, not measured), once
 * the stages have set their policy and before vsync 0 (lj_hooks_threads);
 * the stages alone are gone after the trial. One for the run, kept by
 * every trial of a ramp.
 */
struct frm_told {
	const struct lj_hooks *hooks;	/* NULL: none (a trial outside the driver) */
	struct lj_run_thread bg[FRM_MAX_BACKGROUND];
	int nbg;
};

/* When a stage worked on a frame (CLOCK_MONOTONIC), kept for --perfetto; end <= start: not worked on. */
struct frm_span {
	int64_t start, end;
};

/* One stage thread and what it measured. Written only by that thread until joined. */
struct frm_stage {
	int index;
	uint64_t units;
	struct frm_trial *trial;
	pthread_t th;
	pid_t tid;
	int policy_err;			/* lj_sched_apply's -errno, 0 ok */
	struct frm_ring *in, *out;
	struct lj_hist *lateness;	/* wake-up lateness: vsync or hand-off to running */
	uint64_t frames;		/* frames worked on */
	uint64_t skipped;		/* stage 0: frames past their deadline before starting */
	uint64_t abandoned;		/* stage > 0: past their deadline on arrival; any stage: work cut short by a stop or the run's end */
	uint64_t busy_starts;		/* started without sleeping (still busy or queued) */
	uint64_t ring_full;
	int64_t work_ns;		/* wall time inside work units */
	int64_t cpu_ns;			/* the thread's CPU time over the run (with kernel wake paths) */
	int64_t overhead_ns;		/* own cost around the work: bookkeeping, hand-off in CPU time */
	struct lj_hist *overhead;	/* the same per frame */
	int64_t overhead_wall_ns;	/* wall time around the work (with waits for the CPU after a hand-off) */
	struct lj_hist *overhead_wall;	/* the same per frame */
	uint32_t *cpu_count;		/* frames per CPU (CPU_SETSIZE slots) */
	int last_cpu;
	uint64_t cpu_changes;		/* consecutive frames on different CPUs */
	long migrations, vcsw, ivcsw;	/* kernel's counts over the run, -1 unknown */
	uint64_t sink;			/* keeps the work's result alive */
	struct frm_span *spans;		/* per frame, with --perfetto in a fixed run; NULL: not kept */
};

struct frm_trial {
	const struct frm_config *cfg;
	uint64_t units[FRM_MAX_STAGES];
	int64_t t0;			/* vsync 0, CLOCK_MONOTONIC */
	uint64_t warmup;		/* frames 0..warmup-1 run but are not measured */
	uint64_t nframes;		/* planned, warm-up included */
	uint64_t nrun;			/* reached (less when stopped), warm-up included */
	struct frm_frame *frames;	/* per vsync: present time and what the stages did */
	struct frm_account acct;
	struct lj_hist *production;	/* present - vsync of presented frames */
	struct lj_hist *frame_times;	/* display intervals (acct's sink) */
	struct lj_hist *latency;	/* vsync to display (acct's sink) */
	int64_t *shown;			/* display times (acct's sink), for the discrepancy */
	double discrepancy_ns;
	struct frm_stage stage[FRM_MAX_STAGES];
	_Atomic uint32_t nready;	/* threads ready to start */
	_Atomic uint32_t go;		/* futex word: t0 is set, start */
	atomic_int abort;		/* stop before or during the run */
	int64_t overhead_ns;		/* all stages */
	int64_t overhead_wall_ns;	/* all stages */
	int64_t wall_ns;
	int64_t main_cpu_ns;		/* the main thread's CPU time while the stages ran (its validity polls) */
	int64_t main_wall_ns;		/* ...and the wall time it was measured over */
	/* Both set before frm_trial_run (kept by it). */
	const struct lj_hooks *hooks;	/* told of late frames; NULL: none (the ramp's trials) */
	const struct frm_told *told;	/* told of the threads; NULL: none */
};

/* options.c */
void frm_config_init(struct frm_config *cfg);
int frm_options_parse(struct frm_config *cfg, int argc, char **argv);
/* Vsyncs in one run or trial: the duration in periods, rounded. */
uint64_t frm_config_frames(const struct frm_config *cfg);

/* work.c */
uint64_t frm_work(uint64_t units, uint64_t seed);
int frm_calibrate(const struct lj_topo *t, const struct frm_config *cfg,
		  struct frm_calibration *cal);
void frm_work_resolve(const struct frm_config *cfg, const struct frm_calibration *cal,
		      uint64_t *units);

/* stages.c: run one trial (real threads, or the simulator with --fake-work). */
int frm_trial_run(struct frm_trial *tr, const struct frm_config *cfg, const uint64_t *units);
void frm_trial_free(struct frm_trial *tr);
int64_t frm_trial_vsync(const struct frm_trial *tr, uint64_t i);
/* Try @p in a throwaway thread: 0 or the -errno a stage thread would get. */
int frm_policy_probe(const struct lj_sched_param *p);

/* background.c */
struct frm_background;
/*
 * Start --background threads and wait until each has joined --bg-cgroup,
 * --bg-cpus and its policy; the first failure of those comes back in
 * *err (-errno) and *what. Return: 0 or an exit code after a message.
 */
int frm_background_start(const struct frm_config *cfg, const struct lj_topo *t,
			 struct frm_background **out, int *err, const char **what);
void frm_background_stop(struct frm_background *bg);
/* The background threads as the hooks are told of them (load: not measured). Return: how many. */
int frm_background_threads(const struct frm_background *bg, struct lj_run_thread *out, int max);

/* ramp.c */
struct frm_ramp_point {
	uint64_t work;			/* units per frame, all stages */
	double fps, drop_rate, smooth;
	int64_t production_p99_ns;
	uint64_t frames, dropped;
	bool pass;
	int repeat;			/* -1: coarse ramp, else the bisection's index */
};

struct frm_ramp {
	struct frm_ramp_point *pts;
	int npts, cap;
	double estimates[32];		/* per bisection: the largest passing work */
	int nest;
	double max_work;		/* median of the estimates */
	double spread_min, spread_max, spread_stddev;
	bool never_failed;		/* passed at the ramp's ceiling */
	bool never_passed;		/* failed even at 1 unit */
	struct frm_account total;
	int64_t elapsed_ns;
	const struct frm_told *told;	/* given to each trial */
};

/* @told: the hooks each trial tells of its threads (NULL: none); late frames reach no hook. */
int frm_ramp_run(struct frm_ramp *r, const struct frm_config *cfg,
		 const struct frm_calibration *cal, const uint64_t *base_units,
		 const struct frm_told *told);
void frm_ramp_free(struct frm_ramp *r);

/* timeline.c: per-interval CSV; @smp are frequency samples (may be NULL). */
struct lj_cpufreq_sample;
int frm_timeline_write(const char *path, const struct frm_trial *tr, int64_t interval_ns,
		       const struct lj_cpufreq_sample *smp, size_t nsmp);

/* trace.c: the fixed run's tracks in --perfetto's trace (lj_tef.h). Return: 0 or -ENOMEM. */
struct lj_tef;
int frm_trace_write(const struct frm_trial *tr, struct lj_tef *w, uint32_t pid);

/* framelog.c: --frame-log, one CSV row per measured frame. */
int frm_frame_log_write(const char *path, const struct frm_trial *tr);

/* smoothreport.c: Chromium's smoothness figures of a fixed run (smoothness.h); free with frm_smooth_free. */
int frm_trial_smooth_init(const struct frm_trial *tr, struct frm_smooth *s);	/* the window of tr->cfg */
int frm_trial_smoothness(const struct frm_trial *tr, struct frm_smooth *s);	/* ...and the trial's frames fed */
void frm_smooth_text(FILE *out, const struct frm_config *cfg, const struct frm_smooth *s);
void frm_smooth_json(struct lj_result *res, const struct frm_config *cfg, const struct frm_smooth *s);

/* report.c */
void frm_report_text(FILE *out, const struct frm_config *cfg, const struct frm_calibration *cal,
		     const struct frm_trial *tr, const struct frm_ramp *ramp,
		     const struct lj_topo *t);
void frm_report_json(struct lj_result *res, const struct frm_config *cfg,
		     const struct frm_calibration *cal, const struct frm_trial *tr,
		     const struct frm_ramp *ramp, const struct lj_topo *t);

#endif
