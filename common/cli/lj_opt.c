// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_opt - option tables that generate getopt_long's array, optstring and --help. */
#include "lj_opt.h"
#include "lj_err.h"
#include "lj_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KEY_HELP (LJ_OPT_LONG_BASE - 1)

static int count_opts(const struct lj_opt_spec *spec)
{
	int n = 0;

	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++)
			n++;
	return n;
}

static const struct lj_opt_table *find_key(const struct lj_opt_spec *spec, int key)
{
	for (int t = 0; t < spec->ntables; t++)
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++)
			if (o->key == key)
				return &spec->tables[t];
	return NULL;
}

void lj_opt_print_help(const struct lj_opt_spec *spec, FILE *out)
{
	fprintf(out, "Usage: %s %s\n", lj_prog(), spec->usage ? spec->usage : "[OPTIONS]");
	if (spec->summary)
		fprintf(out, "%s\n", spec->summary);
	for (int t = 0; t < spec->ntables; t++) {
		const struct lj_opt_table *tab = &spec->tables[t];

		fprintf(out, "\n%s:\n", tab->title ? tab->title : "options");
		for (const struct lj_opt *o = tab->opts; o->name || o->key; o++) {
			char left[64];
			int n = 0;

			if (!o->help)
				continue;
			if (o->key > 0 && o->key < LJ_OPT_LONG_BASE)
				n += snprintf(left + n, sizeof(left) - n, "-%c%s", o->key,
					      o->name ? ", " : "");
			else
				n += snprintf(left + n, sizeof(left) - n, "    ");
			if (o->name)
				n += snprintf(left + n, sizeof(left) - n, "--%s", o->name);
			if (o->arg == LJ_OPT_ARG)
				snprintf(left + n, sizeof(left) - n, " %s", o->argname ? o->argname : "ARG");
			else if (o->arg == LJ_OPT_OPTARG)
				snprintf(left + n, sizeof(left) - n, "[=%s]", o->argname ? o->argname : "ARG");
			if (strlen(left) > 28)
				fprintf(out, "  %s\n  %-28s  %s\n", left, "", o->help);
			else
				fprintf(out, "  %-28s  %s\n", left, o->help);
		}
	}
	fprintf(out, "\n  %-28s  %s\n", "-?, --help", "show this help and exit");
	if (spec->epilog)
		fprintf(out, "\n%s\n", spec->epilog);
}

/*
 * The index of the argv element getopt took its last option from, for
 * messages: getopt skips operands first when it permutes (they are moved
 * later, behind the options, so nothing at or after @optind_before moves),
 * and stays on a cluster ("-qx") until its last letter.
 */
static int option_element(int argc, char **argv, int optind_before)
{
	int i = optind_before > 0 ? optind_before : 1;

	while (i < argc - 1 && (argv[i][0] != '-' || !argv[i][1]))
		i++;
	return i;
}

int lj_opt_parse(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg)
{
	int n = count_opts(spec);
	struct option *longs = calloc(n + 2, sizeof(*longs));
	char *shorts = calloc(3 * n + 4, 1);
	int nl = 0, ns = 0, ret = 0;

	if (!longs || !shorts) {
		free(longs);
		free(shorts);
		lj_error("out of memory parsing options");
		return LJ_EXIT_RUNTIME;
	}
	/*
	 * '+' stops at the first non-option, so "lj-env cmd -x" leaves -x to
	 * cmd; without it getopt permutes ("lj-matrix FILE --repeat 1").
	 */
	if (spec->stop_at_operand)
		shorts[ns++] = '+';
	shorts[ns++] = ':';
	for (int t = 0; t < spec->ntables; t++) {
		for (const struct lj_opt *o = spec->tables[t].opts; o->name || o->key; o++) {
			if (o->name) {
				longs[nl].name = o->name;
				longs[nl].has_arg = o->arg;
				longs[nl].val = o->key;
				nl++;
			}
			if (o->key > 0 && o->key < LJ_OPT_LONG_BASE) {
				shorts[ns++] = (char)o->key;
				if (o->arg == LJ_OPT_ARG)
					shorts[ns++] = ':';
				else if (o->arg == LJ_OPT_OPTARG) {
					shorts[ns++] = ':';
					shorts[ns++] = ':';
				}
			}
		}
	}
	longs[nl].name = "help";
	longs[nl].val = KEY_HELP;
	if (!find_key(spec, '?'))
		shorts[ns++] = '?';

	/*
	 * 0, not 1: glibc then forgets the previous parse, including its
	 * ordering mode ('+' or permute) and where it had moved operands.
	 */
	optind = 0;
	opterr = 0;
	for (;;) {
		int prev = optind;
		int c = getopt_long(argc, argv, shorts, longs, NULL);
		const struct lj_opt_table *tab;

		if (c == -1)
			break;
		prev = option_element(argc, argv, prev);
		if (c == KEY_HELP || (c == '?' && prev < argc && argv[prev] &&
				      !strcmp(argv[prev], "-?"))) {
			lj_opt_print_help(spec, stdout);
			ret = LJ_OPT_EXIT_HELP;
			goto out;
		}
		if (c == '?') {
			if (optopt && optopt < LJ_OPT_LONG_BASE && prev < argc &&
			    argv[prev][1] != '-')
				ret = lj_usage_error("invalid option -- '%c' (see --help)", optopt);
			else
				ret = lj_usage_error("unrecognized option '%s' (see --help)",
						     argv[prev]);
			goto out;
		}
		if (c == ':') {
			if (optopt && optopt < LJ_OPT_LONG_BASE && argv[prev][1] != '-')
				ret = lj_usage_error("option -%c needs an argument", optopt);
			else
				ret = lj_usage_error("option '%s' needs an argument", argv[prev]);
			goto out;
		}
		tab = find_key(spec, c);
		if (!tab) {
			ret = lj_usage_error("unhandled option (internal error)");
			goto out;
		}
		ret = tab->handle(tab->ctx, c, optarg);
		if (ret)
			goto out;
	}
	if (first_arg)
		*first_arg = optind;
out:
	free(longs);
	free(shorts);
	return ret;
}

int lj_opt_parse_no_operands(const struct lj_opt_spec *spec, int argc, char **argv)
{
	int first = argc;
	int ret;

	ret = lj_opt_parse(spec, argc, argv, &first);
	if (ret)
		return ret;
	if (first < argc)
		return lj_usage_error("unexpected argument '%s' (see --help)", argv[first]);
	return 0;
}

/* ---- option values ---- */

int lj_opt_verbosity(int key)
{
	lj_err_set_verbosity(key == 'q' ? -1 : lj_err_verbosity() + 1);
	return 0;
}

int lj_opt_invalid(const char *opt, const char *arg, const char *why)
{
	return lj_usage_error("invalid %s '%s': %s", opt, arg ? arg : "",
			      why ? why : "invalid value");
}

int lj_opt_int(const char *opt, const char *arg, int min, int max, int *out)
{
	const char *why = NULL;

	if (lj_parse_int(arg, min, max, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_i64(const char *opt, const char *arg, int64_t min, int64_t max, int64_t *out)
{
	const char *why = NULL;

	if (lj_parse_i64(arg, min, max, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *why = NULL;

	if (lj_parse_u64(arg, min, max, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_double(const char *opt, const char *arg, double min, double max, double *out)
{
	const char *why = NULL;

	if (lj_parse_double(arg, min, max, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_duration(const char *opt, const char *arg, int64_t default_unit_ns, int64_t *out)
{
	const char *why = NULL;

	if (lj_parse_duration_ns(arg, default_unit_ns, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_bool(const char *opt, const char *arg, bool *out)
{
	const char *why = NULL;

	if (lj_parse_bool(arg, out, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_cpulist(const char *opt, const char *arg, cpu_set_t *out)
{
	const char *why = NULL;

	if (lj_parse_cpulist(arg, out, 0, &why))
		return lj_opt_invalid(opt, arg, why);
	return 0;
}

int lj_opt_policy(const char *opt, const char *arg, enum lj_policy *out)
{
	enum lj_policy p;

	if (lj_sched_policy_parse(arg, &p) || p == LJ_POLICY_DEADLINE)
		return lj_opt_invalid(opt, arg, "not one of other, normal, batch, idle, fifo, rr");
	*out = p;
	return 0;
}

int lj_opt_policy_priority(bool policy_given, enum lj_policy *policy, int priority)
{
	bool rt;

	if (!policy_given && priority > 0)
		*policy = LJ_POLICY_FIFO;
	rt = *policy == LJ_POLICY_FIFO || *policy == LJ_POLICY_RR;
	if (rt && priority == 0)
		return lj_usage_error("--policy %s needs --priority 1..99", lj_sched_policy_name(*policy));
	if (!rt && priority > 0)
		return lj_usage_error("--priority %d needs --policy fifo or rr", priority);
	return 0;
}
