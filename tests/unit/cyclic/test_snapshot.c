// SPDX-License-Identifier: GPL-2.0-or-later
/* test_snapshot - which stale /dev/shm/cyclictest<PID> files a start removes, in a directory of its own. */
#include "../../../tools/cyclic/cyclic.h"
#include "../tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

static void make_file(const char *name)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_EXCL, 0600);

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

int main(void)
{
	char dead[64], dead_link[64], dead_other[64], alive[64];
	pid_t d = dead_pid();

	plan(6);
	if (!mkdtemp(dir))
		return 1;
	snprintf(dead, sizeof(dead), "cyclictest%d", (int)d);
	snprintf(alive, sizeof(alive), "cyclictest%d", (int)getpid());
	snprintf(dead_link, sizeof(dead_link), "cyclictest%d", (int)dead_pid());
	snprintf(dead_other, sizeof(dead_other), "cyclictest%d", (int)dead_pid());
	make_file(dead);
	make_file(alive);
	make_file("cyclictest12abc");
	make_file("other99999999");
	ok(!symlink("/etc/hostname", at(dead_link)), "set-up: a link under a dead PID's name");
	make_file(dead_other);
	if (geteuid() == 0)
		ok(!chown(at(dead_other), 65534, 65534), "set-up: a dead PID's file of another user");
	else
		ok(1, "set-up: (not root: the other user's file is ours, checked below as ours)");

	cyc_snapshot_remove_stale(dir);
	ok(!exists(dead), "our regular file of a dead PID is removed");
	ok(exists(alive) && exists("cyclictest12abc") && exists("other99999999"),
	   "a running PID's file and names that are not cyclictest<PID> stay");
	ok(exists(dead_link), "a link under a dead PID's name is not removed (nor followed)");
	ok(geteuid() != 0 || exists(dead_other), "another user's file is not removed");

	unlink(at(alive));
	unlink(at("cyclictest12abc"));
	unlink(at("other99999999"));
	unlink(at(dead_link));
	unlink(at(dead_other));
	rmdir(dir);
	return done();
}
