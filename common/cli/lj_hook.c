// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_hook - what runs beside a measurement: flight recorder, samplers, validity checks. */
#include "lj_hook.h"

#include <errno.h>
#include <string.h>

#include "lj_hot.h"

static void recompute_threshold(struct lj_hooks *hs)
{
	uint64_t t = UINT64_MAX;
	int nlate = 0;

	for (int i = 0; i < hs->n; i++) {
		if (!hs->h[i].started || !hs->h[i].ops->late)
			continue;
		nlate++;
		if (hs->h[i].threshold_ns < t)
			t = hs->h[i].threshold_ns;
	}
	atomic_store_explicit(&hs->inv_threshold_ns, ~t, memory_order_relaxed);
	atomic_store_explicit(&hs->nlate, nlate, memory_order_relaxed);
}

const struct lj_hooks lj_hooks_none;

void lj_hooks_init(struct lj_hooks *hs)
{
	memset(hs, 0, sizeof(*hs));
	atomic_store_explicit(&hs->inv_threshold_ns, 0, memory_order_relaxed);	/* nothing wanted */
	atomic_store_explicit(&hs->nlate, 0, memory_order_relaxed);
}

int lj_hooks_add(struct lj_hooks *hs, const struct lj_hook_ops *ops, void *priv,
		 uint64_t threshold_ns)
{
	if (hs->n >= LJ_HOOKS_MAX)
		return -ENOSPC;
	hs->h[hs->n++] = (struct lj_hook){ .ops = ops, .priv = priv,
					   .threshold_ns = threshold_ns };
	return 0;
}

void lj_hooks_set_threshold(struct lj_hooks *hs, int i, uint64_t threshold_ns)
{
	if (i < 0 || i >= hs->n)
		return;
	hs->h[i].threshold_ns = threshold_ns;
	recompute_threshold(hs);
}

int lj_hooks_start(struct lj_hooks *hs, const struct lj_run_desc *run)
{
	int failed = 0;

	for (int i = 0; i < hs->n; i++) {
		struct lj_hook *h = &hs->h[i];

		h->start_err = h->ops->start ? h->ops->start(h->priv, run) : 0;
		h->started = h->start_err == 0;
		failed += !h->started;
	}
	recompute_threshold(hs);
	return failed;
}

/* Run on the measuring threads: LJ_HOT, as every hook's late(). */
void LJ_HOT lj_hooks_late(const struct lj_hooks *hs, const struct lj_late *ev)
{
	uint64_t lat = ev->ran_ns > ev->due_ns ? ev->ran_ns - ev->due_ns : 0;

	for (int i = 0; i < hs->n; i++) {
		const struct lj_hook *h = &hs->h[i];

		if (!h->started || !h->ops->late)
			continue;
		if (ev->kind != LJ_LATE_SAMPLE || lat > h->threshold_ns)
			h->ops->late(h->priv, ev);
	}
}

void lj_hooks_threads(const struct lj_hooks *hs, const struct lj_run_thread *th, int n)
{
	for (int i = 0; hs && i < hs->n; i++)
		if (hs->h[i].started && hs->h[i].ops->threads)
			hs->h[i].ops->threads(hs->h[i].priv, th, n);
}

void lj_hooks_poll(const struct lj_hooks *hs)
{
	for (int i = 0; hs && i < hs->n; i++)
		if (hs->h[i].started && hs->h[i].ops->poll)
			hs->h[i].ops->poll(hs->h[i].priv);
}

void lj_hooks_stop(struct lj_hooks *hs)
{
	for (int i = 0; i < hs->n; i++)
		if (hs->h[i].started && hs->h[i].ops->stop)
			hs->h[i].ops->stop(hs->h[i].priv);
	atomic_store_explicit(&hs->inv_threshold_ns, 0, memory_order_relaxed);	/* nothing wanted */
}

int lj_hooks_contribute(struct lj_hooks *hs, struct lj_result *res)
{
	int first = 0;

	for (int i = 0; i < hs->n; i++) {
		struct lj_hook *h = &hs->h[i];
		int err;

		if (!h->started || !h->ops->contribute || !res)
			continue;
		err = h->ops->contribute(h->priv, res);
		if (err && !first)
			first = err;
	}
	return first;
}

void lj_hooks_report(struct lj_hooks *hs, FILE *out)
{
	for (int i = 0; i < hs->n; i++)
		if (hs->h[i].started && hs->h[i].ops->report)
			hs->h[i].ops->report(hs->h[i].priv, out);
}

void lj_hooks_free(struct lj_hooks *hs)
{
	for (int i = 0; i < hs->n; i++)
		if (hs->h[i].ops->free)
			hs->h[i].ops->free(hs->h[i].priv);
	lj_hooks_init(hs);
}
