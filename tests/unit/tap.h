/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h - the project's small TAP producer for unit tests (prove reads it). */
#ifndef LJ_TAP_H
#define LJ_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A test program calls plan(N) (or plan_no_plan()), then ok/is_* per
 * behaviour, and returns done(). A failure prints where it happened, what
 * was expected and what came, as TAP diagnostics. skip() prints "ok N #
 * SKIP reason", which prove counts as a skip, never as a failure.
 */

static int tap_run, tap_failed, tap_planned = -1;

static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void plan_no_plan(void)
{
	tap_planned = -1;
}

static inline void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

static inline __attribute__((format(printf, 1, 2))) void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static inline int tap_ok(int cond, const char *file, int line, const char *name)
{
	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_run, name);
	if (!cond)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return cond;
}

static inline void skip(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tap_run, why);
	fflush(stdout);
}

static inline int done(void)
{
	if (tap_planned < 0)
		printf("1..%d\n", tap_run);
	else if (tap_planned != tap_run)
		printf("# planned %d tests but ran %d\n", tap_planned, tap_run);
	fflush(stdout);
	return tap_failed || (tap_planned >= 0 && tap_planned != tap_run);
}

#define ok(cond, name) tap_ok(!!(cond), __FILE__, __LINE__, (name))

#define is_int(got, want, name) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	if (!tap_ok(g_ == w_, __FILE__, __LINE__, (name)))		\
		printf("#   expected %lld\n#        got %lld\n", w_, g_); \
} while (0)

#define is_str(got, want, name) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int same_ = (g_ && w_) ? !strcmp(g_, w_) : g_ == w_;		\
	if (!tap_ok(same_, __FILE__, __LINE__, (name)))		\
		printf("#   expected '%s'\n#        got '%s'\n",	\
		       w_ ? w_ : "(null)", g_ ? g_ : "(null)");		\
} while (0)

/* |got - want| <= tol */
#define is_near(got, want, tol, name) do {				\
	double g_ = (double)(got), w_ = (double)(want), t_ = (double)(tol); \
	double d_ = g_ > w_ ? g_ - w_ : w_ - g_;			\
	if (!tap_ok(d_ <= t_, __FILE__, __LINE__, (name)))		\
		printf("#   expected %g (+-%g)\n#        got %g\n", w_, t_, g_); \
} while (0)

#endif
