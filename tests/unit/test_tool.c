// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_tool - the lifecycle driver: phase order, hooks around the run, fallbacks, exit codes;
 * and what a tool gets by describing itself: the validity verdict (fed its threads, its counts
 * and the run's fallbacks) and the --explain recorder, registered by the driver.
 */
#include "lj_err.h"
#include "lj_stop.h"
#include "lj_tool.h"
#include "lj_validity_hook.h"
#include "tap.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
	struct lj_explain_opts explain;	/* described, when .explain or .tracemark */
	bool withdraw_explain;		/* prepare clears it (lj-cyclic with -c 1) */
	struct lj_tool_counts counts;	/* what the counts op says */
	struct lj_tool *t;
	/* seen */
	int seen_nthreads, seen_tid1, seen_policy1;
	char hooks_at_start[96];	/* the hook list's names when start ran */
	char reasons[160];		/* the verdict's reasons ("what" words) when the run was freed */
};

#define NO_TID 0x7ffffff0

static struct fake want;	/* what the next run is set up to do */
static struct fake seen;	/* what the last run saw */

static int h_start(void *p, const struct lj_run_desc *run)
{
	struct fake *f = p;

	step("hook-start");
	f->seen_nthreads = run->nthreads;
	f->seen_tid1 = run->nthreads > 1 ? run->threads[1].tid : 0;
	f->seen_policy1 = run->nthreads > 1 ? run->threads[1].policy : -2;
	return f->hook_start_ret;
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
	f->setup.perfetto = want.setup.perfetto;
	return 0;
}

static void describe(void *p, struct lj_tool_desc *d)
{
	struct fake *f = p;

	step("describe");
	d->setup = f->use_setup ? &f->setup : NULL;
	d->explain = f->explain.explain || f->explain.tracemark ? &f->explain : NULL;
}

/* A probe hook ahead of the driver's: it records the phases. */
static int prepare(void *p, struct lj_tool *t)
{
	struct fake *f = p;

	step("prepare");
	f->t = t;
	if (f->withdraw_explain)
		f->explain.explain = false;
	lj_hooks_add(&t->hooks, &hook, p, UINT64_MAX);
	return f->fallback ? lj_tool_fallback(t, f->fallback, -EPERM, NULL) : 0;
}

static int start(void *p, struct lj_tool *t, struct lj_run_desc *run)
{
	struct fake *f = p;
	struct lj_run_thread *th = lj_tool_threads(t, 2);

	step("start");
	for (int i = 0; i < t->hooks.n; i++)
		snprintf(f->hooks_at_start + strlen(f->hooks_at_start),
			 sizeof(f->hooks_at_start) - strlen(f->hooks_at_start), "%s ", t->hooks.h[i].ops->name);
	if (!th)
		return -ENOMEM;
	/* ids above any pid_max: no thread of the machine is read back and judged */
	th[0] = (struct lj_run_thread){ NO_TID, 0, LJ_POLICY_FIFO, 80, true };
	th[1] = (struct lj_run_thread){ NO_TID + 1, 1, LJ_POLICY_OTHER, 0, true };
	return f->start_ret;
}

static int go(void *p, struct lj_tool *t) { step("go"); return 0; }
static int wait_run(void *p, struct lj_tool *t) { step("wait"); return ((struct fake *)p)->wait_ret; }
static void counts(void *p, struct lj_tool_counts *c)
{
	step("counts");
	*c = ((struct fake *)p)->counts;
}
static int report_text(void *p, struct lj_tool *t, int ret) { step("text"); return 0; }
static int report_json(void *p, struct lj_tool *t, struct lj_result *r, bool started, int ret)
{
	step("json");
	return 0;
}

/* Before the driver frees its hooks: what the verdict holds. */
static void free_tool(void *p)
{
	struct fake *f = p;
	const struct lj_validity *v = f->t && f->t->validity ? lj_vhook_verdict(f->t->validity) : NULL;

	step("free");
	for (int i = 0; v && i < v->n; i++)
		snprintf(f->reasons + strlen(f->reasons), sizeof(f->reasons) - strlen(f->reasons), "%s ",
			 v->r[i].what);
	seen = *f;
}

/* --perfetto: the tool's own track, after the driver's. */
static int trace_op(void *p, struct lj_tef *w, uint32_t pid)
{
	step("trace");
	lj_tef_slice(w, pid, lj_tef_track(w, pid, "the tool's own", 0), "mine", NULL, 1000, 10, NULL);
	return 0;
}

static const struct lj_tool_ops ops = {
	.name = "lj-test", .size = sizeof(struct fake), .parse = parse, .describe = describe,
	.prepare = prepare, .start = start, .go = go, .wait = wait_run, .counts = counts,
	.report_text = report_text, .report_json = report_json, .free = free_tool,
};

static const struct lj_tool_ops traced_ops = {
	.name = "lj-test", .size = sizeof(struct fake), .parse = parse, .describe = describe,
	.prepare = prepare, .start = start, .go = go, .wait = wait_run, .counts = counts,
	.report_text = report_text, .report_json = report_json, .trace = trace_op, .free = free_tool,
};

static int run_ops(const struct lj_tool_ops *o)
{
	char *argv[] = { "lj-test", NULL };

	trace[0] = 0;
	memset(&seen, 0, sizeof(seen));
	lj_stop_reset();
	return lj_tool_main(o, 1, argv);
}

static int run(void)
{
	return run_ops(&ops);
}

/* Whether the verdict's reasons (space-separated "what" words) include @what. */
static bool has_reason(const char *what)
{
	char word[48];

	snprintf(word, sizeof(word), "%s ", what);
	return strstr(seen.reasons, word) != NULL;
}

static void test_phases(void)
{
	want = (struct fake){ 0 };
	is_int(run(), 0, "a run that goes well exits 0");
	is_str(trace, "parse describe prepare start hook-start go wait counts hook-stop text hook-text "
		      "free hook-free ", "phases in order; hooks start after start, counts before they stop");

	want = (struct fake){ .wait_ret = LJ_EXIT_THRESHOLD };
	is_int(run(), LJ_EXIT_THRESHOLD, "a phase's own exit code is the run's");
	ok(strstr(trace, "text") != NULL, "...and the run is still reported");

	want = (struct fake){ .start_ret = -ENOMEM };
	is_int(run(), LJ_EXIT_RUNTIME, "-ENOMEM from start: exit 1");
	is_str(trace, "parse describe prepare start free hook-free ",
	       "a failed start: no wait, no counts, no report, everything freed");

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
}

/* What a tool gets by describing itself, with no hook code of its own. */
static void test_described(void)
{
	want = (struct fake){ 0 };
	run();
	is_str(seen.hooks_at_start, "probe validity ", "every run gets the validity verdict, after the tool's hooks");
	ok(seen.seen_nthreads == 2 && seen.seen_tid1 == NO_TID + 1 && seen.seen_policy1 == LJ_POLICY_OTHER,
	   "the hooks start with the threads start described (lj_tool_threads): ids and policies");

	/* the recorder is only registered: a failed start keeps it from opening a trace */
	want = (struct fake){ .explain.explain = true, .start_ret = -ENOMEM };
	run();
	is_str(seen.hooks_at_start, "probe validity explain ", "described --explain: the driver adds the recorder");
	want = (struct fake){ .explain.tracemark = true, .start_ret = -ENOMEM };
	run();
	is_str(seen.hooks_at_start, "probe validity explain ", "...and for -b's trace marker alone");
	want = (struct fake){ .explain.explain = true, .withdraw_explain = true, .start_ret = -ENOMEM };
	run();
	is_str(seen.hooks_at_start, "probe validity ", "...not when prepare withdrew it");

	want = (struct fake){ .counts = { .missed = 3, .samples = 10, .expected = 20 } };
	run();
	ok(has_reason("missed") && has_reason("cut-short"),
	   "the counts op reaches the verdict: missed periods, a run cut short");
	want = (struct fake){ .fallback = "capability" };
	run();
	ok(has_reason("fallback"), "the run's fallbacks reach the verdict");
	want = (struct fake){ 0 };
	run();
	ok(!has_reason("missed") && !has_reason("fallback") && !has_reason("cut-short"),
	   "...and none of those when nothing happened");
}

/* --perfetto, described by the shared setup options alone: the driver's hook, its trace, the tool's op. */
static void test_perfetto(void)
{
	char path[128], buf[4096] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/test_tool.%d.trace", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	want = (struct fake){ .use_setup = true, .setup.perfetto = path };
	is_int(run_ops(&traced_ops), 0, "a run with --perfetto exits 0");
	is_str(seen.hooks_at_start, "probe validity perfetto ", "the driver adds the perfetto hook");
	ok(strstr(trace, "text hook-text trace free ") != NULL, "the trace is written after the text report, the tool's op last");
	f = fopen(path, "r");
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
		fclose(f);
	}
	ok(!strncmp(buf, "{\"traceEvents\":[", 16) && strstr(buf, "\"name\":\"thread_name\",\"args\":{\"name\":\"lj-test thread 1\"}") &&
	   strstr(buf, "\"name\":\"mine\"") && strstr(buf, "\"clock\":\"CLOCK_MONOTONIC\""),
	   "the file: the threads start described, named; the tool's own slice; the clock");
	unlink(path);
	want = (struct fake){ .use_setup = true, .setup.perfetto = "/dev/full" };
	if (access("/dev/full", W_OK))
		skip(1, "no writable /dev/full");
	else
		is_int(run_ops(&traced_ops), LJ_EXIT_RUNTIME, "a trace that cannot be written: exit 1");
}

int main(void)
{
	plan(25);
	test_phases();
	test_described();
	test_perfetto();
	return done();
}
