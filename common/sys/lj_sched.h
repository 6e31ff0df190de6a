/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_sched - scheduling policy and priority, deadline via sched_setattr, mlockall, timer slack. */
#ifndef LJ_SCHED_H
#define LJ_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum lj_policy {
	LJ_POLICY_OTHER,
	LJ_POLICY_BATCH,
	LJ_POLICY_IDLE,
	LJ_POLICY_FIFO,
	LJ_POLICY_RR,
	LJ_POLICY_DEADLINE,
};

struct lj_sched_param {
	enum lj_policy policy;
	int priority;		/* 1..99 for fifo/rr */
	int nice;		/* for other/batch */
	/* SCHED_DEADLINE, ns */
	uint64_t runtime_ns, deadline_ns, period_ns;
};

/* "other", "normal", "batch", "idle", "fifo", "rr", "deadline"; -EINVAL otherwise. */
int lj_sched_policy_parse(const char *s, enum lj_policy *out);
const char *lj_sched_policy_name(enum lj_policy p);

/*
 * Apply @p to thread @tid (0 = caller). Return: 0 or -errno (-EPERM
 * without privilege; the caller decides whether to fall back).
 */
int lj_sched_apply(pid_t tid, const struct lj_sched_param *p);

/* Read back the policy and priority of @tid. */
int lj_sched_get(pid_t tid, struct lj_sched_param *out);

/*
 * The one "under a sanitizer?" rule: decided at compile time, never by an
 * environment variable, so a normal build always locks its memory. Built
 * with AddressSanitizer, whose shadow memory is terabytes of address
 * space that cannot be locked and whose frames need bigger thread stacks.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LJ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LJ_SANITIZED 1
#endif
#endif
#ifndef LJ_SANITIZED
#define LJ_SANITIZED 0
#endif

/*
 * mlockall(MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT): pages already resident and
 * every page faulted in later are locked, untouched ones stay out (so a
 * shared library's unused code does not become resident). A kernel
 * without MCL_ONFAULT (EINVAL) gets MCL_CURRENT|MCL_FUTURE. *@on_fault
 * (may be NULL) says which. In a sanitizer build (LJ_SANITIZED) it locks
 * nothing and returns 0.
 */
int lj_sched_mlockall(bool *on_fault);

/* Prefault @bytes of the caller's stack, clamped to what its stack has left. */
void lj_sched_prefault_stack(size_t bytes);

/*
 * PR_SET_TIMERSLACK for the caller (set after the policy: returning to
 * OTHER resets it; RT tasks ignore it). 0 means the smallest slack, 1 ns,
 * not the kernel's "back to the default".
 */
int lj_sched_timer_slack(uint64_t ns);

/* Stack size to give measurement threads so mlockall'd processes do not hit RLIMIT_MEMLOCK. */
#define LJ_SCHED_THREAD_STACK (256 * 1024)

#endif
