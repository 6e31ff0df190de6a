// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-signal's option table: signaltest's letters and meanings, plus ljkit's long options. */
#include "sig.h"

#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
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
	K_EXPLAIN,
};

static const struct lj_opt sig_opts[] = {
	{ "affinity", 'a', LJ_OPT_OPTARG, "LIST",
	  "pin thread i to the i-th allowed CPU (default); with LIST, round robin over LIST" },
	{ "no-affinity", K_NO_AFFINITY, LJ_OPT_NOARG, NULL, "do not pin the ring's threads" },
	{ "breaktrace", 'b', LJ_OPT_ARG, "US", "stop the run when a hop takes longer than US (exit 3)" },
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "run for TIME (s, or with unit: 10s, 5m, 1h, 1d)" },
	{ NULL, 'h', LJ_OPT_NOARG, NULL, NULL },
	{ "loops", 'l', LJ_OPT_ARG, "N", "number of round trips (default 0: endless)" },
	{ "mlockall", 'm', LJ_OPT_NOARG, NULL, "lock current and future memory" },
	{ "nsecs", 'N', LJ_OPT_NOARG, NULL, "print values in ns instead of us" },
	{ "priority", 'p', LJ_OPT_ARG, "PRIO", "SCHED_FIFO priority of every ring thread (0: SCHED_OTHER)" },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "other, batch, idle, fifo or rr" },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "print the summary only on exit" },
	{ "threads", 't', LJ_OPT_ARG, "NUM", "number of threads in the ring (default 2)" },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "print every hop as n:c:v (thread, cycle, value) on exit" },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the ljkit-result/1 document to FILE (- for stdout)" },
	{ "output", K_OUTPUT, LJ_OPT_ARG, "FILE", NULL },	/* older signaltest spelling */
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US",
	  "explain the hops above the run's p99.9 (or above US) from trace events" },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL,
	  "also print p50/p90/p99/p99.9/p99.99 per hop and for the round trip" },
	{ "histogram", K_HISTOGRAM, LJ_OPT_ARG, "N",
	  "print cyclictest's histogram of the hops: N buckets of 1 us (1 ns with -N)" },
	{ "pace", K_PACE, LJ_OPT_ARG, "TIME", "thread 0 pauses TIME between round trips (default 10ms)" },
	{ "pace-every", K_PACE_EVERY, LJ_OPT_ARG, "N",
	  "pause after every N round trips (default 16, 0: never)" },
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

static int sig_handle(void *ctx, int key, const char *arg)
{
	struct sig_config *cfg = ctx;
	int ret;

	switch (key) {
	case 'a':
		if (!arg) {
			cfg->affinity = SIG_AFF_EACH;
			return 0;
		}
		ret = lj_opt_cpulist("--affinity", arg, &cfg->affinity_set);
		if (ret)
			return ret;
		cfg->affinity = SIG_AFF_LIST;
		return 0;
	case K_NO_AFFINITY:
		cfg->affinity = SIG_AFF_NONE;
		return 0;
	case 'b':
		cfg->breaktrace_text = arg;	/* parsed after the loop: -N changes its unit */
		return 0;
	case K_EXPLAIN:
		return lj_explain_parse(arg, &cfg->explain);
	case 'D':
		return lj_opt_duration("--duration", arg, LJ_NSEC_PER_SEC, &cfg->duration_ns);
	case 'h':
		lj_opt_print_help(cfg->spec, stdout);
		return LJ_OPT_EXIT_HELP;
	case 'l':
		return lj_opt_u64("--loops", arg, 0, UINT64_MAX / 2, &cfg->loops);
	case 'm':
		cfg->mlock = true;
		return 0;
	case 'N':
		cfg->nsecs = true;
		return 0;
	case 'p':
		return lj_opt_int("--priority", arg, 0, 99, &cfg->priority);
	case K_POLICY:
		ret = lj_opt_policy("--policy", arg, &cfg->policy);
		if (ret)
			return ret;
		cfg->policy_given = true;
		return 0;
	case 'q':
		cfg->quiet = true;
		return 0;
	case 't':
		return lj_opt_int("--threads", arg, 2, 1024, &cfg->threads);
	case 'v':
		cfg->verbose = true;
		return 0;
	case K_JSON:
	case K_OUTPUT:
		cfg->json = arg;
		return 0;
	case K_PERCENTILES:
		cfg->percentiles = true;
		return 0;
	case K_HISTOGRAM:
		return lj_opt_i64("--histogram", arg, 1, SIG_HIST_MAX, &cfg->histogram);
	case K_PACE:
		return lj_opt_duration("--pace", arg, LJ_NSEC_PER_USEC, &cfg->pace_ns);
	case K_PACE_EVERY:
		return lj_opt_u64("--pace-every", arg, 0, UINT64_MAX / 2, &cfg->pace_every);
	}
	return lj_usage_error("unhandled option (internal error)");
}

/*
 * signaltest accepts "-a 1" with the CPU list as the next word, which
 * getopt's optional arguments do not ("-a1" only): join the two words
 * before parsing when the next one looks like a CPU list.
 */
static char **join_affinity_arg(int *argc, char **argv)
{
	char **nv = calloc(*argc + 1, sizeof(*nv));
	int n = 0;

	if (!nv)
		return NULL;
	for (int i = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				nv[n++] = argv[i++];
			break;
		}
		if ((!strcmp(argv[i], "-a") || !strcmp(argv[i], "--affinity")) &&
		    i + 1 < *argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9') {
			size_t len = strlen(argv[i]) + strlen(argv[i + 1]) + 2;
			char *s = malloc(len);

			if (!s) {
				free(nv);
				return NULL;
			}
			snprintf(s, len, "%s%s%s", argv[i], argv[i][1] == '-' ? "=" : "", argv[i + 1]);
			nv[n++] = s;	/* lives as long as the process: the parse keeps pointers */
			i++;
			continue;
		}
		nv[n++] = argv[i];
	}
	nv[n] = NULL;
	*argc = n;
	return nv;
}

int sig_parse(struct sig_config *cfg, int argc, char **argv)
{
	static struct lj_opt_table tables[2];
	static struct lj_opt_spec spec;
	static char **av;	/* static: option values may point into it for the whole run */
	int first = 0, ret;

	tables[0] = (struct lj_opt_table){ "signaltest options", sig_opts, sig_handle, cfg };
	tables[1] = lj_setupopt_table(&cfg->setup);
	spec = (struct lj_opt_spec){
		"[OPTIONS]",
		"Signal ping-pong latency around a ring of threads (signaltest-compatible).",
		tables, 2,
		"Each T: line is the latency of the hop into that thread (the previous\n"
		"thread's pthread_kill to this thread's sigwait return); the '# Round trip'\n"
		"line is thread 0's send to its next receipt. Pacing is excluded from both.",
	};
	cfg->spec = &spec;
	av = join_affinity_arg(&argc, argv);
	if (!av) {
		lj_error("out of memory parsing options");
		return LJ_EXIT_RUNTIME;
	}
	/*
	 * Not lj_opt_parse_no_operands: with no read of av after the parse,
	 * the compiler drops the store to it and LeakSanitizer reports the
	 * joined words as leaked (seen with SANITIZE=1).
	 */
	ret = lj_opt_parse(&spec, argc, av, &first);
	if (ret)
		return ret;
	if (first < argc)
		return lj_usage_error("unexpected argument '%s' (see --help)", av[first]);
	if (cfg->breaktrace_text) {
		int64_t v;

		if (lj_opt_duration("--breaktrace", cfg->breaktrace_text,
				    cfg->nsecs ? 1 : LJ_NSEC_PER_USEC, &v))
			return LJ_EXIT_USAGE;
		if (v <= 0)
			return lj_opt_invalid("--breaktrace", cfg->breaktrace_text, "must be > 0");
		cfg->breaktrace_ns = v;
	}
	return lj_opt_policy_priority(cfg->policy_given, &cfg->policy, cfg->priority);
}
