// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-signal: signal ping-pong latency around a ring of threads (wires the phases). */
#include "sig.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lj_err.h"
#include "lj_stop.h"

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

static bool under_sanitizer(void)
{
#ifdef __SANITIZE_ADDRESS__
	return true;
#else
	return getenv("LJ_SANITIZE") != NULL;
#endif
}

static int lock_memory(struct sig_ring *r, struct lj_result *res)
{
	int err;

	if (!r->cfg->mlock || under_sanitizer())
		return 0;	/* ASan's shadow memory is too large to lock */
	err = lj_sched_mlockall();
	if (!err) {
		r->mlocked = true;
		return 0;
	}
	if (r->cfg->setup.strict) {
		lj_error_errno(err, "mlockall failed");
		return LJ_EXIT_NOCAP;
	}
	lj_warn_errno(err, "mlockall failed, running with memory unlocked");
	record_fallback(res, "mlockall", err);
	return 0;
}

int main(int argc, char **argv)
{
	struct sig_config cfg;
	struct sig_ring ring = { 0 };
	struct lj_topo topo;
	struct lj_setup *stack = NULL;
	struct lj_result *res = NULL;
	bool topo_loaded = false;
	int ret, err;

	lj_err_init(argv[0]);
	sig_config_init(&cfg);
	ret = sig_parse(&cfg, argc, argv);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	ret = lj_stop_install();
	if (ret) {
		lj_error_errno(ret, "cannot install signal handlers");
		return LJ_EXIT_RUNTIME;
	}
	if (lj_topo_load(&topo))
		return LJ_EXIT_RUNTIME;		/* lj_topo_load said why */
	topo_loaded = true;
	if (cfg.json) {
		res = lj_result_new("lj-signal", argc, argv);
		if (!res) {
			lj_error("cannot create the result document: out of memory");
			ret = LJ_EXIT_RUNTIME;
			goto out;
		}
	}
	ret = lj_setupopt_apply(&cfg.setup, &topo, &stack, res ? lj_result_setup(res) : NULL);
	if (ret)
		goto out;
	ret = sig_ring_init(&ring, &cfg, &topo);
	if (ret < 0) {
		lj_error_errno(ret, "cannot set up the ring");
		ret = LJ_EXIT_RUNTIME;
	}
	if (!ret)
		ret = lock_memory(&ring, res);
	if (ret)
		goto teardown;

	/* Once threads run, the ring is always waited for and reported. */
	err = sig_ring_start(&ring);
	if (ring.sched_fallback)
		record_fallback(res, "policy", ring.first_sched_err);
	ret = sig_ring_wait(&ring);
	if (err) {
		ret = lj_exit_code(err);
		goto teardown;		/* the ring never ran: nothing to report */
	}
	sig_report_final(&ring);
	if (res) {
		if (sig_report_json(&ring, res))
			ret = LJ_EXIT_RUNTIME;
		lj_result_finish(res, ret);
		err = lj_result_write(res, cfg.json);
		if (err) {
			lj_error_errno(err, "cannot write %s", cfg.json);
			ret = LJ_EXIT_RUNTIME;
		}
	}
teardown:
	if (ring.mlocked)
		munlockall();
	sig_ring_free(&ring);
	lj_setupopt_restore(&cfg.setup, stack);
out:
	lj_result_free(res);
	if (topo_loaded)
		lj_topo_free(&topo);
	return ret;
}
