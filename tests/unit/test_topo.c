// SPDX-License-Identifier: GPL-2.0-or-later
/* test_topo - hwloc topology on XML fixtures (big.LITTLE, 2-socket SMT) and the real machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_topo.h"
#include "lj_parse.h"
#include "lj_topo.h"
#include "tap.h"

static const char *fmt(const cpu_set_t *set)
{
	static char buf[4][128];
	static int i;

	i = (i + 1) % 4;
	return lj_cpulist_format(set, buf[i], sizeof(buf[i]));
}

static int hk(const struct lj_topo *t, const char *measured)
{
	cpu_set_t m = fixture_set(measured);

	return lj_topo_housekeeping_cpu(t, &m);
}

static void test_biglittle(void)
{
	struct lj_topo t;
	cpu_set_t sib;

	if (fixture_load(&t, "biglittle-2+2.xml")) {
		ok(0, "biglittle-2+2.xml loads");
		return;
	}
	is_int(t.ncpus, 4, "2+2: four CPUs");
	is_int(t.ncores, 4, "2+2: four cores");
	is_int(t.npackages, 1, "2+2: one package");
	ok(t.substitute, "2+2: an XML topology is a substitute");
	is_str(fmt(&t.allowed), "0-3", "2+2: all CPUs allowed");
	is_str(fmt(&t.affinity), "0-3", "2+2: affinity is the fixture's, not this process's");
	is_int(t.nkinds, 2, "2+2: two kinds");
	is_str(fmt(&t.kinds[0].cpus), "0-1", "2+2: kinds[0] (little) is 0-1");
	is_str(fmt(&t.kinds[1].cpus), "2-3", "2+2: kinds[1] (big) is 2-3");
	ok(t.kinds[0].efficiency < t.kinds[1].efficiency, "2+2: little ranks below big");
	is_str(t.kinds[0].name, "Cortex-A55", "2+2: little's CoreType");
	is_str(t.kinds[1].name, "Cortex-A76", "2+2: big's CoreType");
	is_int(lj_topo_kind_of(&t, 0), 0, "2+2: CPU 0 is little");
	is_int(lj_topo_kind_of(&t, 3), 1, "2+2: CPU 3 is big");
	is_int(lj_topo_kind_of(&t, 9), -1, "2+2: CPU 9 has no kind");
	ok(!lj_topo_smt_siblings(&t, 2, &sib) && !strcmp(fmt(&sib), "2"),
	   "2+2: no SMT: CPU 2 is alone on its core");
	is_int(lj_topo_smt_siblings(&t, 4, &sib), -EINVAL, "2+2: siblings of a missing CPU");
	is_str(t.cpu_model, "unknown", "2+2: the synthetic machine has no model");
	is_int(hk(&t, "2-3"), 0, "2+2: housekeeping on little CPU 0 when big ones measure");
	is_int(hk(&t, "0"), 1, "2+2: housekeeping prefers the other little CPU");
	is_int(hk(&t, "0-1"), 2, "2+2: housekeeping on a big CPU when all little measure");
	is_int(hk(&t, "0-3"), -1, "2+2: no housekeeping CPU when all measure");
	lj_topo_free(&t);
	ok(t.hw == NULL && t.ncpus == 0, "free clears the snapshot");
}

static void test_smt(void)
{
	struct lj_topo t;
	cpu_set_t sib;

	if (fixture_load(&t, "smt-2socket.xml")) {
		ok(0, "smt-2socket.xml loads");
		return;
	}
	is_int(t.ncpus, 8, "smt: eight CPUs");
	is_int(t.ncores, 4, "smt: four cores");
	is_int(t.npackages, 2, "smt: two packages");
	is_int(t.nkinds, 1, "smt: one kind");
	is_str(fmt(&t.kinds[0].cpus), "0-7", "smt: the kind holds every CPU");
	/* OS numbering: core 0 holds CPUs 0 and 4, unlike hwloc's logical 0 and 1. */
	ok(!lj_topo_smt_siblings(&t, 0, &sib) && !strcmp(fmt(&sib), "0,4"),
	   "smt: CPU 0's sibling is CPU 4 (OS index)");
	ok(!lj_topo_smt_siblings(&t, 5, &sib) && !strcmp(fmt(&sib), "1,5"),
	   "smt: CPU 5's sibling is CPU 1");
	is_int(lj_topo_smt_siblings(&t, 8, &sib), -EINVAL, "smt: CPU 8 does not exist");
	is_int(hk(&t, "1"), 0, "smt: housekeeping on CPU 0, a core apart from CPU 1");
	is_int(hk(&t, "0"), 1, "smt: housekeeping avoids CPU 4, CPU 0's sibling");
	is_int(hk(&t, "0-3"), 4, "smt: every free CPU shares a core: lowest one");
	lj_topo_free(&t);
}

static void test_unranked(void)
{
	struct lj_topo t;

	if (fixture_load(&t, "unranked-freq.xml")) {
		ok(0, "unranked-freq.xml loads");
	} else {
		ok(t.nkinds == 2 && !strcmp(fmt(&t.kinds[1].cpus), "2-3"),
		   "unranked kinds: hwloc ranks them by frequency");
		lj_topo_free(&t);
	}

	/* Without hwloc's ranking, lj_topo ranks by FrequencyMaxMHz itself. */
	setenv("HWLOC_CPUKINDS_RANKING", "none", 1);
	if (fixture_load(&t, "unranked-freq.xml")) {
		ok(0, "unranked-freq.xml loads unranked");
	} else {
		is_int(t.nkinds, 2, "unranked by hwloc: two kinds");
		is_str(fmt(&t.kinds[0].cpus), "0-1", "unranked: 1800 MHz kind is little");
		is_str(fmt(&t.kinds[1].cpus), "2-3", "unranked: 2900 MHz kind is big");
		is_int(t.kinds[1].efficiency, -1, "unranked: hwloc's -1 is kept");
		ok(strstr(t.kinds_note, "FrequencyMaxMHz") != NULL, "unranked: the note says how");
		lj_topo_free(&t);
	}
	unsetenv("HWLOC_CPUKINDS_RANKING");

	if (fixture_load(&t, "unranked-coretype.xml")) {
		ok(0, "unranked-coretype.xml loads");
	} else {
		is_int(t.nkinds, 1, "unrankable kinds: treated as one kind");
		is_str(fmt(&t.kinds[0].cpus), "0-3", "unrankable: the one kind holds all CPUs");
		ok(strstr(t.kinds_note, "could not rank") != NULL, "unrankable: the note says so");
		lj_topo_free(&t);
	}
}

static void test_restricted(void)
{
	struct lj_topo t;

	if (fixture_load(&t, "biglittle-restricted.xml")) {
		ok(0, "biglittle-restricted.xml loads");
		return;
	}
	is_str(fmt(&t.online), "0-3", "restricted: disallowed CPUs still online");
	is_str(fmt(&t.allowed), "0,2", "restricted: allowed is the cpuset");
	is_int(hk(&t, "2"), 0, "restricted: housekeeping on an allowed CPU");
	is_int(hk(&t, "0,2"), -1, "restricted: none left when the allowed ones measure");
	lj_topo_free(&t);
}

static void test_real_machine(void)
{
	struct lj_topo t;
	cpu_set_t sib, all, tmp;
	int k, cpu, first = -1;

	if (lj_topo_load(&t, NULL, 0)) {
		ok(0, "the real machine loads");
		return;
	}
	diag("this machine: %d CPUs (%s), %d cores, %d kinds (%s), model %s", t.ncpus,
	     fmt(&t.online), t.ncores, t.nkinds, t.kinds_note, t.cpu_model);
	ok(!t.substitute, "real: not a substitute");
	ok(t.ncpus >= 1 && t.ncpus == CPU_COUNT(&t.online), "real: ncpus counts online");
	CPU_AND(&tmp, &t.allowed, &t.online);
	ok(CPU_EQUAL(&tmp, &t.allowed) && CPU_COUNT(&t.allowed) >= 1,
	   "real: allowed is a non-empty subset of online");
	CPU_AND(&tmp, &t.affinity, &t.allowed);
	ok(CPU_EQUAL(&tmp, &t.affinity) && CPU_COUNT(&t.affinity) >= 1,
	   "real: affinity is a non-empty subset of allowed");
	CPU_ZERO(&all);
	for (k = 0; k < t.nkinds; k++)
		CPU_OR(&all, &all, &t.kinds[k].cpus);
	ok(t.nkinds >= 1 && CPU_EQUAL(&all, &t.online), "real: kinds cover the online CPUs");
	for (cpu = 0; cpu < CPU_SETSIZE && first < 0; cpu++)
		if (CPU_ISSET(cpu, &t.online))
			first = cpu;
	ok(!lj_topo_smt_siblings(&t, first, &sib) && CPU_ISSET(first, &sib),
	   "real: a CPU is among its own siblings");
	cpu = lj_topo_housekeeping_cpu(&t, NULL);
	ok(cpu >= 0 && CPU_ISSET(cpu, &t.allowed), "real: housekeeping CPU is allowed");
	ok(t.cpu_model[0] != '\0', "real: a CPU model (or 'unknown')");
	lj_topo_free(&t);
}

/* lj_topo_load_apart gives the snapshot lj_topo_load gives, loaded by a child (no hwloc handle). */
static void test_apart(void)
{
	const char *src = getenv("LJ_SRC");
	struct lj_topo here, apart;
	char path[4096];
	cpu_set_t sib;

	snprintf(path, sizeof(path), "%s/tests/fixtures/smt-2socket.xml", src ? src : ".");
	setenv("HWLOC_XMLFILE", path, 1);
	setenv("HWLOC_THISSYSTEM", "1", 1);
	if (lj_topo_load_apart(&apart, NULL, 0) || lj_topo_load(&here, NULL, 0)) {
		ok(0, "apart: smt-2socket.xml loads both ways");
		unsetenv("HWLOC_XMLFILE");
		unsetenv("HWLOC_THISSYSTEM");
		return;
	}
	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_THISSYSTEM");
	ok(apart.hw == NULL && here.hw != NULL, "apart: no hwloc handle crosses the process");
	ok(apart.ncpus == 8 && apart.ncores == 4 && apart.npackages == 2 && apart.substitute,
	   "apart: the child's counts are the fixture's");
	ok(CPU_EQUAL(&apart.online, &here.online) && CPU_EQUAL(&apart.allowed, &here.allowed) &&
	   apart.nkinds == here.nkinds && CPU_EQUAL(&apart.kinds[0].cpus, &here.kinds[0].cpus) &&
	   !strcmp(apart.cpu_model, here.cpu_model), "apart: CPUs, kinds and model as loaded here");
	ok(!lj_topo_smt_siblings(&apart, 4, &sib) && !strcmp(fmt(&sib), "0,4"),
	   "apart: CPU 4's sibling is CPU 0, without hwloc");
	is_int(hk(&apart, "0"), hk(&here, "0"), "apart: the same housekeeping CPU");
	lj_topo_free(&apart);
	lj_topo_free(&here);
	is_int(lj_topo_load_apart(&apart, NULL, 0), 0, "apart: the real machine loads in a child");
	ok(apart.ncpus >= 1 && CPU_COUNT(&apart.online) == apart.ncpus, "apart: real: ncpus counts online");
	lj_topo_free(&apart);
}

int main(void)
{
	plan_no_plan();
	test_biglittle();
	test_smt();
	test_unranked();
	test_restricted();
	test_real_machine();
	test_apart();
	return done();
}
