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

#define MAX_DROP 16

struct spans {
	uintptr_t lo[MAX_DROP], hi[MAX_DROP];
	int n;
	uintptr_t page;
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
	struct spans *sp = arg;
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	if (!info->dlpi_name || !is_parent_only(info->dlpi_name) || sp->n == MAX_DROP)
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
		sp->lo[sp->n] = lo & ~(sp->page - 1);
		sp->hi[sp->n] = (hi + sp->page - 1) & ~(sp->page - 1);
		sp->n++;
	}
	return 0;
}

/*
 * In a forked worker, before it says ready: unmap the parent-only
 * libraries (their teardown then happens before the clock starts, as
 * hackbench's workers have none). Return: the number of objects
 * dropped, or -errno of the munmap that failed. Sanitizer builds keep
 * everything: their runtime may walk any mapping.
 */
int hb_worker_unmap_libs(void)
{
	struct spans sp = { .n = 0, .page = (uintptr_t)sysconf(_SC_PAGESIZE) };

	if (LJ_SANITIZED)
		return 0;
	dl_iterate_phdr(find_span, &sp);
	for (int i = 0; i < sp.n; i++)
		if (munmap((void *)sp.lo[i], sp.hi[i] - sp.lo[i]))
			return -errno;
	return sp.n;
}
