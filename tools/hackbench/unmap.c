// SPDX-License-Identifier: GPL-2.0-or-later
/* unmap.c - a forked lj-hackbench worker drops the libraries only the parent calls. */
#include "hb.h"

#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/*
 * Linked for the parent's work (topology, the result document, hashing,
 * compression, the recorder, power) and never called by a worker's loop:
 * a worker that keeps them carries about 40 more mappings than
 * hackbench's, and tears them down at exit inside the timed run. Named,
 * not guessed: the C library, the loader, a sanitizer or valgrind's
 * preloads stay whatever else is mapped.
 */
static const char *const parent_only[] = {
	"libhwloc.so", "libudev.so", "libjson-c.so", "libmd.so", "libz.so",
	"libtracefs.so", "libtraceevent.so", "libcpupower.so",
};

static bool is_parent_only(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(parent_only) / sizeof(parent_only[0]); i++)
		if (!strncmp(base, parent_only[i], strlen(parent_only[i])))
			return true;
	return false;
}

/* The loader maps an object as one reservation: its first to its last loadable segment. */
static int find_span(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct hb_libspans *sp = arg;
	uintptr_t lo = UINTPTR_MAX, hi = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);

	if (!info->dlpi_name || !is_parent_only(info->dlpi_name) || sp->n == HB_MAX_LIBSPANS)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (start < lo)
			lo = start;
		if (start + ph->p_memsz > hi)
			hi = start + ph->p_memsz;
	}
	if (lo < hi) {
		sp->lo[sp->n] = lo & ~(page - 1);
		sp->hi[sp->n] = (hi + page - 1) & ~(page - 1);
		sp->n++;
	}
	return 0;
}

/*
 * In the parent, before the first fork: where the parent-only libraries
 * are mapped (the workers inherit the same addresses, and look nothing
 * up themselves: reading the program headers would fault pages in).
 * Sanitizer builds drop nothing: their runtime may walk any mapping.
 */
void hb_libspans_find(struct hb_libspans *sp)
{
	sp->n = 0;
	if (!LJ_SANITIZED)
		dl_iterate_phdr(find_span, sp);
}

/*
 * In a forked worker, before it says ready: unmap them, so that their
 * teardown happens before the clock starts (hackbench's workers have
 * none). Return: the number of objects dropped, or -errno.
 */
int hb_libspans_unmap(const struct hb_libspans *sp)
{
	for (int i = 0; i < sp->n; i++)
		if (munmap((void *)sp->lo[i], sp->hi[i] - sp->lo[i]))
			return -errno;
	return sp->n;
}
