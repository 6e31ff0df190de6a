// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-cyclic's option table (cyclictest's letters and meanings) and its checks. */
#include "cyclic.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lj_cpus.h"
#include "lj_err.h"
#include "lj_explain_hook.h"
#include "lj_parse.h"
#include "lj_time.h"
#include "lj_why.h"

/* Long-only keys, far above LJ_OPT_LONG_BASE so they cannot meet the setup table's. */
enum {
	K_BASE = LJ_OPT_LONG_BASE + 0x1000,
	K_HISTFILE,
	K_POLICY,
	K_PRIOSPREAD,
	K_MAINAFFINITY,
	K_JSON,
	K_LAPTOP,
	K_LATENCY,
	K_SPIKE,
	K_SPIKE_NODES,
	K_TRACEMARK,
	K_CATCHUP,
	K_PERCENTILES,
	K_DEFAULT_SYSTEM,
	K_SECALIGNED,
	K_SMI,
	K_DEEPEST_IDLE,
	K_DBG,
	K_NO_AFFINITY,
	K_LOOPS_EACH,
	K_EXPLAIN,
};

#define AT(f) .off = offsetof(struct cyc_config, f)
#define GIVEN(f) .given = LJ_OPT_GIVEN(struct cyc_config, f)
#define US LJ_NSEC_PER_USEC
#define HOUR (3600 * LJ_NSEC_PER_SEC)

/* cyclictest 2.x's options, with its letters, long names and meanings; then ljkit's. */
static const struct lj_opt cyc_opts[] = {
	{ "affinity", 'a', LJ_OPT_OPTARG, "CPUS", "pin thread N to CPU N, or round robin over CPUS (LIST, all, !LIST, +LIST)",
	  .flags = LJ_OPT_NEXT_CPUS },
	{ "aligned", 'A', LJ_OPT_ARG, "US", "align wake-ups: thread N starts N * US after a shared start",
	  LJ_OPT_DURATION, AT(aligned_ns), .unit = US, .max = HOUR, GIVEN(aligned) },
	{ "breaktrace", 'b', LJ_OPT_ARG, "US", "stop when a latency exceeds US (and mark the trace)",
	  LJ_OPT_STRING, AT(breaktrace_text) },
	{ "clock", 'c', LJ_OPT_ARG, "CLOCK", "0: CLOCK_MONOTONIC (default), 1: CLOCK_REALTIME",
	  LJ_OPT_INT, AT(clock), .min = 0, .max = 1 },
	{ "default-system", K_DEFAULT_SYSTEM, LJ_OPT_NOARG, NULL, "no tuning: no /dev/cpu_dma_latency hold",
	  LJ_OPT_FLAG, AT(default_system) },
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "run for TIME (s by default; ms, m, h, d units)",
	  LJ_OPT_DURATION, AT(duration_ns), .unit = LJ_NSEC_PER_SEC, .min = 1 },
	{ "distance", 'd', LJ_OPT_ARG, "US", "interval added per thread (default 500 us; 0 with -h)",
	  LJ_OPT_DURATION, AT(distance_ns), .unit = US, .max = HOUR, GIVEN(distance_given) },
	{ "fifo", 'F', LJ_OPT_ARG, "PATH", "create the named pipe PATH and write the T: lines to its readers",
	  LJ_OPT_STRING, AT(fifo) },
	{ "histogram", 'h', LJ_OPT_ARG, "US", "print a latency histogram of US 1-unit buckets after the run",
	  LJ_OPT_I64, AT(histogram), .min = 1, .max = INT64_MAX, .flags = LJ_OPT_THEN_CALL },
	{ "histofall", 'H', LJ_OPT_ARG, "US", "same as -h with a summary column over all threads",
	  LJ_OPT_I64, AT(histogram), .min = 1, .max = INT64_MAX, .flags = LJ_OPT_THEN_CALL },
	{ "histfile", K_HISTFILE, LJ_OPT_ARG, "PATH", "write the -h histogram to PATH instead of stdout",
	  LJ_OPT_STRING, AT(histfile) },
	{ "interval", 'i', LJ_OPT_ARG, "US", "base interval of the first thread (default 1000 us)",
	  LJ_OPT_DURATION, AT(interval_ns), .unit = US, .min = US, .max = HOUR },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the result (ljkit's and cyclictest's keys) to FILE (-: stdout)",
	  LJ_OPT_STRING, AT(json) },
	{ "laptop", K_LAPTOP, LJ_OPT_NOARG, NULL, "do not hold /dev/cpu_dma_latency (save battery)",
	  LJ_OPT_FLAG, AT(laptop) },
	{ "latency", K_LATENCY, LJ_OPT_ARG, "US", "hold /dev/cpu_dma_latency at US (default 0)",
	  LJ_OPT_INT, AT(latency_us), .min = 0, .max = INT32_MAX },
	{ "loops", 'l', LJ_OPT_ARG, "N", "wake-ups; the run ends when the first thread has N (0: endless)",
	  LJ_OPT_U64, AT(loops) },
	{ "mainaffinity", K_MAINAFFINITY, LJ_OPT_ARG, "CPUS", "run the main (reporting) thread on CPUS",
	  LJ_OPT_CPULIST, AT(mainaffinity), GIVEN(mainaffinity_given) },
	{ "mlockall", 'm', LJ_OPT_NOARG, NULL, "lock current and future memory", LJ_OPT_FLAG, AT(mlock) },
	{ "refresh_on_max", 'M', LJ_OPT_NOARG, NULL, "redraw the live screen only when a maximum grows",
	  LJ_OPT_FLAG, AT(refresh_on_max) },
	{ "nsecs", 'N', LJ_OPT_NOARG, NULL, "print results in ns instead of us", LJ_OPT_FLAG, AT(nsecs) },
	{ "nanosleep", 'n', LJ_OPT_NOARG, NULL, "use clock_nanosleep (the default)",
	  LJ_OPT_CONST, AT(wait), .min = CYC_WAIT_ABSOLUTE },
	{ "oscope", 'o', LJ_OPT_ARG, "RED", "with -v: one line per RED wake-ups, their maximum",
	  LJ_OPT_INT, AT(oscope), .min = 1, .max = INT32_MAX },
	{ "priority", 'p', LJ_OPT_ARG, "PRIO", "SCHED_FIFO priority of the first thread",
	  LJ_OPT_INT, AT(priority), .min = 0, .max = 99, GIVEN(priority_given) },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "other, normal, batch, idle, fifo or rr",
	  LJ_OPT_POLICY, AT(policy), GIVEN(policy_given) },
	{ "priospread", K_PRIOSPREAD, LJ_OPT_NOARG, NULL, "one priority lower for each further thread",
	  LJ_OPT_FLAG, AT(priospread) },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "print the summary only on exit", LJ_OPT_FLAG, AT(quiet) },
	{ "relative", 'r', LJ_OPT_NOARG, NULL, "relative sleeps instead of absolute deadlines",
	  LJ_OPT_CONST, AT(wait), .min = CYC_WAIT_RELATIVE },
	{ "resolution", 'R', LJ_OPT_NOARG, NULL, "report the clock's resolution, reported and measured",
	  LJ_OPT_FLAG, AT(resolution) },
	{ "secaligned", K_SECALIGNED, LJ_OPT_OPTARG, "US", "start every thread on the next full second (+ US)",
	  .flags = LJ_OPT_NEXT_NUMBER },
	{ "system", 's', LJ_OPT_NOARG, NULL, "cyclictest's system mode: clock_nanosleep, not -x's timers",
	  LJ_OPT_FLAG, AT(system_sleep) },
	{ "smp", 'S', LJ_OPT_NOARG, NULL, "one pinned thread per CPU, all at the same priority",
	  LJ_OPT_FLAG, AT(smp) },
	{ "spike", K_SPIKE, LJ_OPT_ARG, "US", "record and print every latency above US", LJ_OPT_STRING, AT(spike_text) },
	{ "spike-nodes", K_SPIKE_NODES, LJ_OPT_ARG, "N", "keep at most N spikes per thread (default 1024)",
	  LJ_OPT_INT, AT(spike_nodes), .min = 1, .max = 1 << 20 },
	{ "smi", K_SMI, LJ_OPT_NOARG, NULL, "count system management interrupts (Intel MSR)", LJ_OPT_FLAG, AT(smi) },
	{ "threads", 't', LJ_OPT_OPTARG, "N", "N threads (without N: one per CPU; default 1)",
	  .flags = LJ_OPT_NEXT_NUMBER },
	{ "tracemark", K_TRACEMARK, LJ_OPT_NOARG, NULL, "write to trace_marker when -b fires",
	  LJ_OPT_FLAG, AT(tracemark) },
	{ "unbuffered", 'u', LJ_OPT_NOARG, NULL, "unbuffered stdout" },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "print every wake-up as n:c:v (thread, cycle, latency)",
	  LJ_OPT_FLAG, AT(verbose) },
	{ "deepest-idle-state", K_DEEPEST_IDLE, LJ_OPT_ARG, "N", "disable idle states deeper than N (-1: leave them)",
	  LJ_OPT_INT, AT(setup.idle_state), .min = -1, .max = 63 },
	{ "dbg_cyclictest", K_DBG, LJ_OPT_NOARG, NULL, "print the run's set-up details to stderr",
	  LJ_OPT_FLAG, AT(dbg) },
	{ "posix_timers", 'x', LJ_OPT_NOARG, NULL, "use a POSIX interval timer instead of clock_nanosleep",
	  LJ_OPT_CONST, AT(wait), .min = CYC_WAIT_TIMER },
	/* ljkit's own */
	{ "no-affinity", K_NO_AFFINITY, LJ_OPT_NOARG, NULL, "do not pin; move the reporter off the threads' CPUs",
	  LJ_OPT_CONST, AT(affinity), .min = CYC_AFF_NONE },
	{ "loops-per-thread", K_LOOPS_EACH, LJ_OPT_NOARG, NULL, "every thread runs -l wake-ups (not the first only)",
	  LJ_OPT_FLAG, AT(loops_each) },
	{ "catch-up", K_CATCHUP, LJ_OPT_ARG, "POLICY", "after missed periods: skip (default) or burst",
	  .values = "skip burst" },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL, "also print percentiles and missed periods",
	  LJ_OPT_FLAG, AT(percentiles) },
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US",
	  "explain missed periods and the tail (or latencies above US) from trace events (BPF or tracefs: LJ_EXPLAIN_RECORDER)" },
	{ 0 }
};

/* The options with logic; the table stores all the others. */
static int handle(void *ctx, int key, const char *arg)
{
	struct cyc_config *c = ctx;

	switch (key) {
	case 'a':
		c->affinity = arg && strcmp(arg, "all") ? CYC_AFF_LIST : CYC_AFF_EACH;
		c->affinity_text = arg;
		if (c->affinity == CYC_AFF_LIST) {
			cpu_set_t all;
			char why[256] = "";

			/* Checked now for its syntax; resolved against the allowed CPUs later. */
			CPU_ZERO(&all);
			for (int i = 0; i < CPU_SETSIZE; i++)
				CPU_SET(i, &all);
			if (cyc_affinity_resolve(arg, &all, &c->affinity_set, why, sizeof(why)))
				return lj_opt_invalid("--affinity", arg, why);
		}
		return 0;
	case 'H':
	case 'h':
		c->histofall = c->histofall || key == 'H';
		if (c->histogram > CYC_HIST_MAX) {
			lj_warn("histogram limited to %lld buckets", CYC_HIST_MAX);
			c->histogram = CYC_HIST_MAX;
		}
		return 0;
	case K_SECALIGNED:
		c->secaligned = true;
		return arg ? lj_opt_duration("--secaligned", arg, LJ_NSEC_PER_USEC, &c->secaligned_ns) : 0;
	case 't':
		if (!arg) {
			c->threads = -1;
			return 0;
		}
		return lj_opt_int("--threads", arg, 1, CPU_SETSIZE, &c->threads);
	case 'u':
		setvbuf(stdout, NULL, _IONBF, 0);
		return 0;
	case K_EXPLAIN:
		return lj_explain_parse(arg, &c->explain);
	case K_CATCHUP:
		if (!strcmp(arg, "skip"))
			c->catchup = CYC_CATCHUP_SKIP;
		else if (!strcmp(arg, "burst"))
			c->catchup = CYC_CATCHUP_BURST;
		else
			return lj_opt_invalid("--catch-up", arg, "not skip or burst");
		return 0;
	}
	return lj_usage_error("unhandled option (internal error)");
}

/*
 * libnuma's CPU strings, as cyclictest 2.x reads -a: "all", a LIST,
 * "!LIST" (all allowed CPUs but LIST) and "+LIST" (LIST counted within
 * the allowed CPUs: +0 is the first allowed one).
 */
int cyc_affinity_resolve(const char *text, const cpu_set_t *allowed, cpu_set_t *out,
			 char *why, size_t len)
{
	bool invert = false, relative = false;
	int cpus[CPU_SETSIZE], n;
	cpu_set_t list;

	if (!strcmp(text, "all")) {
		*out = *allowed;
		return 0;
	}
	if (*text == '!') {
		invert = true;
		text++;
	}
	if (*text == '+') {
		relative = true;
		text++;
	}
	if (lj_parse_cpulist(text, &list, 0, why, len))
		return -EINVAL;
	if (!invert && !relative) {
		*out = list;	/* CPUs not allowed are the caller's message */
		return 0;
	}
	CPU_ZERO(out);
	n = lj_cpus_to_array(allowed, cpus, CPU_SETSIZE);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &list) && (!relative || i < n))
			CPU_SET(relative ? cpus[i] : i, out);
	if (invert)
		CPU_XOR(out, out, allowed);
	CPU_AND(out, out, allowed);
	if (!CPU_COUNT(out))
		return lj_why_err(why, len, -EINVAL, "no allowed CPU left");
	return 0;
}

void cyc_config_init(struct cyc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_ns = CYC_DEFAULT_INTERVAL_NS;
	cfg->distance_ns = CYC_DEFAULT_DISTANCE_NS;
	cfg->policy = LJ_POLICY_OTHER;
	cfg->wait = CYC_WAIT_ABSOLUTE;
	cfg->catchup = CYC_CATCHUP_SKIP;
	cfg->spike_nodes = CYC_DEFAULT_SPIKE_NODES;
	cfg->oscope = 1;
	lj_setupopt_init(&cfg->setup);
}

static const char cyc_epilog[] =
	"Options keep cyclictest's letters and meanings. Text output is cyclictest's:\n"
	"T: lines (-q: at exit only), -h histograms and their summary lines.\n"
	"Exit status: 0 ok, 1 runtime error, 2 bad usage, 77 missing capability with --strict.";

int cyc_options_parse(struct cyc_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tabs[2] = {
		{ "cyclictest options", cyc_opts, handle, cfg },
		lj_setupopt_table(&cfg->setup),
	};
	struct lj_opt_spec spec = {
		"[OPTIONS]",
		"Measure timer wake-up latency: a drop-in for rt-tests' cyclictest.",
		tabs, 2, cyc_epilog,
		.rt_argv = true,
	};

	return lj_opt_parse_no_operands(&spec, argc, argv);
}

/* -b and --spike: in the display unit, known once -N is (cyclictest reads them with atoi). */
static int threshold_ns(const struct cyc_config *cfg, const char *name, const char *text,
			int64_t *out)
{
	return text ? lj_opt_rt_duration(name, text, cfg->nsecs ? 1 : LJ_NSEC_PER_USEC, out) : 0;
}

/*
 * Derive what cyclictest derives after parsing, with its messages:
 * histograms run every thread at the same interval, a priority means
 * SCHED_FIFO, an RT policy without a priority gets threads + 1.
 */
int cyc_config_finish(struct cyc_config *cfg)
{
	int ret;

	ret = threshold_ns(cfg, "breaktrace", cfg->breaktrace_text, &cfg->breaktrace_ns);
	if (!ret)
		ret = threshold_ns(cfg, "spike", cfg->spike_text, &cfg->spike_ns);
	if (ret)
		return ret;
	if (cfg->tracemark && !cfg->breaktrace_ns)
		lj_warn("--tracemark does nothing without -b");
	if (cfg->histfile && !cfg->histogram)
		return lj_usage_error("--histfile needs -h or -H");
	if (cfg->wait == CYC_WAIT_TIMER && cfg->catchup == CYC_CATCHUP_BURST)
		return lj_usage_error("--catch-up burst needs clock_nanosleep: the POSIX timer (-x) "
				      "reports missed periods as overruns");
	if (cfg->system_sleep && cfg->wait == CYC_WAIT_TIMER) {
		/* cyclictest's own words for the same choice */
		lj_warn("the system option requires clock_nanosleep and is not compatible with "
			"posix_timers: using clock_nanosleep");
		cfg->wait = CYC_WAIT_ABSOLUTE;
	}
	if (cfg->oscope > 1 && !cfg->verbose)
		lj_warn("-o %d does nothing without -v", cfg->oscope);
	if (cfg->aligned && cfg->secaligned)
		return lj_usage_error("--aligned and --secaligned are mutually exclusive");
	if (cfg->default_system) {
		/* No tuning from the tool itself: power management stays as it is. */
		cfg->laptop = true;
		cfg->setup.idle_state = -1;
	}
	if (cfg->histogram) {
		if (cfg->distance_given && cfg->distance_ns)
			lj_warn("distance is ignored and set to 0, if histogram enabled");
		cfg->distance_ns = 0;
	}
	if (cfg->smp) {
		if (cfg->threads > 0)
			lj_warn("-t ignored due to smp mode");
		if (cfg->affinity == CYC_AFF_LIST)
			lj_warn("-a ignored due to smp mode");
		cfg->threads = -1;
		cfg->affinity = CYC_AFF_EACH;
	}
	if (cfg->loops_each && !cfg->loops)
		lj_warn("--loops-per-thread does nothing without -l");
	if (cfg->priority_given && cfg->priority > 0 &&
	    cfg->policy != LJ_POLICY_FIFO && cfg->policy != LJ_POLICY_RR) {
		if (cfg->policy_given)
			lj_warn("policy and priority don't match: setting policy to SCHED_FIFO");
		cfg->policy = LJ_POLICY_FIFO;
	}
	return 0;
}
