// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-env's option table (its own plus the shared setup options) and checks. */
#include "env.h"
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_parse.h"
#include "lj_time.h"

#include <stdlib.h>
#include <string.h>

enum {
	K_SHOW = LJ_OPT_LONG_BASE + 0x100,
	K_RESTORE,
	K_JSON,
	K_SWEEP,
	K_DWELL,
	K_WATCH,
};

/*
 * "--json FILE" (the spelling every tool uses): FILE is --json's value
 * when it is clearly not COMMAND: it does not start with '-', and a "--"
 * follows it or the run is --show/--restore (which take no command). A
 * bare "--json" still works for --show.
 */
static bool json_value_next(int argc, char *const *argv, int next)
{
	bool show = false;

	if (argv[next][0] == '-')
		return false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i > next || show;
		show = show || !strcmp(argv[i], "--show") || !strcmp(argv[i], "--restore");
	}
	return show;
}

#define AT(f) .off = offsetof(struct env_config, f)

static const struct lj_opt env_opts[] = {
	{ "show", K_SHOW, LJ_OPT_NOARG, NULL, "print the current setup state and system identity, change nothing",
	  LJ_OPT_FLAG, AT(show) },
	{ "restore", K_RESTORE, LJ_OPT_NOARG, NULL, "undo the setups of dead ljkit processes (their journals)",
	  LJ_OPT_FLAG, AT(restore) },
	{ "json", K_JSON, LJ_OPT_OPTARG, "FILE", "JSON: --show prints it to stdout; a run writes a result to FILE",
	  .next_value = json_value_next },
	{ "sweep", K_SWEEP, LJ_OPT_ARG, "cpus=STEPS", "change the group's cpuset while COMMAND runs: cpus=1,2,2-3 or cpus=0,1/2-3" },
	{ "dwell", K_DWELL, LJ_OPT_ARG, "DURATION", "time per --sweep step (default 20s)" },
	{ "watch", K_WATCH, LJ_OPT_ARG, "GLOB", "count context switches of tasks named GLOB ('sugov:*', a comma list; repeatable) and of the system while COMMAND runs" },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "say what is changed and restored", LJ_OPT_VERBOSITY },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "no warnings", LJ_OPT_VERBOSITY },
	{ 0 }
};

static int handle(void *ctx, int key, const char *arg)
{
	struct env_config *cfg = ctx;
	char why[256] = "";

	switch (key) {
	case K_JSON:
		cfg->json = arg && *arg ? arg : "-";
		return 0;
	case K_SWEEP:
		if (env_sweep_parse(arg, &cfg->sweep, why, sizeof(why)))
			return lj_usage_error("invalid --sweep '%s': %s", arg, why);
		cfg->sweep_text = arg;
		return 0;
	case K_DWELL:
		if (lj_parse_duration_ns(arg, LJ_NSEC_PER_SEC, &cfg->sweep.dwell_ns, why, sizeof(why)))
			return lj_usage_error("invalid --dwell '%s': %s", arg, why);
		if (cfg->sweep.dwell_ns < LJ_NSEC_PER_MSEC)
			return lj_usage_error("invalid --dwell '%s': shorter than 1ms", arg);
		return 0;
	case K_WATCH:
		return env_watch_add(cfg, arg);
	}
	return LJ_EXIT_USAGE;
}

int env_parse(struct env_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tables[2];
	struct lj_opt_spec spec = {
		.usage = "[SETUP OPTIONS] -- COMMAND [ARGS]  |  --show [--json]  |  --restore",
		.summary = "Apply a system setup around COMMAND and restore it after; show the state; restore after a crash.",
		.tables = tables,
		.ntables = 2,
		/* "lj-env [opts] COMMAND -x": -x belongs to COMMAND. */
		.stop_at_operand = true,
		.epilog = "Exit status: COMMAND's (128+N when killed by signal N), 2 bad input, 77 missing\n"
			  "capability under --strict, 1 runtime error. Journals: $LJ_JOURNAL_DIR or /run/ljkit.",
	};
	int first = 0, ret;

	memset(cfg, 0, sizeof(*cfg));
	lj_setupopt_init(&cfg->setup);
	cfg->sweep.dwell_ns = 20 * LJ_NSEC_PER_SEC;
	cfg->argc = argc;
	cfg->argv = argv;
	tables[0] = (struct lj_opt_table){ "lj-env options", env_opts, handle, cfg };
	tables[1] = lj_setupopt_table(&cfg->setup);
	ret = lj_opt_parse(&spec, argc, argv, &first);
	if (ret)
		return ret;
	cfg->cmd = first < argc ? &argv[first] : NULL;

	if (cfg->show && cfg->restore)
		return lj_usage_error("--show and --restore do not go together");
	if ((cfg->show || cfg->restore) && cfg->cmd)
		return lj_usage_error("--%s takes no command", cfg->show ? "show" : "restore");
	if (!cfg->show && !cfg->restore && !cfg->cmd)
		return lj_usage_error("no command given: lj-env [SETUP OPTIONS] -- COMMAND [ARGS] (see --help)");
	if ((cfg->show || cfg->restore) && cfg->watch.npatterns)
		return lj_usage_error("--watch needs a command to run");
	if ((cfg->show || cfg->restore) && cfg->setup.power)
		return lj_usage_error("--power needs a command to run");
	if (cfg->setup.perfetto || cfg->setup.perfetto_threshold_ns)
		return lj_usage_error("--perfetto is the measuring tool's: give it to the command "
				      "(it reads the sweep's phases from LJ_SWEEP_PHASES)");
	if (cfg->restore && cfg->json)
		return lj_usage_error("--restore writes no JSON");
	if (cfg->setup.policy_fallback)	/* a setup option for the measuring tools */
		return lj_usage_error("--policy-fallback is for a measuring tool: give it to the command");
	if (cfg->sweep.nsteps) {
		if (!cfg->cmd)
			return lj_usage_error("--sweep needs a command to run");
		if (!cfg->setup.cgroup || !strcmp(cfg->setup.cgroup, "off"))
			return lj_usage_error("--sweep needs --cgroup NAME: it changes that group's cpuset");
	}
	return 0;
}

void env_free(struct env_config *cfg)
{
	lj_taskwatch_free(&cfg->watch);
}
