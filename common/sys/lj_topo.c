// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_topo - hwloc topology: CPUs, core kinds (big/little), SMT siblings, housekeeping CPU. */
#include "lj_topo.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_dl.h"

/*
 * Every hwloc call goes through this table (lj_dl.h), none through
 * hwloc.h's inline helpers: lj-cyclic does not link hwloc, whose code,
 * libudev and libm would cost its resident memory some 500 KiB, and
 * loads it only in the child of lj_topo_load_apart.
 */
#define HWLOC_FNS(X)                                                                          \
	X(hwloc_topology_init) X(hwloc_topology_set_flags) X(hwloc_topology_load)             \
	X(hwloc_topology_destroy) X(hwloc_topology_get_topology_cpuset)                       \
	X(hwloc_topology_get_allowed_cpuset) X(hwloc_get_type_depth) X(hwloc_get_nbobjs_by_depth) \
	X(hwloc_get_obj_by_depth) X(hwloc_bitmap_alloc) X(hwloc_bitmap_free)                  \
	X(hwloc_bitmap_next) X(hwloc_cpukinds_get_nr) X(hwloc_cpukinds_get_info)
HWLOC_FNS(LJ_DL_WEAK)
LJ_DL_TABLE(hwloc, LJ_SONAME_HWLOC, HWLOC_FNS);
#define HW(f) LJ_DL_FN(hwloc, f)

/* hwloc bitmaps are indexed by OS CPU number, as cpu_set_t is. */
static void bitmap_to_set(hwloc_const_bitmap_t b, cpu_set_t *set)
{
	CPU_ZERO(set);
	if (!b)
		return;
	for (int cpu = HW(hwloc_bitmap_next)(b, -1); cpu >= 0 && cpu < CPU_SETSIZE;
	     cpu = HW(hwloc_bitmap_next)(b, cpu))
		CPU_SET(cpu, set);
}

/* The objects of @type (hwloc_get_nbobjs_by_type, which is inline): a count, 0, or -1 (several depths). */
static int count_of(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int depth = HW(hwloc_get_type_depth)(topo, type);

	if (depth == HWLOC_TYPE_DEPTH_UNKNOWN)
		return 0;
	if (depth == HWLOC_TYPE_DEPTH_MULTIPLE)
		return -1;
	return (int)HW(hwloc_get_nbobjs_by_depth)(topo, depth);
}

/* The object of @type and OS index @os, or the first of @type when @os is -1; NULL: none. */
static hwloc_obj_t obj_of(hwloc_topology_t topo, hwloc_obj_type_t type, int os)
{
	int depth = HW(hwloc_get_type_depth)(topo, type);
	int n = depth < 0 ? 0 : (int)HW(hwloc_get_nbobjs_by_depth)(topo, depth);

	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = HW(hwloc_get_obj_by_depth)(topo, depth, (unsigned)i);

		if (o && (os < 0 || o->os_index == (unsigned)os))
			return o;
	}
	return NULL;
}

/*
 * A topology from HWLOC_XMLFILE, HWLOC_SYNTHETIC or another file system
 * root describes some other machine: this process's affinity says nothing
 * about its CPUs, so it is not intersected with them.
 */
static bool substitute_topology(void)
{
	const char *fsroot = getenv("HWLOC_FSROOT");

	return getenv("HWLOC_XMLFILE") || getenv("HWLOC_SYNTHETIC") ||
	       (fsroot && strcmp(fsroot, "/"));
}

static const char *info_value(const struct hwloc_info_s *infos, unsigned n, const char *name)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (infos[i].name && !strcmp(infos[i].name, name))
			return infos[i].value;
	return NULL;
}

/*
 * The rank of an unranked kind from what its info says, or -1. Intel
 * hybrid parts name their cores; ARM ones differ in maximum frequency,
 * and the slower core is the more efficient one. The frequency is scaled
 * below the core-type ranks' distance so a core type always wins.
 */
static long kind_guess_rank(const struct hwloc_info_s *infos, unsigned n)
{
	const char *type = info_value(infos, n, "CoreType");
	const char *freq = info_value(infos, n, "FrequencyMaxMHz");
	long rank = -1;
	char *end;

	if (type && !strcmp(type, "IntelAtom"))
		rank = 0;
	else if (type && !strcmp(type, "IntelCore"))
		rank = 1000000;
	if (freq) {
		long mhz = strtol(freq, &end, 10);

		if (end != freq && !*end && mhz > 0 && mhz < 1000000)
			rank = (rank < 0 ? 0 : rank) + mhz;
	}
	return rank;
}

struct raw_kind {
	cpu_set_t cpus;
	int efficiency;
	long rank;
	char name[32];
};

static int cmp_rank(const void *a, const void *b)
{
	const struct raw_kind *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

static void one_kind(struct lj_topo *t, const char *why)
{
	t->nkinds = 1;
	t->kinds[0].cpus = t->online;
	t->kinds[0].efficiency = -1;
	t->kinds[0].name[0] = '\0';
	snprintf(t->kinds_note, sizeof(t->kinds_note), "%s", why);
}

/*
 * Fill t->kinds from hwloc's cpukinds, least efficient first. When hwloc
 * could not rank them (efficiency -1), rank by CoreType/FrequencyMaxMHz;
 * when those do not tell the kinds apart either, a big/little split would
 * be a guess, so the machine is treated as one kind.
 */
/* hwloc lists one kind or none: the machine is one kind, with that kind's efficiency and name. */
static void load_one_kind(struct lj_topo *t, hwloc_topology_t topo, int nr)
{
	struct hwloc_info_s *infos = NULL;
	unsigned ninfo = 0;
	hwloc_bitmap_t b;
	int eff = -1;

	one_kind(t, nr == 1 ? "one core kind" : "no cpukinds information: one core kind");
	if (nr != 1)
		return;
	b = HW(hwloc_bitmap_alloc)();
	if (b && !HW(hwloc_cpukinds_get_info)(topo, 0, b, &eff, &ninfo, &infos, 0)) {
		const char *type = info_value(infos, ninfo, "CoreType");

		t->kinds[0].efficiency = eff;
		if (type)
			snprintf(t->kinds[0].name, sizeof(t->kinds[0].name), "%s", type);
	}
	HW(hwloc_bitmap_free)(b);
}

/*
 * The first @nr kinds hwloc lists that have online CPUs, into @raw;
 * *@unranked when hwloc could not rank one, *@guessable cleared when the
 * CoreType/frequency guess cannot rank one either. Return: how many, or
 * -ENOMEM.
 */
static int read_kinds(const struct lj_topo *t, hwloc_topology_t topo, int nr, struct raw_kind *raw,
		      bool *unranked, bool *guessable)
{
	hwloc_bitmap_t b = HW(hwloc_bitmap_alloc)();
	int n = 0;

	if (!b)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		struct hwloc_info_s *infos = NULL;
		unsigned ninfo = 0;
		const char *type;
		int eff = -1;

		if (HW(hwloc_cpukinds_get_info)(topo, (unsigned)i, b, &eff, &ninfo, &infos, 0))
			continue;
		bitmap_to_set(b, &raw[n].cpus);
		CPU_AND(&raw[n].cpus, &raw[n].cpus, &t->online);
		if (!CPU_COUNT(&raw[n].cpus))
			continue;
		raw[n].efficiency = eff;
		raw[n].rank = kind_guess_rank(infos, ninfo);
		type = info_value(infos, ninfo, "CoreType");
		snprintf(raw[n].name, sizeof(raw[n].name), "%s", type ? type : "");
		*unranked |= eff < 0;
		*guessable &= raw[n].rank >= 0;
		n++;
	}
	HW(hwloc_bitmap_free)(b);
	return n;
}

/*
 * The @n kinds of @raw, least efficient first, into @t. More kinds than
 * fit: the least efficient ones merge into kinds[0], so big stays the
 * most efficient kind and little the least.
 */
static void store_kinds(struct lj_topo *t, struct raw_kind *raw, int n)
{
	int j = n > LJ_TOPO_MAX_KINDS ? n - LJ_TOPO_MAX_KINDS : 0;

	for (int i = 0; i < j; i++)
		CPU_OR(&raw[j].cpus, &raw[j].cpus, &raw[i].cpus);
	t->nkinds = n - j;
	for (int i = 0; i < t->nkinds; i++) {
		struct raw_kind *r = &raw[j + i];

		t->kinds[i].cpus = r->cpus;
		t->kinds[i].efficiency = r->efficiency;
		memcpy(t->kinds[i].name, r->name, sizeof(t->kinds[i].name));
	}
}

static void load_kinds(struct lj_topo *t, hwloc_topology_t topo)
{
	struct raw_kind raw[64];
	bool unranked = false, guessable = true;
	int nr, n;

	nr = HW(hwloc_cpukinds_get_nr)(topo, 0);
	if (nr <= 1) {
		load_one_kind(t, topo, nr);
		return;
	}
	if (nr > (int)(sizeof(raw) / sizeof(raw[0])))
		nr = sizeof(raw) / sizeof(raw[0]);
	n = read_kinds(t, topo, nr, raw, &unranked, &guessable);
	if (n < 0) {
		one_kind(t, "out of memory reading cpukinds: one core kind");
		return;
	}
	if (n <= 1) {
		one_kind(t, "one core kind");
		return;
	}
	if (unranked) {
		if (!guessable) {
			one_kind(t, "hwloc could not rank the core kinds: one core kind");
			return;
		}
		/* Equal guesses cannot be ordered: treat as one kind as well. */
		qsort(raw, (size_t)n, sizeof(raw[0]), cmp_rank);
		for (int i = 1; i < n; i++) {
			if (raw[i].rank == raw[i - 1].rank) {
				one_kind(t, "core kinds differ in nothing rankable: one core kind");
				return;
			}
		}
		snprintf(t->kinds_note, sizeof(t->kinds_note),
			 "hwloc could not rank the core kinds: ranked by CoreType/FrequencyMaxMHz");
	} else {
		snprintf(t->kinds_note, sizeof(t->kinds_note), "%d core kinds ranked by hwloc", n);
	}
	store_kinds(t, raw, n);
}

static void load_model(struct lj_topo *t, hwloc_topology_t topo)
{
	hwloc_obj_t pkg = obj_of(topo, HWLOC_OBJ_PACKAGE, -1);
	hwloc_obj_t root = HW(hwloc_get_obj_by_depth)(topo, 0, 0);
	const char *model = NULL;

	if (pkg)
		model = info_value(pkg->infos, pkg->infos_count, "CPUModel");
	if (!model && root)
		model = info_value(root->infos, root->infos_count, "CPUModel");
	snprintf(t->cpu_model, sizeof(t->cpu_model), "%s", model ? model : "unknown");
}

/* "what failed" into the caller's @why (may be NULL), then return @err. */
/* The core of each online CPU, so that SMT siblings need no hwloc after the load. */
static void load_cores(struct lj_topo *t, hwloc_topology_t topo)
{
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		hwloc_obj_t pu, core;

		if (!CPU_ISSET(cpu, &t->online))
			continue;
		pu = obj_of(topo, HWLOC_OBJ_PU, cpu);
		for (core = pu ? pu->parent : NULL; core && core->type != HWLOC_OBJ_CORE; core = core->parent)
			;
		/* Some topologies (synthetic, odd firmware) have PUs without a Core. */
		t->core[cpu] = !pu ? -2 : core ? (short)core->logical_index : -1;
	}
}

static int failed(char *why, size_t len, int err, const char *what)
{
	if (why && len)
		snprintf(why, len, "%s", what);
	return err;
}

int lj_topo_load(struct lj_topo *t, char *why, size_t len)
{
	hwloc_topology_t topo;
	cpu_set_t aff;
	int n, ret;

	memset(t, 0, sizeof(*t));
	/*
	 * hwloc's I/O, GL, OpenCL and libxml2 plugins pull in some 40 MB of
	 * libraries (libicudata alone is 30 MB) that a tool's mlockall would
	 * lock and make resident; the CPU topology needs none of them. hwloc
	 * reads the list once, at its first init; a user's setting wins.
	 */
	setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml", 0);
	ret = LJ_DL_BIND(hwloc, HWLOC_FNS, why, len);
	if (ret)
		return ret;
	if (HW(hwloc_topology_init)(&topo) < 0) {
		ret = errno ? -errno : -ENOMEM;
		return failed(why, len, ret, "cannot initialise hwloc");
	}
	/*
	 * Inside a restricted cpuset hwloc hides the CPUs it may not use;
	 * this flag keeps them so "online" means the machine and "allowed"
	 * the cpuset.
	 */
	HW(hwloc_topology_set_flags)(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (HW(hwloc_topology_load)(topo) < 0) {
		ret = errno ? -errno : -EINVAL;
		HW(hwloc_topology_destroy)(topo);
		return failed(why, len, ret, "cannot load the hwloc topology");
	}
	t->hw = topo;
	t->substitute = substitute_topology();
	bitmap_to_set(HW(hwloc_topology_get_topology_cpuset)(topo), &t->online);
	bitmap_to_set(HW(hwloc_topology_get_allowed_cpuset)(topo), &t->allowed);
	CPU_AND(&t->allowed, &t->allowed, &t->online);
	t->ncpus = CPU_COUNT(&t->online);
	t->affinity = t->allowed;
	if (!t->substitute && !sched_getaffinity(0, sizeof(aff), &aff)) {
		CPU_AND(&aff, &aff, &t->allowed);
		if (CPU_COUNT(&aff))
			t->affinity = aff;
	}
	n = count_of(topo, HWLOC_OBJ_CORE);
	t->ncores = n > 0 ? n : t->ncpus;
	n = count_of(topo, HWLOC_OBJ_PACKAGE);
	t->npackages = n > 0 ? n : 1;
	load_kinds(t, topo);
	load_model(t, topo);
	load_cores(t, topo);
	if (!t->ncpus) {
		lj_topo_free(t);
		return failed(why, len, -ENODEV, "hwloc reports no CPU");
	}
	return 0;
}

void lj_topo_drop_handle(struct lj_topo *t)
{
	if (t->hw)
		HW(hwloc_topology_destroy)(t->hw);	/* a handle exists only once the table is bound */
	t->hw = NULL;
}

void lj_topo_free(struct lj_topo *t)
{
	lj_topo_drop_handle(t);
	memset(t, 0, sizeof(*t));
}

int lj_topo_smt_siblings(const struct lj_topo *t, int cpu, cpu_set_t *out)
{
	if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &t->online) || t->core[cpu] == -2)
		return -EINVAL;
	CPU_ZERO(out);
	CPU_SET(cpu, out);
	for (int c = 0; c < CPU_SETSIZE && t->core[cpu] >= 0; c++)
		if (CPU_ISSET(c, &t->online) && t->core[c] == t->core[cpu])
			CPU_SET(c, out);
	return 0;
}

int lj_topo_kind_of(const struct lj_topo *t, int cpu)
{
	int k;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -1;
	for (k = 0; k < t->nkinds; k++)
		if (CPU_ISSET(cpu, &t->kinds[k].cpus))
			return k;
	return -1;
}

/*
 * Score candidates: a core shared with a measured CPU costs most (an SMT
 * sibling competes for the measured CPU's pipeline), then efficiency (the
 * big cores are worth more to the workload), then the CPU number, low
 * first, as kernels keep housekeeping on CPU 0 by default.
 */
int lj_topo_housekeeping_cpu(const struct lj_topo *t, const cpu_set_t *measured)
{
	long best_score = -1, score;
	int cpu, best = -1, kind;
	cpu_set_t sib;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &t->allowed) || (measured && CPU_ISSET(cpu, measured)))
			continue;
		score = 0;
		if (measured && !lj_topo_smt_siblings(t, cpu, &sib)) {
			CPU_AND(&sib, &sib, measured);
			if (CPU_COUNT(&sib))
				score += 1L << 20;
		}
		kind = lj_topo_kind_of(t, cpu);
		score += (long)(kind < 0 ? 0 : kind) << 12;
		score += cpu;
		if (best < 0 || score < best_score) {
			best = cpu;
			best_score = score;
		}
	}
	return best;
}
