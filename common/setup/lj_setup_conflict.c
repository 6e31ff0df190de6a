// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup_conflict - one setting, one owner: the live-journal check and the journal directory lock. */
#include "lj_setup_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/*
 * Call @fn with every journal of another live ljkit process (not @s's, not
 * this process's) until it returns non-zero; that value, or 0. A file
 * that is not a journal ljkit wrote is nobody's claim and is skipped.
 */
struct live_ctx {
	const struct lj_setup *s;
	int (*fn)(const struct lj_setup_jfile *j, const char *jpath, void *arg);
	void *arg;
};

static int live_one(const char *jpath, struct lj_setup_jfile *j, void *arg)
{
	struct live_ctx *c = arg;

	if ((c->s && !strcmp(jpath, c->s->journal)) || lj_setup_owner_self(j->pid, 0, j->pidns) ||
	    !lj_setup_journal_alive(j))
		return 0;
	return c->fn(j, jpath, c->arg);
}

static int each_live_journal(const struct lj_setup *s,
			     int (*fn)(const struct lj_setup_jfile *j, const char *jpath, void *arg), void *arg)
{
	struct live_ctx c = { s, fn, arg };
	DIR *dp = opendir(lj_setup_journal_dir());
	int ret;

	if (!dp)
		return 0;	/* nobody has a journal */
	ret = lj_setup_journal_each(lj_setup_journal_dir(), dp, live_one, &c);
	closedir(dp);
	return ret;
}

struct conflict_query {
	struct lj_setup *s;
	enum lj_setup_kind kind;
	const char *path;
};

static int conflicts_with(const struct lj_setup_jfile *j, const char *jpath, void *arg)
{
	struct conflict_query *q = arg;
	struct lj_setup *s = q->s;
	enum lj_setup_kind kind = q->kind;
	const char *path = q->path;
	int ret = 0;

	for (int i = 0; i < j->n && !ret; i++) {
		const struct lj_setup_entry *e = &j->e[i];
		bool hit;

		/* A tracefs mount is shared: each run claims it, the last one out unmounts. */
		if (e->undone || e->kind == LJ_SETUP_TRACEFS_MOUNT)
			continue;
		if (kind == LJ_SETUP_PREEMPT || e->kind == LJ_SETUP_PREEMPT)
			hit = kind == e->kind;
		else if (e->kind == LJ_SETUP_CGROUP)
			hit = lj_setup_path_within(path, e->path);
		else	/* controllers in a subtree_control are claimed by each run that needs them */
			hit = !strcmp(path, e->path) && !lj_setup_is_subtree_claim(e->path, e->old);
		if (hit && e->kind == LJ_SETUP_CGROUP) {
			snprintf(s->conflict, sizeof(s->conflict),
				 "group %s is in use by %s (pid %d, journal %s)",
				 e->path, j->prog[0] ? j->prog : "another ljkit process",
				 (int)j->pid, jpath);
			ret = -EBUSY;
		} else if (hit) {
			snprintf(s->conflict, sizeof(s->conflict),
				 "%s is being changed by %s (pid %d, journal %s)",
				 path, j->prog[0] ? j->prog : "another ljkit process",
				 (int)j->pid, jpath);
			ret = -EBUSY;
		}
	}
	return ret;
}

/* Another live process's journal holds @path (or a group containing it)? */
int lj_setup_check_conflict(struct lj_setup *s, enum lj_setup_kind kind, const char *path)
{
	struct conflict_query q = { s, kind, path };

	return each_live_journal(s, conflicts_with, &q);
}

struct claim_query {
	const char *path, *old;
};

static int holds_claim(const struct lj_setup_jfile *j, const char *jpath, void *arg)
{
	const struct claim_query *q = arg;

	for (int i = 0; i < j->n; i++)
		if (!j->e[i].undone && j->e[i].kind == LJ_SETUP_FILE && !strcmp(j->e[i].path, q->path) &&
		    j->e[i].old && !strcmp(j->e[i].old, q->old))
			return j->pid;
	return 0;
}

pid_t lj_setup_claim_holder(const struct lj_setup *s, const char *path, const char *old)
{
	struct claim_query q = { path, old };

	return each_live_journal(s, holds_claim, &q);
}

/* $LJ_LOCK_TIMEOUT seconds (a test's knob; default 30): how long to wait for the lock. */
static double lock_timeout_s(void)
{
	const char *t = getenv("LJ_LOCK_TIMEOUT");
	char *end;
	double v;

	if (!t || !*t)
		return 30;
	v = strtod(t, &end);
	return *end || v < 0 || v > 86400 ? 30 : v;
}

/*
 * Does process @pid have the file @st open? A stat through /proc/PID/fd
 * sees the file as this process does, where /proc/locks may not: on
 * overlayfs (a container's or a guest's root) it names the upper layer's
 * device and inode, not the overlay's that fstat gives.
 */
static bool has_open(int pid, const struct stat *st)
{
	char dir[64], fdpath[64 + sizeof(((struct dirent *)0)->d_name)];
	struct dirent *d;
	struct stat fst;
	bool found = false;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(fdpath, sizeof(fdpath), "%s/%s", dir, d->d_name);
		found = !stat(fdpath, &fst) && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino;
	}
	closedir(dp);
	return found;
}

/* The pid /proc/locks gives for the flock on @st's file, or 0 (two passes: the inode as named, then any FLOCK holder that has the file open). */
static int flock_holder_pid(const struct stat *st)
{
	int found = 0;

	for (int pass = 0; pass < 2 && !found; pass++) {
		FILE *f = fopen("/proc/locks", "re");
		char line[256];

		if (!f)
			return 0;
		while (!found && fgets(line, sizeof(line), f)) {
			unsigned int maj, min;
			unsigned long ino;
			char type[16];
			int pid;

			if (strstr(line, "->") ||
			    sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &pid, &maj, &min, &ino) != 5 ||
			    strcmp(type, "FLOCK") || pid <= 0)
				continue;
			if (pass == 0 ? ino == st->st_ino && maj == major(st->st_dev) && min == minor(st->st_dev)
				      : has_open(pid, st))
				found = pid;
		}
		fclose(f);
	}
	return found;
}

/*
 * Who holds the flock on @fd: /proc/locks names the pid (whoever it is,
 * ljkit or not); else the pid the last ljkit holder wrote into the file;
 * else "?".
 */
static void lock_holder(int fd, char *out, size_t len)
{
	char line[256];
	struct stat st;
	ssize_t n;
	int pid;

	snprintf(out, len, "?");
	if (!fstat(fd, &st) && (pid = flock_holder_pid(&st)) > 0) {
		snprintf(out, len, "%d", pid);
		return;
	}
	n = pread(fd, line, len - 1 < sizeof(line) - 1 ? len - 1 : sizeof(line) - 1, 0);
	if (n > 0) {
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && strlen(line) < len)
			memcpy(out, line, strlen(line) + 1);
	}
}

/* Poll for the flock: a holder that never lets go costs a message, not a hang. */
static int wait_for_lock(int fd, const char *path, char *why, size_t len)
{
	double limit = lock_timeout_s(), waited = 0;
	long pause_ms = 1;
	char holder[32];

	while (flock(fd, LOCK_EX | LOCK_NB)) {
		struct timespec ts;

		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return -errno;
		if (waited >= limit) {
			lock_holder(fd, holder, sizeof(holder));
			lj_why(why, len, "the setup lock %s is held by pid %s for over %g s: is it stuck?",
					 path, holder, limit);
			return -ETIMEDOUT;
		}
		ts.tv_sec = pause_ms / 1000;
		ts.tv_nsec = (pause_ms % 1000) * 1000000L;
		nanosleep(&ts, NULL);
		waited += (double)pause_ms / 1000;
		if (pause_ms < 100)
			pause_ms *= 2;
	}
	return 0;
}

/*
 * The lock this thread holds, for nesting: an flock belongs to an open
 * file, so a second open in the same thread would wait for itself. Other
 * threads open their own and wait as another process would.
 */
static _Atomic int held_fd = -1;
static _Atomic pid_t held_tid;
static int held_depth;		/* the holding thread's only */

/* Serialise check-and-record between processes with a lock file only root (the directory's owner) can open. */
int lj_setup_lock_dir(char *why, size_t len)
{
	char path[PATH_MAX], pid[32];
	struct stat st;
	int fd, ret;

	if (held_fd >= 0 && held_tid == gettid()) {
		held_depth++;
		return held_fd;
	}

	ret = lj_setup_dir_ready(lj_setup_journal_dir(), true, why, len);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/.lock", lj_setup_journal_dir());
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		lj_why(why, len, "cannot open the setup lock %s: %s", path, strerror(-ret));
		return ret;
	}
	/* A lock left 0644 by an older ljkit: others could hold it; make it ours alone. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !lj_setup_trusted_uid(st.st_uid) ||
	    ((st.st_mode & 077) && fchmod(fd, 0600))) {
		lj_why(why, len, "the setup lock %s is not a private file of root's: refused", path);
		close(fd);
		return -EPERM;
	}
	ret = wait_for_lock(fd, path, why, len);
	if (ret) {
		close(fd);
		return ret;
	}
	/* Name the holder for whoever waits next. */
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, strlen(pid), 0) < 0) {
		/* only the message of a waiter suffers */
	}
	held_tid = gettid();
	held_depth = 1;
	held_fd = fd;
	return fd;
}

void lj_setup_unlock_dir(int fd)
{
	if (fd < 0)
		return;
	if (fd == held_fd && held_tid == gettid()) {
		if (--held_depth > 0)
			return;
		held_fd = -1;
	}
	close(fd);	/* drops the flock */
}

