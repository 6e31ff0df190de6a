// SPDX-License-Identifier: GPL-2.0-or-later
/* test_setupopt - the shared setup options: parsing, apply/restore, fallbacks, leaving the group. */
#include "lj_err.h"
#include "lj_setup.h"
#include "lj_setupopt.h"
#include "tap.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(struct lj_setupopt *o, int argc, char **argv)
{
	struct lj_opt_table t = lj_setupopt_table(o);
	struct lj_opt_spec spec = { "[OPTIONS]", "test", &t, 1, NULL };
	int first;

	lj_setupopt_init(o);
	optind = 0;
	return lj_opt_parse(&spec, argc, argv, &first);
}

static void test_parse(void)
{
	struct lj_setupopt o;
	char *good[] = { "t", "--cgroup", "a/b", "--cpus", "0", "--dma-latency", "0", "--idle-state", "1",
			 "--rt-runtime", "1000", "--rt-throttle", "off", "--cgroup-depth", "3", "--strict", NULL };
	char *bad[][3] = {
		{ "t", "--dma-latency", "-1" }, { "t", "--idle-state", "1x" }, { "t", "--rt-runtime", "2000000" },
		{ "t", "--rt-throttle", "maybe" }, { "t", "--cgroup", "../up" }, { "t", "--cgroup", "/abs" },
		{ "t", "--cgroup-depth", "17" }, { "t", "--preempt", "rt" }, { "t", "--governor", "a/b" },
	};

	is_int(parse(&o, 16, good), 0, "every setup option parses");
	ok(!strcmp(o.cgroup, "a/b") && o.dma_latency_us == 0 && o.idle_state == 1 && o.rt_runtime_us == 1000 &&
	   o.rt_throttle == 0 && o.cgroup_depth == 3 && o.strict, "...into the struct");
	lj_err_set_verbosity(-1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[96];
		char *argv[4] = { bad[i][0], bad[i][1], bad[i][2], NULL };

		snprintf(name, sizeof(name), "%s %s is a usage error", bad[i][1], bad[i][2]);
		is_int(parse(&o, 3, argv), LJ_EXIT_USAGE, name);
	}
	lj_err_set_verbosity(0);
}

static void test_apply_affinity(void)
{
	struct lj_setupopt o;
	struct lj_setup *s;
	json_object *rec = json_object_new_object(), *applied;
	cpu_set_t before, now;

	sched_getaffinity(0, sizeof(before), &before);
	lj_setupopt_init(&o);
	o.cpus = "0";
	is_int(lj_setupopt_apply(&o, NULL, &s, rec), 0, "--cpus 0 without a topology applies");
	sched_getaffinity(0, sizeof(now), &now);
	ok(CPU_COUNT(&now) == 1 && CPU_ISSET(0, &now), "the process runs on CPU 0");
	ok(json_object_object_get_ex(rec, "applied", &applied) && json_object_array_length(applied) == 1,
	   "the record lists what was applied");
	is_int(lj_setupopt_leave_group(&o, 0), 0, "leaving the group without a group is a no-op");
	lj_setupopt_restore(&o, s);
	sched_setaffinity(0, sizeof(before), &before);
	json_object_put(rec);

	lj_setupopt_init(&o);
	o.cpus = "4096";
	lj_err_set_verbosity(-1);
	is_int(lj_setupopt_apply(&o, NULL, &s, NULL), LJ_EXIT_USAGE, "a CPU beyond the set is bad input");
	o.cpus = NULL;
	o.rt_runtime_us = 10;
	is_int(lj_setupopt_apply(&o, NULL, &s, NULL), LJ_EXIT_USAGE, "--rt-runtime without --cgroup is bad input");
	lj_err_set_verbosity(0);
	ok(s == NULL, "a failed apply leaves no stack");
}

static void *idle_thread(void *arg)
{
	while (!*(volatile int *)arg)
		usleep(1000);
	return NULL;
}

static int in_root_cpuset(pid_t tid)
{
	char path[64], buf[4096], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/cgroup", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strstr(buf, ":cpuset:");
	return p && p[8] == '/' && p[9] == '\n';
}

static void test_group_and_leave(void)
{
	struct lj_setupopt o;
	struct lj_setup *s;
	pthread_t th;
	int stop = 0;
	char name[64];
	pid_t tid;

	if (geteuid()) {
		skip(5, "cgroups need root");
		return;
	}
	if (access("/sys/fs/cgroup/cpuset/cpuset.cpus", F_OK)) {
		skip(5, "no v1 cpuset hierarchy at /sys/fs/cgroup/cpuset");
		return;
	}
	snprintf(name, sizeof(name), "ljopt%d", (int)getpid());
	lj_setupopt_init(&o);
	o.cgroup = name;
	o.cpus = "0";
	if (pthread_create(&th, NULL, idle_thread, &stop)) {
		skip(5, "no thread");
		return;
	}
	is_int(lj_setupopt_apply(&o, NULL, &s, NULL), 0, "--cgroup NAME --cpus 0 applies");
	is_int(in_root_cpuset(gettid()), 0, "the caller is in the group");
	tid = gettid();
	is_int(lj_setupopt_leave_group(&o, tid), 0, "a thread leaves the group");
	is_int(in_root_cpuset(tid), 1, "...and is in the root cpuset");
	lj_setupopt_restore(&o, s);
	{
		char path[128];

		snprintf(path, sizeof(path), "/sys/fs/cgroup/cpuset/%s", name);
		ok(access(path, F_OK) != 0, "restore removed the group");
	}
	stop = 1;
	pthread_join(th, NULL);
}

int main(void)
{
	char tmp[256], cmd[300];

	snprintf(tmp, sizeof(tmp), "%s/ljso.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp))
		skip_all("cannot create a temporary directory");
	setenv("LJ_JOURNAL_DIR", tmp, 1);
	lj_err_init("test_setupopt");

	plan(23);
	test_parse();
	test_apply_affinity();
	test_group_and_leave();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		diag("could not remove %s", tmp);
	return done();
}
