/* SPDX-License-Identifier: GPL-2.0-or-later */
/* env.h - lj-env's configuration and the phases main() wires together. */
#ifndef LJ_ENV_H
#define LJ_ENV_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "lj_setupopt.h"
#include "taskwatch.h"

struct lj_result;

#define ENV_MAX_STEPS 64

/* --sweep cpus=A,B,...: the group's cpuset steps, each held for --dwell. */
struct env_sweep {
	int nsteps;			/* 0: no sweep */
	cpu_set_t steps[ENV_MAX_STEPS];
	int64_t dwell_ns;
};

struct env_config {
	struct lj_setupopt setup;
	bool show, restore;
	const char *json;		/* NULL, "-" (stdout) or a file */
	struct env_sweep sweep;
	const char *sweep_text;
	struct lj_taskwatch watch;	/* --watch GLOB patterns and their snapshots */
	int argc;			/* the original command line, for the result */
	char **argv;
	char **cmd;			/* COMMAND [ARGS], NULL-terminated */
};

/* options.c: parse argv; returns 0, LJ_OPT_EXIT_HELP, or an exit code after a message. */
int env_parse(struct env_config *cfg, int argc, char **argv);
void env_free(struct env_config *cfg);

/* sweep.c */
int env_sweep_parse(const char *text, struct env_sweep *out, char *why, size_t len);
int env_sweep_check(const struct env_sweep *sw, const cpu_set_t *allowed, char *why, size_t len);
/*
 * The phase log a measuring child reads (LJ_SWEEP_PHASES): open a fresh
 * file and export its path (0 or -errno), add "MONO_NS LABEL" per change,
 * remove it when the child is gone.
 */
int env_phase_open(char *path, size_t len);
void env_phase_note(const char *path, int64_t mono_ns, const char *label);
void env_phase_close(char *path);

/* watch.c: --watch; snapshot before COMMAND and after it; report on stderr and into @res (may be NULL). */
int env_watch_add(struct env_config *cfg, const char *list);
int env_watch_snapshot(struct env_config *cfg, bool after);
void env_watch_report(struct env_config *cfg, struct lj_result *res);

/* run.c: apply the setup, run the command, restore; returns the exit code. */
int env_run(struct env_config *cfg);

/* show.c: --show [--json]; never changes anything. */
int env_show(const struct env_config *cfg);

/* restore.c: --restore; replay journals of dead processes. */
int env_restore(const struct env_config *cfg);

#endif
