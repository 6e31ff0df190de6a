// SPDX-License-Identifier: GPL-2.0-or-later
/* test_cpus - CPU selectors on XML fixtures and the real machine; pinning. */
#include <errno.h>

#include "fixture_topo.h"
#include "lj_cpus.h"
#include "lj_parse.h"
#include "lj_topo.h"
#include "tap.h"

static struct lj_cpu_selection sel;
static char why[256];
static char got[128];

/* Select and return the set as a list, or "error: <why>". */
static const char *pick(const struct lj_topo *t, const char *selector)
{
	why[0] = '\0';
	if (lj_cpus_select(t, selector, &sel, why, sizeof(why)))
		snprintf(got, sizeof(got), "error: %s", why[0] ? why : "(no reason)");
	else
		lj_cpulist_format(&sel.set, got, sizeof(got));
	return got;
}

static void test_biglittle(void)
{
	struct lj_topo t;

	if (fixture_load(&t, "biglittle-2+2.xml")) {
		ok(0, "biglittle-2+2.xml loads");
		return;
	}
	is_str(pick(&t, "big"), "2-3", "2+2: big");
	is_str(sel.note, "", "2+2: big needs no note");
	is_str(sel.spec, "big", "2+2: the selector is kept");
	is_str(pick(&t, "little"), "0-1", "2+2: little");
	is_str(pick(&t, "big:0"), "2", "2+2: big:0 is the first big core");
	is_str(pick(&t, "big:1"), "3", "2+2: big:1");
	is_str(pick(&t, "little:1"), "1", "2+2: little:1");
	is_str(pick(&t, "big:2"), "error: only 2 big cores: big:0 to big:1",
	       "2+2: big:2 names how many cores exist");
	is_int(lj_cpus_select(&t, "big:2", &sel, why, sizeof(why)), -ERANGE, "2+2: big:2 is -ERANGE");
	ok(!strncmp(pick(&t, "big:x"), "error: ", 7), "2+2: big:x is rejected");
	ok(!strncmp(pick(&t, "big:"), "error: ", 7), "2+2: big: is rejected");
	ok(!strncmp(pick(&t, "big:-1"), "error: ", 7), "2+2: big:-1 is rejected");
	ok(!strncmp(pick(&t, "bigger"), "error: unknown selector", 23), "2+2: bigger is unknown");
	is_str(pick(&t, "all"), "0-3", "2+2: all");
	is_str(pick(&t, "online"), "0-3", "2+2: online");
	is_str(pick(&t, "1,3"), "1,3", "2+2: a list");
	is_str(pick(&t, "0-3,6"), "error: CPU 6 does not exist (online: 0-3)",
	       "2+2: a missing CPU is named with what exists");
	is_int(lj_cpus_select(&t, "0-3,6", &sel, why, sizeof(why)), -EINVAL, "2+2: missing CPU is -EINVAL");
	ok(CPU_COUNT(&sel.set) == 0, "2+2: a failed selection leaves an empty set");
	is_str(pick(&t, "3-1"), "error: reversed range 3-1", "2+2: list strictness comes through");
	ok(!strncmp(pick(&t, "foo"), "error: unknown selector", 23), "2+2: foo is unknown");
	ok(!strncmp(pick(&t, ""), "error: ", 7), "2+2: empty selector is rejected");
	lj_topo_free(&t);
}

static void test_restricted(void)
{
	struct lj_topo t;

	if (fixture_load(&t, "biglittle-restricted.xml")) {
		ok(0, "biglittle-restricted.xml loads");
		return;
	}
	is_str(pick(&t, "1"), "error: CPU 1 is not allowed (allowed: 0,2)",
	       "restricted: a disallowed CPU is named with what is allowed");
	is_str(pick(&t, "all"), "0,2", "restricted: all is what is allowed");
	ok(!strncmp(pick(&t, "online"), "error: CPU 1 is not allowed", 27),
	   "restricted: online cannot be had");
	is_str(pick(&t, "big"), "2", "restricted: big keeps its allowed CPU");
	is_str(sel.note, "big CPUs 3 are not allowed: using 2", "restricted: and says what it dropped");
	is_str(pick(&t, "big:1"), "error: CPU 3 is not allowed (allowed: 0,2)",
	       "restricted: big:1 counts the machine's cores, and CPU 3 is not allowed");
	lj_topo_free(&t);
}

static void test_one_kind(void)
{
	struct lj_topo t;

	if (fixture_load(&t, "smt-2socket.xml")) {
		ok(0, "smt-2socket.xml loads");
		return;
	}
	is_str(pick(&t, "big"), "0-7", "one kind: big is all CPUs");
	is_str(sel.note, "one core kind: big means all CPUs", "one kind: big says so");
	is_str(pick(&t, "little"), "0-7", "one kind: little is all CPUs");
	is_str(sel.note, "one core kind: little means all CPUs", "one kind: little says so");
	is_str(pick(&t, "big:0"), "0,4", "one kind: big:0 is core 0 with its SMT sibling");
	ok(strstr(sel.note, "one core kind") != NULL, "one kind: big:0 says so");
	is_str(pick(&t, "little:3"), "3,7", "one kind: little:3 is the last core");
	is_str(pick(&t, "big:4"), "error: only 4 big cores: big:0 to big:3", "one kind: big:4");
	lj_topo_free(&t);
}

static void test_real_machine(void)
{
	cpu_set_t orig, now;
	struct lj_topo t;
	int cpus[CPU_SETSIZE], n, cpu, ret;
	char list[64];

	if (lj_topo_load(&t, NULL, 0)) {
		ok(0, "the real machine loads");
		return;
	}
	ok(!lj_cpus_select(&t, "all", &sel, why, sizeof(why)) && CPU_EQUAL(&sel.set, &t.affinity),
	   "real: all is the affinity");
	ok(!lj_cpus_select(&t, "big", &sel, why, sizeof(why)) && CPU_COUNT(&sel.set) >= 1,
	   "real: big selects something");
	diag("real: big = %s (%s)", lj_cpulist_format(&sel.set, list, sizeof(list)),
	     sel.note[0] ? sel.note : "no note");
	snprintf(list, sizeof(list), "%d", CPU_SETSIZE - 1);
	ok(!strncmp(pick(&t, list), "error: CPU 1023 does not exist", 30),
	   "real: CPU 1023 does not exist");

	n = lj_cpus_to_array(&t.affinity, cpus, CPU_SETSIZE);
	is_int(n, CPU_COUNT(&t.affinity), "real: to_array counts the set");
	ok(n >= 1 && (n == 1 || cpus[0] < cpus[n - 1]), "real: to_array ascends");
	is_int(lj_cpus_to_array(&t.affinity, cpus, 0), 0, "to_array respects capacity");

	/* Pin to the last allowed CPU and read it back, then restore. */
	sched_getaffinity(0, sizeof(orig), &orig);
	cpu = cpus[n - 1];
	ret = lj_cpus_pin_one(0, cpu);
	sched_getaffinity(0, sizeof(now), &now);
	ok(!ret && CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now), "real: pin_one pins");
	ok(sched_getcpu() == cpu, "real: and the thread runs there");
	is_int(lj_cpus_pin(0, &orig), 0, "real: pin restores a set");
	is_int(lj_cpus_pin_one(0, -1), -EINVAL, "pin_one rejects CPU -1");
	is_int(lj_cpus_pin_one(0, CPU_SETSIZE), -EINVAL, "pin_one rejects CPU_SETSIZE");
	CPU_ZERO(&now);
	is_int(lj_cpus_pin(0, &now), -EINVAL, "pin to the empty set is -EINVAL");
	lj_topo_free(&t);
}

int main(void)
{
	plan_no_plan();
	test_biglittle();
	test_restricted();
	test_one_kind();
	test_real_machine();
	return done();
}
