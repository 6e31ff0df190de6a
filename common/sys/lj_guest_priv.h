/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_guest_priv - the guest runner's parts: image, modules, initramfs, QEMU, processes. */
#ifndef LJ_GUEST_PRIV_H
#define LJ_GUEST_PRIV_H

#include "lj_guest.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The modules every guest needs for its shares, unless the kernel has them built in. */
#define LJ_GUEST_WANTED_MODULES { "virtio_pci", "9pnet_virtio", "9p", "overlay", NULL }

/* lj_guest_image.c: what kernel an image is. */
struct lj_guest_image {
	enum lj_guest_arch arch;
	char release[128];	/* "6.1.0-57-amd64" */
};

/*
 * An x86 bzImage (its setup header's version string) or an arm64 Image,
 * plain or gzip-compressed (its "Linux version" banner). Return: 0;
 * -ENOENT, -EISDIR or -EACCES; -EINVAL "not a Linux kernel image ...".
 */
int lj_guest_image_probe(const char *path, struct lj_guest_image *img, char *why, size_t len);

/*
 * The modules directory (lib/modules/RELEASE) for @release: in @tree (a
 * directory holding lib/modules/RELEASE, or that directory itself), or
 * when @tree is NULL next to the image (IMAGE/../../lib/modules/RELEASE,
 * an unpacked package's layout), then /lib/modules/RELEASE. Return: 0;
 * -ENOENT when none is found (@tree NULL: boot without modules); with a
 * @tree, -ENOENT or -EXDEV (of another release), @why naming what it has.
 */
int lj_guest_modules_dir(const char *tree, const char *image, const char *release, char *dir,
			 size_t len, char *why, size_t wlen);

/* lj_guest_modules.c: the modules a guest loads, in dependency order. */
struct lj_guest_module {
	char name[64];			/* normalised: '-' as '_' */
	char path[PATH_MAX];		/* in the tree, maybe compressed (.ko.xz, .ko.zst, .ko.gz) */
};

struct lj_guest_modset {
	struct lj_guest_module *m;
	int n, cap;
};

/*
 * The modules of @want (NULL-terminated names) and their dependencies,
 * from @dir's modules.dep, or from each module's .modinfo "depends"
 * when the tree has no modules.dep (an unpacked package: depmod never
 * ran); those built in (modules.builtin) are left out. Return: 0;
 * -ENOENT when one is neither built in nor in the tree (@why names it).
 */
int lj_guest_modules_resolve(const char *dir, const char *const *want, struct lj_guest_modset *set,
			     char *why, size_t len);
void lj_guest_modset_free(struct lj_guest_modset *set);

/* A module file's bytes, decompressed (xz, zstd, gzip through their own tools). */
int lj_guest_module_read(const char *path, char **buf, size_t *len, char *why, size_t wlen);

/* The module's vermagic names @release: 0, or -EXDEV with @why naming both. */
int lj_guest_module_check(const char *name, const char *buf, size_t len, const char *release,
			  char *why, size_t wlen);

/* lj_guest_init.c: the initramfs's /init (busybox sh). */
extern const char lj_guest_init_script[];

/* lj_guest_initrd.c: the initramfs, built with cpio and kept by content. */
struct lj_guest_initrd {
	const char *busybox;		/* static, of the guest's architecture */
	int machine;			/* its expected ELF machine */
	const char *moddir;		/* lib/modules/RELEASE, or NULL */
	const char *release;
	const char *config;		/* the kernel's config, copied to /boot in the guest; or NULL */
	const char *user;		/* the user's initramfs, put first; or NULL */
	const char *cache;		/* where images are kept; NULL or unwritable: @tmp */
	const char *tmp;		/* the run's own directory */
};

/*
 * The initramfs for @spec: its path into @out. Reused when one with the
 * same content (init, busybox, modules, config, the user's) was built
 * before. Return: 0, or -errno with *@status (NO_TOOL, NO_SUPPORT,
 * BAD_MODULES, ERROR) and @why.
 */
int lj_guest_initrd_build(const struct lj_guest_initrd *spec, char *out, size_t len,
			  enum lj_guest_status *status, char *why, size_t wlen);

/* lj_guest_qemu.c: the QEMU command line, and whether KVM runs this kernel. */
struct lj_guest_vm {
	const char *qemu, *image, *initrd, *cpu, *console;
	enum lj_guest_arch arch;
	enum lj_guest_accel accel;	/* KVM or TCG by now */
	int cpus, mem_mib;
	const char *cmdline;		/* the whole kernel command line */
	const char *root;		/* the host directory shared read-only as the guest's root, or NULL */
	const char *exchange;
	const char *const *shares;
	int nshares;
};

/* qemu-system-x86_64 / qemu-system-aarch64, or @override: its path. -ENOENT with @why. */
int lj_guest_qemu_find(enum lj_guest_arch arch, const char *override, char *out, size_t len,
		       char *why, size_t wlen);
/* A malloc'd NULL-terminated argv; lj_guest_argv_free. NULL on ENOMEM. */
char **lj_guest_qemu_argv(const struct lj_guest_vm *vm);
void lj_guest_argv_free(char **argv);

/*
 * Does KVM run this image here? /dev/kvm must open read-write, the
 * image be of the host's architecture, and a KVM guest of it print its
 * banner within @probe_ns (its console in @dir). The answer is kept in
 * @cache (per image content, QEMU binary and boot of the host; NULL:
 * in @dir, for this run only).
 */
bool lj_guest_kvm_works(const char *qemu, const char *image, enum lj_guest_arch arch,
			const char *cache, const char *dir, int64_t probe_ns);

/* The architecture ljkit itself was built for (the host's). */
enum lj_guest_arch lj_guest_host_arch(void);

/* lj_guest_proc.c: the processes the runner starts. */
/*
 * fork + exec @argv in a new process group, killed by SIGKILL with its
 * parent (PR_SET_PDEATHSIG), stdin /dev/null, stdout and stderr to
 * @out_fd (-1: /dev/null). Return: the pid, or -errno.
 */
pid_t lj_guest_spawn(char *const argv[], int out_fd);
/*
 * Run @argv to its end (stdin @in_fd, stdout @out_fd, each -1 for
 * /dev/null; stderr kept for @why). Return: 0 when it exits 0, -ENOENT
 * when it cannot be run, -EIO otherwise, @why holding its last words.
 */
int lj_guest_run_tool(char *const argv[], int in_fd, int out_fd, char *why, size_t len);
/* An unnamed temporary file in $TMPDIR, gone when closed: -errno or the fd. */
int lj_guest_anon_file(void);
/* Kill process group @pid (SIGKILL) and reap @pid. */
void lj_guest_kill(pid_t pid);
/* Is @name an executable in PATH (or a path)? Its path into @out. */
bool lj_guest_which(const char *name, char *out, size_t len);
/* mkdir -p with @mode. */
int lj_guest_mkdirs(const char *path, mode_t mode);

#endif
