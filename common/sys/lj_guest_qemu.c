// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_guest_qemu - the QEMU command line of a guest, and whether KVM can run its kernel here. */
#include "lj_guest_priv.h"
#include "lj_file.h"
#include "lj_time.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <sha2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS	64
#define PROBE_POLL_NS	(20 * LJ_NSEC_PER_MSEC)

enum lj_guest_arch lj_guest_host_arch(void)
{
#if defined(__aarch64__)
	return LJ_GUEST_ARM64;
#else
	return LJ_GUEST_X86_64;
#endif
}

static const char *qemu_name(enum lj_guest_arch arch, const char **pkg)
{
	*pkg = arch == LJ_GUEST_ARM64 ? "qemu-system-arm" : "qemu-system-x86";
	return arch == LJ_GUEST_ARM64 ? "qemu-system-aarch64" : "qemu-system-x86_64";
}

int lj_guest_qemu_find(enum lj_guest_arch arch, const char *override, char *out, size_t len,
		       char *why, size_t wlen)
{
	const char *pkg, *name = qemu_name(arch, &pkg);

	if (lj_guest_which(override ? override : name, out, len))
		return 0;
	if (override)
		return lj_why_err(why, wlen, -ENOENT, "QEMU %s: not an executable", override);
	return lj_why_err(why, wlen, -ENOENT, "%s not found (apt-get install %s)", name, pkg);
}

/* A malloc'd argv under construction: every string its own. */
struct args {
	char *v[MAX_ARGS + 1];
	int n;
	bool oom;
};

static __attribute__((format(printf, 2, 3))) void arg(struct args *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->oom || a->n == MAX_ARGS) {
		a->oom = true;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		a->oom = true;
	else
		a->v[a->n++] = s;
}

/* A path inside a QEMU option: ',' is written ',,'. malloc'd. */
static char *opt_path(const char *p)
{
	char *out = malloc(2 * strlen(p) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *p; p++) {
		*o++ = *p;
		if (*p == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

static void share(struct args *a, const char *path, const char *tag, bool ro)
{
	char *p = opt_path(path);

	if (!p) {
		a->oom = true;
		return;
	}
	arg(a, "-virtfs");
	/* multidevs=remap: the host's root spans several file systems (/run, /tmp, ...) */
	arg(a, "local,path=%s,mount_tag=%s,security_model=none,multidevs=remap%s", p, tag,
	    ro ? ",readonly=on" : "");
	free(p);
}

/* What every QEMU of ours has: no defaults, the console into a file, power-off and reboot end it. */
static void machine(struct args *a, enum lj_guest_arch arch, enum lj_guest_accel accel, const char *console)
{
	char *c = opt_path(console);

	arg(a, "-nodefaults");
	arg(a, "-no-user-config");
	arg(a, "-no-reboot");
	arg(a, "-display");
	arg(a, "none");
	arg(a, "-accel");
	/*
	 * One host thread for all vCPUs under TCG: with QEMU 7.2's multi-threaded TCG, a vCPU
	 * kept running its stale translation of a kernel text the other vCPU had just patched
	 * (static calls switching the preemption model), looping on an int3 that was no longer
	 * in memory: the guest hung for good about once in three setups of env-crash.t.
	 */
	arg(a, "%s", accel == LJ_GUEST_ACCEL_KVM ? "kvm" : "tcg,thread=single");
	if (arch == LJ_GUEST_ARM64) {
		arg(a, "-machine");
		arg(a, "%s", accel == LJ_GUEST_ACCEL_KVM ? "virt,gic-version=host" : "virt");
	}
	arg(a, "-chardev");
	arg(a, "file,id=con,path=%s", c ? c : "");
	arg(a, "-serial");
	arg(a, "chardev:con");
	free(c);
	a->oom |= !c;
}

/* -cpu: the host's with KVM; under TCG everything QEMU emulates (pointer authentication the cheap way). */
static const char *default_cpu(enum lj_guest_arch arch, enum lj_guest_accel accel)
{
	if (accel == LJ_GUEST_ACCEL_KVM)
		return "host";
	return arch == LJ_GUEST_ARM64 ? "max,pauth-impdef=on" : "max";
}

char **lj_guest_qemu_argv(const struct lj_guest_vm *vm)
{
	struct args a = { .n = 0 };
	char **out;

	arg(&a, "%s", vm->qemu);
	machine(&a, vm->arch, vm->accel, vm->console);
	arg(&a, "-cpu");
	arg(&a, "%s", vm->cpu ? vm->cpu : default_cpu(vm->arch, vm->accel));
	arg(&a, "-smp");
	arg(&a, "%d", vm->cpus);
	arg(&a, "-m");
	arg(&a, "%d", vm->mem_mib);
	arg(&a, "-kernel");
	arg(&a, "%s", vm->image);
	arg(&a, "-initrd");
	arg(&a, "%s", vm->initrd);
	arg(&a, "-append");
	arg(&a, "%s", vm->cmdline);
	share(&a, vm->exchange, "ljx", false);
	if (vm->root)
		share(&a, vm->root, "ljroot", true);
	for (int i = 0; i < vm->nshares; i++) {
		char tag[24];

		snprintf(tag, sizeof(tag), "ljshare%d", i);
		share(&a, vm->shares[i], tag, false);
	}
	out = a.oom ? NULL : calloc((size_t)a.n + 1, sizeof(*out));
	if (!out) {
		for (int i = 0; i < a.n; i++)
			free(a.v[i]);
		return NULL;
	}
	memcpy(out, a.v, (size_t)a.n * sizeof(*out));
	return out;
}

void lj_guest_argv_free(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The probe's key: this boot of the host, the QEMU binary, the image's content. */
static int probe_key(const char *qemu, const char *image, char key[65])
{
	char boot[64] = "", buf[1 << 16];
	SHA2_CTX c;
	ssize_t n;
	int fd = open(image, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	lj_file_read("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	SHA256Init(&c);
	SHA256Update(&c, (const uint8_t *)boot, strlen(boot) + 1);
	SHA256Update(&c, (const uint8_t *)qemu, strlen(qemu) + 1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		SHA256Update(&c, (const uint8_t *)buf, (size_t)n);
	close(fd);
	SHA256End(&c, key);
	return 0;
}

/* Has the file at @path got @text in it (a console log growing)? */
static bool file_has(const char *path, const char *text)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, text) != NULL;
}

/* Boot the image under KVM with no initramfs: does its banner come within @probe_ns? */
static bool probe_boot(const char *qemu, const char *image, enum lj_guest_arch arch, const char *dir,
		       int64_t probe_ns)
{
	struct lj_guest_vm vm = { .qemu = qemu, .arch = arch, .accel = LJ_GUEST_ACCEL_KVM };
	struct args a = { .n = 0 };
	char console[PATH_MAX];
	int64_t end = lj_now_ns() + probe_ns;
	bool seen = false;
	pid_t pid;

	snprintf(console, sizeof(console), "%s/kvm-probe.console", dir);
	arg(&a, "%s", vm.qemu);
	machine(&a, arch, vm.accel, console);
	arg(&a, "-cpu");
	arg(&a, "host");
	arg(&a, "-m");
	arg(&a, "256");
	arg(&a, "-kernel");
	arg(&a, "%s", image);
	arg(&a, "-append");
	arg(&a, "%s", arch == LJ_GUEST_ARM64 ? "console=ttyAMA0 earlycon panic=-1" :
	    "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1");
	pid = a.oom ? -ENOMEM : lj_guest_spawn(a.v, -1);
	while (pid > 0 && !seen && lj_now_ns() < end) {
		struct timespec ts = lj_ns_to_ts(PROBE_POLL_NS);

		nanosleep(&ts, NULL);
		seen = file_has(console, "Linux version");
	}
	lj_guest_kill(pid);
	unlink(console);
	for (int i = 0; i < a.n; i++)
		free(a.v[i]);
	return seen;
}

bool lj_guest_kvm_works(const char *qemu, const char *image, enum lj_guest_arch arch,
			const char *cache, const char *dir, int64_t probe_ns)
{
	char key[65], path[PATH_MAX], answer[8] = "";
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	bool works;

	if (fd < 0 || arch != lj_guest_host_arch()) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	if (probe_key(qemu, image, key))
		return false;
	snprintf(path, sizeof(path), "%s/kvm-%s", cache && *cache ? cache : dir, key);
	if (lj_file_read(path, answer, sizeof(answer)) > 0)
		return answer[0] == '1';
	works = probe_boot(qemu, image, arch, dir, probe_ns);
	/* a cache that cannot be written only means probing again next time */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, works ? "1\n" : "0\n", 2) != 2)
			unlink(path);
		close(fd);
	}
	return works;
}
