// SPDX-License-Identifier: GPL-2.0-or-later
/* workers.c - lj-hackbench's senders and receivers: the measuring loops and the histogram hand-back. */
#include "hb.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_hist.h"
#include "lj_prefault.h"
#include "lj_stop.h"
#include "lj_time.h"

#define RSTORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* Tell main this worker is set up, then wait for the start (hackbench's ready/wake pipes). */
static void ready(struct hb_run *run)
{
	struct pollfd pfd = { .fd = run->wake[0], .events = POLLIN };
	char c = '*';

	while (write(run->ready[1], &c, 1) < 0 && errno == EINTR)
		;
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

/*
 * Each worker sets its own policy and leaves a refusal in its slot (shared
 * across fork), with its id for the read-back (lj-hackbench's main.c).
 */
static void apply_policy(const struct hb_run *run, struct hb_slot *slot)
{
	const struct hb_config *cfg = run->cfg;
	struct lj_sched_param sp = { .policy = cfg->policy, .priority = cfg->priority };

	slot->tid = gettid();
	if (hb_policy_asked(cfg))
		slot->sched_err = lj_sched_apply(0, &sp);
}

/* One message to channel @ch: the stream path inline (the run's settings in registers), queues out of line. */
static inline int send_one(const struct hb_run *run, const struct hb_chan *ch, bool mq,
			   const char *buf, size_t len)
{
	return mq ? hb_chan_send(run, ch, buf) : hb_stream_send(ch->wfd, buf, len);
}

static int sender(struct hb_worker *w, struct hb_slot *slot)
{
	struct hb_run *run = w->run;
	const struct hb_config *cfg = run->cfg;
	const struct hb_chan *ch = hb_group_chans(run, w->group);
	/* Copies the loop keeps in registers (stores through buf could alias the originals). */
	const size_t len = cfg->datasize;
	const unsigned int fds = cfg->fds, loops = cfg->loops;
	const bool stamps = run->stamps, mq = cfg->transport == HB_MQ, load = cfg->load;
	const struct hb_tsc tsc = run->tsc;
	char *buf = malloc(len);
	uint64_t sent = 0;
	int err = 0;

	apply_policy(run, slot);
	if (buf)
		memset(buf, '-', len);
	RSTORE(&slot->msgs, 0);		/* the slot's page faulted in before the clock starts */
	ready(run);
	if (!buf)
		return -ENOMEM;
	for (unsigned int i = 0; load || i < loops; i++) {
		if (lj_stop_requested())
			break;
		for (unsigned int j = 0; j < fds; j++) {
			if (stamps) {
				uint64_t now = hb_tsc_now(&tsc);

				memcpy(buf, &now, sizeof(now));
			}
			err = send_one(run, &ch[j], mq, buf, len);
			if (err) {
				if (err == -EINTR && lj_stop_requested())
					err = 0;
				goto out;
			}
			RSTORE(&slot->msgs, ++sent);
		}
	}
out:
	free(buf);
	return err;
}

/*
 * A late message's CLOCK_MONOTONIC times, anchored on a clock read here,
 * not extrapolated from the rate's pairing, so they stay exact however
 * long a load-mode run goes (and while NTP slews the clock).
 */
static struct hb_late_rec late_rec(const struct hb_tsc *tsc, const struct hb_slot *slot, uint64_t now,
				   int64_t ns)
{
	int64_t ran = tsc->on ? lj_now_ns() : (int64_t)now;

	return (struct hb_late_rec){ .due_ns = (uint64_t)(ran - ns), .ran_ns = (uint64_t)ran,
				     .cpu = sched_getcpu(), .tid = slot->tid };
}

/* A message above the hooks' threshold, in thread mode: to the hooks. */
static void message_late(const struct hb_worker *w, const struct hb_slot *slot, uint64_t now, int64_t ns)
{
	struct hb_late_rec r = late_rec(&w->run->tsc, slot, now, ns);
	struct lj_late ev = { .kind = LJ_LATE_SAMPLE, .cpu = r.cpu, .tid = r.tid,
			      .index = (int)(w->group * 2 * w->run->cfg->fds + w->index),
			      .due_ns = r.due_ns, .ran_ns = r.ran_ns };

	lj_hooks_late(w->run->hooks, &ev);
}

/*
 * A forked receiver's late message (above the hooks' threshold, and among
 * its largest when they want every sample): into its ring, for main's
 * thread to hand to the hooks (forward.c).
 */
static void message_late_forked(struct hb_late_ring *ring, struct hb_topk *top, const struct hb_slot *slot,
				const struct hb_tsc *tsc, uint64_t now, int64_t ns)
{
	struct hb_late_rec r = late_rec(tsc, slot, now, ns);

	if (!ring->threshold_ns)
		hb_topk_add(top, (uint64_t)ns);
	hb_late_push(ring, &r);
}

/* Where a forked receiver's late messages go: NULL in thread mode or without --explain. */
struct late_out {
	struct hb_late_ring *ring;
	uint64_t threshold_ns;		/* the hooks' at the start (0: every sample) */
	struct hb_topk top;		/* with threshold 0: the receiver's largest so far */
};

/* A received stamp: into the histogram, to the hooks when late; an implausible one is counted. */
static inline void take_stamp(const struct hb_worker *w, struct hb_slot *slot, struct lj_hist *h,
			      const char *buf, const struct hb_tsc *tsc, uint64_t floor, struct late_out *out)
{
	uint64_t now = hb_tsc_now(tsc), sent;
	int64_t ns;

	memcpy(&sent, buf, sizeof(sent));
	/* A stamp from before the run or from the future is not ours: count it. */
	if (sent < floor || sent > now) {
		slot->bad++;
		return;
	}
	ns = hb_tsc_ns(tsc, now - sent);
	lj_hist_add(h, ns);
	if (lj_hooks_wants(w->run->hooks, (uint64_t)ns))
		message_late(w, slot, now, ns);
	else if (out && (uint64_t)ns > out->threshold_ns &&
		 (out->threshold_ns || hb_topk_enters(&out->top, (uint64_t)ns)))
		message_late_forked(out->ring, &out->top, slot, tsc, now, ns);
}

static int receiver(struct hb_worker *w, struct hb_slot *slot)
{
	struct hb_run *run = w->run;
	const struct hb_config *cfg = run->cfg;
	const struct hb_chan *ch = &hb_group_chans(run, w->group)[w->index];
	/* Copies the loop keeps in registers (reads into buf could alias the originals). */
	const size_t len = cfg->datasize;
	const int fd = ch->rfd;
	const bool mq = cfg->transport == HB_MQ;
	const uint64_t floor = run->floor;
	const struct hb_tsc tsc = run->tsc;
	const uint64_t expected = cfg->load ? UINT64_MAX : (uint64_t)cfg->fds * cfg->loops;
	/* In the shared slot: main merges it after the reap, nothing to copy back. */
	struct lj_hist *h = run->stamps ? lj_hist_init(hb_slot_hist(run, (unsigned int)(w - run->w))) : NULL;
	char *buf = malloc(len);
	struct late_out *out = NULL;
	uint64_t got = 0;
	int err = 0;

	apply_policy(run, slot);
	if (h && run->ring_off)
		out = calloc(1, sizeof(*out));	/* before the clock: touched once here */
	RSTORE(&slot->msgs, 0);		/* the slot's page faulted in before the clock starts */
	/* the histogram's shared pages are zero until written: not inside the timed run */
	if (h)
		lj_prefault_range(h, lj_hist_size());
	ready(run);
	if (!buf || (h && run->ring_off && !out))
		return -ENOMEM;
	if (out) {
		/* main set the threshold before it released the workers */
		out->ring = hb_slot_ring(run, (unsigned int)(w - run->w));
		out->threshold_ns = out->ring->threshold_ns;
	}
	while (got < expected) {
		ssize_t n = mq ? hb_chan_recv(run, ch, buf) : hb_stream_recv(fd, buf, len);

		if (n <= 0) {
			err = (int)n;
			break;
		}
		if ((size_t)n < len) {
			slot->partial += (uint64_t)n;
			break;
		}
		/* Without stamps no clock read: --no-latency is hackbench's exact per-message work. */
		if (h)
			take_stamp(w, slot, h, buf, &tsc, floor, out);
		RSTORE(&slot->msgs, ++got);
	}
	__atomic_store_n(&slot->hist_done, 1, __ATOMIC_RELEASE);
	free(out);
	free(buf);
	return err;
}

int hb_worker_main(struct hb_worker *w)
{
	struct hb_run *run = w->run;
	struct hb_slot *slot = hb_slot(run, (unsigned int)(w - run->w));
	int err = w->sender ? sender(w, slot) : receiver(w, slot);

	slot->err = err;
	return err;
}

