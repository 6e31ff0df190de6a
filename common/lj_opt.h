/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_opt - option tables that generate getopt_long's array, optstring and --help. */
#ifndef LJ_OPT_H
#define LJ_OPT_H

#include <getopt.h>
#include <stdio.h>

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
};

/*
 * Parse argv against @spec. --help (and -? where no table claims '?') are
 * built in. On return *first_arg is the index of the first non-option
 * argument. Returns 0 to go on, LJ_OPT_EXIT_HELP after printing --help
 * (the tool exits 0), or an exit code after a message.
 */
#define LJ_OPT_EXIT_HELP (-1)
int lj_opt_parse(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg);

void lj_opt_print_help(const struct lj_opt_spec *spec, FILE *out);

#endif
