// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-hackbench: hackbench-compatible messaging benchmark and load (its lifecycle phases). */
#include "hb.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "lj_err.h"
#include "lj_tool.h"

struct hb_tool {
	struct hb_config cfg;
	struct hb_run run;
	bool run_init;
};

static int parse(void *p, int argc, char **argv)
{
	struct hb_tool *h = p;
	int ret;

	hb_config_init(&h->cfg);
	ret = hb_parse(&h->cfg, argc, argv);
	if (!ret)
		ret = hb_check_limits(&h->cfg);
	signal(SIGHUP, SIG_IGN);	/* as hackbench: a closed terminal does not end the run */
	signal(SIGPIPE, SIG_IGN);	/* a dead receiver shows up as EPIPE, not a dead sender */
	return ret;
}

static void describe(void *p, struct lj_tool_desc *d)
{
	struct hb_tool *h = p;

	d->json = h->cfg.json;
	d->setup = &h->cfg.setup;
	d->explain = &h->cfg.explain;	/* forked workers hand their late messages back: forward.c */
	d->trace_sample = "late message";	/* --perfetto's slices */
}

static int prepare(void *p, struct lj_tool *t)
{
	struct hb_tool *h = p;
	int err;

	hb_report_header(&h->cfg);
	h->run_init = true;
	err = hb_run_init(&h->run, &h->cfg);
	if (err) {
		lj_error_errno(err, "cannot set up the run");
		return LJ_EXIT_RUNTIME;
	}
	/* no stamps, no late message: no trace to record */
	if (h->cfg.explain.explain && !h->run.stamps) {
		lj_warn("--explain: nothing to explain, no message carries its send time (%s)",
			h->run.no_stamp_why);
		h->cfg.explain.explain = false;
	}
	return 0;
}

/* Release the workers into a stopped run and reap them: after a failed start. */
static void abandon(struct hb_run *run)
{
	hb_run_stop(run);
	hb_run_go(run);
	hb_run_wait(run);
	hb_run_collect(run);
}

/*
 * The workers (in run->w's order: explain's index) and what each was set
 * to run with: nothing asked (-1) without --policy or --priority; a
 * worker refused --policy runs SCHED_OTHER (the fallback recorded apart).
 */
static void describe_workers(struct hb_tool *h, struct lj_run_thread *th, struct lj_run_desc *desc)
{
	struct hb_run *run = &h->run;
	bool asked = hb_policy_asked(&h->cfg);

	if (sched_getaffinity(0, sizeof(desc->measured), &desc->measured))
		CPU_ZERO(&desc->measured);
	for (unsigned int i = 0; i < run->nworkers; i++) {
		const struct hb_slot *s = hb_slot(run, i);

		th[i] = (struct lj_run_thread){ s->tid, (int)i, asked ? (int)h->cfg.policy : -1,
						h->cfg.priority, true };
		if (asked && s->sched_err) {
			th[i].policy = LJ_POLICY_OTHER;
			th[i].prio = 0;
		}
	}
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct hb_tool *h = p;
	struct hb_run *run = &h->run;
	struct lj_run_thread *th = lj_tool_threads(t, (int)run->nworkers);
	int err;

	if (!th)
		return -ENOMEM;
	run->hooks = &t->hooks;
	err = hb_run_start(run);
	if (!err && (run->sched_err || run->fifo_err)) {
		run->sched_fallback = true;
		err = lj_tool_policy_fallback(t, "policy", run->sched_err ? run->sched_err : run->fifo_err, NULL);
	}
	if (err) {
		abandon(run);
		return err;
	}
	describe_workers(h, th, desc);
	return 0;
}

/* The workers' policy read back once before the clock starts; load mode reads again every second (run.c). */
static int go(void *p, struct lj_tool *t)
{
	lj_hooks_poll(&t->hooks);
	return hb_run_go(&((struct hb_tool *)p)->run);
}

static int wait_run(void *p, struct lj_tool *t)
{
	struct hb_run *run = &((struct hb_tool *)p)->run;

	hb_run_wait(run);
	lj_hooks_threads(&t->hooks, NULL, 0);	/* reaped: their ids may be reused */
	hb_run_collect(run);
	if (run->worker_err) {
		lj_error_errno(run->worker_err, "a worker failed");
		return LJ_EXIT_RUNTIME;
	}
	if (run->failed_workers) {
		lj_error("%u workers did not exit cleanly", run->failed_workers);
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

static int report_text(void *p, struct lj_tool *t, int ret)
{
	hb_report_final(&((struct hb_tool *)p)->run);
	return 0;
}

static int report_json(void *p, struct lj_tool *t, struct lj_result *res, bool started, int ret)
{
	if (!started)
		return 0;	/* the run never started: the document says only how it ended */
	return hb_report_json(&((struct hb_tool *)p)->run, res) ? LJ_EXIT_RUNTIME : 0;
}

static void free_tool(void *p)
{
	struct hb_tool *h = p;

	if (h->run_init)
		hb_run_free(&h->run);
}

static const struct lj_tool_ops hb_ops = {
	.name = "lj-hackbench", .size = sizeof(struct hb_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .start = start,
	.go = go, .wait = wait_run, .report_text = report_text, .report_json = report_json,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&hb_ops, argc, argv);
}
