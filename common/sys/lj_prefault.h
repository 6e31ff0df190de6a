/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_prefault - make the pages a measuring loop executes resident before it runs. */
#ifndef LJ_PREFAULT_H
#define LJ_PREFAULT_H

#include <stddef.h>

/*
 * Touch every page of the program's own image, the dynamic loader (lazy
 * binding runs there) and the vdso (code read, private data rewritten in
 * place with an atomic add of 0), so that under mlockall(MCL_ONFAULT)
 * they are resident and locked before the first measured wake-up. The
 * shared libraries are left alone: the C library's few functions a loop
 * calls, each tool calls once before measuring (cyclic's rehearse()); the
 * others (hwloc, json-c, zlib, ...) the loops never run, and locking all
 * of them made lj-cyclic's resident memory 1.7 MiB larger than
 * cyclictest's (lj-cyclic now links them in: lj_prefault_hot). Call it
 * while only one thread runs.
 * Return: the number of pages touched, or -errno (/proc unreadable).
 */
long lj_prefault_images(void);

/*
 * For a tool whose measuring threads run only LJ_HOT code (lj_hot.h):
 * as lj_prefault_images, but of the program's executable pages only the
 * section lj_hot_text; its data, read-only data and the vdso whole. A
 * program without that section is prefaulted whole.
 * Return: the number of pages touched, or -errno.
 */
long lj_prefault_hot(void);

/*
 * Write one byte (an atomic add of 0) in every page of @len bytes at @p,
 * so that memory still untouched (fresh zero pages, a shared mapping) is
 * allocated and mapped writable now, not at its first use in a timed or
 * measured section. Return: the number of pages touched.
 */
long lj_prefault_range(void *p, size_t len);

/*
 * Whether the mapping of @path (a /proc/self/maps path, "" for an
 * anonymous one) is one lj_prefault_images touches, given the program's
 * own path @exe. Pure; exposed for the unit test.
 */
int lj_prefault_wanted(const char *path, const char *exe);

#endif
