// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_explain_stream - drain the recorder while the run goes, keeping the events around late samples. */
#include "lj_explain_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lj_cpus.h"
#include "lj_hot.h"
#include "lj_tev.h"
#include "lj_time.h"
#include "lj_trace.h"

#define RING_TOTAL 65536	/* notifications in flight, all producers (1 MiB) */
#define RING_MIN 64
#define MAXWIN 8192		/* windows kept; more are merged into their neighbours */
#define AFTER_NS 1000000ULL

/* One producer's notifications: it writes head, the reader tail. */
struct ring {
	_Atomic uint32_t head, tail;
	struct lj_tev_window *w;	/* s->ring slots */
};

struct lj_explain_stream {
	struct lj_trace *trace;
	int n;
	uint32_t ring;			/* slots per producer */
	struct ring *rings;
	struct lj_tev_window *slots;
	struct lj_tev_window *win;
	size_t nwin;
	pthread_t th;
	bool started;
	_Atomic int stop;
	_Atomic uint64_t dropped;
	int err;
	cpu_set_t avoid;
	struct lj_explain_stream_cost cost;	/* written by the reader before it ends */
};

void LJ_HOT lj_explain_stream_notify(struct lj_explain_stream *s, int p, uint64_t due_ns,
			      uint64_t ran_ns)
{
	struct ring *r;
	uint32_t h;

	if (!s || p < 0 || p >= s->n) {
		if (s)
			atomic_fetch_add_explicit(&s->dropped, 1, memory_order_relaxed);
		return;
	}
	r = &s->rings[p];
	h = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (h - atomic_load_explicit(&r->tail, memory_order_acquire) >= s->ring) {
		atomic_fetch_add_explicit(&s->dropped, 1, memory_order_relaxed);
		return;
	}
	r->w[h % s->ring] = (struct lj_tev_window){
		due_ns > LJ_EXPLAIN_STREAM_BEFORE_NS ? due_ns - LJ_EXPLAIN_STREAM_BEFORE_NS : 0,
		ran_ns + AFTER_NS };
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

static int by_from(const void *a, const void *b)
{
	const struct lj_tev_window *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* Sorted, overlapping windows merged; when still too many, neighbours merged pairwise. */
static void tidy(struct lj_explain_stream *s)
{
	size_t k = 0;

	qsort(s->win, s->nwin, sizeof(*s->win), by_from);
	for (size_t i = 0; i < s->nwin; i++) {
		if (k && s->win[i].from <= s->win[k - 1].to) {
			if (s->win[i].to > s->win[k - 1].to)
				s->win[k - 1].to = s->win[i].to;
		} else {
			s->win[k++] = s->win[i];
		}
	}
	s->nwin = k;
	while (s->nwin > MAXWIN / 2) {
		k = 0;
		for (size_t i = 0; i + 1 < s->nwin; i += 2)
			s->win[k++] = (struct lj_tev_window){ s->win[i].from, s->win[i + 1].to };
		if (s->nwin % 2)
			s->win[k++] = s->win[s->nwin - 1];
		s->nwin = k;
	}
}

static void take_notifications(struct lj_explain_stream *s)
{
	for (int p = 0; p < s->n; p++) {
		struct ring *r = &s->rings[p];
		uint32_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
		uint32_t h = atomic_load_explicit(&r->head, memory_order_acquire);

		for (; t != h && s->nwin < MAXWIN; t++)
			s->win[s->nwin++] = r->w[t % s->ring];
		atomic_store_explicit(&r->tail, t, memory_order_release);
		tidy(s);
	}
}

static void *reader(void *arg)
{
	struct lj_explain_stream *s = arg;
	const struct timespec period = lj_ns_to_ts(LJ_EXPLAIN_STREAM_PERIOD_NS);

	/* Its reads and decoding must not land on the CPUs measured (nor be recorded there). */
	s->cost.apart = !CPU_COUNT(&s->avoid) || lj_cpus_keep_off(&s->avoid);
	while (!atomic_load(&s->stop) && !s->err) {
		uint64_t now, hold;

		nanosleep(&period, NULL);
		s->cost.passes++;
		/* The windows first: the BPF recorder copies out only what they ask for. */
		take_notifications(s);
		now = (uint64_t)lj_now_ns();
		hold = now > LJ_EXPLAIN_STREAM_RECENT_NS ? now - LJ_EXPLAIN_STREAM_RECENT_NS : 0;
		s->err = lj_trace_drain_keep(s->trace, hold, s->win, s->nwin);
		/* And those of the samples late while it read (tracefs read everything). */
		take_notifications(s);
		now = (uint64_t)lj_now_ns();
		if (now > LJ_EXPLAIN_STREAM_RECENT_NS)
			lj_trace_prune(s->trace, now - LJ_EXPLAIN_STREAM_RECENT_NS, s->win, s->nwin);
	}
	s->cost.cpu_ns = (uint64_t)lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

int lj_explain_stream_start(struct lj_explain_stream **out, struct lj_trace *t, int nproducers,
			    const cpu_set_t *avoid)
{
	struct lj_explain_stream *s = calloc(1, sizeof(*s));
	int err;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->trace = t;
	if (avoid)
		s->avoid = *avoid;
	s->n = nproducers > 0 ? nproducers : 1;
	s->ring = RING_TOTAL / (uint32_t)s->n > RING_MIN ? RING_TOTAL / (uint32_t)s->n : RING_MIN;
	s->rings = calloc((size_t)s->n, sizeof(*s->rings));
	s->slots = calloc((size_t)s->n * s->ring, sizeof(*s->slots));
	s->win = calloc(MAXWIN, sizeof(*s->win));
	if (!s->rings || !s->slots || !s->win) {
		lj_explain_stream_free(s);
		return -ENOMEM;
	}
	for (int p = 0; p < s->n; p++)
		s->rings[p].w = s->slots + (size_t)p * s->ring;
	err = -pthread_create(&s->th, NULL, reader, s);
	if (err) {
		lj_explain_stream_free(s);
		return err;
	}
	s->started = true;
	pthread_setname_np(s->th, "lj-explain");	/* in ps, beside lj-power */
	*out = s;
	return 0;
}

int lj_explain_stream_stop(struct lj_explain_stream *s)
{
	if (!s || !s->started)
		return 0;
	atomic_store(&s->stop, 1);
	pthread_join(s->th, NULL);
	s->started = false;
	return s->err;
}

uint64_t lj_explain_stream_dropped(const struct lj_explain_stream *s)
{
	return s ? atomic_load(&s->dropped) : 0;
}

void lj_explain_stream_cost(const struct lj_explain_stream *s, struct lj_explain_stream_cost *c)
{
	*c = s && !s->started ? s->cost : (struct lj_explain_stream_cost){ 0 };
}

void lj_explain_stream_free(struct lj_explain_stream *s)
{
	if (!s)
		return;
	lj_explain_stream_stop(s);
	free(s->rings);
	free(s->slots);
	free(s->win);
	free(s);
}
