/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_file - whole reads and writes of small files: sysfs, procfs, cgroupfs values. */
#ifndef LJ_FILE_H
#define LJ_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * lj_file_read - read up to @len - 1 bytes of @path into @buf, NUL-terminated,
 * without trailing newlines. Plain open/read/close, no stdio, so that undo
 * paths in signal context may use it. @len must be at least 1.
 * Return: the length kept, or -errno.
 */
ssize_t lj_file_read(const char *path, char *buf, size_t len);

/*
 * lj_file_read_text - lj_file_read without trailing blanks either (DMI
 * names, /sys/hypervisor/type pad with them). Return: 0 or -errno.
 */
int lj_file_read_text(const char *path, char *buf, size_t len);

/*
 * lj_file_write - write @value and a newline (unless it ends in one) to
 * @path in one write(2), with O_TRUNC, as `echo value > path` does.
 * Return: 0, -E2BIG for a value over 8 KiB, -EIO on a short write, or -errno.
 */
int lj_file_write(const char *path, const char *value);

/*
 * lj_file_parent - the directory holding @path ("/a/b" for "/a/b/c") into
 * @out, which may be @path itself. Return: false when @path has no parent
 * below "/" (@out is then a copy of @path).
 */
bool lj_file_parent(const char *path, char *out, size_t len);

#endif
