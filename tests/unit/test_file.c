// SPDX-License-Identifier: GPL-2.0-or-later
/* test_file - lj_file: small whole-file reads and writes as sysfs values need them. */
#include "lj_file.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path[128];

/* The file's raw bytes, to see what a write left behind. */
static const char *raw(void)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_write(void)
{
	is_int(lj_file_write(path, "performance"), 0, "a value is written");
	is_str(raw(), "performance\n", "...with one newline, as echo writes it");
	is_int(lj_file_write(path, "ps"), 0, "a shorter value is written");
	is_str(raw(), "ps\n", "...and leaves no old bytes behind (O_TRUNC)");
	is_int(lj_file_write(path, "x\n"), 0, "a value ending in a newline");
	is_str(raw(), "x\n", "...gets no second one");
	is_int(lj_file_write(path, ""), 0, "an empty value");
	is_str(raw(), "\n", "...writes a lone newline, as echo does");
	is_int(lj_file_write("/nonexistent/lj_file/x", "1"), -ENOENT, "a missing file is -ENOENT");
}

static void test_write_too_big(void)
{
	char *big = malloc(9000);

	if (!big) {
		skip(1, "out of memory");
		return;
	}
	memset(big, 'a', 8999);
	big[8999] = '\0';
	is_int(lj_file_write(path, big), -E2BIG, "a value over 8 KiB is -E2BIG, not split in two writes");
	free(big);
}

static void test_read(void)
{
	char buf[8];

	lj_file_write(path, "0-3");
	is_int(lj_file_read(path, buf, sizeof(buf)), 3, "read returns the length without the newline");
	is_str(buf, "0-3", "...and the text");
	lj_file_write(path, "0123456789");
	is_int(lj_file_read(path, buf, sizeof(buf)), 7, "a long file is cut at len - 1");
	is_str(buf, "0123456", "...and NUL-terminated");
	lj_file_write(path, "a\n\n");
	is_int(lj_file_read(path, buf, sizeof(buf)), 1, "all trailing newlines go");
	lj_file_write(path, "");
	ok(lj_file_read(path, buf, sizeof(buf)) == 0 && !buf[0], "an empty value reads as \"\"");
	is_int(lj_file_read(path, buf, 0), -EINVAL, "a zero-length buffer is -EINVAL");
	is_int(lj_file_read("/nonexistent/lj_file/x", buf, sizeof(buf)), -ENOENT, "a missing file is -ENOENT");
	is_int(lj_file_read(dir, buf, sizeof(buf)), -EISDIR, "a directory is -EISDIR");
	lj_file_write(path, "QEMU \n \n");
	ok(!lj_file_read_text(path, buf, sizeof(buf)) && !strcmp(buf, "QEMU"), "read_text: trailing blanks and newlines go");
	is_int(lj_file_read_text("/nonexistent/lj_file/x", buf, sizeof(buf)), -ENOENT, "read_text: -errno as lj_file_read");
}

static void test_parent(void)
{
	char out[64], self[64] = "/sys/fs/cgroup/a/b";

	ok(lj_file_parent("/sys/fs/cgroup/g", out, sizeof(out)) && !strcmp(out, "/sys/fs/cgroup"), "the parent of a path");
	ok(lj_file_parent(self, self, sizeof(self)) && !strcmp(self, "/sys/fs/cgroup/a"), "...in place");
	ok(!lj_file_parent("/sys", out, sizeof(out)) && !strcmp(out, "/sys"), "nothing above a top-level directory");
	ok(!lj_file_parent("relative", out, sizeof(out)), "...nor above a bare name");
}

int main(void)
{
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/test_file.XXXXXX");
	if (!mkdtemp(dir))
		skip_all("cannot create a temporary directory");
	snprintf(path, sizeof(path), "%s/value", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		skip_all("cannot create a temporary file");
	close(fd);
	plan(25);
	test_parent();
	test_write();
	test_write_too_big();
	test_read();
	unlink(path);
	rmdir(dir);
	return done();
}
