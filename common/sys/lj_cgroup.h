/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_cgroup - cgroup v1/v2/hybrid discovery, groups for measurements, attach, live cpuset changes. */
#ifndef LJ_CGROUP_H
#define LJ_CGROUP_H

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct lj_setup;

enum lj_cgroup_mode {
	LJ_CGROUP_NONE,		/* nothing mounted */
	LJ_CGROUP_V1,		/* only v1 hierarchies */
	LJ_CGROUP_V2,		/* only the unified hierarchy */
	LJ_CGROUP_HYBRID,	/* v1 controllers plus a (controller-less) v2 mount */
};

/*
 * Where the controllers ljkit uses live. The cpuset and cpu controllers
 * are taken from v1 when mounted there (a controller bound to v1 is absent
 * from v2), otherwise from the unified mount when its root lists them in
 * cgroup.controllers.
 */
struct lj_cgroup_mounts {
	enum lj_cgroup_mode mode;
	char v1_cpuset[PATH_MAX];	/* mount point, "" if not mounted in v1 */
	bool v1_cpuset_noprefix;	/* mounted "noprefix" (Android's /dev/cpuset): "cpus", not "cpuset.cpus" */
	char v1_cpu[PATH_MAX];		/* may be co-mounted with cpuacct */
	char unified[PATH_MAX];		/* v2 mount point or "" */
	bool v2_cpuset, v2_cpu;		/* controllers offered by the v2 root */
	/*
	 * Where ljkit makes its v2 groups: the unified root, or, when systemd
	 * manages the hierarchy (it owns the root's cgroup.subtree_control),
	 * the group systemd delegated to this process (Delegate=yes: the
	 * nearest ancestor-or-self marked trusted.delegate or user.delegate);
	 * "" when systemd delegated none.
	 */
	bool systemd;			/* /run/systemd/system exists (sd_booted) */
	char v2_base[PATH_MAX];
	bool base_cpuset, base_cpu;	/* controllers offered to the v2 base */
};

const char *lj_cgroup_mode_name(enum lj_cgroup_mode m);

/*
 * Parse the text of /proc/self/mountinfo (testable without a machine).
 * v2 controller availability is not in mountinfo: lj_cgroup_discover
 * reads it from the unified root. Return: 0 or -EINVAL (no text).
 */
int lj_cgroup_parse_mountinfo(const char *text, struct lj_cgroup_mounts *out);

/* Read /proc/self/mountinfo, the v2 root's cgroup.controllers and the v2 base. */
int lj_cgroup_discover(struct lj_cgroup_mounts *out);

/*
 * In the text of /proc/PID/cgroup, the path of the group in the v1
 * hierarchy of @controller ("2:cpu,cpuacct:/a/b" for "cpu"), or with
 * @controller NULL in the unified one ("0::/a/b"). Return: 0, -ENOENT (no
 * such line) or -ENAMETOOLONG.
 */
int lj_cgroup_parse_proc(const char *text, const char *controller, char *path, size_t len);

/*
 * The group directory the calling process is in, in the hierarchy mounted
 * at @mount (v1: the one of @controller; @controller NULL: v2).
 */
int lj_cgroup_self(const char *mount, const char *controller, char *out, size_t len);

/*
 * One group as ljkit uses it: a directory in the cpuset hierarchy and one
 * in the cpu hierarchy (the same directory in v2). A "root" group is the
 * hierarchies' root ("--cgroup off"). After a failure @errfile names the
 * file that refused.
 */
struct lj_cgroup {
	char cpuset[PATH_MAX];	/* "" when no cpuset controller is available */
	char cpu[PATH_MAX];	/* "" when no cpu controller is available */
	bool v2_cpuset, v2_cpu;	/* the directory is in the unified hierarchy */
	bool cpuset_noprefix;	/* its cpuset files have no "cpuset." prefix */
	bool rt_group;		/* cpu.rt_runtime_us exists (RT group scheduling) */
	bool root;
	int depth;		/* levels created or used below the hierarchy root (v2: below its base) */
	char errfile[PATH_MAX + 32];
	const char *why;	/* after a failure, advice errno and errfile do not give (a literal), or NULL */
};

/* The root groups of @m. -ENODEV when neither cpuset nor cpu is available. */
int lj_cgroup_root(const struct lj_cgroup_mounts *m, struct lj_cgroup *out);

/*
 * Create @name (a relative path; @depth > 1 nests name/l2/.../lDEPTH to
 * measure the cost of depth) in the cpuset and cpu hierarchies through the
 * setup stack, each level recording where the caller's process is now (its
 * tasks go back there before the group is removed). v1 cpuset: every level
 * gets its parent's cpus and mems (attach fails with ENOSPC otherwise);
 * v2: NAME is made below the v2 base, whose cgroup.subtree_control and
 * every parent level's hand cpuset and cpu down (claims lj_setup takes
 * back once no live run needs them). A delegated base that still holds
 * processes first moves them into a leaf of its own (BASE/ljkit-leaf.PID):
 * v2 lets only a group without processes hand controllers down.
 * Under systemd with no delegated group: -ENOTSUP, @out->why saying so.
 * A group that already exists is used as is (and not removed).
 * Return: 0 or -errno, with @out->errfile set.
 */
int lj_cgroup_create(struct lj_setup *s, const struct lj_cgroup_mounts *m,
		     const char *name, int depth, struct lj_cgroup *out);

/* Fill @out for an existing group @name (as lj_cgroup_create named it) without creating anything. */
int lj_cgroup_open(const struct lj_cgroup_mounts *m, const char *name, int depth,
		   struct lj_cgroup *out);

/* cpuset.cpus / cpuset.mems of @cg (journaled unless inside a created group). */
int lj_cgroup_set_cpus(struct lj_setup *s, struct lj_cgroup *cg, const cpu_set_t *cpus);
int lj_cgroup_set_mems(struct lj_setup *s, struct lj_cgroup *cg, const char *mems);

/*
 * cpu.rt_runtime_us of @cg and of every created level above it (a child
 * cannot have more than its parent). -ENOTSUP without RT group scheduling.
 */
int lj_cgroup_set_rt_runtime(struct lj_setup *s, struct lj_cgroup *cg, int64_t us);

/* RT budget still free under @cg's parent: parent runtime minus its children's. */
int64_t lj_cgroup_rt_available(const struct lj_cgroup *cg);

/* cpu.shares (v1, 2..262144) or cpu.weight (v2, 1..10000). */
int lj_cgroup_set_weight(struct lj_setup *s, struct lj_cgroup *cg, uint64_t weight);

/*
 * CPU bandwidth: @quota_us per @period_us (v2 cpu.max "QUOTA PERIOD"; v1
 * cpu.cfs_period_us, then cpu.cfs_quota_us). -ENODEV without a cpu controller.
 */
int lj_cgroup_set_max(struct lj_setup *s, struct lj_cgroup *cg, int64_t quota_us, int64_t period_us);

/*
 * cpu.uclamp.min / cpu.uclamp.max of @cg in percent (0..100; a negative
 * value leaves that bound alone). -ENOTSUP when the kernel has no uclamp
 * (CONFIG_UCLAMP_TASK_GROUP) for this group.
 */
int lj_cgroup_set_uclamp(struct lj_setup *s, struct lj_cgroup *cg, double min_pct, double max_pct);

/*
 * Move thread @tid (0 = caller's thread) or the whole process @pid into
 * @cg in both hierarchies. Return: 0 or -errno with errfile set.
 */
int lj_cgroup_attach(struct lj_cgroup *cg, pid_t tid);
int lj_cgroup_attach_process(struct lj_cgroup *cg, pid_t pid);

/* Read @cg's cpuset.cpus into @out. */
int lj_cgroup_get_cpus(const struct lj_cgroup *cg, cpu_set_t *out);

/* Why a cgroup write failed with @err, as advice for the message ("" if none). */
const char *lj_cgroup_hint(int err, const char *file);

#endif
