// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_perfetto_hook - --perfetto's hook: the late samples of a run, kept for the trace written after it. */
#include "lj_perfetto.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lj_hot.h"
#include "lj_time.h"
#include "lj_topk.h"

#define MAX_TOLD 1024	/* threads named in the trace */

/* One measuring thread's largest samples: written by that thread only, read after stop. */
struct pf_slot {
	pid_t tid;
	int ntop;
	struct lj_pf_sample top[LJ_PERFETTO_TOPK];
};

struct lj_perfetto {
	uint64_t threshold_ns;
	int nslots;
	struct pf_slot *slot;
	struct lj_pf_sample *pool;	/* missed periods; every sample above a threshold */
	_Atomic int npool;		/* claimed (past LJ_PERFETTO_POOL: not kept, counted) */
	_Atomic uint64_t unmatched;	/* from a thread without a slot */
	struct lj_pf_thread told[MAX_TOLD];
	int ntold;
	uint64_t start_ns, stop_ns;
};

int lj_perfetto_add(struct lj_hooks *hs, uint64_t threshold_ns, struct lj_perfetto **out)
{
	struct lj_perfetto *p = calloc(1, sizeof(*p));
	int err;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->threshold_ns = threshold_ns;
	err = lj_hooks_add(hs, &lj_perfetto_ops, p, threshold_ns);
	if (err)
		free(p);
	else
		*out = p;
	return err;
}

/* Remember @th for the trace's thread names (each tid once). */
static void tell(struct lj_perfetto *p, const struct lj_run_thread *th, int n)
{
	for (int i = 0; i < n; i++) {
		int k = 0;

		while (k < p->ntold && p->told[k].tid != th[i].tid)
			k++;
		if (k == p->ntold && p->ntold < MAX_TOLD)
			p->told[p->ntold++] = (struct lj_pf_thread){ th[i].tid, th[i].index, th[i].measured };
	}
}

static int start(void *priv, const struct lj_run_desc *run)
{
	struct lj_perfetto *p = priv;
	bool named = run->nthreads > 0 && run->nthreads <= LJ_PERFETTO_SLOTS;

	p->nslots = named ? run->nthreads : LJ_PERFETTO_SLOTS;
	p->slot = calloc((size_t)p->nslots, sizeof(*p->slot));
	p->pool = malloc(LJ_PERFETTO_POOL * sizeof(*p->pool));
	if (!p->slot || !p->pool)
		return -ENOMEM;
	/* Touched now: a measuring thread must not take the page faults (mlockall on fault). */
	memset(p->pool, 0, LJ_PERFETTO_POOL * sizeof(*p->pool));
	for (int i = 0; named && i < p->nslots; i++)
		p->slot[i].tid = run->threads[i].tid;
	tell(p, run->threads, run->threads ? run->nthreads : 0);
	p->start_ns = (uint64_t)lj_now_ns();
	return 0;
}

static void threads(void *priv, const struct lj_run_thread *th, int n)
{
	struct lj_perfetto *p = priv;

	for (int i = 0; i < n; i++)
		if (th[i].measured && th[i].index >= 0 && th[i].index < p->nslots)
			p->slot[th[i].index].tid = th[i].tid;
	tell(p, th, n);
}

static struct pf_slot *LJ_HOT slot_of(struct lj_perfetto *p, const struct lj_late *ev)
{
	if (ev->index >= 0 && ev->index < p->nslots &&
	    (p->slot[ev->index].tid == ev->tid || p->slot[ev->index].tid == 0))
		return &p->slot[ev->index];
	for (int i = 0; i < p->nslots; i++)
		if (p->slot[i].tid == ev->tid)
			return &p->slot[i];
	return NULL;
}

static void LJ_HOT late(void *priv, const struct lj_late *ev)
{
	struct lj_perfetto *p = priv;
	struct lj_pf_sample s = { .lat = ev->ran_ns > ev->due_ns ? ev->ran_ns - ev->due_ns : 0,
				  .kind = ev->kind, .cpu = ev->cpu, .index = ev->index, .tid = ev->tid,
				  .due_ns = ev->due_ns, .ran_ns = ev->ran_ns };
	struct pf_slot *sl;
	int k;

	if (ev->kind == LJ_LATE_FRAME_DROPPED || ev->kind == LJ_LATE_FRAME_JANKY)
		return;		/* lj-frame writes its frames itself */
	if (ev->kind == LJ_LATE_SAMPLE && !p->threshold_ns) {
		sl = slot_of(p, ev);
		if (!sl)
			atomic_fetch_add_explicit(&p->unmatched, 1, memory_order_relaxed);
		else if (lj_topk_enters(sl->top, sl->ntop, LJ_PERFETTO_TOPK, s.lat))
			lj_topk_add(sl->top, &sl->ntop, LJ_PERFETTO_TOPK, sizeof(s), &s);
		return;
	}
	k = atomic_fetch_add_explicit(&p->npool, 1, memory_order_relaxed);
	if (k < LJ_PERFETTO_POOL)
		p->pool[k] = s;
}

static void stop(void *priv)
{
	struct lj_perfetto *p = priv;

	p->stop_ns = (uint64_t)lj_now_ns();
}

static void free_(void *priv)
{
	struct lj_perfetto *p = priv;

	if (!p)
		return;
	free(p->slot);
	free(p->pool);
	free(p);
}

const struct lj_hook_ops lj_perfetto_ops = {
	.name = "perfetto",
	.start = start,
	.late = late,
	.stop = stop,
	.free = free_,
	.threads = threads,
};

/* By thread, then due time; for one wake-up told twice, the missed period first. */
static int by_tid_due(const void *a, const void *b)
{
	const struct lj_pf_sample *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->due_ns != y->due_ns)
		return x->due_ns < y->due_ns ? -1 : 1;
	return (x->kind == LJ_LATE_SAMPLE) - (y->kind == LJ_LATE_SAMPLE);
}

struct lj_pf_sample *lj_perfetto_samples(const struct lj_perfetto *p, size_t *n, uint64_t *dropped,
					 int *err)
{
	int npool = atomic_load(&p->npool), kept = npool < LJ_PERFETTO_POOL ? npool : LJ_PERFETTO_POOL;
	size_t total = (size_t)kept, k = 0, out = 0;
	struct lj_pf_sample *all;

	*n = 0;
	*err = 0;
	*dropped = (uint64_t)(npool - kept) + atomic_load(&p->unmatched);
	for (int i = 0; i < p->nslots; i++)
		total += (size_t)p->slot[i].ntop;
	if (!total)
		return NULL;
	all = malloc(total * sizeof(*all));
	if (!all) {
		*err = -ENOMEM;
		return NULL;
	}
	for (int i = 0; i < p->nslots; i++)
		for (int j = 0; j < p->slot[i].ntop; j++)
			all[k++] = p->slot[i].top[j];
	if (kept)
		memcpy(all + k, p->pool, (size_t)kept * sizeof(*all));
	qsort(all, total, sizeof(*all), by_tid_due);
	for (size_t i = 0; i < total; i++)
		if (!out || all[out - 1].tid != all[i].tid || all[out - 1].due_ns != all[i].due_ns ||
		    all[out - 1].ran_ns != all[i].ran_ns)
			all[out++] = all[i];
	*n = out;
	return all;
}

const struct lj_pf_thread *lj_perfetto_threads(const struct lj_perfetto *p, int *n)
{
	*n = p->ntold;
	return p->told;
}

void lj_perfetto_window(const struct lj_perfetto *p, uint64_t *start_ns, uint64_t *stop_ns)
{
	*start_ns = p->start_ns;
	*stop_ns = p->stop_ns ? p->stop_ns : p->start_ns;
}

uint64_t lj_perfetto_threshold(const struct lj_perfetto *p)
{
	return p->threshold_ns;
}
