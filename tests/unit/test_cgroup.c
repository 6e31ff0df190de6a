// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cgroup - mountinfo parsing, v2 logic on a fake tree, real v1 groups with an RT thread. */
#include "lj_file.h"
#include "lj_cgroup.h"
#include "lj_parse.h"
#include "lj_setup.h"
#include "tap.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char hybrid[] =
	"25 1 0:23 / /sys rw,nosuid - sysfs sysfs rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char v2only[] =
	"22 1 0:21 / / rw shared:1 - ext4 /dev/vda rw\n"
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

/* cpu co-mounted with cpuacct, optional tags, an escaped space in a mount point. */
static const char v1comounted[] =
	"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 master:3 - cgroup cgroup rw,cpu,cpuacct\n"
	"34 31 0:31 / /mnt/my\\040cpuset rw,relatime - cgroup none rw,cpuset\n";

/* Android: cpuset mounted "-t cpuset" (noprefix) at /dev/cpuset, cpu at /dev/cpuctl, cgroup2 at /sys/fs/cgroup. */
static const char android[] =
	"40 25 0:33 / /dev/cpuset rw,nosuid,nodev,noexec,relatime - cgroup none rw,cpuset,noprefix,release_agent=/sbin/cpuset_release_agent\n"
	"41 25 0:34 / /dev/cpuctl rw,nosuid,nodev,noexec,relatime - cgroup none rw,cpu\n"
	"42 22 0:35 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 none rw\n";

static void test_mountinfo(void)
{
	struct lj_cgroup_mounts m;

	is_int(lj_cgroup_parse_mountinfo(hybrid, &m), 0, "hybrid mountinfo parses");
	is_str(lj_cgroup_mode_name(m.mode), "hybrid", "v1 controllers plus cgroup2: hybrid");
	is_str(m.v1_cpuset, "/sys/fs/cgroup/cpuset", "v1 cpuset mount found");
	is_str(m.v1_cpu, "/sys/fs/cgroup/cpu", "v1 cpu mount found (not cpuacct)");
	is_str(m.unified, "/sys/fs/cgroup/unified", "the unified mount found");

	lj_cgroup_parse_mountinfo(v2only, &m);
	is_str(lj_cgroup_mode_name(m.mode), "v2", "only cgroup2: v2");
	is_str(m.v1_cpuset, "", "no v1 cpuset in a v2 system");
	is_str(m.unified, "/sys/fs/cgroup", "v2 mount point");

	lj_cgroup_parse_mountinfo(v1comounted, &m);
	is_str(lj_cgroup_mode_name(m.mode), "v1", "only v1 hierarchies: v1");
	is_str(m.v1_cpu, "/sys/fs/cgroup/cpu,cpuacct", "co-mounted cpu,cpuacct is the cpu hierarchy");
	is_str(m.v1_cpuset, "/mnt/my cpuset", "\\040 in a mount point is a space");

	ok(!m.v1_cpuset_noprefix, "a cpuset mounted with its prefix");

	lj_cgroup_parse_mountinfo(android, &m);
	is_str(m.v1_cpuset, "/dev/cpuset", "Android: the v1 cpuset at /dev/cpuset");
	ok(m.v1_cpuset_noprefix, "...mounted noprefix");
	is_str(m.v1_cpu, "/dev/cpuctl", "...the v1 cpu at /dev/cpuctl");
	is_str(lj_cgroup_mode_name(m.mode), "hybrid", "...with cgroup2: hybrid");

	lj_cgroup_parse_mountinfo("22 1 0:21 / / rw - ext4 /dev/vda rw\n", &m);
	is_str(lj_cgroup_mode_name(m.mode), "none", "no cgroup mounts: none");
	is_int(lj_cgroup_root(&m, &(struct lj_cgroup){ 0 }), -ENODEV, "no controller: root gives -ENODEV");
	is_int(lj_cgroup_parse_mountinfo(NULL, &m), -EINVAL, "no text is -EINVAL");
}

static void mkfile(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *slurp(const char *dir, const char *name)
{
	static char buf[256];
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lj_file_read(path, buf, sizeof(buf)) < 0)
		return "(missing)";
	return buf;
}

/* A v1 cpuset mounted noprefix (a fake tree): its files are "cpus" and "mems". */
static void test_fake_noprefix(const char *tmp)
{
	struct lj_cgroup_mounts m = { .mode = LJ_CGROUP_V1, .v1_cpuset_noprefix = true };
	struct lj_cgroup cg;
	struct lj_setup *s;
	char dir[PATH_MAX + 8];
	cpu_set_t one, got;

	snprintf(m.v1_cpuset, sizeof(m.v1_cpuset), "%s/cpuset-np", tmp);
	snprintf(dir, sizeof(dir), "%s/lj", m.v1_cpuset);
	mkdir(m.v1_cpuset, 0755);
	mkdir(dir, 0755);	/* an existing group: used as it is */
	mkfile(m.v1_cpuset, "cpus", "0-1\n");
	mkfile(dir, "cpus", "0-1\n");
	mkfile(dir, "mems", "0\n");
	lj_setup_new(&s, NULL);
	is_int(lj_cgroup_create(s, &m, "lj", 1, &cg), 0, "noprefix: the group is used");
	ok(cg.cpuset_noprefix, "...its files have no prefix");
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	is_int(lj_cgroup_set_cpus(NULL, &cg, &one), 0, "noprefix: the CPUs are set");
	is_str(slurp(dir, "cpus"), "1", "...in the file cpus");
	is_str(slurp(dir, "cpuset.cpus"), "(missing)", "...not cpuset.cpus");
	is_int(lj_cgroup_set_mems(NULL, &cg, "0"), 0, "noprefix: the memory nodes are set");
	is_str(slurp(dir, "mems"), "0", "...in the file mems");
	ok(!lj_cgroup_get_cpus(&cg, &got) && CPU_EQUAL(&got, &one), "noprefix: the CPUs read back from cpus");
	lj_setup_free(s);
}

/* The v2 rules on a fake tree: controllers handed down, nested levels, undo. */
static void test_fake_v2(const char *tmp)
{
	struct lj_cgroup_mounts m = { .mode = LJ_CGROUP_V2, .v2_cpuset = true, .v2_cpu = true };
	struct lj_cgroup cg;
	struct lj_setup *s;
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(m.unified, sizeof(m.unified), "%s/v2", tmp);
	snprintf(m.v2_base, sizeof(m.v2_base), "%s", m.unified);	/* no systemd: the root */
	m.base_cpuset = m.base_cpu = true;
	mkdir(m.unified, 0755);
	mkfile(m.unified, "cgroup.controllers", "cpuset cpu io memory\n");
	mkfile(m.unified, "cgroup.subtree_control", "cpu\n");

	lj_setup_new(&s, NULL);
	is_int(lj_cgroup_create(s, &m, "lj", 1, &cg), 0, "a v2 group is created");
	snprintf(path, sizeof(path), "%s/lj", m.unified);
	is_str(cg.cpuset, path, "the group is UNIFIED/NAME");
	is_str(cg.cpu, cg.cpuset, "v2: cpuset and cpu share the directory");
	ok(cg.v2_cpuset && cg.v2_cpu && !cg.rt_group, "v2 flags set, no v1 RT group scheduling");
	/* "cpu" was handed down already: only cpuset is added (a plain file keeps the last write) */
	is_str(slurp(m.unified, "cgroup.subtree_control"), "+cpuset", "the root hands down +cpuset");
	{
		json_object *j = lj_setup_json(s), *e0 = json_object_array_get_idx(j, 0), *old;

		is_int(json_object_array_length(j), 2, "journal: the subtree_control undo and the group");
		ok(json_object_object_get_ex(e0, "old", &old) && !strcmp(json_object_get_string(old), "-cpuset"),
		   "the undo of +cpuset is -cpuset (not the old content)");
		json_object_put(j);
	}
	is_int(lj_cgroup_set_rt_runtime(s, &cg, 1000), -ENOTSUP, "no rt_runtime in v2");
	is_int(lj_setup_undo(s, NULL, NULL), 0, "undo succeeds");
	ok(stat(path, &st) != 0, "the group is gone");
	is_str(slurp(m.unified, "cgroup.subtree_control"), "-cpuset", "root: the added controller is taken back");
	lj_setup_free(s);
	lj_setup_new(&s, NULL);
	mkfile(m.unified, "cgroup.subtree_control", "cpu\n");
	mkdir(path, 0755);
	is_int(lj_cgroup_create(s, &m, "lj", 1, &cg), 0, "an existing group is used");
	is_int(lj_setup_depth(s), 1, "...and not recorded for removal");
	lj_setup_free(s);
	rmdir(path);

	{
		struct lj_cgroup fake = { 0 };

		snprintf(fake.cpu, sizeof(fake.cpu), "%s", m.unified);
		is_int(lj_cgroup_set_uclamp(NULL, &fake, 10, 50), -ENOTSUP, "no cpu.uclamp files: -ENOTSUP");
		mkfile(m.unified, "cpu.uclamp.min", "0.00\n");
		mkfile(m.unified, "cpu.uclamp.max", "max\n");
		is_int(lj_cgroup_set_uclamp(NULL, &fake, 60, 50), -ERANGE, "uclamp min above max is refused");
		is_int(lj_cgroup_set_uclamp(NULL, &fake, 12.5, 100), 0, "uclamp set");
		ok(!strcmp(slurp(m.unified, "cpu.uclamp.min"), "12.50") &&
		   !strcmp(slurp(m.unified, "cpu.uclamp.max"), "max"), "...as a percentage and max");
	}
	is_str(lj_cgroup_hint(-ENOSPC, "/x/tasks"), "the group's cpuset.cpus and cpuset.mems must be set before a task can join",
	       "ENOSPC hint names cpus and mems");
	ok(strstr(lj_cgroup_hint(-EINVAL, "/x/tasks"), "rt_runtime_us") != NULL, "EINVAL on attach hints at rt_runtime");
	ok(strstr(lj_cgroup_hint(-EINVAL, "/x/cpuset.cpus"), "parent") != NULL, "EINVAL on cpuset.cpus hints at the parent");
	ok(strstr(lj_cgroup_hint(-EINVAL, "/dev/cpuset/x/cpus"), "parent") != NULL, "...and on a noprefix cpuset's cpus");
	is_int(lj_cgroup_create(NULL, &m, "../evil", 1, &cg), -EINVAL, "a name with .. is refused");
}

static volatile int thread_stop;

static pid_t fifo_tid, thread_tid;
static pthread_t thread_th;

static void *fifo_thread(void *arg)
{
	__atomic_store_n(&fifo_tid, gettid(), __ATOMIC_RELEASE);
	while (!thread_stop)
		usleep(1000);
	return NULL;
}

/* The test's own lock on real cgroups (the CLI tests that switch RT throttling off take it too). */
/* The CLI tests that switch RT throttling off take the same lock (tests/cli/lib.sh's system_lock). */
static void system_lock(void)
{
	char dir[300], lock[320];
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), "%s/ljkit-system-tests-%u.d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (unsigned)geteuid());
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	mkdir(dir, 0700);
	/* only a private directory of ours: a lock others can open, others can hold */
	if (!lstat(dir, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    (st.st_mode & 07777) == 0700 &&
	    (fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) >= 0)
		flock(fd, LOCK_EX);	/* dropped at exit */
}

/* Thread @tid's line of the cpuset hierarchy in /proc/self/task/TID/cgroup (v1 "N:cpuset:/x", v2 "0::/x"). */
static const char *cpuset_line(pid_t tid, bool v2)
{
	static char line[512];
	char path[64], text[4096];

	snprintf(path, sizeof(path), "/proc/self/task/%d/cgroup", (int)tid);
	line[0] = '\0';
	if (lj_file_read(path, text, sizeof(text)) > 0)
		lj_cgroup_parse_proc(text, v2 ? NULL : "cpuset", line, sizeof(line));
	return line;
}

/* RT group scheduling (v1): a SCHED_FIFO thread is refused at rt_runtime_us 0, accepted with a budget. */
static void test_real_rt(struct lj_setup *s, struct lj_cgroup *cg, const cpu_set_t *one)
{
	struct sched_param sp = { .sched_priority = 10 };
	pthread_attr_t attr;
	pthread_t th;
	cpu_set_t got;
	int64_t avail;
	pid_t tid;

	if (!cg->rt_group) {
		skip(6, cg->v2_cpu ? "cgroup v2: no RT runtime per group" : "no RT group scheduling");
		is_int(lj_cgroup_set_rt_runtime(s, cg, 1000), -ENOTSUP, "no cpu.rt_runtime_us: -ENOTSUP");
		return;
	}
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	if (pthread_create(&th, &attr, fifo_thread, NULL)) {
		skip(7, "cannot create a SCHED_FIFO thread");
		return;
	}
	while (!(tid = __atomic_load_n(&fifo_tid, __ATOMIC_ACQUIRE)))
		usleep(100);
	is_int(lj_cgroup_attach(cg, tid), -EINVAL, "a FIFO thread is refused while cpu.rt_runtime_us is 0");
	ok(strstr(cg->errfile, "/tasks") != NULL, "the error names the tasks file");
	avail = lj_cgroup_rt_available(cg);
	ok(avail > 0, "some RT budget is free under the parent");
	is_int(lj_cgroup_set_rt_runtime(s, cg, avail < 10000 ? avail : 10000), 0, "rt_runtime set on both levels");
	is_int(lj_cgroup_attach(cg, tid), 0, "now the FIFO thread joins");
	ok(sched_getaffinity(tid, sizeof(got), &got) == 0 && CPU_EQUAL(&got, one),
	   "the thread runs on the group's CPU");
	ok(strstr(cpuset_line(tid, false), "/l2") != NULL, "...in the group");
	/* the undo moves it out while it runs: left running until then */
	thread_tid = tid;
	thread_th = th;
}

/*
 * Real groups in whatever layout the machine has (v1 with or without RT
 * group scheduling, v2): two levels, cpus, weight, and the undo putting
 * the process back in the group it came from (not merely the parent).
 */
static void test_real(void)
{
	struct lj_cgroup_mounts m;
	struct lj_cgroup cg;
	struct lj_setup *s;
	cpu_set_t one, got;
	char name[64], path[4200], val[64], before[512];
	bool v2;

	if (geteuid()) {
		skip(21, "real cgroups need root");
		return;
	}
	if (lj_cgroup_discover(&m) || lj_cgroup_root(&m, &cg) || !cg.cpuset[0] ||
	    (cg.v2_cpuset && !m.v2_base[0])) {
		skip(21, "no cpuset controller to make groups with (or systemd delegated none)");
		return;
	}
	v2 = cg.v2_cpuset;
	system_lock();
	snprintf(before, sizeof(before), "%s", cpuset_line(gettid(), v2));
	snprintf(name, sizeof(name), "ljtest-%d", (int)getpid());
	lj_setup_new(&s, NULL);
	is_int(lj_cgroup_create(s, &m, name, 2, &cg), 0, v2 ? "a 2-level group in cgroup v2" : "a 2-level group in v1 cpuset and cpu");
	ok(lj_cgroup_get_cpus(&cg, &got) == 0 && CPU_COUNT(&got) > 0, "the leaf has CPUs (inherited or effective)");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	is_int(lj_cgroup_set_cpus(s, &cg, &one), 0, "the leaf's CPUs set to 0");
	lj_cgroup_get_cpus(&cg, &got);
	ok(CPU_EQUAL(&got, &one), "cpuset.cpus reads back 0");
	is_int(lj_cgroup_set_weight(s, &cg, v2 ? 0 : 1), -ERANGE, "a weight below the range is refused");
	is_int(lj_cgroup_set_weight(s, &cg, v2 ? 200 : 2048), 0, v2 ? "cpu.weight set" : "cpu.shares set");
	snprintf(path, sizeof(path), "%s/%s", cg.cpu, v2 ? "cpu.weight" : "cpu.shares");
	ok(lj_file_read(path, val, sizeof(val)) > 0 && !strcmp(val, v2 ? "200" : "2048"), "...and reads back");
	if (v2)
		is_int(lj_cgroup_attach(&cg, 0), -EOPNOTSUPP, "v2: a single thread cannot join (no threaded groups)");
	else
		skip(1, "v1: threads join alone");
	test_real_rt(s, &cg, &one);	/* before the process joins: a FIFO thread starts in the root */
	is_int(lj_cgroup_attach_process(&cg, 0), 0, "the whole process joins the group");
	ok(strstr(cpuset_line(gettid(), v2), "/l2") != NULL, "...and is in it");
	is_int(lj_setup_undo(s, NULL, NULL), 0, "undo moves the process out and removes the groups");
	is_str(cpuset_line(gettid(), v2), before, "...back in the group it came from");
	snprintf(path, sizeof(path), "%s/%s", v2 ? m.v2_base : m.v1_cpuset, name);
	ok(access(path, F_OK) != 0, "the group is gone");
	if (thread_th) {
		is_str(cpuset_line(thread_tid, false), before, "the FIFO thread went back with its process");
		thread_stop = 1;
		pthread_join(thread_th, NULL);
	} else {
		skip(1, "no FIFO thread");
	}
	lj_setup_free(s);
}

int main(void)
{
	char tmp[256], jdir[300];

	snprintf(tmp, sizeof(tmp), "%s/ljcg.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp))
		skip_all("cannot create a temporary directory");
	snprintf(jdir, sizeof(jdir), "%s/j", tmp);
	setenv("LJ_JOURNAL_DIR", jdir, 1);

	plan(70);
	test_mountinfo();
	test_fake_v2(tmp);
	test_fake_noprefix(tmp);
	test_real();

	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			diag("could not remove %s", tmp);
	}
	return done();
}
