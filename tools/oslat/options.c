// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-oslat's option table: oslat's letters and meanings (rt-tests 2.40), plus ljkit's long options. */
#include "oslat.h"

#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "lj_err.h"
#include "lj_parse.h"
#include "lj_time.h"

enum {
	K_JSON = LJ_OPT_LONG_BASE + 1,
	K_PREHEAT,
	K_EXPLAIN,
};

#define AT(f) .off = offsetof(struct osl_config, f)

static const struct lj_opt osl_opts[] = {
	{ "bucket-size", 'b', LJ_OPT_ARG, "N", "number of 1-us buckets in the summary (4-1024, default 32)",
	  LJ_OPT_INT, AT(bucket_size), .min = OSL_BUCKETS_MIN, .max = OSL_BUCKETS_MAX },
	{ "bias", 'B', LJ_OPT_NOARG, NULL, "shift the buckets by the smallest gap of the preheat",
	  LJ_OPT_FLAG, AT(bias) },
	{ "cpu-list", 'c', LJ_OPT_ARG, "LIST", "CPUs to measure, one busy loop each: a list, all, online, big, little "
	  "(default all)", LJ_OPT_STRING, AT(cpu_list), .values = LJ_OPT_CPU_SELECTOR_VALUES },
	{ "cpu-main-thread", 'C', LJ_OPT_ARG, "CPU",
	  "the CPU of the main thread (default: one that is not measured, where there is one)",
	  LJ_OPT_INT, AT(main_cpu), .min = 0, .max = CPU_SETSIZE - 1 },
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "measure for TIME (s, or with unit: 10s, 20m, 2h, 1d; default 1)" },
	{ NULL, 'h', LJ_OPT_NOARG, NULL, NULL, LJ_OPT_HELP },
	{ "rtprio", 'f', LJ_OPT_ARG, "PRIO", "SCHED_FIFO priority of the busy loops, 1-99 (default SCHED_OTHER)",
	  LJ_OPT_INT, AT(rtprio), .min = 1, .max = 99 },
	{ "workload-mem", 'm', LJ_OPT_ARG, "SIZE", "bytes -w memmove copies between each clock read (default 16K)" },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "print the summary only", LJ_OPT_FLAG, AT(quiet) },
	{ "single-preheat", 's', LJ_OPT_NOARG, NULL, "preheat on the first CPU only", LJ_OPT_FLAG, AT(single_preheat) },
	{ "trace-threshold", 'T', LJ_OPT_ARG, "US",
	  "stop at the first gap of US us or more (marked in the run's trace when tracefs allows)",
	  LJ_OPT_INT, AT(trace_threshold_us), .min = 1, .max = INT_MAX },
	{ NULL, 'v', LJ_OPT_NOARG, NULL, "print the version and exit" },
	{ "workload", 'w', LJ_OPT_ARG, "NAME", "work between two clock reads: no (default) or memmove",
	  LJ_OPT_STRING, AT(workload), .values = "no memmove" },
	{ "zero-omit", 'z', LJ_OPT_NOARG, NULL, "leave out buckets that are empty on every CPU", LJ_OPT_FLAG, AT(zero_omit) },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the result (ljkit's and oslat's keys) to FILE (- for stdout)",
	  LJ_OPT_STRING, AT(json) },
	/* ljkit's own */
	{ "preheat", K_PREHEAT, LJ_OPT_ARG, "TIME", "run the loops TIME before measuring (default 1s, as oslat; 0: none)",
	  LJ_OPT_DURATION, AT(preheat_ns), .unit = LJ_NSEC_PER_SEC, .flags = LJ_OPT_STRICT },
	{ "explain", K_EXPLAIN, LJ_OPT_OPTARG, "US",
	  "explain the largest gaps (or those above US) from trace events (BPF or tracefs: LJ_EXPLAIN_RECORDER)" },
	{ 0 }
};

void osl_config_init(struct osl_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->bucket_size = OSL_BUCKETS;
	cfg->main_cpu = -1;
	cfg->duration_ns = LJ_NSEC_PER_SEC;
	cfg->preheat_ns = LJ_NSEC_PER_SEC;
	cfg->workload_mem = OSL_WORKLOAD_MEM;
	cfg->workload = "no";
	lj_setupopt_init(&cfg->setup);
}

/* oslat's units are case-blind (its help writes -D 2H); ljkit's are lower case. */
static int duration(const char *arg, int64_t *out)
{
	char buf[32];
	size_t n = strlen(arg);

	if (n && n < sizeof(buf) && strchr("MHD", arg[n - 1])) {
		memcpy(buf, arg, n + 1);
		buf[n - 1] = (char)tolower((unsigned char)buf[n - 1]);
		arg = buf;
	}
	if (lj_opt_duration("--duration", arg, LJ_NSEC_PER_SEC, out))
		return LJ_EXIT_USAGE;
	return *out > 0 ? 0 : lj_opt_invalid("--duration", arg, "must be more than 0");
}

static int osl_handle(void *ctx, int key, const char *arg)
{
	struct osl_config *cfg = ctx;
	char why[128] = "";

	switch (key) {
	case 'D':
		return duration(arg, &cfg->duration_ns);
	case 'm':
		if (lj_parse_size(arg, &cfg->workload_mem, why, sizeof(why)) || !cfg->workload_mem)
			return lj_opt_invalid("--workload-mem", arg, why[0] ? why : "must be more than 0");
		return 0;
	case 'v':
		printf("%s (ljkit) %s\n", lj_prog(), LJ_VERSION);
		return LJ_OPT_EXIT_HELP;
	case K_EXPLAIN:
		return lj_explain_parse(arg, &cfg->explain);
	}
	return lj_usage_error("unhandled option (internal error)");
}

int osl_parse(struct osl_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tables[2] = {
		{ "oslat options", osl_opts, osl_handle, cfg },
		lj_setupopt_table(&cfg->setup),
	};
	struct lj_opt_spec spec = {
		"[OPTIONS]",
		"OS noise: a busy loop per CPU reading the clock, its gaps histogrammed (oslat-compatible).",
		tables, 2,
		"Each loop reads CLOCK_MONOTONIC (the vDSO) in a loop; a gap between two\n"
		"reads is time the CPU spent elsewhere: interrupts, other tasks, the host.",
		.rt_argv = true,
	};
	int ret = lj_opt_parse_no_operands(&spec, argc, argv);

	if (ret)
		return ret;
	if (strcmp(cfg->workload, "no") && strcmp(cfg->workload, "memmove"))
		return lj_usage_error("unknown workload '%s' (no, memmove)", cfg->workload);
	if (cfg->bias && !cfg->preheat_ns)
		return lj_usage_error("--bias takes the preheat's smallest gap: not with --preheat 0");
	/* -T marks its gap in the run's own trace instance, as lj-cyclic's -b --tracemark */
	cfg->explain.tracemark = cfg->trace_threshold_us > 0;
	return 0;
}
