// SPDX-License-Identifier: GPL-2.0-or-later
/* test_outfile - lj_outfile: links planted in shared directories refused, devices in place, errors reported. */
#include "lj_outfile.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[128], shared[192];

static const char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Entries of @d other than . and .. (a temporary file left behind shows here). */
static int entries(const char *d)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", d);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void test_regular(void)
{
	char path[256], why[256];
	struct lj_outfile o;
	struct stat a, b;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	is_int(lj_outfile_put(path, "one\n", 4, why, sizeof(why)), 0, "a new file is written");
	is_str(slurp(path), "one\n", "...with the bytes given");
	stat(path, &a);
	is_int(lj_outfile_put(path, "two\n", 4, NULL, 0), 0, "an existing file is replaced");
	stat(path, &b);
	ok(a.st_ino != b.st_ino, "...by rename (a new inode: a hard link elsewhere keeps the old bytes)");
	is_int(entries(dir), 1, "...no temporary file left");

	is_int(lj_outfile_open(&o, path, NULL, 0), 0, "open for an aborted write");
	lj_outfile_write(&o, "half", 4);
	lj_outfile_abort(&o);
	is_str(slurp(path), "two\n", "abort keeps the old content");
	is_int(entries(dir), 1, "...and removes only our temporary file");

	is_int(lj_outfile_open(&o, path, NULL, 0), 0, "open for stdio");
	fprintf(lj_outfile_stdio(&o), "%s-%d\n", "three", 3);
	is_int(lj_outfile_commit(&o), 0, "commit through stdio");
	is_str(slurp(path), "three-3\n", "...the formatted bytes land");

	is_int(lj_outfile_put(dir, "x", 1, NULL, 0), -EISDIR, "a directory: -EISDIR");
	snprintf(path, sizeof(path), "%s/missing/out", dir);
	is_int(lj_outfile_put(path, "x", 1, NULL, 0), -ENOENT, "a missing directory: -ENOENT, not created");
}

static void test_links(void)
{
	char victim[256], link[256], own[256], why[256] = "";

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	put(victim, "precious\n");
	snprintf(link, sizeof(link), "%s/planted", shared);
	if (symlink(victim, link) || lchown(link, 65534, 65534)) {
		skip(5, "cannot plant a link of another user (not root)");
	} else {
		is_int(lj_outfile_put(link, "EVIL\n", 5, why, sizeof(why)), -ELOOP,
		       "a link of another user in a shared directory: -ELOOP");
		ok(strstr(why, "uid 65534") && strstr(why, "not followed"), "...saying whose link and why");
		is_str(slurp(victim), "precious\n", "...the target untouched");
		is_int(lj_outfile_check(link, NULL, 0), -ELOOP, "lj_outfile_check refuses it too");
		is_int(entries(shared), 1, "...and leaves nothing in the shared directory");
	}
	{
		char dlink[256], through[300];

		/* a directory on the way: /tmp/plots -> somewhere of root's */
		snprintf(dlink, sizeof(dlink), "%s/plots", shared);
		snprintf(through, sizeof(through), "%s/victim", dlink);
		if (symlink(dir, dlink) || lchown(dlink, 65534, 65534)) {
			skip(2, "cannot plant a directory link of another user (not root)");
		} else {
			is_int(lj_outfile_put(through, "EVIL\n", 5, NULL, 0), -ELOOP,
			       "a planted link as a directory on the way: -ELOOP");
			is_str(slurp(victim), "precious\n", "...the file behind it untouched");
		}
	}
	snprintf(own, sizeof(own), "%s/mine", dir);
	if (symlink(victim, own)) {
		skip(2, "symlink failed");
		return;
	}
	is_int(lj_outfile_put(own, "new\n", 4, NULL, 0), 0, "our own link in our own directory is followed");
	ok(!strcmp(slurp(victim), "new\n") && !access(own, F_OK), "...its target written, the link kept");
}

static void test_devices(void)
{
	struct stat st;
	int status;
	pid_t pid;

	is_int(lj_outfile_put("/dev/null", "x\n", 2, NULL, 0), 0, "/dev/null is written in place");
	ok(!stat("/dev/null", &st) && S_ISCHR(st.st_mode), "...and stays a character device");
	is_int(lj_outfile_put("/dev/full", "x\n", 2, NULL, 0), -ENOSPC, "/dev/full: the write error comes back");
	is_int(lj_outfile_check("/dev/full", NULL, 0), 0, "check of a device opens nothing");

	/* a FIFO: written in place, read by a child */
	{
		char fifo[256];
		int fd;

		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		mkfifo(fifo, 0600);
		pid = fork();
		if (!pid) {
			char buf[16] = "";

			fd = open(fifo, O_RDONLY);
			_exit(read(fd, buf, sizeof(buf)) == 5 && !strncmp(buf, "fifo\n", 5) ? 0 : 1);
		}
		is_int(lj_outfile_put(fifo, "fifo\n", 5, NULL, 0), 0, "a FIFO is written in place");
		waitpid(pid, &status, 0);
		ok(WIFEXITED(status) && !WEXITSTATUS(status), "...the reader got the bytes");
		ok(!lstat(fifo, &st) && S_ISFIFO(st.st_mode), "...and it is still a FIFO");
		unlink(fifo);
	}
}

int main(void)
{
	char cmd[300];

	snprintf(dir, sizeof(dir), "%s/ljout.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		skip_all("cannot create a temporary directory");
	snprintf(shared, sizeof(shared), "%s/shared", dir);

	plan(29);
	test_regular();
	mkdir(shared, 0700);
	chmod(shared, 01777);	/* as /tmp */
	test_links();
	test_devices();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove the temporary directory");
	return done();
}
