// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-hackbench: hackbench-compatible messaging benchmark and load (wires the phases). */
#include "hb.h"

#include <signal.h>

#include "lj_err.h"
#include "lj_stop.h"
#include "lj_topo.h"

/* Record a capability the run had to do without, in the result's setup block. */
static void record_fallback(struct lj_result *res, const char *what, int err)
{
	json_object *fb, *o;

	if (!res || !json_object_object_get_ex(lj_result_setup(res), "fallbacks", &fb))
		return;
	o = json_object_new_object();
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "why", json_object_new_string(lj_strerror(err)));
	json_object_array_add(fb, o);
}

int main(int argc, char **argv)
{
	struct hb_config cfg;
	struct hb_run run = { 0 };
	struct lj_topo topo;
	struct lj_setup *stack = NULL;
	struct lj_result *res = NULL;
	bool topo_loaded = false, applied = false;
	int ret, err;

	lj_err_init(argv[0]);
	hb_config_init(&cfg);
	ret = hb_parse(&cfg, argc, argv);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	ret = hb_check_limits(&cfg);
	if (ret)
		return ret;
	err = lj_stop_install();
	if (err) {
		lj_error_errno(err, "cannot install signal handlers");
		return LJ_EXIT_RUNTIME;
	}
	signal(SIGHUP, SIG_IGN);	/* as hackbench: a closed terminal does not end the run */
	signal(SIGPIPE, SIG_IGN);	/* a dead receiver shows up as EPIPE, not a dead sender */
	if (lj_topo_load(&topo))
		return LJ_EXIT_RUNTIME;
	topo_loaded = true;
	if (cfg.json) {
		res = lj_result_new("lj-hackbench", argc, argv);
		if (!res) {
			lj_error("cannot create the result document: out of memory");
			ret = LJ_EXIT_RUNTIME;
			goto out;
		}
	}
	ret = lj_setupopt_apply(&cfg.setup, &topo, &stack, res ? lj_result_setup(res) : NULL);
	if (ret)
		goto out;
	applied = true;
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
	if (res && !err) {
		if (run.sched_fallback)
			record_fallback(res, "policy", run.sched_err ? run.sched_err : run.fifo_err);
		if (hb_report_json(&run, res))
			ret = LJ_EXIT_RUNTIME;
		lj_result_finish(res, ret);
		err = lj_result_write(res, cfg.json);
		if (err) {
			lj_error_errno(err, "cannot write %s", cfg.json);
			ret = LJ_EXIT_RUNTIME;
		}
	}
out:
	hb_run_free(&run);
	if (applied)
		lj_setupopt_restore(&cfg.setup, stack);
	lj_result_free(res);
	if (topo_loaded)
		lj_topo_free(&topo);
	return ret;
}
