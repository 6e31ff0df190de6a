// SPDX-License-Identifier: GPL-2.0-or-later
/* test_prefault - which mappings are prefaulted, and that prefaulting makes them resident. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lj_hot.h"
#include "lj_prefault.h"
#include "tap.h"

static void test_wanted(void)
{
	const char *exe = "/usr/bin/lj-cyclic";

	ok(lj_prefault_wanted(exe, exe), "the program's own image");
	ok(lj_prefault_wanted("[vdso]", exe), "the vdso");
	ok(!lj_prefault_wanted("", exe), "not an anonymous mapping");
	ok(!lj_prefault_wanted("/usr/lib/x86_64-linux-gnu/libhwloc.so.15", exe), "not hwloc");
	ok(!lj_prefault_wanted("/usr/lib/x86_64-linux-gnu/libc.so.6", exe), "not the C library (tools rehearse its calls)");
	ok(!lj_prefault_wanted("/usr/bin/lj-cyclic.old", exe), "not a path that only starts like the program's");
	ok(!lj_prefault_wanted("[heap]", exe), "not the heap");
}

extern const char __executable_start[], etext[];

/* Pages of [@lo, @hi) resident in this process (mincore), or -1. */
static long resident_pages(const char *lo, const char *hi, long *total)
{
	const long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)lo & ~((uintptr_t)page - 1);
	size_t n = ((uintptr_t)hi - start + (size_t)page - 1) / (size_t)page;
	static unsigned char vec[65536];
	long count = 0;

	if (n > sizeof(vec))
		n = sizeof(vec);
	*total = (long)n;
	if (mincore((void *)start, n * (size_t)page, vec))
		return -1;
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1;
	return count;
}

static void test_touch(void)
{
	long pages = lj_prefault_images(), total = 0, resident;

	ok(pages > 0, "lj_prefault_images touched pages of this program");
	resident = resident_pages(__executable_start, etext, &total);
	ok(total > 0 && resident == total, "all pages of the program's code are resident after it");
}

/* A function of the hot section: this program has one. */
static int LJ_HOT __attribute__((noinline)) hot_twice(int x)
{
	return 2 * x;
}

/* Every page of the hot section is touched (in a program this small, the whole image may be as few pages). */
static void test_hot(void)
{
	extern const char __start_lj_hot_text[], __stop_lj_hot_text[];
	long hot = lj_prefault_hot(), whole = lj_prefault_images(), total = 0, resident;
	char what[128];

	snprintf(what, sizeof(what), "lj_prefault_hot touched %ld pages, no more than the whole image's %ld",
		 hot, whole);
	ok(hot > 0 && hot <= whole && hot_twice(2) == 4, what);
	resident = resident_pages(__start_lj_hot_text, __stop_lj_hot_text, &total);
	ok(total > 0 && resident == total, "every page of the hot section is resident");
}

/* A fresh shared mapping is not resident until written; the range from mid-page 1 to mid-page 4 is. */
static void test_range(void)
{
	const long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 6 * (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long total = 0;

	if (m == MAP_FAILED) {
		skip(3, "mmap failed");
		return;
	}
	ok(resident_pages(m, m + 6 * page, &total) == 0, "a fresh shared mapping has no page resident");
	is_int(lj_prefault_range(m + page + 100, 3 * (size_t)page), 4,
	       "lj_prefault_range touches every page the range reaches (4 of them)");
	ok(resident_pages(m + page, m + 5 * page, &total) == 4 && resident_pages(m, m + page, &total) == 0 &&
	   resident_pages(m + 5 * page, m + 6 * page, &total) == 0, "...those 4 and no others are resident");
	munmap(m, 6 * (size_t)page);
}

int main(void)
{
	plan_no_plan();
	test_wanted();
	test_touch();
	test_hot();
	test_range();
	return done();
}
