// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_validity_hook - the validity hook's policy read-back on real threads
 * of this process: threads told mid-run (lj_hooks_threads) are read back at
 * once and by the polls, a policy changed behind the run's back is named,
 * a load thread's difference is suspect, threads no longer running are not
 * read. SCHED_BATCH needs no privilege, so this runs as any user.
 */
#include "lj_result.h"
#include "lj_sched.h"
#include "lj_validity_hook.h"
#include "tap.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct helper {
	pthread_t th;
	pid_t tid;
	int pipe[2];		/* the thread waits for a byte (or EOF) on pipe[0] */
	_Atomic int up;
};

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	char c;

	h->tid = gettid();
	atomic_store(&h->up, 1);
	while (read(h->pipe[0], &c, 1) < 0)
		;
	return NULL;
}

static int helper_start(struct helper *h)
{
	if (pipe(h->pipe) || pthread_create(&h->th, NULL, helper_main, h))
		return -1;
	while (!atomic_load(&h->up))
		usleep(1000);
	return 0;
}

static void helper_stop(struct helper *h)
{
	close(h->pipe[1]);
	pthread_join(h->th, NULL);
	close(h->pipe[0]);
}

static int set_policy(pid_t tid, enum lj_policy p)
{
	struct lj_sched_param sp = { .policy = p };

	return lj_sched_apply(tid, &sp);
}

static const struct lj_validity *verdict_of(struct lj_hooks *hs)
{
	return lj_vhook_verdict(hs->h[0].priv);
}

static void test_told_mid_run(struct helper *a, struct helper *b)
{
	struct lj_hooks hs;
	struct lj_vhook *vh;
	struct lj_run_desc run = { .tool = "test" };
	struct lj_run_thread th[3] = {
		{ a->tid, 0, LJ_POLICY_OTHER, 0, true },
		{ b->tid, -1, LJ_POLICY_OTHER, 0, false },
		{ getpid(), 1, -1, 0, true },		/* nothing asked: not read */
	};
	char want[96];

	lj_hooks_init(&hs);
	ok(lj_vhook_add(&hs, &vh) == 0 && lj_hooks_start(&hs, &run) == 0, "the hook starts with no thread ids");
	lj_hooks_threads(&hs, th, 3);
	is_int(verdict_of(&hs)->n, 0, "threads told mid-run, running what was asked: no reason");
	ok(set_policy(a->tid, LJ_POLICY_BATCH) == 0, "a measuring thread set to batch behind the run's back");
	lj_hooks_poll(&hs);
	snprintf(want, sizeof(want), "thread %d ran batch 0, asked other 0", a->tid);
	ok(verdict_of(&hs)->verdict == LJ_INVALID && verdict_of(&hs)->n == 1 &&
	   !strcmp(verdict_of(&hs)->r[0].text, want), "the poll finds it: invalid, naming thread, batch 0, other 0");
	ok(set_policy(b->tid, LJ_POLICY_BATCH) == 0, "a load thread set to batch");
	lj_hooks_poll(&hs);
	snprintf(want, sizeof(want), "load thread %d ran batch 0, asked other 0", b->tid);
	ok(verdict_of(&hs)->n == 2 && verdict_of(&hs)->r[1].level == LJ_SUSPECT &&
	   !strcmp(verdict_of(&hs)->r[1].text, want), "a load thread's difference is suspect: 'load thread N ran batch 0, ...'");
	lj_hooks_poll(&hs);
	is_int(verdict_of(&hs)->n, 2, "each difference is reported once");
	lj_hooks_threads(&hs, th, 3);
	is_int(verdict_of(&hs)->n, 2, "...also when the same threads are told again (the next trial's background)");
	lj_hooks_stop(&hs);
	lj_hooks_free(&hs);
	set_policy(a->tid, LJ_POLICY_OTHER);
	set_policy(b->tid, LJ_POLICY_OTHER);
}

/* A thread asked SCHED_FIFO 10 that runs SCHED_OTHER (no privilege asked for: the answer is known). */
static void test_asked_more(struct helper *a)
{
	struct lj_hooks hs;
	struct lj_vhook *vh;
	struct lj_run_desc run = { .tool = "test" };
	struct lj_run_thread th = { a->tid, 0, LJ_POLICY_FIFO, 10, true };
	char want[96];

	lj_hooks_init(&hs);
	lj_vhook_add(&hs, &vh);
	lj_hooks_start(&hs, &run);
	lj_hooks_threads(&hs, &th, 1);
	snprintf(want, sizeof(want), "thread %d ran other 0, asked fifo 10", a->tid);
	ok(vh && verdict_of(&hs)->n == 1 && !strcmp(verdict_of(&hs)->r[0].text, want),
	   "read back when told, before any poll: 'thread N ran other 0, asked fifo 10'");
	lj_hooks_free(&hs);
}

/* Threads replaced by a later call (a trial ended) are not read again. */
static void test_replaced(struct helper *a, struct helper *b)
{
	struct lj_hooks hs;
	struct lj_vhook *vh;
	struct lj_run_desc run = { .tool = "test" };
	struct lj_run_thread ta = { a->tid, 0, LJ_POLICY_OTHER, 0, true };
	struct lj_run_thread tb = { b->tid, 0, LJ_POLICY_OTHER, 0, true };

	lj_hooks_init(&hs);
	lj_vhook_add(&hs, &vh);
	lj_hooks_start(&hs, &run);
	lj_hooks_threads(&hs, &ta, 1);
	lj_hooks_threads(&hs, &tb, 1);
	set_policy(a->tid, LJ_POLICY_BATCH);
	lj_hooks_poll(&hs);
	is_int(verdict_of(&hs)->n, 0, "a thread of an earlier call is not read again");
	lj_hooks_threads(&hs, NULL, 0);
	set_policy(b->tid, LJ_POLICY_BATCH);
	lj_hooks_stop(&hs);
	is_int(verdict_of(&hs)->n, 0, "none running (n 0): stop reads nobody");
	lj_hooks_free(&hs);
	set_policy(a->tid, LJ_POLICY_OTHER);
	set_policy(b->tid, LJ_POLICY_OTHER);
}

/* Threads given at start, each with its own policy, read from the first poll on; the result's list. */
static void test_desc_and_json(struct helper *a, struct helper *b)
{
	struct lj_hooks hs;
	struct lj_vhook *vh;
	struct lj_run_thread th[2] = {
		{ a->tid, 0, LJ_POLICY_OTHER, 0, true },
		{ b->tid, 1, LJ_POLICY_BATCH, 0, true },	/* b runs other 0 */
	};
	struct lj_run_desc run = { .tool = "test", .threads = th, .nthreads = 2 };
	char *argv[] = { "test", NULL };
	struct lj_result *res = lj_result_new("lj-test", 1, argv);
	json_object *thr, *list, *e0, *e1;
	char want[160];

	lj_hooks_init(&hs);
	lj_vhook_add(&hs, &vh);
	lj_hooks_start(&hs, &run);
	is_int(lj_vhook_verdict(vh)->n, 0, "nothing read back at start");
	lj_hooks_poll(&hs);
	snprintf(want, sizeof(want), "thread %d ran other 0, asked batch 0", b->tid);
	ok(lj_vhook_verdict(vh)->n == 1 && !strcmp(lj_vhook_verdict(vh)->r[0].text, want),
	   "the poll judges each thread by its own policy: only b differs");
	lj_hooks_stop(&hs);
	ok(res && lj_hooks_contribute(&hs, res) == 0 &&
	   json_object_object_get_ex(lj_result_root(res), "validity", &thr) &&
	   json_object_object_get_ex(thr, "threads", &thr), "the validity block has a threads object");
	ok(json_object_get_int(json_object_object_get(thr, "checked")) == 2 &&
	   json_object_get_int(json_object_object_get(thr, "differed")) == 1, "...2 checked, 1 differed");
	list = json_object_object_get(thr, "list");
	e0 = json_object_array_get_idx(list, 0);
	e1 = json_object_array_get_idx(list, 1);
	snprintf(want, sizeof(want), "{ \"tid\": %d, \"measured\": true, \"asked\": \"other 0\", \"ran\": \"other 0\" }",
		 a->tid);
	is_str(json_object_to_json_string(e0), want, "...each thread listed with what was asked and what it ran");
	ok(e1 && json_object_get_int(json_object_object_get(e1, "tid")) == b->tid, "...in the run's order");
	lj_hooks_free(&hs);
	lj_result_free(res);
}

int main(void)
{
	struct helper a = { 0 }, b = { 0 };

	setenv("LJ_RESULT_NO_SYSINFO", "1", 1);
	if (helper_start(&a) || helper_start(&b))
		skip_all("cannot start the helper threads");
	plan(17);
	test_told_mid_run(&a, &b);
	test_asked_more(&a);
	test_replaced(&a, &b);
	test_desc_and_json(&a, &b);
	helper_stop(&a);
	helper_stop(&b);
	return done();
}
