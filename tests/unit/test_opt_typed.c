// SPDX-License-Identifier: GPL-2.0-or-later
/* test_opt_typed - typed option entries (fields set through offsetof) and argv as rt-tests reads it. */
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_time.h"
#include "tap.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum mode { MODE_A, MODE_B };

struct conf {
	bool quiet;
	int mode;
	int prio;
	bool prio_given;
	int64_t hist;
	uint64_t loops;
	int64_t interval_ns;
	const char *json;
	cpu_set_t cpus;
	enum lj_policy policy;
	int threads;
	int calls;		/* the handler's count */
	const char *last_arg;
	int64_t strict_ns;
	double ratio;
	int shape;
};

enum { K_JSON = LJ_OPT_LONG_BASE, K_POLICY, K_STRICT, K_OUT, K_RATIO, K_SHAPE };

/* A rule of the tool's own: the next word is --out's value when it ends in ".json". */
static bool out_next(int argc, char *const *argv, int next)
{
	size_t n = strlen(argv[next]);

	return next < argc && n > 5 && !strcmp(argv[next] + n - 5, ".json");
}

#define AT(f) .off = offsetof(struct conf, f)

static const struct lj_opt opts[] = {
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "quiet", LJ_OPT_FLAG, AT(quiet) },
	{ "bee", 'B', LJ_OPT_NOARG, NULL, "mode b", LJ_OPT_CONST, AT(mode), .min = MODE_B },
	{ "prio", 'p', LJ_OPT_ARG, "N", "priority", LJ_OPT_INT, AT(prio), .min = 0, .max = 99,
	  .given = LJ_OPT_GIVEN(struct conf, prio_given) },
	{ "hist", 'h', LJ_OPT_ARG, "N", "buckets", LJ_OPT_I64, AT(hist), .min = 1, .max = 1000,
	  .flags = LJ_OPT_THEN_CALL },
	{ "loops", 'l', LJ_OPT_ARG, "N", "loops", LJ_OPT_U64, AT(loops) },
	{ "interval", 'i', LJ_OPT_ARG, "US", "interval", LJ_OPT_DURATION, AT(interval_ns),
	  .unit = LJ_NSEC_PER_USEC, .min = LJ_NSEC_PER_USEC, .max = 3600 * LJ_NSEC_PER_SEC },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "json", LJ_OPT_STRING, AT(json) },
	{ "cpus", 'c', LJ_OPT_ARG, "LIST", "cpus", LJ_OPT_CPULIST, AT(cpus) },
	{ "policy", K_POLICY, LJ_OPT_ARG, "NAME", "policy", LJ_OPT_POLICY, AT(policy) },
	{ "threads", 't', LJ_OPT_OPTARG, "N", "threads", .flags = LJ_OPT_NEXT_NUMBER },
	{ "strict", K_STRICT, LJ_OPT_ARG, "T", "ljkit's own", LJ_OPT_DURATION, AT(strict_ns),
	  .unit = 1, .flags = LJ_OPT_STRICT },
	{ NULL, 'H', LJ_OPT_NOARG, NULL, NULL, LJ_OPT_HELP },
	{ "out", K_OUT, LJ_OPT_OPTARG, "FILE", "out", LJ_OPT_STRING, AT(json), .next_value = out_next },
	{ "ratio", K_RATIO, LJ_OPT_ARG, "R", "ratio", LJ_OPT_DOUBLE, AT(ratio), .dmin = 1e-9, .dmax = 0.5,
	  .hint = "0 < ratio <= 0.5" },
	{ "shape", K_SHAPE, LJ_OPT_ARG, "S", "shape", LJ_OPT_CHOICE, AT(shape), .values = "round square oval" },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "more", LJ_OPT_VERBOSITY },
	{ 0 }
};

static int handle(void *ctx, int key, const char *arg)
{
	struct conf *c = ctx;

	c->calls++;
	c->last_arg = arg;
	if (key == 't')
		c->threads = arg ? atoi(arg) : -1;
	return 0;
}

static char captured[1024];

/* Parse @argv (NULL-terminated) with stderr captured into `captured`. */
static int parse(struct conf *c, bool rt, char **argv)
{
	struct lj_opt_table tab = { "options", opts, handle, c };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &tab, 1, NULL, .rt_argv = rt };
	FILE *cap = tmpfile();
	int argc = 0, saved = dup(2), ret;
	size_t n = 0;

	while (argv[argc])
		argc++;
	memset(c, 0, sizeof(*c));
	fflush(stderr);
	dup2(fileno(cap), 2);
	ret = lj_opt_parse_no_operands(&spec, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(cap);
	n = fread(captured, 1, sizeof(captured) - 1, cap);
	captured[n] = 0;
	fclose(cap);
	return ret;
}

static void test_typed(void)
{
	char *a[] = { "t", "-q", "-B", "-p", "90", "-h", "20", "-l", "7", "-i", "2ms", "--json", "x.json",
		      "-c", "0-1", "--policy", "rr", NULL };
	char *bad_int[] = { "t", "-p", "100", NULL };
	char *bad_dur[] = { "t", "-i", "0", NULL };
	struct conf c;

	is_int(parse(&c, false, a), 0, "typed entries parse");
	ok(c.quiet && c.mode == MODE_B, "flag and constant set their fields");
	ok(c.prio == 90 && c.prio_given, "int in range, and its 'given' flag");
	ok(c.hist == 20 && c.calls == 1 && !strcmp(c.last_arg, "20"),
	   "THEN_CALL: the field is set and the handler still called");
	ok(c.loops == 7 && c.interval_ns == 2 * LJ_NSEC_PER_MSEC, "u64, duration with a unit");
	ok(!strcmp(c.json, "x.json") && CPU_ISSET(1, &c.cpus) && !CPU_ISSET(2, &c.cpus) &&
	   c.policy == LJ_POLICY_RR, "string, CPU list, policy");
	is_int(parse(&c, false, bad_int), LJ_EXIT_USAGE, "out of range is refused");
	is_str(captured, "test_opt_typed: invalid --prio '100': out of range 0..99\n", "...with the range");
	is_int(parse(&c, false, bad_dur), LJ_EXIT_USAGE, "a duration below its minimum is refused");
	is_str(captured, "test_opt_typed: invalid --interval '0': must be 1 us to 1 h\n",
	       "...naming the range in units");
}

static void test_rt_argv(void)
{
	char *blank[] = { "t", "-h 35", NULL };
	char *junk[] = { "t", "-l", "100x", "-i", "10q", NULL };
	char *junk_strict[] = { "t", "-l", "100x", NULL };
	char *bad[] = { "t", "-l", "abc", NULL };
	char *neg[] = { "t", "-i", "-5", NULL };
	char *own[] = { "t", "--strict", "5q", NULL };
	char *word[] = { "t", "-q -l 100 -p 3", NULL };
	char *value[] = { "t", "--json", "-q -l 5", NULL };
	char *notopt[] = { "t", "-l", "3", "-q -x 5", NULL };
	struct conf c;

	ok(!parse(&c, true, blank) && c.hist == 35 && !*captured, "rt: a blank before the value is accepted silently");
	ok(parse(&c, false, blank) == LJ_EXIT_USAGE, "strict: the same word is refused");
	ok(!parse(&c, true, junk) && c.loops == 100 && c.interval_ns == 10 * LJ_NSEC_PER_USEC,
	   "rt: junk after a number is dropped, as atoi() does");
	ok(strstr(captured, "--loops '100x': ignoring 'x' after 100") &&
	   strstr(captured, "--interval '10q': ignoring 'q' after 10"), "...with a warning naming each");
	is_int(parse(&c, false, junk_strict), LJ_EXIT_USAGE, "strict: junk is refused");
	is_int(parse(&c, true, bad), LJ_EXIT_USAGE, "rt: no number at all is still refused");
	is_str(captured, "test_opt_typed: invalid --loops 'abc': not a number\n", "...with the strict message");
	is_int(parse(&c, true, neg), LJ_EXIT_USAGE, "rt: a negative duration is still refused");
	is_int(parse(&c, true, own), LJ_EXIT_USAGE, "rt: LJ_OPT_STRICT entries keep the strict reading");
	ok(!parse(&c, true, word) && c.quiet && c.loops == 100 && c.prio == 3,
	   "rt: one word holding several options is split");
	ok(strstr(captured, "'-q -l 100 -p 3' is one argument holding several options") != NULL,
	   "...with a warning naming the word");
	ok(!parse(&c, true, value) && !strcmp(c.json, "-q -l 5") && !c.quiet,
	   "rt: the value of an option that takes one is never split");
	is_int(parse(&c, true, notopt), LJ_EXIT_USAGE, "rt: a word with an unknown option is not split");
}

static void test_next_word(void)
{
	char *num[] = { "t", "-t", "4", "-q", NULL };
	char *flag[] = { "t", "-t", "-q", NULL };
	char *text[] = { "t", "-t", "x", NULL };
	char *help[] = { "t", "-H", NULL };
	char *rule[] = { "t", "--out", "r.json", "-q", NULL };
	char *norule[] = { "t", "--out", "-q", NULL };
	struct conf c;

	ok(!parse(&c, false, num) && c.threads == 4 && c.quiet, "optional argument as the next word");
	ok(!parse(&c, false, flag) && c.threads == -1 && c.quiet, "an option as the next word is not taken");
	is_int(parse(&c, false, text), LJ_EXIT_USAGE, "a non-number next word stays an operand");
	ok(!parse(&c, false, rule) && !strcmp(c.json, "r.json") && c.quiet,
	   "next_value: the entry's own rule takes the next word");
	ok(!parse(&c, false, norule) && !c.json && c.quiet, "next_value: and leaves a word it does not want");
	int out = dup(1), null = open("/dev/null", O_WRONLY), ret;

	fflush(stdout);
	dup2(null, 1);		/* the help text is not TAP */
	ret = parse(&c, false, help);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
	is_int(ret, LJ_OPT_EXIT_HELP, "LJ_OPT_HELP: help, no handler, no static");
}

/* Doubles with their range, one word of a fixed set (the enum in its order), verbosity. */
static void test_double_choice_verbosity(void)
{
	char *good[] = { "t", "--ratio", "0.25", "--shape", "oval", "-v", "-v", NULL };
	char *bad_ratio[] = { "t", "--ratio", "0.7", NULL };
	char *bad_shape[] = { "t", "--shape", "cube", NULL };
	char *quiet[] = { "t", "-q", NULL };
	const struct lj_opt no_values[] = { { "kind", K_SHAPE, LJ_OPT_ARG, "K", "kind", LJ_OPT_CHOICE }, { 0 } };
	const struct lj_opt quiet_opts[] = { { "quiet", 'q', LJ_OPT_NOARG, NULL, "errors only", LJ_OPT_VERBOSITY }, { 0 } };
	struct lj_opt_table tab = { "options", no_values, handle, NULL };
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &tab, 1, NULL };
	struct lj_opt_table qtab = { "options", quiet_opts, handle, NULL };
	struct lj_opt_spec qspec = { "[OPTIONS]", "test", &qtab, 1, NULL };
	int level = lj_err_verbosity();
	char why[128];
	struct conf c;

	is_int(parse(&c, false, good), 0, "a double and a choice parse");
	ok(c.ratio == 0.25 && c.shape == 2, "the double stored, the choice as its index");
	is_int(lj_err_verbosity(), level + 2, "each -v one step more verbose");
	is_int(parse(&c, false, bad_ratio), LJ_EXIT_USAGE, "a double out of range is refused");
	is_str(captured, "test_opt_typed: invalid --ratio '0.7': out of range 1e-09..0.5 (0 < ratio <= 0.5)\n",
	       "...with the range and the hint");
	is_int(parse(&c, false, bad_shape), LJ_EXIT_USAGE, "a word not in the set is refused");
	is_str(captured, "test_opt_typed: invalid --shape 'cube': round, square or oval\n", "...naming the set");
	is_int(lj_opt_parse_no_operands(&qspec, 2, quiet), 0, "-q as a verbosity entry");
	is_int(lj_err_verbosity(), -1, "...leaves errors only");
	lj_err_set_verbosity(level);
	ok(lj_opt_check(&spec, why, sizeof(why)) < 0 && strstr(why, "choice without values"),
	   "a choice without values is refused at startup");
}

int main(void)
{
	lj_err_init("test_opt_typed");
	plan(39);
	test_typed();
	test_rt_argv();
	test_next_word();
	test_double_choice_verbosity();
	return done();
}
