// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - lj-cyclic's text output: cyclictest's T: lines, live screen, status, extras. */
#include "cyclic.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_time.h"

/* One thread's numbers as cyclictest prints them (us, or ns with -N). */
void cyc_line_of(const struct cyc_run *run, const struct cyc_thread *t,
		 const struct cyc_live *lv, struct lj_report_line *l)
{
	const struct cyc_config *cfg = run->cfg;

	memset(l, 0, sizeof(*l));
	l->thread = t->index;
	l->tid = t->tid;
	l->prio = t->prio;
	l->interval = (long)(t->interval_ns / LJ_NSEC_PER_USEC);
	l->cycles = lv->cycles;
	l->nsecs = cfg->nsecs;
	if (lv->cycles) {
		l->min = (long)cyc_to_unit(cfg, lv->min_ns);
		l->max = (long)cyc_to_unit(cfg, lv->max_ns);
		l->act = (long)cyc_to_unit(cfg, lv->act_ns);
		l->avg = (long)cyc_to_unit(cfg, lv->sum_ns / (int64_t)lv->cycles);
	}
}

void cyc_report_threads(struct cyc_run *run, FILE *out)
{
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_live lv;
		struct lj_report_line l;

		cyc_live_read(&run->th[i], &lv);
		cyc_line_of(run, &run->th[i], &lv, &l);
		lj_report_rt_line(out, &l);
	}
}

/* cyclictest's "policy: fifo: loadavg: ..." header; "other/other" when no RT policy. */
static void print_policy(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;
	char lavg[256] = "";
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	bool rt = cfg->policy == LJ_POLICY_FIFO || cfg->policy == LJ_POLICY_RR;
	const char *pol = lj_sched_policy_name(cfg->policy);

	if (fd >= 0) {
		ssize_t n = read(fd, lavg, sizeof(lavg) - 1);

		close(fd);
		if (n > 0) {
			lavg[n] = 0;
			lavg[strcspn(lavg, "\n")] = 0;
		}
	}
	if (!strcmp(pol, "normal"))
		pol = "other";
	fprintf(out, "policy: %s%s%s: loadavg: %s          \n\n", pol,
		rt && !run->sched_fallback ? "" : "/", rt && !run->sched_fallback ? "" : "other", lavg);
}

/*
 * The refreshing screen of cyclictest without -q: header and one T: line
 * per thread, redrawn in place by moving the cursor up over the previous
 * frame (ESC [ n A), exactly as cyclictest emits it.
 */
void cyc_report_live(struct cyc_run *run, FILE *out, bool first)
{
	if (run->cfg->refresh_on_max) {
		/* -M: a new frame only when some thread's maximum grew. */
		int64_t maxsum = 0;

		for (int i = 0; i < run->nthreads; i++) {
			struct cyc_live lv;

			cyc_live_read(&run->th[i], &lv);
			maxsum += lv.cycles ? lv.max_ns : 0;
		}
		if (!first && maxsum == run->shown_maxsum)
			return;
		run->shown_maxsum = maxsum;
	}
	if (!first)
		fprintf(out, "\033[%dA", run->nthreads + 2);
	print_policy(run, out);
	cyc_report_threads(run, out);
	lj_fflush(out);
}

void cyc_report_status_as(struct cyc_run *run, FILE *out, const char *name)
{
	fprintf(out, "#---------------------------\n");
	fprintf(out, "# %s current status:\n", name);
	cyc_report_threads(run, out);
	for (int i = 0; i < run->nthreads && strcmp(name, "cyclictest"); i++) {
		struct cyc_live lv;

		cyc_live_read(&run->th[i], &lv);
		fprintf(out, "# T:%2d missed: %llu\n", i, (unsigned long long)lv.missed);
	}
	fprintf(out, "#---------------------------\n");
	lj_fflush(out);
}

/* SIGUSR1: the current numbers to stderr, the run goes on. */
void cyc_report_status(struct cyc_run *run, FILE *out)
{
	cyc_report_status_as(run, out, "lj-cyclic");
}

void cyc_report_values(struct cyc_run *run, FILE *out)
{
	for (int i = 0; i < run->nthreads; i++) {
		struct cyc_thread *t = &run->th[i];
		uint64_t n = t->values ? __atomic_load_n(&t->nvalues, __ATOMIC_ACQUIRE) : 0;

		if (n - t->printed > t->values_cap) {
			lj_warn("-v: thread %d: %llu values overwritten before they were printed", i,
				(unsigned long long)(n - t->printed - t->values_cap));
			t->printed = n - t->values_cap;
		}
		for (; t->printed < n; t->printed++)
			fprintf(out, "%8d:%8lu:%8ld\n", i,
				(unsigned long)(t->printed * (uint64_t)run->cfg->oscope),
				(long)t->values[t->printed % t->values_cap]);
	}
	lj_fflush(out);
}

/* -R: the resolution the clock reports, and the smallest step seen between two readings. */
static void clock_resolution(const struct cyc_run *run)
{
	struct timespec res, a, b;
	int64_t step = INT64_MAX;

	if (!clock_getres(run->clock, &res))
		lj_warn("reported clock resolution: %lld nsec", (long long)lj_ts_to_ns(&res));
	clock_gettime(run->clock, &a);
	for (int i = 0; i < 100000; i++) {
		clock_gettime(run->clock, &b);
		if (lj_ts_to_ns(&b) > lj_ts_to_ns(&a) && lj_ts_to_ns(&b) - lj_ts_to_ns(&a) < step)
			step = lj_ts_to_ns(&b) - lj_ts_to_ns(&a);
		a = b;
	}
	if (step < INT64_MAX)
		lj_warn("measured clock resolution approximately: %lld nsec", (long long)step);
}

void cyc_report_start(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;

	if (cfg->resolution)
		clock_resolution(run);
	if (cfg->verbose)
		fprintf(out, "Max CPUs = %ld\nOnline CPUs = %ld\n", sysconf(_SC_NPROCESSORS_CONF),
			sysconf(_SC_NPROCESSORS_ONLN));
	for (int i = 0; i < run->nthreads && cfg->dbg; i++) {
		const struct cyc_thread *t = &run->th[i];

		fprintf(stderr, "# dbg: thread %d: cpu %d, interval %lld ns, %s priority %d, clock %s\n", i,
			t->cpu, (long long)t->interval_ns, lj_sched_policy_name(t->policy), t->prio,
			run->clock == CLOCK_REALTIME ? "CLOCK_REALTIME" : "CLOCK_MONOTONIC");
	}
}

/*
 * -v: cyclictest prints each thread's "Thread N Interval:" line; the
 * number it shows is the next thread's interval (its counter has already
 * advanced), reproduced for parsers that read it.
 */
void cyc_report_intervals(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;

	for (int i = 0; i < run->nthreads && cfg->verbose; i++)
		fprintf(out, "Thread %d Interval: %lld\n", i,
			(long long)((cfg->interval_ns + (int64_t)(i + 1) * cfg->distance_ns) / LJ_NSEC_PER_USEC));
	lj_fflush(out);
}

static int cmp_spike(const void *a, const void *b)
{
	const struct cyc_spike *x = a, *y = b;

	return (x->ts_us > y->ts_us) - (x->ts_us < y->ts_us);
}

/* --spike: cyclictest's "T: 0 Spike:      93: TS:    391763309" list, in time order. */
static void print_spikes(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;
	struct { struct cyc_spike s; int thread; } *all;
	uint64_t n = 0, total = 0;

	for (int i = 0; i < run->nthreads; i++) {
		uint64_t kept = run->th[i].nspikes;

		if (kept > (uint64_t)cfg->spike_nodes)
			kept = cfg->spike_nodes;
		n += kept;
		total += run->th[i].nspikes;
	}
	if (!total)
		return;
	all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		return;
	n = 0;
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];

		for (uint64_t k = 0; k < t->nspikes && k < (uint64_t)cfg->spike_nodes; k++) {
			all[n].s = t->spikes[k];
			all[n].thread = i;
			n++;
		}
	}
	/* The spike is the first member: sort by its timestamp. */
	qsort(all, n, sizeof(*all), cmp_spike);
	fprintf(out, "\n");
	for (uint64_t k = 0; k < n; k++)
		fprintf(out, "T:%2d Spike:%8lld: TS: %12lld\n", all[k].thread,
			(long long)all[k].s.value, (long long)all[k].s.ts_us);
	fprintf(out, "spikes = %llu\n\n", (unsigned long long)total);
	free(all);
}

/* --percentiles: comment lines, so cyclictest parsers skip them. */
static void print_percentiles(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;

	fprintf(out, "# Percentiles (%s), missed periods, histogram overflows:\n", cfg->nsecs ? "ns" : "us");
	for (int i = 0; i < run->nthreads; i++) {
		const struct cyc_thread *t = &run->th[i];
		struct cyc_live lv;

		cyc_live_read(t, &lv);
		fprintf(out, "# T:%2d", i);
		for (int k = 0; k < LJ_PCT_N; k++)
			fprintf(out, " %s:%7lld", lj_pcts[k].label,
				(long long)cyc_to_unit(cfg, lj_hist_quantile(t->hist, lj_pcts[k].q)));
		fprintf(out, " Max:%8lld Missed:%6llu Overflows:%4llu\n",
			(long long)cyc_to_unit(cfg, lj_hist_max(t->hist)),
			(unsigned long long)lv.missed,
			(unsigned long long)lj_hist_overflows(t->hist));
	}
}

/*
 * What cyclictest prints after the run: the T: lines with -q (not with
 * -h, whose summary lines replace them), spikes, the histogram, -b's
 * break lines; then ljkit's opt-in extras.
 */
int cyc_report_final(struct cyc_run *run, FILE *out)
{
	const struct cyc_config *cfg = run->cfg;
	int ret = 0;

	if (cfg->quiet && !cfg->histogram)
		cyc_report_threads(run, out);
	if (cfg->spike_ns)
		print_spikes(run, out);
	if (cfg->histogram)
		ret = cyc_hist_print(run);
	if (cfg->breaktrace_ns) {
		fprintf(out, "# Thread Ids:");
		for (int i = 0; i < run->nthreads; i++)
			fprintf(out, " %05d", (int)run->th[i].tid);
		fprintf(out, "\n");
		if (run->break_tid) {
			fprintf(out, "# Break thread: %d\n", (int)run->break_tid);
			fprintf(out, "# Break value: %llu\n", (unsigned long long)run->break_value);
		}
	}
	for (int i = 0; i < run->nthreads && cfg->smi; i++)
		fprintf(out, "# T:%2d SMI: %8llu\n", i,
			(unsigned long long)(run->th[i].smi_end - run->th[i].smi_start));
	if (cfg->percentiles)
		print_percentiles(run, out);
	lj_fflush(out);
	return ret;
}
