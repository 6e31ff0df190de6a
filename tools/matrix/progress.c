// SPDX-License-Identifier: GPL-2.0-or-later
/* progress - one live line on a terminal, plain log lines otherwise (stderr). */
#include "matrix.h"
#include "lj_err.h"
#include "lj_time.h"

#include <stdio.h>
#include <unistd.h>

static void fmt_secs(char *buf, size_t len, int64_t ns)
{
	long s = (long)(ns / LJ_NSEC_PER_SEC);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

void mx_progress(struct mx_run *r, size_t cell_no, size_t ncells, const char *what,
		 int run_no, int nruns, bool warmup)
{
	int64_t el = lj_now_ns() - r->t0_ns;
	char elapsed[32], eta[32] = "?";

	if (lj_err_verbosity() < 0)
		return;
	fmt_secs(elapsed, sizeof(elapsed), el);
	/* ETA from the runs done in this invocation: the average so far. */
	if (r->runs_done)
		fmt_secs(eta, sizeof(eta),
			 (int64_t)((double)el / r->runs_done * (r->runs_total - r->runs_done)));
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[Kcell %zu/%zu %s %s %d/%d  elapsed %s  ETA %s", cell_no,
			ncells, what, warmup ? "warmup" : "run", run_no, nruns, elapsed, eta);
	else
		fprintf(stderr, "%s: cell %zu/%zu %s: %s %d/%d (elapsed %s, ETA %s)\n", lj_prog(),
			cell_no, ncells, what, warmup ? "warmup" : "run", run_no, nruns, elapsed, eta);
}

void mx_progress_end(struct mx_run *r)
{
	if (lj_err_verbosity() >= 0 && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
}
