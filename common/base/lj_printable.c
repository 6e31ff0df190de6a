// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_printable - text from outside (argv, files, a trace's task names) made safe to show on a terminal. */
#include "lj_printable.h"

#include <stdio.h>

char *lj_printable(char *s)
{
	for (char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return s;
}

char *lj_printable_copy(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s ? s : "");
	return lj_printable(buf);
}
