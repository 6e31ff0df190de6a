// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_file - whole reads and writes of small files (sysfs, procfs, cgroupfs); no stdio, for undo paths. */
#include "lj_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

ssize_t lj_file_read(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	while (got > 0 && buf[got - 1] == '\n')
		buf[--got] = '\0';
	return got;
}

int lj_file_read_text(const char *path, char *buf, size_t len)
{
	ssize_t n = lj_file_read(path, buf, len);

	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int lj_file_write(const char *path, const char *value)
{
	size_t len = strlen(value);
	char buf[8192];
	ssize_t n;
	int fd, ret = 0;

	/*
	 * One write of the value and a newline, as echo does: the kernel
	 * takes either, and a fake sysfs file then reads back exactly as the
	 * real one did (a restored file is byte-identical).
	 */
	if (len + 2 > sizeof(buf))
		return -E2BIG;
	memcpy(buf, value, len);
	if (!len || value[len - 1] != '\n')
		buf[len++] = '\n';
	/* O_TRUNC: on a fake sysfs tree a shorter value must not leave old bytes. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

bool lj_file_parent(const char *path, char *out, size_t len)
{
	char *slash;

	if (out != path) {	/* no stdio here: undo paths run in signal context */
		size_t n = strnlen(path, len - 1);

		memcpy(out, path, n);
		out[n] = '\0';
	}
	slash = strrchr(out, '/');
	if (!slash || slash == out)
		return false;
	*slash = '\0';
	return true;
}
