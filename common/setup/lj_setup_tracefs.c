// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_setup_tracefs - tracefs in the setup stack: the --explain recorder's
 * instance and the mount it may share with other runs, journaled like any
 * other change, so that a killed recorder is undone by lj-env --restore.
 */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define INSTANCES LJ_SETUP_TRACEFS "/instances/"
#define PREFIX "ljkit-"

/* This process's mount namespace, "mnt:[N]": a mount is known by its path in one namespace. */
static int mount_ns(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/ns/mnt", out, len - 1);

	if (n <= 0)
		return n ? -errno : -EIO;
	out[n] = '\0';
	return 0;
}

/* "mnt:[" digits "]" */
static bool ns_name(const char *s)
{
	if (strncmp(s, "mnt:[", 5) || !isdigit((unsigned char)s[5]))
		return false;
	for (s += 5; isdigit((unsigned char)*s); s++)
		;
	return !strcmp(s, "]");
}

/* Is the topmost mount at @path (in this namespace) a tracefs? */
static bool tracefs_at(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	bool top = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *dash = strstr(line, " - "), *save = NULL, *tok;
		int field = 0;

		if (!dash)
			continue;
		*dash = '\0';
		for (tok = strtok_r(line, " ", &save); tok && field < 4; tok = strtok_r(NULL, " ", &save))
			field++;
		if (tok && !strcmp(tok, path))
			top = !strncmp(dash + 3, "tracefs ", 8);	/* a later line is mounted over an earlier */
	}
	free(line);
	fclose(f);
	return top;
}

struct claim {
	const char *path, *ns;
	int n;
};

static int count_claim(const char *jpath, struct lj_setup_jfile *j, void *arg)
{
	struct claim *c = arg;

	for (int i = 0; i < j->n; i++)
		c->n += !j->e[i].undone && j->e[i].kind == LJ_SETUP_TRACEFS_MOUNT &&
			!strcmp(j->e[i].path, c->path) && j->e[i].old && !strcmp(j->e[i].old, c->ns);
	return 0;
}

/*
 * Pending claims of the tracefs at @path in namespace @ns, over every
 * journal of the directory, live or stale (a killed run's mount is still
 * an ljkit mount until its journal is replayed). Called locked.
 */
static int count_claims(const char *path, const char *ns)
{
	struct claim c = { path, ns, 0 };
	DIR *dp = opendir(lj_setup_journal_dir());

	if (!dp)
		return 0;
	lj_setup_journal_each(lj_setup_journal_dir(), dp, count_claim, &c);
	closedir(dp);
	return c.n;
}

int lj_setup_tracefs_mount(struct lj_setup *s, bool *mounted)
{
	char ns[64];
	struct stat st;
	int lock, ret;

	*mounted = false;
	s->conflict[0] = '\0';
	ret = mount_ns(ns, sizeof(ns));
	if (ret)
		return ret;
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	if (tracefs_at(LJ_SETUP_TRACEFS)) {
		/* Mounted by an ljkit run: share it. By anyone else: theirs, never unmounted. */
		ret = count_claims(LJ_SETUP_TRACEFS, ns) ? lj_setup_push_locked(s, LJ_SETUP_TRACEFS_MOUNT,
									    LJ_SETUP_TRACEFS, ns) : 0;
	} else if (stat(LJ_SETUP_TRACEFS, &st)) {
		ret = -ENODEV;
	} else if (!(ret = lj_setup_push_locked(s, LJ_SETUP_TRACEFS_MOUNT, LJ_SETUP_TRACEFS, ns))) {
		if (mount("nodev", LJ_SETUP_TRACEFS, "tracefs", 0, NULL)) {
			ret = errno == ENODEV ? -ENODEV : -errno;
			lj_setup_forget_last(s);
		} else {
			*mounted = true;
		}
	}
	lj_setup_unlock_dir(lock);
	return ret;
}

int lj_setup_tracefs_instance(struct lj_setup *s, char *name, size_t len)
{
	char path[PATH_MAX], owner[48];
	int lock, ret;

	s->conflict[0] = '\0';
	lj_setup_owner_format(owner, sizeof(owner));
	if (snprintf(name, len, PREFIX "%s", owner) >= (int)len ||
	    snprintf(path, sizeof(path), INSTANCES "%s", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	ret = lj_setup_push_locked(s, LJ_SETUP_TRACEFS_INSTANCE, path, NULL);
	lj_setup_unlock_dir(lock);
	if (ret)
		return ret;
	if (mkdir(path, 0755)) {
		ret = -errno;
		lj_setup_forget_last(s);	/* nothing made: never remove a stranger's instance */
	}
	return ret;
}

/* ---- undo ---- */

/* Stop the instance's recording and remove it; gone already is done. */
static int remove_instance(const char *dir)
{
	char on[PATH_MAX + 16];
	int ret;

	snprintf(on, sizeof(on), "%s/tracing_on", dir);
	ret = lj_file_write(on, "0");
	if (ret == -ENOENT)
		return 0;
	if (rmdir(dir) && errno != ENOENT)
		return -errno;
	return 0;
}

/*
 * tracefs is not mounted here (the run that mounted it was in a mount
 * namespace that is gone, or someone unmounted it), but the instance
 * lives on in the kernel: remove it through a mount of our own, in a
 * child's private namespace that dies with the child, so nothing of this
 * mount can be left behind.
 */
static int remove_instance_apart(const char *dir)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		int ret;

		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("nodev", LJ_SETUP_TRACEFS, "tracefs", 0, NULL))
			_exit(errno & 0xff);
		ret = remove_instance(dir);
		_exit(-ret & 0xff);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	return -WEXITSTATUS(status);
}

static int undo_instance(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	struct stat st;
	int ret = stat(INSTANCES, &st) ? remove_instance_apart(e->path) : remove_instance(e->path);

	if (ret)
		lj_setup_say(say, arg, "cannot remove tracefs instance %s: %s", e->path, strerror(-ret));
	else
		lj_setup_say(say, arg, "stopped and removed tracefs instance %s", e->path);
	return ret;
}

/* The last claim unmounts; a claim of another namespace can only be undone there, or is gone with it. */
static int undo_mount_locked(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	char ns[64];
	pid_t other;
	int n, ret = mount_ns(ns, sizeof(ns));

	if (ret)
		return ret;
	if (strcmp(ns, e->old)) {
		if (!(other = lj_setup_ns_member("mnt", e->old, 0, 0)))
			return 0;	/* the namespace, with its mount, is gone */
		lj_setup_say(say, arg, "cannot unmount tracefs at %s: it is in mount namespace %s (pid %d), not this one",
			     e->path, e->old, (int)other);
		return -EBUSY;
	}
	if (!tracefs_at(e->path))
		return 0;
	n = count_claims(e->path, ns);
	if (n > 1) {
		lj_setup_say(say, arg, "left tracefs mounted at %s: %d other ljkit run%s use%s it",
			     e->path, n - 1, n == 2 ? "" : "s", n == 2 ? "s" : "");
		return 0;
	}
	if (umount2(e->path, 0)) {
		ret = -errno;
		lj_setup_say(say, arg, "cannot unmount tracefs at %s: %s%s", e->path, strerror(-ret),
			     ret == -EBUSY ? " (a program outside ljkit has files open in it)" : "");
		return ret;
	}
	lj_setup_say(say, arg, "unmounted tracefs at %s", e->path);
	return 0;
}

int lj_setup_tracefs_undo(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	char why[PATH_MAX + 256] = "";
	int lock, ret;

	if (e->kind == LJ_SETUP_TRACEFS_INSTANCE)
		return undo_instance(e, say, arg);
	/* Counting the claims and unmounting are one step for the other runs. */
	lock = lj_setup_lock_dir(why, sizeof(why));
	if (lock < 0) {
		lj_setup_say(say, arg, "cannot unmount tracefs at %s: %s", e->path, why[0] ? why : strerror(-lock));
		return lock;
	}
	ret = undo_mount_locked(e, say, arg);
	lj_setup_unlock_dir(lock);
	return ret;
}

/* LJ_SETUP_TRACEFS/instances/ljkit-OWNER (lj_setup_owner_format): an instance ljkit names, and whose. */
static bool instance_owner(const char *path, pid_t *pid, unsigned long long *pidns)
{
	const char *end;

	if (strncmp(path, INSTANCES PREFIX, strlen(INSTANCES PREFIX)))
		return false;
	end = lj_setup_owner_parse(path + strlen(INSTANCES PREFIX), pid, pidns);
	return end && !*end;
}

/* Replay removes only an ljkit instance and unmounts only the one tracefs mount point ljkit uses. */
int lj_setup_tracefs_allowed(const struct lj_setup_entry *e, char *why, size_t len)
{
	pid_t pid;
	unsigned long long pidns;

	if (e->kind == LJ_SETUP_TRACEFS_INSTANCE && instance_owner(e->path, &pid, &pidns) && !e->old)
		return 0;
	if (e->kind == LJ_SETUP_TRACEFS_MOUNT && !strcmp(e->path, LJ_SETUP_TRACEFS) && e->old &&
	    ns_name(e->old))
		return 0;
	lj_why(why, len, "%s is not a tracefs %s ljkit makes", e->path,
	       e->kind == LJ_SETUP_TRACEFS_MOUNT ? "mount" : "instance");
	return -EPERM;
}

/* ---- instances of runs that are gone ---- */

/* Whether @path is one of @list's comma-separated directories. */
static bool listed(const char *list, const char *path)
{
	size_t n = strlen(path);

	for (const char *p = list; p && *p; p = strchr(p, ','), p = p ? p + 2 : NULL)
		if (!strncmp(p, path, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/*
 * Instances "ljkit-OWNER" whose process is gone, recording (@recording:
 * tracing_on 1, a killed run's) or not (a trace kept for the user after a
 * break), and (@only non-NULL) among @only's; removed when @drop. Return:
 * how many, their directories in @names, comma-separated (as many whole
 * names as fit).
 */
static int gone_instances(bool recording, const char *only, bool drop, char *names, size_t len)
{
	DIR *dp = opendir(INSTANCES);
	struct dirent *d;
	int n = 0;

	if (names && len)
		names[0] = '\0';
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		char path[PATH_MAX], on[PATH_MAX + 16], state[8] = "";
		unsigned long long pidns;
		pid_t pid;

		snprintf(path, sizeof(path), INSTANCES "%s", d->d_name);
		if (!instance_owner(path, &pid, &pidns) || (only && !listed(only, path)) ||
		    lj_setup_owner_alive(pid, 0, pidns))
			continue;
		snprintf(on, sizeof(on), "%s/tracing_on", path);
		if (lj_file_read(on, state, sizeof(state)) < 0 || !strcmp(state, "1") != recording)
			continue;
		if (drop && rmdir(path))
			continue;
		/* Whole names only: a cut one could name another run's instance. */
		if (names && strlen(names) + strlen(path) + 2 < len)
			snprintf(names + strlen(names), len - strlen(names), "%s%s", n ? ", " : "", path);
		n++;
	}
	closedir(dp);
	return n;
}

int lj_setup_tracefs_stale(char *names, size_t len)
{
	return gone_instances(true, NULL, false, names, len);
}

int lj_setup_tracefs_kept(char *names, size_t len)
{
	return gone_instances(false, NULL, false, names, len);
}

int lj_setup_tracefs_drop_kept(const char *only, char *names, size_t len)
{
	return only && *only ? gone_instances(false, only, true, names, len) : 0;
}
