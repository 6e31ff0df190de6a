// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_stop - the stop flag set by SIGINT/SIGTERM/SIGALRM. */
#include "lj_stop.h"

#include <errno.h>
#include <string.h>

volatile sig_atomic_t lj_stop_flag;
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
	lj_stop_flag = 1;
}

int lj_stop_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGALRM };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read/wait must return so the flag is seen. */
	sa.sa_flags = 0;
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return 0;
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
