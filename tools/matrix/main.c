// SPDX-License-Identifier: GPL-2.0-or-later
/* lj-matrix - run a scenario matrix into a results store. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_time.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

enum {
	K_RESUME = LJ_OPT_LONG_BASE, K_REPEAT, K_WARMUP, K_SEED, K_ENV, K_TIMEOUT, K_STRICT, K_FIND_TAG, K_AXIS,
	K_GUEST_TIMEOUT, K_GUEST_JOB,
};

#define GUEST_TIMEOUT_NS	(300 * LJ_NSEC_PER_SEC)

#define AT(f) .off = offsetof(struct mx_config, f)

/* Typed where a value is stored as given (lj_opt_store); the handler checks tags, axes and timeouts. */
static const struct lj_opt mx_opts[] = {
	{ "out", 'o', LJ_OPT_ARG, "DIR", "results store (default: results)", LJ_OPT_STRING, AT(out) },
	{ "tag", 't', LJ_OPT_ARG, "TAG", "label for this run (part of the run id)" },
	{ "dry-run", 'n', LJ_OPT_NOARG, NULL, "list the cells and what would be skipped, then exit",
	  LJ_OPT_FLAG, AT(dry_run) },
	{ "resume", K_RESUME, LJ_OPT_ARG, "RUNDIR", "continue an interrupted run (no SCENARIO)", LJ_OPT_STRING, AT(resume) },
	{ "find-tag", K_FIND_TAG, LJ_OPT_ARG, "TAG", "print the run directories of the store tagged TAG (exactly), newest first",
	  LJ_OPT_STRING, AT(find_tag) },
	{ "repeat", K_REPEAT, LJ_OPT_ARG, "N", "measured runs per cell (overrides the scenario)",
	  LJ_OPT_INT, AT(repeat), .min = 1, .max = 1000 },
	{ "warmup", K_WARMUP, LJ_OPT_ARG, "N", "discarded runs per cell (overrides the scenario)",
	  LJ_OPT_INT, AT(warmup), .min = 0, .max = 100 },
	{ "seed", K_SEED, LJ_OPT_ARG, "N", "seed for order = random (default: the clock)",
	  LJ_OPT_U64, AT(seed), .given = LJ_OPT_GIVEN(struct mx_config, seed_set) },
	{ "timeout", K_TIMEOUT, LJ_OPT_ARG, "DUR", "kill a run after DUR (default: none)" },
	{ "axis", K_AXIS, LJ_OPT_ARG, "NAME=V1,V2", "set an axis's values (repeatable; kernel=... also from $LJ_MATRIX_KERNELS)" },
	{ "guest-timeout", K_GUEST_TIMEOUT, LJ_OPT_ARG, "DUR", "kill a kernel axis's guest silent this long (default 300s)" },
	{ "lj-env", K_ENV, LJ_OPT_ARG, "PATH", "the lj-env to run cells under (default: found)", LJ_OPT_STRING, AT(env_path) },
	/* the lj-matrix a guest runs (guest.c) */
	{ "guest-job", K_GUEST_JOB, LJ_OPT_ARG, "FILE", NULL, LJ_OPT_STRING, AT(guest_job) },
	{ "strict", K_STRICT, LJ_OPT_NOARG, NULL, "exit 77 when any cell is skipped", LJ_OPT_FLAG, AT(strict) },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "say more (skipped cells as they happen)", LJ_OPT_VERBOSITY },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "no progress output", LJ_OPT_VERBOSITY },
	{ 0 }
};

/* The longest tag whose run id (host_release_YYYYmmddTHHMMSSZ_tag, and ".NN" for a rerun) is a file name. */
static size_t max_tag(void)
{
	struct utsname u;
	size_t fixed;

	if (uname(&u))
		return 64;
	fixed = strlen(u.nodename) + strlen(u.release) + strlen("__YYYYmmddTHHMMSSZ_") + strlen(".99");
	return fixed < NAME_MAX ? NAME_MAX - fixed : 0;
}

static int mx_handle(void *ctx, int key, const char *arg)
{
	struct mx_config *cfg = ctx;
	int ret;

	switch (key) {
	case 't':
		for (const char *c = arg; *c; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+", *c))
				return lj_opt_invalid("--tag", arg, "use letters, digits, - _ . +");
		if (!*arg)
			return lj_opt_invalid("--tag", arg, "empty");
		if (strlen(arg) > max_tag())
			return lj_usage_error("--tag: %zu characters: the run id HOST_RELEASE_TIME_TAG is a file name, at most %d bytes: at most %zu here",
					      strlen(arg), NAME_MAX, max_tag());
		cfg->tag = arg;
		return 0;
	case K_TIMEOUT:
		ret = lj_opt_duration("--timeout", arg, LJ_NSEC_PER_SEC, &cfg->timeout_ns);
		if (!ret && cfg->timeout_ns <= 0)
			ret = lj_opt_invalid("--timeout", arg, "must be positive");
		return ret;
	case K_AXIS:
		if (!strchr(arg, '=') || arg[0] == '=')
			return lj_opt_invalid("--axis", arg, "expected NAME=VALUE,VALUE...");
		if (cfg->naxes == LJ_SCENARIO_MAX_AXES)
			return lj_opt_invalid("--axis", arg, "too many");
		cfg->axes[cfg->naxes++] = arg;
		return 0;
	case K_GUEST_TIMEOUT:
		ret = lj_opt_duration("--guest-timeout", arg, LJ_NSEC_PER_SEC, &cfg->guest_timeout_ns);
		if (!ret && cfg->guest_timeout_ns <= 0)
			ret = lj_opt_invalid("--guest-timeout", arg, "must be positive");
		return ret;
	}
	return LJ_EXIT_USAGE;
}

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(dirname(buf));
}

/* One --axis NAME=VALUES onto the scenario: 0 or an exit code. */
static int apply_axis(struct mx_run *r, const char *spec)
{
	char name[128], err[1024];
	const char *eq = strchr(spec, '=');
	int ret;

	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	ret = lj_scenario_set_axis(r->scn, name, eq + 1, err, sizeof(err));
	if (ret)
		lj_error("%s", err);
	return !ret ? 0 : ret == -ENOMEM ? LJ_EXIT_RUNTIME : LJ_EXIT_USAGE;
}

/*
 * --axis, in order; $LJ_MATRIX_KERNELS (the kernel axis's values: the
 * images of a scenario such as rt-kernels.scn) first, so that an --axis
 * kernel=... wins. The manifest records the lot (store.c) for --resume.
 */
static int apply_axes(struct mx_run *r)
{
	const char *env = getenv("LJ_MATRIX_KERNELS");
	int ret = 0;

	if (env && *env) {
		char *spec = NULL;

		if (asprintf(&spec, "kernel=%s", env) < 0)
			return LJ_EXIT_RUNTIME;
		r->env_kernels = spec;
		ret = apply_axis(r, spec);
	}
	for (int i = 0; i < r->cfg->naxes && !ret; i++)
		ret = apply_axis(r, r->cfg->axes[i]);
	return ret;
}

/* The scenario with command-line overrides, and a seed that the manifest records. */
static int load_scenario(struct mx_run *r)
{
	char err[1024];
	int ret = lj_scenario_load(r->cfg->scenario_path, &r->scn, err, sizeof(err));

	if (ret) {
		lj_error("%s", err);
		/* unreadable, malformed or over the limits: all bad input */
		return ret == -ENOMEM ? LJ_EXIT_RUNTIME : LJ_EXIT_USAGE;
	}
	ret = apply_axes(r);
	if (ret)
		return ret;
	if (r->cfg->repeat > 0)
		r->scn->repeat = r->cfg->repeat;
	if (r->cfg->warmup >= 0)
		r->scn->warmup = r->cfg->warmup;
	if (r->cfg->seed_set) {
		r->scn->seed = r->cfg->seed;
		r->scn->seed_set = true;
	} else if (!r->scn->seed_set) {
		r->scn->seed = (uint64_t)lj_clock_ns(CLOCK_REALTIME) ^ (uint64_t)getpid();
	}
	return 0;
}

static int parse_args(struct mx_config *cfg, int argc, char **argv, int *first)
{
	struct lj_opt_table tab = { "options", mx_opts, mx_handle, cfg };
	struct lj_opt_spec spec = {
		"[OPTIONS] SCENARIO | --resume RUNDIR",
		"Run every cell of a scenario matrix (warmup, then measured runs) into a results store.",
		&tab, 1,
		"Each cell runs under lj-env with its setup; each measured run's --json result\n"
		"lands in OUT/RUN-ID/WORKLOAD/CELL/run-N.json, listed in OUT/RUN-ID/manifest.json.\n"
		"Exit: 0 ok, 1 a cell failed or interrupted, 2 bad input, 77 nothing could run.",
	};

	return lj_opt_parse(&spec, argc, argv, first);
}

/* Everything a run holds, released; the exit code flushed out. */
static int finish(struct mx_run *run, char *scenario, int ret)
{
	mx_log_close(run);
	mx_guard_stop(run);
	json_object_put(run->manifest);
	mx_cell_names_free(run);
	mx_kernels_free(run);
	free(run->env_kernels);
	lj_scenario_free(run->scn);
	free(run->dir);
	free(run->selfdir);
	free(run->env_bin);
	free(scenario);
	return lj_exit_flushed(ret);
}

static int cmd_find_tag(struct mx_run *run, char **operands, int n)
{
	return lj_exit_flushed(n ? lj_usage_error("--find-tag takes no SCENARIO") : mx_find_tag(run->cfg));
}

/* --guest-job: this lj-matrix runs inside a guest, on the cells its host gave it. */
static int cmd_guest_job(struct mx_run *run, char **operands, int n)
{
	run->selfdir = self_dir();
	run->env_bin = mx_find_tool(run->selfdir, "lj-env");
	return finish(run, NULL, mx_guest_inner(run));
}

/* The scenario's run directory made (or --resume's opened) and its cells named: 0 or an exit code. */
static int prepare(struct mx_run *run)
{
	const struct mx_config *cfg = run->cfg;
	int ret;

	run->env_bin = mx_find_tool(run->selfdir, cfg->env_path ? cfg->env_path : "lj-env");
	if (cfg->env_path && !run->env_bin) {
		lj_error("--lj-env %s: not an executable", cfg->env_path);
		return LJ_EXIT_USAGE;
	}
	ret = cfg->resume ? mx_store_open(run) : load_scenario(run);
	if (!ret && !cfg->resume)
		ret = mx_cell_names(run);	/* two cells in one directory: refused before anything runs */
	return ret;
}

/* A scenario's cells run (or listed with --dry-run), or a --resume'd run continued. */
static int cmd_run(struct mx_run *run, char **operands, int n)
{
	struct mx_config *cfg = run->cfg;
	char *scenario;
	int ret;

	if (cfg->resume ? n != 0 : n != 1)
		return lj_usage_error(cfg->resume ? "--resume takes no SCENARIO (it is in the manifest)" :
				      "expected one SCENARIO file (see --help)");
	if (cfg->resume && (cfg->repeat > 0 || cfg->warmup >= 0 || cfg->seed_set || cfg->tag || cfg->dry_run || cfg->naxes))
		return lj_usage_error("--resume continues a run as it was: no --repeat, --warmup, --seed, --tag, --axis or --dry-run");
	run->selfdir = self_dir();
	scenario = cfg->resume ? NULL : mx_scenario_find(run->selfdir, operands[0]);
	if (!cfg->resume && !scenario) {
		lj_error("out of memory");
		return finish(run, NULL, LJ_EXIT_RUNTIME);
	}
	cfg->scenario_path = scenario;
	ret = prepare(run);
	if (ret || cfg->dry_run)
		return finish(run, scenario, ret ? ret : mx_dry_run(run));
	/* Before the store exists, so a Ctrl-C cannot interrupt its creation halfway. */
	mx_exec_block_signals(run);
	ret = cfg->resume ? 0 : mx_store_create(run);
	return finish(run, scenario, ret ? ret : mx_run_all(run));
}

/* The option's field, offset by one: 0 is the command that is always chosen. */
#define OPTION_GIVEN(f) (offsetof(struct mx_config, f) + 1)

/* What lj-matrix was asked to do: the first command whose option was given; a run otherwise. */
static const struct mx_command {
	size_t chosen;		/* OPTION_GIVEN(its option's string in struct mx_config); 0: always */
	int (*run)(struct mx_run *run, char **operands, int n);
} commands[] = {
	{ OPTION_GIVEN(find_tag), cmd_find_tag },
	{ OPTION_GIVEN(guest_job), cmd_guest_job },
	{ 0, cmd_run },
};

int main(int argc, char **argv)
{
	struct mx_config cfg = { .out = "results", .warmup = -1, .guest_timeout_ns = GUEST_TIMEOUT_NS };
	struct mx_run run = { .cfg = &cfg, .lock_fd = -1, .log_fd = -1, .watch_fd = -1 };
	const struct mx_command *c = commands;
	int first, ret;

	lj_err_init(argv[0]);
	ret = parse_args(&cfg, argc, argv, &first);
	if (ret)
		return lj_exit_flushed(ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret);
	while (c->chosen && !*(const char **)((char *)&cfg + c->chosen - 1))
		c++;
	return c->run(&run, argv + first, argc - first);
}
