/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_opt - option tables that generate getopt_long's array, optstring and --help. */
#ifndef LJ_OPT_H
#define LJ_OPT_H

#include <getopt.h>
#include <sched.h>
#include <stddef.h>
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
 * long-only option. Keys and long names must be unique across the tables of one parse
 * (lj_opt_check, at startup).
 * Tables end with an entry whose name and key are both 0.
 */
#define LJ_OPT_LONG_BASE 256

enum lj_opt_arg {
	LJ_OPT_NOARG = no_argument,
	LJ_OPT_ARG = required_argument,
	LJ_OPT_OPTARG = optional_argument,
};

/*
 * What an entry does with its value. LJ_OPT_CALL (the default, so tables
 * that name only the first five members keep working) hands the option to
 * the table's handler; the others store the value into the field at @off
 * of the table's ctx (the tool's configuration), so a handler keeps only
 * the options that carry logic.
 */
enum lj_opt_type {
	LJ_OPT_CALL,		/* the handler decides */
	LJ_OPT_FLAG,		/* bool = true */
	LJ_OPT_CONST,		/* int (or enum) = @min: "-r" chooses a wait mode */
	LJ_OPT_INT,		/* int in [@min, @max] */
	LJ_OPT_I64,		/* int64_t in [@min, @max] */
	LJ_OPT_U64,		/* uint64_t in [@min, @max]; @max 0: no limit */
	LJ_OPT_DURATION,	/* int64_t ns, a bare number in @unit ns; [@min, @max], @max 0: none */
	LJ_OPT_STRING,		/* const char *, pointing into argv */
	LJ_OPT_CPULIST,		/* cpu_set_t: "0-3,6" (existence is the tool's check) */
	LJ_OPT_POLICY,		/* enum lj_policy: other, normal, batch, idle, fifo, rr */
	LJ_OPT_DOUBLE,		/* double in [@dmin, @dmax] */
	LJ_OPT_CHOICE,		/* int (or enum) = the index of the word in @values: the enum in their order */
	LJ_OPT_VERBOSITY,	/* key 'q': errors only; any other: one step more verbose (lj_err's level, no field) */
	LJ_OPT_HELP,		/* print --help; the parse returns LJ_OPT_EXIT_HELP */
};

/* lj_opt.flags */
#define LJ_OPT_NEXT_NUMBER	0x1u	/* optional argument also as the next word when that starts with a digit */
#define LJ_OPT_NEXT_CPUS	0x2u	/* ... when it reads as a CPU list: a digit, !N, +N or "all" */
#define LJ_OPT_THEN_CALL	0x4u	/* typed: after storing, also call the handler (cross-checks) */
#define LJ_OPT_STRICT		0x8u	/* not rt-tests': no atoi() leniency under rt_argv (ljkit's own) */

/* The named values of two kinds of option, for .values (completion, man pages). */
#define LJ_OPT_CPU_SELECTOR_VALUES "all online big little"
#define LJ_OPT_POLICY_VALUES "other batch idle fifo rr"

struct lj_opt {
	const char *name;		/* long name, or NULL for short-only */
	int key;
	enum lj_opt_arg arg;
	const char *argname;		/* shown in --help: "US", "LIST" */
	const char *help;		/* one line; NULL hides the option */
	enum lj_opt_type type;
	size_t off;			/* offsetof(tool config, field) for typed entries */
	int64_t min, max;		/* range of numbers and durations (ns); LJ_OPT_CONST's value */
	int64_t unit;			/* LJ_OPT_DURATION: ns in one unit of a bare number */
	double dmin, dmax;		/* LJ_OPT_DOUBLE's range */
	size_t given;			/* LJ_OPT_GIVEN(): a bool set when the option appears, 0: none */
	unsigned int flags;		/* LJ_OPT_NEXT_*, LJ_OPT_THEN_CALL, LJ_OPT_STRICT */
	const char *hint;		/* appended to a refusal: hackbench's "an integer > 0" */
	const char *values;		/* a fixed set of values, blank-separated, for completion and man pages */
	/*
	 * LJ_OPT_OPTARG: is argv[@next] this option's value, given as the
	 * next word? For rules LJ_OPT_NEXT_NUMBER/NEXT_CPUS cannot say
	 * (lj-env's "--json FILE" before "-- COMMAND"). NULL: the flags decide.
	 */
	bool (*next_value)(int argc, char *const *argv, int next);
	/*
	 * This entry starts a group of options, a section of --help (and of
	 * the man page) titled so, as rtla groups its options; the entries up
	 * to the next group belong to it. NULL: the section goes on.
	 */
	const char *group;
};

/* The first entry of @opts that --help shows (hidden ones have no help), or NULL. */
static inline const struct lj_opt *lj_opt_first_shown(const struct lj_opt *opts)
{
	for (; opts->name || opts->key; opts++)
		if (opts->help)
			return opts;
	return NULL;
}

/* The title of the --help section that entry @o opens in table @title, or NULL when @o opens none. */
static inline const char *lj_opt_section(const char *title, const struct lj_opt *opts, const struct lj_opt *o)
{
	if (o == lj_opt_first_shown(opts))
		return o->group ? o->group : title ? title : "options";
	return o->help ? o->group : NULL;
}

/* The "given" member of an entry: offset + 1, so that 0 means none. */
#define LJ_OPT_GIVEN(type, field) (offsetof(type, field) + 1)

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
	/*
	 * argv as rt-tests' programs read it (lj-cyclic, lj-signal,
	 * lj-hackbench): a number given with blanks before it (one word
	 * "-h 3500") is accepted; junk after a number, which atoi ignores,
	 * is ignored with a warning naming it; one word holding several
	 * options ("-s 100 -l 100 -g 10") is split into words with a warning
	 * when every option in it is one of the spec's. Entries flagged
	 * LJ_OPT_STRICT (ljkit's own options) keep the strict reading. A
	 * spec with rt_argv takes no operands (lj_opt_parse refuses them).
	 */
	bool rt_argv;
};

/*
 * Is @spec one that can be parsed? Every entry's key and long name
 * unique across all its tables (getopt and the handlers would silently
 * take the first), a key below LJ_OPT_LONG_BASE a printable letter, no
 * entry named help or version (built in). lj_opt_parse checks this first,
 * so a table with a mistake fails at startup, whatever the command line.
 * Return: 0, or -EINVAL with @why ("--prio and --priority both have key
 * 'p'"; may be NULL).
 */
int lj_opt_check(const struct lj_opt_spec *spec, char *why, size_t len);

/*
 * Parse argv against @spec. --help (and -? where no table claims '?') are
 * built in. On return *first_arg is the index of the first non-option
 * argument; without @spec->stop_at_operand argv is permuted so that all
 * operands follow the options. Returns 0 to go on, LJ_OPT_EXIT_HELP after printing --help
 * (the tool exits 0), or an exit code after a message (LJ_EXIT_RUNTIME for a
 * spec lj_opt_check refuses: the tool's own mistake).
 */
#define LJ_OPT_EXIT_HELP (-1)
int lj_opt_parse(const struct lj_opt_spec *spec, int argc, char **argv, int *first_arg);

/* lj_opt_parse for a tool that takes no operands: a leftover argument is a usage error. */
int lj_opt_parse_no_operands(const struct lj_opt_spec *spec, int argc, char **argv);

void lj_opt_print_help(const struct lj_opt_spec *spec, FILE *out);

/*
 * The hidden "--dump-options" (the only argument): the spec as
 * tab-separated lines (prog, usage, summary, table, opt, epilog) for the
 * man page and completion generators; lj_opt_parse prints it and returns
 * LJ_OPT_EXIT_HELP. docs/packaging.md describes the format.
 */
void lj_opt_dump(const struct lj_opt_spec *spec, FILE *out);

/*
 * Store @arg into @ctx's field as entry @o says (typed entries), with
 * @rt_argv's leniency. Return: 0 or LJ_EXIT_USAGE after the message.
 * lj_opt_parse calls it; exposed for the unit tests.
 */
int lj_opt_store(const struct lj_opt *o, void *ctx, const char *arg, bool rt_argv);

/*
 * A duration >= 0 read as rt-tests reads it (leading blanks, junk after
 * the number warned about), for a value whose unit is only known after
 * the parse (-b and --spike follow -N; 0 is rt-tests' "off"). @name is the long
 * name without dashes. Return: 0 or LJ_EXIT_USAGE after the message.
 */
int lj_opt_rt_duration(const char *name, const char *arg, int64_t unit_ns, int64_t *out);

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
