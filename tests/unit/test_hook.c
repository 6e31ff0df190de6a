// SPDX-License-Identifier: GPL-2.0-or-later
#include "lj_hook.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

struct probe {
	int starts, lates, stops, contributes, frees, start_ret, threads_told, polls;
	pid_t last_tid;
	uint64_t last_lat;
};

static int p_start(void *p, const struct lj_run_desc *r)
{
	((struct probe *)p)->starts++;
	return ((struct probe *)p)->start_ret;
}

static void p_late(void *p, const struct lj_late *ev)
{
	((struct probe *)p)->lates++;
	((struct probe *)p)->last_lat = ev->ran_ns - ev->due_ns;
}

static void p_stop(void *p) { ((struct probe *)p)->stops++; }
static int p_contribute(void *p, struct lj_result *r) { ((struct probe *)p)->contributes++; return 0; }
static void p_free(void *p) { ((struct probe *)p)->frees++; }

static void p_poll(void *p) { ((struct probe *)p)->polls++; }

static void p_threads(void *p, const struct lj_run_thread *th, int n)
{
	((struct probe *)p)->threads_told += n;
	((struct probe *)p)->last_tid = n ? th[n - 1].tid : 0;
}

static const struct lj_hook_ops probe_ops = {
	.name = "probe", .start = p_start, .late = p_late, .stop = p_stop,
	.contribute = p_contribute, .free = p_free, .threads = p_threads, .poll = p_poll,
};

int main(void)
{
	struct lj_hooks hs;
	struct probe a = { 0 }, b = { .start_ret = -ENOTSUP };
	struct lj_run_desc run = { .tool = "test" };
	struct lj_late ev = { .kind = LJ_LATE_SAMPLE, .due_ns = 1000 };

	struct lj_run_thread th[2] = { { 101, 0, 3, 50, 1 }, { 102, -1, 0, 0, 0 } };

	plan(19);
	ok(!lj_hooks_wants(&lj_hooks_none, UINT64_MAX - 1) && !lj_hooks_wants_missed(&lj_hooks_none) &&
	   lj_hooks_threshold(&lj_hooks_none) == UINT64_MAX, "the empty list wants nothing");
	lj_hooks_poll(&lj_hooks_none);
	lj_hooks_late(&lj_hooks_none, &ev);
	ok(lj_hooks_none.n == 0, "...it holds no hook: polls and late samples on it reach nothing");
	lj_hooks_init(&hs);
	ok(!lj_hooks_wants(&hs, UINT64_MAX - 1), "no hook: no sample wanted");
	ok(lj_hooks_add(&hs, &probe_ops, &a, 500) == 0, "add a");
	ok(lj_hooks_add(&hs, &probe_ops, &b, 100) == 0, "add b");
	ok(!lj_hooks_wants(&hs, 600), "nothing wanted before start");
	ok(lj_hooks_start(&hs, &run) == 1, "one hook failed to start");
	ok(hs.h[1].start_err == -ENOTSUP && !hs.h[1].started, "its error is kept");
	ok(!lj_hooks_wants(&hs, 400) && lj_hooks_wants(&hs, 501),
	   "threshold is the lowest of the started hooks");
	ev.ran_ns = 1000 + 700;
	lj_hooks_late(&hs, &ev);
	ev.ran_ns = 1000 + 300;
	lj_hooks_late(&hs, &ev);
	ok(a.lates == 1 && a.last_lat == 700 && b.lates == 0, "late() only above the hook's threshold, only started hooks");
	ev.kind = LJ_LATE_MISSED;
	lj_hooks_late(&hs, &ev);
	ok(a.lates == 2, "a missed deadline always reaches late()");
	lj_hooks_set_threshold(&hs, 0, 50);
	ok(lj_hooks_wants(&hs, 60), "threshold can move during the run");
	lj_hooks_threads(&hs, th, 2);
	ok(a.threads_told == 2 && a.last_tid == 102 && b.threads_told == 0,
	   "threads told mid-run reach the started hooks only, all of them");
	lj_hooks_threads(&hs, NULL, 0);
	ok(a.threads_told == 2 && a.last_tid == 0, "none running now: told with n 0");
	lj_hooks_poll(&hs);
	ok(a.polls == 1 && b.polls == 0, "poll: started hooks only");
	lj_hooks_stop(&hs);
	ok(a.stops == 1 && b.stops == 0 && !lj_hooks_wants(&hs, UINT64_MAX - 1), "stop: started hooks only, nothing wanted after");
	ok(lj_hooks_contribute(&hs, (struct lj_result *)&run) == 0 && a.contributes == 1 && b.contributes == 0,
	   "contribute: started hooks only");
	lj_hooks_free(&hs);
	ok(a.frees == 1 && b.frees == 1 && hs.n == 0, "free: every hook, started or not");
	for (int i = 0; i < LJ_HOOKS_MAX; i++)
		lj_hooks_add(&hs, &probe_ops, &a, 0);
	ok(lj_hooks_add(&hs, &probe_ops, &a, 0) == -ENOSPC, "the list is bounded");
	return done();
}
