// SPDX-License-Identifier: GPL-2.0-or-later
/* snapshot.c - a running lj-cyclic's numbers for outside readers: SIGUSR2's /dev/shm file, -F's pipe. */
#include "cyclic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lj_err.h"

#define SHM_DIR "/dev/shm"
#define SHM_PREFIX "cyclictest"

/*
 * Which /dev/shm/cyclictest<PID> files are stale? /dev/shm is shared by
 * every user and, in containers, by processes of other PID namespaces,
 * to whom our PIDs mean nothing: the PID in the name of a live run
 * outside may be dead in here. So the PID proves nothing; what does is
 * the lock. lj-cyclic holds an flock on its file from its creation to its
 * exit (the kernel drops it with the process, SIGKILL included), and the
 * file's last line marks it as an lj-cyclic's (written after the lock is
 * taken). A file is removed only when it is a regular file of ours, so
 * marked, and nobody holds its lock. Files without the mark (cyclictest's
 * own, or another program's) are never touched: nothing proves them stale.
 */
#define MARK "# lj-cyclic pid="

/* @fd's content ends with our mark line. */
static bool marked(int fd)
{
	char buf[8192];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	const char *last;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	last = strrchr(buf, '\n');
	return !strncmp(last ? last + 1 : buf, MARK, strlen(MARK));
}

/* Remove @path if it is provably stale (see above). Return: whether it was. */
static bool remove_if_stale(const char *path)
{
	struct stat st;
	bool gone = false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && marked(fd) &&
	    !flock(fd, LOCK_EX | LOCK_NB))
		gone = !unlink(path);	/* under its lock: no lj-cyclic can be making it now */
	close(fd);
	return gone;
}

void cyc_snapshot_remove_stale(const char *shm_dir)
{
	DIR *dir = opendir(shm_dir);
	struct dirent *d;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char path[4096];
		char *end;
		long pid;

		if (strncmp(d->d_name, SHM_PREFIX, strlen(SHM_PREFIX)))
			continue;
		pid = strtol(d->d_name + strlen(SHM_PREFIX), &end, 10);
		if (*end || pid <= 0 || end == d->d_name + strlen(SHM_PREFIX))
			continue;
		snprintf(path, sizeof(path), "%s/%s", shm_dir, d->d_name);
		if (remove_if_stale(path))
			lj_info("removed %s, left by an lj-cyclic that no longer runs", path);
	}
	closedir(dir);
}

/* The mark: who made the file (its PID namespace and start time too, for whoever reads it). */
static void make_mark(struct cyc_run *run)
{
	char ns[64] = "?", line[1024], *p;
	unsigned long long start = 0;
	ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	ns[n > 0 ? n : 1] = '\0';
	n = fd >= 0 ? read(fd, line, sizeof(line) - 1) : -1;
	if (fd >= 0)
		close(fd);
	line[n > 0 ? n : 0] = '\0';
	p = strrchr(line, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	snprintf(run->shm_mark, sizeof(run->shm_mark), MARK "%d pidns=%s start=%llu\n", (int)getpid(),
		 ns, start);
}

int cyc_snapshot_open(struct cyc_run *run)
{
	int err;

	cyc_snapshot_remove_stale(SHM_DIR);
	snprintf(run->shm_path, sizeof(run->shm_path), "%s/%s%d", SHM_DIR, SHM_PREFIX, (int)getpid());
	/* Our PID's name left by an earlier run (a live one of another PID namespace stays). */
	remove_if_stale(run->shm_path);
	run->shm_fd = open(run->shm_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (run->shm_fd >= 0) {
		/* Locked before it is marked: a marked file nobody holds is stale, never ours. */
		make_mark(run);
		if (flock(run->shm_fd, LOCK_EX | LOCK_NB) ||
		    pwrite(run->shm_fd, run->shm_mark, strlen(run->shm_mark), 0) < 0)
			lj_warn_errno(-errno, "cannot mark %s as this run's", run->shm_path);
		return 0;
	}
	err = -errno;
	lj_warn_errno(err, "no SIGUSR2 snapshots: cannot create %s", run->shm_path);
	run->shm_path[0] = 0;	/* not ours: never removed */
	return err;
}

/* SIGUSR2: the status block into the file, replacing the previous one; the run goes on. */
void cyc_snapshot_write(struct cyc_run *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (run->shm_fd < 0)
		return;
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	cyc_report_status_as(run, mem, "cyclictest");
	fputs(run->shm_mark, mem);
	fclose(mem);
	if (ftruncate(run->shm_fd, 0) || pwrite(run->shm_fd, text, len, 0) != (ssize_t)len)
		lj_warn_errno(-errno, "cannot write the snapshot to %s", run->shm_path);
	free(text);
}

void cyc_snapshot_close(struct cyc_run *run)
{
	if (run->shm_fd >= 0) {
		close(run->shm_fd);
		run->shm_fd = -1;
	}
	if (run->shm_path[0]) {
		unlink(run->shm_path);
		run->shm_path[0] = 0;
	}
}

int cyc_fifo_open(struct cyc_run *run)
{
	const char *path = run->cfg->fifo;
	struct stat st;

	if (!path)
		return 0;
	if (!mkfifo(path, 0644)) {
		run->fifo_created = true;
		return 0;
	}
	if (errno == EEXIST && !lstat(path, &st) && S_ISFIFO(st.st_mode))
		return 0;	/* a pipe already there (not a link to one), as cyclictest takes it */
	lj_error_errno(-errno, "--fifo: cannot create the named pipe %s", path);
	return LJ_EXIT_RUNTIME;
}

/*
 * -F: while a reader holds the pipe open, give it the T: lines (as
 * cyclictest's fifo thread does); without a reader the open fails at
 * once (ENXIO) and nothing waits.
 */
void cyc_fifo_write(struct cyc_run *run)
{
	int fd;
	FILE *f;

	if (!run->cfg->fifo)
		return;
	fd = open(run->cfg->fifo, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return;
	}
	cyc_report_threads(run, f);
	fclose(f);	/* EPIPE from a reader gone: SIGPIPE is ignored by the run */
}

/* Remove the pipe we made; whatever else may stand under its name by now is left alone. */
void cyc_fifo_close(struct cyc_run *run)
{
	struct stat st;

	if (run->fifo_created && !lstat(run->cfg->fifo, &st) && S_ISFIFO(st.st_mode) &&
	    st.st_uid == geteuid())
		unlink(run->cfg->fifo);
	run->fifo_created = false;
}
