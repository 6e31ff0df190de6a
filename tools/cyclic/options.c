// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-cyclic's option table (cyclictest's letters and meanings) and its checks. */
#include "cyclic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
#include "lj_explain_hook.h"
#include "lj_time.h"

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
	K_EXPLAIN,
};

static const struct lj_opt cyc_opts[] = {
	{ "affinity", 'a', LJ_OPT_OPTARG, "CPUS", "pin thread N to CPU N, or round robin over CPUS" },
	{ "breaktrace", 'b', LJ_OPT_ARG, "US", "stop when a latency exceeds US (and mark the trace)" },
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "run for TIME (s by default; ms, m, h, d units)" },
	{ "distance", 'd', LJ_OPT_ARG, "US", "interval added per thread (default 500 us; 0 with -h)" },
	{ "histogram", 'h', LJ_OPT_ARG, "US", "print a latency histogram of US 1-unit buckets after the run" },
	{ "histofall", 'H', LJ_OPT_ARG, "US", "same as -h with a summary column over all threads" },
	{ "histfile", K_HISTFILE, LJ_OPT_ARG, "PATH", "write the -h histogram to PATH instead of stdout" },
	{ "interval", 'i', LJ_OPT_ARG, "US", "base interval of the first thread (default 1000 us)" },
	{ "loops", 'l', LJ_OPT_ARG, "N", "wake-ups per thread (default 0: until -D or a signal)" },
	{ "mlockall", 'm', LJ_OPT_NOARG, NULL, "lock current and future memory" },
	{ "nsecs", 'N', LJ_OPT_NOARG, NULL, "print results in ns instead of us" },
	{ "nanosleep", 'n', LJ_OPT_NOARG, NULL, "use clock_nanosleep (the default)" },
	{ "priority", 'p', LJ_OPT_ARG, "PRIO", "SCHED_FIFO priority of the first thread" },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "other, normal, batch, idle, fifo or rr" },
	{ "priospread", K_PRIOSPREAD, LJ_OPT_NOARG, NULL, "one priority lower for each further thread" },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "print the summary only on exit" },
	{ "relative", 'r', LJ_OPT_NOARG, NULL, "relative sleeps instead of absolute deadlines" },
	{ "smp", 'S', LJ_OPT_NOARG, NULL, "one pinned thread per CPU, all at the same priority" },
	{ "threads", 't', LJ_OPT_OPTARG, "N", "N threads (without N: one per CPU; default 1)" },
	{ "unbuffered", 'u', LJ_OPT_NOARG, NULL, "unbuffered stdout" },
	{ "posix_timers", 'x', LJ_OPT_NOARG, NULL, "use a POSIX interval timer instead of clock_nanosleep" },
	{ "mainaffinity", K_MAINAFFINITY, LJ_OPT_ARG, "CPUS", "run the main (reporting) thread on CPUS" },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the ljkit-result/1 document to FILE (-: stdout, text to stderr)" },
	{ "laptop", K_LAPTOP, LJ_OPT_NOARG, NULL, "do not hold /dev/cpu_dma_latency (save battery)" },
	{ "latency", K_LATENCY, LJ_OPT_ARG, "US", "hold /dev/cpu_dma_latency at US (default 0)" },
	{ "spike", K_SPIKE, LJ_OPT_ARG, "US", "record and print every latency above US" },
	{ "spike-nodes", K_SPIKE_NODES, LJ_OPT_ARG, "N", "keep at most N spikes per thread (default 1024)" },
	{ "tracemark", K_TRACEMARK, LJ_OPT_NOARG, NULL, "write to trace_marker when -b fires" },
	{ "catch-up", K_CATCHUP, LJ_OPT_ARG, "POLICY", "after missed periods: skip (default) or burst" },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL, "also print percentiles and missed periods" },
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US", "explain missed periods and the tail (or latencies above US) from trace events" },
	{ 0 }
};

static int handle(void *ctx, int key, const char *arg)
{
	struct cyc_config *c = ctx;
	int64_t v;
	int ret, i;

	switch (key) {
	case 'a':
		if (arg) {
			if (lj_opt_cpulist("--affinity", arg, &c->affinity_set))
				return LJ_EXIT_USAGE;
			c->affinity = CYC_AFF_LIST;
			c->affinity_text = arg;
		} else {
			c->affinity = CYC_AFF_EACH;
		}
		return 0;
	case 'b':
		c->breaktrace_text = arg;
		return 0;
	case 'D':
		if (lj_opt_duration("--duration", arg, LJ_NSEC_PER_SEC, &v))
			return LJ_EXIT_USAGE;
		if (v <= 0)
			return lj_opt_invalid("--duration", arg, "must be positive");
		c->duration_ns = v;
		return 0;
	case 'd':
		if (lj_opt_duration("--distance", arg, LJ_NSEC_PER_USEC, &v))
			return LJ_EXIT_USAGE;
		if (v > 3600 * LJ_NSEC_PER_SEC)
			return lj_opt_invalid("--distance", arg, "out of range");
		c->distance_ns = v;
		c->distance_given = true;
		return 0;
	case 'H':
		c->histofall = true;
		/* fall through */
	case 'h':
		if (lj_opt_i64(key == 'h' ? "--histogram" : "--histofall", arg, INT64_MIN,
			       INT64_MAX, &v))
			return LJ_EXIT_USAGE;
		if (v < 1)
			return lj_opt_invalid(key == 'h' ? "--histogram" : "--histofall", arg,
					      "must be at least 1");
		if (v > CYC_HIST_MAX) {
			lj_warn("histogram limited to %lld buckets", CYC_HIST_MAX);
			v = CYC_HIST_MAX;
		}
		c->histogram = v;
		return 0;
	case K_HISTFILE:
		c->histfile = arg;
		return 0;
	case 'i':
		if (lj_opt_duration("--interval", arg, LJ_NSEC_PER_USEC, &v))
			return LJ_EXIT_USAGE;
		if (v < LJ_NSEC_PER_USEC || v > 3600 * LJ_NSEC_PER_SEC)
			return lj_opt_invalid("--interval", arg, "must be 1 us to 1 h");
		c->interval_ns = v;
		return 0;
	case 'l':
		return lj_opt_u64("--loops", arg, 0, UINT64_MAX, &c->loops);
	case 'm':
		c->mlock = true;
		return 0;
	case 'N':
		c->nsecs = true;
		return 0;
	case 'n':
		c->wait = CYC_WAIT_ABSOLUTE;
		return 0;
	case 'p':
		ret = lj_opt_int("--priority", arg, 0, 99, &c->priority);
		if (ret)
			return ret;
		c->priority_given = true;
		return 0;
	case K_POLICY:
		ret = lj_opt_policy("--policy", arg, &c->policy);
		if (ret)
			return ret;
		c->policy_given = true;
		return 0;
	case K_PRIOSPREAD:
		c->priospread = true;
		return 0;
	case 'q':
		c->quiet = true;
		return 0;
	case 'r':
		c->wait = CYC_WAIT_RELATIVE;
		return 0;
	case 'S':
		c->smp = true;
		return 0;
	case 't':
		if (!arg) {
			c->threads = -1;
			return 0;
		}
		return lj_opt_int("--threads", arg, 1, CPU_SETSIZE, &c->threads);
	case 'u':
		setvbuf(stdout, NULL, _IONBF, 0);
		return 0;
	case 'x':
		c->wait = CYC_WAIT_TIMER;
		return 0;
	case K_MAINAFFINITY:
		if (lj_opt_cpulist("--mainaffinity", arg, &c->mainaffinity))
			return LJ_EXIT_USAGE;
		c->mainaffinity_given = true;
		return 0;
	case K_JSON:
		c->json = arg;
		return 0;
	case K_LAPTOP:
		c->laptop = true;
		return 0;
	case K_LATENCY:
		ret = lj_opt_int("--latency", arg, 0, INT32_MAX, &i);
		if (!ret)
			c->latency_us = i;
		return ret;
	case K_SPIKE:
		c->spike_text = arg;
		return 0;
	case K_SPIKE_NODES:
		return lj_opt_int("--spike-nodes", arg, 1, 1 << 20, &c->spike_nodes);
	case K_TRACEMARK:
		c->tracemark = true;
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
	case K_PERCENTILES:
		c->percentiles = true;
		return 0;
	}
	return lj_usage_error("unhandled option (internal error)");
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
	lj_setupopt_init(&cfg->setup);
}

/*
 * cyclictest's optional arguments also take the next word ("-t 2",
 * "-a 0-1"), which getopt does not: join such a word to its option before
 * parsing. Returns a new argv sharing @argv's strings except the joined
 * ones (cyc_argv_free releases it), or NULL on ENOMEM.
 */
char **cyc_argv_normalise(int argc, char **argv)
{
	char **out = calloc(argc + 1, sizeof(*out));
	int n = 0;

	if (!out)
		return NULL;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		bool optional = !strcmp(a, "-t") || !strcmp(a, "-a") ||
				!strcmp(a, "--threads") || !strcmp(a, "--affinity");

		if (!strcmp(a, "--")) {
			while (i < argc)
				out[n++] = argv[i++];
			break;
		}
		if (i > 0 && optional && next && next[0] >= '0' && next[0] <= '9') {
			size_t len = strlen(a) + strlen(next) + 2;
			char *joined = malloc(len);

			if (!joined) {
				out[n] = NULL;
				cyc_argv_free(out, argv);
				return NULL;
			}
			snprintf(joined, len, "%s%s%s", a, a[1] == '-' ? "=" : "", next);
			out[n++] = joined;
			i++;
			continue;
		}
		out[n++] = argv[i];
	}
	out[n] = NULL;
	return out;
}

void cyc_argv_free(char **norm, char **argv)
{
	if (!norm)
		return;
	for (int i = 0; norm[i]; i++) {
		bool shared = false;

		for (int k = 0; argv[k] && !shared; k++)
			shared = norm[i] == argv[k];
		if (!shared)
			free(norm[i]);
	}
	free(norm);
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
	};

	return lj_opt_parse_no_operands(&spec, argc, argv);
}

static int threshold_ns(const struct cyc_config *cfg, const char *opt, const char *text,
			int64_t *out)
{
	int64_t unit = cfg->nsecs ? 1 : LJ_NSEC_PER_USEC;

	if (!text)
		return 0;
	if (lj_opt_duration(opt, text, unit, out))
		return LJ_EXIT_USAGE;
	if (*out <= 0)
		return lj_opt_invalid(opt, text, "must be positive");
	return 0;
}

/*
 * Derive what cyclictest derives after parsing, with its messages:
 * histograms run every thread at the same interval, a priority means
 * SCHED_FIFO, an RT policy without a priority gets threads + 1.
 */
int cyc_config_finish(struct cyc_config *cfg)
{
	int ret;

	ret = threshold_ns(cfg, "--breaktrace", cfg->breaktrace_text, &cfg->breaktrace_ns);
	if (!ret)
		ret = threshold_ns(cfg, "--spike", cfg->spike_text, &cfg->spike_ns);
	if (ret)
		return ret;
	if (cfg->tracemark && !cfg->breaktrace_ns)
		lj_warn("--tracemark does nothing without -b");
	if (cfg->histfile && !cfg->histogram)
		return lj_usage_error("--histfile needs -h or -H");
	if (cfg->wait == CYC_WAIT_TIMER && cfg->catchup == CYC_CATCHUP_BURST)
		return lj_usage_error("--catch-up burst needs clock_nanosleep: the POSIX timer (-x) "
				      "reports missed periods as overruns");
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
	if (cfg->priority_given && cfg->priority > 0 &&
	    cfg->policy != LJ_POLICY_FIFO && cfg->policy != LJ_POLICY_RR) {
		if (cfg->policy_given)
			lj_warn("policy and priority don't match: setting policy to SCHED_FIFO");
		cfg->policy = LJ_POLICY_FIFO;
	}
	return 0;
}
