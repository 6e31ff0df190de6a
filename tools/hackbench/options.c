// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-hackbench's option table: hackbench's letters and meanings, plus ljkit's long options. */
#include "hb.h"

#include <limits.h>
#include <string.h>

#include "lj_err.h"
#include "lj_parse.h"
#include "lj_time.h"

enum {
	K_TRANSPORT = LJ_OPT_LONG_BASE + 1,
	K_DURATION,
	K_LOAD,
	K_JSON,
	K_POLICY,
	K_PRIORITY,
	K_QUIET,
	K_PERCENTILES,
	K_PROCESSES,
	K_NO_LATENCY,
};

static const struct lj_opt hb_opts[] = {
	{ "fds", 'f', LJ_OPT_ARG, "NUM", "senders and receivers per group (default 20)" },
	{ "fifo", 'F', LJ_OPT_NOARG, NULL, "use SCHED_FIFO for the main thread" },
	{ "groups", 'g', LJ_OPT_ARG, "NUM", "number of groups (default 10)" },
	{ NULL, 'h', LJ_OPT_NOARG, NULL, NULL },
	{ "loops", 'l', LJ_OPT_ARG, "LOOPS", "messages each sender sends to each receiver (default 100)" },
	{ "pipe", 'p', LJ_OPT_NOARG, NULL, "send data via pipes (--transport pipe)" },
	{ "inet", 'i', LJ_OPT_NOARG, NULL, "send data via TCP over 127.0.0.1" },
	{ "datasize", 's', LJ_OPT_ARG, "SIZE", "message size in bytes (default 100)" },
	{ "threads", 'T', LJ_OPT_NOARG, NULL, "use POSIX threads" },
	{ "process", 'P', LJ_OPT_NOARG, NULL, "use fork (default)" },
	{ "processes", K_PROCESSES, LJ_OPT_NOARG, NULL, NULL },	/* hackbench's own spelling */
	{ "transport", K_TRANSPORT, LJ_OPT_ARG, "T", "socket (default), pipe, inet or mq (POSIX message queues)" },
	{ "duration", K_DURATION, LJ_OPT_ARG, "TIME",
	  "load mode: run for TIME (s, or 10s, 5m, ...), printing messages per second" },
	{ "load", K_LOAD, LJ_OPT_NOARG, NULL, "load mode until SIGINT/SIGTERM" },
	{ "quiet", K_QUIET, LJ_OPT_NOARG, NULL, "no per-second lines in load mode" },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "workers' policy: other, batch, idle, fifo, rr" },
	{ "priority", K_PRIORITY, LJ_OPT_ARG, "PRIO", "workers' fifo/rr priority" },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL,
	  "also print message latency percentiles and throughput" },
	{ "no-latency", K_NO_LATENCY, LJ_OPT_NOARG, NULL,
	  "do not time-stamp messages (no latency; exactly hackbench's per-message work)" },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the ljkit-result/1 document to FILE (- for stdout)" },
	{ 0 }
};

const char *hb_transport_name(enum hb_transport t)
{
	switch (t) {
	case HB_SOCKET:
		return "socket";
	case HB_PIPE:
		return "pipe";
	case HB_INET:
		return "inet";
	case HB_MQ:
		return "mq";
	}
	return "?";
}

void hb_config_init(struct hb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->groups = 10;
	cfg->fds = 20;
	cfg->loops = 100;
	cfg->datasize = 100;
	cfg->mode = HB_PROCESS;
	cfg->transport = HB_SOCKET;
	cfg->policy = LJ_POLICY_OTHER;
	lj_setupopt_init(&cfg->setup);
}

/* hackbench's counts: integers > 0 (it says "requires an integer > 0"). */
static int count(const char *opt, const char *arg, unsigned int max, unsigned int *out)
{
	const char *why = NULL;
	uint64_t v;

	/* Not lj_opt_u64: hackbench's hint is appended to the reason. */
	if (lj_parse_u64(arg, 1, max, &v, &why))
		return lj_usage_error("invalid %s '%s': %s (an integer > 0)", opt, arg, why);
	*out = (unsigned int)v;
	return 0;
}

/* -p, -i and --transport name the same choice; conflicting ones are an error. */
static int set_transport(struct hb_config *cfg, enum hb_transport t, const char *opt)
{
	if (cfg->transport_opt && cfg->transport != t)
		return lj_usage_error("%s and %s choose different transports", cfg->transport_opt, opt);
	cfg->transport_opt = opt;
	cfg->transport = t;
	return 0;
}

static int hb_handle(void *ctx, int key, const char *arg)
{
	struct hb_config *cfg = ctx;
	int64_t v;
	int ret, i;

	switch (key) {
	case 'f':
		return count("--fds", arg, 1000000, &cfg->fds);
	case 'F':
		cfg->fifo = true;
		return 0;
	case 'g':
		return count("--groups", arg, 1000000, &cfg->groups);
	case 'h':
		lj_opt_print_help(cfg->spec, stdout);
		return LJ_OPT_EXIT_HELP;
	case 'l':
		return count("--loops", arg, UINT_MAX, &cfg->loops);
	case 'p':
		return set_transport(cfg, HB_PIPE, "--pipe");
	case 'i':
		return set_transport(cfg, HB_INET, "--inet");
	case 's':
		return count("--datasize", arg, 64 << 20, &cfg->datasize);
	case 'T':
		cfg->mode = HB_THREAD;
		return 0;
	case 'P':
	case K_PROCESSES:
		cfg->mode = HB_PROCESS;
		return 0;
	case K_TRANSPORT:
		for (i = HB_SOCKET; i <= HB_MQ; i++)
			if (!strcmp(arg, hb_transport_name(i)))
				return set_transport(cfg, i, "--transport");
		return lj_opt_invalid("--transport", arg, "not socket, pipe, inet or mq");
	case K_DURATION:
		if (lj_opt_duration("--duration", arg, LJ_NSEC_PER_SEC, &v))
			return LJ_EXIT_USAGE;
		if (v <= 0)
			return lj_opt_invalid("--duration", arg, "must be > 0 (--load runs until a signal)");
		cfg->duration_ns = v;
		cfg->load = true;
		return 0;
	case K_LOAD:
		cfg->load = true;
		return 0;
	case K_QUIET:
		cfg->quiet = true;
		return 0;
	case K_POLICY:
		ret = lj_opt_policy("--policy", arg, &cfg->policy);
		if (ret)
			return ret;
		cfg->policy_given = true;
		return 0;
	case K_PRIORITY:
		return lj_opt_int("--priority", arg, 1, 99, &cfg->priority);
	case K_PERCENTILES:
		cfg->percentiles = true;
		return 0;
	case K_NO_LATENCY:
		cfg->no_latency = true;
		return 0;
	case K_JSON:
		cfg->json = arg;
		return 0;
	}
	return lj_usage_error("unhandled option (internal error)");
}

int hb_parse(struct hb_config *cfg, int argc, char **argv)
{
	static struct lj_opt_table tables[2];
	static struct lj_opt_spec spec;
	int ret;

	tables[0] = (struct lj_opt_table){ "hackbench options", hb_opts, hb_handle, cfg };
	tables[1] = lj_setupopt_table(&cfg->setup);
	spec = (struct lj_opt_spec){
		"[OPTIONS]",
		"Scheduler and messaging benchmark and load (hackbench-compatible).",
		tables, 2,
		"Groups of NUM senders each send LOOPS messages to each of NUM receivers.\n"
		"Time: is CLOCK_MONOTONIC from the start signal until every worker is reaped.",
	};
	cfg->spec = &spec;
	ret = lj_opt_parse_no_operands(&spec, argc, argv);
	if (ret)
		return ret;
	ret = lj_opt_policy_priority(cfg->policy_given, &cfg->policy, cfg->priority);
	if (ret)
		return ret;
	if ((uint64_t)cfg->groups * cfg->fds * 2 > 4000000)
		return lj_usage_error("--groups %u x --fds %u is %llu tasks: too many", cfg->groups,
				      cfg->fds, 2ULL * cfg->groups * cfg->fds);
	return 0;
}
