// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_topo_apart - the topology loaded by another process: ljkit's helper, else a child. */
#include "lj_topo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lj_why.h"

extern char **environ;

#define LJ_TOPO_HELPER "lj-topology"

/*
 * What lj_topo_send writes. The helper is found beside the program, but a
 * helper of another build could be there: its snapshot is taken only when
 * the magic, the version and the size say it is this build's.
 */
#define APART_MAGIC "ljkit-topology"
struct apart_msg {
	char magic[16];
	char version[16];
	unsigned size;
	int ret;
	char why[128];
	struct lj_topo t;
};

/* Read or write all of @len bytes (EINTR: again). Return: the bytes moved. */
static size_t move_all(int fd, void *buf, size_t len, bool out)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = out ? write(fd, (char *)buf + done, len - done)
				: read(fd, (char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}

int lj_topo_send(int fd)
{
	struct apart_msg m;

	memset(&m, 0, sizeof(m));
	snprintf(m.magic, sizeof(m.magic), "%s", APART_MAGIC);
	snprintf(m.version, sizeof(m.version), "%s", LJ_VERSION);
	m.size = sizeof(m);
	m.ret = lj_topo_load(&m.t, m.why, sizeof(m.why));
	if (!m.ret)
		lj_topo_drop_handle(&m.t);	/* the sender's: nothing needs it after the load */
	return move_all(fd, &m, sizeof(m), true) == sizeof(m) ? 0 : -EPIPE;
}

/*
 * The helper ljkit installs beside its tools, trusted as a program run as
 * root must be: a regular executable owned by root or by us, writable by
 * nobody else. Installed: BINDIR/../libexec/ljkit; built: BUILD/libexec/ljkit
 * beside BUILD/lj-* (and BUILD/t/.. for the unit tests).
 */
static bool find_helper(char *path, size_t len)
{
	static const char *const rel[] = { "/../libexec/ljkit/", "/libexec/ljkit/" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if ((size_t)snprintf(path, len, "%s%s%s", exe, rel[i], LJ_TOPO_HELPER) >= len)
			continue;
		if (!stat(path, &st) && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR) &&
		    !(st.st_mode & (S_IWGRP | S_IWOTH)) && (st.st_uid == 0 || st.st_uid == geteuid()))
			return true;
	}
	return false;
}

/* Start the helper with its standard output on @fd. Return: its pid, or -1. */
static pid_t spawn_helper(int fd)
{
	posix_spawn_file_actions_t fa;
	char path[PATH_MAX];
	char *argv[2] = { path, NULL };
	pid_t pid;
	int err;

	if (!find_helper(path, sizeof(path)) || posix_spawn_file_actions_init(&fa))
		return -1;
	err = posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	/* posix_spawn does not copy the caller's pages (a vfork), so nothing of ours becomes the helper's. */
	if (!err)
		err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return err ? -1 : pid;
}

/* A child of ours, when there is no helper: it loads hwloc itself (lj_dl). */
static pid_t fork_child(int fd)
{
	pid_t pid = fork();

	if (!pid)
		_exit(lj_topo_send(fd) ? 1 : 0);
	return pid;
}

/* Run @start's process with the pipe's write end, read its message. Return: true when one came whole. */
static bool load_by(pid_t (*start)(int), struct apart_msg *m)
{
	int fd[2], status;
	size_t got;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return false;
	pid = start(fd[1]);
	close(fd[1]);
	got = pid > 0 ? move_all(fd[0], m, sizeof(*m), false) : 0;
	close(fd[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return got == sizeof(*m) && !strcmp(m->magic, APART_MAGIC) && !strcmp(m->version, LJ_VERSION) &&
	       m->size == sizeof(*m);
}

int lj_topo_load_apart(struct lj_topo *t, char *why, size_t len)
{
	struct apart_msg m;

	if (!load_by(spawn_helper, &m) && !load_by(fork_child, &m))
		return lj_topo_load(t, why, len);	/* no other process: here, then */
	if (m.ret)
		return lj_why_err(why, len, m.ret, "%s", m.why);
	*t = m.t;
	return 0;
}
