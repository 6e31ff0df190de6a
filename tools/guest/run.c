// SPDX-License-Identifier: GPL-2.0-or-later
/* run.c - boot the guest, run the command, say how it ended, and the exit code that says it too. */
#include "guest.h"
#include "lj_err.h"
#include "lj_time.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int exit_code(const struct lj_guest_result *res)
{
	switch (res->status) {
	case LJ_GUEST_RAN:
		return res->exit_status;
	case LJ_GUEST_NO_TOOL:
		return LJ_EXIT_NOCAP;
	case LJ_GUEST_BAD_IMAGE:
		return GUEST_EXIT_BAD_IMAGE;
	case LJ_GUEST_BAD_MODULES:
		return GUEST_EXIT_BAD_MODULES;
	case LJ_GUEST_NO_SUPPORT:
		return GUEST_EXIT_NO_SUPPORT;
	case LJ_GUEST_TIMEOUT:
		return GUEST_EXIT_TIMEOUT;
	case LJ_GUEST_PANIC:
		return GUEST_EXIT_PANIC;
	case LJ_GUEST_INTERRUPTED:
		return 128 + res->signal;
	case LJ_GUEST_ERROR:
		break;
	}
	return LJ_EXIT_RUNTIME;
}

/* --console FILE: the guest's console as it was, copied before the run's directory goes. */
static void keep_console(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out;

	if (in < 0) {
		lj_warn_errno(-errno, "--console: %s", from);
		return;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		lj_warn_errno(-errno, "--console %s", to);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			lj_warn_errno(-errno, "--console %s", to);
			break;
		}
	if (out >= 0 && close(out))
		lj_warn_errno(-errno, "--console %s", to);
	close(in);
}

int guest_run(struct guest_opts *o)
{
	struct lj_guest_result res;
	struct lj_guest *g = NULL;
	char cwd[PATH_MAX];
	sigset_t stop;
	int ret;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	/* blocked from here: a Ctrl-C while the initramfs is built must not leave a half-written file */
	sigprocmask(SIG_BLOCK, &stop, NULL);
	o->cfg.cwd = getcwd(cwd, sizeof(cwd));
	o->cfg.path = getenv("PATH");
	ret = lj_guest_open(&o->cfg, &g, &res);
	if (!ret) {
		lj_info("booting %s (%s) with %s, %d CPUs, %d MiB", res.release, lj_guest_arch_name(res.arch),
			res.accel == LJ_GUEST_ACCEL_KVM ? "KVM" : "TCG", res.cpus, res.mem_mib);
		ret = lj_guest_start(g, &res);
	}
	if (!ret)
		ret = lj_guest_wait(g, &stop, 0, NULL, NULL, &res);
	if (g && o->console)
		keep_console(lj_guest_console(g), o->console);
	lj_guest_close(g);
	if (res.boot_ns >= 0)
		lj_info("the guest was ready after %.2f s, ended after %.2f s", (double)res.boot_ns / LJ_NSEC_PER_SEC,
			(double)res.total_ns / LJ_NSEC_PER_SEC);
	if (res.status != LJ_GUEST_RAN)
		lj_error("%s", res.why);
	return exit_code(&res);
}
