// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-signal: signal ping-pong latency around a ring of threads (wires the phases). */
#include "sig.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "lj_err.h"
#include "lj_tool.h"

static bool under_sanitizer(void)
{
#ifdef __SANITIZE_ADDRESS__
	return true;
#else
	return getenv("LJ_SANITIZE") != NULL;
#endif
}

static int lock_memory(struct sig_ring *r, struct lj_tool *tool)
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
	lj_tool_fallback(tool, "mlockall", err);
	return 0;
}

/* --explain: the hook beside the ring. Return: 0 or an exit code. */
static int add_explain(struct sig_config *cfg, struct lj_hooks *hooks, struct sig_ring *r)
{
	struct lj_explain *x;

	if (!cfg->explain.explain)
		return 0;
	if (lj_explain_new(&x, &cfg->explain) || lj_explain_add(hooks, x)) {
		lj_error("out of memory");
		return LJ_EXIT_RUNTIME;
	}
	r->hooks = hooks;
	return 0;
}

int main(int argc, char **argv)
{
	struct sig_config cfg;
	struct sig_ring ring = { 0 };
	struct lj_tool tool = { 0 };
	struct lj_hooks hooks = { 0 };
	int ret, err;

	lj_err_init(argv[0]);
	sig_config_init(&cfg);
	ret = sig_parse(&cfg, argc, argv);
	if (ret)
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	ret = lj_tool_start(&tool, "lj-signal", &cfg.setup, cfg.json, argc, argv);
	if (ret)
		goto out;
	ret = sig_ring_init(&ring, &cfg, &tool.topo);
	if (ret < 0) {
		lj_error_errno(ret, "cannot set up the ring");
		ret = LJ_EXIT_RUNTIME;
	}
	if (!ret)
		ret = lock_memory(&ring, &tool);
	if (!ret)
		ret = add_explain(&cfg, &hooks, &ring);
	if (ret)
		goto teardown;

	/* Once threads run, the ring is always waited for and reported. */
	err = sig_ring_start(&ring);
	if (ring.sched_fallback)
		lj_tool_fallback(&tool, "policy", ring.first_sched_err);
	for (int i = 0; ring.hooks_failed && i < hooks.n; i++)
		if (!hooks.h[i].started)
			lj_tool_fallback(&tool, hooks.h[i].ops->name, hooks.h[i].start_err);
	ret = sig_ring_wait(&ring);
	lj_hooks_stop(&hooks);
	if (err) {
		ret = lj_exit_code(err);
		goto teardown;		/* the ring never ran: nothing to report */
	}
	sig_report_final(&ring);
	lj_hooks_report(&hooks, stdout);
	if (tool.res) {
		if (sig_report_json(&ring, tool.res) || lj_hooks_contribute(&hooks, tool.res))
			ret = LJ_EXIT_RUNTIME;
		ret = lj_tool_write_result(&tool, ret);
	}
teardown:
	if (ring.mlocked)
		munlockall();
	sig_ring_free(&ring);
	lj_hooks_free(&hooks);
out:
	lj_tool_end(&tool);
	return ret;
}
