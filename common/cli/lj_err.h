/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_err - diagnostics (prog: what failed: why), verbosity and exit codes. */
#ifndef LJ_ERR_H
#define LJ_ERR_H

#include <stdbool.h>
#include <stdio.h>

/* Exit codes shared by every tool (docs/architecture.md, "Errors"). */
enum lj_exit {
	LJ_EXIT_OK = 0,
	LJ_EXIT_RUNTIME = 1,	/* a runtime error */
	LJ_EXIT_USAGE = 2,	/* usage or bad input */
	LJ_EXIT_THRESHOLD = 3,	/* run completed, a threshold/budget/gate failed */
	LJ_EXIT_NOCAP = 77,	/* capability missing and --strict, or nothing could run */
};

/* Set once from main(): the name every message starts with. */
void lj_err_init(const char *argv0);
const char *lj_prog(void);

/* -1 quiet, 0 normal, >0 more detail (-v). */
void lj_err_set_verbosity(int level);
int lj_err_verbosity(void);

/*
 * All of these write one line "prog: message" to stderr. lj_err_errno
 * appends ": strerror(-err)"; @err is a negative errno as library code
 * returns it.
 */
void lj_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lj_error_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lj_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lj_warn_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lj_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* verbosity >= 1 */

/* Print "prog: message" and return LJ_EXIT_USAGE, for option handlers. */
int lj_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The report on standard output is the product: a report lost to a full
 * disk or /dev/full must not end in exit 0. lj_out_flush flushes stdout
 * and, the first time it finds it failed, says so in one line
 * ("prog: cannot write the report to standard output: No space left on
 * device"). Return: 0 or -errno. lj_exit_flushed(ret) is main()'s last
 * word: @ret, or LJ_EXIT_RUNTIME when stdout failed (a gate whose table
 * was lost must not pass, nor fail as if it had been read).
 */
int lj_out_flush(void);
int lj_exit_flushed(int ret);
/* fflush(@f) that keeps stdout's first error (its errno) for lj_out_flush to say. */
void lj_fflush(FILE *f);

/* strerror for a negative errno, tolerant of positive values. */
const char *lj_strerror(int err);

/* Map a library return (0, an exit code, or -errno) to an exit code: missing
 * privilege or capability (-EPERM, -EACCES, -ENOTSUP, -ENODEV) gives 77, bad
 * values (-EINVAL, -ERANGE) 2, anything else 1. */
int lj_exit_code(int ret);

#endif
