// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_shell - quoting for sh. */
#include "lj_shell.h"

#include <stdlib.h>
#include <string.h>

char *lj_shell_quote(const char *s)
{
	size_t n = 3;
	char *out, *o;

	for (const char *c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	out = malloc(n);
	if (!out)
		return NULL;
	o = out;
	*o++ = '\'';
	for (const char *c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}
