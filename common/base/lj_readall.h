/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_readall - read a whole input file with a size bound: results, manifests, scenarios. */
#ifndef LJ_READALL_H
#define LJ_READALL_H

#include <stddef.h>

/*
 * lj_readall - read all of @path, a regular file of at most @max bytes,
 * into a malloc'd NUL-terminated buffer *@out (its length in *@len).
 * "-" reads standard input with the same bound. A FIFO, device or
 * directory where a file is meant is refused without blocking on it (the
 * open does not wait for a writer), and so is a file that grows past
 * @max while it is read. Return: 0; -EINVAL with @why "not a regular
 * file"; -EFBIG with @why "larger than N bytes"; -ENOMEM; or the
 * open/read -errno with @why its strerror. @why (@why_len bytes, may be
 * NULL) is the caller's buffer (lj_why); "" on success.
 */
int lj_readall(const char *path, size_t max, char **out, size_t *len, char *why, size_t why_len);

#endif
