// SPDX-License-Identifier: GPL-2.0-or-later
/* test_stop - the stop flag: signals set it, reset clears it, waits are interrupted. */
#include "lj_stop.h"
#include "tap.h"

#include <errno.h>
#include <pthread.h>
#include <unistd.h>

int main(void)
{
	int fds[2];
	char c;
	ssize_t n;

	plan(11);
	ok(!lj_stop_requested(), "flag starts clear");
	is_int(lj_stop_install(), 0, "handlers install");
	raise(SIGTERM);
	ok(lj_stop_requested(), "SIGTERM sets the flag instead of killing");
	is_int(lj_stop_signal(), SIGTERM, "the stopping signal is recorded");
	lj_stop_reset();
	ok(!lj_stop_requested() && lj_stop_signal() == 0, "reset clears flag and signal");
	lj_stop_request();
	ok(lj_stop_requested() && lj_stop_signal() == 0, "a programmatic request has no signal");
	lj_stop_reset();

	/* A blocking read must return EINTR (no SA_RESTART) so loops see the flag. */
	if (pipe(fds)) {
		skip(2, "pipe failed");
		return done();
	}
	ualarm(100000, 0);	/* 0.1 s: keep the test short */
	n = read(fds[0], &c, 1);
	ok(n < 0 && errno == EINTR, "SIGALRM interrupts a blocking read");
	is_int(lj_stop_signal(), SIGALRM, "SIGALRM recorded");

	/* lj_stop_wait: a stop that came while the signal was blocked is not lost. */
	lj_stop_reset();
	{
		sigset_t set, old;

		lj_stop_signals(&set);
		pthread_sigmask(SIG_BLOCK, &set, &old);
		raise(SIGTERM);		/* pending: the handler has not run */
		ok(!lj_stop_requested(), "a blocked SIGTERM waits, pending");
		is_int(lj_stop_wait(10LL * 1000000000, NULL), 0, "lj_stop_wait takes it at once");
		ok(lj_stop_requested() && lj_stop_signal() == SIGTERM, "...and sets the flag");
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return done();
}
