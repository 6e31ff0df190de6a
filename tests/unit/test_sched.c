// SPDX-License-Identifier: GPL-2.0-or-later
/* test_sched - policies (fifo/deadline when root), mlockall, stack prefault, timer slack. */
#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lj_sched.h"
#include "lj_time.h"
#include "tap.h"

/*
 * Policy changes happen in short-lived threads, so the test's own main
 * thread never becomes RT or deadline (a deadline task cannot even
 * change its affinity back).
 */
struct job {
	struct lj_sched_param set, got;
	int set_ret, get_ret;
	size_t prefault;
	size_t touch;
	long faults;
};

static void *apply_job(void *arg)
{
	struct job *j = arg;
	pid_t tid = (pid_t)syscall(SYS_gettid);

	j->set_ret = lj_sched_apply(tid, &j->set);
	j->get_ret = lj_sched_get(0, &j->got);
	return NULL;
}

static struct job run_apply(const struct lj_sched_param *p)
{
	struct job j = { .set = *p };
	pthread_t th;

	if (pthread_create(&th, NULL, apply_job, &j)) {
		j.set_ret = j.get_ret = -EAGAIN;
		return j;
	}
	pthread_join(th, NULL);
	return j;
}

static void test_names(void)
{
	enum lj_policy p = LJ_POLICY_OTHER;

	ok(!lj_sched_policy_parse("fifo", &p) && p == LJ_POLICY_FIFO, "fifo parses");
	ok(!lj_sched_policy_parse("normal", &p) && p == LJ_POLICY_OTHER, "normal is other");
	ok(!lj_sched_policy_parse("DEADLINE", &p) && p == LJ_POLICY_DEADLINE, "case-insensitive");
	is_int(lj_sched_policy_parse("fast", &p), -EINVAL, "unknown policy");
	is_int(lj_sched_policy_parse("", &p), -EINVAL, "empty policy");
	is_str(lj_sched_policy_name(LJ_POLICY_RR), "rr", "rr's name");
	is_str(lj_sched_policy_name(LJ_POLICY_IDLE), "idle", "idle's name");
}

static void test_normal_policies(void)
{
	struct lj_sched_param p = { .policy = LJ_POLICY_BATCH, .nice = 5 };
	struct job j;

	/* Raising nice needs no privilege. */
	j = run_apply(&p);
	is_int(j.set_ret, 0, "batch nice 5 applies");
	ok(!j.get_ret && j.got.policy == LJ_POLICY_BATCH && j.got.nice == 5,
	   "batch nice 5 reads back");
	p = (struct lj_sched_param){ .policy = LJ_POLICY_IDLE };
	j = run_apply(&p);
	ok(!j.set_ret && !j.get_ret && j.got.policy == LJ_POLICY_IDLE, "idle applies and reads back");
	p = (struct lj_sched_param){ .policy = LJ_POLICY_OTHER, .nice = 20 };
	is_int(run_apply(&p).set_ret, -EINVAL, "nice 20 is out of range");
	p = (struct lj_sched_param){ .policy = LJ_POLICY_FIFO, .priority = 0 };
	is_int(run_apply(&p).set_ret, -EINVAL, "fifo priority 0 is rejected");
	p.priority = 100;
	is_int(run_apply(&p).set_ret, -EINVAL, "fifo priority 100 is rejected");
	p = (struct lj_sched_param){ .policy = LJ_POLICY_DEADLINE, .runtime_ns = 2000000,
				     .deadline_ns = 1000000, .period_ns = 1000000 };
	is_int(run_apply(&p).set_ret, -EINVAL, "deadline runtime > deadline is rejected");
	p.runtime_ns = 0;
	is_int(run_apply(&p).set_ret, -EINVAL, "deadline runtime 0 is rejected");
	p = (struct lj_sched_param){ .policy = (enum lj_policy)42 };
	is_int(run_apply(&p).set_ret, -EINVAL, "an unknown policy value is rejected");
}

static void test_rt_policies(void)
{
	struct lj_sched_param p = { .policy = LJ_POLICY_FIFO, .priority = 1 };
	struct job j;

	if (geteuid()) {
		skip(4, "fifo/deadline need root");
		return;
	}
	j = run_apply(&p);
	if (j.set_ret == -EPERM) {
		/* Root can still be refused: RT group scheduling with no runtime for our cgroup. */
		skip(2, "SCHED_FIFO refused as root (cgroup cpu.rt_runtime_us = 0?)");
	} else {
		is_int(j.set_ret, 0, "fifo 1 applies as root");
		ok(!j.get_ret && j.got.policy == LJ_POLICY_FIFO && j.got.priority == 1,
		   "fifo 1 reads back");
	}
	p = (struct lj_sched_param){ .policy = LJ_POLICY_DEADLINE, .runtime_ns = 100000,
				     .deadline_ns = 1000000, .period_ns = 0 };
	j = run_apply(&p);
	if (j.set_ret == -EPERM || j.set_ret == -EBUSY) {
		/* EPERM: affinity narrower than the root domain; EBUSY: no bandwidth left. */
		skip(2, "SCHED_DEADLINE refused here (restricted affinity or no bandwidth)");
		return;
	}
	is_int(j.set_ret, 0, "deadline 100us/1ms applies as root");
	ok(!j.get_ret && j.got.policy == LJ_POLICY_DEADLINE && j.got.runtime_ns == 100000 &&
	   j.got.deadline_ns == 1000000 && j.got.period_ns == 1000000,
	   "deadline reads back, period defaulting to the deadline");
}

static long read_vmlck_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void test_mlock(void)
{
	int ret = lj_sched_mlockall(NULL);

	if (LJ_SANITIZED) {
		is_int(ret, 0, "mlockall under a sanitizer is skipped");
		ok(read_vmlck_kb() == 0, "and locks nothing");
		return;
	}
	if (geteuid()) {
		/* Unprivileged: the memlock limit may be too small for what is mapped. */
		ok(ret == 0 || ret == -ENOMEM || ret == -EPERM, "mlockall: 0 or a clean -errno");
		ok(ret || read_vmlck_kb() > 0, "mlockall: when it succeeds, memory is locked");
	} else {
		is_int(ret, 0, "mlockall as root");
		ok(read_vmlck_kb() > 0, "mlockall locks memory");
	}
	munlockall();
}

/* Use @bytes of stack, as a measuring loop's frames would. */
static __attribute__((noinline)) void use_stack(size_t bytes)
{
	volatile char *p = alloca(bytes);
	size_t i;

	for (i = 0; i < bytes; i += 512)
		p[i] = (char)i;
}

static void *fault_job(void *arg)
{
	struct job *j = arg;
	struct rusage a, b;

	if (j->prefault)
		lj_sched_prefault_stack(j->prefault);
	getrusage(RUSAGE_THREAD, &a);
	use_stack(j->touch);
	getrusage(RUSAGE_THREAD, &b);
	j->faults = b.ru_minflt - a.ru_minflt;
	return NULL;
}

/* Run @j on a fresh, never-touched stack of @size bytes. */
static int run_on_fresh_stack(struct job *j, size_t size)
{
	pthread_attr_t attr;
	pthread_t th;
	void *stack;
	int ret;

	stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED)
		return -errno;
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, stack, size);
	ret = -pthread_create(&th, &attr, fault_job, j);
	if (!ret)
		pthread_join(th, NULL);
	pthread_attr_destroy(&attr);
	munmap(stack, size);
	return ret;
}

static void test_prefault(void)
{
	struct job cold = { .touch = 128 * 1024 };
	struct job warm = { .prefault = 192 * 1024, .touch = 128 * 1024 };
	struct job huge = { .prefault = (size_t)1 << 30, .touch = 4096 };

	ok(!run_on_fresh_stack(&cold, LJ_SCHED_THREAD_STACK), "thread on a fresh stack runs");
	ok(!run_on_fresh_stack(&warm, LJ_SCHED_THREAD_STACK), "prefaulted thread runs");
	diag("page faults touching 128 KiB of stack: %ld cold, %ld prefaulted",
	     cold.faults, warm.faults);
	ok(cold.faults >= 16, "a cold stack faults as it grows");
	ok(warm.faults < cold.faults / 4, "a prefaulted stack does not");
	ok(!run_on_fresh_stack(&huge, LJ_SCHED_THREAD_STACK),
	   "prefaulting 1 GiB on a 256 KiB stack is clamped, not a crash");
}

static void test_timer_slack(void)
{
	is_int(lj_sched_timer_slack(1000), 0, "timer slack 1000 ns");
	is_int(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), 1000, "reads back as 1000");
	is_int(lj_sched_timer_slack(0), 0, "timer slack 0");
	is_int(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), 1, "0 means the smallest slack, 1 ns");
}

int main(void)
{
	plan_no_plan();
	test_names();
	test_normal_policies();
	test_rt_policies();
	test_mlock();
	test_prefault();
	test_timer_slack();
	return done();
}
