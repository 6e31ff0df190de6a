// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_journal - the setup journal's parser (parsing only: nothing is
 * replayed) on any bytes. Every entry it returns has a path, a file
 * entry an old value, and the count matches what was allocated.
 */
#include "fuzz.h"
#include "lj_setup_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lj_setup_jfile j;

	if (lj_setup_journal_parse((const char *)data, size, &j))
		return 0;
	fuzz_assert(j.n >= 0 && (j.n == 0 || j.e));
	fuzz_assert(memchr(j.prog, '\0', sizeof(j.prog)));
	for (int i = 0; i < j.n; i++) {
		fuzz_assert(j.e[i].path);
		fuzz_assert(j.e[i].kind != LJ_SETUP_FILE || j.e[i].old);
		(void)strlen(j.e[i].path);
	}
	lj_setup_journal_free(&j);
	return 0;
}
