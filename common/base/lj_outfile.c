// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_outfile - output files written through their opened directory: no planted link followed, devices in place. */
#include "lj_outfile.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 8	/* expected links followed in a row before -ELOOP */

static void reset(struct lj_outfile *o)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->dirfd = -1;
}

static void release(struct lj_outfile *o)
{
	if (o->f && !o->is_stdout)
		fclose(o->f);
	else if (o->fd >= 0 && !o->is_stdout)
		close(o->fd);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->name);
	free(o->tmp);
	reset(o);
}

/* Root and the writing user: the only owners whose links and directories are ours to trust. */
static bool trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * A link is expected when a trusted user made it, or when it sits in a
 * directory a trusted user owns and nobody else can write: then only we
 * (or root) could have put it there.
 */
static bool link_expected(const struct stat *dir, const struct stat *link)
{
	return trusted_uid(link->st_uid) ||
	       (trusted_uid(dir->st_uid) && !(dir->st_mode & (S_IWGRP | S_IWOTH)));
}

/* One component @c below @at: a planted link is refused, an expected one followed. */
static int open_component(int at, const char *c, char *why, size_t len)
{
	struct stat dst, st;
	int fd;

	if (fstat(at, &dst) || fstatat(at, c, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(st.st_mode)) {
		if (!link_expected(&dst, &st)) {
			lj_why(why, len, "directory %s is a symbolic link of uid %u in a directory others can write: not followed",
				c, (unsigned)st.st_uid);
			return -ELOOP;
		}
		fd = openat(at, c, O_PATH | O_DIRECTORY | O_CLOEXEC);
	} else {
		/* O_NOFOLLOW: swapped for a link since the check, it fails rather than leads elsewhere */
		fd = openat(at, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

/*
 * Open directory @dir one component at a time, so that a link planted in
 * a shared directory on the way (/tmp/plots -> /etc) is refused as the
 * last component's would be. Return: an O_PATH fd or -errno.
 */
static int open_dir(const char *dir, char *why, size_t len)
{
	char *copy = strdup(dir), *save = NULL;
	int fd = open(dir[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (!copy || fd < 0) {
		int ret = copy ? -errno : -ENOMEM;

		free(copy);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
		int next;

		if (!strcmp(c, "."))
			continue;
		next = open_component(fd, c, why, len);
		close(fd);
		fd = next;
	}
	free(copy);
	return fd;
}

/* Split @path into its directory (opened) and last component. */
static int open_parent(struct lj_outfile *o, const char *path, struct stat *dst,
		       char *why, size_t len)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!*path)
		return -ENOENT;
	if (slash && !slash[1])
		return -EISDIR;		/* "out/" names a directory */
	o->name = strdup(slash ? slash + 1 : path);
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!o->name || !dir) {
		free(dir);
		return -ENOMEM;
	}
	if (!strcmp(o->name, ".") || !strcmp(o->name, "..")) {
		free(dir);
		return -EISDIR;
	}
	o->dirfd = open_dir(dir, why, len);
	free(dir);
	if (o->dirfd < 0)
		return o->dirfd;
	/* Readable, so that fsync can make a rename durable; -wx stays O_PATH. */
	{
		int rd = openat(o->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (rd >= 0) {
			close(o->dirfd);
			o->dirfd = rd;
		}
	}
	return fstat(o->dirfd, dst) ? -errno : 0;
}

/* Our own temporary file beside the target; never an existing name. */
static int open_tmp(struct lj_outfile *o, bool check)
{
	for (int k = 0; k < 100; k++) {
		char *t;
		int n = k ? asprintf(&t, "%s.tmp.%ld.%d", o->name, (long)getpid(), k)
			  : asprintf(&t, "%s.tmp.%ld", o->name, (long)getpid());

		if (n < 0)
			return -ENOMEM;
		o->fd = openat(o->dirfd, t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (o->fd >= 0) {
			o->tmp = t;
			if (check) {	/* probed: remove it again */
				unlinkat(o->dirfd, t, 0);
				free(o->tmp);
				o->tmp = NULL;
			}
			return 0;
		}
		free(t);
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* A device, FIFO or socket: written in place, never replaced. */
static int open_in_place(struct lj_outfile *o, int at, const char *name, bool check)
{
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC;

	if (check)
		return faccessat(at, name, W_OK, 0) ? -errno : 0;
	if (at != AT_FDCWD)
		flags |= O_NOFOLLOW;
	o->fd = openat(at, name, flags);
	if (o->fd < 0)
		return -errno;
	close(o->dirfd);
	o->dirfd = -1;
	return 0;
}

static int open_path(struct lj_outfile *o, const char *path, int depth, bool check,
		     char *why, size_t len);

/* Follow an expected link once: to a regular file's real place, or in place to a device. */
static int follow(struct lj_outfile *o, const char *path, int depth, bool check,
		  char *why, size_t len)
{
	char proc[64], real[PATH_MAX];
	struct stat st;
	ssize_t n;
	int pfd, ret;

	if (depth >= MAX_LINKS)
		return -ELOOP;
	pfd = openat(o->dirfd, o->name, O_PATH | O_CLOEXEC);
	if (pfd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			lj_why(why, len, "a symbolic link to nothing");
		return ret;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	if (fstat(pfd, &st)) {
		ret = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
	} else if (!S_ISREG(st.st_mode)) {
		ret = open_in_place(o, AT_FDCWD, proc, check);
	} else if ((n = readlink(proc, real, sizeof(real) - 1)) < 0) {
		ret = -errno;
	} else {
		struct lj_outfile to;

		real[n] = '\0';
		reset(&to);
		ret = open_path(&to, real, depth + 1, check, why, len);
		release(o);
		*o = to;
	}
	close(pfd);
	return ret;
}

static int open_path(struct lj_outfile *o, const char *path, int depth, bool check,
		     char *why, size_t len)
{
	struct stat dst, st;
	int ret = open_parent(o, path, &dst, why, len);

	if (ret)
		return ret;
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT)
			return -errno;
		return open_tmp(o, check);	/* a new file */
	}
	if (S_ISLNK(st.st_mode)) {
		if (!link_expected(&dst, &st)) {
			lj_why(why, len, "a symbolic link of uid %u in a directory others can write: not followed",
				(unsigned)st.st_uid);
			return -ELOOP;
		}
		return follow(o, path, depth, check, why, len);
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode))
		return open_tmp(o, check);
	return open_in_place(o, o->dirfd, o->name, check);
}

static int open_any(struct lj_outfile *o, const char *path, bool check, char *why, size_t len)
{
	int ret;

	reset(o);
	if (why && len)
		why[0] = '\0';
	if (!path)
		return -EINVAL;
	if (!strcmp(path, "-")) {
		o->is_stdout = true;
		o->f = stdout;
		o->fd = STDOUT_FILENO;
		return 0;
	}
	ret = open_path(o, path, 0, check, why, len);
	if (ret)
		release(o);
	return ret;
}

int lj_outfile_open(struct lj_outfile *o, const char *path, char *why, size_t len)
{
	return open_any(o, path, false, why, len);
}

int lj_outfile_check(const char *path, char *why, size_t len)
{
	struct lj_outfile o;
	int ret = open_any(&o, path, true, why, len);

	if (!ret)
		release(&o);
	return ret;
}

int lj_outfile_write(struct lj_outfile *o, const void *buf, size_t len)
{
	const char *p = buf;

	if (o->f)
		return fwrite(buf, 1, len, o->f) == len ? 0 : (errno ? -errno : -EIO);
	while (len) {
		ssize_t n = write(o->fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

FILE *lj_outfile_stdio(struct lj_outfile *o)
{
	if (!o->f && o->fd >= 0)
		o->f = fdopen(o->fd, "w");
	return o->f;
}

/* Flush and close what was written; the first error. */
static int finish_writes(struct lj_outfile *o)
{
	int ret = 0;

	if (o->f) {
		errno = 0;
		if (fflush(o->f) == EOF || ferror(o->f))
			ret = errno ? -errno : -EIO;
	}
	if (o->is_stdout)
		return ret;
	if (o->tmp && fsync(o->fd) && !ret)
		ret = -errno;
	if (o->f ? fclose(o->f) : close(o->fd))
		if (!ret)
			ret = -errno;
	o->f = NULL;
	o->fd = -1;
	return ret;
}

int lj_outfile_commit(struct lj_outfile *o)
{
	int ret = finish_writes(o);

	if (o->tmp) {
		if (!ret && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
			ret = -errno;
		if (ret)
			unlinkat(o->dirfd, o->tmp, 0);
		/* The rename is durable once the directory is (O_PATH or some fs cannot sync it). */
		else if (fsync(o->dirfd) && errno != EINVAL && errno != EBADF)
			ret = -errno;
	}
	release(o);
	return ret;
}

void lj_outfile_abort(struct lj_outfile *o)
{
	if (o->is_stdout) {
		fflush(stdout);
		reset(o);
		return;
	}
	if (o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	release(o);
}

int lj_outfile_put(const char *path, const void *buf, size_t len, char *why, size_t why_len)
{
	struct lj_outfile o;
	int ret = lj_outfile_open(&o, path, why, why_len);

	if (ret)
		return ret;
	ret = lj_outfile_write(&o, buf, len);
	if (ret) {
		lj_outfile_abort(&o);
		return ret;
	}
	return lj_outfile_commit(&o);
}
