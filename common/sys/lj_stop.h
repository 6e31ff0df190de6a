/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_stop - the stop flag and the one way a tool waits for it: SIGINT/SIGTERM/SIGALRM set it. */
#ifndef LJ_STOP_H
#define LJ_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The stop model every tool uses (docs/architecture.md, "Stopping a run").
 * A run ends when its loop count or duration is reached, or when a signal
 * asks it to. lj_stop_install() makes SIGINT, SIGTERM and SIGALRM (and any
 * signal added with lj_stop_add_signal) set the flag, without SA_RESTART
 * so a blocking call in a thread that takes the signal returns EINTR and
 * the caller re-checks the flag. Measuring loops poll lj_stop_requested(),
 * one load.
 *
 * The thread that waits for the end of the run (the driver's wait phase)
 * waits in lj_stop_wait(): it blocks the stop signals while it checks the
 * flag and then takes them with sigtimedwait, so a signal that arrives
 * between the check and the wait stays pending and ends the wait at once:
 * no stop is ever lost. Threads that must never run a handler (lj-cyclic's
 * measuring threads) are created with the stop signals blocked; the
 * signals then wait, pending, for lj_stop_wait. Forked workers inherit the
 * handlers, so a SIGTERM to a worker asks it to stop cleanly.
 */
int lj_stop_install(void);		/* 0 or -errno */
/* Make @sig stop the run too (lj-cyclic: SIGHUP, as cyclictest). 0 or -errno. */
int lj_stop_add_signal(int sig);
/* The stop signals, to block them in threads about to be created. */
void lj_stop_signals(sigset_t *set);
void lj_stop_request(void);		/* async-signal-safe */
void lj_stop_reset(void);		/* clear the flag (tests, fresh children) */
int lj_stop_signal(void);		/* the signal that stopped the run, 0 if none */

/*
 * Wait up to @timeout_ns for a stop, or for one of @extra (NULL: none; a
 * tool's own signal such as lj-cyclic's SIGUSR1 status request). A stop
 * signal taken here sets the flag as the handler would.
 * Return: the @extra signal taken, or 0 (time out, or a stop: check
 * lj_stop_requested()).
 */
int lj_stop_wait(int64_t timeout_ns, const sigset_t *extra);

extern volatile sig_atomic_t lj_stop_flag;

static inline bool lj_stop_requested(void)
{
	return lj_stop_flag != 0;
}

#endif
