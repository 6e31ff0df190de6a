// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-signal: signal ping-pong latency around a ring of threads (its lifecycle phases). */
#include "sig.h"

#include <errno.h>
#include <stdlib.h>

#include "lj_err.h"
#include "lj_tool.h"
#include "lj_validity_hook.h"

struct sig_tool {
	struct sig_config cfg;
	struct sig_ring ring;
	pid_t *tids;
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
}

static int prepare(void *p, struct lj_tool *t)
{
	struct sig_tool *s = p;
	int ret = sig_ring_init(&s->ring, &s->cfg, &t->topo);

	if (ret < 0)
		lj_error_errno(ret, "cannot set up the ring");
	return ret;
}

/* The validity verdict runs beside every lj-signal run. */
static int hooks(void *p, struct lj_tool *t)
{
	return lj_vhook_add(&t->hooks, &((struct sig_tool *)p)->ring.validity);
}

/* The ring's threads exist, set up, waiting for the token. */
static int start(void *p, struct lj_tool *t, struct lj_run_desc *run)
{
	struct sig_tool *s = p;
	struct sig_ring *r = &s->ring;
	int ret;

	r->mlocked = t->mlocked;
	r->hooks = &t->hooks;
	s->tids = calloc(r->n, sizeof(*s->tids));
	if (!s->tids) {
		lj_error("out of memory");
		return -ENOMEM;
	}
	ret = sig_ring_start(r);
	if (!ret && r->first_pin_err) {
		char detail[96];

		snprintf(detail, sizeof(detail), "thread %d to CPU %d: %s", r->pin_fail_thread,
			 r->pin_fail_cpu, lj_strerror(r->first_pin_err));
		ret = lj_tool_fallback(t, "affinity", r->first_pin_err, detail);
	}
	if (!ret && r->sched_fallback)
		ret = lj_tool_fallback(t, "policy", r->first_sched_err, NULL);
	if (ret) {
		sig_ring_stop(r);
		return ret;
	}
	for (int i = 0; i < r->n; i++)
		s->tids[i] = r->th[i].tid;
	run->measured = r->measured;
	run->tids = s->tids;
	run->ntids = r->n;
	run->policy = r->sched_fallback ? LJ_POLICY_OTHER : s->cfg.policy;
	run->prio = r->sched_fallback ? 0 : s->cfg.priority;
	return 0;
}

static int go(void *p, struct lj_tool *t)
{
	struct sig_ring *r = &((struct sig_tool *)p)->ring;

	sig_validity_expect(r);
	return sig_ring_go(r);
}

static int wait_ring(void *p, struct lj_tool *t)
{
	struct sig_ring *r = &((struct sig_tool *)p)->ring;
	int ret = sig_ring_wait(r);

	sig_validity_counts(r);
	return ret;
}

static int report_text(void *p, struct lj_tool *t, int ret)
{
	struct sig_ring *r = &((struct sig_tool *)p)->ring;

	lj_vhook_fallbacks(r->validity, t->setup_rec);
	sig_report_final(r);
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
	free(s->tids);
}

static const struct lj_tool_ops sig_ops = {
	.name = "lj-signal", .size = sizeof(struct sig_tool),
	.parse = parse, .describe = describe, .prepare = prepare, .hooks = hooks, .start = start, .go = go,
	.wait = wait_ring, .report_text = report_text, .report_json = report_json, .free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&sig_ops, argc, argv);
}
