// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_guest_proc - the processes the guest runner starts: QEMU, cpio, the decompressors. */
#include "lj_guest_priv.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOOL_ERR_MAX	4096	/* of a tool's stderr, for its last words */

static void to_fd(int fd, int target)
{
	if (fd < 0)
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0 && fd != target)
		dup2(fd, target);
}

/* In the child: dies with the parent, default signals, the given stdio; never returns. */
static void __attribute__((noreturn)) exec_child(pid_t parent, char *const argv[], int in_fd, int out_fd,
						 int err_fd)
{
	sigset_t all;

	setpgid(0, 0);
	/* the runner's death (SIGKILL included) takes the guest with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	to_fd(in_fd, 0);
	to_fd(out_fd, 1);
	to_fd(err_fd, 2);
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

pid_t lj_guest_spawn(char *const argv[], int out_fd)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		exec_child(parent, argv, -1, out_fd, out_fd);
	setpgid(pid, pid);	/* both sides: no moment where a kill of the group misses it */
	return pid;
}

void lj_guest_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The last line of @fd's contents (a tool's stderr) into @why. */
static void last_words(int fd, const char *tool, char *why, size_t len)
{
	char buf[TOOL_ERR_MAX + 1], *line;
	ssize_t n = pread(fd, buf, TOOL_ERR_MAX, 0);

	if (n <= 0) {
		lj_why(why, len, "%s failed", tool);
		return;
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	line = strrchr(buf, '\n');
	lj_why(why, len, "%s: %s", tool, line ? line + 1 : buf);
}

/* An unnamed temporary file (the tool's stderr): gone when closed. */
int lj_guest_anon_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[PATH_MAX];
	int fd;

	dir = dir && *dir ? dir : "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/ljkit-tool.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

int lj_guest_run_tool(char *const argv[], int in_fd, int out_fd, char *why, size_t len)
{
	int err = lj_guest_anon_file(), status = 0;
	pid_t parent = getpid(), pid;

	if (err < 0)
		return lj_why_err(why, len, -errno, "cannot create a temporary file: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(err);
		return lj_why_err(why, len, -errno, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0)
		exec_child(parent, argv, in_fd, out_fd, err);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(err);
		return 0;
	}
	last_words(err, argv[0], why, len);
	close(err);
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : -EIO;
}

bool lj_guest_which(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;
	bool found = false;

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return !access(name, X_OK);
	}
	dirs = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!dirs)
		return false;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		struct stat st;

		snprintf(out, len, "%s/%s", *d ? d : ".", name);
		found = !access(out, X_OK) && !stat(out, &st) && S_ISREG(st.st_mode);
	}
	free(dirs);
	return found;
}

int lj_guest_mkdirs(const char *path, mode_t mode)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	for (char *c = p + 1;; c++) {
		char save = *c;

		if (save && save != '/')
			continue;
		*c = '\0';
		if (mkdir(p, mode) && errno != EEXIST)
			return -errno;
		*c = save;
		if (!save)
			return 0;
	}
}
