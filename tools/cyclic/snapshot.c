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
#include <sys/stat.h>
#include <unistd.h>

#include "lj_err.h"

#define SHM_DIR "/dev/shm"
#define SHM_PREFIX "cyclictest"

/*
 * Is @path a snapshot file we may remove: a regular file (not a link or
 * anything else), owned by us? /dev/shm is writable by everyone: a file
 * of another user, or a link planted under the name, is left alone.
 */
static bool ours(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

/*
 * rt-tests' snapshot helper finds running cyclictest instances by their
 * /dev/shm/cyclictest<PID> files. One left by a process that no longer
 * exists (killed with SIGKILL: no chance to remove it) would be listed
 * as running: remove those that are ours.
 */
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
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", shm_dir, d->d_name);
		if (ours(path) && !unlink(path))
			lj_info("removed %s, left by a process that no longer runs", path);
	}
	closedir(dir);
}

int cyc_snapshot_open(struct cyc_run *run)
{
	int err;

	cyc_snapshot_remove_stale(SHM_DIR);
	snprintf(run->shm_path, sizeof(run->shm_path), "%s/%s%d", SHM_DIR, SHM_PREFIX, (int)getpid());
	/* Our PID's name left by an earlier process that had the same PID. */
	if (ours(run->shm_path))
		unlink(run->shm_path);
	run->shm_fd = open(run->shm_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (run->shm_fd >= 0)
		return 0;
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
