// SPDX-License-Identifier: GPL-2.0-or-later
/* test_setup - the setup stack: journal, undo, replay of stale journals, conflicts, signals. */
#include "lj_file.h"
#include "lj_setup.h"
#include "tap.h"
#include "../fixtures/fake_sysfs.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256], jdir[300], target[300], other[300];

static int count_journals(void)
{
	return lj_setup_list(jdir, NULL, NULL);
}

static void test_write_and_undo(void)
{
	struct lj_setup *s;
	char journal[512];

	fake_sysfs_put(target, "schedutil\n");
	is_int(lj_setup_new(&s, NULL), 0, "a stack is created");
	is_str(lj_setup_journal(s), "", "no journal before the first change");
	is_int(lj_setup_write(s, target, "ps"), 0, "a write through the stack succeeds");
	is_str(fake_sysfs_get(target), "ps\n", "the short value replaced the long one (O_TRUNC)");
	snprintf(journal, sizeof(journal), "%s/journal.%d", jdir, (int)getpid());
	is_str(lj_setup_journal(s), journal, "the journal is DIR/journal.PID");
	ok(strstr(fake_sysfs_get(journal), "file\t") && strstr(fake_sysfs_get(journal), "\tschedutil\n"),
	   "the journal holds the path and the old value");
	is_int(lj_setup_depth(s), 1, "one entry on the stack");
	is_int(lj_setup_undo(s, NULL, NULL), 0, "undo succeeds");
	is_str(fake_sysfs_get(target), "schedutil\n", "undo restored the old content byte for byte");
	ok(access(journal, F_OK) != 0, "the journal is removed once everything is undone");
	lj_setup_free(s);
}

static void test_order_and_groups(void)
{
	struct lj_setup *s;
	char group[400], inner[450];
	json_object *j;

	fake_sysfs_put(target, "a\n");
	snprintf(group, sizeof(group), "%s/grp", dir);
	snprintf(inner, sizeof(inner), "%s/file", group);
	lj_setup_new(&s, NULL);
	lj_setup_write(s, target, "b");
	lj_setup_write(s, target, "c");
	is_str(fake_sysfs_get(target), "c\n", "two writes: the last value holds");
	is_int(lj_setup_mkdir_cgroup(s, group, NULL), 0, "a group directory is created");
	fake_sysfs_put(inner, "x\n");
	is_int(lj_setup_write(s, inner, "y"), 0, "a file inside a created group is written");
	is_int(lj_setup_depth(s), 3, "...without an entry: removing the group undoes it");
	is_int(lj_setup_mkdir_cgroup(s, group, NULL), -EEXIST, "an existing group gives -EEXIST");
	j = lj_setup_json(s);
	is_int(json_object_array_length(j), 3, "the JSON record lists the three changes");
	json_object_put(j);
	unlink(inner);	/* a real cgroup's files vanish with it; a plain directory needs help */
	is_int(lj_setup_undo(s, NULL, NULL), 0, "undo in reverse order succeeds");
	is_str(fake_sysfs_get(target), "a\n", "reverse order restores the first old value");
	ok(access(group, F_OK) != 0, "the created group is removed");
	lj_setup_free(s);
}

static void test_forget_and_escape(void)
{
	struct lj_setup *s;

	fake_sysfs_put(target, "tab\there\\n\n");
	lj_setup_new(&s, NULL);
	lj_setup_write(s, target, "new");
	lj_setup_forget_last(s);
	fake_sysfs_put(target, "kept\n");
	lj_setup_undo(s, NULL, NULL);
	is_str(fake_sysfs_get(target), "kept\n", "a forgotten entry is not undone");
	lj_setup_free(s);

	fake_sysfs_put(target, "tab\there\\back\n");
	lj_setup_new(&s, NULL);
	lj_setup_write(s, target, "new");
	lj_setup_free(s);	/* free undoes */
	is_str(fake_sysfs_get(target), "tab\there\\back\n", "tabs and backslashes survive the journal");
	is_int(lj_file_write("/nonexistent/x", "1"), -ENOENT, "write_file returns -errno");
}

/* A child changes @path and dies without undoing (as after SIGKILL). */
static pid_t child_changes(const char *path, const char *value, int hold_fd, int close_fd)
{
	pid_t pid = fork();

	if (!pid) {
		struct lj_setup *s;
		char c;

		if (close_fd >= 0)
			close(close_fd);

		lj_setup_new(&s, NULL);
		if (lj_setup_write(s, path, value))
			_exit(1);
		if (hold_fd >= 0) {
			if (write(hold_fd, "r", 1) != 1)
				_exit(1);
			/* wait until the parent closes its end */
			while (read(hold_fd, &c, 1) > 0)
				;
			lj_setup_free(s);
			_exit(0);
		}
		_exit(0);	/* _exit skips atexit: the journal stays, as after a crash */
	}
	return pid;
}

static void say_count(const char *line, void *arg)
{
	(*(int *)arg)++;
}

static void test_stale_replay(void)
{
	char first[512];
	int status, lines = 0;
	pid_t pid;

	fake_sysfs_put(target, "orig\n");
	pid = child_changes(target, "changed", -1, -1);
	waitpid(pid, &status, 0);
	is_str(fake_sysfs_get(target), "changed\n", "the dead child's change is still in place");
	is_int(lj_setup_find_stale(jdir, first, sizeof(first)), 1, "one stale journal is found");
	ok(strstr(first, "journal."), "its path is reported");
	is_int(lj_setup_restore_stale(jdir, NULL, say_count, &lines), 1, "restore replays one journal");
	ok(lines >= 2, "restore says what it does");
	is_str(fake_sysfs_get(target), "orig\n", "the old value is back");
	is_int(count_journals(), 0, "the replayed journal is removed");
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 0, "a second restore finds nothing");
}

/* A zombie (killed, its parent not yet waiting) can change nothing more: its journal is stale. */
static void test_zombie_is_gone(void)
{
	char stat[1024], path[64], *p;
	int status, tries;
	pid_t pid;

	fake_sysfs_put(target, "orig\n");
	pid = child_changes(target, "changed", -1, -1);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (tries = 0; tries < 500; tries++, usleep(10000))
		if (lj_file_read(path, stat, sizeof(stat)) > 0 && (p = strrchr(stat, ')')) && p[2] == 'Z')
			break;
	ok(tries < 500, "the child is a zombie");
	is_int(lj_setup_find_stale(jdir, NULL, 0), 1, "its journal is stale, though its pid still exists");
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "...and restored");
	is_str(fake_sysfs_get(target), "orig\n", "the old value is back");
	waitpid(pid, &status, 0);
}

/* A journal written by hand: undone entries are skipped, a torn last line is ignored. */
static void test_journal_format(void)
{
	char jpath[512], text[2048];
	int status;
	pid_t dead = fork();

	if (!dead)
		_exit(0);
	waitpid(dead, &status, 0);
	fake_sysfs_put(target, "new\n");
	fake_sysfs_put(other, "keep\n");
	mkdir(jdir, 0700);
	snprintf(jpath, sizeof(jpath), "%s/journal.%d", jdir, (int)dead);
	snprintf(text, sizeof(text),
		 "# ljkit-journal/1 pid=%d start=1 prog=fake\n"
		 "file\t%s\told\\tvalue\n"
		 "file\t%s\tundone-already\n"
		 "undone\t1\n"
		 "file\t%s", (int)dead, target, other, target);
	fake_sysfs_put(jpath, text);
	chmod(jpath, 0600);
	is_int(lj_setup_restore_stale(jdir, NULL, NULL, NULL), 1, "a hand-written journal of a dead pid is replayed");
	is_str(fake_sysfs_get(target), "old\tvalue\n", "an escaped tab is restored as a tab");
	is_str(fake_sysfs_get(other), "keep\n", "an entry marked undone is skipped");
	ok(access(jpath, F_OK) != 0, "the torn last line did not stop the replay");
}

static void test_conflict(void)
{
	struct lj_setup *s;
	int sv[2], status;
	char c;
	pid_t pid;

	fake_sysfs_put(other, "orig\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		skip(4, "socketpair failed");
		return;
	}
	pid = child_changes(other, "held", sv[1], sv[0]);
	close(sv[1]);
	if (read(sv[0], &c, 1) != 1) {
		skip(4, "child did not start");
		return;
	}
	lj_setup_new(&s, NULL);
	is_int(lj_setup_write(s, other, "mine"), -EBUSY, "a setting held by a live process is refused");
	ok(strstr(lj_setup_conflict(s), "being changed by") != NULL, "the conflict names the holder");
	is_str(fake_sysfs_get(other), "held\n", "the refused write changed nothing");
	is_int(lj_setup_find_stale(jdir, NULL, 0), 0, "a live process's journal is not stale");
	close(sv[0]);
	waitpid(pid, &status, 0);
	is_int(lj_setup_write(s, other, "mine"), 0, "after the holder restored, the write goes through");
	lj_setup_free(s);
	is_str(fake_sysfs_get(other), "orig\n", "both restored in turn");
}

static void test_exit_and_signal(void)
{
	int status;
	pid_t pid;

	fake_sysfs_put(target, "orig\n");
	pid = fork();
	if (!pid) {
		struct lj_setup *s;

		lj_setup_new(&s, NULL);
		lj_setup_write(s, target, "x");
		exit(0);	/* atexit unwinds */
	}
	waitpid(pid, &status, 0);
	is_str(fake_sysfs_get(target), "orig\n", "exit() unwinds a live stack");

	pid = fork();
	if (!pid) {
		struct lj_setup *s;

		lj_setup_new(&s, NULL);
		lj_setup_catch_signals();
		lj_setup_write(s, target, "x");
		raise(SIGTERM);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "the process still dies of SIGTERM");
	is_str(fake_sysfs_get(target), "orig\n", "SIGTERM unwinds first");
	is_int(count_journals(), 0, "no journal left behind");

	{
		struct lj_setup *s;

		lj_setup_new(&s, NULL);
		lj_setup_write(s, target, "mine");
		pid = fork();
		if (!pid)
			exit(0);	/* a forked worker exits normally */
		waitpid(pid, &status, 0);
		is_str(fake_sysfs_get(target), "mine\n", "a forked child's exit() does not undo its parent's setup");
		lj_setup_free(s);
		is_str(fake_sysfs_get(target), "orig\n", "the parent undoes it");
	}
}

/* A child claims cpuset in @sub (as a run does) and holds it until @hold closes; then dies without undoing. */
static pid_t child_claims(const char *sub, int hold, int close_fd)
{
	static const char *const cs[] = { "cpuset", NULL };
	pid_t pid = fork();

	if (!pid) {
		struct lj_setup *s;
		char c;

		close(close_fd);
		lj_setup_new(&s, NULL);
		if (lj_setup_claim_subtree(s, sub, cs) || write(hold, "r", 1) != 1)
			_exit(1);
		while (read(hold, &c, 1) > 0)
			;
		_exit(0);	/* dead, its journal left: its claim is over */
	}
	return pid;
}

static void say_keep(const char *line, void *arg)
{
	snprintf(arg, 512, "%s", line);
}

/*
 * cgroup.subtree_control: a controller is claimed by each run that needs
 * it and disabled by the last one out; one enabled by anyone else is left
 * alone. (A plain file: it keeps the last write, "+cpuset", where the
 * kernel would list "cpu cpuset"; the test writes what the kernel shows.)
 */
static void test_subtree_claims(void)
{
	static const char *const both[] = { "cpuset", "cpu", NULL };
	char sub[400], said[512] = "", jpath[512], c;
	struct lj_setup *s;
	int sv[2], status;
	pid_t pid;

	snprintf(sub, sizeof(sub), "%s/cgroup.subtree_control", dir);
	fake_sysfs_put(sub, "cpu cpuset\n");
	lj_setup_new(&s, NULL);
	is_int(lj_setup_claim_subtree(s, sub, both), 0, "controllers already handed down: nothing to do");
	is_int(lj_setup_depth(s), 0, "...and no claim on what someone else enabled");
	lj_setup_free(s);
	is_str(fake_sysfs_get(sub), "cpu cpuset\n", "...which stays enabled after");

	fake_sysfs_put(sub, "cpu\n");
	lj_setup_new(&s, NULL);
	is_int(lj_setup_claim_subtree(s, sub, both), 0, "a missing controller is enabled");
	ok(lj_setup_depth(s) == 1 && !strcmp(fake_sysfs_get(sub), "+cpuset\n"), "...one claim, +cpuset written");
	lj_setup_free(s);
	is_str(fake_sysfs_get(sub), "-cpuset\n", "...and -cpuset on undo, not the old content");

	fake_sysfs_put(sub, "cpu\n");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		skip(5, "socketpair failed");
		return;
	}
	pid = child_claims(sub, sv[1], sv[0]);
	close(sv[1]);
	if (read(sv[0], &c, 1) != 1) {
		skip(5, "child did not start");
		return;
	}
	fake_sysfs_put(sub, "cpu cpuset\n");	/* what the kernel shows after the child's +cpuset */
	lj_setup_new(&s, NULL);
	is_int(lj_setup_claim_subtree(s, sub, both), 0, "a controller another live run enabled is claimed too (no conflict)");
	is_int(lj_setup_depth(s), 1, "...one shared claim");
	lj_setup_undo(s, say_keep, said);
	ok(!strcmp(fake_sysfs_get(sub), "cpu cpuset\n") && strstr(said, "left cpuset enabled"),
	   "the first run out leaves it to the other, still live one, and says so");
	lj_setup_free(s);
	lj_setup_new(&s, NULL);
	lj_setup_claim_subtree(s, sub, both);
	close(sv[0]);
	waitpid(pid, &status, 0);	/* the other run died: its claim is over */
	lj_setup_free(s);
	is_str(fake_sysfs_get(sub), "-cpuset\n", "the last live run out disables it");
	snprintf(jpath, sizeof(jpath), "%s/journal.%d", jdir, (int)pid);
	ok(!unlink(jpath), "(the dead child's journal, removed: its fake file is not one replay writes)");
}

/*
 * Replay writes only files ljkit changes (docs/security.md), so the
 * targets are governor files of a fake CPU tree mounted over the real one
 * in a private mount namespace; the journals live in a private directory.
 */
int main(void)
{
	static struct fake_sysfs_tmp tmp;
	char cmd[1024];
	const char *why;
	const char *cpu = tmp.cpu;

	why = fake_sysfs_enter();
	if (why)
		skip_all(why);
	if (fake_sysfs_tmp_make(&tmp, "ljsetup"))
		skip_all("cannot create a temporary directory");
	snprintf(dir, sizeof(dir), "%s", tmp.dir);
	snprintf(jdir, sizeof(jdir), "%s", getenv("LJ_JOURNAL_DIR"));
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/cpu0/cpufreq' '%s/cpu1/cpufreq'", cpu, cpu);
	if (system(cmd) || mount(cpu, FAKE_CPU_DIR, NULL, MS_BIND, NULL))
		skip_all("cannot mount a fake CPU tree");
	snprintf(target, sizeof(target), FAKE_CPU_DIR "/cpu0/cpufreq/scaling_governor");
	snprintf(other, sizeof(other), FAKE_CPU_DIR "/cpu1/cpufreq/scaling_governor");

	plan(61);
	test_write_and_undo();
	test_order_and_groups();
	test_forget_and_escape();
	test_stale_replay();
	test_zombie_is_gone();
	test_journal_format();
	test_conflict();
	test_exit_and_signal();
	test_subtree_claims();

	fake_sysfs_tmp_remove(&tmp);
	return done();
}
