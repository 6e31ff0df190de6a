// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_dl - a library's functions called through slots, bound at first use, when the program may not link it. */
#include "lj_dl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lj_why.h"

static bool all_linked(const struct lj_dl *dl, void *const *linked)
{
	for (size_t i = 0; i < dl->n; i++)
		if (!linked[i])
			return false;
	return true;
}

static int load(struct lj_dl *dl)
{
	void *h;
	const char *e;

	dlerror();
	h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		e = dlerror();
		lj_why(dl->why, sizeof(dl->why), "%s", e ? e : dl->soname);
		return -ENOENT;
	}
	/* Never closed: the slots point into it for the rest of the process. */
	for (size_t i = 0; i < dl->n; i++) {
		dl->fn[i] = dlsym(h, dl->names[i]);
		if (!dl->fn[i]) {
			lj_why(dl->why, sizeof(dl->why), "%s has no %s", dl->soname, dl->names[i]);
			return -ENOSYS;
		}
	}
	return 0;
}

int lj_dl_bind(struct lj_dl *dl, void *const *linked, char *why, size_t len)
{
	if (dl->err == 1) {
		dl->why[0] = '\0';
		if (all_linked(dl, linked)) {
			memcpy(dl->fn, linked, dl->n * sizeof(*dl->fn));
			dl->err = 0;
		} else {
			dl->err = load(dl);
		}
	}
	if (dl->err)
		lj_why(why, len, "%s", dl->why);
	return dl->err;
}
