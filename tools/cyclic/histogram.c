// SPDX-License-Identifier: GPL-2.0-or-later
/* histogram.c - cyclictest's -h/-H histogram and its "# ... Latencies:" summary lines. */
#include "cyclic.h"

#include <errno.h>

#include "lj_err.h"
#include "lj_outfile.h"
#include "lj_hist.h"

/*
 * The layout rt-tests 2.x prints (checked against cyclictest 2.40): every
 * bucket row "%06d" then each thread's count "%06lu" tab-separated, -H
 * adding a sum column when there is more than one thread; then the
 * "# Total:", "# Min/Avg/Max Latencies:", "# Histogram Overflows:" lines
 * and the cycle numbers of the first overflows per thread. Latencies are
 * in the display unit (us, ns with -N), one unit per bucket.
 */
static void print_to(struct cyc_run *run, FILE *f)
{
	const struct cyc_config *cfg = run->cfg;
	bool sumcol = cfg->histofall && run->nthreads > 1;
	unsigned long long all = 0, alloflows = 0;
	long long maxmax = 0;

	fprintf(f, "# Histogram\n");
	for (int64_t b = 0; b < cfg->histogram; b++) {
		unsigned long long sum = 0;

		fprintf(f, "%06lld ", (long long)b);
		for (int i = 0; i < run->nthreads; i++) {
			unsigned long long v = run->th[i].cthist[b];

			fprintf(f, "%s%06llu", i ? "\t" : "", v);
			sum += v;
		}
		if (sumcol)
			fprintf(f, "\t%06llu", sum);
		fprintf(f, "\n");
	}

	fprintf(f, "# Total:");
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];
		unsigned long long in = lj_hist_count(t->hist) - t->cthist_overflows;

		fprintf(f, " %09llu", in);
		all += in;
	}
	if (sumcol)
		fprintf(f, " %09llu", all);
	fprintf(f, "\n");

	fprintf(f, "# Min Latencies:");
	for (int i = 0; i < run->nthreads; i++)
		fprintf(f, " %05lld", (long long)cyc_to_unit(cfg, lj_hist_min(run->th[i].hist)));
	fprintf(f, "\n# Avg Latencies:");
	for (int i = 0; i < run->nthreads; i++)
		fprintf(f, " %05lld", (long long)cyc_to_unit(cfg, (int64_t)lj_hist_mean(run->th[i].hist)));
	fprintf(f, "\n# Max Latencies:");
	for (int i = 0; i < run->nthreads; i++) {
		long long m = cyc_to_unit(cfg, lj_hist_max(run->th[i].hist));

		fprintf(f, " %05lld", m);
		if (m > maxmax)
			maxmax = m;
	}
	if (sumcol)
		fprintf(f, " %05lld", maxmax);
	fprintf(f, "\n# Histogram Overflows:");
	for (int i = 0; i < run->nthreads; i++) {
		fprintf(f, " %05llu", (unsigned long long)run->th[i].cthist_overflows);
		alloflows += run->th[i].cthist_overflows;
	}
	if (sumcol)
		fprintf(f, " %05llu", alloflows);
	fprintf(f, "\n# Histogram Overflow at cycle number:\n");
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];
		uint64_t kept = t->cthist_overflows;

		if (kept > (uint64_t)cfg->histogram)
			kept = cfg->histogram;
		fprintf(f, "# Thread %d:", i);
		for (uint64_t k = 0; k < kept; k++)
			fprintf(f, " %05llu", (unsigned long long)t->oflow_cycles[k]);
		if (t->cthist_overflows > kept)
			fprintf(f, " # %05llu others", (unsigned long long)(t->cthist_overflows - kept));
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

int cyc_hist_print(struct cyc_run *run)
{
	const char *path = run->cfg->histfile;
	struct lj_outfile out;
	char why[512];
	int err;

	if (!path) {
		print_to(run, run->text);
		return 0;
	}
	err = lj_outfile_open(&out, path, why, sizeof(why));
	if (!err && !lj_outfile_stdio(&out)) {
		lj_outfile_abort(&out);
		err = -ENOMEM;
	}
	if (err) {
		if (why[0])
			lj_error("cannot open histogram file %s: %s", path, why);
		else
			lj_error_errno(err, "cannot open histogram file %s", path);
		return err;
	}
	print_to(run, lj_outfile_stdio(&out));
	err = lj_outfile_commit(&out);
	if (err) {
		lj_error_errno(err, "cannot write histogram file %s", path);
		return err;
	}
	return 0;
}
