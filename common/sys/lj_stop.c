// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_stop - the stop flag set by SIGINT/SIGTERM/SIGALRM, and the race-free wait for it. */
#include "lj_stop.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "lj_time.h"

/* The process's stop state: the globals docs/architecture.md allows. */
volatile sig_atomic_t lj_stop_flag;
static volatile sig_atomic_t stop_sig;
static sigset_t stop_set;		/* written before any thread exists */

static void on_stop(int sig)
{
	stop_sig = sig;
	lj_stop_flag = 1;
}

int lj_stop_add_signal(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read/wait must return so the flag is seen. */
	sa.sa_flags = 0;
	if (sigaction(sig, &sa, NULL))
		return -errno;
	sigaddset(&stop_set, sig);
	return 0;
}

int lj_stop_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGALRM };

	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int err = lj_stop_add_signal(sigs[i]);

		if (err)
			return err;
	}
	return 0;
}

void lj_stop_signals(sigset_t *set)
{
	*set = stop_set;
}

void lj_stop_request(void)
{
	lj_stop_flag = 1;
}

void lj_stop_reset(void)
{
	lj_stop_flag = 0;
	stop_sig = 0;
}

int lj_stop_signal(void)
{
	return stop_sig;
}

int lj_stop_wait(int64_t timeout_ns, const sigset_t *extra)
{
	struct timespec ts = lj_ns_to_ts(timeout_ns > 0 ? timeout_ns : 0);
	sigset_t set = stop_set, old;
	int sig = 0;

	if (extra)
		sigorset(&set, &set, extra);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	/* Checked with the signals blocked: one arriving now waits, pending, for sigtimedwait. */
	if (!lj_stop_flag) {
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig > 0 && sigismember(&stop_set, sig)) {
			on_stop(sig);
			sig = 0;
		} else if (sig < 0) {
			sig = 0;	/* timed out, or another signal's handler ran */
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return sig;
}
