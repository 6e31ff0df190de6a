// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_cgroup - cgroup discovery from mountinfo; create, configure, attach and remove groups. */
#include "lj_cgroup.h"
#include "lj_file.h"
#include "lj_parse.h"
#include "lj_setup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

const char *lj_cgroup_mode_name(enum lj_cgroup_mode m)
{
	switch (m) {
	case LJ_CGROUP_NONE:
		return "none";
	case LJ_CGROUP_V1:
		return "v1";
	case LJ_CGROUP_V2:
		return "v2";
	case LJ_CGROUP_HYBRID:
		return "hybrid";
	}
	return "?";
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(const char *in, char *out, size_t len)
{
	size_t o = 0;

	while (*in && o + 1 < len) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' && in[2] >= '0' &&
		    in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
			out[o++] = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 4;
		} else {
			out[o++] = *in++;
		}
	}
	out[o] = '\0';
}

/* The comma-separated list [@s, @end) holds @name exactly. */
static bool list_has(const char *s, const char *end, const char *name)
{
	size_t n = strlen(name);

	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *stop = comma ? comma : end;

		if ((size_t)(stop - s) == n && !memcmp(s, name, n))
			return true;
		s = stop + 1;
	}
	return false;
}

int lj_cgroup_parse_proc(const char *text, const char *controller, char *path, size_t len)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		const char *c1 = memchr(line, ':', (size_t)(end - line));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;

		if (c2 && (controller ? list_has(c1 + 1, c2, controller)
				      : c2 == c1 + 1 && c1 - line == 1 && line[0] == '0')) {
			size_t n = (size_t)(end - c2 - 1);

			if (n >= len)
				return -ENAMETOOLONG;
			memcpy(path, c2 + 1, n);
			path[n] = '\0';
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int lj_cgroup_self(const char *mount, const char *controller, char *out, size_t len)
{
	char text[8192], rel[PATH_MAX];
	ssize_t n = lj_file_read("/proc/self/cgroup", text, sizeof(text));
	int ret;

	if (n < 0)
		return (int)n;
	ret = lj_cgroup_parse_proc(text, controller, rel, sizeof(rel));
	if (ret)
		return ret;
	if ((size_t)snprintf(out, len, "%s%s", mount, strcmp(rel, "/") ? rel : "") >= len)
		return -ENAMETOOLONG;
	return 0;
}

int lj_cgroup_parse_mountinfo(const char *text, struct lj_cgroup_mounts *out)
{
	bool any_v1 = false;
	const char *line;

	memset(out, 0, sizeof(*out));
	if (!text)
		return -EINVAL;
	for (line = text; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[PATH_MAX * 2], *f[6], *sep, *save = NULL, *rest;
		char mnt[PATH_MAX], *fstype, *superopts;
		int i;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : NULL;

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [tags...] - FSTYPE SOURCE SUPEROPTS" */
		sep = strstr(buf, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		rest = sep + 3;
		for (i = 0; i < 5; i++) {
			f[i] = strtok_r(i ? NULL : buf, " ", &save);
			if (!f[i])
				break;
		}
		if (i < 5)
			continue;
		fstype = strtok_r(rest, " ", &save);
		strtok_r(NULL, " ", &save);	/* source */
		superopts = strtok_r(NULL, " ", &save);
		if (!fstype)
			continue;
		unescape_octal(f[4], mnt, sizeof(mnt));
		if (!strcmp(fstype, "cgroup2")) {
			if (!out->unified[0])
				snprintf(out->unified, sizeof(out->unified), "%s", mnt);
		} else if (!strcmp(fstype, "cgroup")) {
			any_v1 = true;
			if (!superopts)
				continue;
			if (lj_opts_has(superopts, "cpuset") && !out->v1_cpuset[0]) {
				snprintf(out->v1_cpuset, sizeof(out->v1_cpuset), "%s", mnt);
				out->v1_cpuset_noprefix = lj_opts_has(superopts, "noprefix");
			}
			if (lj_opts_has(superopts, "cpu") && !out->v1_cpu[0])
				snprintf(out->v1_cpu, sizeof(out->v1_cpu), "%s", mnt);
		}
	}
	if (any_v1 && out->unified[0])
		out->mode = LJ_CGROUP_HYBRID;
	else if (any_v1)
		out->mode = LJ_CGROUP_V1;
	else if (out->unified[0])
		out->mode = LJ_CGROUP_V2;
	else
		out->mode = LJ_CGROUP_NONE;
	return 0;
}

/* Does the space-separated controller file @dir/@file list @ctrl? */
static bool lists_controller(const char *dir, const char *file, const char *ctrl)
{
	char path[PATH_MAX + 32], buf[512];
	bool found = false;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (lj_file_read(path, buf, sizeof(buf)) < 0)
		return false;
	for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t && !found; t = strtok_r(NULL, " \n", &save))
		found = !strcmp(t, ctrl);
	return found;
}

/* systemd marks a group it delegates (Delegate=yes) with an extended attribute "delegate" of "1". */
static bool delegated(const char *dir)
{
	static const char *const names[] = { "trusted.delegate", "user.delegate" };
	char v[8];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ssize_t n = getxattr(dir, names[i], v, sizeof(v));

		if (n == 1 && v[0] == '1')
			return true;
	}
	return false;
}


/*
 * The v2 base (struct lj_cgroup_mounts): the unified root, unless systemd
 * manages the hierarchy; then the nearest delegated group at or above
 * the one this process is in, or none.
 */
static void find_v2_base(struct lj_cgroup_mounts *m)
{
	char dir[PATH_MAX];

	m->v2_base[0] = '\0';
	if (!m->systemd) {
		snprintf(m->v2_base, sizeof(m->v2_base), "%s", m->unified);
	} else if (!lj_cgroup_self(m->unified, NULL, dir, sizeof(dir))) {
		while (strlen(dir) > strlen(m->unified) && !strncmp(dir, m->unified, strlen(m->unified))) {
			if (delegated(dir)) {
				snprintf(m->v2_base, sizeof(m->v2_base), "%s", dir);
				break;
			}
			lj_file_parent(dir, dir, sizeof(dir));
		}
	}
	m->base_cpuset = m->v2_base[0] && lists_controller(m->v2_base, "cgroup.controllers", "cpuset");
	m->base_cpu = m->v2_base[0] && lists_controller(m->v2_base, "cgroup.controllers", "cpu");
}

int lj_cgroup_discover(struct lj_cgroup_mounts *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *text = NULL;
	size_t cap = 0, n = 0, got;
	int ret;

	if (!f)
		return -errno;
	do {
		char *nt;

		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 16384;
			nt = realloc(text, cap);
			if (!nt) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = nt;
		}
		got = fread(text + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	text[n] = '\0';
	ret = lj_cgroup_parse_mountinfo(text, out);
	free(text);
	if (ret || !out->unified[0])
		return ret;
	out->v2_cpuset = lists_controller(out->unified, "cgroup.controllers", "cpuset");
	out->v2_cpu = lists_controller(out->unified, "cgroup.controllers", "cpu");
	out->systemd = !access("/run/systemd/system", F_OK);
	find_v2_base(out);
	return 0;
}

static bool file_exists(const char *path)
{
	return !access(path, F_OK);
}

/* @a "/" @b into @out (just @a when @b is empty); truncation cannot go unnoticed. */
static int path_join(char *out, size_t len, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + 1 + lb + 1 > len) {
		out[0] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(out, a, la);
	if (lb) {
		out[la] = '/';
		memcpy(out + la + 1, b, lb);
		la += 1 + lb;
	}
	out[la] = '\0';
	return 0;
}

/*
 * @cg's directories for the relative name @rel: v1 below each mount, v2
 * below the v2 base (the unified root for the root groups).
 */
static void set_paths(const struct lj_cgroup_mounts *m, const char *rel, struct lj_cgroup *cg)
{
	const char *v2 = cg->root ? m->unified : m->v2_base;
	bool v2_cpuset = cg->root ? m->v2_cpuset : m->base_cpuset;
	bool v2_cpu = cg->root ? m->v2_cpu : m->base_cpu;
	char probe[PATH_MAX + 32];

	cg->cpuset[0] = cg->cpu[0] = '\0';
	cg->v2_cpuset = cg->v2_cpu = false;
	cg->cpuset_noprefix = false;
	if (m->v1_cpuset[0]) {
		path_join(cg->cpuset, sizeof(cg->cpuset), m->v1_cpuset, rel);
		cg->cpuset_noprefix = m->v1_cpuset_noprefix;
	} else if (v2[0] && v2_cpuset) {
		path_join(cg->cpuset, sizeof(cg->cpuset), v2, rel);
		cg->v2_cpuset = true;
	}
	if (m->v1_cpu[0]) {
		path_join(cg->cpu, sizeof(cg->cpu), m->v1_cpu, rel);
	} else if (v2[0] && v2_cpu) {
		path_join(cg->cpu, sizeof(cg->cpu), v2, rel);
		cg->v2_cpu = true;
	}
	/* RT group scheduling shows as cpu.rt_runtime_us in the v1 cpu root. */
	snprintf(probe, sizeof(probe), "%s/cpu.rt_runtime_us", m->v1_cpu);
	cg->rt_group = m->v1_cpu[0] && file_exists(probe);
}

int lj_cgroup_root(const struct lj_cgroup_mounts *m, struct lj_cgroup *out)
{
	memset(out, 0, sizeof(*out));
	out->root = true;
	set_paths(m, "", out);
	if (!out->cpuset[0] && !out->cpu[0])
		return -ENODEV;
	return 0;
}

static int fail(struct lj_cgroup *cg, const char *dir, const char *file, int err)
{
	snprintf(cg->errfile, sizeof(cg->errfile), "%s%s%s", dir, file ? "/" : "", file ? file : "");
	return err;
}

/*
 * Make sure @parent (a v2 directory) hands every controller of @ctrls down
 * to its children: a claim each, taken back once no live run needs it.
 */
static int v2_enable(struct lj_setup *s, struct lj_cgroup *cg, const char *parent,
		     const char *const *ctrls)
{
	char path[PATH_MAX + 32];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", parent);
	ret = lj_setup_claim_subtree(s, path, ctrls);
	return ret ? fail(cg, path, NULL, ret) : 0;
}

/* Create one level @dir of one hierarchy (its tasks to go back to @origin); *created tells whether it is new. */
static int make_level(struct lj_setup *s, struct lj_cgroup *cg, const char *dir, const char *origin,
		      bool *created)
{
	int ret = lj_setup_mkdir_cgroup(s, dir, origin);

	*created = !ret;
	if (ret == -EEXIST)
		return 0;
	return ret ? fail(cg, dir, NULL, ret) : 0;
}

/* @cg's cpuset file @name ("cpuset.cpus"): without its prefix in a hierarchy mounted noprefix. */
static const char *cpuset_file(const struct lj_cgroup *cg, const char *name)
{
	return cg->cpuset_noprefix ? name + strlen("cpuset.") : name;
}

/* A new v1 cpuset level takes its parent's cpus and mems: attach fails with ENOSPC otherwise. */
static int v1_cpuset_inherit(struct lj_cgroup *cg, const char *dir)
{
	const char *const files[] = { cpuset_file(cg, "cpuset.cpus"), cpuset_file(cg, "cpuset.mems") };
	char parent[PATH_MAX], path[PATH_MAX + 32], val[4096];
	int ret;

	lj_file_parent(dir, parent, sizeof(parent));
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", parent, files[i]);
		ret = (int)lj_file_read(path, val, sizeof(val));
		if (ret < 0)
			return fail(cg, path, NULL, ret);
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		ret = lj_file_write(path, val);
		if (ret)
			return fail(cg, path, NULL, ret);
	}
	return 0;
}

/* One hierarchy to create a group in. */
struct hier {
	const char *base;		/* v1 mount, or the v2 base */
	bool v2;
	const char *const *ctrls;	/* v2: what every parent hands down; v1: ctrls[0] names the hierarchy */
	const char *origin;		/* where the caller's process is in it now */
};

/* Create @name (and nested levels) in @h; the leaf's path into @out. */
static int create_in(struct lj_setup *s, struct lj_cgroup *cg, const struct hier *h, const char *name,
		     int depth, char *out, size_t len)
{
	char dir[PATH_MAX];
	int ret;

	snprintf(dir, sizeof(dir), "%s/%s", h->base, name);
	for (int level = 1; level <= depth; level++) {
		bool created;

		if (level > 1) {
			size_t n = strlen(dir);

			snprintf(dir + n, sizeof(dir) - n, "/l%d", level);
		}
		if (h->v2) {
			char parent[PATH_MAX];

			lj_file_parent(dir, parent, sizeof(parent));
			ret = v2_enable(s, cg, parent, h->ctrls);
			if (ret)
				return ret;
		}
		ret = make_level(s, cg, dir, h->origin, &created);
		if (ret)
			return ret;
		if (created && !h->v2 && !strcmp(h->ctrls[0], "cpuset")) {
			ret = v1_cpuset_inherit(cg, dir);
			if (ret)
				return ret;
		}
	}
	snprintf(out, len, "%s", dir);
	return 0;
}

/* Any process in group @dir (its cgroup.procs not empty)? */
static bool has_procs(const char *dir)
{
	char path[PATH_MAX + 32], buf[64];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return lj_file_read(path, buf, sizeof(buf)) > 0;
}

/*
 * v2 lets a group other than the root hand controllers down only while it
 * holds no process. A delegated base usually holds the run itself (and
 * whatever systemd started with it, lj-matrix for instance): move them all
 * into a leaf of the base's own, BASE/ljkit-leaf.PID, removed again after
 * the group (its tasks back to the base, once it hands nothing down).
 */
static int v2_vacate(struct lj_setup *s, struct lj_cgroup *cg, const struct lj_cgroup_mounts *m,
		     const char *const *ctrls)
{
	char leaf[PATH_MAX], path[PATH_MAX + 32], buf[65536];
	bool handing = true, created;
	int ret;

	if (!strcmp(m->v2_base, m->unified) || !has_procs(m->v2_base))
		return 0;
	for (int c = 0; ctrls[c]; c++)
		handing &= lists_controller(m->v2_base, "cgroup.subtree_control", ctrls[c]);
	if (handing)
		return 0;
	if (snprintf(leaf, sizeof(leaf), "%s/ljkit-leaf.%d", m->v2_base, (int)getpid()) >= (int)sizeof(leaf))
		return fail(cg, m->v2_base, NULL, -ENAMETOOLONG);
	ret = make_level(s, cg, leaf, m->v2_base, &created);
	snprintf(path, sizeof(path), "%s/cgroup.procs", m->v2_base);
	if (!ret && lj_file_read(path, buf, sizeof(buf)) < 0)
		return fail(cg, path, NULL, -errno);
	snprintf(path, sizeof(path), "%s/cgroup.procs", leaf);
	for (char *save = NULL, *pid = ret ? NULL : strtok_r(buf, "\n", &save); pid;
	     pid = strtok_r(NULL, "\n", &save)) {
		int r = lj_file_write(path, pid);

		if (r && r != -ESRCH)
			return fail(cg, path, NULL, r);
	}
	return ret;
}

/*
 * Where v2 groups go: the base (struct lj_cgroup_mounts), which must offer
 * every controller the group needs; emptied of processes when it has to
 * hand them down. -ENOTSUP with @cg->why when systemd gave us no group.
 */
static int v2_prepare(struct lj_setup *s, struct lj_cgroup *cg, const struct lj_cgroup_mounts *m,
		      const char *const *ctrls)
{
	if (!m->v2_base[0]) {
		cg->why = "cgroup v2 managed by systemd, which owns the root's cgroup.subtree_control: ljkit makes its groups only in a group delegated to it; run under systemd-run --scope -p Delegate=yes";
		/* errfile: the group systemd put this process in, not delegated */
		if (lj_cgroup_self(m->unified, NULL, cg->errfile, sizeof(cg->errfile)))
			snprintf(cg->errfile, sizeof(cg->errfile), "%s", m->unified);
		return -ENOTSUP;
	}
	for (int c = 0; ctrls[c]; c++)
		if (!lists_controller(m->v2_base, "cgroup.controllers", ctrls[c])) {
			cg->why = "the delegated group does not offer the cpuset and cpu controllers (Delegate=yes delegates them)";
			return fail(cg, m->v2_base, "cgroup.controllers", -ENOTSUP);
		}
	return v2_vacate(s, cg, m, ctrls);
}

int lj_cgroup_create(struct lj_setup *s, const struct lj_cgroup_mounts *m,
		     const char *name, int depth, struct lj_cgroup *out)
{
	static const char *const v1_cpuset[] = { "cpuset", NULL }, *const v1_cpu[] = { "cpu", NULL };
	static const char *const v2_both[] = { "cpuset", "cpu", NULL };
	char origin[3][PATH_MAX];
	struct lj_cgroup root;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!name || !*name || name[0] == '/' || strstr(name, "..") || depth < 1 || depth > 16)
		return -EINVAL;
	ret = lj_cgroup_root(m, &root);
	if (ret)
		return ret;
	out->rt_group = root.rt_group;
	out->depth = depth;
	if (root.v2_cpuset || root.v2_cpu) {
		const char *const *need = root.v2_cpuset && root.v2_cpu ? v2_both : root.v2_cpuset ? v1_cpuset : v1_cpu;

		ret = v2_prepare(s, out, m, need);
		if (ret)
			return ret;
	}
	/* Where this process is now, in each hierarchy: its tasks go back there. */
	if (lj_cgroup_self(m->v1_cpuset, "cpuset", origin[0], PATH_MAX))
		origin[0][0] = '\0';
	if (lj_cgroup_self(m->v1_cpu, "cpu", origin[1], PATH_MAX))
		origin[1][0] = '\0';
	if (lj_cgroup_self(m->unified, NULL, origin[2], PATH_MAX))
		origin[2][0] = '\0';
	out->v2_cpuset = root.v2_cpuset;
	out->v2_cpu = root.v2_cpu;
	out->cpuset_noprefix = root.cpuset_noprefix;
	if (root.cpuset[0]) {
		struct hier h = { root.v2_cpuset ? m->v2_base : root.cpuset, root.v2_cpuset,
				  root.v2_cpuset && root.v2_cpu ? v2_both : v1_cpuset,
				  root.v2_cpuset ? origin[2] : origin[0] };

		ret = create_in(s, out, &h, name, depth, out->cpuset, sizeof(out->cpuset));
		if (ret)
			return ret;
	}
	if (root.cpu[0]) {
		struct hier h = { root.v2_cpu ? m->v2_base : root.cpu, root.v2_cpu, v1_cpu,
				  root.v2_cpu ? origin[2] : origin[1] };

		/* In v2 cpuset and cpu share one directory, created above. */
		if (root.v2_cpu && root.v2_cpuset)
			snprintf(out->cpu, sizeof(out->cpu), "%s", out->cpuset);
		else
			ret = create_in(s, out, &h, name, depth, out->cpu, sizeof(out->cpu));
	}
	return ret;
}

int lj_cgroup_open(const struct lj_cgroup_mounts *m, const char *name, int depth,
		   struct lj_cgroup *out)
{
	char rel[1024];
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!name || !*name || name[0] == '/' || strstr(name, "..") || depth < 1 || depth > 16)
		return -EINVAL;
	n = (size_t)snprintf(rel, sizeof(rel), "%s", name);
	for (int level = 2; level <= depth && n < sizeof(rel); level++)
		n += (size_t)snprintf(rel + n, sizeof(rel) - n, "/l%d", level);
	set_paths(m, rel, out);
	out->depth = depth;
	if (!out->cpuset[0] && !out->cpu[0])
		return -ENODEV;
	if (access(out->cpuset[0] ? out->cpuset : out->cpu, F_OK))
		return -errno;
	return 0;
}

static int write_ctl(struct lj_setup *s, struct lj_cgroup *cg, const char *dir,
		     const char *file, const char *val)
{
	char path[PATH_MAX + 32];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = s ? lj_setup_write(s, path, val) : lj_file_write(path, val);
	return ret ? fail(cg, path, NULL, ret) : 0;
}

int lj_cgroup_set_cpus(struct lj_setup *s, struct lj_cgroup *cg, const cpu_set_t *cpus)
{
	char list[1024];

	if (!cg->cpuset[0])
		return -ENODEV;
	lj_cpulist_format(cpus, list, sizeof(list));
	return write_ctl(s, cg, cg->cpuset, cpuset_file(cg, "cpuset.cpus"), list);
}

int lj_cgroup_set_mems(struct lj_setup *s, struct lj_cgroup *cg, const char *mems)
{
	if (!cg->cpuset[0])
		return -ENODEV;
	return write_ctl(s, cg, cg->cpuset, cpuset_file(cg, "cpuset.mems"), mems);
}

int lj_cgroup_get_cpus(const struct lj_cgroup *cg, cpu_set_t *out)
{
	char path[PATH_MAX + 32], buf[1024];
	ssize_t n;

	if (!cg->cpuset[0])
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/%s", cg->cpuset, cpuset_file(cg, "cpuset.cpus"));
	n = lj_file_read(path, buf, sizeof(buf));
	if (n == 0 && cg->v2_cpuset) {
		/* an empty v2 cpuset.cpus means "the parent's": read the effective set */
		snprintf(path, sizeof(path), "%s/cpuset.cpus.effective", cg->cpuset);
		n = lj_file_read(path, buf, sizeof(buf));
	}
	if (n < 0)
		return (int)n;
	if (n == 0) {
		CPU_ZERO(out);
		return 0;
	}
	return lj_parse_cpulist(buf, out, 0, NULL, 0);
}

int lj_cgroup_set_rt_runtime(struct lj_setup *s, struct lj_cgroup *cg, int64_t us)
{
	char dirs[16][PATH_MAX], val[32];
	int levels = cg->root ? 1 : cg->depth, ret;

	if (!cg->cpu[0] || cg->v2_cpu || !cg->rt_group)
		return -ENOTSUP;
	if (levels < 1 || levels > 16)
		levels = 1;
	/* Parents first: a child may not get more than its parent has. */
	snprintf(dirs[levels - 1], PATH_MAX, "%s", cg->cpu);
	for (int i = levels - 2; i >= 0; i--)
		lj_file_parent(dirs[i + 1], dirs[i], PATH_MAX);
	snprintf(val, sizeof(val), "%lld", (long long)us);
	for (int i = 0; i < levels; i++) {
		ret = write_ctl(s, cg, dirs[i], "cpu.rt_runtime_us", val);
		if (ret)
			return ret;
	}
	return 0;
}

int64_t lj_cgroup_rt_available(const struct lj_cgroup *cg)
{
	char top[PATH_MAX], parent[PATH_MAX], path[PATH_MAX + 300], buf[64];
	int64_t avail;
	struct dirent *d;
	DIR *dp;

	if (!cg->cpu[0] || !cg->rt_group || cg->root)
		return -ENOTSUP;
	snprintf(top, sizeof(top), "%s", cg->cpu);
	for (int i = 1; i < cg->depth; i++)
		lj_file_parent(top, top, sizeof(top));
	lj_file_parent(top, parent, sizeof(parent));
	snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", parent);
	if (lj_file_read(path, buf, sizeof(buf)) < 0)
		return -ENOTSUP;
	avail = strtoll(buf, NULL, 10);
	if (avail < 0)		/* -1: unlimited */
		return 950000;
	dp = opendir(parent);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		char sub[PATH_MAX + 256];

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", parent, d->d_name);
		if (!strcmp(sub, top))
			continue;
		snprintf(path, sizeof(path), "%s/cpu.rt_runtime_us", sub);
		if (lj_file_read(path, buf, sizeof(buf)) > 0)
			avail -= strtoll(buf, NULL, 10);
	}
	closedir(dp);
	return avail > 0 ? avail : 0;
}

int lj_cgroup_set_weight(struct lj_setup *s, struct lj_cgroup *cg, uint64_t weight)
{
	char val[32];

	if (!cg->cpu[0])
		return -ENODEV;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)weight);
	if (cg->v2_cpu) {
		if (weight < 1 || weight > 10000)
			return -ERANGE;
		return write_ctl(s, cg, cg->cpu, "cpu.weight", val);
	}
	if (weight < 2 || weight > 262144)
		return -ERANGE;
	return write_ctl(s, cg, cg->cpu, "cpu.shares", val);
}

int lj_cgroup_set_max(struct lj_setup *s, struct lj_cgroup *cg, int64_t quota_us, int64_t period_us)
{
	char val[64];
	int ret;

	if (!cg->cpu[0])
		return -ENODEV;
	if (quota_us <= 0 || period_us <= 0)
		return -ERANGE;
	if (cg->v2_cpu) {
		snprintf(val, sizeof(val), "%lld %lld", (long long)quota_us, (long long)period_us);
		return write_ctl(s, cg, cg->cpu, "cpu.max", val);
	}
	snprintf(val, sizeof(val), "%lld", (long long)period_us);
	ret = write_ctl(s, cg, cg->cpu, "cpu.cfs_period_us", val);
	snprintf(val, sizeof(val), "%lld", (long long)quota_us);
	return ret ? ret : write_ctl(s, cg, cg->cpu, "cpu.cfs_quota_us", val);
}

int lj_cgroup_set_uclamp(struct lj_setup *s, struct lj_cgroup *cg, double min_pct, double max_pct)
{
	const char *files[2] = { "cpu.uclamp.min", "cpu.uclamp.max" };
	double pct[2] = { min_pct, max_pct };
	char path[PATH_MAX + 32], val[32];
	int ret;

	if (!cg->cpu[0])
		return -ENODEV;
	if (min_pct > 100 || max_pct > 100 || (min_pct >= 0 && max_pct >= 0 && min_pct > max_pct))
		return -ERANGE;
	for (int i = 0; i < 2; i++) {
		if (pct[i] < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cg->cpu, files[i]);
		if (access(path, F_OK))
			return fail(cg, path, NULL, -ENOTSUP);
		/* the kernel takes a percentage with two decimals, or "max" */
		if (pct[i] == 100)
			snprintf(val, sizeof(val), "max");
		else
			snprintf(val, sizeof(val), "%.2f", pct[i]);
		ret = write_ctl(s, cg, cg->cpu, files[i], val);
		if (ret)
			return ret;
	}
	return 0;
}

static int attach(struct lj_cgroup *cg, pid_t id, bool thread)
{
	const char *dirs[2] = { cg->cpuset, cg->cpu };
	bool v2[2] = { cg->v2_cpuset, cg->v2_cpu };
	char val[32];
	int ret;

	snprintf(val, sizeof(val), "%d", (int)(id ? id : (thread ? gettid() : getpid())));
	for (int i = 0; i < 2; i++) {
		const char *file;

		if (!dirs[i][0] || (i == 1 && !strcmp(dirs[0], dirs[1])))
			continue;
		if (v2[i])
			file = thread ? "cgroup.threads" : "cgroup.procs";
		else
			file = thread ? "tasks" : "cgroup.procs";
		ret = write_ctl(NULL, cg, dirs[i], file, val);
		if (ret)
			return ret;
	}
	return 0;
}

int lj_cgroup_attach(struct lj_cgroup *cg, pid_t tid)
{
	return attach(cg, tid, true);
}

int lj_cgroup_attach_process(struct lj_cgroup *cg, pid_t pid)
{
	return attach(cg, pid, false);
}

const char *lj_cgroup_hint(int err, const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;

	base = base ? base + 1 : (file ? file : "");
	switch (-err) {
	case ENOSPC:
		return "the group's cpuset.cpus and cpuset.mems must be set before a task can join";
	case ERANGE:
		return "CPUs outside the parent group's cpuset";
	case EINVAL:
		if (!strcmp(base, "cpuset.cpus") || !strcmp(base, "cpus"))
			return "CPUs outside the parent group's cpuset, or not online";
		if (!strcmp(base, "tasks") || !strcmp(base, "cgroup.procs"))
			return "an RT task cannot join a group whose cpu.rt_runtime_us is 0 (use --rt-runtime)";
		if (!strcmp(base, "cpu.rt_runtime_us"))
			return "more than the parent group (or sched_rt_runtime_us) grants";
		return "";
	case EPERM:
	case EACCES:
		return "needs root (CAP_SYS_ADMIN)";
	case EBUSY:
		if (!strcmp(base, "cgroup.subtree_control"))
			return "the parent group holds processes (v2 allows no internal processes)";
		return "";
	case EOPNOTSUPP:
		return "a thread can join a v2 group only if it is threaded";
	}
	return "";
}
