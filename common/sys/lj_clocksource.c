// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_clocksource.c - the kernel's current clocksource from sysfs. */
#include "lj_clocksource.h"

#include <errno.h>

#include "lj_file.h"

#define CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0/current_clocksource"

int lj_clocksource(char *buf, size_t len)
{
	ssize_t n;

	if (!len)
		return -EINVAL;
	n = lj_file_read(CLOCKSOURCE, buf, len);
	if (n < 0) {
		buf[0] = '\0';
		return (int)n;
	}
	return 0;
}
