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
#include <unistd.h>

/* @path is @dir itself or below it. */
bool lj_setup_path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

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
		if (lj_setup_journal_read(jpath, &j))
			continue;
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

/* Serialise check-and-record between processes with a lock file. */
int lj_setup_lock_dir(void)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = lj_setup_mkdir_p(lj_setup_journal_dir());
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

void lj_setup_unlock_dir(int fd)
{
	if (fd >= 0)
		close(fd);	/* drops the flock */
}

