// SPDX-License-Identifier: GPL-2.0-or-later
/* test_preempt - preemption model parsers, detection and switching on a fake debugfs. */
#include "lj_kconfig.h"
#include "lj_preempt.h"
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

#define BIT(m) (1u << (m))

static void test_names(void)
{
	enum lj_preempt_model m = LJ_PREEMPT_UNKNOWN;

	ok(!lj_preempt_parse("lazy", &m) && m == LJ_PREEMPT_LAZY, "'lazy' parses");
	is_str(lj_preempt_name(LJ_PREEMPT_VOLUNTARY), "voluntary", "name of voluntary");
	is_str(lj_preempt_name((enum lj_preempt_model)42), "unknown", "out-of-range name is unknown");
	is_int(lj_preempt_parse("Full", &m), -EINVAL, "names are case-sensitive");
	is_int(lj_preempt_parse("unknown", &m), -EINVAL, "'unknown' is not a model to ask for");
	is_int(lj_preempt_parse("", &m), -EINVAL, "empty name rejected");
}

static void test_debugfs_format(void)
{
	enum lj_preempt_model m = LJ_PREEMPT_UNKNOWN;
	unsigned avail = 0;

	ok(!lj_preempt_parse_debugfs("none (voluntary) full lazy\n", &m, &avail) &&
	   m == LJ_PREEMPT_VOLUNTARY, "current mode is the one in parentheses");
	is_int(avail, BIT(LJ_PREEMPT_NONE) | BIT(LJ_PREEMPT_VOLUNTARY) | BIT(LJ_PREEMPT_FULL) |
	       BIT(LJ_PREEMPT_LAZY), "every offered mode is listed");
	ok(!lj_preempt_parse_debugfs("(full) lazy", &m, &avail) && m == LJ_PREEMPT_FULL &&
	   avail == (BIT(LJ_PREEMPT_FULL) | BIT(LJ_PREEMPT_LAZY)), "PREEMPT_RT kernel format");
	is_int(lj_preempt_parse_debugfs("none voluntary full", &m, NULL), -EINVAL,
	       "no current mode is an error");
	is_int(lj_preempt_parse_debugfs("(none) (full)", &m, NULL), -EINVAL,
	       "two current modes are an error");
	is_int(lj_preempt_parse_debugfs("none (fast) full", &m, NULL), -EINVAL,
	       "unknown mode name is an error");
	is_int(lj_preempt_parse_debugfs("full\n", &m, NULL), -EINVAL,
	       "a bare word (what a write leaves in a fake file) is not the kernel's format");
	is_int(lj_preempt_parse_debugfs("(full", &m, NULL), -EINVAL, "unclosed parenthesis");
}

static void test_kmsg_lines(void)
{
	enum lj_preempt_model m = LJ_PREEMPT_UNKNOWN;

	ok(!lj_preempt_parse_kmsg("6,123,241269,-;Dynamic Preempt: none\n", &m) &&
	   m == LJ_PREEMPT_NONE, "/dev/kmsg record");
	ok(!lj_preempt_parse_kmsg("[    0.241269] Dynamic Preempt: voluntary", &m) &&
	   m == LJ_PREEMPT_VOLUNTARY, "dmesg line");
	ok(!lj_preempt_parse_kmsg("6,900,9000,-;Dynamic Preempt: lazy\n", &m) &&
	   m == LJ_PREEMPT_LAZY, "lazy");
	is_int(lj_preempt_parse_kmsg("6,1,2,-;rcu: Preemptible hierarchical RCU implementation.", &m),
	       -ENOENT, "other lines do not match");
	is_int(lj_preempt_parse_kmsg("Dynamic Preempt: sometimes", &m), -EINVAL,
	       "unknown mode in the line is an error");
}

static void test_cmdline(void)
{
	enum lj_preempt_model m = LJ_PREEMPT_UNKNOWN;

	ok(!lj_preempt_parse_cmdline("quiet preempt=full splash\n", &m) && m == LJ_PREEMPT_FULL,
	   "preempt= on the command line");
	ok(!lj_preempt_parse_cmdline("preempt=none preempt=voluntary", &m) &&
	   m == LJ_PREEMPT_VOLUNTARY, "the last preempt= wins, as in the kernel");
	is_int(lj_preempt_parse_cmdline("quiet -- preempt=full", &m), -ENOENT,
	       "words after -- belong to init");
	is_int(lj_preempt_parse_cmdline("nopreempt=full preempt=", &m), -ENOENT,
	       "similar words do not match");
	is_int(lj_preempt_parse_cmdline("preempt=dynamic", &m), -EINVAL, "unknown mode rejected");
}

static void test_uname(void)
{
	enum lj_preempt_model m;
	bool dyn;

	lj_preempt_parse_uname("#1 SMP PREEMPT_DYNAMIC @0", &m, &dyn);
	ok(dyn && m == LJ_PREEMPT_UNKNOWN, "PREEMPT_DYNAMIC: dynamic, mode not told");
	lj_preempt_parse_uname("#1 SMP PREEMPT_RT Tue Nov 5 2024", &m, &dyn);
	ok(!dyn && m == LJ_PREEMPT_RT, "PREEMPT_RT");
	lj_preempt_parse_uname("#1 SMP PREEMPT Tue", &m, &dyn);
	ok(!dyn && m == LJ_PREEMPT_FULL, "PREEMPT is full");
	lj_preempt_parse_uname("#1 SMP PREEMPT_LAZY", &m, &dyn);
	ok(m == LJ_PREEMPT_LAZY, "PREEMPT_LAZY");
	lj_preempt_parse_uname("#1 SMP Debian 6.1.90-1", &m, &dyn);
	ok(!dyn && m == LJ_PREEMPT_UNKNOWN, "no word: none or voluntary, unknown");
}

static int kconfig_model(const char *text, enum lj_preempt_model *m, bool *dyn)
{
	struct lj_kconfig k;
	int ret;

	lj_kconfig_from_text(&k, text, strlen(text));
	ret = lj_preempt_from_kconfig(&k, m, dyn);
	lj_kconfig_free(&k);
	return ret;
}

static void test_kconfig(void)
{
	enum lj_preempt_model m;
	bool dyn;

	ok(!kconfig_model("CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n", &m, &dyn) &&
	   m == LJ_PREEMPT_NONE && dyn, "dynamic kernel defaulting to none");
	ok(!kconfig_model("# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n", &m, &dyn) &&
	   m == LJ_PREEMPT_VOLUNTARY && !dyn, "CONFIG_PREEMPT_VOLUNTARY is not CONFIG_PREEMPT");
	ok(!kconfig_model("CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_DYNAMIC=y\n", &m, &dyn) &&
	   m == LJ_PREEMPT_RT && dyn, "PREEMPT_RT wins over the model choice");
	ok(!kconfig_model("CONFIG_PREEMPT_LAZY=y\n", &m, &dyn) && m == LJ_PREEMPT_LAZY, "lazy");
	is_int(kconfig_model("CONFIG_HZ=250\n", &m, &dyn), -EINVAL, "no model in the config");
}

/*
 * The namespace checks run in a child (unshare changes the whole process);
 * it sends back one record per check and the parent reports them.
 */
struct check {
	int pass;	/* 1 pass, 0 fail, 2 skipped (name is the reason) */
	char name[96];
	char diag[200];
};

static struct check checks[32];
static int nchecks;

static __attribute__((format(printf, 3, 4)))
void child_ok(int pass, const char *name, const char *fmt, ...)
{
	struct check *c = &checks[nchecks < 31 ? nchecks++ : 31];
	va_list ap;

	c->pass = pass;
	snprintf(c->name, sizeof(c->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(c->diag, sizeof(c->diag), fmt, ap);
	va_end(ap);
}

static void read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

#define NS_CHECKS 14

/* Return: -1 when the fake tree cannot be mounted (the caller skips). */
static int namespace_checks(void)
{
	enum lj_preempt_model host = LJ_PREEMPT_UNKNOWN;
	bool host_rt, host_dynamic;
	struct lj_preempt_info info;
	struct utsname u;
	enum lj_preempt_model m = LJ_PREEMPT_UNKNOWN;
	char why[256], buf[64];
	int ret;

	if (uname(&u))
		return -1;
	lj_preempt_parse_uname(u.version, &host, &host_dynamic);
	host_rt = host == LJ_PREEMPT_RT;

	/* a fake /sys/kernel: the real paths, our files */
	if (fake_kernel_put("/sys/kernel/debug/sched/preempt", "none (voluntary) full lazy\n"))
		return -1;

	/* uname -v is the running kernel's: on a PREEMPT_RT kernel the model stays rt */
	lj_preempt_detect(&info);
	child_ok(info.model == (host_rt ? LJ_PREEMPT_RT : LJ_PREEMPT_VOLUNTARY) && info.mode == LJ_PREEMPT_VOLUNTARY,
		 "detect reads the mode from debugfs", "model %s mode %s",
		 lj_preempt_name(info.model), lj_preempt_name(info.mode));
	child_ok(info.dynamic && !strcmp(info.source, "debugfs sched/preempt"),
		 "debugfs is named as the source", "source '%s'", info.source);
	ret = lj_preempt_current_debugfs(&m);
	child_ok(!ret && m == LJ_PREEMPT_VOLUNTARY, "current_debugfs", "ret %d", ret);

	ret = lj_preempt_set(LJ_PREEMPT_FULL, why, sizeof(why));
	read_file("/sys/kernel/debug/sched/preempt", buf, sizeof(buf));
	child_ok(!ret && !strcmp(buf, "full"), "set writes the mode name, truncating the file",
		 "ret %d, file '%s', why '%s'", ret, buf, ret ? why : "");
	ret = lj_preempt_set(LJ_PREEMPT_RT, why, sizeof(why));
	child_ok(ret == -EINVAL && strstr(why, "not a dynamic"), "rt cannot be switched to",
		 "ret %d why '%s'", ret, why);

	/* PREEMPT_RT kernel with dynamic full/lazy */
	fake_kernel_put("/sys/kernel/realtime", "1\n");
	fake_kernel_put("/sys/kernel/debug/sched/preempt", "(full) lazy\n");
	lj_preempt_detect(&info);
	child_ok(info.model == LJ_PREEMPT_RT && info.mode == LJ_PREEMPT_FULL && info.dynamic,
		 "PREEMPT_RT: model rt, dynamic mode full", "model %s mode %s dynamic %d",
		 lj_preempt_name(info.model), lj_preempt_name(info.mode), info.dynamic);
	unlink("/sys/kernel/realtime");

	/* garbage in the file: detection falls back and says why */
	fake_kernel_put("/sys/kernel/debug/sched/preempt", "what\n");
	ret = lj_preempt_current_debugfs(&m);
	child_ok(ret == -EINVAL, "unparsable debugfs content is -EINVAL", "ret %d", ret);

	/* debugfs not mounted: only an empty directory at the mount point */
	unlink("/sys/kernel/debug/sched/preempt");
	rmdir("/sys/kernel/debug/sched");
	ret = lj_preempt_set(LJ_PREEMPT_FULL, why, sizeof(why));
	child_ok(ret == -ENODEV && strstr(why, "debugfs not mounted") && strstr(why, "preempt=full"),
		 "set without debugfs: -ENODEV, names the boot parameter", "ret %d why '%s'", ret, why);
	/* a kernel that is not PREEMPT_DYNAMIC (Debian's 6.1 RT) has no sched/preempt to look for */
	lj_preempt_detect(&info);
	child_ok(host_dynamic ? strstr(info.detail, "debugfs not mounted") != NULL : !strstr(info.detail, "debugfs"),
		 host_dynamic ? "detect says why debugfs was not used" : "detect does not look for debugfs (kernel not dynamic)",
		 "detail '%s'", info.detail);
	child_ok(strcmp(info.source, "debugfs sched/preempt") != 0 && info.source[0],
		 "detect falls back to another source", "source '%s'", info.source);

	/* debugfs mounted but no sched/preempt: a kernel without PREEMPT_DYNAMIC */
	if (mount("ljtest2", "/sys/kernel/debug", "tmpfs", 0, "size=16k")) {
		child_ok(0, "mount a fake debugfs", "mount: %s", strerror(errno));
		return 0;
	}
	ret = lj_preempt_set(LJ_PREEMPT_NONE, why, sizeof(why));
	child_ok(ret == -ENOTSUP && strstr(why, "not PREEMPT_DYNAMIC"),
		 "set on a kernel without sched/preempt: -ENOTSUP", "ret %d why '%s'", ret, why);
	umount("/sys/kernel/debug");
	umount("/sys/kernel");

	/*
	 * The real debugfs, read-only checks: under lockdown (these VMs) the
	 * file gives EPERM and set must say so. Never write the real file.
	 */
	if (mount("none", "/sys/kernel/debug", "debugfs", 0, NULL)) {
		for (ret = 0; ret < 3; ret++)
			child_ok(2, "cannot mount the real debugfs", "%s", "");
		return 0;
	}
	ret = lj_preempt_current_debugfs(&m);
	if (ret == -EPERM) {
		lj_preempt_detect(&info);
		child_ok(strstr(info.detail, "lockdown") != NULL, "lockdown named in detect's detail",
			 "detail '%s'", info.detail);
		ret = lj_preempt_set(LJ_PREEMPT_FULL, why, sizeof(why));
		child_ok(ret == -EPERM, "set under lockdown is -EPERM", "ret %d", ret);
		child_ok(strstr(why, "lockdown") && strstr(why, "preempt=full"),
			 "set under lockdown names the boot parameter", "why '%s'", why);
	} else {
		for (ret = 0; ret < 3; ret++)
			child_ok(2, "real debugfs sched/preempt is not locked down here", "%s", "");
	}
	return 0;
}

static void test_namespace(void)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;
	int i;

	if (pipe(pfd)) {
		skip(NS_CHECKS, "no pipe");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (fake_kernel_enter() || namespace_checks())
			_exit(77);
		n = write(pfd[1], checks, sizeof(checks[0]) * (size_t)nchecks);
		_exit(n < 0);
	}
	close(pfd[1]);
	n = read(pfd[0], checks, sizeof(checks));
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		skip(NS_CHECKS, "cannot create a private mount namespace (needs root or user namespaces)");
		return;
	}
	nchecks = n > 0 ? (int)(n / (ssize_t)sizeof(checks[0])) : 0;
	for (i = 0; i < nchecks; i++)
		if (checks[i].pass == 2)
			skip(1, checks[i].name);
		else if (!tap_ok(checks[i].pass, __FILE__, __LINE__, checks[i].name))
			diag("%s", checks[i].diag);
	for (; i < NS_CHECKS; i++)
		ok(0, "namespace check did not run");
}

static void test_detect_here(void)
{
	struct lj_preempt_info info;

	/* on any machine: never fails, always names a source or says unknown */
	lj_preempt_detect(&info);
	ok(info.source[0] != '\0', "detect names a source on this machine");
	diag("this machine: model %s, mode %s, dynamic %d, source '%s', detail '%s'",
	     lj_preempt_name(info.model), lj_preempt_name(info.mode), info.dynamic,
	     info.source, info.detail);
}

int main(void)
{
	plan(35 + NS_CHECKS);
	test_names();
	test_debugfs_format();
	test_kmsg_lines();
	test_cmdline();
	test_uname();
	test_kconfig();
	test_detect_here();
	test_namespace();
	return done();
}
