// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-hackbench: hackbench-compatible messaging benchmark and load (wires the phases). */
#include "hb.h"

#include <signal.h>

#include "lj_err.h"
#include "lj_tool.h"

int main(int argc, char **argv)
{
	struct hb_config cfg;
	struct hb_run run = { 0 };
	struct lj_tool tool = { 0 };
	int ret, err;

	lj_err_init(argv[0]);
	hb_config_init(&cfg);
	ret = hb_parse(&cfg, argc, argv);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	ret = hb_check_limits(&cfg);
	if (ret)
		return ret;
	signal(SIGHUP, SIG_IGN);	/* as hackbench: a closed terminal does not end the run */
	signal(SIGPIPE, SIG_IGN);	/* a dead receiver shows up as EPIPE, not a dead sender */
	ret = lj_tool_start(&tool, "lj-hackbench", &cfg.setup, cfg.json, argc, argv);
	if (ret)
		goto out;
	hb_report_header(&cfg);
	err = hb_run_init(&run, &cfg);
	if (err) {
		lj_error_errno(err, "cannot set up the run");
		ret = LJ_EXIT_RUNTIME;
		goto out;
	}
	err = hb_run_start(&run);
	hb_run_wait(&run);
	hb_run_collect(&run);
	if (err) {
		ret = lj_exit_code(err);
	} else {
		hb_report_final(&run);
		if (run.worker_err) {
			lj_error_errno(run.worker_err, "a worker failed");
			ret = LJ_EXIT_RUNTIME;
		} else if (run.failed_workers) {
			lj_error("%u workers did not exit cleanly", run.failed_workers);
			ret = LJ_EXIT_RUNTIME;
		}
	}
	if (tool.res && !err) {
		if (run.sched_fallback)
			lj_tool_fallback(&tool, "policy", run.sched_err ? run.sched_err : run.fifo_err);
		if (hb_report_json(&run, tool.res))
			ret = LJ_EXIT_RUNTIME;
		ret = lj_tool_write_result(&tool, ret);
	}
out:
	hb_run_free(&run);
	lj_tool_end(&tool);
	return ret;
}
