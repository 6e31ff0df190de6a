// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_prefault - make the pages a measuring loop executes resident before it runs. */
#include "lj_prefault.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int lj_prefault_wanted(const char *path, const char *exe)
{
	const char *base = strrchr(path, '/');

	if (!*path)
		return 0;
	if (!strcmp(path, exe) || !strcmp(path, "[vdso]"))
		return 1;
	base = base ? base + 1 : path;
	return 0;
}

/*
 * Touch [lo, hi): read-only pages are read, writable ones rewritten
 * atomically. Not instrumented: a page's first byte may sit in the
 * address sanitizer's redzone between two globals.
 */
__attribute__((no_sanitize_address))
static long touch_range(uintptr_t lo, uintptr_t hi, int writable, size_t page)
{
	long n = 0;

	for (uintptr_t a = lo; a < hi; a += page, n++) {
		if (writable)
			/* Atomic: a signal handler may write the same byte meanwhile. */
			__atomic_fetch_add((volatile unsigned char *)a, 0, __ATOMIC_RELAXED);
		else
			(void)*(volatile const unsigned char *)a;
	}
	return n;
}

long lj_prefault_images(void)
{
	const long ps = sysconf(_SC_PAGESIZE);
	const size_t page = ps > 0 ? (size_t)ps : 4096;
	char exe[PATH_MAX], line[PATH_MAX + 128], perms[8], path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uintptr_t lo, hi;
	long total = 0;
	FILE *f;

	exe[len > 0 ? len : 0] = '\0';
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %*s %4095[^\n]",
			   &lo, &hi, perms, path) < 3)
			continue;
		if (perms[0] != 'r' || !lj_prefault_wanted(path, exe))
			continue;
		/* The vdso is the kernel's: never written. */
		total += touch_range(lo, hi, perms[1] == 'w' && path[0] != '[', page);
	}
	fclose(f);
	return total;
}
