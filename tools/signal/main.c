// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-signal: signal ping-pong latency around a ring of threads (its lifecycle phases). */
#include "sig.h"

#include <errno.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_tool.h"

struct sig_tool {
	struct sig_config cfg;
	struct sig_ring ring;
};

static int parse(void *p, int argc, char **argv)
{
	struct sig_tool *s = p;

	sig_config_init(&s->cfg);
	return sig_parse(&s->cfg, argc, argv);
}

static void describe(void *p, struct lj_tool_desc *d)
{
	struct sig_tool *s = p;

	d->json = s->cfg.json;
	d->setup = &s->cfg.setup;
	d->mlock = s->cfg.mlock;
	d->explain = &s->cfg.explain;
	d->trace_sample = "late hop";	/* --perfetto's slices */
}

static int prepare(void *p, struct lj_tool *t)
{
	struct sig_tool *s = p;
	int ret = sig_ring_init(&s->ring, &s->cfg, &t->topo);

	if (ret < 0)
		lj_error_errno(ret, "cannot set up the ring");
	return ret;
}

/* The ring's threads exist, set up, waiting for the token. */
static int start(void *p, struct lj_tool *t, struct lj_run_desc *run)
{
	struct sig_tool *s = p;
	struct sig_ring *r = &s->ring;
	struct lj_run_thread *th = lj_tool_threads(t, r->n);
	int ret;

	if (!th)
		return -ENOMEM;
	r->mlocked = t->mlocked;
	r->hooks = &t->hooks;
	ret = sig_ring_start(r);
	if (!ret && r->first_pin_err) {
		char detail[96];

		snprintf(detail, sizeof(detail), "thread %d to CPU %d: %s", r->pin_fail_thread,
			 r->pin_fail_cpu, lj_strerror(r->first_pin_err));
		ret = lj_tool_fallback(t, "affinity", r->first_pin_err, detail);
	}
	if (!ret && r->sched_fallback)
		ret = lj_tool_policy_fallback(t, "policy", r->first_sched_err, NULL);
	if (ret) {
		sig_ring_stop(r);
		return ret;
	}
	/* a thread refused its policy runs SCHED_OTHER (the fallback, recorded apart) */
	for (int i = 0; i < r->n; i++)
		th[i] = (struct lj_run_thread){ r->th[i].tid, i,
			r->th[i].sched_err ? LJ_POLICY_OTHER : (int)s->cfg.policy,
			r->th[i].sched_err ? 0 : s->cfg.priority, true };
	run->measured = r->measured;
	return 0;
}

static int go(void *p, struct lj_tool *t)
{
	return sig_ring_go(&((struct sig_tool *)p)->ring);
}

static int wait_ring(void *p, struct lj_tool *t)
{
	return sig_ring_wait(&((struct sig_tool *)p)->ring);
}

/* Every thread counts one hop per round trip: -l round trips each. */
static void counts(void *p, struct lj_tool_counts *n)
{
	struct sig_ring *r = &((struct sig_tool *)p)->ring;

	for (int i = 0; i < r->n; i++)
		if (r->th[i].hop) {
			n->samples += lj_hist_count(r->th[i].hop);
			n->overflows += lj_hist_overflows(r->th[i].hop);
		}
	n->expected = r->cfg->loops * (uint64_t)r->n;
	n->reached = n->samples;
}

static int report_text(void *p, struct lj_tool *t, int ret)
{
	sig_report_final(&((struct sig_tool *)p)->ring);
	return 0;
}

static int report_json(void *p, struct lj_tool *t, struct lj_result *res, bool started, int ret)
{
	if (!started)
		return 0;	/* the ring never ran: the document says only how it ended */
	return sig_report_json(&((struct sig_tool *)p)->ring, res) ? LJ_EXIT_RUNTIME : 0;
}

static void free_tool(void *p)
{
	struct sig_tool *s = p;

	sig_ring_free(&s->ring);
}

static const struct lj_tool_ops sig_ops = {
	.name = "lj-signal", .size = sizeof(struct sig_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .start = start, .go = go,
	.wait = wait_ring, .counts = counts, .report_text = report_text, .report_json = report_json,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&sig_ops, argc, argv);
}
