// SPDX-License-Identifier: GPL-2.0-or-later
/* loop.c - the measurement thread: periodic wake-ups, latency into its own histogram. */
#include "cyclic.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lj_cpus.h"
#include "lj_hist.h"
#include "lj_time.h"

/* glibc 2.36 has no name for the thread id of a SIGEV_THREAD_ID event. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/*
 * The deadline after @deadline, whose wake-up came at @now. A wake-up that
 * late by a whole period or more means later deadlines already passed:
 * each is counted once in p->missed. SKIP resumes at the first deadline
 * still in the future; BURST keeps every deadline, so the thread wakes at
 * once for each passed one and measures its lateness too (counted_until
 * stops those from being counted again).
 */
int64_t cyc_pace_next(struct cyc_pace *p, int64_t deadline, int64_t now)
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

static inline void live_publish(struct cyc_thread *t, uint64_t cycles, int64_t min,
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

void cyc_live_read(const struct cyc_thread *t, struct cyc_live *out)
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
static int64_t read_nr_migrations(void)
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

static void side_metrics(struct cyc_thread *t)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_THREAD, &ru)) {
		t->nvcsw = ru.ru_nvcsw;
		t->nivcsw = ru.ru_nivcsw;
	}
	t->nr_migrations = read_nr_migrations();
}

static int thread_setup(struct cyc_thread *t, timer_t *timer)
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

static inline int64_t to_unit(bool nsecs, int64_t ns)
{
	return nsecs ? ns : ns / LJ_NSEC_PER_USEC;
}

/*
 * Sleep until the next period as -n, -r or -x asks. Return: 0, or the
 * errno of the wait (EINTR: main's wake-up or a stray signal). *@overrun:
 * expirations the POSIX timer folded into this one.
 */
static int wait_period(const struct cyc_thread *t, int64_t *next, const struct timespec *interval_ts,
		       const sigset_t *timer_set, int *overrun)
{
	const struct cyc_run *run = t->run;
	struct timespec ts;
	siginfo_t si;

	switch (run->cfg->wait) {
	case CYC_WAIT_ABSOLUTE:
		ts = lj_ns_to_ts(*next);
		return clock_nanosleep(run->clock, TIMER_ABSTIME, &ts, NULL);
	case CYC_WAIT_RELATIVE:
		clock_gettime(run->clock, &ts);
		*next = lj_ts_to_ns(&ts) + t->interval_ns;
		return clock_nanosleep(run->clock, 0, interval_ts, NULL);
	default:
		if (sigwaitinfo(timer_set, &si) < 0)
			return errno;
		*overrun = si.si_code == SI_TIMER && si.si_overrun > 0 ? si.si_overrun : 0;
		return 0;
	}
}

/* -v's values: one per wake-up, or with -o the maximum of each group, in a ring main drains. */
static inline void keep_value(struct cyc_thread *t, uint64_t cycle, int64_t value)
{
	uint64_t red = (uint64_t)t->run->cfg->oscope, pos = cycle % red;

	if (pos == 0 || value > t->group_max)	/* pos 0 starts a group */
		t->group_max = value;
	if (pos != red - 1)
		return;
	t->values[t->nvalues % t->values_cap] = t->group_max;
	__atomic_store_n(&t->nvalues, t->nvalues + 1, __ATOMIC_RELEASE);
}

/* Everything one wake-up adds to the thread's statistics (but the live numbers). */
static inline void record(struct cyc_thread *t, uint64_t cycle, int64_t lat, int64_t now)
{
	const struct cyc_config *cfg = t->run->cfg;
	const uint64_t nbuckets = (uint64_t)cfg->histogram;
	int64_t unit = cfg->nsecs ? 1 : LJ_NSEC_PER_USEC;
	int cpu;

	lj_hist_add(t->hist, lat);
	if (nbuckets) {
		uint64_t b = lat > 0 ? (uint64_t)(lat / unit) : 0;

		if (b < nbuckets) {
			t->cthist[b]++;
		} else {
			if (t->cthist_overflows < nbuckets)
				t->oflow_cycles[t->cthist_overflows] = cycle;
			t->cthist_overflows++;
		}
	}
	if (cfg->spike_ns && lat > cfg->spike_ns) {
		if (t->nspikes < (uint64_t)cfg->spike_nodes) {
			t->spikes[t->nspikes].value = to_unit(cfg->nsecs, lat);
			t->spikes[t->nspikes].ts_us = now / LJ_NSEC_PER_USEC;
		}
		t->nspikes++;
	}
	if (t->values)
		keep_value(t, cycle, to_unit(cfg->nsecs, lat));
	cpu = sched_getcpu();
	if (cpu != t->last_cpu) {
		if (t->last_cpu >= 0)
			t->migrations++;
		else
			t->first_cpu = cpu;
		t->last_cpu = cpu;
	}
}

/* A sample over a hook's threshold or periods missed: off the hot path, only when a hook asked. */
static void __attribute__((noinline, cold)) tell_hooks(struct cyc_thread *t, enum lj_late_kind kind,
							 int64_t due, int64_t ran)
{
	struct lj_late ev = { .kind = kind, .cpu = sched_getcpu(), .tid = t->tid, .index = t->index,
			      .due_ns = (uint64_t)due, .ran_ns = (uint64_t)ran };

	lj_hooks_late(t->run->hooks, &ev);
}

/* -b: the first thread over the threshold marks the trace and stops the run. */
static void breaktrace(struct cyc_thread *t, int64_t lat)
{
	struct cyc_run *run = t->run;
	const struct cyc_config *cfg = run->cfg;
	pid_t none = 0;

	if (__atomic_compare_exchange_n(&run->break_tid, &none, t->tid, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		run->break_value = to_unit(cfg->nsecs, lat);
		if (run->trace_fd >= 0) {
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

/* The first deadline: one interval from now, or from -A's / --secaligned's shared start. */
static int64_t first_deadline(const struct cyc_thread *t)
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
 * The loop touches only this thread's own memory, the wait and
 * clock_gettime (sched_getcpu reads the rseq area, no system call). Other
 * system calls happen only on the way out: -b's trace mark.
 */
static void measure(struct cyc_thread *t, timer_t timer)
{
	struct cyc_run *run = t->run;
	const struct cyc_config *cfg = run->cfg;
	const struct timespec interval_ts = lj_ns_to_ts(t->interval_ns);
	struct cyc_pace pace = { .interval_ns = t->interval_ns, .policy = cfg->catchup };
	struct lj_hooks *hooks = run->hooks;
	int64_t min = INT64_MAX, max = INT64_MIN, sum = 0, next, now, lat;
	uint64_t cycles = 0, missed = 0;
	int overrun = 0, ret;
	struct timespec ts;
	sigset_t timer_set;

	sigemptyset(&timer_set);
	sigaddset(&timer_set, SIGRTMIN);
	next = first_deadline(t);
	if (cfg->wait == CYC_WAIT_TIMER) {
		struct itimerspec its = { .it_interval = interval_ts, .it_value = lj_ns_to_ts(next) };

		if (timer_settime(timer, TIMER_ABSTIME, &its, NULL)) {
			t->loop_err = -errno;
			return;
		}
	}
	for (;;) {
		ret = wait_period(t, &next, &interval_ts, &timer_set, &overrun);
		if (ret == EINTR) {
			if (__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE))
				break;
			continue;
		}
		if (ret) {
			t->errors++;
			t->loop_err = -ret;
			break;
		}
		clock_gettime(run->clock, &ts);
		now = lj_ts_to_ns(&ts);
		lat = now - next;
		sum += lat;
		min = lat < min ? lat : min;
		max = lat > max ? lat : max;
		record(t, cycles++, lat, now);
		/*
		 * The hooks (lj_hook): one relaxed load and a compare when none
		 * asked. A negative lat (never seen) reaches lj_hooks_late, which
		 * reads it as 0 and passes it to no hook.
		 */
		if (lj_hooks_wants(hooks, (uint64_t)lat))
			tell_hooks(t, LJ_LATE_SAMPLE, next, now);
		if (cfg->wait == CYC_WAIT_TIMER) {
			/* Measured from the first expiry; the timer keeps its own grid. */
			pace.missed += (uint64_t)overrun;
			next += (1 + (int64_t)overrun) * t->interval_ns;
		} else if (cfg->wait == CYC_WAIT_ABSOLUTE) {
			next = cyc_pace_next(&pace, next, now);
		}
		if (pace.missed != missed) {
			missed = pace.missed;
			if (lj_hooks_wants_missed(hooks))
				tell_hooks(t, LJ_LATE_MISSED, now - lat, now);
		}
		live_publish(t, cycles, min, max, lat, sum, pace.missed);

		if (cfg->breaktrace_ns && lat > cfg->breaktrace_ns) {
			breaktrace(t, lat);
			break;
		}
		/* cyclictest ends the run when the first thread has its -l wake-ups. */
		if ((cfg->loops && cycles >= cfg->loops && !cfg->loops_each) ||
		    (run->stop_at_ns && (run->clock == CLOCK_MONOTONIC ? now : lj_now_ns()) >= run->stop_at_ns))
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELEASE);
		if ((cfg->loops && cycles >= cfg->loops) || __atomic_load_n(&run->stop, __ATOMIC_RELAXED))
			break;
	}
}

void *cyc_thread_main(void *arg)
{
	struct cyc_thread *t = arg;
	struct cyc_run *run = t->run;
	timer_t timer = 0;
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
	if (!t->loop_err && !__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE))
		measure(t, timer);
	if (t->smi_fd > 0 && pread(t->smi_fd, &t->smi_end, sizeof(t->smi_end), CYC_MSR_SMI_COUNT) < 0)
		t->errors++;
	if (run->cfg->wait == CYC_WAIT_TIMER && !ret)
		timer_delete(timer);
	side_metrics(t);
	__atomic_add_fetch(&run->done, 1, __ATOMIC_RELEASE);
	return NULL;
}
