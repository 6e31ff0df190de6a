// SPDX-License-Identifier: GPL-2.0-or-later
/* forward.c - forked receivers' late messages, handed to the hooks by a thread of main while the run goes. */
#include "hb.h"

#include <signal.h>
#include <time.h>

#include "lj_stop.h"

/*
 * Often enough that a late message reaches the recorder well inside the
 * second of trace it keeps besides the notified windows
 * (LJ_EXPLAIN_STREAM_RECENT_NS); a ring of HB_LATE_RING fills only if one
 * receiver is late that often within one period.
 */
#define FORWARD_PERIOD_NS (20 * LJ_NSEC_PER_MSEC)

bool hb_late_push(struct hb_late_ring *ring, const struct hb_late_rec *rec)
{
	uint32_t h = ring->head;

	if (h - __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) >= HB_LATE_RING) {
		ring->dropped++;
		return false;
	}
	ring->rec[h % HB_LATE_RING] = *rec;
	__atomic_store_n(&ring->head, h + 1, __ATOMIC_RELEASE);
	return true;
}

/* Hand every receiver's new late messages to the hooks (main's thread only). */
static void drain(struct hb_run *run)
{
	for (unsigned int i = 0; i < run->nworkers; i++) {
		struct hb_late_ring *ring;
		uint32_t head, tail;

		if (run->w[i].sender)
			continue;
		ring = hb_slot_ring(run, i);
		head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
		for (tail = ring->tail; tail != head; tail++) {
			const struct hb_late_rec *r = &ring->rec[tail % HB_LATE_RING];
			struct lj_late ev = { .kind = LJ_LATE_SAMPLE, .cpu = r->cpu, .tid = r->tid,
					      .index = (int)i, .due_ns = r->due_ns, .ran_ns = r->ran_ns };

			lj_hooks_late(run->hooks, &ev);
		}
		__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	}
}

static void *forwarder(void *arg)
{
	struct hb_run *run = arg;
	struct timespec period = { 0, FORWARD_PERIOD_NS };

	while (!atomic_load_explicit(&run->forward_stop, memory_order_acquire)) {
		drain(run);
		nanosleep(&period, NULL);
	}
	return NULL;
}

int hb_forward_start(struct hb_run *run)
{
	uint64_t threshold = lj_hooks_threshold(run->hooks);
	sigset_t block, old;
	int err;

	if (!run->ring_off)
		return 0;
	for (unsigned int i = 0; i < run->nworkers; i++)
		if (!run->w[i].sender)
			hb_slot_ring(run, i)->threshold_ns = threshold;
	/* Stop signals go to main, whose reap they interrupt. */
	lj_stop_signals(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = -pthread_create(&run->forwarder, NULL, forwarder, run);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	run->forwarding = !err;
	return err;
}

void hb_forward_stop(struct hb_run *run)
{
	if (!run->ring_off)
		return;
	if (run->forwarding) {
		atomic_store_explicit(&run->forward_stop, true, memory_order_release);
		pthread_join(run->forwarder, NULL);
		run->forwarding = false;
	}
	drain(run);
	run->forward_dropped = 0;
	for (unsigned int i = 0; i < run->nworkers; i++)
		if (!run->w[i].sender)
			run->forward_dropped += hb_slot_ring(run, i)->dropped;
}
