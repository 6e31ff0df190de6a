// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_cpus - CPU selectors (all, online, big, little, big:N, lists)
 * against fixture machines (hwloc XML under tests/fixtures): the first
 * input byte picks the machine, the rest is the selector. A selection
 * that succeeds is a non-empty subset of the machine's allowed CPUs.
 */
#include "fuzz.h"
#include "lj_cpus.h"
#include "lj_err.h"
#include "../unit/fixture_topo.h"

static const char *const machines[] = {
	"biglittle-2+2.xml", "biglittle-restricted.xml", "smt-2socket.xml",
	"unranked-coretype.xml", "unranked-freq.xml",
};
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))
static struct lj_topo topo[NMACHINES];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	for (size_t i = 0; i < NMACHINES; i++) {
		if (fixture_load(&topo[i], machines[i])) {
			fprintf(stderr, "fuzz_cpus: cannot load tests/fixtures/%s (set LJ_SRC or run "
				"from the top of the tree)\n", machines[i]);
			exit(1);
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lj_topo *t;
	struct lj_cpu_selection sel;
	char why[256] = "";
	cpu_set_t outside;
	char *s;

	if (!size)
		return 0;
	t = &topo[data[0] % NMACHINES];
	s = fuzz_string(data + 1, size - 1);
	if (!s)
		return 0;
	if (!lj_cpus_select(t, s, &sel, why, sizeof(why))) {
		fuzz_assert(CPU_COUNT(&sel.set) > 0);
		CPU_AND(&outside, &sel.set, &t->allowed);
		fuzz_assert(CPU_EQUAL(&outside, &sel.set));
		fuzz_assert(memchr(sel.spec, '\0', sizeof(sel.spec)) &&
			    memchr(sel.note, '\0', sizeof(sel.note)));
	} else {
		fuzz_assert(why[0]);
	}
	free(s);
	return 0;
}
