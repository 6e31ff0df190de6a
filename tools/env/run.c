// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - apply the setup, run COMMAND in it (forwarding signals, sweeping the cpuset), restore. */
#include "env.h"
#include "lj_json.h"
#include "lj_power_hook.h"
#include "lj_cgroup.h"
#include "lj_err.h"
#include "lj_parse.h"
#include "lj_result.h"
#include "lj_setup.h"
#include "lj_time.h"
#include "lj_tool.h"
#include "lj_topo.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct env_run {
	struct env_config *cfg;
	struct lj_setup *stack;
	struct lj_cgroup cg;		/* the swept group */
	json_object *record;		/* the result's "setup" */
	json_object *sweep_log;		/* [{t_ns, cpus, error?}] */
	int64_t t0;
	int step;
	int64_t began;			/* CLOCK_MONOTONIC when the step's write returned */
	pid_t child;
	struct lj_power_hook *power;	/* --power, else NULL */
	char phases[256];		/* LJ_SWEEP_PHASES, "" when none */
};

static void sweep_to(struct env_run *r, int step)
{
	const cpu_set_t *set = &r->cfg->sweep.steps[step];
	int64_t asked = lj_now_ns(), t;
	char list[256];
	int ret;

	lj_cpulist_format(set, list, sizeof(list));
	ret = lj_cgroup_set_cpus(r->stack, &r->cg, set);
	/*
	 * The phase starts when the write returns: the kernel moves the
	 * group's tasks inside it, which a loaded machine can stretch to
	 * most of a second (a timeline row before then ran on the old CPUs).
	 */
	t = lj_now_ns() - r->t0;
	if (ret)
		lj_error_errno(ret, "sweep: cannot set %s to %s", r->cg.errfile, list);
	else
		fprintf(stderr, "%s: sweep: +%.3fs cpus %s\n", lj_prog(), (double)t / 1e9, list);
	if (!ret) {
		char label[280];

		snprintf(label, sizeof(label), "cpus=%s", list);
		env_phase_note(r->phases, r->t0 + t, label);
	}
	if (r->sweep_log) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "t_ns", lj_json_int(t));
		json_object_object_add(e, "mono_ns", lj_json_int(r->t0 + t));
		json_object_object_add(e, "write_ns", lj_json_int(r->t0 + t - asked));
		json_object_object_add(e, "cpus", json_object_new_string(list));
		if (ret)
			json_object_object_add(e, "error", json_object_new_string(lj_strerror(ret)));
		json_object_array_add(r->sweep_log, e);
	}
	r->step = step;
	r->began = r->t0 + t;
}

static int sweep_prepare(struct env_run *r, const struct lj_topo *t)
{
	struct lj_cgroup_mounts m;
	cpu_set_t allowed;
	char why[512];
	int ret;

	if (t)
		allowed = t->allowed;
	else if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return LJ_EXIT_RUNTIME;
	if (env_sweep_check(&r->cfg->sweep, &allowed, why, sizeof(why))) {
		lj_error("invalid --sweep '%s': %s", r->cfg->sweep_text, why);
		return LJ_EXIT_USAGE;
	}
	ret = lj_cgroup_discover(&m);
	if (ret || !(m.v1_cpuset[0] || (m.unified[0] && m.v2_cpuset))) {
		lj_error("cannot --sweep: no cpuset cgroup controller mounted");
		return r->cfg->setup.strict ? LJ_EXIT_NOCAP : LJ_EXIT_USAGE;
	}
	return 0;
}

static int sweep_open(struct env_run *r)
{
	struct lj_cgroup_mounts m;
	int ret = lj_cgroup_discover(&m);

	if (!ret)
		ret = lj_cgroup_open(&m, r->cfg->setup.cgroup, r->cfg->setup.cgroup_depth, &r->cg);
	if (!ret && !r->cg.cpuset[0])
		ret = -ENODEV;
	if (ret) {
		lj_error_errno(ret, "cannot --sweep: group %s has no cpuset", r->cfg->setup.cgroup);
		return LJ_EXIT_NOCAP;
	}
	return 0;
}

static void exec_child(struct env_config *cfg, const sigset_t *mask)
{
	int err;

	sigprocmask(SIG_SETMASK, mask, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execvp(cfg->cmd[0], cfg->cmd);
	err = errno;
	lj_error_errno(-err, "cannot run '%s'", cfg->cmd[0]);
	_exit(err == ENOENT ? 127 : 126);
}

/*
 * When the step after the one that @began is due: on the dwell's grid
 * (@due) when on time; a step that began late (its write took long, or
 * the machine stalled) still gets a whole dwell, as catching up would
 * pass through phases too short for COMMAND to measure anything in.
 */
static int64_t next_step(int64_t due, int64_t began, int64_t dwell)
{
	return due - began < dwell / 2 ? began + dwell : due;
}

/*
 * Wait for the child: forward SIGINT/SIGTERM/SIGHUP to it, and step the
 * sweep at each dwell deadline. The signals are blocked and taken with
 * sigtimedwait, so no handler races with the wait.
 */
static int supervise(struct env_run *r, const sigset_t *wait_set)
{
	const struct env_sweep *sw = &r->cfg->sweep;
	int64_t next = sw->nsteps > 1 ? next_step(r->t0 + sw->dwell_ns, r->began, sw->dwell_ns) : INT64_MAX;
	int status;

	for (;;) {
		struct timespec ts;
		siginfo_t si;
		int64_t left;
		int sig;
		pid_t w;

		w = waitpid(r->child, &status, WNOHANG);
		if (w == r->child)
			break;
		if (w < 0 && errno != EINTR) {
			lj_error_errno(-errno, "cannot wait for '%s'", r->cfg->cmd[0]);
			return LJ_EXIT_RUNTIME;
		}
		left = next == INT64_MAX ? 3600 * LJ_NSEC_PER_SEC : next - lj_now_ns();
		if (left <= 0) {
			sweep_to(r, (r->step + 1) % sw->nsteps);
			next = next_step(next + sw->dwell_ns, r->began, sw->dwell_ns);
			continue;
		}
		ts = lj_ns_to_ts(left);
		sig = sigtimedwait(wait_set, &si, &ts);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			kill(r->child, sig);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LJ_EXIT_RUNTIME;
}

/* Return: 0, or LJ_EXIT_RUNTIME when the result could not be written or built. */
static int write_result(struct env_run *r, int code)
{
	struct env_config *cfg = r->cfg;
	struct lj_result *res = lj_result_new("lj-env", cfg->argc, cfg->argv);
	json_object *cmd, *setup, *params;
	int ret;

	if (!res) {
		lj_error("cannot build the result: out of memory");
		return LJ_EXIT_RUNTIME;
	}
	setup = lj_result_setup(res);
	json_object_object_foreach(r->record, key, val)
		json_object_object_add(setup, key, json_object_get(val));
	params = lj_result_params(res);
	cmd = json_object_new_array();
	for (char **a = cfg->cmd; *a; a++)
		json_object_array_add(cmd, json_object_new_string(*a));
	json_object_object_add(params, "command", cmd);
	if (cfg->sweep.nsteps) {
		json_object_object_add(params, "sweep", json_object_new_string(cfg->sweep_text));
		json_object_object_add(params, "dwell_ns", lj_json_int(cfg->sweep.dwell_ns));
		json_object_object_add(lj_result_side(res), "sweep", json_object_get(r->sweep_log));
	}
	env_watch_report(cfg, res);
	if (r->power)
		lj_power_hook_ops.contribute(r->power, res);
	lj_result_finish(res, code);
	ret = lj_result_write(res, cfg->json);
	if (ret)
		lj_error_errno(ret, "cannot write %s", cfg->json);
	lj_result_free(res);
	return ret ? LJ_EXIT_RUNTIME : 0;
}

/* --power: the window is COMMAND's run, as --watch's; a sampler that cannot start is said and skipped. */
static void power_start(struct env_run *r, const struct lj_topo *topo)
{
	int err;

	if (!r->cfg->setup.power)
		return;
	r->power = lj_power_hook_new(NULL, topo);
	err = r->power ? lj_power_hook_ops.start(r->power, NULL) : -ENOMEM;
	if (err) {
		lj_warn("--power: cannot sample: %s", lj_strerror(err));
		if (r->power)
			lj_power_hook_ops.free(r->power);
		r->power = NULL;
	}
}

/* Open the sweep's files and log, and go to its first step. */
static int sweep_start(struct env_run *r)
{
	int ret = sweep_open(r);

	if (ret)
		return ret;
	ret = env_phase_open(r->phases, sizeof(r->phases));
	if (ret)
		lj_warn_errno(ret, "sweep: no phase log for COMMAND's timeline");
	sweep_to(r, 0);
	return 0;
}

/* Block the signals supervise() waits for, then start COMMAND. */
static int start_child(struct env_run *r, sigset_t *wait_set, sigset_t *old)
{
	sigemptyset(wait_set);
	sigaddset(wait_set, SIGINT);
	sigaddset(wait_set, SIGTERM);
	sigaddset(wait_set, SIGHUP);
	sigaddset(wait_set, SIGCHLD);
	sigprocmask(SIG_BLOCK, wait_set, old);
	fflush(NULL);
	r->child = fork();
	if (r->child < 0) {
		lj_error_errno(-errno, "cannot fork");
		sigprocmask(SIG_SETMASK, old, NULL);
		return LJ_EXIT_RUNTIME;
	}
	if (!r->child)
		exec_child(r->cfg, old);
	return 0;
}

/* Wait for COMMAND, undo the setup, then write and report what was measured. */
static int finish_child(struct env_run *r, const sigset_t *wait_set, const sigset_t *old)
{
	struct env_config *cfg = r->cfg;
	int code = supervise(r, wait_set), ret = code;

	env_phase_close(r->phases);
	env_watch_snapshot(cfg, true);
	if (r->power)
		lj_power_hook_ops.stop(r->power);
	lj_setupopt_restore(&cfg->setup, r->stack);
	r->stack = NULL;
	/* Signals that arrive from here on act normally. */
	sigprocmask(SIG_SETMASK, old, NULL);
	/* A lost result is an error of ours, even when COMMAND succeeded. */
	if (cfg->json && write_result(r, code) && !ret)
		ret = LJ_EXIT_RUNTIME;
	else if (!cfg->json)
		env_watch_report(cfg, NULL);
	if (r->power)
		lj_power_hook_ops.report(r->power, stderr);
	return ret;
}

int env_run(struct env_config *cfg)
{
	struct env_run r = { .cfg = cfg, .child = -1 };
	sigset_t wait_set, old;
	struct lj_topo topo;
	bool have_topo;
	int ret;

	/* A result that cannot be written is known now, not after COMMAND ran. */
	if (cfg->json && lj_tool_check_outputs(&cfg->json, 1))
		return LJ_EXIT_RUNTIME;
	have_topo = !lj_topo_load(&topo, NULL, 0);
	if (cfg->sweep.nsteps) {
		ret = sweep_prepare(&r, have_topo ? &topo : NULL);
		if (ret)
			goto out_topo;
	}
	if (cfg->json) {
		r.record = json_object_new_object();
		r.sweep_log = json_object_new_array();
	}
	ret = lj_setupopt_apply(&cfg->setup, have_topo ? &topo : NULL, &r.stack, r.record);
	if (ret)
		goto out_json;

	r.t0 = lj_now_ns();
	if (cfg->sweep.nsteps) {
		ret = sweep_start(&r);
		if (ret)
			goto out_restore;
	}

	/* --watch: the window is COMMAND's run, the setup's apply and restore stay out of it */
	if (env_watch_snapshot(cfg, false)) {
		ret = LJ_EXIT_RUNTIME;
		goto out_restore;
	}
	power_start(&r, have_topo ? &topo : NULL);
	ret = start_child(&r, &wait_set, &old);
	if (ret)
		goto out_restore;
	ret = finish_child(&r, &wait_set, &old);
	goto out_json;

out_restore:
	env_phase_close(r.phases);
	lj_setupopt_restore(&cfg->setup, r.stack);
out_json:
	if (r.power)
		lj_power_hook_ops.free(r.power);
	json_object_put(r.record);
	json_object_put(r.sweep_log);
out_topo:
	if (have_topo)
		lj_topo_free(&topo);
	return ret;
}
