// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_err - diagnostics, verbosity and exit codes. */
#include "lj_err.h"
#include "lj_printable.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *prog = "ljkit";
static int verbosity;
static int out_err;		/* stdout's first write error, said once */

void lj_err_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		prog = slash ? slash + 1 : argv0;
}

const char *lj_prog(void)
{
	return prog;
}

void lj_err_set_verbosity(int level)
{
	verbosity = level;
}

int lj_err_verbosity(void)
{
	return verbosity;
}

const char *lj_strerror(int err)
{
	return strerror(err < 0 ? -err : err);
}

static void vsay(const char *prefix, int err, const char *fmt, va_list ap)
{
	/* One fprintf per line, so lines from threads do not interleave. */
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* Names and values in messages come from files and argv. */
	lj_printable(msg);
	if (err)
		fprintf(stderr, "%s: %s%s: %s\n", prog, prefix, msg, lj_strerror(err));
	else
		fprintf(stderr, "%s: %s%s\n", prog, prefix, msg);
}

void lj_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", 0, fmt, ap);
	va_end(ap);
}

void lj_error_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", err, fmt, ap);
	va_end(ap);
}

void lj_warn(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	vsay("warning: ", 0, fmt, ap);
	va_end(ap);
}

void lj_warn_errno(int err, const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 0)
		return;
	va_start(ap, fmt);
	vsay("warning: ", err, fmt, ap);
	va_end(ap);
}

void lj_info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	vsay("", 0, fmt, ap);
	va_end(ap);
}

int lj_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", 0, fmt, ap);
	va_end(ap);
	return LJ_EXIT_USAGE;
}

int lj_exit_code(int ret)
{
	if (ret >= 0)
		return ret;
	switch (-ret) {
	case EPERM:
	case EACCES:
	case ENOTSUP:
	case ENODEV:
		return LJ_EXIT_NOCAP;
	case EINVAL:
	case ERANGE:
		return LJ_EXIT_USAGE;
	default:
		return LJ_EXIT_RUNTIME;
	}
}

static int out_said;

void lj_fflush(FILE *f)
{
	errno = 0;
	if ((fflush(f) == EOF || ferror(f)) && f == stdout && !out_err)
		out_err = errno ? -errno : -EIO;
}

int lj_out_flush(void)
{
	lj_fflush(stdout);
	if (out_err && !out_said) {
		out_said = 1;
		lj_error_errno(out_err, "cannot write the report to standard output");
	}
	return out_err;
}

int lj_exit_flushed(int ret)
{
	return lj_out_flush() ? LJ_EXIT_RUNTIME : ret;
}
