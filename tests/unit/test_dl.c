// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dl - lj_dl: a library's functions bound from the program's own references, else dlopen'd by SONAME. */
#include "lj_dl.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

/* Functions of libc, which every program has: their slots bound either way must be the same functions. */
#define LIBC_FNS(X) X(strlen) X(strchr)

static void test_linked(void)
{
	LJ_DL_TABLE(t, "libc.so.6", LIBC_FNS);
	char why[256] = "x";

	is_int(LJ_DL_BIND(t, LIBC_FNS, why, sizeof(why)), 0, "linked: the program's own functions bind");
	ok(t.fn[lj_dl_index_strlen] == (void *)strlen, "linked: the slot is the program's strlen");
	is_int((int)LJ_DL_FN(t, strlen)("four"), 4, "linked: and calls as strlen");
	ok(!strcmp(why, "x"), "linked: why untouched on success");
}

static void test_loaded(void)
{
	LJ_DL_TABLE(t, "libc.so.6", LIBC_FNS);
	void *none[2] = { NULL, NULL };

	is_int(lj_dl_bind(&t, none, NULL, 0), 0, "not linked: bound from the library loaded by SONAME");
	is_int((int)LJ_DL_FN(t, strlen)("three"), 5, "not linked: the loaded strlen counts");
	ok(LJ_DL_FN(t, strchr)("abc", 'c') != NULL, "not linked: every slot filled");
}

static void test_missing(void)
{
	static const char *const names[] = { "strlen" }, *const bogus[] = { "strlen", "lj_no_such_function" };
	void *fn[2], *none[2] = { NULL, NULL };
	struct lj_dl lib = { "libljkit-no-such-library.so.0", names, fn, 1, 1, "" };
	struct lj_dl sym = { "libc.so.6", bogus, fn, 2, 1, "" };
	char why[256];

	is_int(lj_dl_bind(&lib, none, why, sizeof(why)), -ENOENT, "a library that is not there: -ENOENT");
	ok(strstr(why, "libljkit-no-such-library.so.0") != NULL, "with dlerror's text naming it");
	why[0] = '\0';
	is_int(lj_dl_bind(&lib, none, why, sizeof(why)), -ENOENT, "a second bind returns the first one's result");
	ok(strstr(why, "libljkit-no-such-library") != NULL, "and its reason");
	is_int(lj_dl_bind(&sym, none, why, sizeof(why)), -ENOSYS, "a function the library lacks: -ENOSYS");
	is_str(why, "libc.so.6 has no lj_no_such_function", "named");
}

int main(void)
{
	plan_no_plan();
	test_linked();
	test_loaded();
	test_missing();
	return done();
}
