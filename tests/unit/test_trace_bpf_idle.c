// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_trace_bpf_idle - the BPF recorder on an idle CPU's wake-ups: a
 * thread that sleeps 1 ms at a time on an idle CPU is woken by the local
 * timer's interrupt, whose records end the idle, so its switch-in from
 * the idle task follows the interrupt's records (and, on PREEMPT_RT, the
 * wake-up of the softirq thread its exit makes); and no cpu_idle record
 * is written (the recorder has no program there: the interrupt, or the
 * switch away from idle, says when the idle ended).
 * Root and a kernel with BTF, else skipped.
 */
#include "lj_explain.h"
#include "lj_trace.h"
#include "tap.h"

#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLEEPS 300

/* Sleep 1 ms @n times on @cpu (SCHED_FIFO where allowed: PREEMPT_RT wakes other tasks from a thread). */
static int sleep_on(int cpu, int n)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };
	int policy = sched_getscheduler(0);
	cpu_set_t one, was;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_getaffinity(0, sizeof(was), &was) || sched_setaffinity(0, sizeof(one), &one))
		return -1;
	sched_setscheduler(0, SCHED_FIFO, &fifo);
	for (int i = 0; i < n; i++)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ .tv_nsec = 1000000 }, NULL);
	sched_setscheduler(0, policy, &other);
	return sched_setaffinity(0, sizeof(was), &was);
}

int main(void)
{
	int cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	pid_t tid = gettid();
	struct lj_trace *t = NULL;
	const struct lj_tev_seq *s;
	size_t from_idle = 0, after_irq = 0, idle_records = 0, other_before[LJ_TEV_NTYPES] = { 0 };
	char why[256] = "";
	cpu_set_t cpus;

	if (geteuid())
		skip_all("needs root (BPF)");
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (lj_trace_open(&t, &cpus, 0, LJ_TRACE_BPF, why, sizeof(why)))
		skip_all(why[0] ? why : "the BPF recorder cannot start here");
	plan(4);
	is_int(sleep_on(cpu, SLEEPS), 0, "slept on the last CPU");
	is_int(lj_trace_collect(t, false, why, sizeof(why)), 0, "the rings read");
	s = &lj_trace_view(t)->cpus[cpu];
	for (size_t i = 1; i < s->n; i++) {
		const struct lj_tev *e = &s->ev[i], *before;
		size_t j = i - 1;

		idle_records += e->type == LJ_TEV_IDLE;
		if (e->type != LJ_TEV_SWITCH || e->sw.next_pid != tid || e->sw.prev_pid != 0)
			continue;
		from_idle++;
		/* past other tasks' wake-ups: PREEMPT_RT's interrupt exit wakes ksoftirqd after the timer's exit record */
		while (j > 0 && s->ev[j].type == LJ_TEV_WAKING && s->ev[j].wake.pid != tid)
			j--;
		before = &s->ev[j];
		if (before->type == LJ_TEV_TIMER_EXIT || before->type == LJ_TEV_IRQ_EXIT ||
		    before->type == LJ_TEV_SOFTIRQ_EXIT)
			after_irq++;
		else
			other_before[before->type]++;
	}
	for (int k = 0; k < LJ_TEV_NTYPES; k++)
		if (other_before[k])
			diag("%zu switch-ins from idle right after a %s record", other_before[k], lj_tev_type_name(k));
	diag("%zu switch-ins from idle over %d sleeps: %zu right after an interrupt's records; %zu cpu_idle records",
	     from_idle, SLEEPS, after_irq, idle_records);
	if (from_idle < SLEEPS / 10)
		skip(1, "the CPU was seldom idle before a wake-up (another task ran there)");
	else
		ok(after_irq >= from_idle * 3 / 4, "a switch-in from idle follows the interrupt that woke the thread");
	is_int((int)idle_records, 0, "no cpu_idle record: the recorder has no program on that tracepoint");
	lj_trace_close(t, false, why, sizeof(why));
	return done();
}
