// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-signal's option table: signaltest's letters and meanings, plus ljkit's long options. */
#include "sig.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
#include "lj_explain_hook.h"
#include "lj_time.h"

enum {
	K_JSON = LJ_OPT_LONG_BASE + 1,
	K_OUTPUT,
	K_POLICY,
	K_PERCENTILES,
	K_PACE,
	K_PACE_EVERY,
	K_NO_AFFINITY,
	K_HISTOGRAM,
	K_BREAK_FAILS,
	K_PRIO,
	K_EXPLAIN,
};

#define AT(f) .off = offsetof(struct sig_config, f)

/* signaltest's options, with its letters and meanings; then ljkit's. */
static const struct lj_opt sig_opts[] = {
	{ "affinity", 'a', LJ_OPT_OPTARG, "LIST",
	  "pin thread i to the i-th allowed CPU (default, or 'all'); with LIST, round robin over LIST",
	  .flags = LJ_OPT_NEXT_CPUS },
	{ "breaktrace", 'b', LJ_OPT_ARG, "US", "stop the run when a hop takes longer than US",
	  LJ_OPT_STRING, AT(breaktrace_text) },	/* parsed after the loop: -N changes its unit */
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "run for TIME (s, or with unit: 10s, 5m, 1h, 1d)",
	  LJ_OPT_DURATION, AT(duration_ns), .unit = LJ_NSEC_PER_SEC, .min = 1 },
	{ NULL, 'h', LJ_OPT_NOARG, NULL, NULL, LJ_OPT_HELP },
	{ "loops", 'l', LJ_OPT_ARG, "N", "number of round trips (default 0: endless)",
	  LJ_OPT_U64, AT(loops), .max = UINT64_MAX / 2 },
	{ "mlockall", 'm', LJ_OPT_NOARG, NULL, "lock current and future memory", LJ_OPT_FLAG, AT(mlock) },
	{ "nsecs", 'N', LJ_OPT_NOARG, NULL, "print values in ns instead of us", LJ_OPT_FLAG, AT(nsecs) },
	{ "priority", 'p', LJ_OPT_ARG, "PRIO", "SCHED_FIFO priority of every ring thread (0: SCHED_OTHER)",
	  LJ_OPT_INT, AT(priority), .min = 0, .max = 99 },
	{ "prio", K_PRIO, LJ_OPT_ARG, "PRIO", NULL, LJ_OPT_INT, AT(priority), .min = 0, .max = 99 },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "print the summary only on exit", LJ_OPT_FLAG, AT(quiet) },
	{ "smp", 'S', LJ_OPT_NOARG, NULL, "one thread per allowed CPU, thread i pinned to the i-th",
	  LJ_OPT_FLAG, AT(smp) },
	{ "threads", 't', LJ_OPT_ARG, "NUM", "number of threads in the ring (default 2)",
	  LJ_OPT_INT, AT(threads), .min = 2, .max = 1024 },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "print every hop as n:c:v (thread, cycle, value) on exit",
	  LJ_OPT_FLAG, AT(verbose) },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the result (ljkit's and signaltest's keys) to FILE (- for stdout)",
	  LJ_OPT_STRING, AT(json) },
	{ "output", K_OUTPUT, LJ_OPT_ARG, "FILE", NULL, LJ_OPT_STRING, AT(json) },	/* older signaltest spelling */
	/* ljkit's own */
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "other, batch, idle, fifo or rr",
	  LJ_OPT_POLICY, AT(policy), .given = LJ_OPT_GIVEN(struct sig_config, policy_given) },
	{ "no-affinity", K_NO_AFFINITY, LJ_OPT_NOARG, NULL, "do not pin the ring's threads",
	  LJ_OPT_CONST, AT(affinity), .min = SIG_AFF_NONE },
	{ "break-fails", K_BREAK_FAILS, LJ_OPT_NOARG, NULL, "a -b break exits 3 (signaltest exits 0)",
	  LJ_OPT_FLAG, AT(break_fails) },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL,
	  "also print p50/p90/p99/p99.9/p99.99 per hop and for the round trip", LJ_OPT_FLAG, AT(percentiles) },
	{ "histogram", K_HISTOGRAM, LJ_OPT_ARG, "N",
	  "print cyclictest's histogram of the hops: N buckets of 1 us (1 ns with -N)",
	  LJ_OPT_I64, AT(histogram), .min = 1, .max = SIG_HIST_MAX, .flags = LJ_OPT_STRICT },
	{ "pace", K_PACE, LJ_OPT_ARG, "TIME", "thread 0 pauses TIME between round trips (default 10ms)",
	  LJ_OPT_DURATION, AT(pace_ns), .unit = LJ_NSEC_PER_USEC, .flags = LJ_OPT_STRICT },
	{ "pace-every", K_PACE_EVERY, LJ_OPT_ARG, "N", "pause after every N round trips (default 16, 0: never)",
	  LJ_OPT_U64, AT(pace_every), .max = UINT64_MAX / 2, .flags = LJ_OPT_STRICT },
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US",
	  "explain the hops above the run's p99.9 (or above US) from trace events (BPF or tracefs: LJ_EXPLAIN_RECORDER)" },
	{ 0 }
};

void sig_config_init(struct sig_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->threads = SIG_DEFAULT_THREADS;
	cfg->policy = LJ_POLICY_OTHER;
	cfg->affinity = SIG_AFF_EACH;
	cfg->pace_ns = SIG_PACE_NS;
	cfg->pace_every = SIG_PACE_EVERY;
	lj_setupopt_init(&cfg->setup);
}

/* The options with logic: -a with or without its list, --explain with or without its threshold. */
static int sig_handle(void *ctx, int key, const char *arg)
{
	struct sig_config *cfg = ctx;

	if (key == K_EXPLAIN)
		return lj_explain_parse(arg, &cfg->explain);
	if (key != 'a')
		return lj_usage_error("unhandled option (internal error)");
	/*
	 * signaltest reads "-a WORD" as a CPU list only when WORD starts with a
	 * digit or '!'; "-a all" is its default (thread i on the i-th CPU), the
	 * word left over and ignored as every operand is: here it is that default.
	 */
	if (arg && !strcmp(arg, "all"))
		arg = NULL;
	cfg->affinity = arg ? SIG_AFF_LIST : SIG_AFF_EACH;
	return arg ? lj_opt_cpulist("--affinity", arg, &cfg->affinity_set) : 0;
}

/* What signaltest derives after parsing: -S's threads, -b in the display unit, the policy. */
static int sig_finish(struct sig_config *cfg)
{
	if (cfg->smp) {
		cfg->threads = -1;	/* one per allowed CPU, counted when the ring is placed */
		cfg->affinity = SIG_AFF_EACH;
	}
	if (cfg->breaktrace_text &&
	    lj_opt_rt_duration("breaktrace", cfg->breaktrace_text, cfg->nsecs ? 1 : LJ_NSEC_PER_USEC,
			       &cfg->breaktrace_ns))
		return LJ_EXIT_USAGE;
	return lj_opt_policy_priority(cfg->policy_given, &cfg->policy, cfg->priority);
}

int sig_parse(struct sig_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tables[2] = {
		{ "signaltest options", sig_opts, sig_handle, cfg },
		lj_setupopt_table(&cfg->setup),
	};
	struct lj_opt_spec spec = {
		"[OPTIONS]",
		"Signal ping-pong latency around a ring of threads (signaltest-compatible).",
		tables, 2,
		"Each T: line is the latency of the hop into that thread (the previous\n"
		"thread's pthread_kill to this thread's sigwait return); the '# Round trip'\n"
		"line is thread 0's send to its next receipt. Pacing is excluded from both.",
		.rt_argv = true,
	};
	int ret = lj_opt_parse_no_operands(&spec, argc, argv);

	return ret ? ret : sig_finish(cfg);
}
