/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_opt - option tables that generate getopt_long's array, optstring and --help. */
#ifndef LJ_OPT_H
#define LJ_OPT_H

#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lj_sched.h"

/*
 * A tool declares its options once, as a table; several tables (the
 * tool's own, the shared setup options, the shared output options) are
 * combined for one parse, and --help lists each under its title.
 *
 * @key is the short option letter, or a value >= LJ_OPT_LONG_BASE for a
 * long-only option. Keys must be unique across the tables of one parse.
 * Tables end with an entry whose name and key are both 0.
 */
#define LJ_OPT_LONG_BASE 256

enum lj_opt_arg {
	LJ_OPT_NOARG = no_argument,
	LJ_OPT_ARG = required_argument,
	LJ_OPT_OPTARG = optional_argument,
};

struct lj_opt {
	const char *name;		/* long name, or NULL for short-only */
	int key;
	enum lj_opt_arg arg;
	const char *argname;		/* shown in --help: "US", "LIST" */
	const char *help;		/* one line; NULL hides the option */
};

/*
 * Called for each option in command-line order. @arg is NULL for options
 * without an argument. Return 0, or an exit code after printing the
 * problem (lj_usage_error() does both).
 */
typedef int (*lj_opt_handler)(void *ctx, int key, const char *arg);

struct lj_opt_table {
	const char *title;		/* --help section, e.g. "setup options" */
	const struct lj_opt *opts;
	lj_opt_handler handle;
	void *ctx;
};

struct lj_opt_spec {
	const char *usage;		/* "[OPTIONS]" or "[OPTIONS] -- COMMAND [ARGS]" */
	const char *summary;		/* one line under the usage line */
	const struct lj_opt_table *tables;
	int ntables;
	const char *epilog;		/* printed after the options, may be NULL */
	/*
	 * Options end at the first operand, as for a tool that runs a command
	 * ("lj-env [OPTIONS] COMMAND -x": -x is COMMAND's). Otherwise options
	 * may follow operands (GNU style); "--" ends options either way.
	 */
	bool stop_at_operand;
};

/*
 * Parse argv against @spec. --help (and -? where no table claims '?') are
 * built in. On return *first_arg is the index of the first non-option
 * argument; without @spec->stop_at_operand argv is permuted so that all
 * operands follow the options. Returns 0 to go on, LJ_OPT_EXIT_HELP after printing --help
 * (the tool exits 0), or an exit code after a message.
 */
#define LJ_OPT_EXIT_HELP (-1)
int lj_opt_parse(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg);

/* lj_opt_parse for a tool that takes no operands: a leftover argument is a usage error. */
int lj_opt_parse_no_operands(const struct lj_opt_spec *spec, int argc, char **argv);

void lj_opt_print_help(const struct lj_opt_spec *spec, FILE *out);

/*
 * Option values for handlers. Each parses @arg with the matching
 * lj_parse_* function; on failure it prints the one message every tool
 * gives,
 *     lj-cyclic: invalid --interval '10q': unknown unit
 * and returns LJ_EXIT_USAGE, so a handler can `return lj_opt_int(...)`.
 * @opt is the option as the user knows it ("--interval"). *@out is only
 * written on success. Return: 0 or LJ_EXIT_USAGE.
 */
int lj_opt_int(const char *opt, const char *arg, int min, int max, int *out);
int lj_opt_i64(const char *opt, const char *arg, int64_t min, int64_t max, int64_t *out);
int lj_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out);
int lj_opt_double(const char *opt, const char *arg, double min, double max, double *out);
/* A duration in ns; a bare number is in @default_unit_ns (LJ_NSEC_PER_USEC for -i). */
int lj_opt_duration(const char *opt, const char *arg, int64_t default_unit_ns, int64_t *out);
int lj_opt_bool(const char *opt, const char *arg, bool *out);
/* A CPU list ("0-3,6"); existence is the caller's check, once the topology is known. */
int lj_opt_cpulist(const char *opt, const char *arg, cpu_set_t *out);
/*
 * A thread policy: other (normal), batch, idle, fifo or rr. Deadline is
 * refused: no tool's threads carry a runtime/deadline/period triple.
 */
int lj_opt_policy(const char *opt, const char *arg, enum lj_policy *out);

/*
 * The rules --policy and --priority share in every tool: a priority alone
 * means fifo; fifo and rr need a priority; other policies take none.
 * Updates *@policy; returns 0 or LJ_EXIT_USAGE after the message.
 */
int lj_opt_policy_priority(bool policy_given, enum lj_policy *policy, int priority);

/*
 * The -v and -q of tools whose -q only silences diagnostics (lj-env,
 * lj-matrix, lj-compare): 'v' says more each time, 'q' leaves errors
 * only. Tools where -q means "no summary" keep their own. Return: 0.
 */
int lj_opt_verbosity(int key);

/* Print "prog: invalid OPT 'ARG': WHY" ("invalid value" when @why is NULL); return LJ_EXIT_USAGE. */
int lj_opt_invalid(const char *opt, const char *arg, const char *why);

#endif
