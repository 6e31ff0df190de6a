// SPDX-License-Identifier: GPL-2.0-or-later
/* loop.c - the measurement thread: periodic wake-ups, latency into its own histogram. */
#include "cyclic.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* glibc 2.35's per-thread rseq area (the kernel keeps its cpu_id current). */
#if defined(__has_include) && defined(__has_builtin)
#if __has_include(<sys/rseq.h>) && __has_builtin(__builtin_thread_pointer)
#include <sys/rseq.h>
#define CYC_HAVE_RSEQ 1
#endif
#endif

#include "lj_cpus.h"
#include "lj_hist.h"
#include "lj_hot.h"
#include "lj_time.h"

/*
 * Every function here is LJ_HOT (lj_hot.h): a measuring thread runs this
 * file's code, lj_hist_add, the hooks' late() and the C library functions
 * rehearse() calls, and under -m the driver prefaults just those
 * (lj_prefault_hot), not the statically linked libraries' code.
 */

/* glibc 2.36 has no name for the thread id of a SIGEV_THREAD_ID event. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Without the rseq area, a pinned thread's CPU is read every this many wake-ups (a power of 2). */
#define CYC_CPU_SAMPLE 64

/*
 * The deadline after @deadline, whose wake-up came at @now. A wake-up that
 * late by a whole period or more means later deadlines already passed:
 * each is counted once in p->missed. SKIP resumes at the first deadline
 * still in the future; BURST keeps every deadline, so the thread wakes at
 * once for each passed one and measures its lateness too (counted_until
 * stops those from being counted again).
 */
LJ_HOT int64_t cyc_pace_next(struct cyc_pace *p, int64_t deadline, int64_t now)
{
	int64_t lat = now - deadline;
	int64_t n, last, from;

	if (lat < p->interval_ns)
		return deadline + p->interval_ns;
	n = lat / p->interval_ns;
	last = deadline + n * p->interval_ns;
	from = p->counted_until > deadline ? p->counted_until : deadline;
	if (last > from) {
		p->missed += (uint64_t)((last - from) / p->interval_ns);
		p->counted_until = last;
	}
	if (p->policy == CYC_CATCHUP_SKIP)
		return last + p->interval_ns;
	return deadline + p->interval_ns;
}

LJ_HOT static inline void live_publish(struct cyc_thread *t, uint64_t cycles, int64_t min,
				int64_t max, int64_t act, int64_t sum, uint64_t missed)
{
	struct cyc_live *lv = &t->live;
	unsigned int seq = lv->seq;

	__atomic_store_n(&lv->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&lv->cycles, cycles, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->min_ns, min, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->max_ns, max, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->act_ns, act, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->sum_ns, sum, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->missed, missed, __ATOMIC_RELAXED);
	__atomic_store_n(&lv->seq, seq + 2, __ATOMIC_RELEASE);
}

LJ_HOT void cyc_live_read(const struct cyc_thread *t, struct cyc_live *out)
{
	const struct cyc_live *lv = &t->live;
	unsigned int s1, s2;

	do {
		s1 = __atomic_load_n(&lv->seq, __ATOMIC_ACQUIRE);
		out->cycles = __atomic_load_n(&lv->cycles, __ATOMIC_RELAXED);
		out->min_ns = __atomic_load_n(&lv->min_ns, __ATOMIC_RELAXED);
		out->max_ns = __atomic_load_n(&lv->max_ns, __ATOMIC_RELAXED);
		out->act_ns = __atomic_load_n(&lv->act_ns, __ATOMIC_RELAXED);
		out->sum_ns = __atomic_load_n(&lv->sum_ns, __ATOMIC_RELAXED);
		out->missed = __atomic_load_n(&lv->missed, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&lv->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
	out->seq = s2;
}

/* The scheduler's own migration count, from /proc/thread-self/sched; -1 if unreadable. */
LJ_HOT static int64_t read_nr_migrations(void)
{
	char line[256];
	int64_t v = -1;
	FILE *f = fopen("/proc/thread-self/sched", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, "se.nr_migrations", 16))
			continue;
		colon = strchr(line, ':');
		if (colon)
			v = strtoll(colon + 1, NULL, 10);
		break;
	}
	fclose(f);
	return v;
}

/* The thread's own fault counts, just before the measured section. */
LJ_HOT static void faults_before(struct cyc_thread *t, long *majflt)
{
	struct rusage ru;

	t->minflt_measuring = t->majflt_measuring = -1;
	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	t->minflt_start = ru.ru_minflt;
	*majflt = ru.ru_majflt;
}

/* Faults taken in between: the proof that the loop's pages were all resident. */
LJ_HOT static void side_metrics(struct cyc_thread *t, bool measured, long majflt)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_THREAD, &ru)) {
		t->nvcsw = ru.ru_nvcsw;
		t->nivcsw = ru.ru_nivcsw;
		if (measured) {
			t->minflt_measuring = ru.ru_minflt - t->minflt_start;
			t->majflt_measuring = ru.ru_majflt - majflt;
		}
	}
	t->nr_migrations = read_nr_migrations();
}

/*
 * clock_nanosleep without the C library's wrapper, where the system call
 * takes a 64-bit timespec: the wrapper makes each wait a cancellation
 * point (two atomic updates of the thread's cancel state, ~30
 * instructions per wake-up), and no measuring thread is ever cancelled.
 * Return: 0 or the errno.
 */
LJ_HOT static inline int sleep_until(clockid_t clk, int flags, const struct timespec *ts)
{
#if defined(SYS_clock_nanosleep) && __SIZEOF_LONG__ == 8
	return syscall(SYS_clock_nanosleep, clk, flags, ts, NULL) ? errno : 0;
#else
	return clock_nanosleep(clk, flags, ts, NULL);
#endif
}

/*
 * Call once, before the first measured wake-up, the C library functions
 * the loop calls (a wait that returns at once, the clock, the CPU): under
 * mlockall(MCL_ONFAULT) their pages (and their lazy bindings) become
 * resident here, not in the measured section, without making the whole C
 * library resident. The program's own image is prefaulted by the driver.
 */
LJ_HOT static void rehearse(const struct cyc_thread *t)
{
	const struct cyc_run *run = t->run;
	struct timespec now, zero = { 0, 0 };
	sigset_t none;

	clock_gettime(run->clock, &now);
	sleep_until(run->clock, TIMER_ABSTIME, &now);
	sleep_until(run->clock, 0, &zero);
	sigemptyset(&none);
	sigaddset(&none, SIGRTMIN);
	sigtimedwait(&none, NULL, &zero);
	(void)sched_getcpu();
}

LJ_HOT static int thread_setup(struct cyc_thread *t, timer_t *timer)
{
	const struct cyc_config *cfg = t->run->cfg;

	t->tid = gettid();
	if (t->cpu >= 0)
		t->pin_err = lj_cpus_pin_one(0, t->cpu);
	if (t->policy != LJ_POLICY_OTHER || t->prio) {
		struct lj_sched_param sp = { .policy = t->policy, .priority = t->prio };

		t->sched_err = lj_sched_apply(0, &sp);
	}
	/* Touch the stack now so the loop takes no page faults. */
	lj_sched_prefault_stack(CYC_THREAD_STACK / 2);
	rehearse(t);
	if (cfg->wait == CYC_WAIT_TIMER) {
		struct sigevent sev;

		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = SIGRTMIN;
		sev.sigev_notify_thread_id = t->tid;
		if (timer_create(t->run->clock, &sev, timer))
			return -errno;
	}
	return 0;
}

LJ_HOT static inline int64_t to_unit(bool nsecs, int64_t ns)
{
	return nsecs ? ns : ns / LJ_NSEC_PER_USEC;
}

/*
 * Sleep until the next period as -r or -x asks (-n, the default, is the
 * loop's own). Return: 0, or the errno of the wait (EINTR: main's wake-up
 * or a stray signal). *@overrun: expirations the POSIX timer folded into
 * this one.
 */
LJ_HOT static int __attribute__((noinline)) wait_other(const struct cyc_thread *t, int64_t *next,
						 const struct timespec *interval_ts,
						 const sigset_t *timer_set, int *overrun)
{
	const struct cyc_run *run = t->run;
	struct timespec ts;
	siginfo_t si;

	if (run->cfg->wait == CYC_WAIT_RELATIVE) {
		clock_gettime(run->clock, &ts);
		*next = lj_ts_to_ns(&ts) + t->interval_ns;
		return sleep_until(run->clock, 0, interval_ts);
	}
	if (sigwaitinfo(timer_set, &si) < 0)
		return errno;
	*overrun = si.si_code == SI_TIMER && si.si_overrun > 0 ? si.si_overrun : 0;
	return 0;
}

/* -v's values: one per wake-up, or with -o the maximum of each group, in a ring main drains. */
LJ_HOT static inline void keep_value(struct cyc_thread *t, uint64_t cycle, int64_t value)
{
	uint64_t red = (uint64_t)t->run->cfg->oscope, pos = cycle % red;

	if (pos == 0 || value > t->group_max)	/* pos 0 starts a group */
		t->group_max = value;
	if (pos != red - 1)
		return;
	t->values[t->nvalues % t->values_cap] = t->group_max;
	__atomic_store_n(&t->nvalues, t->nvalues + 1, __ATOMIC_RELEASE);
}

/* What -h and -v add at every wake-up: out of line, called only when one was given. */
LJ_HOT static void __attribute__((noinline))
record_extras(struct cyc_thread *t, uint64_t cycle, int64_t lat)
{
	const struct cyc_config *cfg = t->run->cfg;
	const uint64_t nbuckets = (uint64_t)cfg->histogram;

	if (nbuckets) {
		int64_t unit = cfg->nsecs ? 1 : LJ_NSEC_PER_USEC;
		uint64_t b = lat > 0 ? (uint64_t)(lat / unit) : 0;

		if (b < nbuckets) {
			t->cthist[b]++;
		} else {
			if (t->cthist_overflows < nbuckets)
				t->oflow_cycles[t->cthist_overflows] = cycle;
			t->cthist_overflows++;
		}
	}
	if (t->values)
		keep_value(t, cycle, to_unit(cfg->nsecs, lat));
}

/* A CPU read at a wake-up: a change from the last one read is a migration seen. */
LJ_HOT static void __attribute__((noinline)) cpu_seen(struct cyc_thread *t, int cpu)
{
	if (cpu == t->last_cpu)
		return;
	if (t->last_cpu >= 0)
		t->migrations++;
	else
		t->first_cpu = cpu;
	t->last_cpu = cpu;
}

LJ_HOT static void __attribute__((noinline)) cpu_sample(struct cyc_thread *t)
{
	cpu_seen(t, sched_getcpu());
}

/* A sample over a hook's threshold or periods missed: off the hot path, only when a hook asked. */
LJ_HOT static void __attribute__((noinline, cold))
tell_hooks(struct cyc_thread *t, enum lj_late_kind kind, int64_t due, int64_t ran)
{
	struct lj_late ev = { .kind = kind, .cpu = sched_getcpu(), .tid = t->tid, .index = t->index,
			      .due_ns = (uint64_t)due, .ran_ns = (uint64_t)ran };

	lj_hooks_late(t->run->hooks, &ev);
}

/* -b: the first thread over the threshold marks the trace and stops the run. */
LJ_HOT static void breaktrace(struct cyc_thread *t, int64_t lat)
{
	struct cyc_run *run = t->run;
	const struct cyc_config *cfg = run->cfg;
	pid_t none = 0;

	if (__atomic_compare_exchange_n(&run->break_tid, &none, t->tid, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		run->break_value = to_unit(cfg->nsecs, lat);
		if (run->explain && cfg->tracemark) {
			char msg[96];

			snprintf(msg, sizeof(msg), "hit latency threshold (%lld > %lld)\n",
				 (long long)to_unit(cfg->nsecs, lat),
				 (long long)to_unit(cfg->nsecs, cfg->breaktrace_ns));
			lj_explain_break(run->explain, msg);	/* its own instance, kept for the user */
		} else if (run->trace_fd >= 0) {
			char msg[96];
			int n = snprintf(msg, sizeof(msg), "hit latency threshold (%lld > %lld)\n",
					 (long long)to_unit(cfg->nsecs, lat),
					 (long long)to_unit(cfg->nsecs, cfg->breaktrace_ns));

			if (write(run->trace_fd, msg, n) < 0)
				t->errors++;
			/* Stop the trace at the event, as cyclictest does. */
			if (run->tracing_on_fd >= 0 && write(run->tracing_on_fd, "0\n", 2) < 0)
				t->errors++;
		}
	}
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
}

/*
 * A wake-up later than --spike's, -b's or a hook's threshold (one compare
 * in the loop chose this path): the spike kept, the hooks told, -b's mark
 * written and the run stopped.
 */
LJ_HOT static void __attribute__((noinline, cold)) late_sample(struct cyc_thread *t, int64_t lat,
							  int64_t due, int64_t now)
{
	const struct cyc_config *cfg = t->run->cfg;

	if (cfg->spike_ns && lat > cfg->spike_ns) {
		if (t->nspikes < (uint64_t)cfg->spike_nodes) {
			t->spikes[t->nspikes].value = to_unit(cfg->nsecs, lat);
			t->spikes[t->nspikes].ts_us = now / LJ_NSEC_PER_USEC;
		}
		t->nspikes++;
	}
	if (lj_hooks_wants(t->run->hooks, (uint64_t)lat))
		tell_hooks(t, LJ_LATE_SAMPLE, due, now);
	if (cfg->breaktrace_ns && lat > cfg->breaktrace_ns)
		breaktrace(t, lat);
}

/* Periods passed while the thread was late (@missed_before: the count before), told to the hooks. */
LJ_HOT static void missed_tell(struct cyc_thread *t, const struct cyc_pace *p,
			       uint64_t missed_before, int64_t due, int64_t now)
{
	if (p->missed != missed_before && lj_hooks_wants_missed(t->run->hooks))
		tell_hooks(t, LJ_LATE_MISSED, due, now);
}

/* A wake-up a whole period late or more: the deadline after the passed ones (cyc_pace_next). */
LJ_HOT static int64_t __attribute__((noinline)) pace_late(struct cyc_thread *t, struct cyc_pace *p,
						    int64_t due, int64_t now)
{
	uint64_t before = p->missed;
	int64_t next = cyc_pace_next(p, due, now);

	missed_tell(t, p, before, due, now);
	return next;
}

/* -x: the timer keeps its own grid; expirations it folded into this one are missed periods. */
LJ_HOT static int64_t __attribute__((noinline)) pace_timer(struct cyc_thread *t, struct cyc_pace *p,
						     int64_t due, int64_t now, int overrun)
{
	uint64_t before = p->missed;

	p->missed += (uint64_t)overrun;
	missed_tell(t, p, before, due, now);
	return due + (1 + (int64_t)overrun) * t->interval_ns;
}

/* -l reached or -D's end passed (checked when a cheap compare says it may be): stop the run. */
LJ_HOT static bool __attribute__((noinline))
loop_ends(struct cyc_thread *t, uint64_t cycles, int64_t now)
{
	struct cyc_run *run = t->run;
	const struct cyc_config *cfg = run->cfg;
	bool mine = cfg->loops && cycles >= cfg->loops;

	/* cyclictest ends the run when the first thread has its -l wake-ups. */
	if ((mine && !cfg->loops_each) ||
	    (run->stop_at_ns && (run->clock == CLOCK_MONOTONIC ? now : lj_now_ns()) >= run->stop_at_ns))
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
	return mine;
}

/* The first deadline: one interval from now, or from -A's / --secaligned's shared start. */
LJ_HOT static int64_t first_deadline(const struct cyc_thread *t)
{
	const struct cyc_run *run = t->run;
	struct timespec ts;

	if (run->align_base_ns)
		return run->align_base_ns + (run->cfg->aligned ? t->index * run->cfg->aligned_ns : 0) +
		       t->interval_ns;
	clock_gettime(run->clock, &ts);
	return lj_ts_to_ns(&ts) + t->interval_ns;
}

/*
 * What the loop reads at every wake-up, taken out of the configuration
 * once: the compiler cannot keep the config's fields in registers across
 * the wait, and each option that acts per wake-up becomes one compare.
 */
struct loop_consts {
	clockid_t clock;
	enum cyc_wait wait;
	int64_t interval_ns;
	uint64_t late_ns;		/* the lower of --spike's and -b's thresholds; UINT64_MAX: none */
	uint64_t last_cycle;		/* -l; UINT64_MAX: endless */
	int64_t check_at;		/* -D's end on the loop's clock; INT64_MIN: ask loop_ends each time */
	bool extras;			/* -h or -v: record_extras at every wake-up */
	const volatile uint32_t *rseq_cpu;	/* the kernel's CPU number for this thread, NULL: none */
	uint64_t cpu_mask;		/* without it: the CPU is read when (cycle & cpu_mask) == 0 */
};

/*
 * Where the thread's CPU comes from at each wake-up: the rseq area the
 * kernel keeps current (glibc 2.35 registers one per thread: one load),
 * else sched_getcpu(), at every wake-up of a thread that is not pinned
 * and every CYC_CPU_SAMPLE-th of a pinned one (it moves only when its
 * affinity is changed from outside; nr_migrations counts every move).
 */
LJ_HOT static void cpu_source(const struct cyc_thread *t, struct loop_consts *k)
{
	k->rseq_cpu = NULL;
	k->cpu_mask = t->cpu >= 0 ? CYC_CPU_SAMPLE - 1 : 0;
#ifdef CYC_HAVE_RSEQ
	if (__rseq_size >= offsetof(struct rseq, cpu_id) + sizeof(uint32_t)) {
		const struct rseq *rs = (const struct rseq *)((char *)__builtin_thread_pointer() +
							      __rseq_offset);

		if ((int32_t)rs->cpu_id >= 0)
			k->rseq_cpu = &rs->cpu_id;
	}
#endif
}

LJ_HOT static void loop_consts_init(const struct cyc_thread *t, struct loop_consts *k)
{
	const struct cyc_run *run = t->run;
	const struct cyc_config *cfg = run->cfg;

	k->clock = run->clock;
	k->wait = cfg->wait;
	k->interval_ns = t->interval_ns;
	k->late_ns = UINT64_MAX;
	if (cfg->spike_ns)
		k->late_ns = (uint64_t)cfg->spike_ns;
	if (cfg->breaktrace_ns && (uint64_t)cfg->breaktrace_ns < k->late_ns)
		k->late_ns = (uint64_t)cfg->breaktrace_ns;
	k->last_cycle = cfg->loops ? cfg->loops : UINT64_MAX;
	k->check_at = !run->stop_at_ns ? INT64_MAX : run->clock == CLOCK_MONOTONIC ? run->stop_at_ns
										   : INT64_MIN;
	k->extras = cfg->histogram || t->values;
	cpu_source(t, k);
}

/* The CPU of this wake-up, from the cheapest source loop_consts found. */
LJ_HOT static inline void watch_cpu(struct cyc_thread *t, const struct loop_consts *k,
				    uint64_t cycle)
{
	if (k->rseq_cpu) {
		int cpu = (int)*k->rseq_cpu;

		if (__builtin_expect(cpu != t->last_cpu, 0))
			cpu_seen(t, cpu);
	} else if ((cycle & k->cpu_mask) == 0) {
		cpu_sample(t);
	}
}

/*
 * The loop touches only this thread's own memory, the wait and
 * clock_gettime (the CPU comes from the rseq area, no system call). A
 * wake-up does the common work inline; every option's own work, a late
 * sample and a missed period go out of line behind one compare each.
 */
LJ_HOT static void measure(struct cyc_thread *t, timer_t timer)
{
	struct cyc_run *run = t->run;
	const struct timespec interval_ts = lj_ns_to_ts(t->interval_ns);
	struct cyc_pace pace = { .interval_ns = t->interval_ns, .policy = run->cfg->catchup };
	const struct lj_hooks *hooks = run->hooks;
	struct lj_hist *hist = t->hist;
	int64_t min = INT64_MAX, max = INT64_MIN, sum = 0, next, now, lat;
	uint64_t cycles = 0;
	int overrun = 0, ret;
	struct timespec ts;
	struct loop_consts k;
	sigset_t timer_set;

	loop_consts_init(t, &k);
	sigemptyset(&timer_set);
	sigaddset(&timer_set, SIGRTMIN);
	next = first_deadline(t);
	if (k.wait == CYC_WAIT_TIMER) {
		struct itimerspec its = { .it_interval = interval_ts, .it_value = lj_ns_to_ts(next) };

		if (timer_settime(timer, TIMER_ABSTIME, &its, NULL)) {
			t->loop_err = -errno;
			return;
		}
	}
	for (;;) {
		if (__builtin_expect(k.wait == CYC_WAIT_ABSOLUTE, 1)) {
			ts = lj_ns_to_ts(next);
			ret = sleep_until(k.clock, TIMER_ABSTIME, &ts);
		} else {
			ret = wait_other(t, &next, &interval_ts, &timer_set, &overrun);
		}
		if (__builtin_expect(ret != 0, 0)) {
			if (ret == EINTR) {
				if (__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE))
					break;
				continue;
			}
			t->errors++;
			t->loop_err = -ret;
			break;
		}
		clock_gettime(k.clock, &ts);
		now = lj_ts_to_ns(&ts);
		lat = now - next;
		sum += lat;
		min = lat < min ? lat : min;
		max = lat > max ? lat : max;
		lj_hist_add(hist, lat);
		if (k.extras)
			record_extras(t, cycles, lat);
		watch_cpu(t, &k, cycles);
		cycles++;
		/* --spike, -b and the hooks (lj_hook): two compares when none is crossed. */
		if (__builtin_expect((uint64_t)lat > k.late_ns, 0) || lj_hooks_wants(hooks, (uint64_t)lat))
			late_sample(t, lat, next, now);
		if (__builtin_expect(k.wait == CYC_WAIT_ABSOLUTE && lat < k.interval_ns, 1))
			next += k.interval_ns;
		else if (k.wait == CYC_WAIT_ABSOLUTE)
			next = pace_late(t, &pace, next, now);
		else if (k.wait == CYC_WAIT_TIMER)
			next = pace_timer(t, &pace, next, now, overrun);
		live_publish(t, cycles, min, max, lat, sum, pace.missed);
		if (__builtin_expect(cycles >= k.last_cycle || now >= k.check_at, 0) &&
		    loop_ends(t, cycles, now))
			break;
		if (__atomic_load_n(&run->stop, __ATOMIC_RELAXED))
			break;
	}
	if (k.cpu_mask && !k.rseq_cpu && cycles)
		cpu_sample(t);	/* the last CPU, when the wake-ups were sampled */
}

LJ_HOT void *cyc_thread_main(void *arg)
{
	struct cyc_thread *t = arg;
	struct cyc_run *run = t->run;
	timer_t timer = 0;
	bool measured = false;
	long majflt = 0;
	int ret;

	t->first_cpu = t->last_cpu = -1;
	ret = thread_setup(t, &timer);
	if (ret)
		t->loop_err = ret;
	/* Report the setup result, then wait until main says go (or stop). */
	pthread_mutex_lock(&run->gate_lock);
	run->ready++;
	pthread_cond_broadcast(&run->gate_cond);
	while (!run->go)
		pthread_cond_wait(&run->gate_cond, &run->gate_lock);
	pthread_mutex_unlock(&run->gate_lock);
	if (t->smi_fd > 0 && pread(t->smi_fd, &t->smi_start, sizeof(t->smi_start), CYC_MSR_SMI_COUNT) < 0)
		t->errors++;
	faults_before(t, &majflt);
	if (!t->loop_err && !__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE)) {
		measure(t, timer);
		measured = true;
	}
	if (t->smi_fd > 0 && pread(t->smi_fd, &t->smi_end, sizeof(t->smi_end), CYC_MSR_SMI_COUNT) < 0)
		t->errors++;
	if (run->cfg->wait == CYC_WAIT_TIMER && !ret)
		timer_delete(timer);
	side_metrics(t, measured, majflt);
	__atomic_add_fetch(&run->done, 1, __ATOMIC_RELEASE);
	return NULL;
}
