// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guard - what keeps one lj-matrix the only owner of a run directory and
 * of its children: the directory's lock, and a watchdog that stops the
 * running workload's process group when lj-matrix dies without the
 * chance to (SIGKILL, a crash).
 */
#include "matrix.h"
#include "lj_err.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOCK_NAME		"lock"
#define WATCHDOG_GRACE_S	10	/* lj-env needs time to restore the system */
#define WATCHDOG_MAX_GROUPS	8	/* the workload and its load: two at a time */

/*
 * --resume writes into a directory it did not create in this process: it
 * must be a real directory (not a symlink to one), ours, and writable by
 * nobody else, or another user could plant symlinks where the store
 * writes. A new run's directory is made by mkdir and is ours by
 * construction. Return: 0, or an exit code after the message.
 */
int mx_guard_check_dir(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st)) {
		lj_error_errno(-errno, "cannot resume %s", dir);
		return LJ_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		lj_error("cannot resume %s: not a directory%s", dir, S_ISLNK(st.st_mode) ? " (a symlink)" : "");
		return LJ_EXIT_USAGE;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		lj_error("cannot resume %s: owned by uid %u or writable by group or others (mode %04o): "
			 "another user could plant links in it", dir, (unsigned)st.st_uid,
			 (unsigned)(st.st_mode & 07777));
		return LJ_EXIT_USAGE;
	}
	return 0;
}

/*
 * RUNDIR/lock: "PID\n" of the lj-matrix that holds the run directory, then
 * "watchdog PID\n" once its watchdog runs (which keeps the lock after a
 * SIGKILL until the orphaned workload is gone). 0 for what is not there.
 */
static void lock_holders(const char *dir, long *matrix, long *watchdog_pid)
{
	char path[4096], buf[96] = "", *nl;
	ssize_t n;
	int fd;

	*matrix = *watchdog_pid = 0;
	snprintf(path, sizeof(path), "%s/" LOCK_NAME, dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	*matrix = strtol(buf, NULL, 10);
	nl = strstr(buf, "\nwatchdog ");
	if (nl)
		*watchdog_pid = strtol(nl + strlen("\nwatchdog "), NULL, 10);
}

static bool pid_alive(long pid)
{
	return pid > 0 && !(kill((pid_t)pid, 0) && errno == ESRCH);
}

/*
 * Right after a SIGKILL the lock is the watchdog's: it stops the killed
 * run's workload (SIGTERM, lj-env restores the system, SIGKILL after
 * WATCHDOG_GRACE_S) and lets go. Wait for that, a little longer than it
 * can take. Return: 0 with the lock, or -EWOULDBLOCK.
 */
static int wait_for_watchdog(int fd, const char *dir, long matrix, long wd)
{
	int limit_ds = (WATCHDOG_GRACE_S + 5) * 10;

	lj_warn("%s: waiting for the watchdog (pid %ld) of the killed lj-matrix pid %ld to stop its workload and let go of the run directory (at most %d s)",
		dir, wd, matrix, WATCHDOG_GRACE_S + 5);
	for (int t = 0; t < limit_ds; t++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		nanosleep(&ts, NULL);
	}
	return flock(fd, LOCK_EX | LOCK_NB) ? -EWOULDBLOCK : 0;
}

/* Who holds the run directory, in words, for the refusal. */
static void refuse(const char *dir, long matrix, long wd)
{
	if (pid_alive(matrix))
		lj_error("%s is in use by lj-matrix pid %ld: one lj-matrix per run directory", dir, matrix);
	else if (pid_alive(wd))
		lj_error("%s is still held by the watchdog (pid %ld) of the killed lj-matrix pid %ld after %d s: is its workload stuck? (stop that pid, then --resume)",
			 dir, wd, matrix, WATCHDOG_GRACE_S + 5);
	else
		lj_error("%s is in use by another lj-matrix: one lj-matrix per run directory", dir);
}

/*
 * Take flock on the run directory itself (never waiting): nothing is
 * created to take it, so a --resume refused for a bad manifest leaves
 * the directory as it was. The lock lives as long as the open
 * directory: lj-matrix's, and the watchdog's after a crash, until the
 * orphaned workload is gone. Return: 0, or an exit code after the
 * message naming the holder (from RUNDIR/lock, mx_guard_record).
 */
int mx_guard_lock(struct mx_run *r)
{
	int fd = open(r->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		lj_error_errno(-errno, "cannot lock %s", r->dir);
		return LJ_EXIT_RUNTIME;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;
		long matrix, wd;

		lock_holders(r->dir, &matrix, &wd);
		if (err == EWOULDBLOCK && !pid_alive(matrix) && pid_alive(wd))
			err = -wait_for_watchdog(fd, r->dir, matrix, wd);
		if (err) {
			close(fd);
			if (err == EWOULDBLOCK)
				refuse(r->dir, matrix, wd);
			else
				lj_error_errno(-err, "cannot lock %s", r->dir);
			return LJ_EXIT_RUNTIME;
		}
	}
	r->lock_fd = fd;
	return 0;
}

/* Once the run is ours to write: RUNDIR/lock names us, for a refused second lj-matrix. */
void mx_guard_record(struct mx_run *r)
{
	char path[4096], pid[32];
	int fd, n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	snprintf(path, sizeof(path), "%s/" LOCK_NAME, r->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, pid, n) != n)
		lj_warn_errno(-errno, "%s: cannot record the pid", path);
	if (fd >= 0)
		close(fd);
}

/* Under the lock nobody else writes here: any manifest temporary file is a dead writer's. */
void mx_guard_clean_tmp(struct mx_run *r)
{
	char pattern[4096];
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s/manifest.json.tmp.*", r->dir);
	if (glob(pattern, GLOB_NOSORT, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		if (unlink(g.gl_pathv[i]) && errno != ENOENT)
			lj_warn_errno(-errno, "cannot remove %s", g.gl_pathv[i]);
		else
			lj_info("removed a stale %s", g.gl_pathv[i] + strlen(r->dir) + 1);
	}
	globfree(&g);
}

/*
 * Does process group @g still have a member that runs? Zombies do not
 * count: orphans are reparented to an init that may be slow (or, in a
 * container, never) to reap them, and kill(-g, 0) succeeds for those.
 */
static bool group_alive(pid_t g)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool alive = false;

	if (!d)
		return kill(-g, 0) == 0;
	while (!alive && (e = readdir(d))) {
		char path[64], buf[512], state;
		const char *end;
		ssize_t n;
		long pgrp;
		int fd;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "pid (comm) S ppid pgrp ...": comm may hold spaces and ')' */
		end = strrchr(buf, ')');
		if (end && sscanf(end + 1, " %c %*d %ld", &state, &pgrp) == 2 && pgrp == g)
			alive = state != 'Z' && state != 'X';
	}
	closedir(d);
	return alive;
}

/* After lj-matrix is gone: SIGTERM the live groups, SIGKILL what is left after the grace. */
static void stop_orphans(const pid_t *groups, int n)
{
	bool any = false;

	for (int i = 0; i < n; i++)
		if (groups[i] > 0 && group_alive(groups[i])) {
			kill(-groups[i], SIGTERM);
			any = true;
		}
	for (int t = 0; any && t < WATCHDOG_GRACE_S * 10; t++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		any = false;
		for (int i = 0; i < n; i++)
			any |= groups[i] > 0 && group_alive(groups[i]);
		if (any)
			nanosleep(&ts, NULL);
	}
	for (int i = 0; i < n; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGKILL);
}

/*
 * The watchdog's life: read "started group G" (+G) and "group G is
 * reaped" (-G) from lj-matrix; end of file means lj-matrix has exited.
 * It exits (closing the pipe) on every path, normally after reaping
 * its groups itself; a SIGKILL or a crash leaves them to the watchdog.
 */
static void __attribute__((noreturn)) watchdog(int rfd)
{
	pid_t groups[WATCHDOG_MAX_GROUPS] = { 0 };
	int32_t msg;

	for (;;) {
		ssize_t n = read(rfd, &msg, sizeof(msg));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(msg))
			break;
		for (int i = 0; i < WATCHDOG_MAX_GROUPS; i++) {
			if (msg > 0 && !groups[i]) {
				groups[i] = msg;
				break;
			}
			if (msg < 0 && groups[i] == -msg) {
				groups[i] = 0;
				break;
			}
		}
	}
	stop_orphans(groups, WATCHDOG_MAX_GROUPS);
	_exit(0);
}

/* RUNDIR/lock names the watchdog too: after a SIGKILL it holds the lock, and --resume waits for it. */
static void record_watchdog(struct mx_run *r)
{
	char path[4096], line[48];
	int fd, n = snprintf(line, sizeof(line), "watchdog %ld\n", (long)r->watchdog);

	snprintf(path, sizeof(path), "%s/" LOCK_NAME, r->dir);
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || write(fd, line, n) != n)
		lj_warn_errno(-errno, "%s: cannot record the watchdog's pid", path);
	if (fd >= 0)
		close(fd);
}

/*
 * Start the watchdog. It inherits the blocked stop signals (a Ctrl-C
 * for lj-matrix is not for it) and the run directory's lock, so a
 * --resume cannot start before the orphans of a killed run are gone.
 */
int mx_guard_start(struct mx_run *r)
{
	int p[2];
	pid_t pid;

	r->watch_fd = -1;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (pid == 0) {
		close(p[1]);
		watchdog(p[0]);
	}
	close(p[0]);
	r->watch_fd = p[1];
	r->watchdog = pid;
	record_watchdog(r);
	return 0;
}

void mx_guard_tell(struct mx_run *r, pid_t group, bool started)
{
	int32_t msg = started ? group : -group;

	if (r->watch_fd >= 0 && group > 0 && write(r->watch_fd, &msg, sizeof(msg)) != sizeof(msg))
		lj_warn_errno(-errno, "watchdog");
}

/* Normal exit: every group is reaped; close the pipe and wait for the watchdog. */
void mx_guard_stop(struct mx_run *r)
{
	if (r->watch_fd >= 0) {
		close(r->watch_fd);
		r->watch_fd = -1;
		waitpid(r->watchdog, NULL, 0);
	}
	if (r->lock_fd > 0) {
		close(r->lock_fd);
		r->lock_fd = -1;
	}
}
