// SPDX-License-Identifier: GPL-2.0-or-later
/* test_opt - option tables: parsing, errors, help generation. */
#include "lj_err.h"
#include "lj_opt.h"
#include "tap.h"

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
	plan(10);
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
	return done();
}
