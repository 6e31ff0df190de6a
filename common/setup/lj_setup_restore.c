// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup_restore - undoing one change, and replaying the stale journals of dead processes. */
#include "lj_setup_priv.h"
#include "lj_file.h"
#include "lj_preempt.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- undo ---- */

int lj_setup_undo_entry(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg)
{
	int ret = 0;

	switch (e->kind) {
	case LJ_SETUP_FILE:
		if (lj_setup_is_subtree_claim(e->path, e->old))
			return lj_setup_undo_subtree(e, say, arg);
		ret = lj_file_write(e->path, e->old ? e->old : "");
		/* A group removed before its file (nested) or a CPU gone: nothing to restore. */
		if (ret == -ENOENT)
			ret = 0;
		if (ret)
			lj_setup_say(say, arg, "cannot restore %s to '%s': %s", e->path,
				 e->old ? e->old : "", strerror(-ret));
		else
			lj_setup_say(say, arg, "restored %s to '%s'", e->path, e->old ? e->old : "");
		break;
	case LJ_SETUP_CGROUP:
		return lj_setup_undo_group(e, say, arg);
	case LJ_SETUP_PREEMPT: {
		enum lj_preempt_model m;
		char why[256] = "";

		ret = lj_preempt_parse(e->old ? e->old : "", &m);
		if (!ret)
			ret = lj_preempt_set(m, why, sizeof(why));
		if (ret)
			lj_setup_say(say, arg, "cannot restore preemption mode %s: %s", e->old,
				 why[0] ? why : strerror(-ret));
		else
			lj_setup_say(say, arg, "restored preemption mode %s", e->old);
		break;
	}
	case LJ_SETUP_TRACEFS_MOUNT:
	case LJ_SETUP_TRACEFS_INSTANCE:
		ret = lj_setup_tracefs_undo(e, say, arg);
		break;
	}
	return ret;
}

/* ---- stale journals ---- */

/* The journal directory, checked; 0 with *dp NULL when there is none. */
static int open_journal_dir(const char *dir, DIR **dp, void (*say)(const char *, void *), void *arg)
{
	char why[PATH_MAX + 256] = "";
	int ret = lj_setup_dir_ready(dir, false, why, sizeof(why));

	*dp = NULL;
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		lj_setup_say(say, arg, "cannot restore: %s", why);
		return ret;
	}
	*dp = opendir(dir);
	return *dp ? 0 : (errno == ENOENT ? 0 : -errno);
}

struct list_ctx {
	void (*fn)(const char *path, pid_t pid, unsigned long long pidns, bool alive, int pending, void *arg);
	void *arg;
	int count;
};

static int list_one(const char *jpath, struct lj_setup_jfile *j, void *arg)
{
	struct list_ctx *c = arg;
	int pending = 0;

	for (int i = 0; i < j->n; i++)
		pending += !j->e[i].undone;
	if (c->fn)
		c->fn(jpath, j->pid, lj_setup_pidns_initial(j->pidns) ? 0 : j->pidns, lj_setup_journal_alive(j),
		      pending, c->arg);
	c->count++;
	return 0;
}

int lj_setup_list(const char *dir,
		  void (*fn)(const char *path, pid_t pid, unsigned long long pidns, bool alive, int pending, void *arg),
		  void *arg)
{
	struct list_ctx c = { fn, arg, 0 };
	int ret;
	DIR *dp;

	if (!dir)
		dir = lj_setup_journal_dir();
	ret = open_journal_dir(dir, &dp, NULL, NULL);
	if (ret || !dp)
		return ret;
	lj_setup_journal_each(dir, dp, list_one, &c);
	closedir(dp);
	return c.count;
}

struct stale_ctx {
	int n;
	char *first;
	size_t len;
};

static void count_stale(const char *path, pid_t pid, unsigned long long pidns, bool alive, int pending, void *arg)
{
	struct stale_ctx *c = arg;

	if (alive || pid == getpid())
		return;
	if (!c->n && c->first)
		snprintf(c->first, c->len, "%s", path);
	c->n++;
}

int lj_setup_find_stale(const char *dir, char *first, size_t len)
{
	struct stale_ctx c = { 0, first, len };
	int ret;

	if (first && len)
		first[0] = '\0';
	ret = lj_setup_list(dir, count_stale, &c);
	return ret < 0 ? ret : c.n;
}

/* Every pending entry must be one ljkit could have made; @real[i] is where to write it back. */
static int check_entries(const struct lj_setup_jfile *j, char (*real)[PATH_MAX], char *why, size_t len)
{
	for (int i = 0; i < j->n; i++) {
		int ret;

		if (j->e[i].undone)
			continue;
		ret = lj_setup_entry_allowed(&j->e[i], real[i], PATH_MAX, why, len);
		if (ret)
			return ret;
	}
	return 0;
}

static bool same_file(const char *path, const struct stat *st)
{
	struct stat now;

	return !lstat(path, &now) && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

/* Undo the pending entries in reverse, marking each in the journal. */
static int undo_entries(const char *jpath, const struct stat *st, struct lj_setup_jfile *j,
			char (*real)[PATH_MAX], void (*say)(const char *, void *), void *arg)
{
	int ret = 0, fd = open(jpath, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	struct stat fst;

	if (fd >= 0 && (fstat(fd, &fst) || fst.st_ino != st->st_ino || fst.st_dev != st->st_dev)) {
		close(fd);	/* replaced meanwhile: mark nothing in a stranger's file */
		fd = -1;
	}
	/* Cut a torn last line first: an "undone" line glued to it would make the journal unreadable. */
	if (fd >= 0 && fst.st_size > j->complete && ftruncate(fd, j->complete)) {
		close(fd);
		fd = -1;
	}
	for (int i = j->n - 1; i >= 0; i--) {
		struct lj_setup_entry e = j->e[i];
		char line[32];
		int r;

		if (e.undone)
			continue;
		e.path = real[i];
		r = lj_setup_undo_entry(&e, say, arg);
		if (r) {
			if (!ret)
				ret = r;
			continue;
		}
		if (fd >= 0) {
			snprintf(line, sizeof(line), "undone\t%d\n", i);
			if (write(fd, line, strlen(line)) > 0)
				fsync(fd);
		}
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * The process a torn journal names: in its header prefix, each field that
 * prefix holds, else in its name "journal.OWNER[.K]"
 * (lj_setup_owner_format); pid 0 if neither.
 */
static void torn_journal_owner(const char *jpath, const struct lj_setup_jfile *j, pid_t *pid,
			       unsigned long long *pidns)
{
	const char *base = strrchr(jpath, '/'), *end = NULL;

	*pid = 0;
	*pidns = 0;
	base = base ? base + 1 : jpath;
	if (lj_setup_is_journal_name(base))
		end = lj_setup_owner_parse(base + 8, pid, pidns);
	if (end && *end == '.' && end[1])	/* journal.OWNER.K: a second stack of that process */
		for (end++; isdigit((unsigned char)*end); end++)
			;
	if (!end || *end) {
		*pid = 0;
		*pidns = 0;
	}
	if (j->pid > 0)
		*pid = j->pid;
	if (j->pidns)
		*pidns = j->pidns;
}

/*
 * A journal with no complete line (-ENODATA): its process died creating it,
 * before or while writing the header, so it holds no change (every change
 * is made only after its entry is on disk, after the header). The file
 * passed lj_setup_open_trusted: ljkit's own. Journals are created under the
 * directory lock, so with the lock held (@locked, or taken here) no live
 * process can be writing that header; the pid check is for a process that
 * still lives all the same. Removed with one line said; a live one is kept.
 */
static int drop_torn(const char *jpath, const struct lj_setup_jfile *j, const struct stat *st,
		     bool locked, void (*say)(const char *, void *), void *arg)
{
	char why[PATH_MAX + 256] = "";
	unsigned long long pidns;
	pid_t pid;
	int lock = -1;

	torn_journal_owner(jpath, j, &pid, &pidns);
	if (!locked) {
		lock = lj_setup_lock_dir(why, sizeof(why));
		if (lock < 0) {
			lj_setup_say(say, arg, "cannot restore %s: %s", jpath, why[0] ? why : strerror(-lock));
			return lock;
		}
	}
	if (pid > 0 && !lj_setup_owner_self(pid, 0, pidns) && lj_setup_owner_alive(pid, j->start, pidns)) {
		lj_setup_unlock_dir(lock);
		return -EBUSY;
	}
	if (same_file(jpath, st))
		unlink(jpath);
	lj_setup_unlock_dir(lock);
	if (pid > 0)
		lj_setup_say(say, arg, "removed %s: its first line was torn by a crash of pid %d; it held no change",
			     jpath, (int)pid);
	else
		lj_setup_say(say, arg, "removed %s: its first line was torn by a crash; it held no change", jpath);
	return 0;
}

/*
 * Replay one journal: only a file ljkit wrote (lj_setup_open_trusted), read
 * whole as a journal, of a dead process, whose every entry is one ljkit
 * makes. Anything else is refused and left where it is. @locked: the
 * caller holds the directory lock.
 */
static int replay(const char *jpath, bool locked, void (*say)(const char *, void *), void *arg)
{
	char why[PATH_MAX * 2 + 256] = "", (*real)[PATH_MAX] = NULL;
	struct lj_setup_jfile j;
	struct stat st;
	int ret;

	ret = lj_setup_journal_read(jpath, &j, &st, why, sizeof(why));
	if (ret == -ENODATA)
		return drop_torn(jpath, &j, &st, locked, say, arg);
	if (ret) {
		lj_setup_say(say, arg, "cannot replay %s", why[0] ? why : strerror(-ret));
		return ret;
	}
	if (lj_setup_journal_alive(&j) && !lj_setup_owner_self(j.pid, 0, j.pidns)) {
		lj_setup_journal_free(&j);
		return -EBUSY;
	}
	real = calloc((size_t)j.n + 1, sizeof(*real));
	ret = real ? check_entries(&j, real, why, sizeof(why)) : -ENOMEM;
	if (ret) {
		lj_setup_say(say, arg, "cannot replay %s: %s; journal kept", jpath,
			     why[0] ? why : strerror(-ret));
		goto out;
	}
	lj_setup_say(say, arg, "replaying %s (%s, pid %d, %d change%s)", jpath,
		 j.prog[0] ? j.prog : "?", (int)j.pid, j.n, j.n == 1 ? "" : "s");
	ret = undo_entries(jpath, &st, &j, real, say, arg);
	if (!ret && same_file(jpath, &st))
		unlink(jpath);
out:
	free(real);
	lj_setup_journal_free(&j);
	return ret;
}

static bool is_stale(const char *jpath)
{
	struct lj_setup_jfile j;
	bool stale;

	if (lj_setup_journal_read(jpath, &j, NULL, NULL, 0))
		return true;	/* replay says why it refuses it */
	stale = !lj_setup_owner_self(j.pid, 0, j.pidns) && !lj_setup_journal_alive(&j);
	lj_setup_journal_free(&j);
	return stale;
}

/* A stale journal to replay, and when it was last written. */
struct stale_journal {
	char path[PATH_MAX];
	struct timespec mtime;
};

/* Newest last write first. */
static int newest_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct stale_journal *)a)->mtime;
	const struct timespec *y = &((const struct stale_journal *)b)->mtime;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? 1 : -1;
	return x->tv_nsec < y->tv_nsec ? 1 : x->tv_nsec > y->tv_nsec ? -1 : 0;
}

/* The stale journals in @dp, newest first; their count or -ENOMEM. */
static int collect_stale(const char *dir, DIR *dp, struct stale_journal **out)
{
	struct stale_journal *v = NULL, *nv;
	struct dirent *d;
	int n = 0;

	while ((d = readdir(dp))) {
		struct stat st;

		if (!lj_setup_is_journal_name(d->d_name))
			continue;
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		snprintf(v[n].path, sizeof(v[n].path), "%s/%s", dir, d->d_name);
		if (!is_stale(v[n].path))
			continue;
		v[n].mtime = lstat(v[n].path, &st) ? (struct timespec){ 0, 0 } : st.st_mtim;
		n++;
	}
	if (n)
		qsort(v, (size_t)n, sizeof(*v), newest_first);
	*out = v;
	return n;
}

/*
 * run-NAME.PID.START files (lj_setup_runfile) of processes that are gone:
 * removed, with a line. Called with the directory lock held, in the
 * checked journal directory: only ljkit writes there.
 */
static void remove_stale_runfiles(const char *dir, DIR *dp, void (*say)(const char *, void *), void *arg)
{
	struct dirent *d;

	rewinddir(dp);
	while ((d = readdir(dp))) {
		char path[PATH_MAX], *end;
		const char *p, *owner;
		unsigned long long start, pidns;
		pid_t pid;

		if (strncmp(d->d_name, "run-", 4) || !(p = strrchr(d->d_name, '.')) || p == d->d_name)
			continue;
		start = strtoull(p + 1, &end, 10);
		if (*end || p[1] == '\0')
			continue;
		/* run-NAME.OWNER.START: OWNER after the last dot before START */
		for (owner = p - 1; owner > d->d_name && *owner != '.'; owner--)
			;
		if (*owner != '.' || lj_setup_owner_parse(owner + 1, &pid, &pidns) != p)
			continue;
		if (lj_setup_owner_alive(pid, start, pidns))
			continue;	/* its run lives */
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (d->d_type == DT_REG && !unlink(path))
			lj_setup_say(say, arg, "removed %s, left by pid %d, which is gone", path, (int)pid);
	}
}

/*
 * Replay the stale journals newest first, by last write: when two killed
 * runs changed one setting, the second could change it only after the
 * first died (one owner per setting while its owner lives), so the second's
 * journal was written last and its old value is the first's new one; the
 * first's journal, replayed after, writes the value from before both.
 */
int lj_setup_restore_stale(const char *dir, const char *journal,
			   void (*say)(const char *line, void *arg), void *arg)
{
	char why[PATH_MAX + 256] = "";
	struct stale_journal *v = NULL;
	int count = 0, ret = 0, lock, n;
	DIR *dp;

	if (journal) {
		ret = replay(journal, false, say, arg);
		return ret ? ret : 1;
	}
	if (!dir)
		dir = lj_setup_journal_dir();
	ret = open_journal_dir(dir, &dp, say, arg);
	if (ret || !dp)
		return ret;
	/* Hold the lock so no process starts changing what is being restored. */
	lock = lj_setup_lock_dir(why, sizeof(why));
	if (lock < 0) {
		lj_setup_say(say, arg, "cannot restore: %s", why[0] ? why : strerror(-lock));
		closedir(dp);
		return lock;
	}
	n = collect_stale(dir, dp, &v);
	if (n < 0)
		ret = n;
	for (int i = 0; i < n; i++) {
		int r = replay(v[i].path, true, say, arg);

		if (r && !ret)
			ret = r;
		else if (!r)
			count++;
	}
	free(v);
	remove_stale_runfiles(dir, dp, say, arg);
	lj_setup_unlock_dir(lock);
	closedir(dp);
	return ret ? ret : count;
}
