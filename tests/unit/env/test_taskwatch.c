// SPDX-License-Identifier: GPL-2.0-or-later
/* test_taskwatch - /proc parsers on strings, patterns, metric names, and snapshots of a fake /proc tree. */
#include "../../../tools/env/taskwatch.h"
#include "../tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static const char status_text[] =
	"Name:\tksoftirqd/0\nState:\tS (sleeping)\nTgid:\t15\nPid:\t15\n"
	"Cpus_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t1234\n"
	"nonvoluntary_ctxt_switches:\t56\n";

static void test_parse_status(void)
{
	uint64_t v = 0, n = 0;

	is_int(lj_taskwatch_parse_status(status_text, &v, &n), 0, "status parses");
	is_int(v, 1234, "voluntary_ctxt_switches");
	is_int(n, 56, "nonvoluntary_ctxt_switches, not confused with voluntary_");
	is_int(lj_taskwatch_parse_status("Name:\tx\nvoluntary_ctxt_switches:\t1\n", &v, &n), -ENOENT,
	       "a missing nonvoluntary line is -ENOENT");
	is_int(lj_taskwatch_parse_status("voluntary_ctxt_switches:\t1x\nnonvoluntary_ctxt_switches:\t2\n",
					 &v, &n), -EINVAL, "trailing junk is -EINVAL");
	is_int(lj_taskwatch_parse_status("voluntary_ctxt_switches:\t-1\nnonvoluntary_ctxt_switches:\t2\n",
					 &v, &n), -EINVAL, "a sign is -EINVAL");
	is_int(lj_taskwatch_parse_status("voluntary_ctxt_switches:\t99999999999999999999\n"
					 "nonvoluntary_ctxt_switches:\t2\n", &v, &n),
	       -EINVAL, "overflow is -EINVAL");
	is_int(lj_taskwatch_parse_status("", &v, &n), -ENOENT, "empty text is -ENOENT");
}

static void test_parse_sched(void)
{
	int64_t m = -1;

	is_int(lj_taskwatch_parse_sched("ksoftirqd/0 (15, #threads: 1)\n"
					"-------------------------------------------------------------------\n"
					"se.exec_start                                :        123.456\n"
					"se.nr_migrations                             :                    7\n",
					&m), 0, "sched parses");
	is_int(m, 7, "se.nr_migrations");
	is_int(lj_taskwatch_parse_sched("nr_migrations   :   3\n", &m), 0, "older spelling parses");
	is_int(m, 3, "nr_migrations");
	is_int(lj_taskwatch_parse_sched("se.exec_start : 1.0\n", &m), -ENOENT, "no migrations line is -ENOENT");
}

static void test_parse_stat(void)
{
	uint64_t c = 0;

	is_int(lj_taskwatch_parse_stat("cpu  1 2 3\nintr 5 6\nctxt 987654\nbtime 1\n", &c), 0,
	       "stat parses");
	is_int(c, 987654, "ctxt");
	is_int(lj_taskwatch_parse_stat("ctxtx 1\n", &c), -ENOENT, "another key is not ctxt");
	is_int(lj_taskwatch_parse_stat("ctxt\n", &c), -ENOENT, "a ctxt without a value is not the field");
	is_int(lj_taskwatch_parse_stat("ctxt 12a\n", &c), -EINVAL, "junk after ctxt is -EINVAL");
}

static void test_patterns(void)
{
	struct lj_taskwatch w;

	lj_taskwatch_init(&w);
	is_int(lj_taskwatch_add(&w, ""), -EINVAL, "an empty pattern is -EINVAL");
	is_int(lj_taskwatch_add(&w, "sugov:*"), 0, "sugov:* is added");
	is_int(lj_taskwatch_add(&w, "sugov:*"), -EEXIST, "the same pattern twice is -EEXIST");
	is_int(lj_taskwatch_add_list(&w, "ksoftirqd/*, rcu_*"), 0, "a comma list is added");
	is_int(w.npatterns, 3, "three patterns");
	is_str(w.patterns[2], "rcu_*", "list items are trimmed");
	is_int(lj_taskwatch_add_list(&w, "a,,b"), -EINVAL, "an empty list item is -EINVAL");
	is_int(lj_taskwatch_add_list(&w, "x,"), -EINVAL, "a trailing comma is -EINVAL");
	lj_taskwatch_free(&w);
	lj_taskwatch_init(&w);
	for (int i = 0; i < LJ_TASKWATCH_MAX_PATTERNS; i++) {
		char p[16];

		snprintf(p, sizeof(p), "p%d", i);
		lj_taskwatch_add(&w, p);
	}
	is_int(lj_taskwatch_add(&w, "one-more"), -E2BIG, "too many patterns is -E2BIG");
	lj_taskwatch_free(&w);
}

static void test_metric(void)
{
	char buf[64];

	lj_taskwatch_metric("sugov:*", buf, sizeof(buf));
	is_str(buf, "ctxsw_sugov", "sugov:* -> ctxsw_sugov");
	lj_taskwatch_metric("ksoftirqd/*", buf, sizeof(buf));
	is_str(buf, "ctxsw_ksoftirqd", "ksoftirqd/* -> ctxsw_ksoftirqd");
	lj_taskwatch_metric("kschedfreq:[0-3]", buf, sizeof(buf));
	is_str(buf, "ctxsw_kschedfreq_0_3", "runs of other characters become one _");
	lj_taskwatch_metric("rcu_preempt", buf, sizeof(buf));
	is_str(buf, "ctxsw_rcu_preempt", "rcu_preempt keeps its _");
	lj_taskwatch_metric("*", buf, sizeof(buf));
	is_str(buf, "ctxsw", "a pattern without letters -> ctxsw");
}

/* Write @text to root/@rel, creating directories. */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		diag("cannot create the directory of %s", path);
	f = fopen(path, "w");
	if (!f) {
		diag("cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void put_task(int pid, int tid, const char *comm, int vol, int invol, int mig)
{
	char rel[128], text[256];

	snprintf(rel, sizeof(rel), "%d/task/%d/comm", pid, tid);
	snprintf(text, sizeof(text), "%s\n", comm);
	put(rel, text);
	snprintf(rel, sizeof(rel), "%d/task/%d/status", pid, tid);
	snprintf(text, sizeof(text), "Name:\t%s\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t%d\n",
		 comm, vol, invol);
	put(rel, text);
	if (mig >= 0) {
		snprintf(rel, sizeof(rel), "%d/task/%d/sched", pid, tid);
		snprintf(text, sizeof(text), "%s (%d, #threads: 1)\nse.nr_migrations : %d\n", comm, tid, mig);
		put(rel, text);
	}
}

static void drop_task(int pid)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%d'", root, pid);
	if (system(cmd))
		diag("cannot remove task %d", pid);
}

static void test_snapshot(void)
{
	struct lj_taskwatch w;
	struct lj_taskwatch_delta d;
	struct lj_taskwatch_system sys;
	char path[300];

	snprintf(root, sizeof(root), "%s/ljtw.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root)) {
		skip(22, "cannot create a temporary directory");
		return;
	}
	put("stat", "cpu  1 2 3\nctxt 1000\n");
	put("self/stat", "not a pid directory\n");
	put_task(10, 10, "sugov:0", 100, 5, 2);
	put_task(11, 11, "sugov:1", 50, 0, -1);
	put_task(15, 15, "ksoftirqd/0", 7, 1, -1);
	put_task(20, 20, "bash", 1, 1, -1);
	put_task(20, 21, "worker", 3, 0, -1);	/* a thread of a process */
	put_task(30, 30, "sugov:2", 9, 9, -1);	/* will vanish */

	lj_taskwatch_init(&w);
	lj_taskwatch_add_list(&w, "sugov:*,ksoftirqd/*,worker,nothing*");
	is_int(lj_taskwatch_snapshot(&w, root, false), 0, "before snapshot");
	is_int(w.before.ntasks, 5, "only matching threads are kept (4 sugov/ksoftirqd + worker)");
	ok(w.before.have_ctxt && w.before.ctxt == 1000, "before: ctxt from stat");

	put("stat", "cpu  1 2 3\nctxt 4000\n");
	put_task(10, 10, "sugov:0", 130, 7, 5);
	put_task(11, 11, "sugov:1", 60, 1, -1);
	put_task(15, 15, "ksoftirqd/0", 7, 1, -1);
	put_task(20, 21, "worker", 13, 0, -1);
	put_task(40, 40, "sugov:3", 4, 0, -1);	/* appeared */
	drop_task(30);
	is_int(lj_taskwatch_snapshot(&w, root, true), 0, "after snapshot");
	/* a known window, so the rates are checkable */
	w.after.t_ns = w.before.t_ns + 2000000000LL;

	lj_taskwatch_delta(&w, 0, &d);
	is_str(d.pattern, "sugov:*", "delta names its pattern");
	is_int(d.tasks, 4, "sugov:*: 4 tasks seen (2 kept, 1 appeared, 1 vanished)");
	is_int(d.appeared, 1, "sugov:*: one appeared");
	is_int(d.vanished, 1, "sugov:*: one vanished");
	is_int(d.voluntary, 30 + 10 + 4, "sugov:*: voluntary deltas, the newcomer's whole count");
	is_int(d.involuntary, 2 + 1, "sugov:*: involuntary deltas");
	is_int(d.ctxsw, 47, "sugov:*: ctxsw is their sum");
	is_near(d.per_s, 23.5, 1e-9, "sugov:*: per second over 2 s");
	is_int(d.migrations, 3, "sugov:*: migrations only from threads with a sched file");

	lj_taskwatch_delta(&w, 1, &d);
	ok(d.tasks == 1 && d.ctxsw == 0 && d.migrations == -1, "ksoftirqd/*: one task, no switches, migrations unknown");
	lj_taskwatch_delta(&w, 2, &d);
	ok(d.tasks == 1 && d.voluntary == 10, "worker: a thread of another process matches by its own comm");
	lj_taskwatch_delta(&w, 3, &d);
	ok(d.tasks == 0 && d.ctxsw == 0 && d.per_s == 0, "a pattern matching nothing: 0 tasks, 0 switches");

	lj_taskwatch_system(&w, &sys);
	ok(sys.have_ctxt, "system: ctxt in both snapshots");
	is_int(sys.ctxsw, 3000, "system: ctxt delta");
	is_near(sys.per_s, 1500.0, 1e-9, "system: per second");
	is_int(sys.elapsed_ns, 2000000000LL, "system: elapsed");

	snprintf(path, sizeof(path), "%s/stat", root);
	unlink(path);
	lj_taskwatch_snapshot(&w, root, true);
	lj_taskwatch_system(&w, &sys);
	ok(!sys.have_ctxt && sys.ctxsw == 0, "no /proc/stat: system count unknown, not an error");
	lj_taskwatch_free(&w);

	lj_taskwatch_init(&w);
	lj_taskwatch_add(&w, "*");
	snprintf(path, sizeof(path), "%s/missing", root);
	is_int(lj_taskwatch_snapshot(&w, path, false), -ENOENT, "a missing root is -ENOENT");
	lj_taskwatch_free(&w);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			diag("cannot remove %s", root);
	}
}

/* This thread's voluntary_ctxt_switches (-1 when unreadable). */
static int own_voluntary(void)
{
	char line[128];
	FILE *f = fopen("/proc/thread-self/status", "r");
	int v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %d", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* The real /proc: this process's own threads are found and count up. */
static void test_real_proc(void)
{
	struct lj_taskwatch w;
	struct lj_taskwatch_delta d;
	struct lj_taskwatch_system sys;
	char comm[32];
	FILE *f = fopen("/proc/self/comm", "r");

	if (!f || !fgets(comm, sizeof(comm), f)) {
		if (f)
			fclose(f);
		skip(3, "no /proc/self/comm");
		return;
	}
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	lj_taskwatch_init(&w);
	lj_taskwatch_add(&w, comm);
	is_int(lj_taskwatch_snapshot(&w, LJ_TASKWATCH_PROC, false), 0, "real /proc: before");
	/*
	 * One voluntary switch at least: a sleep that blocks. A 1 ms sleep
	 * whose timer expires before the thread gets to block (a stalled vCPU
	 * of a loaded TCG guest) switches nothing: sleep until one is counted.
	 */
	for (int i = 0, v0 = own_voluntary(); i < 1000 && own_voluntary() <= v0; i++)
		usleep(1000);
	lj_taskwatch_snapshot(&w, LJ_TASKWATCH_PROC, true);
	lj_taskwatch_delta(&w, 0, &d);
	ok(d.tasks >= 1 && d.voluntary >= 1, "real /proc: this test found, its sleep counted");
	lj_taskwatch_system(&w, &sys);
	ok(sys.have_ctxt && sys.ctxsw >= 1 && sys.elapsed_ns > 0, "real /proc: system ctxt grows");
	lj_taskwatch_free(&w);
}

int main(void)
{
	plan_no_plan();
	test_parse_status();
	test_parse_sched();
	test_parse_stat();
	test_patterns();
	test_metric();
	test_snapshot();
	test_real_proc();
	return done();
}
