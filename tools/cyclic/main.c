// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-cyclic: timer wake-up latency, a drop-in for rt-tests' cyclictest (its lifecycle phases). */
#include "cyclic.h"

#include <errno.h>
#include <stdlib.h>

#include "lj_err.h"
#include "lj_tool.h"

struct cyc_tool {
	struct cyc_config cfg;
	struct cyc_run run;
	pid_t *tids;
	bool prepared;
};

static int parse(void *p, int argc, char **argv)
{
	struct cyc_tool *c = p;
	int ret;

	cyc_config_init(&c->cfg);
	ret = cyc_options_parse(&c->cfg, argc, argv);
	if (!ret)
		ret = cyc_config_finish(&c->cfg);
	if (ret)
		return ret;
	/* At once: a SIGUSR1 or SIGHUP while the topology loads must not kill the run. */
	ret = cyc_signals_block();
	if (ret)
		lj_error_errno(ret, "cannot block signals");
	return ret;
}

/* --json, and --histfile when -h prints a histogram: checked before anything is measured. */
static void describe(void *p, struct lj_tool_desc *d)
{
	struct cyc_tool *c = p;

	d->json = c->cfg.json;
	d->outputs[0] = c->cfg.histogram ? c->cfg.histfile : NULL;
	d->setup = &c->cfg.setup;
	d->mlock = c->cfg.mlock;
	d->prefault_hot = true;		/* loop.c's measuring code is LJ_HOT */
	d->topo_apart = true;		/* hwloc's code and memory stay out of lj-cyclic's RSS */
}

static int prepare(void *p, struct lj_tool *t)
{
	struct cyc_tool *c = p;

	int ret;

	c->prepared = true;
	ret = cyc_run_prepare(&c->run, &c->cfg, &t->topo);
	return ret ? ret : cyc_run_setup(&c->run, t);
}

/*
 * --explain, and -b with --tracemark (the marker and the stop go through
 * the same recorder, docs/explain.md). The trace runs on CLOCK_MONOTONIC:
 * with -c 1 there is nothing to match the samples against.
 */
static int add_explain(struct cyc_tool *c, struct lj_tool *t)
{
	struct lj_explain_opts o = c->cfg.explain;

	o.tracemark = c->cfg.tracemark && c->cfg.breaktrace_ns;
	if ((o.explain || o.tracemark) && c->cfg.clock != 0) {
		lj_warn("--explain and --tracemark need CLOCK_MONOTONIC (-c 0): not recording");
		return 0;
	}
	return lj_explain_register(&t->hooks, &o, &c->run.explain);
}

/* The validity verdict runs beside every lj-cyclic run; the recorder when asked. */
static int hooks(void *p, struct lj_tool *t)
{
	int err = cyc_validity_add(&((struct cyc_tool *)p)->run, &t->hooks);

	return err ? err : add_explain(p, t);
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct cyc_tool *c = p;
	struct cyc_run *run = &c->run;
	int ret;

	c->tids = calloc(run->nthreads, sizeof(*c->tids));
	if (!c->tids) {
		lj_error("out of memory");
		return -ENOMEM;
	}
	ret = cyc_run_start(run, t);
	if (ret)
		return ret;
	for (int i = 0; i < run->nthreads; i++)
		c->tids[i] = run->th[i].tid;
	desc->measured = run->measured;
	desc->tids = c->tids;
	desc->ntids = run->nthreads;
	desc->policy = c->cfg.policy;
	desc->prio = c->cfg.priority;
	return 0;
}

static int go(void *p, struct lj_tool *t)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;

	cyc_validity_expect(run);
	cyc_run_go(run);
	return 0;
}

static int wait_run(void *p, struct lj_tool *t)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;
	int ret = cyc_run_wait(run);

	cyc_validity_counts(run);
	return ret;
}

/* Also for a run stopped by a signal or -b: it reports what it measured. */
static int report_text(void *p, struct lj_tool *t, int ret)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;

	cyc_validity_fallbacks(run, t->setup_rec);
	if (!run->start_ns)
		return 0;
	/* A --histfile write failing late (e.g. ENOSPC) is a runtime error whatever its errno. */
	return cyc_report_final(run, run->text) ? LJ_EXIT_RUNTIME : 0;
}

/* Also for a run refused (77) or failed: the result says why. */
static int report_json(void *p, struct lj_tool *t, struct lj_result *res, bool started, int ret)
{
	struct cyc_tool *c = p;

	if (c->run.th)
		cyc_json_fill(&c->run, res);
	return 0;
}

static void free_tool(void *p)
{
	struct cyc_tool *c = p;

	if (c->prepared)
		cyc_run_free(&c->run);
	free(c->tids);
}

static const struct lj_tool_ops cyc_ops = {
	.name = "lj-cyclic", .size = sizeof(struct cyc_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .hooks = hooks, .start = start,
	.go = go, .wait = wait_run, .report_text = report_text, .report_json = report_json,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&cyc_ops, argc, argv);
}
