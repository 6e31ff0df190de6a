/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hb.h - lj-hackbench's configuration, channels, workers and the phases main() wires. */
#ifndef LJ_HB_H
#define LJ_HB_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "lj_explain_hook.h"
#include "lj_hook.h"
#include "lj_opt.h"
#include "lj_result.h"
#include "lj_sched.h"
#include "lj_setupopt.h"
#include "lj_topk.h"
#include "stamp.h"

struct lj_hist;

enum hb_transport {
	HB_SOCKET,		/* AF_UNIX stream socketpair (hackbench's default) */
	HB_PIPE,		/* pipe(2), -p */
	HB_INET,		/* TCP over 127.0.0.1, -i */
	HB_MQ,			/* POSIX message queue, --transport mq */
};

enum hb_mode { HB_PROCESS, HB_THREAD };

/* A message carries its send time in its first bytes when it is this long. */
#define HB_STAMP_BYTES 8
#define HB_PIPE_ATOMIC 4096		/* PIPE_BUF: longer writes may interleave */
#define HB_MQ_MAXMSG 10			/* per queue, the kernel's default msg_max */

struct hb_config {
	unsigned int groups;		/* -g */
	unsigned int fds;		/* -f: senders and receivers per group */
	unsigned int loops;		/* -l: messages per sender per receiver */
	unsigned int datasize;		/* -s */
	struct lj_explain_opts explain;	/* --explain; .explain false: not asked */
	enum hb_mode mode;		/* -T / -P */
	enum hb_transport transport;
	const char *transport_opt;	/* the option that chose it, for conflicts */
	bool fifo;			/* -F: main thread SCHED_FIFO 1, as hackbench */
	bool load;			/* load mode: until --duration or a signal */
	int64_t duration_ns;		/* --duration, 0: until a signal (load mode) */
	enum lj_policy policy;		/* workers' policy */
	int priority;
	bool policy_given;
	bool quiet;			/* no per-second lines in load mode */
	bool percentiles;
	bool no_latency;		/* --no-latency: hackbench's exact per-message work */
	bool no_tsc;			/* --no-tsc: stamps from clock_gettime even where the TSC is the clock */
	const char *json;
	struct lj_setupopt setup;
};

/* One sender-to-receiver channel: a pipe, a socket pair or a queue. */
struct hb_chan {
	int rfd, wfd;			/* -1 once closed here; for mq both are the queue */
};

/*
 * What each worker leaves for main, in memory shared across fork: live
 * message counts (relaxed atomics, read every second in load mode). A
 * receiver's latency histogram lives right after its slot (when messages
 * carry stamps), in the same shared mapping: the receiver adds to it,
 * main merges it after the reap, nothing is copied.
 */
struct hb_slot {
	uint64_t msgs;			/* messages sent or received so far */
	uint64_t bad;			/* receiver: messages whose stamp was not plausible */
	uint64_t partial;		/* receiver: bytes left over at EOF */
	int err;			/* -errno that ended the worker, 0 */
	int sched_err;			/* -errno of applying --policy, 0 */
	pid_t tid;			/* the worker's thread (process mode: its pid), set before it is ready */
	int hist_done;			/* receiver: its histogram is complete */
};

/*
 * Process mode with hooks that want late messages (--explain): each
 * receiver's slot holds a ring of its late messages, which a thread of
 * main hands to the hooks while the run goes (forward.c), soon enough for
 * the recorder to keep the trace around them. One writer (the receiver),
 * one reader (main). A receiver's running top LJ_EXPLAIN_TOPK (below)
 * takes in about K (1 + ln(N / K)) of N messages: under 700 of a million,
 * so the ring fills only with a threshold most messages pass.
 */
#define HB_LATE_RING 1024
struct hb_late_rec {
	uint64_t due_ns, ran_ns;	/* CLOCK_MONOTONIC: the send and the receipt */
	int cpu;
	pid_t tid;
};
struct hb_late_ring {
	uint32_t head;			/* written by the receiver */
	uint32_t tail;			/* written by main */
	uint64_t threshold_ns;		/* the hooks' threshold, set by main before the start */
	uint64_t dropped;		/* late messages the full ring could not take */
	struct hb_late_rec rec[HB_LATE_RING];
};

/*
 * A hook that wants every sample (--explain's default) keeps each
 * thread's LJ_EXPLAIN_TOPK largest, so a receiver hands back only the
 * messages that enter its own running top LJ_EXPLAIN_TOPK: the same set,
 * at a compare per message (lj_topk).
 */
struct hb_topk {
	int n;
	uint64_t v[LJ_EXPLAIN_TOPK];
};

/* Address ranges of the libraries a forked worker unmaps (unmap.c). */
#define HB_MAX_LIBSPANS 16
struct hb_libspans {
	uintptr_t lo[HB_MAX_LIBSPANS], hi[HB_MAX_LIBSPANS];
	int n;
};

struct hb_worker {
	unsigned int group, index;
	bool sender;
	pid_t pid;
	pthread_t pt;
	bool started;
	struct hb_run *run;
};

struct hb_run {
	struct hb_config *cfg;
	unsigned int nworkers, nrecv;
	struct hb_worker *w;		/* receivers of group g, then its senders, per group */
	struct hb_chan *chan;		/* one per receiver */
	void *shm;			/* nworkers slots, each with room for a histogram with stamps */
	size_t slot_size, shm_size;
	size_t hist_off;		/* a slot's histogram, 0: none (no stamps) */
	size_t ring_off;		/* a receiver slot's hb_late_ring, 0: none (forward.c) */
	pthread_t forwarder;		/* main's thread that empties the rings */
	bool forwarding;
	_Atomic bool forward_stop;
	uint64_t forward_dropped;	/* late messages lost to a full ring */
	int ready[2], wake[2];
	pid_t pgid;			/* process mode: the workers' process group */
	pid_t parent;
	struct hb_libspans parent_libs;	/* process mode: what a forked worker unmaps */
	bool stamps;			/* messages carry send times */
	const char *no_stamp_why;
	struct hb_tsc tsc;		/* what stamps are read from, and their rate */
	char tsc_why[64];		/* why stamps are not TSC ticks */
	uint64_t floor;			/* stamps before this are not plausible */
	int64_t start_ns, end_ns;
	unsigned int started;
	const struct lj_hooks *hooks;	/* the driver's: thread-mode receivers report late messages, forward.c the others' */
	bool sched_fallback;
	int sched_err;			/* the first worker's refusal of --policy */
	int fifo_err;			/* -F refused for the main thread */
	/* load mode: messages received per second */
	uint64_t *per_sec;
	size_t nsec, cap_sec;
	/* results, filled by hb_run_collect */
	struct lj_hist *lat;
	uint64_t msgs, bad, partial;
	int worker_err;
	unsigned int failed_workers;
};

/* options.c */
void hb_config_init(struct hb_config *cfg);
int hb_parse(struct hb_config *cfg, int argc, char **argv);
const char *hb_transport_name(enum hb_transport t);

/*
 * One message over a pipe or socket: the message loops' own path, inline
 * and with the length in a register, so a message costs what it costs
 * hackbench (a write or read and a compare). Send: 0, -EINTR (nothing
 * sent) or -errno; half a message still goes out after EINTR, or the
 * stream would lose its framing.
 */
static inline int hb_stream_send(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR && done)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

/* Receive: @len, 0 at EOF, a short count for a message cut by EOF, or -errno. */
static inline ssize_t hb_stream_recv(int fd, char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* transport.c */
int hb_chan_open(struct hb_run *run, unsigned int idx, struct hb_chan *ch);
int hb_chan_send(const struct hb_run *run, const struct hb_chan *ch, const char *buf);
ssize_t hb_chan_recv(const struct hb_run *run, const struct hb_chan *ch, char *buf);
int hb_chan_end(const struct hb_run *run, struct hb_chan *ch);
void hb_chan_close_read(const struct hb_run *run, struct hb_chan *ch);
void hb_chan_close_write(const struct hb_run *run, struct hb_chan *ch);

/* limits.c */
int hb_check_limits(const struct hb_config *cfg);

/* The workers set a policy only when one is asked (--policy or --priority). */
static inline bool hb_policy_asked(const struct hb_config *cfg)
{
	return cfg->policy_given || cfg->priority;
}

/* The channels of group @group: one per receiver, senders use them all. */
static inline struct hb_chan *hb_group_chans(const struct hb_run *run, unsigned int group)
{
	return &run->chan[(size_t)group * run->cfg->fds];
}

/* The shared slot of worker @worker (in the mapping forked workers share). */
static inline struct hb_slot *hb_slot(const struct hb_run *run, unsigned int worker)
{
	return (struct hb_slot *)((char *)run->shm + (size_t)worker * run->slot_size);
}

/* The latency histogram of worker @worker, in its slot (only with stamps: lj_hist_init first). */
static inline struct lj_hist *hb_slot_hist(const struct hb_run *run, unsigned int worker)
{
	return (struct lj_hist *)((char *)hb_slot(run, worker) + run->hist_off);
}

/* A receiver's ring of late messages, in its slot (only with run->ring_off). */
static inline struct hb_late_ring *hb_slot_ring(const struct hb_run *run, unsigned int worker)
{
	return (struct hb_late_ring *)((char *)hb_slot(run, worker) + run->ring_off);
}

/* A receiver's running top K (inline: the message loop's), and forward.c's ring and thread. */
static inline bool hb_topk_enters(const struct hb_topk *k, uint64_t ns)
{
	return lj_topk_enters(k->v, k->n, LJ_EXPLAIN_TOPK, ns);
}
static inline void hb_topk_add(struct hb_topk *k, uint64_t ns)
{
	lj_topk_add(k->v, &k->n, LJ_EXPLAIN_TOPK, sizeof(k->v[0]), &ns);
}
/* Into @ring: false when it is full (counted in ring->dropped). */
bool hb_late_push(struct hb_late_ring *ring, const struct hb_late_rec *rec);
/* Main, as the workers start: tell the rings the hooks' threshold, start the thread. 0 or -errno. */
int hb_forward_start(struct hb_run *run);
/* Main, after the reap: stop the thread, hand over what is left. */
void hb_forward_stop(struct hb_run *run);

/* workers.c: the sender or receiver loop of @w; returns 0 or -errno. */
int hb_worker_main(struct hb_worker *w);

/* unmap.c: the parent finds the libraries only it calls, a forked worker unmaps them (objects or -errno). */
void hb_libspans_find(struct hb_libspans *sp);
int hb_libspans_unmap(const struct hb_libspans *sp);

/* run.c */
int hb_run_init(struct hb_run *run, struct hb_config *cfg);
/* Workers spawned and set up, waiting for the start; -errno after a message (the run is stopped). */
int hb_run_start(struct hb_run *run);
/* Start the clock and release the workers (also after a failed start: they leave). */
int hb_run_go(struct hb_run *run);
/* Ask every worker to stop (process mode: SIGTERM to their group). */
void hb_run_stop(struct hb_run *run);
int hb_run_wait(struct hb_run *run);
int hb_run_collect(struct hb_run *run);
void hb_run_free(struct hb_run *run);

/* report.c */
void hb_report_header(const struct hb_config *cfg);
void hb_report_second(const struct hb_run *run, size_t sec, uint64_t msgs);
void hb_report_final(const struct hb_run *run);
int hb_report_json(const struct hb_run *run, struct lj_result *res);

#endif
