// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-hackbench: hackbench-compatible messaging benchmark and load (its lifecycle phases). */
#include "hb.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>

#include "lj_err.h"
#include "lj_tool.h"
#include "lj_validity_hook.h"

struct hb_tool {
	struct hb_config cfg;
	struct hb_run run;
	bool run_init;
	struct lj_vhook *validity;	/* the validity verdict (lj_validity_hook) */
	pid_t *tids;			/* the workers' ids, for the hooks */
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
}

static int prepare(void *p, struct lj_tool *t)
{
	struct hb_tool *h = p;
	int err;

	hb_report_header(&h->cfg);
	h->run_init = true;
	err = hb_run_init(&h->run, &h->cfg);
	if (err)
		lj_error_errno(err, "cannot set up the run");
	return err ? LJ_EXIT_RUNTIME : 0;
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
 * The validity verdict runs beside every lj-hackbench run (it reads back
 * the workers' policy when one is asked); the recorder with --explain
 * (forked workers hand their late messages back through their slots:
 * forward.c).
 */
static int hooks(void *p, struct lj_tool *t)
{
	struct hb_tool *h = p;
	int err = lj_vhook_add(&t->hooks, &h->validity);

	if (err || !h->cfg.explain.explain)
		return err;
	/* no stamps, no late message: no trace to record */
	if (!h->run.stamps) {
		lj_warn("--explain: nothing to explain, no message carries its send time (%s)",
			h->run.no_stamp_why);
		return 0;
	}
	return lj_explain_register(&t->hooks, &h->cfg.explain, NULL);
}

/* The workers' ids (in run->w's order: explain's index) and what they were asked; policy -1: nothing. */
static void describe_workers(struct hb_tool *h, struct lj_run_desc *desc)
{
	struct hb_run *run = &h->run;

	if (sched_getaffinity(0, sizeof(desc->measured), &desc->measured))
		CPU_ZERO(&desc->measured);
	for (unsigned int i = 0; i < run->nworkers; i++)
		h->tids[i] = hb_slot(run, i)->tid;
	desc->tids = h->tids;
	desc->ntids = (int)run->nworkers;
	desc->policy = hb_policy_asked(&h->cfg) ? (int)h->cfg.policy : -1;
	desc->prio = h->cfg.priority;
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct hb_tool *h = p;
	struct hb_run *run = &h->run;
	int err;

	h->tids = calloc(run->nworkers, sizeof(*h->tids));
	if (!h->tids) {
		lj_error("out of memory for %u worker ids", run->nworkers);
		return -ENOMEM;
	}
	run->hooks = &t->hooks;
	err = hb_run_start(run);
	if (!err && (run->sched_err || run->fifo_err)) {
		run->sched_fallback = true;
		err = lj_tool_fallback(t, "policy", run->sched_err ? run->sched_err : run->fifo_err, NULL);
	}
	if (err) {
		abandon(run);
		return err;
	}
	describe_workers(h, desc);
	return 0;
}

/*
 * Before the clock starts: what each worker was set to run with (a worker
 * refused --policy runs SCHED_OTHER, the fallback recorded apart), read
 * back once; load mode reads again every second (run.c).
 */
static int go(void *p, struct lj_tool *t)
{
	struct hb_tool *h = p;

	for (unsigned int i = 0; h->validity && hb_policy_asked(&h->cfg) && i < h->run.nworkers; i++)
		if (hb_slot(&h->run, i)->sched_err)
			lj_vhook_expect(h->validity, h->tids[i], LJ_POLICY_OTHER, 0);
	lj_vhook_poll(h->validity);
	return hb_run_go(&h->run);
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
	lj_vhook_fallbacks(((struct hb_tool *)p)->validity, t->setup_rec);
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
	free(h->tids);
}

static const struct lj_tool_ops hb_ops = {
	.name = "lj-hackbench", .size = sizeof(struct hb_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .hooks = hooks, .start = start,
	.go = go, .wait = wait_run, .report_text = report_text, .report_json = report_json,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&hb_ops, argc, argv);
}
