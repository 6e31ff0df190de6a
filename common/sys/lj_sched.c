// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_sched - scheduling policy and priority, deadline via sched_setattr, mlockall, timer slack. */
#include "lj_sched.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <alloca.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/*
 * The kernel's struct sched_attr (first version, 48 bytes). Declared here
 * because <linux/sched/types.h> clashes with <sched.h> and glibc has no
 * sched_setattr wrapper. The kernel accepts this size and zero-fills the
 * newer utilisation-clamp fields.
 */
struct lj_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static const struct {
	const char *name;
	enum lj_policy policy;
	int kernel;
} policies[] = {
	{ "other", LJ_POLICY_OTHER, SCHED_OTHER },
	{ "normal", LJ_POLICY_OTHER, SCHED_OTHER },
	{ "batch", LJ_POLICY_BATCH, SCHED_BATCH },
	{ "idle", LJ_POLICY_IDLE, SCHED_IDLE },
	{ "fifo", LJ_POLICY_FIFO, SCHED_FIFO },
	{ "rr", LJ_POLICY_RR, SCHED_RR },
	{ "deadline", LJ_POLICY_DEADLINE, SCHED_DEADLINE },
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

int lj_sched_policy_parse(const char *s, enum lj_policy *out)
{
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < NPOLICIES; i++) {
		if (!strcasecmp(s, policies[i].name)) {
			*out = policies[i].policy;
			return 0;
		}
	}
	return -EINVAL;
}

const char *lj_sched_policy_name(enum lj_policy p)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == p)
			return policies[i].name;
	return "unknown";
}

static int kernel_policy(enum lj_policy p)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == p)
			return policies[i].kernel;
	return -1;
}

int lj_sched_apply(pid_t tid, const struct lj_sched_param *p)
{
	struct lj_sched_attr attr;
	int kp = kernel_policy(p->policy);

	if (kp < 0)
		return -EINVAL;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sched_policy = (uint32_t)kp;
	switch (p->policy) {
	case LJ_POLICY_FIFO:
	case LJ_POLICY_RR:
		if (p->priority < 1 || p->priority > 99)
			return -EINVAL;
		attr.sched_priority = (uint32_t)p->priority;
		break;
	case LJ_POLICY_DEADLINE: {
		uint64_t period = p->period_ns ? p->period_ns : p->deadline_ns;

		/* The kernel's own rule; checked here so the caller gets EINVAL, not EBUSY. */
		if (!p->runtime_ns || p->runtime_ns > p->deadline_ns || p->deadline_ns > period)
			return -EINVAL;
		attr.sched_runtime = p->runtime_ns;
		attr.sched_deadline = p->deadline_ns;
		attr.sched_period = period;
		break;
	}
	default:
		if (p->nice < -20 || p->nice > 19)
			return -EINVAL;
		attr.sched_nice = p->nice;
		break;
	}
	if (syscall(SYS_sched_setattr, tid, &attr, 0))
		return -errno;
	return 0;
}

int lj_sched_get(pid_t tid, struct lj_sched_param *out)
{
	struct lj_sched_attr attr;
	size_t i;

	memset(&attr, 0, sizeof(attr));
	if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0))
		return -errno;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].kernel == (int)attr.sched_policy)
			break;
	/* e.g. SCHED_EXT: a policy this library cannot express. */
	if (i == NPOLICIES)
		return -ENOTSUP;
	out->policy = policies[i].policy;
	out->priority = (int)attr.sched_priority;
	out->nice = attr.sched_nice;
	out->runtime_ns = attr.sched_runtime;
	out->deadline_ns = attr.sched_deadline;
	out->period_ns = attr.sched_period;
	return 0;
}

#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif

int lj_sched_mlockall(bool *on_fault)
{
	if (on_fault)
		*on_fault = false;
	if (LJ_SANITIZED)
		return 0;	/* ASan's shadow memory cannot be locked */
	if (!mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) {
		if (on_fault)
			*on_fault = true;
		return 0;
	}
	/* Before Linux 4.4 MCL_ONFAULT is EINVAL: lock everything instead. */
	if (errno != EINVAL)
		return -errno;
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return -errno;
	return 0;
}

/*
 * Touch @bytes of stack below the caller's frame so the measuring loop
 * takes no page fault on first use of its stack. Clamped to what the
 * thread's stack has left (minus a margin), so asking for more than a
 * small thread stack holds cannot overflow it.
 */
void lj_sched_prefault_stack(size_t bytes)
{
	const size_t margin = 32 * 1024;
	const long page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	pthread_attr_t attr;
	void *lo = NULL;
	size_t size = 0, avail;
	volatile char *p;
	char here;
	size_t i;

	if (!pthread_getattr_np(pthread_self(), &attr)) {
		if (pthread_attr_getstack(&attr, &lo, &size))
			lo = NULL;
		pthread_attr_destroy(&attr);
	}
	if (lo && (char *)lo < &here) {
		avail = (size_t)(&here - (char *)lo);
		avail = avail > margin ? avail - margin : 0;
		if (bytes > avail)
			bytes = avail;
	}
	if (!bytes)
		return;
	p = alloca(bytes);
	for (i = 0; i < bytes; i += (size_t)page)
		p[i] = 0;
	p[bytes - 1] = 0;
}

/*
 * The kernel reads a slack of 0 as "back to the default" (50 us), the
 * opposite of what a caller asking for 0 means: use the smallest, 1 ns.
 */
int lj_sched_timer_slack(uint64_t ns)
{
	if (prctl(PR_SET_TIMERSLACK, (unsigned long)(ns ? ns : 1), 0, 0, 0))
		return -errno;
	return 0;
}
