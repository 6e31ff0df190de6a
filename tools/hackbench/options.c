// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-hackbench's option table: hackbench's letters and meanings, plus ljkit's long options. */
#include "hb.h"

#include <limits.h>
#include <stddef.h>
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
	K_NO_TSC,
	K_EXPLAIN,
};

#define AT(f) .off = offsetof(struct hb_config, f)
#define COUNT(f, hi) LJ_OPT_INT, AT(f), .min = 1, .max = (hi), .hint = "an integer > 0"

/* hackbench's options, with its letters and meanings; then ljkit's. */
static const struct lj_opt hb_opts[] = {
	{ "fds", 'f', LJ_OPT_ARG, "NUM", "senders and receivers per group (default 20)", COUNT(fds, 1000000) },
	{ "fifo", 'F', LJ_OPT_NOARG, NULL, "use SCHED_FIFO for the main thread", LJ_OPT_FLAG, AT(fifo) },
	{ "groups", 'g', LJ_OPT_ARG, "NUM", "number of groups (default 10)", COUNT(groups, 1000000) },
	{ NULL, 'h', LJ_OPT_NOARG, NULL, NULL, LJ_OPT_HELP },
	{ "loops", 'l', LJ_OPT_ARG, "LOOPS", "messages each sender sends to each receiver (default 100)",
	  COUNT(loops, INT_MAX) },
	{ "pipe", 'p', LJ_OPT_NOARG, NULL, "send data via pipes (--transport pipe)" },
	{ "inet", 'i', LJ_OPT_NOARG, NULL, "send data via TCP over 127.0.0.1" },
	{ "datasize", 's', LJ_OPT_ARG, "SIZE", "message size in bytes (default 100)", COUNT(datasize, 64 << 20) },
	{ "threads", 'T', LJ_OPT_NOARG, NULL, "use POSIX threads", LJ_OPT_CONST, AT(mode), .min = HB_THREAD },
	{ "process", 'P', LJ_OPT_NOARG, NULL, "use fork (default)", LJ_OPT_CONST, AT(mode), .min = HB_PROCESS },
	{ "processes", K_PROCESSES, LJ_OPT_NOARG, NULL, NULL,	/* hackbench's own spelling */
	  LJ_OPT_CONST, AT(mode), .min = HB_PROCESS },
	/* ljkit's own */
	{ "transport", K_TRANSPORT, LJ_OPT_ARG, "T", "socket (default), pipe, inet or mq (POSIX message queues)",
	  .values = "socket pipe inet mq" },
	{ "duration", K_DURATION, LJ_OPT_ARG, "TIME",
	  "load mode: run for TIME (s, or 10s, 5m, ...), printing messages per second",
	  LJ_OPT_DURATION, AT(duration_ns), .unit = LJ_NSEC_PER_SEC, .min = 1, .flags = LJ_OPT_STRICT | LJ_OPT_THEN_CALL,
	  .hint = "--load runs until a signal" },
	{ "load", K_LOAD, LJ_OPT_NOARG, NULL, "load mode until SIGINT/SIGTERM", LJ_OPT_FLAG, AT(load) },
	{ "quiet", K_QUIET, LJ_OPT_NOARG, NULL, "no per-second lines in load mode", LJ_OPT_FLAG, AT(quiet) },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "workers' policy: other, batch, idle, fifo, rr",
	  LJ_OPT_POLICY, AT(policy), .given = LJ_OPT_GIVEN(struct hb_config, policy_given) },
	{ "priority", K_PRIORITY, LJ_OPT_ARG, "PRIO", "workers' fifo/rr priority",
	  LJ_OPT_INT, AT(priority), .min = 1, .max = 99, .flags = LJ_OPT_STRICT },
	{ "percentiles", K_PERCENTILES, LJ_OPT_NOARG, NULL,
	  "also print message latency percentiles and throughput", LJ_OPT_FLAG, AT(percentiles) },
	{ "no-latency", K_NO_LATENCY, LJ_OPT_NOARG, NULL,
	  "do not time-stamp messages (no latency; exactly hackbench's per-message work)",
	  LJ_OPT_FLAG, AT(no_latency) },
	{ "no-tsc", K_NO_TSC, LJ_OPT_NOARG, NULL,
	  "stamp messages with clock_gettime even where the TSC is the kernel's clock",
	  LJ_OPT_FLAG, AT(no_tsc) },
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US",
	  "explain the messages above the run's p99.9 (or above US) from trace events (BPF or tracefs: LJ_EXPLAIN_RECORDER)" },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the ljkit-result/1 document to FILE (- for stdout)",
	  LJ_OPT_STRING, AT(json) },
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

/* -p, -i and --transport name the same choice; conflicting ones are an error. */
static int set_transport(struct hb_config *cfg, enum hb_transport t, const char *opt)
{
	if (cfg->transport_opt && cfg->transport != t)
		return lj_usage_error("%s and %s choose different transports", cfg->transport_opt, opt);
	cfg->transport_opt = opt;
	cfg->transport = t;
	return 0;
}

/* The options with logic: the transport choices, and --duration's load mode. */
static int hb_handle(void *ctx, int key, const char *arg)
{
	struct hb_config *cfg = ctx;

	switch (key) {
	case 'p':
		return set_transport(cfg, HB_PIPE, "--pipe");
	case 'i':
		return set_transport(cfg, HB_INET, "--inet");
	case K_TRANSPORT:
		for (int i = HB_SOCKET; i <= HB_MQ; i++)
			if (!strcmp(arg, hb_transport_name(i)))
				return set_transport(cfg, i, "--transport");
		return lj_opt_invalid("--transport", arg, "not socket, pipe, inet or mq");
	case K_DURATION:
		cfg->load = true;
		return 0;
	case K_EXPLAIN:
		return lj_explain_parse(arg, &cfg->explain);
	}
	return lj_usage_error("unhandled option (internal error)");
}

int hb_parse(struct hb_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tables[2] = {
		{ "hackbench options", hb_opts, hb_handle, cfg },
		lj_setupopt_table(&cfg->setup),
	};
	struct lj_opt_spec spec = {
		"[OPTIONS]",
		"Scheduler and messaging benchmark and load (hackbench-compatible).",
		tables, 2,
		"Groups of NUM senders each send LOOPS messages to each of NUM receivers.\n"
		"Time: is CLOCK_MONOTONIC from the start signal until every worker is reaped.",
		.rt_argv = true,
	};
	int ret;

	ret = lj_opt_parse_no_operands(&spec, argc, argv);
	if (ret)
		return ret;
	ret = lj_opt_policy_priority(cfg->policy_given, &cfg->policy, cfg->priority);
	if (ret)
		return ret;
	if (cfg->explain.explain && cfg->no_latency)
		return lj_usage_error("--explain explains late messages, found by the stamps --no-latency leaves out: "
				      "use one of them");
	if ((uint64_t)cfg->groups * cfg->fds * 2 > 4000000)
		return lj_usage_error("--groups %u x --fds %u is %llu tasks: too many", cfg->groups,
				      cfg->fds, 2ULL * cfg->groups * cfg->fds);
	return 0;
}
