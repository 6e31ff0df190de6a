// SPDX-License-Identifier: GPL-2.0-or-later
/* exec - run one workload run (under lj-env when the cell changes the system) with its load. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_shell.h"
#include "lj_time.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STOP_GRACE_NS	(10 * LJ_NSEC_PER_SEC)	/* lj-env needs time to restore the system */
#define LOAD_GRACE_NS	(2 * LJ_NSEC_PER_SEC)

/*
 * SIGINT, SIGTERM, SIGHUP and SIGCHLD stay blocked in lj-matrix and are
 * taken only by sigtimedwait() below: a signal can then never land in the
 * middle of a manifest update, which is what "SIGINT finishes nothing
 * half-written" needs.
 */
void mx_exec_block_signals(struct mx_run *r)
{
	sigemptyset(&r->sigs);
	sigaddset(&r->sigs, SIGINT);
	sigaddset(&r->sigs, SIGTERM);
	sigaddset(&r->sigs, SIGHUP);
	sigaddset(&r->sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &r->sigs, NULL);
}

static bool is_stop_signal(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

bool mx_exec_pending_stop(struct mx_run *r)
{
	sigset_t pend;
	struct timespec zero = { 0, 0 };
	int sig;

	if (r->interrupted)
		return true;
	sigpending(&pend);
	if (!sigismember(&pend, SIGINT) && !sigismember(&pend, SIGTERM) &&
	    !sigismember(&pend, SIGHUP))
		return false;
	while ((sig = sigtimedwait(&r->sigs, NULL, &zero)) > 0)
		if (is_stop_signal(sig))
			r->interrupted = true;
	return r->interrupted;
}

struct child_env {
	const char *selfdir;
	const char *workload, *cell;
	int run_no;
	bool warmup;
};

static pid_t spawn(struct mx_run *r, char *const argv[], const struct child_env *ce, const char *log,
		   bool append)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		sigset_t all;
		char num[16], *path = NULL;
		const char *old = getenv("PATH");
		int fd;

		/* Own process group: lj-matrix stops a run and its children as one. */
		setpgid(0, 0);
		/*
		 * The watchdog learns of this group only after fork returns in
		 * lj-matrix: should lj-matrix die in between, the parent-death
		 * signal still stops this process (lj-env restores on SIGTERM).
		 */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		fd = log ? open(log, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644) : -1;
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		/* The tools next to lj-matrix win over older ones in PATH. */
		if (ce->selfdir && asprintf(&path, "%s:%s", ce->selfdir, old ? old : "/usr/bin:/bin") >= 0)
			setenv("PATH", path, 1);
		setenv("LJ_MATRIX_WORKLOAD", ce->workload, 1);
		setenv("LJ_MATRIX_CELL", ce->cell, 1);
		snprintf(num, sizeof(num), "%d", ce->run_no);
		setenv("LJ_MATRIX_RUN", num, 1);
		setenv("LJ_MATRIX_WARMUP", ce->warmup ? "1" : "0", 1);
		execv(argv[0], argv);
		fprintf(stderr, "lj-matrix: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides, so no window where a kill misses it */
	mx_guard_tell(r, pid, true);
	return pid;
}

/*
 * Wait for @pid until @deadline_ns (0: none). Return: 0 with *status
 * when it exited, -ETIMEDOUT, or -EINTR when a stop signal arrived.
 */
static int wait_child(struct mx_run *r, pid_t pid, int64_t deadline_ns, int *status)
{
	for (;;) {
		struct timespec ts, *tsp = NULL;
		int sig;
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (deadline_ns) {
			int64_t left = deadline_ns - lj_now_ns();

			if (left <= 0)
				return -ETIMEDOUT;
			ts = lj_ns_to_ts(left);
			tsp = &ts;
		}
		sig = sigtimedwait(&r->sigs, NULL, tsp);
		if (sig < 0 && errno == EAGAIN)
			return -ETIMEDOUT;
		if (is_stop_signal(sig)) {
			r->interrupted = true;
			return -EINTR;
		}
	}
}

/* Ask the group to stop with @sig, then SIGKILL after @grace_ns; always reaps @pid. */
static void stop_group(struct mx_run *r, pid_t pid, int sig, int64_t grace_ns, int *status)
{
	bool was = r->interrupted;
	int ret;

	kill(-pid, sig);
	do {
		ret = wait_child(r, pid, lj_now_ns() + grace_ns, status);
	} while (ret == -EINTR);	/* a second Ctrl-C does not skip the restore */
	r->interrupted |= was;
	if (ret) {
		kill(-pid, SIGKILL);
		waitpid(pid, status, 0);
	}
	/* The group may hold grandchildren that outlived their parent. */
	kill(-pid, SIGKILL);
}

static void last_log_line(const char *log, char *buf, size_t len)
{
	char line[512] = "";
	FILE *f = log ? fopen(log, "re") : NULL;

	buf[0] = '\0';
	if (!f)
		return;
	/* the last lines are all it needs: a workload may have written gigabytes */
	if (fseeko(f, 0, SEEK_END) == 0 && ftello(f) > 65536)
		fseeko(f, -65536, SEEK_END);
	else
		rewind(f);
	/* lj-env's --watch lines and --power's "power: " lines follow the workload's last words: not the reason */
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n' && strncmp(line, "lj-env: watch ", 14) && strncmp(line, "power: ", 7))
			snprintf(buf, len, "%s", line);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static pid_t start_load(struct mx_run *r, const struct lj_scenario_cell *c,
			const struct child_env *ce, const char *log)
{
	const char *name = lj_scenario_value(r->scn, c, "load");
	const struct lj_scenario_section *ls;
	char *cmd = NULL;
	pid_t pid;

	if (!name || !strcmp(name, "none"))
		return 0;
	ls = lj_scenario_find_load(r->scn, name);
	if (!ls || asprintf(&cmd, "exec %s", ls->command) < 0)
		return -ENOENT;
	{
		char *argv[] = { (char *)"/bin/sh", (char *)"-c", cmd, NULL };

		pid = spawn(r, argv, ce, log, true);
	}
	free(cmd);
	return pid;
}

/*
 * argv for one run: [lj-env SETUP... [--json SETUP_JSON] --] /bin/sh -c
 * "exec COMMAND --json JSON". *@full (the sh -c string) is the caller's
 * to free. Return: 0 or -ENOMEM.
 */
static int build_argv(struct mx_run *r, const struct lj_scenario_cell *c, const char *json_path,
		      const char *setup_json, char **argv, char **full)
{
	const char *setup[MX_SETUP_ARGS_MAX];
	char *cmd = lj_scenario_command(r->scn, c), *qjson = lj_shell_quote(json_path);
	int nsetup = mx_setup_args(r->scn, c, setup, MX_SETUP_ARGS_MAX), n = 0, ret = 0;

	*full = NULL;
	if (!cmd || !qjson || nsetup < 0 || asprintf(full, "exec %s --json %s", cmd, qjson) < 0) {
		*full = NULL;
		ret = -ENOMEM;
		goto out;
	}
	/* Strings for execv: argv[] is not const in C, the strings stay untouched. */
	if (nsetup > 0) {
		argv[n++] = r->env_bin;
		for (int i = 0; i < nsetup; i++)
			argv[n++] = (char *)(uintptr_t)setup[i];
		if (setup_json) {
			/* lj-env's own result: what it applied and what fell back */
			argv[n++] = (char *)"--json";
			argv[n++] = (char *)(uintptr_t)setup_json;
		}
		argv[n++] = (char *)"--";
	}
	argv[n++] = (char *)"/bin/sh";
	argv[n++] = (char *)"-c";
	argv[n++] = *full;
	argv[n] = NULL;
out:
	free(cmd);
	free(qjson);
	return ret;
}

/* Exit code, signal and reason of a finished run from its wait @status. */
static void describe(struct mx_outcome *o, int status, int64_t timeout, const char *log_path)
{
	char last[200];
	int len;

	if (WIFEXITED(status)) {
		o->exit_code = WEXITSTATUS(status);
	} else {
		o->exit_code = -1;
		o->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	if (o->timed_out) {
		snprintf(o->reason, sizeof(o->reason), "timed out after %.1f s",
			 (double)timeout / LJ_NSEC_PER_SEC);
		return;
	}
	if (!o->exit_code)
		return;
	last_log_line(log_path, last, sizeof(last));
	if (o->exit_code > 0)
		len = snprintf(o->reason, sizeof(o->reason), "exit status %d", o->exit_code);
	else
		len = snprintf(o->reason, sizeof(o->reason), "killed by signal %d", o->signal);
	if (*last && len > 0 && (size_t)len < sizeof(o->reason))
		snprintf(o->reason + len, sizeof(o->reason) - len, ": %s", last);
}

/* Wait for the run @pid (timeout, stop signals), stop its group when cut short, reap it. */
static void finish_run(struct mx_run *r, pid_t pid, int64_t start, int64_t timeout,
		       struct mx_outcome *o, int *status)
{
	int ret = wait_child(r, pid, timeout ? start + timeout : 0, status);

	if (ret == -ETIMEDOUT) {
		o->timed_out = true;
		stop_group(r, pid, SIGTERM, STOP_GRACE_NS, status);
	} else if (ret == -EINTR) {
		o->interrupted = true;
		stop_group(r, pid, SIGINT, STOP_GRACE_NS, status);
	}
	mx_guard_tell(r, pid, false);
	o->duration_ns = lj_now_ns() - start;
	o->interrupted |= r->interrupted;
}

int mx_exec_run(struct mx_run *r, const struct lj_scenario_cell *c, const char *json_path,
		const char *setup_json, const char *log_path, int run_no, bool warmup,
		struct mx_outcome *o)
{
	const struct lj_scenario_section *w = &r->scn->workloads[c->workload];
	char *argv[MX_SETUP_ARGS_MAX + 16], *full = NULL, *loadlog = NULL, id[1024];
	int status = 0, ret;
	int64_t start, timeout = w->timeout_ns ? w->timeout_ns : r->cfg->timeout_ns;
	struct child_env ce = { r->selfdir, w->name, id, run_no, warmup };
	pid_t load = 0, pid;

	memset(o, 0, sizeof(*o));
	lj_scenario_cell_id(r->scn, c, id, sizeof(id));
	ret = build_argv(r, c, json_path, setup_json, argv, &full);
	if (ret || asprintf(&loadlog, "%s.load", log_path) < 0) {
		loadlog = NULL;
		ret = -ENOMEM;
		goto out;
	}
	load = start_load(r, c, &ce, loadlog);
	if (load < 0) {
		snprintf(o->reason, sizeof(o->reason), "cannot start load: %s", lj_strerror(load));
		o->exit_code = -1;
		goto out;
	}
	start = lj_now_ns();
	pid = spawn(r, argv, &ce, log_path, false);
	if (pid < 0) {
		snprintf(o->reason, sizeof(o->reason), "cannot fork: %s", lj_strerror(pid));
		o->exit_code = -1;
	} else {
		finish_run(r, pid, start, timeout, o, &status);
		describe(o, status, timeout, log_path);
	}
	if (load > 0) {
		int ls;

		stop_group(r, load, SIGTERM, LOAD_GRACE_NS, &ls);
		mx_guard_tell(r, load, false);
	}
out:
	free(full);
	free(loadlog);
	return ret;
}
