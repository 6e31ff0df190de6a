// SPDX-License-Identifier: GPL-2.0-or-later
/* test_opt - option tables: parsing, errors, help generation. */
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_time.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct cfg {
	int loops;
	const char *json;
	int verbose;
};

enum { K_JSON = LJ_OPT_LONG_BASE };

static const struct lj_opt opts[] = {
	{ "loops", 'l', LJ_OPT_ARG, "N", "number of loops" },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write JSON" },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "more output" },
	{ 0 }
};

static int handle(void *ctx, int key, const char *arg)
{
	struct cfg *c = ctx;

	switch (key) {
	case 'l':
		if (arg[0] == 'x')
			return lj_usage_error("invalid --loops '%s'", arg);
		c->loops = atoi(arg);
		return 0;
	case K_JSON:
		c->json = arg;
		return 0;
	case 'v':
		c->verbose++;
		return 0;
	}
	return LJ_EXIT_USAGE;
}

static int run(struct cfg *c, int argc, char **argv, int *first)
{
	struct lj_opt_table tab = { "options", opts, handle, c };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &tab, 1, NULL };

	*c = (struct cfg){ 0 };
	return lj_opt_parse(&spec, argc, argv, first);
}

/*
 * The value helpers print their message to stderr: send fd 2 to a file for
 * the call, then read back what was written.
 */
static char captured[512];
static int saved_fd = -1;
static FILE *cap;

static void capture_start(void)
{
	fflush(stderr);
	cap = tmpfile();
	saved_fd = dup(2);
	if (cap && saved_fd >= 0)
		dup2(fileno(cap), 2);
}

static const char *capture_end(void)
{
	size_t n = 0;

	fflush(stderr);
	if (saved_fd >= 0) {
		dup2(saved_fd, 2);
		close(saved_fd);
		saved_fd = -1;
	}
	captured[0] = '\0';
	if (cap) {
		rewind(cap);
		n = fread(captured, 1, sizeof(captured) - 1, cap);
		fclose(cap);
		cap = NULL;
	}
	captured[n] = '\0';
	return captured;
}

static void test_no_operands(void)
{
	struct cfg c = { 0 };
	struct lj_opt_table tab = { "options", opts, handle, &c };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &tab, 1, NULL };
	char *good[] = { "t", "-l", "3", NULL };
	char *extra[] = { "t", "-l", "3", "stray", NULL };

	is_int(lj_opt_parse_no_operands(&spec, 3, good), 0, "no operands: options alone parse");
	is_int(c.loops, 3, "no operands: the handler saw the value");
	capture_start();
	is_int(lj_opt_parse_no_operands(&spec, 4, extra), LJ_EXIT_USAGE, "no operands: a leftover word is a usage error");
	is_str(capture_end(), "test_opt: unexpected argument 'stray' (see --help)\n", "...naming the word");
}

static int run_spec(struct cfg *c, bool stop_at_operand, int argc, char **argv, int *first)
{
	struct lj_opt_table tab = { "options", opts, handle, c };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &tab, 1, NULL, stop_at_operand };

	*c = (struct cfg){ 0 };
	return lj_opt_parse(&spec, argc, argv, first);
}

/* GNU style by default: options may follow operands; "--" still ends them. */
static void test_operand_order(void)
{
	struct cfg c;
	int first = -1;
	char *after[] = { "t", "-v", "FILE", "--loops", "4", "MORE", "-v", NULL };
	char *dashdash[] = { "t", "FILE", "--", "-l", "9", NULL };
	char *cmd[] = { "t", "-v", "cmd", "-l", "9", NULL };
	char *cmd2[] = { "t", "-v", "--", "cmd", "-l", "9", NULL };
	char *bad[] = { "t", "FILE", "OTHER", "--nope", NULL };
	char *badshort[] = { "t", "FILE", "-vq", NULL };
	char *noarg[] = { "t", "FILE", "-l", NULL };

	ok(run_spec(&c, false, 7, after, &first) == 0 && c.loops == 4 && c.verbose == 2,
	   "options after operands are parsed");
	ok(first == 5 && !strcmp(after[5], "FILE") && !strcmp(after[6], "MORE"),
	   "...and the operands are moved behind them, in their order");
	ok(run_spec(&c, false, 5, dashdash, &first) == 0 && c.loops == 0 && first == 2 &&
	   !strcmp(dashdash[2], "FILE") && !strcmp(dashdash[3], "-l") && !strcmp(dashdash[4], "9"),
	   "-- ends options: what follows is operands, after the earlier ones");
	ok(run_spec(&c, true, 5, cmd, &first) == 0 && c.verbose == 1 && c.loops == 0 && first == 2,
	   "stop_at_operand: options end at COMMAND, its -l is left to it");
	ok(!strcmp(cmd[2], "cmd") && !strcmp(cmd[3], "-l"), "stop_at_operand: argv is not reordered");
	ok(run_spec(&c, true, 6, cmd2, &first) == 0 && c.verbose == 1 && c.loops == 0 && first == 3,
	   "stop_at_operand: -- before COMMAND works as well");
	ok(run_spec(&c, false, 5, cmd, &first) == 0 && c.loops == 9,
	   "without stop_at_operand the same line gives -l to the tool");

	capture_start();
	is_int(run_spec(&c, false, 4, bad, &first), LJ_EXIT_USAGE, "an unknown option after operands is a usage error");
	is_str(capture_end(), "test_opt: unrecognized option '--nope' (see --help)\n",
	       "...naming the option, not an operand");
	capture_start();
	is_int(run_spec(&c, false, 3, badshort, &first), LJ_EXIT_USAGE, "an unknown short option after an operand");
	is_str(capture_end(), "test_opt: invalid option -- 'q' (see --help)\n", "...naming the letter");
	capture_start();
	is_int(run_spec(&c, false, 3, noarg, &first), LJ_EXIT_USAGE, "a missing argument after an operand");
	is_str(capture_end(), "test_opt: option -l needs an argument\n", "...naming the option");
}

static void test_values(void)
{
	cpu_set_t set;
	enum lj_policy pol = LJ_POLICY_OTHER;
	int64_t i64 = 7;
	uint64_t u64 = 7;
	double d = 7;
	bool b = false;
	int i = 7;

	is_int(lj_opt_int("--threads", "12", 1, 64, &i), 0, "lj_opt_int accepts a value in range");
	is_int(i, 12, "lj_opt_int stores the value");

	capture_start();
	i = 7;
	is_int(lj_opt_int("--priority", "100", 0, 99, &i), LJ_EXIT_USAGE, "lj_opt_int: out of range is a usage error");
	is_str(capture_end(), "test_opt: invalid --priority '100': out of range 0..99\n",
	       "lj_opt_int names the option, the text and the reason");
	is_int(i, 7, "lj_opt_int leaves *out alone on failure");

	capture_start();
	is_int(lj_opt_i64("--histogram", "5x", 1, 100, &i64), LJ_EXIT_USAGE, "lj_opt_i64 rejects trailing junk");
	is_str(capture_end(), "test_opt: invalid --histogram '5x': trailing characters\n",
	       "lj_opt_i64 message");
	is_int(lj_opt_i64("--histogram", "-5", -10, 100, &i64), 0, "lj_opt_i64 takes a negative value in range");
	is_int(i64, -5, "lj_opt_i64 stores the value");

	capture_start();
	is_int(lj_opt_u64("--loops", "-1", 0, UINT64_MAX, &u64), LJ_EXIT_USAGE, "lj_opt_u64 rejects a negative value");
	is_str(capture_end(), "test_opt: invalid --loops '-1': negative value\n", "lj_opt_u64 message");
	ok(lj_opt_u64("--loops", "18446744073709551615", 0, UINT64_MAX, &u64) == 0 && u64 == UINT64_MAX,
	   "lj_opt_u64 takes UINT64_MAX");

	ok(lj_opt_double("--fps", "59.94", 1, 1000, &d) == 0 && d == 59.94, "lj_opt_double parses");
	capture_start();
	is_int(lj_opt_double("--fps", "nan", 1, 1000, &d), LJ_EXIT_USAGE, "lj_opt_double rejects nan");
	is_str(capture_end(), "test_opt: invalid --fps 'nan': not a number\n", "lj_opt_double message");

	ok(lj_opt_duration("--interval", "250", LJ_NSEC_PER_USEC, &i64) == 0 && i64 == 250000,
	   "lj_opt_duration: a bare number is in the default unit");
	ok(lj_opt_duration("--interval", "1.5ms", LJ_NSEC_PER_USEC, &i64) == 0 && i64 == 1500000,
	   "lj_opt_duration: an explicit unit wins");
	capture_start();
	is_int(lj_opt_duration("--interval", "10q", LJ_NSEC_PER_USEC, &i64), LJ_EXIT_USAGE,
	       "lj_opt_duration rejects an unknown unit");
	ok(!strncmp(capture_end(), "test_opt: invalid --interval '10q': unknown unit", 47),
	   "lj_opt_duration message is docs/design.md's example");

	ok(lj_opt_bool("--rt-throttle", "off", &b) == 0 && !b, "lj_opt_bool parses off");
	capture_start();
	is_int(lj_opt_bool("--rt-throttle", "maybe", &b), LJ_EXIT_USAGE, "lj_opt_bool rejects other words");
	ok(!strncmp(capture_end(), "test_opt: invalid --rt-throttle 'maybe': ", 41), "lj_opt_bool message");

	ok(lj_opt_cpulist("--affinity", "0-1,3", &set) == 0 && CPU_COUNT(&set) == 3 && CPU_ISSET(3, &set),
	   "lj_opt_cpulist parses a list");
	capture_start();
	is_int(lj_opt_cpulist("--affinity", "3-1", &set), LJ_EXIT_USAGE, "lj_opt_cpulist rejects a reversed range");
	ok(!strncmp(capture_end(), "test_opt: invalid --affinity '3-1': ", 36), "lj_opt_cpulist message");

	ok(lj_opt_policy("--policy", "fifo", &pol) == 0 && pol == LJ_POLICY_FIFO, "lj_opt_policy parses fifo");
	ok(lj_opt_policy("--policy", "normal", &pol) == 0 && pol == LJ_POLICY_OTHER, "lj_opt_policy: normal is other");
	capture_start();
	is_int(lj_opt_policy("--policy", "deadline", &pol), LJ_EXIT_USAGE, "lj_opt_policy refuses deadline");
	is_str(capture_end(), "test_opt: invalid --policy 'deadline': not one of other, normal, batch, idle, fifo, rr\n",
	       "lj_opt_policy message lists the choices");
	is_int(pol, LJ_POLICY_OTHER, "lj_opt_policy leaves *out alone on failure");
	capture_start();
	is_int(lj_opt_policy("--policy", "fast", &pol), LJ_EXIT_USAGE, "lj_opt_policy rejects an unknown name");
	capture_end();

	pol = LJ_POLICY_OTHER;
	ok(lj_opt_policy_priority(false, &pol, 80) == 0 && pol == LJ_POLICY_FIFO, "a priority alone means fifo");
	pol = LJ_POLICY_OTHER;
	ok(lj_opt_policy_priority(false, &pol, 0) == 0 && pol == LJ_POLICY_OTHER, "no priority keeps other");
	pol = LJ_POLICY_RR;
	capture_start();
	is_int(lj_opt_policy_priority(true, &pol, 0), LJ_EXIT_USAGE, "rr without a priority is a usage error");
	is_str(capture_end(), "test_opt: --policy rr needs --priority 1..99\n", "...naming the policy");
	pol = LJ_POLICY_BATCH;
	capture_start();
	is_int(lj_opt_policy_priority(true, &pol, 5), LJ_EXIT_USAGE, "batch with a priority is a usage error");
	is_str(capture_end(), "test_opt: --priority 5 needs --policy fifo or rr\n", "...naming the priority");

	capture_start();
	is_int(lj_opt_invalid("--catch-up", "later", NULL), LJ_EXIT_USAGE, "lj_opt_invalid returns LJ_EXIT_USAGE");
	is_str(capture_end(), "test_opt: invalid --catch-up 'later': invalid value\n",
	       "lj_opt_invalid without a reason says invalid value");
}

static void test_verbosity(void)
{
	int before = lj_err_verbosity();

	lj_opt_verbosity('v');
	lj_opt_verbosity('v');
	is_int(lj_err_verbosity(), before + 2, "lj_opt_verbosity: each -v says more");
	is_int(lj_opt_verbosity('q'), 0, "lj_opt_verbosity returns 0");
	is_int(lj_err_verbosity(), -1, "lj_opt_verbosity: -q leaves errors only");
	lj_err_set_verbosity(before);
}

/* Tables with a mistake are refused, before any argument is read. */
static void test_check(void)
{
	static const struct lj_opt a[] = {
		{ "priority", 'p', LJ_OPT_ARG, "PRIO", "priority" },
		{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write JSON" },
		{ 0 }
	};
	static const struct lj_opt same_key[] = { { "prio", 'p', LJ_OPT_ARG, "PRIO", NULL }, { 0 } };
	static const struct lj_opt same_long[] = { { "json", K_JSON + 1, LJ_OPT_ARG, "FILE", "again" }, { 0 } };
	static const struct lj_opt same_in_one[] = {
		{ "one", K_JSON + 2, LJ_OPT_NOARG, NULL, "one" }, { "two", K_JSON + 2, LJ_OPT_NOARG, NULL, "two" }, { 0 }
	};
	static const struct lj_opt builtin[] = { { "help", K_JSON + 3, LJ_OPT_NOARG, NULL, "mine" }, { 0 } };
	static const struct lj_opt bad_key[] = { { "odd", '\n', LJ_OPT_NOARG, NULL, "odd" }, { 0 } };
	static const struct lj_opt fine[] = { { "prio", K_JSON + 4, LJ_OPT_ARG, "PRIO", NULL }, { 0 } };
	struct lj_opt_table tabs[2] = { { "a", a, handle, NULL }, { "b", NULL, handle, NULL } };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", tabs, 2, NULL };
	char why[256];
	char *argv[] = { "t", "--json", "x", NULL };

	const struct {
		const struct lj_opt *opts;
		const char *why, *name;
	} bad[] = {
		{ same_key, "--priority and --prio both have key 'p'", "a key in two tables is refused, hidden entries too" },
		{ same_long, "--json is in the tables twice", "a long name in two tables is refused" },
		{ same_in_one, "--one and --two both have key 258", "two entries of one table with one key are refused" },
		{ builtin, "--help is built in", "--help cannot be taken" },
		{ bad_key, "--odd has key 10: neither a letter nor >= 256", "a key that is no letter is refused" },
	};

	tabs[1].opts = fine;
	is_int(lj_opt_check(&spec, why, sizeof(why)), 0, "lj_opt_check: distinct keys and names pass");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tabs[1].opts = bad[i].opts;
		why[0] = '\0';
		ok(lj_opt_check(&spec, why, sizeof(why)) == -EINVAL && !strcmp(why, bad[i].why), bad[i].name);
		if (strcmp(why, bad[i].why))
			diag("why: %s", why);
	}
	tabs[1].opts = same_key;
	capture_start();
	is_int(lj_opt_parse(&spec, 3, argv, NULL), LJ_EXIT_RUNTIME, "lj_opt_parse refuses such tables at startup (exit 1)");
	is_str(capture_end(), "test_opt: option tables: --priority and --prio both have key 'p' (internal error)\n",
	       "...with one line naming the mistake");
}

/* Groups: a section of --help and of the dump each, opened by the entry that starts it. */
static void test_groups(void)
{
	static const struct lj_opt grouped[] = {
		{ "hidden", 'h', LJ_OPT_NOARG, NULL, NULL, .group = "not shown" },
		{ "loops", 'l', LJ_OPT_ARG, "N", "number of loops", .group = "first group" },
		{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write JSON" },
		{ "verbose", 'v', LJ_OPT_NOARG, NULL, "more output", .group = "second group" },
		{ 0 }
	};
	static const struct lj_opt plain[] = { { "quiet", 'q', LJ_OPT_NOARG, NULL, "less output" }, { 0 } };
	struct lj_opt_table tabs[2] = { { "tool options", grouped, handle, NULL }, { "more options", plain, handle, NULL } };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", tabs, 2, NULL };
	char *text = NULL, *p;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	lj_opt_print_help(&spec, f);
	fclose(f);
	p = strstr(text, "\nfirst group:\n  -l, --loops N");
	ok(p && !strstr(text, "tool options") && !strstr(text, "not shown"),
	   "--help: a table whose first shown entry starts a group is titled by the group");
	p = strstr(text, "write JSON\n\nsecond group:\n  -v, --verbose");
	ok(p != NULL, "...a later group opens a section of its own after a blank line");
	ok(strstr(text, "\nmore options:\n  -q, --quiet") != NULL, "...a table without groups keeps its title");
	free(text);
	f = open_memstream(&text, &len);
	lj_opt_dump(&spec, f);
	fclose(f);
	ok(strstr(text, "table\tfirst group\nopt\tl\tloops") && strstr(text, "json\trequired") &&
	   strstr(text, "table\tsecond group\nopt\tv\tverbose") && strstr(text, "table\tmore options\nopt\tq") &&
	   !strstr(text, "tool options") && !strstr(text, "not shown"),
	   "--dump-options: each group a table, so man pages and completion follow");
	free(text);
}

int main(void)
{
	struct cfg c;
	int first = -1;
	char *a1[] = { "t", "-l", "5", "--json", "out.json", "-vv", "rest", NULL };
	char *a2[] = { "t", "-q", NULL };
	char *a3[] = { "t", "--loops", NULL };
	char *a4[] = { "t", "--loops=x1", NULL };
	char *a5[] = { "t", "--", "cmd", "-l", NULL };
	char *a6[] = { "t", "--nope", NULL };

	lj_err_init("test_opt");
	plan(81);
	is_int(run(&c, 7, a1, &first), 0, "valid options parse");
	is_int(c.loops, 5, "-l value reaches the handler");
	is_str(c.json, "out.json", "long-only option value");
	is_int(c.verbose, 2, "bundled short flags counted");
	is_int(first, 6, "first non-option argument index");
	is_int(run(&c, 2, a2, &first), LJ_EXIT_USAGE, "unknown short option is a usage error");
	is_int(run(&c, 2, a3, &first), LJ_EXIT_USAGE, "missing argument is a usage error");
	is_int(run(&c, 2, a4, &first), LJ_EXIT_USAGE, "handler rejection propagates");
	ok(run(&c, 5, a5, &first) == 0 && first == 2 && c.loops == 0, "-- stops option parsing");
	is_int(run(&c, 2, a6, &first), LJ_EXIT_USAGE, "unknown long option is a usage error");
	test_no_operands();
	test_operand_order();
	test_values();
	test_verbosity();
	test_check();
	test_groups();
	return done();
}
