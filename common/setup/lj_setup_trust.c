// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_setup_trust - what the setup stack trusts (docs/security.md): its own
 * journal directory, journal files only it could have written, and, on
 * replay, only the kinds of files ljkit itself changes.
 */
#include "lj_setup_priv.h"
#include "lj_parse.h"
#include "lj_preempt.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu/"

/* Root, and for a run without privilege the user itself (it can change only its own files). */
bool lj_setup_trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* No link of another user on the way as @dir is spelled: it could be pointed elsewhere later. */
static int check_links(const char *dir, char *why, size_t len)
{
	char prefix[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);

	if (n >= sizeof(prefix))
		return -ENAMETOOLONG;
	for (size_t i = 1; i <= n; i++) {
		if (i < n && dir[i] != '/')
			continue;
		memcpy(prefix, dir, i);
		prefix[i] = '\0';
		if (!lstat(prefix, &st) && S_ISLNK(st.st_mode) && !lj_setup_trusted_uid(st.st_uid)) {
			lj_why(why, len, "journal directory %s: %s is a symbolic link of uid %u: refused",
					 dir, prefix, (unsigned)st.st_uid);
			return -EPERM;
		}
	}
	return 0;
}

/* Every directory above @dir: trusted, and not writable by others unless sticky (/tmp). */
static int check_ancestors(const char *dir, char *why, size_t len)
{
	char real[PATH_MAX], *slash;
	struct stat st;

	if (!realpath(dir, real))
		return -errno;
	while ((slash = strrchr(real, '/'))) {
		if (slash == real)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(real, &st))
			return -errno;
		if (!lj_setup_trusted_uid(st.st_uid) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))) {
			lj_why(why, len, "journal directory %s: %s above it can be changed by others (uid %u, mode %04o): refused",
					 dir, real, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
		if (!strcmp(real, "/"))
			break;
	}
	return 0;
}

int lj_setup_dir_ready(const char *dir, bool create, char *why, size_t len)
{
	struct stat st;
	int ret = check_links(dir, why, len);	/* before anything is made through them */

	if (ret)
		return ret;
	/* Only the last component: a missing parent is an error, not something to make as root. */
	if (create && mkdir(dir, 0700) && errno != EEXIST) {
		ret = -errno;

		lj_why(why, len, "cannot create journal directory %s: %s", dir, strerror(-ret));
		return ret;
	}
	if (lstat(dir, &st)) {
		ret = -errno;

		lj_why(why, len, "journal directory %s: %s", dir, strerror(-ret));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		lj_why(why, len, "journal directory %s is not a directory (a symbolic link is not followed): refused", dir);
		return -ENOTDIR;
	}
	if (!lj_setup_trusted_uid(st.st_uid)) {
		lj_why(why, len, "journal directory %s belongs to uid %u, not root: refused",
				 dir, (unsigned)st.st_uid);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		lj_why(why, len, "journal directory %s can be written by group or others (mode %04o): refused; make it 0700",
				 dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return check_ancestors(dir, why, len);
}

int lj_setup_open_trusted(const char *path, struct stat *st, char *why, size_t len)
{
	/* O_NONBLOCK: a FIFO planted under a journal's name must not hang the reader. */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ret = 0;

	if (fd < 0) {
		ret = -errno;
		lj_why(why, len, "%s: %s", path,
				 ret == -ELOOP ? "a symbolic link: refused" : strerror(-ret));
		return ret;
	}
	if (fstat(fd, st))
		ret = -errno;
	else if (!S_ISREG(st->st_mode))
		ret = -EINVAL;
	else if (!lj_setup_trusted_uid(st->st_uid) || (st->st_mode & (S_IWGRP | S_IWOTH)) ||
		 st->st_nlink != 1)
		ret = -EPERM;
	if (ret) {
		lj_why(why, len, "%s is not a journal ljkit wrote (%s, uid %u, mode %04o, %u links): refused",
				 path, S_ISREG(st->st_mode) ? "regular file" : "not a regular file",
				 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777),
				 (unsigned)st->st_nlink);
		close(fd);
		return ret;
	}
	return fd;
}

/* ---- the replay allow-list ---- */

/* Absolute, no "." or ".." component, no "//", no control characters. */
static bool clean_path(const char *p)
{
	if (p[0] != '/' || strlen(p) >= PATH_MAX || strstr(p, "//") || strstr(p, "/./") ||
	    strstr(p, "/../"))
		return false;
	for (const char *c = p; *c; c++)
		if (iscntrl((unsigned char)*c))
			return false;
	return strcmp(p + strlen(p) - 2, "/.") && strcmp(p + strlen(p) - 3, "/..") &&
	       p[strlen(p) - 1] != '/';
}

/* @s starts with @prefix then decimal digits; returns what follows them, or NULL. */
static const char *after_number(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) || !isdigit((unsigned char)s[n]))
		return NULL;
	for (s += n; isdigit((unsigned char)*s); s++)
		;
	return s;
}

/* cpuN/cpufreq/scaling_governor, cpufreq/policyN/scaling_governor, cpuN/cpuidle/stateM/disable. */
static bool cpu_sysfs_file(const char *path)
{
	const char *rest, *st;

	if (strncmp(path, CPU_SYSFS, strlen(CPU_SYSFS)))
		return false;
	path += strlen(CPU_SYSFS);
	if ((rest = after_number(path, "cpufreq/policy")))
		return !strcmp(rest, "/scaling_governor");
	if (!(rest = after_number(path, "cpu")))
		return false;
	if (!strcmp(rest, "/cpufreq/scaling_governor"))
		return true;
	st = after_number(rest, "/cpuidle/state");
	return st && !strcmp(st, "/disable");
}

/*
 * The cgroup control files ljkit writes (lj_cgroup): never tasks, procs or
 * release agents. In a cpuset hierarchy mounted "noprefix" (Android's
 * /dev/cpuset) its two have no "cpuset." prefix.
 */
static bool cgroup_control(const char *name, bool cpuset_noprefix)
{
	static const char *const files[] = {
		"cgroup.subtree_control", "cpuset.cpus", "cpuset.mems", "cpu.rt_runtime_us",
		"cpu.rt_period_us", "cpu.weight", "cpu.shares", "cpu.uclamp.min", "cpu.uclamp.max",
		"cpu.max", "cpu.cfs_quota_us", "cpu.cfs_period_us",
	};

	if (cpuset_noprefix)
		return !strcmp(name, "cpus") || !strcmp(name, "mems");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(name, files[i]))
			return true;
	return false;
}

/* Unescape a mountinfo field in place (\040 for a space and the like). */
static void unoctal(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * The cgroup (v1 or v2) mount point @path is strictly below, into @mnt;
 * false if none. @cpuset_noprefix (may be NULL): it is a v1 cpuset
 * hierarchy mounted "noprefix".
 */
static bool under_cgroup_mount(const char *path, char *mnt, size_t len, bool *cpuset_noprefix)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *fields[6] = { 0 }, *save = NULL, *dash = strstr(line, " - "), *fstype, *superopts;
		int n = 0;

		if (!dash)
			continue;
		fstype = dash + 3;
		if (strncmp(fstype, "cgroup ", 7) && strncmp(fstype, "cgroup2 ", 8))
			continue;
		superopts = strrchr(fstype, ' ');
		*dash = '\0';
		for (char *t = strtok_r(line, " ", &save); t && n < 6; t = strtok_r(NULL, " ", &save))
			fields[n++] = t;
		if (n < 5)
			continue;
		unoctal(fields[4]);
		if (lj_setup_path_within(path, fields[4]) && strcmp(path, fields[4])) {
			snprintf(mnt, len, "%s", fields[4]);
			if (cpuset_noprefix)
				*cpuset_noprefix = !strncmp(fstype, "cgroup ", 7) && superopts &&
						   lj_opts_has(superopts + 1, "cpuset") &&
						   lj_opts_has(superopts + 1, "noprefix");
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* A value written back: one line of text, as the kernel files ljkit changes hold. */
static bool plain_value(const char *v)
{
	for (; *v; v++)
		if (!isprint((unsigned char)*v) && *v != '\t')
			return false;
	return true;
}

static bool sched_rt_sysctl(const char *path)
{
	return !strcmp(path, "/proc/sys/kernel/sched_rt_runtime_us") ||
	       !strcmp(path, "/proc/sys/kernel/sched_rt_period_us");
}

/* A file entry: the literal path and where it really leads must both be a file ljkit changes. */
static int file_allowed(const char *path, char *real, size_t rlen, char *why, size_t len)
{
	char mnt[PATH_MAX], rmnt[PATH_MAX], *slash = strrchr(path, '/');
	bool noprefix = false;
	bool cg = under_cgroup_mount(path, mnt, sizeof(mnt), &noprefix) && cgroup_control(slash + 1, noprefix);
	char buf[PATH_MAX];

	if (!sched_rt_sysctl(path) && !cpu_sysfs_file(path) && !cg) {
		lj_why(why, len, "%s is not a file ljkit changes (cgroup controls, cpufreq governors, cpuidle switches, sched_rt sysctls)", path);
		return -EPERM;
	}
	if (!realpath(path, buf)) {
		if (errno != ENOENT)
			return -errno;
		snprintf(real, rlen, "%s", path);	/* gone with its group or CPU: nothing to restore */
		return 0;
	}
	if (strcmp(buf, path) && !(cg ? under_cgroup_mount(buf, rmnt, sizeof(rmnt), NULL) && !strcmp(mnt, rmnt) &&
				       !strcmp(strrchr(buf, '/'), slash)
				    : cpu_sysfs_file(buf))) {
		lj_why(why, len, "%s leads to %s, not a file ljkit changes", path, buf);
		return -EPERM;
	}
	snprintf(real, rlen, "%s", buf);
	return 0;
}

/*
 * A group's origin, where its tasks go back: none, or a group of the same
 * hierarchy (@mnt, the group's mount): its root or a clean path below it,
 * no link on the way.
 */
static bool origin_allowed(const char *origin, const char *mnt)
{
	char buf[PATH_MAX];

	if (!origin)
		return true;
	if (!clean_path(origin) || !lj_setup_path_within(origin, mnt))
		return false;
	return !realpath(origin, buf) ? errno == ENOENT : !strcmp(buf, origin);
}

int lj_setup_entry_allowed(const struct lj_setup_entry *e, char *real, size_t rlen,
			   char *why, size_t len)
{
	char mnt[PATH_MAX];
	enum lj_preempt_model m;

	snprintf(real, rlen, "%s", e->path);
	switch (e->kind) {
	case LJ_SETUP_PREEMPT:
		if (!strcmp(e->path, "preempt") && e->old && !lj_preempt_parse(e->old, &m))
			return 0;
		lj_why(why, len, "preempt entry '%s' '%s' is not a preemption mode",
				 e->path, e->old ? e->old : "");
		return -EPERM;
	case LJ_SETUP_CGROUP:
		if (clean_path(e->path) && under_cgroup_mount(e->path, mnt, sizeof(mnt), NULL)) {
			char buf[PATH_MAX];

			if (!origin_allowed(e->old, mnt)) {
				lj_why(why, len, "group %s: its tasks' origin %s is not a group of the same hierarchy",
				       e->path, e->old);
				return -EPERM;
			}
			if (!realpath(e->path, buf) ? errno == ENOENT : !strcmp(buf, e->path))
				return 0;
		}
		lj_why(why, len, "%s is not a group below a cgroup mount", e->path);
		return -EPERM;
	case LJ_SETUP_FILE:
		if (!clean_path(e->path) || !e->old || !plain_value(e->old)) {
			lj_why(why, len, "entry for %s is not a path and value ljkit writes", e->path);
			return -EPERM;
		}
		return file_allowed(e->path, real, rlen, why, len);
	case LJ_SETUP_TRACEFS_MOUNT:
	case LJ_SETUP_TRACEFS_INSTANCE:
		return lj_setup_tracefs_allowed(e, why, len);
	}
	return -EPERM;
}
