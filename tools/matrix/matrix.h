/* SPDX-License-Identifier: GPL-2.0-or-later */
/* matrix.h - lj-matrix's configuration, run state and the interfaces between its files. */
#ifndef LJ_MATRIX_H
#define LJ_MATRIX_H

#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "scenario.h"

struct mx_config {
	const char *scenario_path;
	const char *out;		/* store directory */
	const char *tag;
	const char *find_tag;		/* --find-tag: list the store's runs with this tag */
	const char *resume;		/* run directory to continue */
	const char *env_path;		/* lj-env to run cells under (default: found) */
	bool dry_run;
	int repeat;			/* > 0 overrides the scenario's */
	int warmup;			/* >= 0 overrides the scenario's */
	bool seed_set;
	uint64_t seed;
	int64_t timeout_ns;		/* default per-run timeout, 0 none */
	bool strict;			/* a skipped cell is an error (exit 77) */
	const char *axes[LJ_SCENARIO_MAX_AXES];	/* --axis NAME=VALUES, in order */
	int naxes;
	int64_t guest_timeout_ns;	/* the longest a guest may stay silent (docs/lj-matrix.md) */
	const char *guest_job;		/* --guest-job FILE: this lj-matrix runs a guest's cells */
};

/* A value of the kernel axis, as resolved when the run was created (kernels.c). */
struct mx_kernel {
	char *value;			/* as in the scenario: a [kernel NAME] or a path */
	char *image;			/* the glob's newest match, or the pattern when none */
	char *modules, *initramfs, *cmdline;	/* the section's, or NULL */
};

/* One matrix run being executed: the scenario, its manifest and where it lives. */
struct mx_run {
	struct mx_config *cfg;
	struct lj_scenario *scn;
	char *dir;			/* <out>/<run-id> */
	json_object *manifest;		/* owned */
	json_object *cells;		/* manifest "cells" array (borrowed) */
	char *selfdir;			/* where lj-matrix's binary lives */
	char *env_bin;			/* lj-env, NULL when not found */
	sigset_t sigs;			/* blocked; consumed only in mx_exec_wait */
	bool interrupted;
	int64_t t0_ns;
	size_t runs_total, runs_done;	/* for progress and ETA */
	int64_t workload_ns;		/* the runs' own time (spawn to reap), warmups included */
	int lock_fd;			/* the run directory, flock'd; -1 before */
	int log_fd;			/* RUNDIR/progress.jsonl, O_APPEND; -1 before */
	int watch_fd;			/* to the watchdog; -1 without one */
	pid_t watchdog;
	int64_t compact_end_ns, compact_cost_ns;	/* the last manifest rewrite */
	char **cellnames;		/* per cell, its directory's name (mx_cell_names) */
	size_t ncellnames;
	struct mx_kernel *kernels;	/* the kernel axis's values */
	int nkernels;
	bool in_guest;			/* --guest-job: events go to the host, no manifest here */
	char *env_kernels;		/* "kernel=..." from $LJ_MATRIX_KERNELS, applied before --axis */
};

/*
 * cellname.c: the directory name of every cell, injective within a
 * workload (mx_cell_names: 0, or an exit code after one line when two
 * cells cannot be told apart); mx_sanitise keeps a path component's
 * letters, digits and - _ . = , : + (others become '_').
 */
int mx_cell_names(struct mx_run *r);
void mx_cell_names_free(struct mx_run *r);
/* "workload [id]" of cell @idx, for messages. */
void mx_cell_what(struct mx_run *r, size_t idx, char *buf, size_t len);
void mx_sanitise(char *s);

/* tagged.c: --find-tag, the store's run directories tagged exactly cfg->find_tag, newest first. */
int mx_find_tag(const struct mx_config *cfg);

/* store.c: run ids, run directories, the manifest. */
int mx_store_create(struct mx_run *r);		/* new run dir (locked) + manifest */
int mx_store_open(struct mx_run *r);		/* --resume: lock, read manifest + log back */
/* The scenario from a manifest's "scenario" block (text, overrides, repeat, warmup, seed): 0 or an exit code. */
int mx_store_scenario(struct mx_run *r, json_object *scn);
/* The manifest's "scenario" block for this run's scenario (what --resume and a guest read back). */
json_object *mx_store_scenario_json(struct mx_run *r);
void mx_store_finish(struct mx_run *r, const char *state);
char *mx_store_cell_dir(struct mx_run *r, size_t cell);	/* relative to r->dir */
int mx_mkdirs(const char *path);
/* A manifest cell's "state" ("pending" when it has none). */
const char *mx_cell_state(json_object *cell);

/*
 * storelog.c: progress as appended events (RUNDIR/progress.jsonl), the
 * manifest rewritten only when cheap enough or forced. Each mx_log_*
 * changes the manifest in memory and (mx_log_state only when @log)
 * appends the event; they return 0 or -errno. mx_log_run takes @rec.
 */
int mx_log_open(struct mx_run *r);
void mx_log_close(struct mx_run *r);
int mx_log_state(struct mx_run *r, size_t cell, const char *state, const char *reason, bool log);
int mx_log_start(struct mx_run *r, size_t cell, int run_no, bool warmup);
int mx_log_run(struct mx_run *r, size_t cell, json_object *rec);
int mx_log_replay(struct mx_run *r);		/* 0 or an exit code */
/*
 * An event line a guest's lj-matrix wrote: applied and appended as if it
 * were this lj-matrix's own. Return: 1 applied, 0 not an event, -errno.
 */
int mx_log_forward(struct mx_run *r, json_object *ev);
int mx_store_sync(struct mx_run *r, bool force);	/* compaction; 0 or -errno */

/*
 * guard.c: one lj-matrix per run directory (mx_guard_lock: 0 or an exit
 * code naming the holder's pid, which mx_guard_record leaves in
 * RUNDIR/lock), and a watchdog that stops the running
 * process groups if lj-matrix dies (mx_guard_tell on start and reap).
 */
int mx_guard_check_dir(const char *dir);
int mx_guard_lock(struct mx_run *r);
void mx_guard_record(struct mx_run *r);
void mx_guard_clean_tmp(struct mx_run *r);
int mx_guard_start(struct mx_run *r);
void mx_guard_tell(struct mx_run *r, pid_t group, bool started);
void mx_guard_stop(struct mx_run *r);

/* probe.c: can this machine provide a cell's setup? */
struct mx_probe;
struct mx_probe *mx_probe_new(void);
void mx_probe_free(struct mx_probe *p);
/* NULL when the cell can run, else the skip reason ("governor=performance: no cpufreq driver"). */
const char *mx_probe_cell(struct mx_probe *p, struct mx_run *r, const struct lj_scenario_cell *c);
/* First word of @command resolved next to lj-matrix, then in PATH; malloc'd or NULL. */
char *mx_find_tool(const char *selfdir, const char *name);

/*
 * scnfind.c: the scenario file SCENARIO names. A path (a '/' in it) or an
 * existing file is itself; a name ("quick" or "quick.scn") is looked up in
 * $LJ_SCENARIO_DIR, SELFDIR/../share/ljkit/scenarios (installed),
 * SELFDIR/../scenarios (the source tree), then LJ_SCENARIO_SYSDIR; not
 * found, it stays as given (the parser's error names it). Malloc'd.
 */
#define LJ_SCENARIO_SYSDIR "/usr/share/ljkit/scenarios"
char *mx_scenario_find(const char *selfdir, const char *arg);

/* exec.c: one run of a workload with its background load. */
struct mx_outcome {
	int exit_code;			/* -1 when killed by a signal */
	int signal;
	bool timed_out;
	bool interrupted;		/* SIGINT/SIGTERM/SIGHUP reached lj-matrix */
	int64_t duration_ns;
	char reason[256];		/* "" on success */
};
void mx_exec_block_signals(struct mx_run *r);
bool mx_exec_pending_stop(struct mx_run *r);
/* @setup_json: where lj-env records what it applied (NULL: not wanted, or no lj-env). */
int mx_exec_run(struct mx_run *r, const struct lj_scenario_cell *c, const char *json_path,
		const char *setup_json, const char *log_path, int run_no, bool warmup,
		struct mx_outcome *o);

/* setupargs.c: the lj-env options of a cell: setup axes and --watch patterns, in pairs. */
#define MX_SETUP_ARGS_MAX	(2 * (8 + LJ_SCENARIO_MAX_WATCH))
int mx_setup_args(const struct lj_scenario *s, const struct lj_scenario_cell *c,
		  const char **argv, int max);

/* progress.c */
void mx_progress(struct mx_run *r, size_t cell_no, size_t ncells, const char *what,
		 int run_no, int nruns, bool warmup);
void mx_progress_end(struct mx_run *r);

/* run.c */
int mx_run_all(struct mx_run *r);
int mx_dry_run(struct mx_run *r);
/* A cell's warmup and missing runs: 0 finished (done/failed), -EINTR, -errno (a store error). */
int mx_run_cell(struct mx_run *r, json_object *cell, size_t idx, size_t cell_no, size_t ncells);

/*
 * kernels.c: the kernel axis's values resolved to images once, when the
 * run is created (the manifest's "kernels"), and read back by --resume,
 * so a kernel unpacked meanwhile does not change a run half done.
 */
int mx_kernels_resolve(struct mx_run *r);	/* into r->kernels and the manifest */
int mx_kernels_load(struct mx_run *r);		/* from the manifest */
const struct mx_kernel *mx_kernel_find(const struct mx_run *r, const char *value);
void mx_kernels_free(struct mx_run *r);

/*
 * guest.c: the pending cells @cells (@n of them, in run order, numbered
 * @first_no.. of @ncells for progress) of one (kernel, cmdline) group,
 * run by one guest's lj-matrix. Return: 0 (each cell done, failed or
 * skipped, recorded), -EINTR, -errno (a store error).
 */
int mx_guest_group(struct mx_run *r, const size_t *cells, const size_t *cell_no, size_t n, size_t ncells);

/* inguest.c: lj-matrix --guest-job FILE, inside the guest. Return: the exit code. */
int mx_guest_inner(struct mx_run *r);

#endif
