// SPDX-License-Identifier: GPL-2.0-or-later
/* test_readall - lj_readall: the bound, regular files only, FIFOs refused without blocking. */
#include "lj_readall.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/lj-readall-XXXXXX";

static void write_file(const char *path, size_t n)
{
	FILE *f = fopen(path, "w");

	for (size_t i = 0; f && i < n; i++)
		fputc('a' + (int)(i % 26), f);
	if (f)
		fclose(f);
}

int main(void)
{
	char path[256], fifo[256], why[256], *buf = NULL;
	size_t len = 0;
	int ret;

	plan_no_plan();
	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	snprintf(path, sizeof(path), "%s/f", dir);
	write_file(path, 100);

	ret = lj_readall(path, 100, &buf, &len, why, sizeof(why));
	ok(ret == 0 && len == 100 && buf && buf[100] == '\0' && !strncmp(buf, "abc", 3),
	   "a file of exactly the bound is read whole, NUL-terminated");
	free(buf);
	ret = lj_readall(path, 99, &buf, &len, why, sizeof(why));
	ok(ret == -EFBIG && !buf && !strcmp(why, "larger than 99 bytes"),
	   "one byte over the bound: -EFBIG, 'larger than 99 bytes'");
	ret = lj_readall(dir, 1000, &buf, &len, why, sizeof(why));
	ok(ret == -EINVAL && !strcmp(why, "not a regular file"), "a directory: not a regular file");
	snprintf(fifo, sizeof(fifo), "%s/p", dir);
	if (!mkfifo(fifo, 0600)) {
		/* a blocking open would hang here forever: no writer ever comes */
		ret = lj_readall(fifo, 1000, &buf, &len, why, sizeof(why));
		ok(ret == -EINVAL && !strcmp(why, "not a regular file"),
		   "a FIFO without a writer: refused at once");
		unlink(fifo);
	} else {
		skip(1, "mkfifo failed");
	}
	ret = lj_readall("/dev/zero", 1000, &buf, &len, why, sizeof(why));
	ok(ret == -EINVAL, "/dev/zero: not a regular file");
	ret = lj_readall("/nonexistent/x", 1000, &buf, &len, why, sizeof(why));
	ok(ret == -ENOENT && strstr(why, "No such file"), "a missing file: -ENOENT with its strerror");
	write_file(path, 0);
	ret = lj_readall(path, 10, &buf, &len, why, sizeof(why));
	ok(ret == 0 && len == 0 && buf && !buf[0] && !why[0],
	   "an empty file: an empty string, and the caller's why is emptied");
	free(buf);
	ret = lj_readall(dir, 1000, &buf, &len, NULL, 0);
	ok(ret == -EINVAL && !buf, "no buffer for why: the error alone");
	ret = lj_readall(dir, 1000, &buf, &len, why, 7);
	ok(ret == -EINVAL && !strcmp(why, "not a "), "a short buffer: the phrase cut to fit, NUL-terminated");
	unlink(path);
	rmdir(dir);
	return done();
}
