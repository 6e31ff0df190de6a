// SPDX-License-Identifier: GPL-2.0-or-later
/* test_preempt_switch - lj_preempt_can_switch on a fake /sys/kernel: says no without writing. */
#include "lj_err.h"
#include "lj_preempt.h"
#include "lj_setupopt.h"
#include "tap.h"
#include "fake_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define PREEMPT "/sys/kernel/debug/sched/preempt"
#define LOCKDOWN "/sys/kernel/security/lockdown"

static const char *get(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

static bool has(const char *s, const char *part)
{
	return strstr(s, part) != NULL;
}

static void test_allowed(void)
{
	char why[512] = "";

	fake_kernel_put(PREEMPT, "none (voluntary) full lazy\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), 0, "offered mode: can switch");
	is_str(get(PREEMPT), "none (voluntary) full lazy\n", "checking wrote nothing");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_VOLUNTARY, why, sizeof(why)), 0,
	       "the mode in force: can switch (to itself)");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_NONE, NULL, 0), 0, "why may be NULL");
}

static void test_refused(void)
{
	char why[512] = "";

	is_int(lj_preempt_can_switch(LJ_PREEMPT_RT, why, sizeof(why)), -EINVAL, "rt: -EINVAL");
	ok(has(why, "not a dynamic"), "rt: says it is not a dynamic mode");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_UNKNOWN, why, sizeof(why)), -EINVAL, "unknown: -EINVAL");

	fake_kernel_put(PREEMPT, "none (voluntary) full\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_LAZY, why, sizeof(why)), -EINVAL,
	       "a mode the kernel does not offer: -EINVAL");
	ok(has(why, "does not offer") && has(why, "lazy"), "names the mode not offered");

	/* The bug this guards against: a writable, unparsable file was switched as a probe. */
	fake_kernel_put(PREEMPT, "what\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -EPROTO,
	       "unparsable file: -EPROTO (the old mode could not be restored)");
	ok(has(why, "could not be restored"), "says why an unparsable file stops it");
	is_str(get(PREEMPT), "what\n", "unparsable file left as it was");
}

static void test_lockdown(void)
{
	char why[512] = "";

	fake_kernel_put(PREEMPT, "none (voluntary) full lazy\n");
	fake_kernel_put(LOCKDOWN, "none [integrity] confidentiality\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -EPERM, "lockdown integrity: -EPERM");
	ok(has(why, "lockdown (integrity)") && has(why, "preempt=full"),
	   "names the lockdown level and the boot parameter");
	fake_kernel_put(LOCKDOWN, "none integrity [confidentiality]\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -EPERM,
	       "lockdown confidentiality: -EPERM");
	fake_kernel_put(LOCKDOWN, "[none] integrity confidentiality\n");
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), 0, "lockdown none: can switch");
	unlink(LOCKDOWN);
}

static void test_setupopt_never_probes(void)
{
	struct lj_setupopt o;
	struct lj_setup *stack = NULL;
	int ret;

	/* lj_setupopt falls back (not strict) and leaves the unparsable file alone. */
	fake_kernel_put(PREEMPT, "what\n");
	lj_setupopt_init(&o);
	o.preempt = "full";
	lj_err_set_verbosity(-1);
	ret = lj_setupopt_apply(&o, NULL, &stack, NULL);
	is_int(ret, 0, "setupopt: --preempt on an unparsable file falls back");
	is_str(get(PREEMPT), "what\n", "setupopt: the file was not written");
	lj_setupopt_restore(&o, stack);

	o.strict = true;
	stack = NULL;
	ret = lj_setupopt_apply(&o, NULL, &stack, NULL);
	is_int(ret, LJ_EXIT_NOCAP, "setupopt --strict: missing capability, exit 77");
	is_str(get(PREEMPT), "what\n", "setupopt --strict: the file was not written");
	lj_setupopt_restore(&o, stack);

	/* A readable file: the switch is made and undone. */
	fake_kernel_put(PREEMPT, "none (voluntary) full lazy\n");
	o.strict = false;
	stack = NULL;
	ret = lj_setupopt_apply(&o, NULL, &stack, NULL);
	is_int(ret, 0, "setupopt: switch on a readable file");
	is_str(get(PREEMPT), "full", "setupopt: wrote the mode");
	fake_kernel_put(PREEMPT, "none voluntary (full) lazy\n");	/* what the kernel would show now */
	lj_setupopt_restore(&o, stack);
	is_str(get(PREEMPT), "voluntary", "setupopt: restored the old mode");
}

static void test_no_file(void)
{
	struct utsname u;
	enum lj_preempt_model m;
	char why[512] = "";
	bool dyn = true;

	/* No debugfs mounted: an empty directory at the mount point. */
	unlink(PREEMPT);
	rmdir("/sys/kernel/debug/sched");
	if (!uname(&u))
		lj_preempt_parse_uname(u.version, &m, &dyn);
	if (dyn) {
		is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -ENODEV,
		       "debugfs not mounted on a dynamic kernel: -ENODEV");
		ok(has(why, "debugfs not mounted"), "says debugfs is not mounted");
	} else {
		is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -ENOTSUP,
		       "debugfs not mounted, kernel not dynamic: -ENOTSUP");
		ok(has(why, "PREEMPT_DYNAMIC"), "says the kernel is not dynamic");
	}

	/* debugfs mounted without sched/preempt: not PREEMPT_DYNAMIC. */
	if (mount("ljtest2", "/sys/kernel/debug", "tmpfs", 0, "size=16k")) {
		skip(3, "cannot mount a fake debugfs");
		return;
	}
	is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -ENOTSUP,
	       "debugfs without sched/preempt: -ENOTSUP");
	/* A read-only debugfs: readable, not writable. */
	mkdir("/sys/kernel/debug/sched", 0755);
	fake_kernel_put(PREEMPT, "none (voluntary) full lazy\n");
	if (mount(NULL, "/sys/kernel/debug", NULL, MS_REMOUNT | MS_RDONLY, NULL)) {
		skip(2, "cannot remount the fake debugfs read-only");
	} else {
		is_int(lj_preempt_can_switch(LJ_PREEMPT_FULL, why, sizeof(why)), -EROFS,
		       "read-only sched/preempt: -EROFS");
		ok(has(why, "preempt=full"), "read-only: names the boot parameter");
	}
	umount("/sys/kernel/debug");
}

/* In the child: a private mount namespace with a fake /sys/kernel and journal dir. */
static int fake_tree(const char *jdir)
{
	if (fake_kernel_enter())
		return -1;
	if (mount("ljjournal", jdir, "tmpfs", 0, "size=1m,mode=0700"))
		return -1;
	setenv("LJ_JOURNAL_DIR", jdir, 1);
	return mkdir("/sys/kernel/security", 0755) ? -1 : 0;
}

int main(void)
{
	char jdir[] = "/tmp/ljtest-pswitch.XXXXXX";
	int status;
	pid_t pid;

	lj_err_init("test_preempt_switch");
	if (!mkdtemp(jdir))
		skip_all("cannot make a temporary directory");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (fake_tree(jdir))
			_exit(77);
		plan(28);
		test_allowed();
		test_refused();
		test_lockdown();
		test_setupopt_never_probes();
		test_no_file();
		_exit(done());
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		rmdir(jdir);
		skip_all("cannot fork");
	}
	rmdir(jdir);	/* the journals lived on a tmpfs in the child's namespace */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		skip_all("cannot create a private mount namespace with a fake /sys/kernel (needs root or user namespaces)");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
