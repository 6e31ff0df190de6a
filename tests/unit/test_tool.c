// SPDX-License-Identifier: GPL-2.0-or-later
/* test_tool - the lifecycle driver: phase order, hooks around the run, fallbacks, exit codes. */
#include "lj_err.h"
#include "lj_stop.h"
#include "lj_tool.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

/* The phases and hook calls, in the order they happened. */
static char trace[512];

static void step(const char *s)
{
	strncat(trace, s, sizeof(trace) - strlen(trace) - 1);
	strncat(trace, " ", sizeof(trace) - strlen(trace) - 1);
}

struct fake {
	struct lj_setupopt setup;
	bool use_setup;
	int start_ret, wait_ret, hook_start_ret;
	const char *fallback;		/* recorded in prepare */
	pid_t tids[2];
	int seen_ntids;
	bool json_started;
};

static struct fake want;	/* what the next run is set up to do */

static int h_start(void *p, const struct lj_run_desc *run)
{
	step("hook-start");
	((struct fake *)p)->seen_ntids = run->ntids;
	return ((struct fake *)p)->hook_start_ret;
}
static void h_stop(void *p) { step("hook-stop"); }
static int h_contribute(void *p, struct lj_result *r) { step("hook-json"); return 0; }
static void h_report(void *p, FILE *out) { step("hook-text"); }
static void h_free(void *p) { step("hook-free"); }

static const struct lj_hook_ops hook = {
	.name = "probe", .start = h_start, .stop = h_stop, .contribute = h_contribute,
	.report = h_report, .free = h_free,
};

static int parse(void *p, int argc, char **argv)
{
	struct fake *f = p;

	step("parse");
	*f = want;
	lj_setupopt_init(&f->setup);
	f->setup.strict = want.setup.strict;
	return 0;
}

static void describe(void *p, struct lj_tool_desc *d)
{
	struct fake *f = p;

	step("describe");
	d->setup = f->use_setup ? &f->setup : NULL;
}

static int prepare(void *p, struct lj_tool *t)
{
	struct fake *f = p;

	step("prepare");
	return f->fallback ? lj_tool_fallback(t, f->fallback, -EPERM, NULL) : 0;
}

static int hooks(void *p, struct lj_tool *t)
{
	step("hooks");
	return lj_hooks_add(&t->hooks, &hook, p, UINT64_MAX);
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *run)
{
	struct fake *f = p;

	step("start");
	f->tids[0] = 11;
	f->tids[1] = 12;
	run->tids = f->tids;
	run->ntids = 2;
	return f->start_ret;
}

static int go(void *p, struct lj_tool *t) { step("go"); return 0; }
static int wait_run(void *p, struct lj_tool *t) { step("wait"); return ((struct fake *)p)->wait_ret; }
static int report_text(void *p, struct lj_tool *t, int ret) { step("text"); return 0; }
static int report_json(void *p, struct lj_tool *t, struct lj_result *r, bool started, int ret)
{
	step("json");
	return 0;
}
static void free_tool(void *p) { step("free"); }

static const struct lj_tool_ops ops = {
	.name = "lj-test", .size = sizeof(struct fake), .parse = parse, .describe = describe,
	.prepare = prepare, .hooks = hooks, .start = start, .go = go, .wait = wait_run,
	.report_text = report_text, .report_json = report_json, .free = free_tool,
};

static int run(void)
{
	char *argv[] = { "lj-test", NULL };

	trace[0] = 0;
	lj_stop_reset();
	return lj_tool_main(&ops, 1, argv);
}

int main(void)
{
	plan(12);

	want = (struct fake){ 0 };
	is_int(run(), 0, "a run that goes well exits 0");
	is_str(trace, "parse describe prepare hooks start hook-start go wait hook-stop text hook-text "
		      "free hook-free ", "phases in order; hooks start after start, stop after wait");

	want = (struct fake){ .wait_ret = LJ_EXIT_THRESHOLD };
	is_int(run(), LJ_EXIT_THRESHOLD, "a phase's own exit code is the run's");
	ok(strstr(trace, "text") != NULL, "...and the run is still reported");

	want = (struct fake){ .start_ret = -ENOMEM };
	is_int(run(), LJ_EXIT_RUNTIME, "-ENOMEM from start: exit 1");
	is_str(trace, "parse describe prepare hooks start free hook-free ",
	       "a failed start: no wait, no report, everything freed");

	want = (struct fake){ .wait_ret = -EPERM };
	is_int(run(), LJ_EXIT_NOCAP, "-EPERM from a phase: exit 77");

	want = (struct fake){ .fallback = "capability" };
	is_int(run(), 0, "a fallback without --strict: the run goes on");

	want = (struct fake){ .hook_start_ret = -ENODEV };
	is_int(run(), 0, "a hook that cannot start is a fallback, not a failure");

	want = (struct fake){ .fallback = "capability", .use_setup = true, .setup.strict = true };
	is_int(run(), LJ_EXIT_NOCAP, "a fallback under --strict: exit 77");
	ok(!strstr(trace, "start"), "...before anything starts");

	want = (struct fake){ .hook_start_ret = -ENODEV, .use_setup = true, .setup.strict = true };
	is_int(run(), LJ_EXIT_NOCAP, "a hook that cannot start under --strict: exit 77, the run stopped");
	return done();
}
