/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_why - error detail into the caller's buffer: the one way library code says why. */
#ifndef LJ_WHY_H
#define LJ_WHY_H

#include <stddef.h>

/*
 * Library functions return 0 or -errno and never print; where the errno
 * alone would not tell a user what to fix, they take (char *why, size_t
 * len) and fill it with this (docs/architecture.md, "Errors"). A NULL or
 * empty buffer is allowed: the caller did not ask.
 */
void lj_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* lj_why, then return @err: "return lj_why_err(why, len, -EINVAL, ...);" in one line. */
int lj_why_err(char *why, size_t len, int err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
