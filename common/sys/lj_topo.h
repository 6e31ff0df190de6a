/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_topo - hwloc topology: CPUs, core kinds (big/little), SMT siblings, housekeeping CPU. */
#ifndef LJ_TOPO_H
#define LJ_TOPO_H

#include <sched.h>
#include <stdbool.h>

/*
 * A snapshot of the machine as hwloc sees it (HWLOC_XMLFILE / HWLOC_FSROOT
 * with HWLOC_THISSYSTEM=1 substitute a fake machine in tests). CPUs are
 * identified by OS index everywhere (never hwloc's logical index: inside a
 * restricted cpuset hwloc hides CPUs).
 */
#define LJ_TOPO_MAX_KINDS 8

struct lj_topo_kind {
	cpu_set_t cpus;
	int efficiency;		/* hwloc's ranking; -1 = hwloc could not rank */
	char name[32];		/* "IntelAtom", "big", ... from cpukind info, or "" */
};

struct lj_topo {
	cpu_set_t online;	/* PUs hwloc reports (complete cpuset) */
	cpu_set_t allowed;	/* PUs this process may run on (its cpuset cgroup) */
	int ncpus;		/* CPU_COUNT(&online) */
	int nkinds;		/* 1 when the machine has one core kind */
	/* kinds[0] is the least efficient (little), kinds[nkinds-1] the most (big). */
	struct lj_topo_kind kinds[LJ_TOPO_MAX_KINDS];
	int ncores, npackages;
	char cpu_model[128];
	void *hw;		/* hwloc_topology_t, for modules that need more */
	/* Added after the first contract; zeroed by lj_topo_free. */
	cpu_set_t affinity;	/* the caller's affinity at load, within allowed */
	bool substitute;	/* HWLOC_XMLFILE/_SYNTHETIC/_FSROOT: not this machine's CPUs */
	char kinds_note[96];	/* how kinds were ranked ("hwloc efficiency", ...) */
	/* The core of each online CPU (-1: a PU without one, -2: not found), for SMT siblings. */
	short core[CPU_SETSIZE];
};

/*
 * Load the topology. Return: 0, or -errno with what failed ("cannot load
 * the hwloc topology") in @why (@len bytes; NULL: not wanted).
 */
int lj_topo_load(struct lj_topo *t, char *why, size_t len);
/*
 * lj_topo_load in another process: hwloc's code runs and its memory is
 * allocated there, not in the caller's resident memory (lj-cyclic's must
 * stay at or below cyclictest's). That process is ljkit's helper
 * lj-topology (libexec/, installed in LIBEXECDIR/ljkit beside the tools'
 * BINDIR, lj_topo_send), started without copying the caller's pages;
 * without one of this build, a child of the caller, which loads hwloc
 * itself (lj_dl.h). The snapshot is the same, without the hwloc handle
 * (hw NULL; nothing reads it after the load). Loads in this process when
 * neither can run. Call it before any thread exists. Return: as
 * lj_topo_load.
 */
int lj_topo_load_apart(struct lj_topo *t, char *why, size_t len);
/* lj_topo_load, then the snapshot (with its result) written to @fd for lj_topo_load_apart. Return: 0 or -EPIPE. */
int lj_topo_send(int fd);
/* Destroy the hwloc handle (hw NULL), keep the snapshot. */
void lj_topo_drop_handle(struct lj_topo *t);
void lj_topo_free(struct lj_topo *t);

/* CPUs sharing a core with @cpu (including @cpu). */
int lj_topo_smt_siblings(const struct lj_topo *t, int cpu, cpu_set_t *out);

/* Kind index of @cpu (0 = least efficient), or -1. */
int lj_topo_kind_of(const struct lj_topo *t, int cpu);

/*
 * The CPU for reporting/housekeeping work: an allowed CPU outside @measured,
 * preferring the least efficient kind and a core not shared with a measured
 * CPU; -1 when every allowed CPU is measured.
 */
int lj_topo_housekeeping_cpu(const struct lj_topo *t, const cpu_set_t *measured);

#endif
