// SPDX-License-Identifier: GPL-2.0-or-later
/* ring.c - the ring of threads passing one signal around, and its measuring loop. */
#include "sig.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_hist.h"
#include "lj_parse.h"
#include "lj_stop.h"
#include "lj_time.h"

#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define RLOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define RSTORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

static void live_add(struct sig_live *l, int64_t ns)
{
	uint64_t c = l->cycles;

	RSTORE(&l->act_ns, ns);
	if (!c || ns < l->min_ns)
		RSTORE(&l->min_ns, ns);
	if (!c || ns > l->max_ns)
		RSTORE(&l->max_ns, ns);
	RSTORE(&l->sum_ns, l->sum_ns + ns);
	RSTORE(&l->cycles, c + 1);
}

static void stop_ring(struct sig_ring *r)
{
	STORE(&r->stopping, 1);
}

/* A hop above the hooks' threshold: tell them (on this thread, before the next send). */
static void hop_late(struct sig_thread *t, int64_t sent, int64_t now)
{
	struct lj_late ev = { .kind = LJ_LATE_SAMPLE, .cpu = t->cpu, .tid = t->tid,
			      .index = t->index, .due_ns = (uint64_t)sent, .ran_ns = (uint64_t)now };

	lj_hooks_late(t->ring->hooks, &ev);
}

/* One hop into thread @t took @ns: histogram, live view, -v, -b. */
static bool record_hop(struct sig_thread *t, int64_t ns)
{
	struct sig_ring *r = t->ring;
	int expected = -1;

	lj_hist_add(t->hop, ns);
	live_add(&t->live, ns);
	if (t->lin) {
		int64_t v = r->cfg->nsecs ? ns : ns / LJ_NSEC_PER_USEC;

		if (v < r->cfg->histogram)
			t->lin[v]++;
		else
			t->lin_over++;
	}
	if (t->values_cap)
		t->values[t->nvalues++ % t->values_cap] = ns;
	if (r->cfg->breaktrace_ns && ns > r->cfg->breaktrace_ns &&
	    __atomic_compare_exchange_n(&r->broke_thread, &expected, t->index, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		r->broke_ns = ns;
		return true;
	}
	return false;
}

/* Thread 0's pause between round trips: outside both measured intervals. */
static void pace(struct sig_thread *t, uint64_t rounds)
{
	const struct sig_config *cfg = t->ring->cfg;
	struct timespec ts;

	if (!cfg->pace_every || !cfg->pace_ns || rounds % cfg->pace_every)
		return;
	ts = lj_ns_to_ts(cfg->pace_ns);
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
	t->paces++;
}

/* A ring thread's own setup: its id, CPU and policy; then it counts itself ready. */
static void ring_thread_setup(struct sig_thread *t)
{
	const struct sig_config *cfg = t->ring->cfg;
	struct lj_sched_param sp = { .policy = cfg->policy, .priority = cfg->priority };

	t->tid = gettid();
	if (t->cpu >= 0)
		t->pin_err = lj_cpus_pin_one(0, t->cpu);
	if (cfg->policy != LJ_POLICY_OTHER)
		t->sched_err = lj_sched_apply(0, &sp);
	lj_sched_prefault_stack(64 * 1024);
	__atomic_add_fetch(&t->ring->ready, 1, __ATOMIC_ACQ_REL);
}

/*
 * The measuring loop. Between sigwait's return and the next pthread_kill
 * there is nothing but clock reads, the histogram add and (thread 0) the
 * pacing sleep, which happens before the send stamp is taken, so neither
 * the hop nor the round trip contains it.
 */
static void *ring_thread(void *arg)
{
	struct sig_thread *t = arg;
	struct sig_ring *r = t->ring;
	const struct sig_config *cfg = r->cfg;
	struct sig_thread *next = &r->th[(t->index + 1) % r->n];
	struct rusage ru;
	uint64_t counted = 0;
	int64_t last_send = 0;
	/*
	 * Receipts before the first counted one: lap 1 warms caches and
	 * faults pages in. Thread 0's first receipt is the start kick, not
	 * the end of a lap, so it skips two; otherwise its hop and the round
	 * trip would cover laps 1..N and the other hops laps 2..N+1, and the
	 * round trip would not be the sum of the same laps' hops.
	 */
	int uncounted = t->index == 0 ? 2 : 1;

	ring_thread_setup(t);

	for (;;) {
		int64_t now, sent, hop;
		bool finished = false;
		int sig, err;

		err = sigwait(&r->sigset, &sig);
		now = lj_now_ns();
		if (err) {
			t->wait_errors++;
			if (LOAD(&r->stopping))
				break;
			continue;
		}
		if (LOAD(&r->stopping))
			break;
		sent = LOAD(&t->in_sent_ns);
		if (uncounted) {
			uncounted--;
		} else {
			hop = now - sent;
			if (lj_hooks_wants(r->hooks, (uint64_t)hop))
				hop_late(t, sent, now);
			if (t->index == 0) {
				lj_hist_add(t->rt, now - last_send);
				live_add(&t->rt_live, now - last_send);
			}
			if (record_hop(t, hop)) {
				stop_ring(r);
				break;
			}
			/*
			 * Like signaltest, every thread counts its own -l cycles;
			 * counted in every mode: the pacing below depends on it.
			 */
			counted++;
			finished = cfg->loops && counted >= cfg->loops;
		}
		/* Pace at the kick, as before, but not again after the warm-up lap. */
		if (t->index == 0 && !finished && (counted || uncounted))
			pace(t, counted);
		now = lj_now_ns();
		STORE(&next->in_sent_ns, now);
		last_send = now;
		if (!LOAD(&next->done) && pthread_kill(next->pt, SIG_SIGNAL))
			t->kill_errors++;
		if (finished)
			goto out;
	}
	/* Stopped early: pass the token on so the next thread sees the stop too. */
	if (!LOAD(&next->done))
		pthread_kill(next->pt, SIG_SIGNAL);
out:
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		t->nvcsw = ru.ru_nvcsw;
		t->nivcsw = ru.ru_nivcsw;
	}
	t->last_cpu = sched_getcpu();
	STORE(&t->done, 1);
	return NULL;
}

/* The CPUs the ring may use: --cpus' selection, else this process's affinity. */
static void base_cpus(const struct sig_config *cfg, cpu_set_t *set)
{
	if (CPU_COUNT(&cfg->setup.cpusel.set) > 0) {
		*set = cfg->setup.cpusel.set;
		return;
	}
	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set))
		CPU_ZERO(set);
}

static int place_threads(struct sig_ring *r)
{
	const struct sig_config *cfg = r->cfg;
	int cpus[CPU_SETSIZE];
	cpu_set_t base;
	int n;

	base_cpus(cfg, &base);
	CPU_ZERO(&r->measured);
	if (cfg->affinity == SIG_AFF_NONE) {
		for (int i = 0; i < r->n; i++)
			r->th[i].cpu = -1;
		return 0;
	}
	if (cfg->affinity == SIG_AFF_LIST) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cfg->affinity_set) && !CPU_ISSET(c, &base)) {
				char list[256];

				return lj_usage_error("invalid --affinity: CPU %d is not allowed (allowed: %s)",
						      c, lj_cpulist_format(&base, list, sizeof(list)));
			}
		n = lj_cpus_to_array(&cfg->affinity_set, cpus, CPU_SETSIZE);
	} else {
		n = lj_cpus_to_array(&base, cpus, CPU_SETSIZE);
	}
	if (n <= 0) {
		for (int i = 0; i < r->n; i++)
			r->th[i].cpu = -1;
		return 0;
	}
	for (int i = 0; i < r->n; i++) {
		r->th[i].cpu = cpus[i % n];
		CPU_SET(r->th[i].cpu, &r->measured);
	}
	return 0;
}

int sig_ring_init(struct sig_ring *r, struct sig_config *cfg, const struct lj_topo *topo)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->cfg = cfg;
	if (cfg->threads < 0) {	/* -S: one thread per allowed CPU, at least the ring's two */
		cpu_set_t base;

		base_cpus(cfg, &base);
		cfg->threads = CPU_COUNT(&base) > 2 ? CPU_COUNT(&base) : 2;
	}
	r->n = cfg->threads;
	r->broke_thread = -1;
	r->reporter_cpu = -1;
	r->hooks = &lj_hooks_none;	/* a ring outside the driver (unit tests) */
	sigemptyset(&r->sigset);
	sigaddset(&r->sigset, SIG_SIGNAL);
	r->th = calloc(r->n, sizeof(*r->th));
	if (!r->th)
		return -ENOMEM;
	for (int i = 0; i < r->n; i++) {
		struct sig_thread *t = &r->th[i];

		t->ring = r;
		t->index = i;
		t->hop = lj_hist_new();
		if (!t->hop)
			return -ENOMEM;
		if (cfg->histogram) {
			t->lin = calloc(cfg->histogram, sizeof(*t->lin));
			if (!t->lin)
				return -ENOMEM;
		}
		if (cfg->verbose) {
			t->values_cap = cfg->loops && cfg->loops < SIG_VALUES_MAX ? cfg->loops
				      : cfg->loops ? SIG_VALUES_MAX : SIG_VALUES_RING;
			t->values = calloc(t->values_cap, sizeof(*t->values));
			if (!t->values)
				return -ENOMEM;
		}
	}
	r->th[0].rt = lj_hist_new();
	if (!r->th[0].rt)
		return -ENOMEM;
	ret = place_threads(r);
	if (ret)
		return ret;
	if (topo && CPU_COUNT(&r->measured)) {
		r->reporter_cpu = lj_topo_housekeeping_cpu(topo, &r->measured);
		if (r->reporter_cpu >= 0 && lj_cpus_pin_one(0, r->reporter_cpu))
			r->reporter_cpu = -1;
	}
	return 0;
}

int sig_ring_start(struct sig_ring *r)
{
	pthread_attr_t attr;
	sigset_t block, old;
	int ret = 0;

	/*
	 * Every thread blocks the ring signal (it is only ever taken by
	 * sigwait) and the stop signals, so those reach main, which is not
	 * on a measured CPU and turns them into the ring's stop flag.
	 */
	lj_stop_signals(&block);
	sigaddset(&block, SIG_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, LJ_SCHED_THREAD_STACK);
	for (int i = 0; i < r->n; i++) {
		ret = -pthread_create(&r->th[i].pt, &attr, ring_thread, &r->th[i]);
		if (ret) {
			lj_error_errno(ret, "cannot create ring thread %d", i);
			break;
		}
		r->th[i].created = true;
	}
	pthread_attr_destroy(&attr);
	sigaddset(&old, SIG_SIGNAL);	/* main keeps the ring signal blocked */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		stop_ring(r);
		return ret;
	}
	while (LOAD(&r->ready) < r->n) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < r->n; i++) {
		/* The caller decides: run unpinned / SCHED_OTHER, or stop (--strict). */
		if (r->th[i].pin_err) {
			if (!r->first_pin_err) {
				r->first_pin_err = r->th[i].pin_err;
				r->pin_fail_thread = i;
				r->pin_fail_cpu = r->th[i].cpu;
			}
			r->th[i].cpu = -1;
		}
		if (r->th[i].sched_err && !r->sched_fallback) {
			r->sched_fallback = true;
			r->first_sched_err = r->th[i].sched_err;
		}
	}
	return 0;
}

void sig_ring_stop(struct sig_ring *r)
{
	stop_ring(r);
}

int sig_ring_go(struct sig_ring *r)
{
	int ret;

	r->start_ns = lj_now_ns();
	STORE(&r->th[0].in_sent_ns, r->start_ns);
	ret = -pthread_kill(r->th[0].pt, SIG_SIGNAL);
	if (ret) {
		lj_error_errno(ret, "cannot start the ring");
		stop_ring(r);
	}
	return ret;
}

static bool all_done(const struct sig_ring *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->th[i].created && !LOAD(&r->th[i].done))
			return false;
	return true;
}

/* Wait until loops, -D, -b or a signal end the run, refreshing the live display. */
int sig_ring_wait(struct sig_ring *r)
{
	const struct sig_config *cfg = r->cfg;
	int64_t deadline = cfg->duration_ns ? r->start_ns + cfg->duration_ns : 0;
	int64_t next_display = r->start_ns + SIG_DISPLAY_NS;

	while (!all_done(r)) {
		int64_t now = lj_now_ns();

		lj_hooks_poll(r->hooks);	/* the threads' policy, read back while they exist */
		if (lj_stop_requested() || (deadline && now >= deadline))
			stop_ring(r);
		if (LOAD(&r->stopping)) {
			struct timespec ts = lj_ns_to_ts(SIG_POLL_NS);

			/* A thread may sit in sigwait with the token elsewhere: wake it. */
			for (int i = 0; i < r->n; i++)
				if (r->th[i].created && !LOAD(&r->th[i].done))
					pthread_kill(r->th[i].pt, SIG_SIGNAL);
			nanosleep(&ts, NULL);
			continue;
		}
		if (!cfg->quiet && now >= next_display) {
			sig_report_live(r);
			next_display = now + SIG_DISPLAY_NS;
		}
		lj_stop_wait(SIG_POLL_NS, NULL);
	}
	r->end_ns = lj_now_ns();
	for (int i = 0; i < r->n; i++)
		if (r->th[i].created) {
			pthread_join(r->th[i].pt, NULL);
			r->th[i].created = false;
		}
	/* signaltest exits 0 after a -b break; --break-fails makes it a gate. */
	return r->broke_thread >= 0 && cfg->break_fails ? LJ_EXIT_THRESHOLD : 0;
}

void sig_ring_free(struct sig_ring *r)
{
	if (!r->th)
		return;
	if (!all_done(r))
		sig_ring_wait(r);
	for (int i = 0; i < r->n; i++) {
		lj_hist_free(r->th[i].hop);
		lj_hist_free(r->th[i].rt);
		free(r->th[i].values);
		free(r->th[i].lin);
	}
	free(r->th);
	r->th = NULL;
}
