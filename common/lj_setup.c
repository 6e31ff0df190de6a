// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup - the setup stack and its journal: record, undo, replay after a crash. */
#include "lj_setup.h"
#include "lj_preempt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL_MAGIC "# ljkit-journal/1"
#define MAX_STACKS 8

struct entry {
	enum lj_setup_kind kind;
	char *path;		/* file, group directory, or "preempt" */
	char *old;		/* undo value (file, preempt); NULL for a group */
	bool undone;
};

struct lj_setup {
	struct entry *e;
	int n, cap;
	int fd;			/* journal, -1 until the first change */
	char journal[PATH_MAX];
	char want[PATH_MAX];	/* requested journal path, "" for the default */
	char conflict[PATH_MAX + 128];
	atomic_int unwinding;
	pid_t owner;		/* forked children (workers) must not unwind it */
};

static struct lj_setup *live[MAX_STACKS];
static bool atexit_done;

const char *lj_setup_journal_dir(void)
{
	const char *d = getenv("LJ_JOURNAL_DIR");

	return d && *d ? d : LJ_SETUP_DEFAULT_DIR;
}

/* ---- small file helpers (used on undo paths too: no stdio there) ---- */

ssize_t lj_setup_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	while (got > 0 && buf[got - 1] == '\n')
		buf[--got] = '\0';
	return got;
}

int lj_setup_write_file(const char *path, const char *value)
{
	size_t len = strlen(value);
	char buf[8192];
	ssize_t n;
	int fd, ret = 0;

	/*
	 * One write of the value and a newline, as echo does: the kernel
	 * takes either, and a fake sysfs file then reads back exactly as the
	 * real one did (a restored file is byte-identical).
	 */
	if (len + 2 > sizeof(buf))
		return -E2BIG;
	memcpy(buf, value, len);
	if (!len || value[len - 1] != '\n')
		buf[len++] = '\n';
	/* O_TRUNC: on a fake sysfs tree a shorter value must not leave old bytes. */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot. */
static unsigned long long pid_starttime(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (lj_setup_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p)
		return 0;
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
}

/* ---- escaping for one-line journal fields ---- */

static void escape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 3 < len; in++) {
		if (*in == '\\' || *in == '\t' || *in == '\n') {
			out[o++] = '\\';
			out[o++] = *in == '\t' ? 't' : *in == '\n' ? 'n' : '\\';
		} else {
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static const char *kind_name(enum lj_setup_kind k)
{
	switch (k) {
	case LJ_SETUP_FILE:
		return "file";
	case LJ_SETUP_CGROUP:
		return "cgroup";
	case LJ_SETUP_PREEMPT:
		return "preempt";
	}
	return "?";
}

/* ---- journal parsing (for restore and conflict checks) ---- */

struct journal {
	pid_t pid;
	unsigned long long start;
	char prog[64];
	struct entry *e;
	int n;
};

static void journal_free(struct journal *j)
{
	for (int i = 0; i < j->n; i++) {
		free(j->e[i].path);
		free(j->e[i].old);
	}
	free(j->e);
	j->e = NULL;
	j->n = 0;
}

static int journal_read(const char *path, struct journal *j)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0, alloc = 0;

	memset(j, 0, sizeof(*j));
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *f1, *f2, *f3, *save = NULL;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!strncmp(line, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC))) {
			char *p;

			if ((p = strstr(line, " pid=")))
				j->pid = (pid_t)strtol(p + 5, NULL, 10);
			if ((p = strstr(line, " start=")))
				j->start = strtoull(p + 7, NULL, 10);
			if ((p = strstr(line, " prog=")))
				snprintf(j->prog, sizeof(j->prog), "%s", p + 6);
			continue;
		}
		if (!*line || *line == '#')
			continue;
		f1 = strtok_r(line, "\t", &save);
		f2 = strtok_r(NULL, "\t", &save);
		f3 = strtok_r(NULL, "", &save);
		if (!f1 || !f2)
			continue;	/* a torn last line after a crash */
		if (!strcmp(f1, "undone")) {
			long idx = strtol(f2, NULL, 10);

			if (idx >= 0 && idx < j->n)
				j->e[idx].undone = true;
			continue;
		}
		if (j->n == alloc) {
			struct entry *ne;

			alloc = alloc ? 2 * alloc : 16;
			ne = realloc(j->e, alloc * sizeof(*ne));
			if (!ne) {
				ret = -ENOMEM;
				break;
			}
			j->e = ne;
		}
		memset(&j->e[j->n], 0, sizeof(j->e[0]));
		if (!strcmp(f1, "file"))
			j->e[j->n].kind = LJ_SETUP_FILE;
		else if (!strcmp(f1, "cgroup"))
			j->e[j->n].kind = LJ_SETUP_CGROUP;
		else if (!strcmp(f1, "preempt"))
			j->e[j->n].kind = LJ_SETUP_PREEMPT;
		else
			continue;
		unescape(f2);
		j->e[j->n].path = strdup(f2);
		if (f3) {
			unescape(f3);
			j->e[j->n].old = strdup(f3);
		} else if (j->e[j->n].kind == LJ_SETUP_FILE) {
			j->e[j->n].old = strdup("");
		}
		j->n++;
	}
	free(line);
	fclose(f);
	if (ret)
		journal_free(j);
	return ret;
}

static bool journal_alive(const struct journal *j)
{
	if (j->pid <= 0)
		return false;
	if (kill(j->pid, 0) && errno == ESRCH)
		return false;
	return pid_starttime(j->pid) == j->start;
}

static bool is_journal_name(const char *name)
{
	return !strncmp(name, "journal.", 8) && name[8];
}

/* ---- stack ---- */

/* exit() and fatal signals: only the process that made the changes undoes them. */
static void unwind_at_exit(void)
{
	pid_t self = getpid();

	for (int i = 0; i < MAX_STACKS; i++)
		if (live[i] && live[i]->owner == self)
			lj_setup_undo(live[i], NULL, NULL);
}

static void register_stack(struct lj_setup *s)
{
	if (!atexit_done) {
		atexit(unwind_at_exit);
		atexit_done = true;
	}
	for (int i = 0; i < MAX_STACKS; i++)
		if (!live[i]) {
			live[i] = s;
			return;
		}
}

static void unregister_stack(struct lj_setup *s)
{
	for (int i = 0; i < MAX_STACKS; i++)
		if (live[i] == s)
			live[i] = NULL;
}

int lj_setup_new(struct lj_setup **out, const char *journal)
{
	struct lj_setup *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->fd = -1;
	s->owner = getpid();
	if (journal)
		snprintf(s->want, sizeof(s->want), "%s", journal);
	register_stack(s);
	*out = s;
	return 0;
}

int lj_setup_depth(const struct lj_setup *s)
{
	return s ? s->n : 0;
}

const char *lj_setup_journal(const struct lj_setup *s)
{
	return s ? s->journal : "";
}

const char *lj_setup_conflict(const struct lj_setup *s)
{
	return s ? s->conflict : "";
}

static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int journal_open(struct lj_setup *s)
{
	char dir[PATH_MAX], line[256], *slash;
	int ret;

	if (s->fd >= 0)
		return 0;
	if (s->want[0])
		snprintf(s->journal, sizeof(s->journal), "%s", s->want);
	else
		snprintf(s->journal, sizeof(s->journal), "%s/journal.%d",
			 lj_setup_journal_dir(), (int)getpid());
	snprintf(dir, sizeof(dir), "%s", s->journal);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		ret = mkdir_p(dir);
		if (ret)
			goto fail;
	}
	s->fd = open(s->journal, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (s->fd < 0) {
		ret = -errno;
		goto fail;
	}
	snprintf(line, sizeof(line), JOURNAL_MAGIC " pid=%d start=%llu prog=%s\n",
		 (int)getpid(), pid_starttime(getpid()), program_invocation_short_name);
	if (write(s->fd, line, strlen(line)) < 0) {
		ret = -errno;
		close(s->fd);
		s->fd = -1;
		unlink(s->journal);
		goto fail;
	}
	return 0;
fail:
	s->journal[0] = '\0';
	return ret;
}

static int journal_append(struct lj_setup *s, const char *line)
{
	size_t len = strlen(line);

	if (write(s->fd, line, len) != (ssize_t)len)
		return errno ? -errno : -EIO;
	/* The change is made only once its undo is on disk. */
	if (fsync(s->fd))
		return -errno;
	return 0;
}

/* @path is @dir itself or below it. */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

/* Another live process's journal holds @path (or a group containing it)? */
static int check_conflict(struct lj_setup *s, enum lj_setup_kind kind, const char *path)
{
	const char *dir = lj_setup_journal_dir();
	struct dirent *d;
	int ret = 0;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return 0;	/* nobody has a journal */
	while (!ret && (d = readdir(dp))) {
		char jpath[PATH_MAX];
		struct journal j;

		if (!is_journal_name(d->d_name))
			continue;
		snprintf(jpath, sizeof(jpath), "%s/%s", dir, d->d_name);
		if (!strcmp(jpath, s->journal))
			continue;
		if (journal_read(jpath, &j))
			continue;
		if (j.pid == getpid() || !journal_alive(&j)) {
			journal_free(&j);
			continue;
		}
		for (int i = 0; i < j.n && !ret; i++) {
			struct entry *e = &j.e[i];
			bool hit;

			if (e->undone)
				continue;
			if (kind == LJ_SETUP_PREEMPT || e->kind == LJ_SETUP_PREEMPT)
				hit = kind == e->kind;
			else if (e->kind == LJ_SETUP_CGROUP)
				hit = path_within(path, e->path);
			else
				hit = !strcmp(path, e->path);
			if (hit && e->kind == LJ_SETUP_CGROUP) {
				snprintf(s->conflict, sizeof(s->conflict),
					 "group %s is in use by %s (pid %d, journal %s)",
					 e->path, j.prog[0] ? j.prog : "another ljkit process",
					 (int)j.pid, jpath);
				ret = -EBUSY;
			} else if (hit) {
				snprintf(s->conflict, sizeof(s->conflict),
					 "%s is being changed by %s (pid %d, journal %s)",
					 path, j.prog[0] ? j.prog : "another ljkit process",
					 (int)j.pid, jpath);
				ret = -EBUSY;
			}
		}
		journal_free(&j);
	}
	closedir(dp);
	return ret;
}

/* Serialise check-and-record between processes with a lock file. */
static int lock_dir(void)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = mkdir_p(lj_setup_journal_dir());
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/.lock", lj_setup_journal_dir());
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

static void unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd);	/* drops the flock */
}

static bool inside_created_group(const struct lj_setup *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (s->e[i].kind == LJ_SETUP_CGROUP && !s->e[i].undone &&
		    path_within(path, s->e[i].path) && strcmp(path, s->e[i].path))
			return true;
	return false;
}

/* Check for conflicts, append to the journal and the stack. Called locked. */
static int push_entry(struct lj_setup *s, enum lj_setup_kind kind, const char *path, const char *old)
{
	char epath[PATH_MAX * 2], eold[8192], *line;
	struct entry *e;
	int ret;

	s->conflict[0] = '\0';
	ret = journal_open(s);
	if (ret)
		return ret;
	ret = check_conflict(s, kind, path);
	if (ret)
		return ret;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct entry *ne = realloc(s->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		s->e = ne;
		s->cap = cap;
	}
	escape(path, epath, sizeof(epath));
	escape(old ? old : "", eold, sizeof(eold));
	if (asprintf(&line, "%s\t%s%s%s\n", kind_name(kind), epath,
		     old ? "\t" : "", old ? eold : "") < 0)
		return -ENOMEM;
	ret = journal_append(s, line);
	free(line);
	if (ret)
		return ret;
	e = &s->e[s->n];
	e->kind = kind;
	e->path = strdup(path);
	e->old = old ? strdup(old) : NULL;
	e->undone = false;
	if (!e->path || (old && !e->old))
		return -ENOMEM;
	s->n++;
	return 0;
}

/*
 * The unwinding signals are held while the stack changes: a handler that
 * undoes it must not see a half-appended entry or a half-done undo.
 */
static void hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static int push(struct lj_setup *s, enum lj_setup_kind kind, const char *path, const char *old)
{
	sigset_t mask;
	int ret;

	hold_signals(&mask);
	ret = push_entry(s, kind, path, old);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return ret;
}

int lj_setup_write(struct lj_setup *s, const char *path, const char *value)
{
	char old[4096];
	ssize_t n;
	int lock, ret;

	if (inside_created_group(s, path))
		return lj_setup_write_file(path, value);
	n = lj_setup_read_file(path, old, sizeof(old));
	if (n < 0)
		return (int)n;
	lock = lock_dir();
	if (lock < 0)
		return lock;
	/* Equal values need no entry, but another process may still hold it. */
	ret = push(s, LJ_SETUP_FILE, path, old);
	unlock_dir(lock);
	if (ret)
		return ret;
	ret = lj_setup_write_file(path, value);
	if (ret)
		lj_setup_forget_last(s);
	return ret;
}

void lj_setup_forget_last(struct lj_setup *s)
{
	char line[32];

	if (!s || !s->n || s->e[s->n - 1].undone)
		return;
	s->e[s->n - 1].undone = true;
	if (s->fd >= 0) {
		snprintf(line, sizeof(line), "undone\t%d\n", s->n - 1);
		journal_append(s, line);
	}
}

int lj_setup_push_file(struct lj_setup *s, const char *path, const char *undo)
{
	int lock, ret;

	if (inside_created_group(s, path))
		return 0;
	lock = lock_dir();
	if (lock < 0)
		return lock;
	ret = push(s, LJ_SETUP_FILE, path, undo);
	unlock_dir(lock);
	return ret;
}

int lj_setup_mkdir_cgroup(struct lj_setup *s, const char *path)
{
	struct stat st;
	int lock, ret;

	if (!stat(path, &st)) {
		/* An existing group is reused, unless a live ljkit process created it. */
		lock = lock_dir();
		if (lock < 0)
			return lock;
		s->conflict[0] = '\0';
		ret = check_conflict(s, LJ_SETUP_CGROUP, path);
		unlock_dir(lock);
		return ret ? ret : -EEXIST;
	}
	lock = lock_dir();
	if (lock < 0)
		return lock;
	ret = push(s, LJ_SETUP_CGROUP, path, NULL);
	unlock_dir(lock);
	if (ret)
		return ret;
	if (mkdir(path, 0755)) {
		ret = -errno;
		/* Nothing was made: drop the entry so undo does not rmdir a stranger's group. */
		lj_setup_forget_last(s);
	}
	return ret;
}

int lj_setup_push_preempt(struct lj_setup *s, const char *old_mode)
{
	int lock, ret;

	lock = lock_dir();
	if (lock < 0)
		return lock;
	ret = push(s, LJ_SETUP_PREEMPT, "preempt", old_mode);
	unlock_dir(lock);
	return ret;
}

/* ---- undo ---- */

static void say_line(void (*say)(const char *, void *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say_line(void (*say)(const char *, void *), void *arg, const char *fmt, ...)
{
	char buf[PATH_MAX * 2 + 128];
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say(buf, arg);
}

/*
 * Move every task still in group @dir to its parent: a group can only be
 * removed empty, and a task left behind (the tool itself, an orphan of a
 * killed command) must keep running somewhere sane. v1 groups list threads
 * in "tasks"; v2 groups have cgroup.threads (threaded) or cgroup.procs.
 */
static int move_tasks_to_parent(const char *dir, int *moved)
{
	static const char *const lists[] = { "tasks", "cgroup.threads", "cgroup.procs" };
	char src[PATH_MAX + 32], dst[PATH_MAX + 32], parent[PATH_MAX], buf[65536], *p, *slash;
	int ret = 0;

	*moved = 0;
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -EINVAL;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", dir, lists[i]);
		if (lj_setup_read_file(src, buf, sizeof(buf)) < 0)
			continue;
		snprintf(dst, sizeof(dst), "%s/%s", parent, lists[i]);
		for (p = buf; *p; ) {
			char *end = strchr(p, '\n');
			int r;

			if (end)
				*end = '\0';
			if (*p) {
				r = lj_setup_write_file(dst, p);
				/* ESRCH: the task exited meanwhile. */
				if (!r)
					(*moved)++;
				else if (r != -ESRCH && !ret)
					ret = r;
			}
			if (!end)
				break;
			p = end + 1;
		}
		break;	/* the first list that exists is the one of this hierarchy */
	}
	return ret;
}

static int remove_group(const char *dir, void (*say)(const char *, void *), void *arg)
{
	int moved = 0, ret = 0;

	for (int tries = 0; tries < 50; tries++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		ret = -errno;
		if (ret != -EBUSY)
			break;
		move_tasks_to_parent(dir, &moved);
		if (moved)
			say_line(say, arg, "moved %d task%s still in %s to its parent",
				 moved, moved == 1 ? "" : "s", dir);
		/* An exiting task leaves the group a moment after it is reaped. */
		{
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	return ret;
}

static int undo_entry(const struct entry *e, void (*say)(const char *, void *), void *arg)
{
	int ret = 0;

	switch (e->kind) {
	case LJ_SETUP_FILE:
		ret = lj_setup_write_file(e->path, e->old ? e->old : "");
		/* A group removed before its file (nested) or a CPU gone: nothing to restore. */
		if (ret == -ENOENT)
			ret = 0;
		if (ret)
			say_line(say, arg, "cannot restore %s to '%s': %s", e->path,
				 e->old ? e->old : "", strerror(-ret));
		else
			say_line(say, arg, "restored %s to '%s'", e->path, e->old ? e->old : "");
		break;
	case LJ_SETUP_CGROUP:
		ret = remove_group(e->path, say, arg);
		if (ret)
			say_line(say, arg, "cannot remove group %s: %s", e->path, strerror(-ret));
		else
			say_line(say, arg, "removed group %s", e->path);
		break;
	case LJ_SETUP_PREEMPT: {
		enum lj_preempt_model m;
		char why[256] = "";

		ret = lj_preempt_parse(e->old ? e->old : "", &m);
		if (!ret)
			ret = lj_preempt_set(m, why, sizeof(why));
		if (ret)
			say_line(say, arg, "cannot restore preemption mode %s: %s", e->old,
				 why[0] ? why : strerror(-ret));
		else
			say_line(say, arg, "restored preemption mode %s", e->old);
		break;
	}
	}
	return ret;
}

int lj_setup_undo(struct lj_setup *s, void (*say)(const char *line, void *arg), void *arg)
{
	sigset_t mask;
	int ret = 0;

	if (!s)
		return 0;
	if (atomic_exchange(&s->unwinding, 1))
		return 0;	/* a signal arrived during an unwind: let it finish */
	hold_signals(&mask);
	for (int i = s->n - 1; i >= 0; i--) {
		struct entry *e = &s->e[i];
		char line[32];
		int r;

		if (e->undone)
			continue;
		r = undo_entry(e, say, arg);
		if (r) {
			if (!ret)
				ret = r;
			continue;
		}
		e->undone = true;
		if (s->fd >= 0) {
			snprintf(line, sizeof(line), "undone\t%d\n", i);
			journal_append(s, line);
		}
	}
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
		/* Keep the journal when something could not be undone: --restore retries. */
		if (!ret)
			unlink(s->journal);
	}
	if (!ret) {
		for (int i = 0; i < s->n; i++) {
			free(s->e[i].path);
			free(s->e[i].old);
		}
		s->n = 0;
	}
	atomic_store(&s->unwinding, 0);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return ret;
}

void lj_setup_free(struct lj_setup *s)
{
	if (!s)
		return;
	lj_setup_undo(s, NULL, NULL);
	unregister_stack(s);
	for (int i = 0; i < s->n; i++) {
		free(s->e[i].path);
		free(s->e[i].old);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->e);
	free(s);
}

json_object *lj_setup_json(const struct lj_setup *s)
{
	json_object *arr = json_object_new_array();

	if (!arr || !s)
		return arr;
	for (int i = 0; i < s->n; i++) {
		json_object *o = json_object_new_object();

		if (!o)
			break;
		json_object_object_add(o, "kind", json_object_new_string(kind_name(s->e[i].kind)));
		json_object_object_add(o, "path", json_object_new_string(s->e[i].path));
		if (s->e[i].old)
			json_object_object_add(o, "old", json_object_new_string(s->e[i].old));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* ---- signals ---- */

static void on_fatal_signal(int sig)
{
	int saved = errno;

	unwind_at_exit();
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

void lj_setup_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigfillset(&sa.sa_mask);	/* one unwind at a time */
		sigaction(sigs[i], &sa, NULL);
	}
}

/* ---- stale journals ---- */

int lj_setup_list(const char *dir,
		  void (*fn)(const char *path, pid_t pid, bool alive, int pending, void *arg),
		  void *arg)
{
	struct dirent *d;
	int count = 0;
	DIR *dp;

	if (!dir)
		dir = lj_setup_journal_dir();
	dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	while ((d = readdir(dp))) {
		char jpath[PATH_MAX];
		struct journal j;
		int pending = 0;

		if (!is_journal_name(d->d_name))
			continue;
		snprintf(jpath, sizeof(jpath), "%s/%s", dir, d->d_name);
		if (journal_read(jpath, &j))
			continue;
		for (int i = 0; i < j.n; i++)
			pending += !j.e[i].undone;
		if (fn)
			fn(jpath, j.pid, journal_alive(&j), pending, arg);
		count++;
		journal_free(&j);
	}
	closedir(dp);
	return count;
}

struct stale_ctx {
	int n;
	char *first;
	size_t len;
};

static void count_stale(const char *path, pid_t pid, bool alive, int pending, void *arg)
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

static int replay(const char *jpath, void (*say)(const char *, void *), void *arg)
{
	struct journal j;
	int ret, fd;

	ret = journal_read(jpath, &j);
	if (ret)
		return ret;
	if (journal_alive(&j) && j.pid != getpid()) {
		journal_free(&j);
		return -EBUSY;
	}
	say_line(say, arg, "replaying %s (%s, pid %d, %d change%s)", jpath,
		 j.prog[0] ? j.prog : "?", (int)j.pid, j.n, j.n == 1 ? "" : "s");
	fd = open(jpath, O_WRONLY | O_APPEND | O_CLOEXEC);
	for (int i = j.n - 1; i >= 0; i--) {
		char line[32];
		int r;

		if (j.e[i].undone)
			continue;
		r = undo_entry(&j.e[i], say, arg);
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
	if (!ret)
		unlink(jpath);
	journal_free(&j);
	return ret;
}

int lj_setup_restore_stale(const char *dir, const char *journal,
			   void (*say)(const char *line, void *arg), void *arg)
{
	struct dirent *d;
	int count = 0, ret = 0, lock;
	DIR *dp;

	if (journal) {
		ret = replay(journal, say, arg);
		return ret ? ret : 1;
	}
	if (!dir)
		dir = lj_setup_journal_dir();
	dp = opendir(dir);
	if (!dp)
		return errno == ENOENT ? 0 : -errno;
	/* Hold the lock so no process starts changing what is being restored. */
	lock = lock_dir();
	while ((d = readdir(dp))) {
		char jpath[PATH_MAX];
		struct journal j;
		bool stale;
		int r;

		if (!is_journal_name(d->d_name))
			continue;
		snprintf(jpath, sizeof(jpath), "%s/%s", dir, d->d_name);
		if (journal_read(jpath, &j))
			continue;
		stale = j.pid != getpid() && !journal_alive(&j);
		journal_free(&j);
		if (!stale)
			continue;
		r = replay(jpath, say, arg);
		if (r && !ret)
			ret = r;
		else if (!r)
			count++;
	}
	unlock_dir(lock);
	closedir(dp);
	return ret ? ret : count;
}
