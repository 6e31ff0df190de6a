/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_guest - run a command as root inside a QEMU guest booted with a given kernel (docs/lj-guest.md). */
#ifndef LJ_GUEST_H
#define LJ_GUEST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A guest boots the kernel image with an initramfs built here (busybox
 * and the image's own virtio, 9p and overlay modules, resolved from its
 * modules tree), sees the host's root read-only over 9p with a tmpfs
 * overlay on top (so it may write anywhere, and nothing reaches the host
 * but the shared directories), mounts proc, sys, tracefs, debugfs and
 * the cgroup layout asked for, runs the command as root and powers off.
 * The command's stdout and stderr come back through a private exchange
 * share, its exit status on the console. Nothing here prints: outcomes
 * and reasons travel in struct lj_guest_result.
 */

enum lj_guest_arch { LJ_GUEST_X86_64, LJ_GUEST_ARM64 };

enum lj_guest_accel { LJ_GUEST_ACCEL_AUTO, LJ_GUEST_ACCEL_KVM, LJ_GUEST_ACCEL_TCG };

/*
 * The guest's cgroup layout. AUTO follows the boot words as systemd
 * would: v2, or v1 with systemd.unified_cgroup_hierarchy=0 (hybrid when
 * systemd.legacy_systemd_cgroup_controller=0 is also given). V1 is
 * systemd's legacy layout: a tmpfs at /sys/fs/cgroup, one hierarchy per
 * controller, cpu,cpuacct and net_cls,net_prio co-mounted with their
 * symlinks, name=systemd; HYBRID adds cgroup2 at /sys/fs/cgroup/unified.
 */
enum lj_guest_cgroup { LJ_GUEST_CGROUP_AUTO, LJ_GUEST_CGROUP_V2, LJ_GUEST_CGROUP_V1,
		       LJ_GUEST_CGROUP_HYBRID, LJ_GUEST_CGROUP_ANDROID, LJ_GUEST_CGROUP_NONE };

/* How a guest run ended; lj-guest's exit code per status is in docs/lj-guest.md. */
enum lj_guest_status {
	LJ_GUEST_RAN,		/* the command ran to its end: exit_status is its own */
	LJ_GUEST_NO_TOOL,	/* QEMU, busybox-static or cpio missing on the host */
	LJ_GUEST_BAD_IMAGE,	/* the image is missing or not a kernel */
	LJ_GUEST_BAD_MODULES,	/* the modules tree is missing or of another release */
	LJ_GUEST_NO_SUPPORT,	/* the guest kernel lacks virtio, 9p or overlay */
	LJ_GUEST_PANIC,		/* the kernel panicked, or the guest stopped before the command ended */
	LJ_GUEST_TIMEOUT,	/* killed: no end within the time limit (or the caller's tick said so) */
	LJ_GUEST_INTERRUPTED,	/* killed: a stop signal reached the caller */
	LJ_GUEST_ERROR,		/* the runner itself failed (memory, I/O, QEMU would not start) */
};

#define LJ_GUEST_MAX_SHARES	8
/* Where the exchange share is in the guest: the command's script, its output. */
#define LJ_GUEST_EXCHANGE	"/run/ljkit-guest"

struct lj_guest_config {
	const char *image;		/* vmlinuz / bzImage, or an arm64 Image (gzip'd or not) */
	const char *modules;		/* a tree holding lib/modules/RELEASE, or that directory; NULL: found */
	const char *initramfs;		/* the user's, loaded before ours (its modules are modprobe'd); NULL */
	const char *cmdline;		/* extra boot words; NULL */
	char *const *argv;		/* the command, run in the guest's PATH */
	char *const *env;		/* "NAME=VALUE" given to the command; NULL-terminated, may be NULL */
	const char *cwd;		/* the command's directory (visible through the root share); NULL: / */
	const char *path;		/* the command's PATH; NULL: the usual system one */
	const char *shares[LJ_GUEST_MAX_SHARES];	/* host directories shared read-write, same path in the guest */
	int nshares;
	const char *qemu;		/* the QEMU binary; NULL: qemu-system-<arch> in PATH */
	const char *cpu;		/* -cpu; NULL: host with KVM, max with TCG */
	const char *busybox;		/* a static busybox of the guest's architecture; NULL: found */
	const char *cache;		/* where built initramfs images and KVM probes are kept; NULL: default */
	int cpus;			/* 0: the host's online CPUs, at most 8 */
	int mem_mib;			/* 0: 1024, or half the host's memory when that is less */
	enum lj_guest_accel accel;
	enum lj_guest_cgroup cgroup;
	int64_t timeout_ns;		/* from the start of QEMU to the guest's end; 0: none */
	int out_fd, err_fd;		/* the command's stdout and stderr are copied here as they come; -1: not */
};

struct lj_guest_result {
	enum lj_guest_status status;
	int exit_status;		/* RAN: the command's (128 + N when signal N ended it) */
	int signal;			/* INTERRUPTED: the stop signal */
	enum lj_guest_arch arch;
	enum lj_guest_accel accel;	/* what the guest ran with (KVM or TCG) */
	int cpus, mem_mib;		/* what it was given */
	char release[128];		/* the image's kernel release */
	int64_t boot_ns;		/* QEMU started to the guest ready to run the command; -1 */
	int64_t total_ns;		/* QEMU started to its end */
	char why[512];			/* for any status but RAN: one line */
};

struct lj_guest;

/*
 * Check what the guest needs (QEMU, the image, its modules, busybox,
 * cpio), choose KVM or TCG (a KVM guest is tried once per image and
 * boot of the host, its answer kept in the cache: /dev/kvm may exist and
 * still not run this kernel), build or reuse the initramfs and write the
 * command's script into a new exchange directory. On failure returns
 * -errno with @res->status and @res->why saying what; *@out is NULL.
 */
int lj_guest_open(const struct lj_guest_config *cfg, struct lj_guest **out, struct lj_guest_result *res);

/* The host side of the exchange share (LJ_GUEST_EXCHANGE in the guest): for files the command reads. */
const char *lj_guest_exchange(const struct lj_guest *g);
/* The guest's console as QEMU wrote it (kernel messages, the init's lines): for a log kept by the caller. */
const char *lj_guest_console(const struct lj_guest *g);

/*
 * Start QEMU in its own process group, killed with the caller
 * (PR_SET_PDEATHSIG) so that no guest outlives a runner killed by
 * SIGKILL. Return: 0, or -errno with @res filled.
 */
int lj_guest_start(struct lj_guest *g, struct lj_guest_result *res);
pid_t lj_guest_pid(const struct lj_guest *g);

/*
 * Called every tick while the guest runs: return 0 to go on, or non-zero
 * to kill the guest as timed out, with the reason in @why.
 */
typedef int (*lj_guest_tick_fn)(void *arg, char *why, size_t len);

/*
 * Wait for the guest to end, copying the command's output to the
 * config's fds as it comes and calling @tick (may be NULL) every
 * @tick_ns. The guest is killed when the config's timeout passes, when
 * @tick asks, when a signal of @stop arrives (INTERRUPTED: blocked here
 * while waiting, taken with sigtimedwait), and when the kernel panics
 * without rebooting. Fills @res; returns 0 when the command ran (whatever
 * its exit status), -errno otherwise.
 */
int lj_guest_wait(struct lj_guest *g, const sigset_t *stop, int64_t tick_ns, lj_guest_tick_fn tick,
		  void *arg, struct lj_guest_result *res);

/* Kill the guest if it runs, remove the exchange directory, free. NULL is fine. */
void lj_guest_close(struct lj_guest *g);

/* "tcg" / "kvm" / "auto"; "v2", "v1", ... ; "x86-64" / "arm64". */
const char *lj_guest_accel_name(enum lj_guest_accel a);
const char *lj_guest_cgroup_name(enum lj_guest_cgroup c);
const char *lj_guest_arch_name(enum lj_guest_arch a);
int lj_guest_parse_accel(const char *s, enum lj_guest_accel *out);
int lj_guest_parse_cgroup(const char *s, enum lj_guest_cgroup *out);

/*
 * The default cache directory: $LJ_GUEST_CACHE, else /var/cache/ljkit/guest
 * for root, else $XDG_CACHE_HOME (or ~/.cache)/ljkit/guest. Return: the
 * length, or -ENAMETOOLONG.
 */
int lj_guest_default_cache(char *buf, size_t len);

#endif
