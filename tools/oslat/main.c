// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-oslat: OS noise seen by a busy loop per CPU, a drop-in for rt-tests' oslat (its lifecycle phases). */
#include "oslat.h"

#include <errno.h>

#include "lj_hist.h"
#include "lj_tool.h"

struct osl_tool {
	struct osl_config cfg;
	struct osl_run run;
	bool prepared;
};

static int parse(void *p, int argc, char **argv)
{
	struct osl_tool *o = p;

	osl_config_init(&o->cfg);
	return osl_parse(&o->cfg, argc, argv);
}

/* All the driver needs: the verdict, --power and --explain come with it. */
static void describe(void *p, struct lj_tool_desc *d)
{
	struct osl_tool *o = p;

	d->json = o->cfg.json;
	d->setup = &o->cfg.setup;
	d->mlock = true;		/* as oslat, always */
	d->explain = &o->cfg.explain;
	d->trace_sample = "gap";	/* --perfetto's slices */
}

static int prepare(void *p, struct lj_tool *t)
{
	struct osl_tool *o = p;
	int ret;

	o->prepared = true;
	ret = osl_run_prepare(&o->run, &o->cfg, &t->topo);
	if (!ret)
		osl_report_header(&o->run);
	return ret;
}

/* The threads pinned and waiting, each with the policy it runs with (-1 without -f: inherited). */
static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct osl_run *run = &((struct osl_tool *)p)->run;
	struct lj_run_thread *th = lj_tool_threads(t, run->n);
	int ret;

	if (!th)
		return -ENOMEM;
	run->hooks = &t->hooks;
	run->explain = t->explain;
	ret = osl_run_start(run, t);
	if (ret)
		return ret;
	for (int i = 0; i < run->n; i++) {
		bool fifo = !run->th[i].sched_err;

		th[i] = (struct lj_run_thread){ run->th[i].tid, i, -1, 0, true };
		if (run->cfg->rtprio) {
			th[i].policy = fifo ? LJ_POLICY_FIFO : LJ_POLICY_OTHER;
			th[i].prio = fifo ? run->cfg->rtprio : 0;
		}
	}
	desc->measured = run->measured;
	return 0;
}

static int wait_run(void *p, struct lj_tool *t)
{
	return osl_run_wait(&((struct osl_tool *)p)->run);
}

/* The verdict's figures: the gaps measured; a run of a duration expects no number of them. */
static void counts(void *p, struct lj_tool_counts *c)
{
	struct osl_run *run = &((struct osl_tool *)p)->run;

	for (int i = 0; i < run->n; i++) {
		c->samples += lj_hist_count(run->th[i].hist);
		c->overflows += lj_hist_overflows(run->th[i].hist);
	}
}

static int report_text(void *p, struct lj_tool *t, int ret)
{
	struct osl_run *run = &((struct osl_tool *)p)->run;

	osl_report_summary(run, run->text);
	return 0;
}

static int report_json(void *p, struct lj_tool *t, struct lj_result *res, bool started, int ret)
{
	if (started)
		osl_report_json(&((struct osl_tool *)p)->run, res);
	return 0;
}

static void free_tool(void *p)
{
	struct osl_tool *o = p;

	if (o->prepared)
		osl_run_free(&o->run);
}

static const struct lj_tool_ops osl_ops = {
	.name = "lj-oslat", .size = sizeof(struct osl_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .start = start, .wait = wait_run,
	.counts = counts, .report_text = report_text, .report_json = report_json, .free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&osl_ops, argc, argv);
}
