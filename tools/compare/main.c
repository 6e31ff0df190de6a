// SPDX-License-Identifier: GPL-2.0-or-later
/* lj-compare - compare result sets (mmtests style tables), gate regressions, validate results. */
#include "compare.h"
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	K_BY = LJ_OPT_LONG_BASE, K_FORMAT, K_ALPHA, K_FAIL_ON, K_LAVA, K_VALIDATE, K_CV, K_METRICS,
	K_ADJUST, K_CJ_OK, K_INC_FAILED, K_PLAN, K_CHECK_RULES, K_HEADLINE, K_PERF_POWER, K_PP_CSV,
	K_LIMIT, K_VALIDITY_FAIL,
};

struct cmp_args {
	struct cmp_config cfg;
	bool validate, headline;
	const char *perf_power, *pp_csv;	/* --perf-power, --perf-power-csv */
	bool check_rules;
};

#define AT(f) .off = offsetof(struct cmp_args, f)

_Static_assert(LJ_ADJUST_HOLM == 0 && LJ_ADJUST_BH == 1 && LJ_ADJUST_NONE == 2, "--adjust's values in the enum's order");

/* Typed where a value is stored as given (lj_opt_store); the handler parses rules and names. */
static const struct lj_opt cmp_opts[] = {
	{ "by", K_BY, LJ_OPT_ARG, "AXIS", "pivot one run directory on an axis (cgroup off vs on, ...)",
	  LJ_OPT_STRING, AT(cfg.by) },
	{ "format", K_FORMAT, LJ_OPT_ARG, "FMT", "text (default), markdown, csv, json or lava",
	  .values = "text markdown csv json lava" },
	{ "alpha", K_ALPHA, LJ_OPT_ARG, "A", "significance level of the Mann-Whitney U test (default 0.05)",
	  LJ_OPT_DOUBLE, AT(cfg.alpha), .dmin = 1e-9, .dmax = 0.5, .hint = "0 < alpha <= 0.5" },
	{ "fail-on", K_FAIL_ON, LJ_OPT_ARG, "RULE", "gate: 'cyclic.max>+10%' fails (exit 3) on a significant rise beyond 10%; repeatable" },
	{ "limit", K_LIMIT, LJ_OPT_ARG, "RULE", "fixed threshold: 'cyclic.max<=50us' fails (exit 3) when a run of the last set exceeds it; repeatable" },
	{ "validity-fail", K_VALIDITY_FAIL, LJ_OPT_ARG, "LEVEL", "lava: a cell's validity case fails from this verdict on: invalid (default) or suspect",
	  .values = "invalid suspect" },
	{ "cannot-judge-ok", K_CJ_OK, LJ_OPT_NOARG, NULL, "a rule that cannot be judged passes (exit 0 instead of 4)",
	  LJ_OPT_FLAG, AT(cfg.cannot_judge_ok) },
	{ "adjust", K_ADJUST, LJ_OPT_ARG, "M", "multiple comparisons: holm (default), bh or none",
	  LJ_OPT_CHOICE, AT(cfg.adjust), .values = "holm bh none" },
	{ "plan", K_PLAN, LJ_OPT_ARG, "PCT", "runs (and samples per run) needed to detect a PCT % change at the noise of these sets",
	  LJ_OPT_DOUBLE, AT(cfg.plan_pct), .dmin = -99, .dmax = 1e6 },
	{ "headline", K_HEADLINE, LJ_OPT_NOARG, NULL, "how good is this machine: one run directory's root-group cells in microseconds, with verdicts",
	  LJ_OPT_FLAG, AT(headline) },
	{ "perf-power", K_PERF_POWER, LJ_OPT_ARG, "PERF,ENERGY[,LIMIT]", "perf/power view: PERF against ENERGY per set; the lowest energy whose PERF holds LIMIT (docs/power.md)",
	  LJ_OPT_STRING, AT(perf_power) },
	{ "perf-power-csv", K_PP_CSV, LJ_OPT_ARG, "FILE", "with --perf-power: also write its points as CSV for 'lj-plot perfpower'",
	  LJ_OPT_STRING, AT(pp_csv) },
	{ "include-failed", K_INC_FAILED, LJ_OPT_NOARG, NULL, "keep runs whose exit_code is not 0",
	  LJ_OPT_FLAG, AT(cfg.include_failed) },
	{ "lava", K_LAVA, LJ_OPT_NOARG, NULL, "print lava-test-case lines (same as --format lava)",
	  LJ_OPT_CONST, AT(cfg.format), .min = CMP_LAVA },
	{ "cv-warn", K_CV, LJ_OPT_ARG, "PCT", "flag metrics whose coeffvar exceeds PCT (default 10)",
	  LJ_OPT_DOUBLE, AT(cfg.cv_warn), .dmin = 0, .dmax = 1e6 },
	{ "metrics", K_METRICS, LJ_OPT_ARG, "LIST", "only these summary metrics (comma list)", LJ_OPT_STRING, AT(cfg.metrics) },
	{ "validate", K_VALIDATE, LJ_OPT_NOARG, NULL, "check the FILE arguments as ljkit-result/1 documents",
	  LJ_OPT_FLAG, AT(validate) },
	{ "check-rules", K_CHECK_RULES, LJ_OPT_NOARG, NULL, "only check the --fail-on and --limit rules, then exit (for scripts)",
	  LJ_OPT_FLAG, AT(check_rules) },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "say more", LJ_OPT_VERBOSITY },
	{ 0 }
};

/* --format: the output format by name. */
static int parse_format(const char *arg, struct cmp_config *cfg)
{
	if (!strcmp(arg, "text"))
		cfg->format = CMP_TEXT;
	else if (!strcmp(arg, "markdown") || !strcmp(arg, "md"))
		cfg->format = CMP_MARKDOWN;
	else if (!strcmp(arg, "csv"))
		cfg->format = CMP_CSV;
	else if (!strcmp(arg, "json"))
		cfg->format = CMP_JSON;
	else if (!strcmp(arg, "lava"))
		cfg->format = CMP_LAVA;
	else
		return lj_opt_invalid("--format", arg, "text, markdown, csv, json or lava");
	return 0;
}

static int cmp_handle(void *ctx, int key, const char *arg)
{
	struct cmp_args *a = ctx;
	struct cmp_config *cfg = &a->cfg;
	char why[256] = "";

	switch (key) {
	case K_FORMAT:
		return parse_format(arg, cfg);
	case K_FAIL_ON: {
		struct cmp_rule r;

		if (cmp_rule_parse(arg, &r, why, sizeof(why)))
			return lj_opt_invalid("--fail-on", arg, why);
		if (cfg->nrules == CMP_MAX_RULES)
			return lj_usage_error("too many --fail-on rules (at most %d)", CMP_MAX_RULES);
		cfg->rules[cfg->nrules++] = arg;
		return 0;
	}
	case K_LIMIT: {
		struct cmp_limit l;

		if (cmp_limit_parse(arg, &l, why, sizeof(why)))
			return lj_opt_invalid("--limit", arg, why);
		if (cfg->nlimits == CMP_MAX_LIMITS)
			return lj_usage_error("too many --limit rules (at most %d)", CMP_MAX_LIMITS);
		cfg->limits[cfg->nlimits++] = arg;
		return 0;
	}
	case K_VALIDITY_FAIL:
		if (!strcmp(arg, "invalid") || !strcmp(arg, "suspect")) {
			cfg->validity_fail = *arg == 'i' ? CMP_VALIDITY_INVALID : CMP_VALIDITY_SUSPECT;
			return 0;
		}
		return lj_opt_invalid("--validity-fail", arg, "invalid or suspect");
	}
	return LJ_EXIT_USAGE;
}

/* --validate: one line per file; exit 2 when any is not a valid result document. */
static int validate(char **files, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		const char *rt_tool = NULL;
		char why[256] = "", vwhy[160];
		json_object *doc = cmp_rt_doc(files[i], &rt_tool, why, sizeof(why));	/* rt-tests' own --json */
		int ret = doc ? 0 : why[0] ? -EINVAL : lj_result_read(files[i], &doc, why, sizeof(why));

		if (!ret && cmp_check_values(doc, vwhy, sizeof(vwhy))) {
			printf("%s: invalid: %s\n", files[i], vwhy);
			bad++;
		} else if (ret) {
			printf("%s: invalid: %s\n", files[i], why[0] ? why : lj_strerror(ret));
			bad++;
		} else if (rt_tool) {
			printf("%s: ok (rt-tests --json, read as %s's: %s)\n", files[i], rt_tool,
			       CMP_RT_NOTE + strlen("rt-tests --json read as ljkit results: "));
		} else {
			printf("%s: ok\n", files[i]);
		}
		json_object_put(doc);
	}
	return bad ? LJ_EXIT_USAGE : LJ_EXIT_OK;
}

/* --metrics named a metric no result has: say which, and which there are. */
static void print_missing(const struct cmp_data *d, const char *missing)
{
	char list[1024] = "";
	size_t used = 0;

	for (size_t i = 0; i < d->nnames && used < sizeof(list); i++)
		used += snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "", d->names[i]);
	if (d->nnames)
		lj_error("--metrics: no result has metric '%s' (they have: %s)", missing, list);
	else
		lj_error("--metrics: no result has metric '%s' (no result has a summary)", missing);
}

/* The gate's and the limits' statuses together: bad input, then a failure, then cannot judge. */
static int worst_exit(int a, int b)
{
	static const int order[] = { LJ_EXIT_USAGE, LJ_EXIT_THRESHOLD, CMP_EXIT_CANNOT_JUDGE };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a ? a : b;
}

static int parse_args(struct cmp_args *a, int argc, char **argv, int *first)
{
	struct lj_opt_table tab = { "options", cmp_opts, cmp_handle, a };
	struct lj_opt_spec spec = {
		"[OPTIONS] RUN_A [RUN_B ...] | --by AXIS RUN | --validate FILE...",
		"Compare result sets (lj-matrix run directories, or directories of result JSON).",
		&tab, 1,
		"Per workload, cell and summary metric: min, mean, stddev, coeffvar and max of the\n"
		"runs in each set, % change against the first set, and a Mann-Whitney U test.\n"
		"Exit: 0 ok, 1 the output could not be written, 2 bad input (or a rule naming no\n"
		"metric), 3 a --fail-on or --limit rule failed, 4 a rule could not be judged (too\n"
		"few runs, metric missing; --cannot-judge-ok: 0).",
	};

	return lj_opt_parse(&spec, argc, argv, first);
}

static int cmd_validate(struct cmp_args *a, char **sets, int n)
{
	return lj_exit_flushed(validate(sets, n));
}

static int cmd_headline(struct cmp_args *a, char **sets, int n)
{
	return n == 1 ? lj_exit_flushed(cmp_headline(stdout, sets[0])) :
	       lj_usage_error("--headline takes one run directory");
}

/* After the analysis: the perf/power view, the plan, or the tables with the gate and the limits. */
static int report(struct cmp_args *a, struct cmp_data *d, const struct cmp_perf_power *pp,
		  struct cmp_rule *rules, struct cmp_limit *limits)
{
	int ret;

	if (a->perf_power)
		return lj_exit_flushed(cmp_perf_power(stdout, d, pp, a->pp_csv));
	if (a->cfg.plan_pct) {
		cmp_plan(stdout, d, &a->cfg);
		return 0;
	}
	cmp_validity_warn(d, a->cfg.by);
	ret = worst_exit(cmp_gate(d, &a->cfg, rules, a->cfg.nrules, true),
			 cmp_limits(d, &a->cfg, limits, a->cfg.nlimits, true));
	if (ret != LJ_EXIT_USAGE)
		cmp_output(d, &a->cfg, rules, a->cfg.nrules);
	return ret;
}

/* The comparison of the result sets (and --plan, --perf-power over them). */
static int cmd_compare(struct cmp_args *a, char **sets, int n)
{
	struct cmp_rule rules[CMP_MAX_RULES];
	struct cmp_limit limits[CMP_MAX_LIMITS];
	struct cmp_data d = { 0 };
	struct cmp_perf_power pp;
	const char *missing;
	char name[128];
	int ret;

	if (a->perf_power && cmp_perf_power_parse(a->perf_power, &pp))
		return lj_usage_error("--perf-power: expected PERF,ENERGY[,LIMIT], got '%s'", a->perf_power);
	if (a->cfg.by && n != 1)
		return lj_usage_error("--by AXIS takes exactly one run directory");
	for (int i = 0; i < a->cfg.nrules; i++)	/* each checked by its option handler */
		cmp_rule_parse(a->cfg.rules[i], &rules[i], NULL, 0);
	for (int i = 0; i < a->cfg.nlimits; i++)
		cmp_limit_parse(a->cfg.limits[i], &limits[i], NULL, 0);
	ret = cmp_load(&d, &a->cfg, sets, n);
	if (ret)
		goto out;
	missing = cmp_missing_metric(&d, &a->cfg, name, sizeof(name));
	if (missing) {
		print_missing(&d, missing);
		ret = LJ_EXIT_USAGE;
	} else if (!d.nrows) {
		lj_error("no results with a summary found in the given sets");
		ret = LJ_EXIT_USAGE;
	} else {
		cmp_sort_rows(&d);
		cmp_analyse(&d, &a->cfg);
		ret = report(a, &d, &pp, rules, limits);
	}
out:
	cmp_free(&d);
	return lj_exit_flushed(ret);
}

/* The option's field, offset by one: 0 is the command that is always chosen. */
#define OPTION_GIVEN(f) (offsetof(struct cmp_args, f) + 1)

/* What lj-compare was asked to do: the first command whose option was given; the comparison otherwise. */
static const struct cmp_command {
	size_t chosen;		/* OPTION_GIVEN(its option's bool in struct cmp_args); 0: always */
	int (*run)(struct cmp_args *a, char **sets, int n);
} commands[] = {
	{ OPTION_GIVEN(validate), cmd_validate },
	{ OPTION_GIVEN(headline), cmd_headline },
	{ 0, cmd_compare },
};

int main(int argc, char **argv)
{
	struct cmp_args a = { .cfg = { .alpha = 0.05, .cv_warn = 10, .validity_fail = CMP_VALIDITY_INVALID } };
	const struct cmp_command *c = commands;
	int first, ret;

	lj_err_init(argv[0]);
	ret = parse_args(&a, argc, argv, &first);
	if (ret)
		return lj_exit_flushed(ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret);
	if (a.check_rules)	/* the rules were checked as options */
		return LJ_EXIT_OK;
	if (first >= argc)
		return lj_usage_error("expected at least one result set (see --help)");
	while (c->chosen && !*(bool *)((char *)&a + c->chosen - 1))
		c++;
	return c->run(&a, argv + first, argc - first);
}
