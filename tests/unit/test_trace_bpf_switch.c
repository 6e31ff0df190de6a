// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_trace_bpf_switch - the BPF recorder's two sched_switch programs
 * report the same states. Kernels before 5.18 (the 5.15 of Android's
 * and ChromeOS's boards among them) have no prev_state argument, and the
 * program for them reads the task's own state; make check-kernels has no
 * such kernel (Debian released none from 5.12 to 5.17), so both programs
 * run on any kernel, one after the other (lj_trace_bpf_switch_form:
 * the forced form also takes the path of such a kernel, its programs chosen
 * by its BTF after the guessed ones fail to load),
 * on the same work: a thread that sleeps 1 ms at a time (each switch-out
 * reported sleeping, S), then spins while a higher-priority thread on its
 * CPU wakes every millisecond (each switch-out reported runnable). The
 * object for kernels before 5.12 (no atomic fetch-and-add: Debian 11's
 * 5.10, Android's) records the same work a third time, whatever the
 * kernel, and must report the same.
 * Root and a kernel with BTF, else skipped.
 */
#include "lj_explain.h"
#include "lj_trace.h"
#include "lj_trace_bpf.h"
#include "tap.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define SLEEPS 100
#define WAKES 50

static int cpu;
static atomic_bool waker_done;

static void one_ms(void)
{
	clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ .tv_nsec = 1000000 }, NULL);
}

static int pin_fifo(int prio)
{
	struct sched_param p = { .sched_priority = prio };
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	return sched_setscheduler(0, SCHED_FIFO, &p) ? 1 : 0;
}

static void *waker(void *arg)
{
	(void)arg;
	for (int i = 0; i < WAKES; i++)
		one_ms();
	atomic_store(&waker_done, true);
	return NULL;
}

/* The waker, started FIFO 2 on the CPU: created as its creator's FIFO 1, it would wait for the spin to end. */
static int start_waker(pthread_t *th)
{
	struct sched_param p = { .sched_priority = 2 };
	pthread_attr_t a;
	cpu_set_t one;
	int err;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &p);
	pthread_attr_setaffinity_np(&a, sizeof(one), &one);
	err = pthread_create(th, &a, waker, NULL);
	pthread_attr_destroy(&a);
	return err;
}

struct counts {
	size_t sleeping, runnable, other;
	uint64_t old_runs, new_runs;	/* the two programs' runs */
	bool fifo, plain;		/* plain: the object for kernels before 5.12 ran */
};

/*
 * Record the work with the sched_switch program of @form (0: the
 * kernel's own), from the object for kernels before 5.12 if @plain.
 * Return: 0; -1 the recorder did not start, 1 its rings were not read
 * (@why says why).
 */
static int record(int form, bool plain, struct counts *c, char *why, size_t len)
{
	struct lj_trace_prog_cost p[LJ_TRACE_MAXPROGS];
	struct lj_trace *t = NULL;
	const struct lj_tev_seq *s;
	pid_t tid = gettid();
	pthread_t th;
	cpu_set_t cpus;
	int n;

	*c = (struct counts){ 0 };
	lj_trace_bpf_switch_form = form;
	lj_trace_bpf_plain_claim = plain;
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (lj_trace_open(&t, &cpus, 0, LJ_TRACE_BPF, why, len))
		return -1;
	c->plain = lj_trace_bpf_plain(t);
	if (lj_trace_measure_programs(t, why, len)) {
		lj_trace_close(t, false, NULL, 0);
		return -1;
	}
	c->fifo = pin_fifo(1) == 0;
	for (int i = 0; i < SLEEPS; i++)
		one_ms();
	atomic_store(&waker_done, false);
	if (c->fifo && !(c->fifo = start_waker(&th) == 0))
		diag("the waker thread could not start at SCHED_FIFO 2");
	if (c->fifo) {
		while (!atomic_load(&waker_done))
			;
		pthread_join(th, NULL);
	}
	sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	lj_trace_off(t);
	if (lj_trace_collect(t, false, why, len)) {
		lj_trace_close(t, false, NULL, 0);
		return 1;
	}
	s = &lj_trace_view(t)->cpus[cpu];
	for (size_t i = 0; i < s->n; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type != LJ_TEV_SWITCH || e->sw.prev_pid != tid)
			continue;
		if (e->sw.prev_state == 0x1)
			c->sleeping++;
		else if ((e->sw.prev_state & LJ_TEV_STATE_MASK) == 0)
			c->runnable++;
		else
			c->other++;
	}
	n = lj_trace_programs(t, p, LJ_TRACE_MAXPROGS);
	for (int i = 0; i < n; i++) {
		if (!strcmp(p[i].program, "lj_switch"))
			c->new_runs = p[i].runs;
		else if (!strcmp(p[i].program, "lj_switch_old"))
			c->old_runs = p[i].runs;
	}
	lj_trace_close(t, false, NULL, 0);
	return 0;
}

/* The running kernel is older than @major.@minor. */
static bool kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

int main(void)
{
	struct counts cur, old, plain;
	char why[256] = "";
	cpu_set_t was;

	if (geteuid())
		skip_all("needs root (BPF)");
	cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (sched_getaffinity(0, sizeof(was), &was))
		skip_all("sched_getaffinity failed");
	if (record(0, false, &cur, why, sizeof(why)) < 0)
		skip_all(why[0] ? why : "the BPF recorder cannot start here");
	plan(15);
	if (!ok(record(4, false, &old, why, sizeof(why)) == 0, "the recorder starts with the program for kernels before 5.18"))
		diag("%s", why);
	if (!ok(record(0, true, &plain, why, sizeof(why)) == 0, "the recorder starts with the object for kernels before 5.12"))
		diag("%s", why);
	sched_setaffinity(0, sizeof(was), &was);
	diag("switch-outs of the thread, sleeping / runnable / other: kernel's form %zu / %zu / %zu, before-5.18 form %zu / %zu / %zu, before-5.12 object %zu / %zu / %zu",
	     cur.sleeping, cur.runnable, cur.other, old.sleeping, old.runnable, old.other,
	     plain.sleeping, plain.runnable, plain.other);
	is_int(cur.plain, kernel_before(5, 12), "the kernel's own choice of object: the one without atomics before 5.12 only");
	ok(plain.plain, "...and the one without atomics when asked for");
	ok(plain.sleeping >= SLEEPS * 9 / 10 && plain.other <= 5,
	   "the object without atomics: a switch-out in a sleep reported sleeping, no other state");
	diag("runs of the 5.18 program / the older one: %llu / %llu, then %llu / %llu",
	     (unsigned long long)cur.new_runs, (unsigned long long)cur.old_runs,
	     (unsigned long long)old.new_runs, (unsigned long long)old.old_runs);
	if (!kernel_before(5, 18))
		ok(cur.new_runs > 0 && cur.old_runs == 0, "the kernel's own form (5.18 or later) ran the program with prev_state");
	else
		ok(cur.old_runs > 0 && cur.new_runs == 0, "the kernel's own form (before 5.18) ran the program that reads the task's state");
	ok(old.old_runs > 0 && old.new_runs == 0, "the forced form (programs chosen by the BTF) ran the program that reads the task's state");
	ok(cur.sleeping >= SLEEPS * 9 / 10, "the kernel's own form: a switch-out in a sleep is reported sleeping");
	ok(old.sleeping >= SLEEPS * 9 / 10, "from the task's state: the same");
	ok(old.other <= 5 && cur.other <= 5, "no other state reported (at most 5 of either)");
	ok(old.sleeping + 10 >= cur.sleeping && cur.sleeping + 10 >= old.sleeping,
	   "the two report as many sleeps, within 10");
	if (!cur.fifo || !old.fifo) {
		skip(2, "SCHED_FIFO not granted here: no preemption to report");
	} else {
		ok(cur.runnable >= WAKES * 4 / 5, "the kernel's own form: a preempted switch-out is reported runnable");
		ok(old.runnable >= WAKES * 4 / 5, "from the task's state: the same");
	}
	if (!plain.fifo)
		skip(2, "SCHED_FIFO not granted here: no preemption to report");
	else {
		ok(plain.runnable >= WAKES * 4 / 5, "the object without atomics: a preempted switch-out reported runnable");
		ok(plain.sleeping + 10 >= cur.sleeping && cur.sleeping + 10 >= plain.sleeping,
		   "...and as many sleeps as the kernel's own, within 10");
	}
	return done();
}
