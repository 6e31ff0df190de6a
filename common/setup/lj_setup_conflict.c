// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup_conflict - one setting, one owner: the live-journal check and the journal directory lock. */
#include "lj_setup_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* Another live process's journal holds @path (or a group containing it)? */
int lj_setup_check_conflict(struct lj_setup *s, enum lj_setup_kind kind, const char *path)
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
		struct lj_setup_jfile j;

		if (!lj_setup_is_journal_name(d->d_name))
			continue;
		snprintf(jpath, sizeof(jpath), "%s/%s", dir, d->d_name);
		if (!strcmp(jpath, s->journal))
			continue;
		if (lj_setup_journal_read(jpath, &j, NULL, NULL, 0))
			continue;	/* not a journal ljkit wrote: nobody's claim */
		if (j.pid == getpid() || !lj_setup_journal_alive(&j)) {
			lj_setup_journal_free(&j);
			continue;
		}
		for (int i = 0; i < j.n && !ret; i++) {
			struct lj_setup_entry *e = &j.e[i];
			bool hit;

			if (e->undone)
				continue;
			if (kind == LJ_SETUP_PREEMPT || e->kind == LJ_SETUP_PREEMPT)
				hit = kind == e->kind;
			else if (e->kind == LJ_SETUP_CGROUP)
				hit = lj_setup_path_within(path, e->path);
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
		lj_setup_journal_free(&j);
	}
	closedir(dp);
	return ret;
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
 * Who holds the flock on @fd: /proc/locks names the pid for the file's
 * device and inode (whoever it is, ljkit or not); else the pid the last
 * ljkit holder wrote into the file; else "?".
 */
static void lock_holder(int fd, char *out, size_t len)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	struct stat st;
	ssize_t n;

	snprintf(out, len, "?");
	if (f && !fstat(fd, &st)) {
		while (fgets(line, sizeof(line), f)) {
			unsigned int maj, min;
			unsigned long ino;
			char type[16];
			int pid;

			if (strstr(line, "->") ||
			    sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &pid, &maj, &min, &ino) != 5)
				continue;
			if (!strcmp(type, "FLOCK") && ino == st.st_ino && maj == major(st.st_dev) &&
			    min == minor(st.st_dev)) {
				snprintf(out, len, "%d", pid);
				fclose(f);
				return;
			}
		}
	}
	if (f)
		fclose(f);
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

/* Serialise check-and-record between processes with a lock file only root (the directory's owner) can open. */
int lj_setup_lock_dir(char *why, size_t len)
{
	char path[PATH_MAX], pid[32];
	struct stat st;
	int fd, ret;

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
	return fd;
}

void lj_setup_unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd);	/* drops the flock */
}

