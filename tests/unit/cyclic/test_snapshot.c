// SPDX-License-Identifier: GPL-2.0-or-later
/* test_snapshot - which stale /dev/shm/cyclictest<PID> files a start removes, in a directory of its own. */
#include "../../../tools/cyclic/cyclic.h"
#include "../tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/test_snapshot.XXXXXX";

static const char *at(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* A file under @name; with @mark, ending as lj-cyclic's do. Return: its fd, open. */
static int make_file(const char *name, bool mark)
{
	static const char text[] = "#---------------------------\n# lj-cyclic pid=1 pidns=pid:[1] start=1\n";
	int fd = open(at(name), O_RDWR | O_CREAT | O_EXCL, 0600);

	if (fd >= 0 && mark && write(fd, text, sizeof(text) - 1) < 0)
		return -1;
	return fd;
}

static void make_closed(const char *name, bool mark)
{
	int fd = make_file(name, mark);

	if (fd >= 0)
		close(fd);
}

static bool exists(const char *name)
{
	struct stat st;

	return !lstat(at(name), &st);
}

/* A PID that certainly does not run: a child that has been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void name_of(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, "cyclictest%d", (int)pid);
}

int main(void)
{
	char stale[64], unmarked[64], held[64], dead_link[64], dead_other[64];
	int held_fd;

	plan(8);
	if (!mkdtemp(dir))
		return 1;
	name_of(stale, sizeof(stale), dead_pid());
	name_of(unmarked, sizeof(unmarked), dead_pid());
	name_of(held, sizeof(held), dead_pid());	/* dead here, alive elsewhere: it holds its lock */
	name_of(dead_link, sizeof(dead_link), dead_pid());
	name_of(dead_other, sizeof(dead_other), dead_pid());
	make_closed(stale, true);
	make_closed(unmarked, false);
	held_fd = make_file(held, true);
	ok(held_fd >= 0 && !flock(held_fd, LOCK_EX), "set-up: a marked file whose maker holds its lock");
	make_closed("cyclictest12abc", true);
	make_closed("other99999999", true);
	ok(!symlink("/etc/hostname", at(dead_link)), "set-up: a link under a dead PID's name");
	make_closed(dead_other, true);
	if (geteuid() == 0)
		ok(!chown(at(dead_other), 65534, 65534), "set-up: a marked file of another user");
	else
		ok(1, "set-up: (not root: the other user's file is ours, checked below as ours)");

	cyc_snapshot_remove_stale(dir);
	ok(!exists(stale), "a marked file of ours that nobody holds is removed");
	ok(exists(held), "a marked file whose maker still holds it stays, whatever its PID says (another PID namespace)");
	ok(exists(unmarked), "an unmarked file (cyclictest's own) stays: nothing proves it stale");
	ok(exists("cyclictest12abc") && exists("other99999999") && exists(dead_link),
	   "names that are not cyclictest<PID> and links stay (not followed)");
	ok(geteuid() != 0 || exists(dead_other), "another user's file is not removed");

	close(held_fd);
	unlink(at(held));
	unlink(at(unmarked));
	unlink(at("cyclictest12abc"));
	unlink(at("other99999999"));
	unlink(at(dead_link));
	unlink(at(dead_other));
	rmdir(dir);
	return done();
}
