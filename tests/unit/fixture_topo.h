/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fixture_topo.h - load an hwloc XML fixture from tests/fixtures as the machine. */
#ifndef LJ_FIXTURE_TOPO_H
#define LJ_FIXTURE_TOPO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lj_topo.h"

/*
 * HWLOC_XMLFILE substitutes the machine; HWLOC_THISSYSTEM=1 keeps hwloc
 * treating it as this system (binding allowed). Fixtures are found under
 * $LJ_SRC (set by make check) or the current directory (prove from the
 * top of the tree). Returns lj_topo_load's result, -ENOENT without file.
 */
static inline int fixture_load(struct lj_topo *t, const char *name)
{
	const char *src = getenv("LJ_SRC");
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : ".", name);
	if (access(path, R_OK))
		return -ENOENT;
	setenv("HWLOC_XMLFILE", path, 1);
	setenv("HWLOC_THISSYSTEM", "1", 1);
	ret = lj_topo_load(t, NULL, 0);
	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_THISSYSTEM");
	return ret;
}

/* A cpu_set_t from a list, for comparisons ("" is the empty set). */
static inline cpu_set_t fixture_set(const char *list)
{
	cpu_set_t set;
	const char *p = list;

	CPU_ZERO(&set);
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (; lo <= hi; lo++)
			CPU_SET((int)lo, &set);
		p = *end ? end + 1 : end;
	}
	return set;
}

#endif
