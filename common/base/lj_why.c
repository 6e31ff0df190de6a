// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_why - error detail into the caller's buffer: the one way library code says why. */
#include "lj_why.h"

#include <stdarg.h>
#include <stdio.h>

static void vwhy(char *why, size_t len, const char *fmt, va_list ap)
{
	if (why && len)
		vsnprintf(why, len, fmt, ap);
}

void lj_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwhy(why, len, fmt, ap);
	va_end(ap);
}

int lj_why_err(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwhy(why, len, fmt, ap);
	va_end(ap);
	return err;
}
