/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_dl - a library's functions called through slots, bound at first use, when the program may not link it. */
#ifndef LJ_DL_H
#define LJ_DL_H

#include <stddef.h>

/*
 * lj-cyclic links neither hwloc (it discovers the topology in a child
 * process) nor zlib and libmd (only --json's system identity reads the
 * kernel config): a shared library linked in costs its relocated and
 * faulted-around pages at exec, whether a run calls it or not
 * (docs/design.md, "Resident memory"). A module that calls such a
 * library lists the functions it calls in an X-macro, refers to them
 * weakly and calls them through a table:
 *
 *	#define ZLIB_FNS(X) X(gzopen) X(gzread)
 *	ZLIB_FNS(LJ_DL_WEAK)
 *	LJ_DL_TABLE(zlib, LJ_SONAME_ZLIB, ZLIB_FNS);
 *	...
 *	err = LJ_DL_BIND(zlib, ZLIB_FNS, why, len);
 *	gz = LJ_DL_FN(zlib, gzopen)(path, "rb");
 *
 * In a program linked with the library the weak references are its
 * functions and are used as they are (the other tools: their links give
 * the package its Depends; the GNUmakefile links them --no-as-needed,
 * since a weak reference does not make --as-needed keep a library); in
 * one linked without it they are NULL and
 * the library is dlopen'd by the SONAME the GNUmakefile read from the
 * library the other tools link. A module whose calls all go through the
 * table cannot pull the library into a program by accident: any other
 * reference stays strong and such a program fails to link.
 */
struct lj_dl {
	const char *soname;
	const char *const *names;
	void **fn;		/* one slot per name */
	size_t n;
	int err;		/* the first bind's result; 1 = not bound yet */
	char why[160];		/* the first bind's reason, for later callers */
};

/*
 * lj_dl_bind - fill @dl's slots once: with @linked (the program's own
 * addresses of the functions in the order of the names, all NULL when it
 * does not link the library), else with the functions of the library
 * dlopen'd by its SONAME. Not thread-safe: bind before other threads
 * call through the table. A later call returns the first one's result
 * and reason. Return: 0; -ENOENT with @why dlerror's text when the
 * library cannot be loaded; -ENOSYS with @why "SONAME has no NAME" when
 * one of the functions is missing. @why (@len bytes, may be NULL) is the
 * caller's buffer (lj_why).
 */
int lj_dl_bind(struct lj_dl *dl, void *const *linked, char *why, size_t len);

#define LJ_DL_STR_(x) #x
#define LJ_DL_STR(x) LJ_DL_STR_(x)	/* the argument macro-expanded first (zlib's gzopen is gzopen64) */
#define LJ_DL_WEAK_(f) _Pragma(LJ_DL_STR_(weak f))
#define LJ_DL_WEAK(f) LJ_DL_WEAK_(f)
#define LJ_DL_NAME(f) LJ_DL_STR(f),
#define LJ_DL_ADDR(f) (void *)(f),
#define LJ_DL_INDEX(f) lj_dl_index_##f,

/* The table @var of the functions of @list, in the library @soname. */
#define LJ_DL_TABLE(var, soname, list)                                          \
	enum { list(LJ_DL_INDEX) var##_count };                                 \
	static const char *const var##_names[] = { list(LJ_DL_NAME) };          \
	static void *var##_fn[var##_count];                                     \
	static struct lj_dl var = { (soname), var##_names, var##_fn, var##_count, 1, "" }

/* Bind the table @var of @list (lj_dl_bind with the program's own references). */
#define LJ_DL_BIND(var, list, why, len) \
	lj_dl_bind(&(var), (void *const[]){ list(LJ_DL_ADDR) }, (why), (len))

/* Function @f of the bound table @var, as a pointer of @f's own type. */
#define LJ_DL_FN(var, f) ((__typeof__(&(f)))(var).fn[lj_dl_index_##f])

#endif
