// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_prefault - make the pages a measuring loop executes resident before it runs. */
#include "lj_prefault.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
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

/* The hot section's bounds, defined by the linker when the program has one. */
extern const char __start_lj_hot_text[] __attribute__((weak));
extern const char __stop_lj_hot_text[] __attribute__((weak));

/* dl_iterate_phdr's first object is the program: where its PT_GNU_EH_FRAME starts. */
static int eh_frame_of_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			*(uintptr_t *)arg = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	return 1;
}

/*
 * Touch the mappings lj_prefault_wanted names; with @hot_only, of the
 * program's executable mappings only the part inside [hot_lo, hot_hi),
 * and of its read-only data not the unwind tables.
 */
/*
 * lj_prefault_hot's part of the mapping [*lo, *hi) (@code: an executable
 * one): the hot section of the code; the read-only data but the unwind
 * tables (.eh_frame_hdr and .eh_frame, from @eh on), which no loop reads.
 */
static void clip(uintptr_t *lo, uintptr_t *hi, bool code, uintptr_t hot_lo, uintptr_t hot_hi,
		 uintptr_t eh, size_t page)
{
	if (code) {
		*lo = *lo > hot_lo ? *lo : hot_lo & ~(uintptr_t)(page - 1);
		*hi = *hi < hot_hi ? *hi : hot_hi;
	} else if (eh > *lo && eh < *hi) {
		*hi = eh;
	}
}

static long prefault(bool hot_only, uintptr_t hot_lo, uintptr_t hot_hi)
{
	const long ps = sysconf(_SC_PAGESIZE);
	const size_t page = ps > 0 ? (size_t)ps : 4096;
	char exe[PATH_MAX], line[PATH_MAX + 128], perms[8], path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uintptr_t lo, hi, eh = 0;
	long total = 0;
	FILE *f;

	exe[len > 0 ? len : 0] = '\0';
	if (hot_only)
		dl_iterate_phdr(eh_frame_of_program, &eh);
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
		if (hot_only && path[0] != '[')
			clip(&lo, &hi, perms[2] == 'x', hot_lo, hot_hi, eh, page);
		/* The vdso is the kernel's: never written. */
		total += touch_range(lo, hi, perms[1] == 'w' && path[0] != '[', page);
	}
	fclose(f);
	return total;
}

long lj_prefault_range(void *p, size_t len)
{
	const long ps = sysconf(_SC_PAGESIZE);
	const uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
	uintptr_t lo = (uintptr_t)p & ~(page - 1);

	return len ? touch_range(lo, (uintptr_t)p + len, 1, page) : 0;
}

long lj_prefault_images(void)
{
	return prefault(false, 0, 0);
}

long lj_prefault_hot(void)
{
	uintptr_t lo = (uintptr_t)__start_lj_hot_text, hi = (uintptr_t)__stop_lj_hot_text;

	if (!lo || hi <= lo)
		return prefault(false, 0, 0);
	return prefault(true, lo, hi);
}
