// SPDX-License-Identifier: GPL-2.0-or-later
/* test_setupopt - the shared setup options: parsing, apply/restore, fallbacks, leaving the group. */
#include "lj_cgroup.h"
#include "lj_err.h"
#include "lj_file.h"
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
			 "--rt-runtime", "1000", "--rt-throttle", "off", "--cgroup-depth", "3", "--strict",
			 "--cpu-weight", "200", "--cpu-max", "20000/50000", NULL };
	char *bad[][3] = {
		{ "t", "--dma-latency", "-1" }, { "t", "--idle-state", "1x" }, { "t", "--rt-runtime", "2000000" },
		{ "t", "--rt-throttle", "maybe" }, { "t", "--cgroup", "../up" }, { "t", "--cgroup", "/abs" },
		{ "t", "--cgroup-depth", "17" }, { "t", "--preempt", "rt" }, { "t", "--governor", "a/b" },
		{ "t", "--cpu-weight", "0" }, { "t", "--cpu-weight", "10001" }, { "t", "--cpu-max", "999" },
		{ "t", "--cpu-max", "5000/2000000" }, { "t", "--cpu-max", "5000/" }, { "t", "--cpu-max", "/5000" },
	};

	is_int(parse(&o, 20, good), 0, "every setup option parses");
	ok(!strcmp(o.cgroup, "a/b") && o.dma_latency_us == 0 && o.idle_state == 1 && o.rt_runtime_us == 1000 &&
	   o.rt_throttle == 0 && o.cgroup_depth == 3 && o.strict && o.cpu_weight == 200 && o.cpu_max_us == 20000 &&
	   o.cpu_period_us == 50000, "...into the struct");
	{
		char *quota_only[] = { "t", "--cpu-max", "30000", NULL };

		ok(!parse(&o, 3, quota_only) && o.cpu_max_us == 30000 && o.cpu_period_us == 100000,
		   "--cpu-max US: the period defaults to 100000 us");
	}
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
	o.rt_runtime_us = -1;
	o.cgroup = "off";
	o.cpu_weight = 50;
	is_int(lj_setupopt_apply(&o, NULL, &s, NULL), LJ_EXIT_USAGE, "--cpu-weight with --cgroup off is bad input");
	o.cgroup = NULL;
	o.cpu_weight = 0;
	lj_err_set_verbosity(0);
	ok(s == NULL, "a failed apply leaves no stack");
}

static void *idle_thread(void *arg)
{
	while (!*(volatile int *)arg)
		usleep(1000);
	return NULL;
}

/* Thread @tid's group in the cpuset hierarchy (v1 "cpuset" line, v2 "0::" line) into @out; "" if unknown. */
static const char *cpuset_group(pid_t tid, bool v2, char *out, size_t len)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/self/task/%d/cgroup", (int)tid);
	out[0] = '\0';
	if (lj_file_read(path, buf, sizeof(buf)) < 0 || lj_cgroup_parse_proc(buf, v2 ? NULL : "cpuset", out, len))
		out[0] = '\0';
	return out;
}

/* --cgroup in whatever layout the machine has; a thread leaving the group (v1), or refused (v2). */
static void test_group_and_leave(void)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup root;
	struct lj_setupopt o;
	struct lj_setup *s;
	pthread_t th;
	int stop = 0;
	char name[64], want[128], before[256], got[256], path[PATH_MAX + 64];
	bool v2;
	pid_t tid;

	if (geteuid()) {
		skip(6, "cgroups need root");
		return;
	}
	if (lj_cgroup_discover(&m) || lj_cgroup_root(&m, &root) || !root.cpuset[0] ||
	    (root.v2_cpuset && !m.v2_base[0])) {
		skip(6, "no cpuset controller to make groups with (or systemd delegated none)");
		return;
	}
	v2 = root.v2_cpuset;
	snprintf(name, sizeof(name), "ljopt%d", (int)getpid());
	snprintf(want, sizeof(want), "%s/%s", v2 ? m.v2_base + strlen(m.unified) : "", name);
	cpuset_group(gettid(), v2, before, sizeof(before));
	lj_setupopt_init(&o);
	o.cgroup = name;
	o.cpus = "0";
	if (pthread_create(&th, NULL, idle_thread, &stop)) {
		skip(6, "no thread");
		return;
	}
	is_int(lj_setupopt_apply(&o, NULL, &s, NULL), 0, "--cgroup NAME --cpus 0 applies");
	is_str(cpuset_group(gettid(), v2, got, sizeof(got)), want, "the caller is in the group");
	tid = gettid();
	if (v2) {
		is_int(lj_setupopt_leave_group(&o, tid), -EOPNOTSUPP, "v2: a thread cannot leave its process's group");
		is_str(cpuset_group(tid, v2, got, sizeof(got)), want, "...and stays in it");
	} else {
		is_int(lj_setupopt_leave_group(&o, tid), 0, "a thread leaves the group");
		is_str(cpuset_group(tid, v2, got, sizeof(got)), "/", "...and is in the root cpuset");
	}
	lj_setupopt_restore(&o, s);
	snprintf(path, sizeof(path), "%s/%s", v2 ? m.v2_base : m.v1_cpuset, name);
	ok(access(path, F_OK) != 0, "restore removed the group");
	is_str(cpuset_group(tid, v2, got, sizeof(got)), before, "...and put the process back where it was");
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

	plan(32);
	test_parse();
	test_apply_affinity();
	test_group_and_leave();

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		diag("could not remove %s", tmp);
	return done();
}
