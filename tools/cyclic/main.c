// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-cyclic: timer wake-up latency, a drop-in for rt-tests' cyclictest (its lifecycle phases). */
#include "cyclic.h"

#include <errno.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_tool.h"

struct cyc_tool {
	struct cyc_config cfg;
	struct cyc_run run;
	struct lj_explain_opts explain;	/* --explain, and -b with --tracemark: the recorder's */
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
	/* -b with --tracemark: the marker and the stop go through the recorder (docs/explain.md) */
	c->explain = c->cfg.explain;
	c->explain.tracemark = c->cfg.tracemark && c->cfg.breaktrace_ns;
	d->explain = &c->explain;
	d->trace_sample = "late wake-up";	/* --perfetto's slices */
}

/*
 * Whether every measuring thread is woken only by its own timer on its
 * own CPU, in the timer's interrupt: pinned, and RT (PREEMPT_RT expires
 * a fair task's sleep in a softirq thread instead).
 */
static bool timer_wakeups(const struct cyc_run *run)
{
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *th = &run->th[i];

		if (th->cpu < 0 || (th->policy != LJ_POLICY_FIFO && th->policy != LJ_POLICY_RR))
			return false;
	}
	return run->nthreads > 0;
}

static int prepare(void *p, struct lj_tool *t)
{
	struct cyc_tool *c = p;
	int ret;

	c->prepared = true;
	ret = cyc_run_prepare(&c->run, &c->cfg, &t->topo);
	if (!ret)
		ret = cyc_run_setup(&c->run, t);
	/* The trace runs on CLOCK_MONOTONIC: with -c 1 there is nothing to match the samples against. */
	if (!ret && (c->explain.explain || c->explain.tracemark) && c->cfg.clock != 0) {
		lj_warn("--explain and --tracemark need CLOCK_MONOTONIC (-c 0): not recording");
		c->explain.explain = c->explain.tracemark = false;
	}
	c->explain.timer_wakeups = !ret && timer_wakeups(&c->run);
	return ret;
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;
	struct lj_run_thread *th = lj_tool_threads(t, run->nthreads);
	int ret;

	if (!th)
		return -ENOMEM;
	run->explain = t->explain;
	ret = cyc_run_start(run, t);
	if (ret)
		return ret;
	/* what each thread runs with: --priospread's priorities, a fallback's SCHED_OTHER */
	for (int i = 0; i < run->nthreads; i++)
		th[i] = (struct lj_run_thread){ run->th[i].tid, i, run->th[i].policy, run->th[i].prio, true };
	desc->measured = run->measured;
	return 0;
}

static int go(void *p, struct lj_tool *t)
{
	cyc_run_go(&((struct cyc_tool *)p)->run);
	return 0;
}

static int wait_run(void *p, struct lj_tool *t)
{
	return cyc_run_wait(&((struct cyc_tool *)p)->run);
}

/*
 * What the verdict judges: missed periods, histogram overflows, samples
 * against -l's. As cyclictest, the run ends when its first thread has -l
 * wake-ups: the others (a longer interval with -d, or one wake-up behind)
 * have fewer by design, so the furthest thread says whether it was cut
 * short; with --loops-per-thread every thread owes -l.
 */
static void counts(void *p, struct lj_tool_counts *n)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;
	uint64_t furthest = 0;

	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_live lv;
		uint64_t c;

		if (!run->th[i].hist)
			continue;
		cyc_live_read(&run->th[i], &lv);
		n->missed += lv.missed;
		n->overflows += lj_hist_overflows(run->th[i].hist);
		c = lj_hist_count(run->th[i].hist);
		n->samples += c;
		if (c > furthest)
			furthest = c;
	}
	n->expected = run->cfg->loops * (uint64_t)(run->cfg->loops_each ? run->nthreads : 1);
	n->reached = run->cfg->loops_each ? n->samples : furthest;
}

/* Also for a run stopped by a signal or -b: it reports what it measured. */
static int report_text(void *p, struct lj_tool *t, int ret)
{
	struct cyc_run *run = &((struct cyc_tool *)p)->run;

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
}

static const struct lj_tool_ops cyc_ops = {
	.name = "lj-cyclic", .size = sizeof(struct cyc_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .start = start, .go = go,
	.wait = wait_run, .counts = counts, .report_text = report_text, .report_json = report_json,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&cyc_ops, argc, argv);
}
