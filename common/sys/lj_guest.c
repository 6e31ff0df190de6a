// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_guest - boot a kernel in QEMU, run a command inside as root, say how it ended. */
#include "lj_guest_priv.h"
#include "lj_file.h"
#include "lj_shell.h"
#include "lj_time.h"
#include "lj_why.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <ftw.h>
#include <stdarg.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MARK		"ljkit-guest: "
#define PANIC_MARK	"Kernel panic - not syncing: "
#define PANIC_GRACE_NS	(2 * LJ_NSEC_PER_SEC)	/* a panicking kernel that does not reboot (panic=0) */
#define KVM_PROBE_NS	(5 * LJ_NSEC_PER_SEC)
#define DEFAULT_MEM_MIB	1024
#define MAX_CPUS	8
#define KERNEL_CACHE	"/var/cache/ljkit/kernels"	/* scripts/deps --kernels; $LJ_KERNEL_CACHE */

struct lj_guest {
	struct lj_guest_config cfg;
	struct lj_guest_image img;
	enum lj_guest_accel accel;
	char dir[PATH_MAX - 32], exchange[PATH_MAX], console[PATH_MAX], qemu_log[PATH_MAX];
	char qemu[PATH_MAX], initrd[PATH_MAX], cache[PATH_MAX];
	char cmdline[4096];
	bool modules;			/* a modules tree went into the initramfs */
	pid_t pid;
	int64_t t0, ready_ns, panic_ns;
	off_t con_off, out_off, err_off;
	char line[1024];		/* the console line being read */
	size_t linelen;
	bool exited;
	int exit_status;
	char error[400], panic[256], last[256];
};

const char *lj_guest_accel_name(enum lj_guest_accel a)
{
	return a == LJ_GUEST_ACCEL_KVM ? "kvm" : a == LJ_GUEST_ACCEL_TCG ? "tcg" : "auto";
}

static const char *const cgroup_names[] = { "auto", "v2", "v1", "hybrid", "android", "none" };

const char *lj_guest_cgroup_name(enum lj_guest_cgroup c)
{
	return (unsigned)c < sizeof(cgroup_names) / sizeof(cgroup_names[0]) ? cgroup_names[c] : "?";
}

const char *lj_guest_arch_name(enum lj_guest_arch a)
{
	return a == LJ_GUEST_ARM64 ? "arm64" : "x86-64";
}

int lj_guest_parse_accel(const char *s, enum lj_guest_accel *out)
{
	for (int a = LJ_GUEST_ACCEL_AUTO; a <= LJ_GUEST_ACCEL_TCG; a++)
		if (!strcmp(s, lj_guest_accel_name(a))) {
			*out = a;
			return 0;
		}
	return -EINVAL;
}

int lj_guest_parse_cgroup(const char *s, enum lj_guest_cgroup *out)
{
	for (unsigned c = 0; c < sizeof(cgroup_names) / sizeof(cgroup_names[0]); c++)
		if (!strcmp(s, cgroup_names[c])) {
			*out = c;
			return 0;
		}
	return -EINVAL;
}

int lj_guest_default_cache(char *buf, size_t len)
{
	const char *env = getenv("LJ_GUEST_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/var/cache/ljkit/guest");
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/ljkit/guest", xdg);
	else
		n = snprintf(buf, len, "%s/.cache/ljkit/guest", home && *home ? home : "/tmp");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

const char *lj_guest_exchange(const struct lj_guest *g)
{
	return g->exchange;
}

pid_t lj_guest_pid(const struct lj_guest *g)
{
	return g->pid;
}

const char *lj_guest_console(const struct lj_guest *g)
{
	return g->console;
}

static int fail(struct lj_guest_result *res, enum lj_guest_status st, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct lj_guest_result *res, enum lj_guest_status st, int err, const char *fmt, ...)
{
	va_list ap;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->why, sizeof(res->why), fmt, ap);
	va_end(ap);
	return err < 0 ? err : -EINVAL;
}

/* "NAME='VALUE'" lines and the quoted argv into the exchange's run script. */
static int write_run(struct lj_guest *g, FILE *f)
{
	const struct lj_guest_config *c = &g->cfg;
	char *q = lj_shell_quote(c->cwd ? c->cwd : "/");
	int ret = q ? 0 : -ENOMEM;

	fprintf(f, "# the command lj_guest runs in the guest\ncd %s 2>/dev/null || cd /\n", q ? q : "/");
	free(q);
	q = lj_shell_quote(c->path ? c->path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	fprintf(f, "export PATH=%s HOME=/root LC_ALL=C\n", q ? q : "/bin");
	ret = q ? ret : -ENOMEM;
	free(q);
	for (int i = 0; c->env && c->env[i] && !ret; i++) {
		const char *eq = strchr(c->env[i], '=');

		if (!eq || eq == c->env[i] || strcspn(c->env[i], " \t\n'\"$\\`;|&<>()") < (size_t)(eq - c->env[i]))
			return -EINVAL;
		q = lj_shell_quote(eq + 1);
		fprintf(f, "export %.*s=%s\n", (int)(eq - c->env[i]), c->env[i], q ? q : "");
		ret = q ? 0 : -ENOMEM;
		free(q);
	}
	fputs("exec", f);
	for (int i = 0; c->argv[i] && !ret; i++) {
		q = lj_shell_quote(c->argv[i]);
		fprintf(f, " %s", q ? q : "");
		ret = q ? 0 : -ENOMEM;
		free(q);
	}
	fputc('\n', f);
	return ret;
}

static int write_exchange(struct lj_guest *g, struct lj_guest_result *res)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/run", g->exchange);
	f = fopen(path, "we");
	if (!f)
		return fail(res, LJ_GUEST_ERROR, -errno, "cannot write %s: %s", path, strerror(errno));
	ret = write_run(g, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret == -EINVAL)
		return fail(res, LJ_GUEST_ERROR, ret, "an environment entry is not NAME=VALUE");
	snprintf(path, sizeof(path), "%s/shares", g->exchange);
	f = ret ? NULL : fopen(path, "we");
	for (int i = 0; f && i < g->cfg.nshares; i++)
		fprintf(f, "ljshare%d %s\n", i, g->cfg.shares[i]);
	if (!ret && (!f || fclose(f)))
		ret = -errno;
	return ret ? fail(res, LJ_GUEST_ERROR, ret, "cannot write %s: %s", path, strerror(-ret)) : 0;
}

/* Shares are directories that exist, named by absolute paths a line can carry. */
static int check_shares(const struct lj_guest_config *c, struct lj_guest_result *res)
{
	if (c->nshares < 0 || c->nshares > LJ_GUEST_MAX_SHARES)
		return fail(res, LJ_GUEST_ERROR, -E2BIG, "at most %d shared directories", LJ_GUEST_MAX_SHARES);
	for (int i = 0; i < c->nshares; i++) {
		struct stat st;

		if (c->shares[i][0] != '/' || strchr(c->shares[i], '\n'))
			return fail(res, LJ_GUEST_ERROR, -EINVAL, "share %s: an absolute path without newlines is needed",
				    c->shares[i]);
		if (stat(c->shares[i], &st) || !S_ISDIR(st.st_mode))
			return fail(res, LJ_GUEST_ERROR, -ENOTDIR, "share %s: not a directory", c->shares[i]);
	}
	if (!c->argv || !c->argv[0])
		return fail(res, LJ_GUEST_ERROR, -EINVAL, "no command to run in the guest");
	return 0;
}

/* The image, QEMU and busybox: what must exist before anything is built. */
static int find_parts(struct lj_guest *g, char *busybox, size_t len, struct lj_guest_result *res)
{
	char why[400];
	int ret = lj_guest_image_probe(g->cfg.image, &g->img, why, sizeof(why));

	if (ret)
		return fail(res, LJ_GUEST_BAD_IMAGE, ret, "kernel image %s: %s", g->cfg.image, why);
	res->arch = g->img.arch;
	snprintf(res->release, sizeof(res->release), "%s", g->img.release);
	ret = lj_guest_qemu_find(g->img.arch, g->cfg.qemu, g->qemu, sizeof(g->qemu), why, sizeof(why));
	if (ret)
		return fail(res, LJ_GUEST_NO_TOOL, ret, "%s", why);
	if (g->cfg.busybox)
		snprintf(busybox, len, "%s", g->cfg.busybox);
	else if (g->img.arch != lj_guest_host_arch() || !lj_guest_which("busybox", busybox, len))
		snprintf(busybox, len, "%s/busybox-static-%s/bin/busybox", getenv("LJ_KERNEL_CACHE") ?
			 getenv("LJ_KERNEL_CACHE") : KERNEL_CACHE, lj_guest_arch_name(g->img.arch));
	return 0;
}

/* The modules tree (none is fine without a tree given: the kernel may have it all built in). */
static int find_modules(struct lj_guest *g, char *dir, size_t len, struct lj_guest_result *res)
{
	char why[400];
	int ret;

	dir[0] = '\0';
	if (g->cfg.initramfs && !g->cfg.modules)
		return 0;	/* the user's initramfs brings them */
	ret = lj_guest_modules_dir(g->cfg.modules, g->cfg.image, g->img.release, dir, len, why, sizeof(why));
	if (ret && g->cfg.modules)
		return fail(res, LJ_GUEST_BAD_MODULES, ret, "modules: %s", why);
	if (ret)
		dir[0] = '\0';
	g->modules = dir[0] != '\0';
	return 0;
}

/* The kernel's config beside the image (boot/config-RELEASE), for the guest's /boot. */
static void find_config(const struct lj_guest *g, char *out, size_t len)
{
	char *copy = strdup(g->cfg.image);

	out[0] = '\0';
	if (copy)
		snprintf(out, len, "%s/config-%s", dirname(copy), g->img.release);
	free(copy);
	if (out[0] && access(out, R_OK))
		out[0] = '\0';
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* rm -r that never follows a link (the guest may have left some in its exchange share). */
static void remove_tree(const char *dir)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * The directories of runners that were killed (SIGKILL leaves them):
 * ljkit-guest.PID.* of ours whose PID no longer exists.
 */
static void remove_stale(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;
		long pid;

		if (sscanf(e->d_name, "ljkit-guest.%ld.", &pid) != 1 || pid <= 0 || !kill((pid_t)pid, 0) ||
		    errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
			remove_tree(path);
	}
	if (d)
		closedir(d);
}

static int make_dirs(struct lj_guest *g, struct lj_guest_result *res)
{
	const char *tmp = getenv("TMPDIR");

	tmp = tmp && *tmp ? tmp : "/tmp";
	remove_stale(tmp);
	snprintf(g->dir, sizeof(g->dir), "%s/ljkit-guest.%ld.XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(g->dir)) {
		g->dir[0] = '\0';
		return fail(res, LJ_GUEST_ERROR, -errno, "cannot create a directory for the guest: %s", strerror(errno));
	}
	snprintf(g->exchange, sizeof(g->exchange), "%s/x", g->dir);
	snprintf(g->console, sizeof(g->console), "%s/console", g->dir);
	snprintf(g->qemu_log, sizeof(g->qemu_log), "%s/qemu.log", g->dir);
	if (mkdir(g->exchange, 0755))
		return fail(res, LJ_GUEST_ERROR, -errno, "cannot create %s: %s", g->exchange, strerror(errno));
	if (g->cfg.cache)
		snprintf(g->cache, sizeof(g->cache), "%s", g->cfg.cache);
	else if (lj_guest_default_cache(g->cache, sizeof(g->cache)) < 0)
		g->cache[0] = '\0';
	if (g->cache[0] && lj_guest_mkdirs(g->cache, 0755))
		g->cache[0] = '\0';	/* built in the run's own directory instead */
	return 0;
}

static long host_mem_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	return pages > 0 && size > 0 ? (long)((double)pages * size / (1 << 20)) : DEFAULT_MEM_MIB * 2;
}

/* Accelerator, CPUs, memory and the kernel command line. */
static void choose(struct lj_guest *g)
{
	struct lj_guest_config *c = &g->cfg;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), mem = host_mem_mib() / 2;
	bool native = g->img.arch == lj_guest_host_arch();
	int n;

	g->accel = c->accel;
	if (g->accel == LJ_GUEST_ACCEL_AUTO)
		g->accel = lj_guest_kvm_works(g->qemu, c->image, g->img.arch, g->cache, g->dir, KVM_PROBE_NS) ?
			   LJ_GUEST_ACCEL_KVM : LJ_GUEST_ACCEL_TCG;
	/*
	 * TCG runs each vCPU as a host thread: with as many vCPUs as host CPUs,
	 * QEMU's own threads and the host's work preempt them, and a guest whose
	 * vCPUs wait on each other (the IPIs and TLB shootdowns of every fork and
	 * exit) stalls for whole scheduler ticks. On the 2-CPU development machine
	 * 2 vCPUs made lj-matrix's own time per run 98-340 ms and a small shell
	 * workload 0.9-1.5 s; 1 vCPU: 6.6 ms and 0.19 s. So TCG leaves one host
	 * CPU free.
	 */
	if (!c->cpus && g->accel == LJ_GUEST_ACCEL_TCG)
		cpus--;
	if (!c->cpus)
		c->cpus = cpus < 1 ? 1 : cpus > MAX_CPUS ? MAX_CPUS : (int)cpus;
	if (!c->mem_mib)
		c->mem_mib = mem < DEFAULT_MEM_MIB ? (int)(mem < 256 ? 256 : mem) : DEFAULT_MEM_MIB;
	n = snprintf(g->cmdline, sizeof(g->cmdline), "console=%s panic=-1 quiet ljkit.root=%s ljkit.accel=%s",
		     g->img.arch == LJ_GUEST_ARM64 ? "ttyAMA0" : "ttyS0", native ? "9p" : "none",
		     lj_guest_accel_name(g->accel));
	if (c->cgroup != LJ_GUEST_CGROUP_AUTO)
		n += snprintf(g->cmdline + n, sizeof(g->cmdline) - n, " ljkit.cgroup=%s", lj_guest_cgroup_name(c->cgroup));
	if (c->cmdline && *c->cmdline)
		snprintf(g->cmdline + n, sizeof(g->cmdline) - n, " %s", c->cmdline);
}

static void init_result(struct lj_guest_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = LJ_GUEST_ERROR;
	res->boot_ns = -1;
}

int lj_guest_open(const struct lj_guest_config *cfg, struct lj_guest **out, struct lj_guest_result *res)
{
	struct lj_guest *g = calloc(1, sizeof(*g));
	char busybox[PATH_MAX], moddir[PATH_MAX], config[PATH_MAX];
	struct lj_guest_initrd spec;
	int ret;

	init_result(res);
	*out = NULL;
	if (!g)
		return fail(res, LJ_GUEST_ERROR, -ENOMEM, "out of memory");
	g->cfg = *cfg;
	g->pid = -1;
	ret = check_shares(cfg, res);
	if (!ret)
		ret = find_parts(g, busybox, sizeof(busybox), res);
	if (!ret)
		ret = find_modules(g, moddir, sizeof(moddir), res);
	if (!ret)
		ret = make_dirs(g, res);
	if (ret)
		goto err;
	find_config(g, config, sizeof(config));
	spec = (struct lj_guest_initrd){ busybox, g->img.arch == LJ_GUEST_ARM64 ? EM_AARCH64 : EM_X86_64,
		g->modules ? moddir : NULL, g->img.release, config[0] ? config : NULL, cfg->initramfs,
		g->cache[0] ? g->cache : NULL, g->dir };
	ret = lj_guest_initrd_build(&spec, g->initrd, sizeof(g->initrd), &res->status, res->why, sizeof(res->why));
	if (!ret)
		ret = write_exchange(g, res);
	if (ret)
		goto err;
	choose(g);
	res->accel = g->accel;
	res->cpus = g->cfg.cpus;
	res->mem_mib = g->cfg.mem_mib;
	res->status = LJ_GUEST_RAN;
	*out = g;
	return 0;
err:
	lj_guest_close(g);
	return ret;
}

int lj_guest_start(struct lj_guest *g, struct lj_guest_result *res)
{
	const char *shares[LJ_GUEST_MAX_SHARES];
	struct lj_guest_vm vm = {
		g->qemu, g->cfg.image, g->initrd, g->cfg.cpu, g->console, g->img.arch, g->accel,
		g->cfg.cpus, g->cfg.mem_mib, g->cmdline, g->img.arch == lj_guest_host_arch() ? "/" : NULL,
		g->exchange, shares, g->cfg.nshares,
	};
	char **argv;
	int log;

	memcpy(shares, g->cfg.shares, sizeof(shares));
	argv = lj_guest_qemu_argv(&vm);
	log = open(g->qemu_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!argv || log < 0) {
		lj_guest_argv_free(argv);
		if (log >= 0)
			close(log);
		return fail(res, LJ_GUEST_ERROR, -ENOMEM, "cannot start QEMU: %s", strerror(argv ? errno : ENOMEM));
	}
	g->t0 = lj_now_ns();
	g->pid = lj_guest_spawn(argv, log);
	close(log);
	lj_guest_argv_free(argv);
	if (g->pid < 0) {
		int err = g->pid;

		g->pid = -1;
		return fail(res, LJ_GUEST_ERROR, err, "cannot start QEMU: %s", strerror(-err));
	}
	return 0;
}

/* One console line: the init's words, a panic, or the last thing the guest said. */
static void console_line(struct lj_guest *g, char *l)
{
	const char *p;

	l[strcspn(l, "\r")] = '\0';
	if (!strncmp(l, MARK "ready", strlen(MARK "ready")) && !g->ready_ns)
		g->ready_ns = lj_now_ns() - g->t0;
	else if (!strncmp(l, MARK "exit ", strlen(MARK "exit ")))
		g->exited = sscanf(l + strlen(MARK "exit "), "%d", &g->exit_status) == 1;
	else if (!strncmp(l, MARK "error ", strlen(MARK "error ")) && !g->error[0])
		snprintf(g->error, sizeof(g->error), "%s", l + strlen(MARK "error "));
	else if ((p = strstr(l, PANIC_MARK)) && !g->panic[0]) {
		snprintf(g->panic, sizeof(g->panic), "%s", p + strlen(PANIC_MARK));
		g->panic_ns = lj_now_ns();
	}
	if (*l && strncmp(l, MARK, strlen(MARK)))
		snprintf(g->last, sizeof(g->last), "%.255s", l);
}

static void read_console(struct lj_guest *g)
{
	char buf[4096];
	ssize_t n;
	int fd = open(g->console, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), g->con_off)) > 0) {
		g->con_off += n;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || g->linelen == sizeof(g->line) - 1) {
				g->line[g->linelen] = '\0';
				console_line(g, g->line);
				g->linelen = 0;
			}
			if (buf[i] != '\n')
				g->line[g->linelen++] = buf[i];
		}
	}
	close(fd);
}

/* New bytes of the command's stdout or stderr (files of the exchange share) to @to. */
static void forward(const char *dir, const char *name, off_t *off, int to)
{
	char path[PATH_MAX + 16], buf[8192];
	ssize_t n;
	int fd;

	if (to < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = pread(fd, buf, sizeof(buf), *off)) > 0) {
		*off += n;
		for (ssize_t w = 0, k; w < n; w += k)
			if ((k = write(to, buf + w, (size_t)(n - w))) <= 0)
				break;
	}
	close(fd);
}

static void pump(struct lj_guest *g)
{
	read_console(g);
	forward(g->exchange, "stdout", &g->out_off, g->cfg.out_fd);
	forward(g->exchange, "stderr", &g->err_off, g->cfg.err_fd);
}

/* QEMU's own last words (its stderr), for a guest that never started. */
static void qemu_words(const struct lj_guest *g, char *out, size_t len)
{
	char buf[2048], *l;

	out[0] = '\0';
	if (lj_file_read_text(g->qemu_log, buf, sizeof(buf)) || !buf[0])
		return;
	l = strrchr(buf, '\n');
	snprintf(out, len, "%.*s", (int)len - 1, l ? l + 1 : buf);
}

/* "error 9p: ..." from the init: which status it means. */
static enum lj_guest_status error_status(const char *e)
{
	if (!strncmp(e, "modules:", 8))
		return LJ_GUEST_BAD_MODULES;
	return LJ_GUEST_NO_SUPPORT;
}

/* After QEMU exited by itself: what the console said. */
static void classify(struct lj_guest *g, int status, struct lj_guest_result *res)
{
	char words[256];

	if (g->exited) {
		res->status = LJ_GUEST_RAN;
		res->exit_status = g->exit_status;
	} else if (g->error[0]) {
		fail(res, error_status(g->error), 0, "guest: %s%s%s", g->error,
		     g->modules || g->cfg.initramfs ? "" : "; no modules tree was found for release ",
		     g->modules || g->cfg.initramfs ? "" : g->img.release);
	} else if (g->panic[0]) {
		fail(res, LJ_GUEST_PANIC, 0, "guest kernel panic: %s", g->panic);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		qemu_words(g, words, sizeof(words));
		fail(res, LJ_GUEST_ERROR, 0, "QEMU %s %d%s%s", WIFEXITED(status) ? "exited with status" :
		     "was killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		     *words ? ": " : "", words);
	} else {
		fail(res, LJ_GUEST_PANIC, 0, "the guest stopped before its command ended (last console line: %s)",
		     *g->last ? g->last : "none");
	}
}

/* Why a guest was killed for taking too long: did it boot at all? */
static void timed_out(struct lj_guest *g, struct lj_guest_result *res, const char *why)
{
	double t = (double)(lj_now_ns() - g->t0) / LJ_NSEC_PER_SEC;

	if (why && *why)
		fail(res, LJ_GUEST_TIMEOUT, 0, "%s", why);
	else if (g->ready_ns)
		fail(res, LJ_GUEST_TIMEOUT, 0, "the guest booted in %.1f s but its command did not end within %.1f s: killed",
		     (double)g->ready_ns / LJ_NSEC_PER_SEC, t);
	else
		fail(res, LJ_GUEST_TIMEOUT, 0, "the guest did not boot within %.1f s: killed (last console line: %s)", t,
		     *g->last ? g->last : "none");
}

/* Should the guest be stopped now? 0: no; else the status it ends with, @why its reason. */
static enum lj_guest_status must_stop(struct lj_guest *g, lj_guest_tick_fn tick, void *arg, char *why, size_t len)
{
	int64_t now = lj_now_ns();

	why[0] = '\0';
	if (g->cfg.timeout_ns && now - g->t0 >= g->cfg.timeout_ns)
		return LJ_GUEST_TIMEOUT;
	if (g->panic[0] && now - g->panic_ns >= PANIC_GRACE_NS)
		return LJ_GUEST_PANIC;	/* panic=0 in the boot words: it would wait for ever */
	if (tick && tick(arg, why, len))
		return LJ_GUEST_TIMEOUT;
	return LJ_GUEST_RAN;
}

/* The loop: QEMU's end, the limits, @stop's signals. Returns the status it stopped the guest with, or RAN. */
static enum lj_guest_status wait_loop(struct lj_guest *g, const sigset_t *set, int64_t tick_ns,
				      lj_guest_tick_fn tick, void *arg, int *status, char *why, size_t len,
				      int *signo)
{
	for (;;) {
		struct timespec ts = lj_ns_to_ts(tick_ns);
		enum lj_guest_status st;
		pid_t w;
		int sig;

		pump(g);
		w = waitpid(g->pid, status, WNOHANG);
		if (w == g->pid || (w < 0 && errno == ECHILD))
			return LJ_GUEST_RAN;
		st = must_stop(g, tick, arg, why, len);
		if (st != LJ_GUEST_RAN)
			return st;
		sig = sigtimedwait(set, NULL, &ts);
		if (sig > 0 && sig != SIGCHLD) {
			*signo = sig;
			return LJ_GUEST_INTERRUPTED;
		}
	}
}

int lj_guest_wait(struct lj_guest *g, const sigset_t *stop, int64_t tick_ns, lj_guest_tick_fn tick,
		  void *arg, struct lj_guest_result *res)
{
	sigset_t set, old;
	enum lj_guest_status st;
	char why[sizeof(res->why)];
	int status = 0, signo = 0;

	if (stop)
		set = *stop;
	else
		sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	st = wait_loop(g, &set, tick_ns > 0 ? tick_ns : 50 * LJ_NSEC_PER_MSEC, tick, arg, &status, why,
		       sizeof(why), &signo);
	if (st != LJ_GUEST_RAN) {
		lj_guest_kill(g->pid);
		g->pid = -1;
	}
	g->pid = -1;
	pump(g);
	sigprocmask(SIG_SETMASK, &old, NULL);
	res->total_ns = lj_now_ns() - g->t0;
	res->boot_ns = g->ready_ns ? g->ready_ns : -1;
	res->accel = g->accel;
	if (st == LJ_GUEST_TIMEOUT)
		timed_out(g, res, why);
	else if (st == LJ_GUEST_PANIC)
		fail(res, LJ_GUEST_PANIC, 0, "guest kernel panic: %s", g->panic);
	else if (st == LJ_GUEST_INTERRUPTED) {
		res->signal = signo;
		fail(res, LJ_GUEST_INTERRUPTED, 0, "stopped by signal %d: the guest was killed", signo);
	} else
		classify(g, status, res);
	return res->status == LJ_GUEST_RAN ? 0 : -ECANCELED;
}

void lj_guest_close(struct lj_guest *g)
{
	if (!g)
		return;
	if (g->pid > 0)
		lj_guest_kill(g->pid);
	if (g->dir[0])
		remove_tree(g->dir);
	free(g);
}
