// SPDX-License-Identifier: GPL-2.0-or-later
/* test_setup_trust - the setup stack trusts only its own directory, its own journals and the files ljkit changes. */
#include "lj_file.h"
#include "lj_setup.h"
#include "lj_setup_priv.h"	/* lj_setup_pid_starttime, lj_setup_pidns: the owners planted below */
#include "tap.h"
#include "../fixtures/fake_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[256], jdir[300], gov[300], victim[300];

static void collect(const char *line, void *arg)
{
	char *buf = arg;

	strncat(buf, line, 4095 - strlen(buf));
	strncat(buf, "\n", 4095 - strlen(buf));
}

/* A pid that is certainly dead: a child reaped. */
static pid_t dead_pid(void)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	waitpid(pid, &status, 0);
	return pid;
}

/* A journal of a dead process naming @path, as root would have written it (0600). */
static void plant_journal(const char *jpath, const char *kind, const char *path, const char *old)
{
	char text[2048];

	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=1 prog=lj-env\n%s\t%s%s%s\n",
		 (int)dead_pid(), kind, path, old ? "\t" : "", old ? old : "");
	unlink(jpath);
	fake_sysfs_put(jpath, text);
	chmod(jpath, 0600);
}

/*
 * The kernel drops a v1 hierarchy at an unmount only when its root has no
 * child group left, and a removed group leaves that list later, when its
 * last reference is released: the child's own unmount comes too early, and
 * the hierarchy would stay (in every /proc/PID/cgroup) until the next boot.
 * Once the group is released a mount and an unmount drop it. (This process
 * still lists it until it exits, so the test cannot check it here; run by
 * hand, `grep -c ljtrust /proc/self/cgroup` after the test says 0.)
 */
static void drop_hierarchy(const char *cg)
{
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	if (!mount("ljtrust", cg, "cgroup", 0, "none,name=ljtrust"))
		umount2(cg, 0);
}

enum { CG_REFUSED = 1, CG_UNTOUCHED = 2, CG_REMOVED = 4, CG_ORIGIN = 8, CG_ORIGIN_REFUSED = 16, CG_CPUS_REFUSED = 32,
       CG_NO_MOUNT = 64 };

/*
 * A group holding a sleeping child, removed on replay of a journal that
 * says where its tasks came from (@origin): is the sleeper there after?
 * Return: 1 moved back to @origin and the group gone, 0 not, -1 no child.
 */
static int replay_moves_back(const char *group, const char *origin)
{
	char procs[450], mine[64], path[64], text[1024];
	pid_t sleeper = fork();
	int ret, status;

	if (!sleeper) {
		pause();
		_exit(0);
	}
	if (sleeper < 0)
		return -1;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", group);
	snprintf(mine, sizeof(mine), "%d", (int)sleeper);
	ret = lj_file_write(procs, mine);
	if (!ret)
		ret = lj_setup_restore_stale(jdir, NULL, NULL, NULL) == 1 ? 0 : -1;
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)sleeper);
	/* the named hierarchy's line: "N:name=ljtrust:/o" */
	ret = !ret && lj_file_read(path, text, sizeof(text)) > 0 && strstr(text, "name=ljtrust:/o\n") &&
	      access(group, F_OK) != 0;
	kill(sleeper, SIGKILL);
	waitpid(sleeper, &status, 0);
	return ret;
}

/* The child's part: each check's outcome as a bit of the exit status. */
static int cgroup_entries_child(const char *cg, const char *jpath)
{
	char file[400], group[400], origin[400], said[4096] = "";
	int bits = 0;

	/* A mount namespace of the child's own: it goes, with what it held, when the child exits. */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("ljtrust", cg, "cgroup", 0, "none,name=ljtrust"))
		return CG_NO_MOUNT;
	snprintf(file, sizeof(file), "%s/release_agent", cg);
	plant_journal(jpath, "file", file, "/tmp/ljtrust-never");
	if (lj_setup_restore_stale(jdir, NULL, collect, said) < 0 && strstr(said, "not a file ljkit changes"))
		bits |= CG_REFUSED;
	if (!strstr(fake_sysfs_get(file), "ljtrust-never"))
		bits |= CG_UNTOUCHED;
	/* "cpus" is a cpuset's control only where the cpuset is mounted noprefix: not in this hierarchy. */
	snprintf(file, sizeof(file), "%s/cpus", cg);
	plant_journal(jpath, "file", file, "0");
	said[0] = '\0';
	if (lj_setup_restore_stale(jdir, NULL, collect, said) < 0 && strstr(said, "not a file ljkit changes"))
		bits |= CG_CPUS_REFUSED;
	snprintf(group, sizeof(group), "%s/g1", cg);
	mkdir(group, 0755);
	plant_journal(jpath, "cgroup", group, NULL);
	if (lj_setup_restore_stale(jdir, NULL, NULL, NULL) == 1)
		bits |= CG_REMOVED;
	/* its tasks back where they came from: a sibling group o, not the parent */
	snprintf(origin, sizeof(origin), "%s/o", cg);
	mkdir(origin, 0755);
	mkdir(group, 0755);
	plant_journal(jpath, "cgroup", group, origin);
	if (replay_moves_back(group, origin) == 1)
		bits |= CG_ORIGIN;
	mkdir(group, 0755);
	plant_journal(jpath, "cgroup", group, "/etc");
	if (lj_setup_restore_stale(jdir, NULL, collect, said) < 0 && strstr(said, "origin /etc is not a group") &&
	    access(group, F_OK) == 0)
		bits |= CG_ORIGIN_REFUSED;
	unlink(jpath);
	rmdir(group);
	rmdir(origin);
	umount2(cg, 0);
	return bits;
}

/*
 * Cgroup entries, on a named v1 hierarchy of our own mounted in the private
 * namespace: never a real hierarchy's release_agent, even if this test ran
 * against code that replays anything.
 */
static void test_cgroup_entries(const char *jpath)
{
	char cg[300];
	int status, bits;
	pid_t pid;

	snprintf(cg, sizeof(cg), "%s/cg", dir);
	mkdir(cg, 0700);
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(cgroup_entries_child(cg, jpath));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		skip(6, "the cgroup checks' child did not run");
		return;
	}
	bits = WEXITSTATUS(status);
	if (bits & CG_NO_MOUNT) {
		skip(6, "cannot mount a named cgroup v1 hierarchy");
		return;
	}
	ok(bits & CG_REFUSED, "a cgroup file ljkit does not write (release_agent) is refused");
	ok(bits & CG_UNTOUCHED, "...and not written");
	ok(bits & CG_CPUS_REFUSED, "a file cpus below a hierarchy that is not a cpuset mounted noprefix is refused");
	ok(bits & CG_REMOVED, "a group below a cgroup mount is removed on replay");
	ok(bits & CG_ORIGIN, "a replayed group's tasks go back to the group they came from, not to its parent");
	ok(bits & CG_ORIGIN_REFUSED, "an origin outside the group's hierarchy (/etc) is refused, the group kept");
	drop_hierarchy(cg);
}

/* tracefs entries: only an ljkit instance is removed, only the tracefs mount point unmounted. */
static void test_tracefs_entries(const char *jpath)
{
	char keep[400], said[4096] = "";

	snprintf(keep, sizeof(keep), "%s/ljkit-1", dir);
	mkdir(keep, 0700);
	plant_journal(jpath, "tracefs-instance", keep, NULL);
	ok(lj_setup_restore_stale(jdir, NULL, collect, said) < 0 && access(keep, F_OK) == 0 &&
	   strstr(said, "is not a tracefs instance ljkit makes"),
	   "a tracefs-instance entry outside tracefs' instances is refused (the directory stays)");
	plant_journal(jpath, "tracefs-instance", LJ_SETUP_TRACEFS "/instances/ljkit-1/../../../..", NULL);
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0, "...and one that climbs out with ..");
	plant_journal(jpath, "tracefs-mount", dir, "mnt:[4026531841]");
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0 && access(keep, F_OK) == 0,
	   "a tracefs-mount entry for another mount point is refused");
	plant_journal(jpath, "tracefs-mount", LJ_SETUP_TRACEFS, "/etc");
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0, "...and one whose namespace is not mnt:[N]");
	rmdir(keep);
}

static void test_replay_allow_list(void)
{
	char jpath[400], said[4096] = "";

	mkdir(jdir, 0700);
	snprintf(jpath, sizeof(jpath), "%s/journal.1", jdir);
	fake_sysfs_put(victim, "precious\n");
	plant_journal(jpath, "file", victim, "EVIL");
	ok(lj_setup_restore_stale(jdir, NULL, collect, said) < 0, "a journal naming a file ljkit never changes is refused");
	is_str(fake_sysfs_get(victim), "precious\n", "...and that file is not written");
	ok(access(jpath, F_OK) == 0, "...and the journal is kept");
	ok(strstr(said, "is not a file ljkit changes") != NULL, "...saying why");

	test_cgroup_entries(jpath);
	{
		char dotdot[700];

		/* ".." out of the CPU tree into our scratch file */
		snprintf(dotdot, sizeof(dotdot), FAKE_CPU_DIR "/cpu0/../../../../..%s", victim);
		plant_journal(jpath, "file", dotdot, "EVIL");
		ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0 &&
		   !strcmp(fake_sysfs_get(victim), "precious\n"), "a path with .. is refused");
	}
	plant_journal(jpath, "cgroup", dir, NULL);
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0 && access(dir, F_OK) == 0,
	   "a group entry outside the cgroup mounts is refused (nothing removed)");
	plant_journal(jpath, "preempt", "preempt", "full; rm -rf /");
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0, "a preempt entry that is not a mode is refused");
	test_tracefs_entries(jpath);

	fake_sysfs_put(gov, "performance\n");
	plant_journal(jpath, "file", gov, "schedutil");
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "a governor file under the CPU tree is replayed");
	is_str(fake_sysfs_get(gov), "schedutil\n", "...its old value written back");
	ok(access(jpath, F_OK) != 0, "...and the journal removed");
}

static void test_untrusted_journals(void)
{
	char jpath[400], said[4096] = "";

	snprintf(jpath, sizeof(jpath), "%s/journal.2", jdir);
	fake_sysfs_put(gov, "performance\n");
	plant_journal(jpath, "file", gov, "schedutil");
	chmod(jpath, 0666);
	ok(lj_setup_restore_stale(NULL, jpath, collect, said) < 0 && strstr(said, "not a journal ljkit wrote"),
	   "a journal others can write is refused");
	is_str(fake_sysfs_get(gov), "performance\n", "...and not replayed");
	chmod(jpath, 0600);
	if (chown(jpath, 65534, 65534) == 0) {
		ok(lj_setup_restore_stale(NULL, jpath, NULL, NULL) < 0, "a journal owned by another user is refused");
		ok(access(jpath, F_OK) == 0, "...and kept");
	} else {
		skip(2, "cannot chown (not root)");
	}
	unlink(jpath);

	fake_sysfs_put(jpath, "just some file\nnot a journal\n");
	chmod(jpath, 0600);
	said[0] = '\0';
	is_int(lj_setup_restore_stale(NULL, jpath, collect, said), -EBADMSG, "--restore --journal on a non-journal: -EBADMSG");
	ok(access(jpath, F_OK) == 0, "...and the file is NOT deleted");
	ok(strstr(said, "is not an ljkit journal") != NULL, "...saying it is not a journal");
	unlink(jpath);

	symlink(victim, jpath);
	ok(lj_setup_restore_stale(NULL, jpath, NULL, NULL) < 0, "a journal that is a symbolic link is refused");
	ok(access(victim, F_OK) == 0 && access(jpath, F_OK) == 0, "...both the link and its target stay");
	unlink(jpath);
}

/* Put @text at @jpath, as root writes journals (0600), then set @mode. */
static void plant_text(const char *jpath, const char *text, mode_t mode)
{
	int fd;

	unlink(jpath);
	fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		diag("cannot plant %s", jpath);
	if (fd >= 0)
		close(fd);
	chmod(jpath, mode);
}

/*
 * A crash while the journal is created leaves an empty file or a torn
 * header: no change recorded, removed with one line. A torn last entry is
 * not written. Garbage, and a torn header in a file ljkit did not write,
 * stay refused and kept.
 */
static void test_torn_journals(void)
{
	char jpath[400], named[400], text[2048], said[4096] = "";
	pid_t dead = dead_pid();

	snprintf(jpath, sizeof(jpath), "%s/journal.%d", jdir, (int)dead);
	plant_text(jpath, "", 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, collect, said), 1, "an empty journal of a dead pid: restore succeeds");
	ok(access(jpath, F_OK) != 0, "...the journal is removed");
	ok(strstr(said, "held no change") && strchr(said, '\n') == said + strlen(said) - 1,
	   "...saying so in one line");

	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d sta", (int)dead);
	plant_text(jpath, text, 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "a torn header prefix: restore succeeds");
	ok(access(jpath, F_OK) != 0, "...the journal is removed");

	/* --journal NAME: the pid in the torn header is alive (our parent), so it is kept */
	snprintf(named, sizeof(named), "%s/named-torn", dir);
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d ", (int)getppid());
	plant_text(named, text, 0600);
	is_int(lj_setup_restore_stale(NULL, named, NULL, NULL), -EBUSY, "a torn header naming a live pid: busy");
	ok(access(named, F_OK) == 0, "...and kept");
	unlink(named);

	fake_sysfs_put(gov, "performance\n");
	fake_sysfs_put(victim, "precious\n");
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=1 prog=lj-env\nfile\t%s\tschedutil\nfile\t%s\tEV",
		 (int)dead, gov, victim);
	plant_text(jpath, text, 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "a torn last entry: the rest is replayed");
	is_str(fake_sysfs_get(gov), "schedutil\n", "...the complete entry undone");
	is_str(fake_sysfs_get(victim), "precious\n", "...the torn one not (it was never made)");
	ok(access(jpath, F_OK) != 0, "...and the journal removed");

	plant_text(jpath, "# ljkit-journ4l", 0600);
	said[0] = '\0';
	is_int(lj_setup_restore_stale(jdir, NULL, collect, said), -EBADMSG, "garbage that is no header prefix: refused");
	ok(access(jpath, F_OK) == 0 && strstr(said, "is not an ljkit journal"), "...kept, saying why");
	plant_text(jpath, "\n", 0600);
	ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) == -EBADMSG && access(jpath, F_OK) == 0,
	   "an empty first line is not a torn header: refused and kept");

	plant_text(jpath, "# ljkit-journal/1 pid=", 0666);
	said[0] = '\0';
	ok(lj_setup_restore_stale(jdir, NULL, collect, said) < 0 && strstr(said, "not a journal ljkit wrote"),
	   "a torn header in a file others can write: refused");
	ok(access(jpath, F_OK) == 0, "...and kept");
	chmod(jpath, 0600);
	if (chown(jpath, 65534, 65534) == 0) {
		ok(lj_setup_restore_stale(jdir, NULL, NULL, NULL) < 0 && access(jpath, F_OK) == 0,
		   "a torn header in a file of another user: refused and kept");
	} else {
		skip(1, "cannot chown (not root)");
	}
	unlink(jpath);
}

/* Plant at DIR/@name a journal of @pid (started @start) in PID namespace @ns, undoing @gov to "schedutil". */
static void plant_owned(const char *name, pid_t pid, unsigned long long start, unsigned long long ns)
{
	char path[PATH_MAX], text[2048];

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=%llu pidns=%llu prog=lj-env\nfile\t%s\tschedutil\n",
		 (int)pid, start, ns, gov);
	plant_text(path, text, 0600);
}

/*
 * A pid of another PID namespace (a container's) means nothing here. From
 * the initial namespace, which sees every process, its journal is a live
 * run's only while a process of that namespace is that pid there, started
 * then; here the test's parent stands for a pid this namespace also has.
 */
static void test_pidns_owners(void)
{
	unsigned long long none = 12345, self = lj_setup_pidns(), start = lj_setup_pid_starttime(getppid());
	char name[128], path[PATH_MAX], text[1024];
	int pipefd[2], status;
	pid_t child, inner = 0;

	if (!lj_setup_pidns_initial(self)) {
		skip(14, "not in the initial PID namespace");
		return;
	}
	fake_sysfs_put(gov, "performance\n");
	snprintf(name, sizeof(name), "journal.%d@%llu", (int)getppid(), none);
	plant_owned(name, getppid(), start, none);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1,
	       "a journal of a PID namespace no process is in (its pid alive here): replayed");
	is_str(fake_sysfs_get(gov), "schedutil\n", "...its change undone");
	fake_sysfs_put(gov, "performance\n");
	plant_owned("journal.x", getppid(), start, self);
	snprintf(path, sizeof(path), "%s/journal.x", jdir);
	ok(!lj_setup_restore_stale(jdir, NULL, NULL, NULL) && access(path, F_OK) == 0,
	   "one of this namespace's, alive: left alone");
	unlink(path);

	/* torn headers: the namespace from the name when the header stops before it */
	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=%llu pid", (int)getppid(), start);
	plant_text(path, text, 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1,
	       "a torn header of a live pid, named journal.PID@NS of a gone namespace: removed");
	ok(access(path, F_OK) != 0, "...the journal is gone");
	snprintf(path, sizeof(path), "%s/journal.%d", jdir, (int)getppid());
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=%llu pidns=%llu pr", (int)getppid(), start, none);
	plant_text(path, text, 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "...and one whose torn header has that namespace");
	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=%llu pidns=%llu pr", (int)getppid(), start, self);
	plant_text(path, text, 0600);
	is_int(lj_setup_restore_stale(NULL, path, NULL, NULL), -EBUSY, "...but this namespace's: busy");
	unlink(path);

	/* run files (lj_setup_runfile): run-NAME.OWNER.START */
	snprintf(path, sizeof(path), "%s/run-sweep.%d@%llu.%llu", jdir, (int)getppid(), none, start);
	plant_text(path, "", 0600);
	lj_setup_restore_stale(jdir, NULL, NULL, NULL);
	ok(access(path, F_OK) != 0, "a run file of a gone namespace is removed");
	snprintf(path, sizeof(path), "%s/run-sweep.%d.%llu", jdir, (int)getppid(), start);
	plant_text(path, "", 0600);
	lj_setup_restore_stale(jdir, NULL, NULL, NULL);
	ok(access(path, F_OK) == 0, "...one of this namespace's live pid kept");
	unlink(path);

	/* a live namespace below this one: its pid 1, seen here as @inner */
	if (pipe(pipefd)) {
		skip(5, "no pipe");
		return;
	}
	child = fork();
	if (!child) {
		pid_t g;

		if (unshare(CLONE_NEWPID))
			_exit(1);
		g = fork();
		if (!g) {
			pause();
			_exit(0);
		}
		if (write(pipefd[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		waitpid(g, &status, 0);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &inner, sizeof(inner)) != sizeof(inner))
		inner = 0;
	close(pipefd[0]);
	if (inner <= 0) {
		skip(5, "cannot make a PID namespace");
		waitpid(child, &status, 0);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)inner);
	{
		struct stat st;
		unsigned long long ns = stat(path, &st) ? 0 : (unsigned long long)st.st_ino;

		start = lj_setup_pid_starttime(inner);
		snprintf(name, sizeof(name), "journal.1@%llu", ns);
		fake_sysfs_put(gov, "performance\n");
		plant_owned(name, 1, start, ns);
		is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 0,
		       "the journal of a live namespace's pid 1: left alone (pid 1 here is init)");
		is_str(fake_sysfs_get(gov), "performance\n", "...its change left in force");
		plant_owned(name, 1, start + 1, ns);
		is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "...its pid 1 started at another time: replayed");
		plant_owned(name, 1, start, ns);
		kill(inner, SIGKILL);
		waitpid(child, &status, 0);
		is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "the namespace gone: replayed");
		is_str(fake_sysfs_get(gov), "schedutil\n", "...its change undone");
	}
}

/* A journal of a dead process whose one entry restores @gov to @old, last written @age s ago. */
static void plant_aged(const char *jpath, const char *old, int age)
{
	char text[1024];
	struct timespec t[2];

	snprintf(text, sizeof(text), "# ljkit-journal/1 pid=%d start=1 prog=lj-env\nfile\t%s\t%s\n",
		 (int)dead_pid(), gov, old);
	plant_text(jpath, text, 0600);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	utimensat(AT_FDCWD, jpath, t, AT_SYMLINK_NOFOLLOW);
}

/*
 * Two killed runs changed one setting: the first from schedutil to
 * powersave, the second (started after the first died) from powersave to
 * performance. Replay must undo the second first. Both name orders, so
 * no directory order can pass by luck.
 */
static void test_replay_order(void)
{
	char a[400], b[400];

	snprintf(a, sizeof(a), "%s/journal.a", jdir);
	snprintf(b, sizeof(b), "%s/journal.b", jdir);
	for (int round = 0; round < 2; round++) {
		fake_sysfs_put(gov, "performance\n");
		plant_aged(round ? b : a, "schedutil", 100);	/* the first run, older */
		plant_aged(round ? a : b, "powersave", 10);	/* the second run, newer */
		is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 2, "two stale journals replayed");
		is_str(fake_sysfs_get(gov), "schedutil\n",
		       round ? "newest journal first (older named journal.b)" : "newest journal first (older named journal.a)");
	}
}

static void test_journal_dir(void)
{
	char shared[400];
	struct lj_setup *s;
	struct stat st;

	fake_sysfs_put(gov, "performance\n");
	snprintf(shared, sizeof(shared), "%s/shared", dir);
	mkdir(shared, 0700);
	chmod(shared, 01777);
	setenv("LJ_JOURNAL_DIR", shared, 1);
	lj_setup_new(&s, NULL);
	ok(lj_setup_write(s, gov, "ps") < 0, "a journal directory others can write is refused");
	ok(strstr(lj_setup_conflict(s), shared) && strstr(lj_setup_conflict(s), "written by group or others"),
	   "...with a message naming it");
	is_str(fake_sysfs_get(gov), "performance\n", "...and nothing changed");
	lj_setup_free(s);
	ok(lj_setup_restore_stale(shared, NULL, NULL, NULL) < 0, "restore refuses to read it too");
	if (chmod(shared, 0700) == 0 && chown(shared, 65534, 65534) == 0) {
		lj_setup_new(&s, NULL);
		ok(lj_setup_write(s, gov, "ps") < 0 && strstr(lj_setup_conflict(s), "not root"),
		   "a journal directory owned by another user is refused");
		lj_setup_free(s);
	} else {
		skip(1, "cannot chown (not root)");
	}
	rmdir(shared);

	{
		char real[400], link[400], through[450];

		/* a link of another user on the way to the directory */
		snprintf(real, sizeof(real), "%s/real", dir);
		snprintf(link, sizeof(link), "%s/jlink", dir);
		snprintf(through, sizeof(through), "%s/j", link);
		mkdir(real, 0700);
		if (symlink(real, link) || lchown(link, 65534, 65534)) {
			skip(2, "cannot plant a link of another user (not root)");
		} else {
			setenv("LJ_JOURNAL_DIR", through, 1);
			lj_setup_new(&s, NULL);
			ok(lj_setup_write(s, gov, "ps") < 0 && strstr(lj_setup_conflict(s), "symbolic link of uid 65534"),
			   "a journal directory reached through another user's link is refused");
			lj_setup_free(s);
			snprintf(through, sizeof(through), "%s/j", real);
			ok(access(through, F_OK) != 0, "...before anything is created through it");
		}
		unlink(link);
		rmdir(real);
	}

	setenv("LJ_JOURNAL_DIR", jdir, 1);
	rmdir(jdir);
	lj_setup_new(&s, NULL);
	is_int(lj_setup_write(s, gov, "ps"), 0, "a missing journal directory is created");
	ok(!stat(jdir, &st) && (st.st_mode & 07777) == 0700, "...0700");
	ok(!stat(lj_setup_journal(s), &st) && (st.st_mode & 07777) == 0600, "the journal is 0600");
	{
		char lock[400];

		snprintf(lock, sizeof(lock), "%s/.lock", jdir);
		ok(!stat(lock, &st) && (st.st_mode & 07777) == 0600, "the lock is 0600");
	}
	lj_setup_free(s);
	is_str(fake_sysfs_get(gov), "performance\n", "undone");
}

static void test_named_journal(void)
{
	char named[400], link[400];
	struct lj_setup *s;

	fake_sysfs_put(gov, "performance\n");
	snprintf(named, sizeof(named), "%s/mine", dir);
	fake_sysfs_put(named, "a user's file\n");
	lj_setup_new(&s, named);
	is_int(lj_setup_write(s, gov, "ps"), -EBUSY, "--journal naming an existing file is refused");
	ok(strstr(lj_setup_conflict(s), "must name a new file") != NULL, "...saying it must be new");
	lj_setup_free(s);
	is_str(fake_sysfs_get(named), "a user's file\n", "...the file untouched");
	is_str(fake_sysfs_get(gov), "performance\n", "...nothing changed");

	snprintf(link, sizeof(link), "%s/link", dir);
	symlink(victim, link);
	fake_sysfs_put(victim, "precious\n");
	lj_setup_new(&s, link);
	ok(lj_setup_write(s, gov, "ps") < 0, "--journal naming a symbolic link is refused");
	lj_setup_free(s);
	is_str(fake_sysfs_get(victim), "precious\n", "...its target untouched");
	unlink(link);

	snprintf(link, sizeof(link), "%s/no/such/dir/j", dir);
	lj_setup_new(&s, link);
	ok(lj_setup_write(s, gov, "ps") < 0, "--journal in a missing directory fails");
	lj_setup_free(s);
	snprintf(link, sizeof(link), "%s/no", dir);
	ok(access(link, F_OK) != 0, "...without creating the directory");
	unlink(named);
}

static void test_lock_timeout(void)
{
	char lock[400];
	struct lj_setup *s;
	int fd;

	snprintf(lock, sizeof(lock), "%s/.lock", jdir);
	fd = open(lock, O_RDWR);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		skip(3, "cannot hold the lock");
		return;
	}
	/* what an ljkit holder leaves in the file, the fallback when /proc/locks says nothing */
	if (ftruncate(fd, 0) || pwrite(fd, "424242\n", 7, 0) != 7)
		diag("could not write the pid");
	setenv("LJ_LOCK_TIMEOUT", "0.2", 1);
	fake_sysfs_put(gov, "performance\n");
	lj_setup_new(&s, NULL);
	is_int(lj_setup_write(s, gov, "ps"), -ETIMEDOUT, "a lock held too long times out");
	{
		char want[64];

		/* /proc/locks names the real holder (this process), not what the file says */
		snprintf(want, sizeof(want), "held by pid %d ", (int)getpid());
		ok(strstr(lj_setup_conflict(s), want) != NULL, "...naming the holder");
	}
	lj_setup_free(s);
	is_str(fake_sysfs_get(gov), "performance\n", "...and nothing changed");
	unsetenv("LJ_LOCK_TIMEOUT");
	close(fd);
}

int main(void)
{
	static struct fake_sysfs_tmp tmp;
	char cmd[1024];
	const char *why;
	const char *cpu = tmp.cpu;

	why = fake_sysfs_enter();
	if (why)
		skip_all(why);
	if (fake_sysfs_tmp_make(&tmp, "ljtrust"))
		skip_all("cannot create a temporary directory");
	snprintf(dir, sizeof(dir), "%s", tmp.dir);
	snprintf(jdir, sizeof(jdir), "%s", getenv("LJ_JOURNAL_DIR"));
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/cpu0/cpufreq'", cpu);
	if (system(cmd) || mount(cpu, FAKE_CPU_DIR, NULL, MS_BIND, NULL))
		skip_all("cannot mount a fake CPU tree");
	snprintf(gov, sizeof(gov), FAKE_CPU_DIR "/cpu0/cpufreq/scaling_governor");
	snprintf(victim, sizeof(victim), "%s/victim", dir);

	plan(87);
	test_replay_allow_list();
	test_untrusted_journals();
	test_torn_journals();
	test_pidns_owners();
	test_replay_order();
	test_journal_dir();
	test_named_journal();
	test_lock_timeout();

	fake_sysfs_tmp_remove(&tmp);
	return done();
}
