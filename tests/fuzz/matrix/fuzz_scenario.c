// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_scenario - lj-matrix's scenario parser on any text, and on what it
 * accepts, the expansion lj-matrix does next: cell ids, workload commands
 * with ${axis} substituted, loads and the run order (a permutation).
 */
#include "../fuzz.h"
#include "../../../tools/matrix/scenario.h"

#include <errno.h>

/* Expand at most this many cells (first ones and the last): enough to reach every branch. */
#define FUZZ_CELLS 64

static void expand(const struct lj_scenario *s)
{
	size_t n = lj_scenario_ncells(s), *order;
	struct lj_scenario_cell c;
	char id[1024];

	fuzz_assert(n <= LJ_SCENARIO_MAX_CELLS);
	for (size_t i = 0; i < n; i = (i + 1 == FUZZ_CELLS && n > FUZZ_CELLS) ? n - 1 : i + 1) {
		char *cmd;

		fuzz_assert(!lj_scenario_cell(s, i, &c));
		fuzz_assert(c.index == i && c.workload >= 0 && c.workload < s->nworkloads);
		lj_scenario_cell_id(s, &c, id, sizeof(id));
		cmd = lj_scenario_command(s, &c);
		fuzz_assert(cmd);
		free(cmd);
		for (int a = 0; a < s->naxes; a++)
			fuzz_assert(lj_scenario_value(s, &c, s->axes[a].name));
	}
	fuzz_assert(lj_scenario_cell(s, n, &c) == -ERANGE);
	lj_scenario_find_load(s, "hackbench");
	for (int l = 0; l < s->nloads; l++)
		fuzz_assert(lj_scenario_find_load(s, s->loads[l].name));
	if (n > FUZZ_CELLS)
		return;
	order = calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return;
	lj_scenario_run_order(s, 42, order, n);
	for (size_t i = 0; i < n; i++) {
		fuzz_assert(order[i] < n);
		for (size_t k = 0; k < i; k++)
			fuzz_assert(order[k] != order[i]);
	}
	free(order);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lj_scenario *s = NULL;
	char err[512] = "";
	char *text = fuzz_string(data, size);

	if (!text)
		return 0;
	if (lj_scenario_parse("fuzz.scn", text, &s, err, sizeof(err))) {
		fuzz_assert(!s && err[0]);
	} else {
		fuzz_assert(s);
		expand(s);
		lj_scenario_free(s);
	}
	free(text);
	return 0;
}
