// SPDX-License-Identifier: GPL-2.0-or-later
/* stages.c - lj-frame's stage threads: vsync source, futex hand-offs, one trial. */
#include "lj_file.h"
#include "frame.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_hist.h"
#include "lj_parse.h"
#include "lj_setup.h"
#include "lj_stop.h"
#include "lj_time.h"

#define FRM_END UINT32_MAX	/* hand-off token: no more frames */

static long futex(_Atomic uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/*
 * Push a frame to the next stage. The consumer announces it may sleep in
 * @sleeping before re-checking @head; the producer publishes @head before
 * reading @sleeping (both seq_cst), so one of them always sees the other
 * and the wake syscall is paid only when the consumer really waits.
 */
static bool ring_push(struct frm_ring *r, uint32_t frame, int64_t sent)
{
	uint32_t h = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (h - atomic_load_explicit(&r->tail, memory_order_acquire) >= FRM_RING)
		return false;
	r->frame[h % FRM_RING] = frame;
	r->sent[h % FRM_RING] = sent;
	atomic_store(&r->head, h + 1);
	if (atomic_load(&r->sleeping))
		futex(&r->head, FUTEX_WAKE_PRIVATE, 1);
	return true;
}

/* The end token must arrive: wait for room rather than drop it. */
static void ring_push_end(struct frm_ring *r)
{
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };

	while (!ring_push(r, FRM_END, 0))
		nanosleep(&ms, NULL);
}

/* Take the next frame; *slept tells whether the thread had to sleep for it. */
static void ring_pop(struct frm_ring *r, uint32_t *frame, int64_t *sent, bool *slept)
{
	uint32_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);

	*slept = false;
	while (atomic_load_explicit(&r->head, memory_order_acquire) == t) {
		atomic_store(&r->sleeping, 1);
		if (atomic_load(&r->head) == t && futex(&r->head, FUTEX_WAIT_PRIVATE, t) == 0)
			*slept = true;
		atomic_store(&r->sleeping, 0);
	}
	*frame = r->frame[t % FRM_RING];
	*sent = r->sent[t % FRM_RING];
	atomic_store_explicit(&r->tail, t + 1, memory_order_release);
}

int64_t frm_trial_vsync(const struct frm_trial *tr, uint64_t i)
{
	return tr->t0 + frm_vsync_ns(&tr->cfg->clock, (int64_t)i);
}

/* Frame @i's deadline: vsync i + L. */
static int64_t due(const struct frm_trial *tr, uint64_t i)
{
	return frm_trial_vsync(tr, i + (uint64_t)tr->cfg->latency_frames);
}

static bool stopped(struct frm_trial *tr)
{
	return lj_stop_requested() || atomic_load_explicit(&tr->abort, memory_order_relaxed);
}

/*
 * When the run's last frames are cut short: the last frame's deadline in
 * the strict model (past it no frame can count), L periods later in the
 * display model (a late frame still shows).
 */
static int64_t run_end(const struct frm_trial *tr)
{
	uint64_t last = tr->nframes - 1;

	if (tr->cfg->model == FRM_MODEL_DISPLAY)
		last += (uint64_t)tr->cfg->latency_frames;
	return due(tr, last);
}

/*
 * A long --work-time must not outlive SIGINT or the run's end, so a
 * frame's units run in chunks with a look at the stop flag between them
 * (a relaxed load every FRM_WORK_CHUNK units, about 7 us at 850 ns a
 * unit) and at the clock every FRM_CLOCK_CHUNKS chunks (one vDSO read per
 * ~55 us). frm_work() itself is unchanged, so a unit is what calibration
 * measured, and the checks add well under 0.1% to the work.
 */
#define FRM_WORK_CHUNK 8
#define FRM_CLOCK_CHUNKS 8

/*
 * Do this stage's units for frame @i. Return: false when a stop request
 * or @end (run_end()) cut the work short.
 */
static bool work(struct frm_stage *st, uint32_t i, int64_t end)
{
	uint64_t left = st->units, x = i, n;
	unsigned int chunks = 0;
	bool done = true;

	while (left) {
		n = left < FRM_WORK_CHUNK ? left : FRM_WORK_CHUNK;
		x = frm_work(n, x);
		left -= n;
		if (!left)
			break;
		if (stopped(st->trial) ||
		    (++chunks % FRM_CLOCK_CHUNKS == 0 && lj_now_ns() >= end)) {
			done = false;
			break;
		}
	}
	st->sink ^= x;
	return done;
}

/*
 * A frame dropped (never presented) or presented after its deadline: tell
 * the hooks, with the frame's whole time, from its vsync to when it was
 * presented or given up (what took the time is asked of all of it).
 */
static void __attribute__((noinline)) frame_late(struct frm_trial *tr, const struct frm_stage *st,
						 enum lj_late_kind kind, uint32_t i, int64_t at)
{
	struct lj_late ev = { .kind = kind, .cpu = sched_getcpu(), .tid = gettid(), .index = st->index,
			      .due_ns = (uint64_t)frm_trial_vsync(tr, i), .ran_ns = (uint64_t)at };

	lj_hooks_late(tr->hooks, &ev);
}

/*
 * Work on frame @i, which this stage started at @wake, then pass it on (or
 * present it from the last stage). The emulator's own cost is the time
 * around the work: the bookkeeping before it (wall time, fresh from the
 * wake-up) and the hand-off after it in the thread's CPU time, since the
 * next stage, woken by the hand-off, may take this stage's CPU before the
 * hand-off returns: that wait is the pipeline's, not the emulator's cost
 * (kept apart as the wall-time figure). A frame whose work was cut short
 * is abandoned: never presented, dropped.
 */
static void do_frame(struct frm_stage *st, uint32_t i, int64_t wake)
{
	struct frm_trial *tr = st->trial;
	struct frm_frame *fr = &tr->frames[i];
	bool measured = i >= tr->warmup;
	int64_t end = run_end(tr);
	int cpu = sched_getcpu();
	bool placed = cpu >= 0 && cpu < CPU_SETSIZE;
	int64_t w0, w1, c1 = 0, own, wall;

	if (measured && placed) {
		if (st->last_cpu >= 0 && cpu != st->last_cpu)
			st->cpu_changes++;
		st->last_cpu = cpu;
	}
	w0 = lj_now_ns();
	if (!work(st, i, end)) {
		if (st->spans)
			st->spans[i] = (struct frm_span){ w0, lj_now_ns() };
		st->abandoned += measured;
		fr->gone_stage = (int8_t)st->index;
		if (measured && lj_hooks_wants_missed(tr->hooks))
			frame_late(tr, st, LJ_LATE_FRAME_DROPPED, i, lj_now_ns());
		return;
	}
	w1 = lj_now_ns();
	if (measured)
		c1 = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (st->spans)
		st->spans[i] = (struct frm_span){ w0, w1 };
	if (w1 > due(tr, i) && fr->late_stage < 0)
		fr->late_stage = (int8_t)st->index;
	if (!st->out) {
		fr->present = w1 - tr->t0;
		/* Late: the strict model drops it, the display model shows it late. */
		if (measured && lj_hooks_wants_missed(tr->hooks) && w1 > due(tr, i))
			frame_late(tr, st, tr->cfg->model == FRM_MODEL_STRICT ? LJ_LATE_FRAME_DROPPED :
				   LJ_LATE_FRAME_JANKY, i, w1);
	} else if (!ring_push(st->out, i, w1))
		st->ring_full++;
	if (!measured)
		return;
	st->work_ns += w1 - w0;
	/*
	 * Placement counts the same frames as `frames` (work completed): a
	 * frame cut short above is counted as abandoned, not placed.
	 */
	if (placed)
		st->cpu_count[cpu]++;
	st->frames++;
	own = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c1;
	wall = lj_now_ns() - w1;
	own = (w0 - wake) + (own < wall ? own : wall);
	wall += w0 - wake;
	st->overhead_ns += own;
	lj_hist_add(st->overhead, own);
	st->overhead_wall_ns += wall;
	lj_hist_add(st->overhead_wall, wall);
}

/* Stage 0: start frame i at vsync i on an absolute timer, or skip it. */
static void run_source(struct frm_stage *st)
{
	struct frm_trial *tr = st->trial;
	uint64_t i;

	for (i = 0; i < tr->nframes && !stopped(tr); i++) {
		int64_t vsync = frm_trial_vsync(tr, i), now = lj_now_ns(), wake;

		if (now >= due(tr, i)) {
			st->skipped += i >= tr->warmup;
			tr->frames[i].gone_stage = 0;
			tr->frames[i].skipped = true;
			if (i >= tr->warmup && lj_hooks_wants_missed(tr->hooks))
				frame_late(tr, st, LJ_LATE_FRAME_DROPPED, (uint32_t)i, now);
			continue;
		}
		if (now < vsync) {
			struct timespec ts = lj_ns_to_ts(vsync);
			int r;

			while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR &&
			       !stopped(tr))
				;
			if (r == EINTR)
				break;
			wake = lj_now_ns();
			if (i >= tr->warmup)
				lj_hist_add(st->lateness, wake - vsync);
		} else {
			wake = now;
			st->busy_starts += i >= tr->warmup;
			tr->frames[i].waited_ns += now - vsync;	/* still busy with earlier frames */
		}
		do_frame(st, (uint32_t)i, wake);
	}
	tr->nrun = i;
	if (st->out)
		ring_push_end(st->out);
}

/* A frame newer than the one just taken is already queued (not the end token). */
static bool newer_queued(struct frm_ring *r)
{
	uint32_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (atomic_load_explicit(&r->head, memory_order_acquire) == t)
		return false;
	return r->frame[t % FRM_RING] != FRM_END;
}

/* Stage s > 0: take frames as they are handed over; abandon the stale. */
static void run_stage(struct frm_stage *st)
{
	struct frm_trial *tr = st->trial;

	for (;;) {
		uint32_t i;
		int64_t sent, wake;
		bool slept;

		ring_pop(st->in, &i, &sent, &slept);
		wake = lj_now_ns();
		if (i == FRM_END)
			break;
		if (!slept)
			tr->frames[i].waited_ns += wake - sent;	/* queued behind earlier frames */
		if (i >= tr->warmup) {
			if (slept)
				lj_hist_add(st->lateness, wake - sent);
			else
				st->busy_starts++;
		}
		if (wake >= due(tr, i) && (tr->cfg->model == FRM_MODEL_STRICT || newer_queued(st->in))) {
			st->abandoned += i >= tr->warmup;
			tr->frames[i].gone_stage = (int8_t)st->index;
			if (i >= tr->warmup && lj_hooks_wants_missed(tr->hooks))
				frame_late(tr, st, LJ_LATE_FRAME_DROPPED, i, wake);
			continue;
		}
		do_frame(st, i, wake);
	}
	if (st->out)
		ring_push_end(st->out);
}

/* The kernel's per-thread counters (CONFIG_SCHED_DEBUG's /proc/thread-self/sched). */
static void sched_counts(long *migr, long *vcsw, long *ivcsw)
{
	char line[256];
	FILE *f = fopen("/proc/thread-self/sched", "r");

	*migr = *vcsw = *ivcsw = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long v;

		if (sscanf(line, "se.nr_migrations : %ld", &v) == 1)
			*migr = v;
		else if (sscanf(line, "nr_voluntary_switches : %ld", &v) == 1)
			*vcsw = v;
		else if (sscanf(line, "nr_involuntary_switches : %ld", &v) == 1)
			*ivcsw = v;
	}
	fclose(f);
}

static void *stage_main(void *arg)
{
	struct frm_stage *st = arg;
	struct frm_trial *tr = st->trial;
	long m0, v0, i0;
	int64_t cpu0;

	st->tid = (pid_t)syscall(SYS_gettid);
	st->policy_err = lj_sched_apply(0, &tr->cfg->policy);
	/* The vsync source stands for an interrupt: no timer slack on it. */
	if (st->index == 0)
		lj_sched_timer_slack(1);
	lj_sched_prefault_stack(64 * 1024);
	sched_counts(&m0, &v0, &i0);
	atomic_fetch_add(&tr->nready, 1);
	while (!atomic_load(&tr->go))
		futex(&tr->go, FUTEX_WAIT_PRIVATE, 0);
	/* CPU time includes the kernel's sleep and wake-up path: context only. */
	cpu0 = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (st->index == 0)
		run_source(st);
	else
		run_stage(st);
	st->cpu_ns = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	sched_counts(&st->migrations, &st->vcsw, &st->ivcsw);
	if (st->migrations >= 0 && m0 >= 0)
		st->migrations -= m0;
	if (st->vcsw >= 0 && v0 >= 0)
		st->vcsw -= v0;
	if (st->ivcsw >= 0 && i0 >= 0)
		st->ivcsw -= i0;
	return NULL;
}

static void *probe_main(void *arg)
{
	return (void *)(intptr_t)lj_sched_apply(0, arg);
}

int frm_policy_probe(const struct lj_sched_param *p)
{
	struct lj_sched_param copy = *p;
	pthread_attr_t attr;
	pthread_t th;
	void *ret;
	int err;

	/* A small stack: after mlockall a default 8 MiB one can exceed RLIMIT_MEMLOCK. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, LJ_SCHED_THREAD_STACK);
	err = pthread_create(&th, &attr, probe_main, &copy);
	pthread_attr_destroy(&attr);
	if (err)
		return -err;
	pthread_join(th, &ret);
	return (int)(intptr_t)ret;
}

static int trial_alloc(struct frm_trial *tr)
{
	const struct frm_config *cfg = tr->cfg;

	tr->frames = malloc(tr->nframes * sizeof(*tr->frames));
	tr->shown = malloc(tr->nframes * sizeof(*tr->shown));
	tr->production = lj_hist_new();
	tr->frame_times = lj_hist_new();
	tr->latency = lj_hist_new();
	if (!tr->frames || !tr->shown || !tr->production || !tr->frame_times || !tr->latency)
		return -ENOMEM;
	/* Writing every slot also prefaults the array before the run. */
	for (uint64_t i = 0; i < tr->nframes; i++)
		frm_frame_clear(&tr->frames[i]);
	for (int s = 0; s < cfg->nstages; s++) {
		struct frm_stage *st = &tr->stage[s];

		st->index = s;
		st->units = tr->units[s];
		st->trial = tr;
		st->last_cpu = -1;
		st->migrations = st->vcsw = st->ivcsw = -1;
		st->lateness = lj_hist_new();
		st->overhead = lj_hist_new();
		st->overhead_wall = lj_hist_new();
		st->cpu_count = calloc(CPU_SETSIZE, sizeof(*st->cpu_count));
		if (!st->lateness || !st->overhead || !st->overhead_wall || !st->cpu_count)
			return -ENOMEM;
		/* --perfetto's stage slices, a fixed run only: 16 bytes a frame, written (prefaulted) now. */
		if (cfg->setup.perfetto && !cfg->ramp && cfg->fake_ns_per_unit <= 0) {
			st->spans = malloc(tr->nframes * sizeof(*st->spans));
			if (!st->spans)
				return -ENOMEM;
			memset(st->spans, 0, tr->nframes * sizeof(*st->spans));
		}
		if (s + 1 < cfg->nstages) {
			st->out = calloc(1, sizeof(*st->out));
			if (!st->out)
				return -ENOMEM;
		}
		if (s > 0)
			st->in = tr->stage[s - 1].out;
	}
	return 0;
}

static int64_t fake_work(void *arg, uint64_t frame, int stage)
{
	const struct frm_trial *tr = arg;

	return (int64_t)((double)tr->units[stage] * tr->cfg->fake_ns_per_unit + 0.5);
}

/*
 * While the stages run, this (main) thread only waits for them, but with
 * --cgroup it still shares the group's CPUs, the measured ones. Leave the
 * group for the CPUs outside --cpus when there are any. Return: true when
 * it left, and waiter_return() must bring it back: the next ramp trial's
 * stage threads are created from here and must start in the group.
 */
static bool waiter_leave(const struct frm_config *cfg)
{
	const cpu_set_t *measured = &cfg->setup.cpusel.set;
	cpu_set_t online, outside;
	char buf[256];

	if (!cfg->setup.cgroup || !strcmp(cfg->setup.cgroup, "off"))
		return false;
	/* Not the affinity: the kernel keeps a thread's own affinity request across groups. */
	if (lj_file_read("/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0 ||
	    lj_parse_cpulist(buf, &online, 0, NULL, 0))
		return false;
	CPU_ZERO(&outside);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &online) && !CPU_ISSET(cpu, measured))
			CPU_SET(cpu, &outside);
	if (!CPU_COUNT(&outside) || lj_setupopt_leave_group(&cfg->setup, 0))
		return false;
	if (!lj_cpus_pin(0, &outside))
		return true;
	lj_setupopt_join_group(&cfg->setup, 0);
	return false;
}

static void waiter_return(const struct frm_config *cfg)
{
	int ret = lj_setupopt_join_group(&cfg->setup, 0);

	if (!ret)
		ret = lj_cpus_pin(0, &cfg->setup.cpusel.set);	/* drop the request for the other CPUs */
	if (ret)
		lj_warn_errno(ret, "cannot return to group %s and its CPUs: later trials start outside",
			      cfg->setup.cgroup);
}

/* The stages (their policy set: they are waiting for vsync 0) and the background, to the hooks. */
static void tell_threads(const struct frm_trial *tr, int created)
{
	struct lj_run_thread th[FRM_MAX_STAGES + FRM_MAX_BACKGROUND];
	const struct lj_sched_param *p = &tr->cfg->policy;
	int n = 0;

	if (!tr->told || !tr->told->hooks)
		return;
	for (int s = 0; s < created; s++)
		th[n++] = (struct lj_run_thread){ .tid = tr->stage[s].tid, .index = s,
			.policy = (int)p->policy, .prio = p->priority, .measured = true };
	memcpy(th + n, tr->told->bg, (size_t)tr->told->nbg * sizeof(th[0]));
	lj_hooks_threads(tr->told->hooks, th, n + tr->told->nbg);
}

/* Join the stages; meanwhile read their policy back every 100 ms (the validity hook's poll). */
static void join_polling(const struct frm_trial *tr, int created)
{
	const struct lj_hooks *hs = tr->told ? tr->told->hooks : NULL;

	for (int s = 0; s < created; s++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);	/* pthread_timedjoin_np's clock */
		for (;;) {
			ts = lj_ns_to_ts(lj_ts_to_ns(&ts) + 100 * LJ_NSEC_PER_MSEC);
			if (!hs || pthread_timedjoin_np(tr->stage[s].th, NULL, &ts) != ETIMEDOUT)
				break;
			lj_hooks_poll(hs);
		}
		if (!hs)
			pthread_join(tr->stage[s].th, NULL);
	}
	if (hs)		/* the stages are gone, the background stays */
		lj_hooks_threads(hs, tr->told->bg, tr->told->nbg);
}

static int run_threads(struct frm_trial *tr)
{
	bool left;
	const struct frm_config *cfg = tr->cfg;
	pthread_attr_t attr;
	int created = 0, err = 0;
	int64_t main_cpu, main_wall;
	struct timespec ms = { 0, LJ_NSEC_PER_MSEC };
	int64_t lead = cfg->period_ns > 20 * LJ_NSEC_PER_MSEC ? cfg->period_ns : 20 * LJ_NSEC_PER_MSEC;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, LJ_SCHED_THREAD_STACK);
	for (; created < cfg->nstages; created++) {
		err = -pthread_create(&tr->stage[created].th, &attr, stage_main, &tr->stage[created]);
		if (err)
			break;
	}
	pthread_attr_destroy(&attr);
	if (err)
		atomic_store(&tr->abort, 1);
	while (atomic_load(&tr->nready) < (uint32_t)created)
		nanosleep(&ms, NULL);
	tell_threads(tr, created);
	/* Before t0: moving between groups may take milliseconds. */
	left = created && waiter_leave(cfg);
	tr->t0 = lj_now_ns() + lead;
	atomic_store(&tr->go, 1);
	futex(&tr->go, FUTEX_WAKE_PRIVATE, INT32_MAX);
	main_cpu = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	main_wall = lj_now_ns();
	join_polling(tr, created);
	tr->main_cpu_ns = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - main_cpu;
	tr->main_wall_ns = lj_now_ns() - main_wall;
	if (left)
		waiter_return(cfg);
	tr->wall_ns = lj_now_ns() - frm_trial_vsync(tr, tr->warmup);
	return err;
}

/* The display's view of the frames run, and the production times. */
static void trial_account(struct frm_trial *tr)
{
	const struct frm_config *cfg = tr->cfg;
	struct frm_account *a = &tr->acct;

	frm_account_init(a, &cfg->clock, cfg->latency_frames, cfg->model);
	a->frame_times = tr->frame_times;
	a->latency = tr->latency;
	a->shown = tr->shown;
	a->shown_cap = tr->nframes;
	frm_account_frames(a, tr->frames, tr->warmup, tr->nrun, NULL, NULL);
	tr->discrepancy_ns = frm_discrepancy_ns(tr->shown, a->nshown);
	for (uint64_t i = tr->warmup; i < tr->nrun; i++)
		if (tr->frames[i].present != FRM_NOT_PRESENTED)
			lj_hist_add(tr->production, tr->frames[i].present -
				    frm_vsync_ns(&cfg->clock, (int64_t)i));
}

int frm_trial_run(struct frm_trial *tr, const struct frm_config *cfg, const uint64_t *units)
{
	const struct lj_hooks *hooks = tr->hooks;
	const struct frm_told *told = tr->told;
	int ret;

	memset(tr, 0, sizeof(*tr));
	tr->hooks = hooks ? hooks : &lj_hooks_none;	/* the ramp's trials, unit tests */
	tr->told = told;
	tr->cfg = cfg;
	memcpy(tr->units, units, sizeof(tr->units[0]) * cfg->nstages);
	tr->warmup = (uint64_t)cfg->warmup;
	tr->nframes = tr->warmup + frm_config_frames(cfg);
	ret = trial_alloc(tr);
	if (ret)
		return ret;
	if (cfg->fake_ns_per_unit > 0) {
		/* tr->shown is free until the accounting: the simulator's scratch. */
		frm_simulate(cfg->nstages, &cfg->clock, cfg->latency_frames, cfg->model, tr->nframes,
			     fake_work, tr, tr->frames, tr->shown);
		tr->nrun = tr->nframes;
		tr->wall_ns = frm_vsync_ns(&cfg->clock, (int64_t)tr->nframes) -
			      frm_vsync_ns(&cfg->clock, (int64_t)tr->warmup);
	} else {
		ret = run_threads(tr);
		if (ret)
			return ret;
	}
	trial_account(tr);
	for (int s = 0; s < cfg->nstages; s++) {
		tr->overhead_ns += tr->stage[s].overhead_ns;
		tr->overhead_wall_ns += tr->stage[s].overhead_wall_ns;
	}
	return 0;
}

void frm_trial_free(struct frm_trial *tr)
{
	if (!tr->cfg)
		return;
	for (int s = 0; s < tr->cfg->nstages; s++) {
		if (tr->stage[s].lateness)
			lj_hist_free(tr->stage[s].lateness);
		if (tr->stage[s].overhead)
			lj_hist_free(tr->stage[s].overhead);
		if (tr->stage[s].overhead_wall)
			lj_hist_free(tr->stage[s].overhead_wall);
		free(tr->stage[s].cpu_count);
		free(tr->stage[s].out);
		free(tr->stage[s].spans);
	}
	if (tr->production)
		lj_hist_free(tr->production);
	if (tr->frame_times)
		lj_hist_free(tr->frame_times);
	if (tr->latency)
		lj_hist_free(tr->latency);
	free(tr->frames);
	free(tr->shown);
	tr->cfg = NULL;
}
