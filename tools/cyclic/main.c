// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-cyclic: timer wake-up latency, a drop-in for rt-tests' cyclictest. */
#include "cyclic.h"

#include <stdlib.h>

#include "lj_err.h"
#include "lj_tool.h"
#include "lj_topo.h"

/* The result document, when --json asked for one. Return: 0 or an exit code. */
static int write_json(struct cyc_run *run, struct lj_result *res, int code)
{
	int ret;

	if (!res)
		return code;
	cyc_json_fill(run, res);
	lj_result_finish(res, code);
	ret = lj_result_write(res, run->cfg->json);
	if (ret) {
		lj_error_errno(ret, "cannot write %s", run->cfg->json);
		return code ? code : LJ_EXIT_RUNTIME;
	}
	return code;
}

/*
 * --explain, and --tracemark with -b (the marker and the stop go through
 * the same recorder): the hook beside the run. Return: 0 or an exit code.
 */
static int add_explain(struct cyc_run *run, struct cyc_config *cfg, struct lj_hooks *hooks)
{
	struct lj_explain_opts o = cfg->explain;

	o.tracemark = cfg->tracemark && cfg->breaktrace_ns;
	lj_hooks_init(hooks);
	if (!o.explain && !o.tracemark)
		return 0;
	if (lj_explain_new(&run->explain, &o) || lj_explain_add(hooks, run->explain)) {
		lj_error("out of memory");
		return LJ_EXIT_RUNTIME;
	}
	run->hooks = hooks;
	return 0;
}

/*
 * The files the run will write (--json, and --histfile when -h prints a
 * histogram), checked before anything is measured: a bad path must not
 * cost a long run. Return: 0 or an exit code after a message.
 */
static int check_paths(const struct cyc_config *cfg)
{
	const char *paths[] = { cfg->json, cfg->histogram ? cfg->histfile : NULL };

	return lj_tool_check_outputs(paths, sizeof(paths) / sizeof(paths[0]));
}

int main(int argc, char **argv)
{
	struct cyc_config cfg;
	struct cyc_run run = { 0 };
	struct lj_topo topo = { 0 };
	struct lj_setup *stack = NULL;
	struct lj_result *res = NULL;
	struct lj_hooks hooks = { 0 };
	json_object *setup_rec;
	int ret;

	lj_err_init(argv[0]);
	cyc_config_init(&cfg);
	ret = cyc_options_parse(&cfg, argc, argv);
	if (!ret)
		ret = cyc_config_finish(&cfg);
	if (!ret)
		ret = check_paths(&cfg);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;

	cyc_signals_block();
	if (cfg.json)
		res = lj_result_new("lj-cyclic", argc, argv);
	setup_rec = res ? lj_result_setup(res) : json_object_new_object();
	ret = lj_topo_load(&topo);
	if (ret) {
		ret = LJ_EXIT_RUNTIME;	/* lj_topo_load said why */
		goto out;
	}
	ret = lj_setupopt_apply(&cfg.setup, &topo, &stack, setup_rec);
	if (ret)
		goto out;
	ret = cyc_run_prepare(&run, &cfg, &topo);
	if (!ret)
		ret = add_explain(&run, &cfg, &hooks);
	if (!ret) {
		ret = cyc_run_start(&run, setup_rec);
		if (!ret)
			ret = cyc_run_wait(&run);
		lj_hooks_stop(&hooks);
		if (res)
			lj_hooks_contribute(&hooks, res);
		cyc_validity_finish(&run, setup_rec, res);
		/* Also for a run refused (77) or failed: the result says why. */
		ret = write_json(&run, res, ret);
		/* A run stopped by a signal or -b still reports what it measured. */
		if (run.start_ns && cyc_report_final(&run, run.text) && !ret)
			ret = LJ_EXIT_RUNTIME;	/* the --histfile write failed late (e.g. ENOSPC) */
		if (run.start_ns)
			lj_hooks_report(&hooks, run.text);
		/* stderr: stdout keeps exactly cyclictest's lines for its parsers */
		cyc_validity_report(&run, stderr);
	}
	cyc_validity_free(&run);
	cyc_run_free(&run);
	lj_hooks_free(&hooks);
	lj_setupopt_restore(&cfg.setup, stack);
out:
	lj_topo_free(&topo);
	if (res)
		lj_result_free(res);
	else
		json_object_put(setup_rec);
	return ret;
}
