/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_stop - the stop flag: the one mutable global a tool has, set by SIGINT/SIGTERM/SIGALRM. */
#ifndef LJ_STOP_H
#define LJ_STOP_H

#include <signal.h>
#include <stdbool.h>

/*
 * A run ends when its loop count or duration is reached, or when a signal
 * asks it to. lj_stop_install() makes SIGINT, SIGTERM and SIGALRM set the
 * flag (without SA_RESTART, so a blocking wait returns EINTR and the
 * caller re-checks the flag); measuring loops poll lj_stop_requested(),
 * which is one relaxed load. Forked workers inherit the handlers, so a
 * SIGTERM to a worker asks it to stop cleanly rather than kill it.
 */
int lj_stop_install(void);		/* 0 or -errno */
void lj_stop_request(void);		/* async-signal-safe */
void lj_stop_reset(void);		/* clear the flag (tests, fresh children) */
int lj_stop_signal(void);		/* the signal that stopped the run, 0 if none */

extern volatile sig_atomic_t lj_stop_flag;

static inline bool lj_stop_requested(void)
{
	return lj_stop_flag != 0;
}

#endif
