// SPDX-License-Identifier: GPL-2.0-or-later
/* test_guest - the guest runner's parts on fake kernels: image release, modules tree, dependencies, initramfs. */
#include "lj_guest_priv.h"
#include "fake_elf.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char dir[256], why[512];

static void put(const char *rel, const void *buf, size_t len)
{
	char path[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	lj_guest_mkdirs(path, 0755);
	*slash = '/';
	f = fopen(path, "w");
	fwrite(buf, 1, len, f);
	fclose(f);
}

static void put_text(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

static void put_module(const char *rel, const char *release, const char *depends)
{
	size_t len;
	char *m = fake_module(release, depends, &len);

	put(rel, m, len);
	free(m);
}

static char *in_dir(const char *rel)
{
	static char path[4][1024];
	static int k;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, rel);
	return path[k];
}

/* An x86 bzImage as far as its setup header goes: "HdrS" and the version string it points to. */
static void put_bzimage(const char *rel, const char *version)
{
	unsigned char img[0x800] = { 0 };

	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00;
	img[0x20f] = 0x04;	/* kernel_version 0x400: the string at 0x600 */
	memcpy(img + 0x600, version, strlen(version) + 1);
	put(rel, img, sizeof(img));
}

static void arm64_image(unsigned char *img, size_t len)
{
	memset(img, 0, len);
	memcpy(img + 0x38, "ARM\x64", 4);
	memcpy(img + len - 200, "Linux version 6.12.9-arm64 (builder@host) #1 SMP", 49);
}

static void test_images(void)
{
	struct lj_guest_image img;
	unsigned char arm[70000];
	gzFile gz;

	put_bzimage("boot/vmlinuz-9.9.9-test", "9.9.9-test (someone@host) #1 SMP PREEMPT_DYNAMIC");
	is_int(lj_guest_image_probe(in_dir("boot/vmlinuz-9.9.9-test"), &img, why, sizeof(why)), 0, "a bzImage is a kernel");
	is_str(img.release, "9.9.9-test", "its release: the version string's first word");
	is_int(img.arch, LJ_GUEST_X86_64, "an x86-64 one");
	arm64_image(arm, sizeof(arm));
	put("Image", arm, sizeof(arm));
	is_int(lj_guest_image_probe(in_dir("Image"), &img, why, sizeof(why)), 0, "an arm64 Image is a kernel");
	is_str(img.release, "6.12.9-arm64", "its release from the banner");
	is_int(img.arch, LJ_GUEST_ARM64, "an arm64 one");
	gz = gzopen(in_dir("Image.gz"), "wb");
	gzwrite(gz, arm, sizeof(arm));
	gzclose(gz);
	is_int(lj_guest_image_probe(in_dir("Image.gz"), &img, why, sizeof(why)), 0, "a gzip'd arm64 Image too");
	is_str(img.release, "6.12.9-arm64", "its release, read through zlib");
	memset(arm, 'x', sizeof(arm));
	put("junk", arm, sizeof(arm));
	is_int(lj_guest_image_probe(in_dir("junk"), &img, why, sizeof(why)), -EINVAL, "junk is not a kernel");
	ok(strstr(why, "not a Linux kernel image") != NULL, "and says so");
	is_int(lj_guest_image_probe(in_dir("none"), &img, why, sizeof(why)), -ENOENT, "a missing image: ENOENT");
	is_int(lj_guest_image_probe(dir, &img, why, sizeof(why)), -EISDIR, "a directory: EISDIR");
}

static void test_modules_dir(void)
{
	char found[1024];

	put_text("lib/modules/9.9.9-test/modules.order", "");
	is_int(lj_guest_modules_dir(dir, NULL, "9.9.9-test", found, sizeof(found), why, sizeof(why)), 0,
	       "a tree holding lib/modules/RELEASE");
	is_str(found, in_dir("lib/modules/9.9.9-test"), "is that directory");
	is_int(lj_guest_modules_dir(in_dir("lib/modules/9.9.9-test"), NULL, "9.9.9-test", found, sizeof(found), why,
				    sizeof(why)), 0, "lib/modules/RELEASE itself");
	is_int(lj_guest_modules_dir(dir, NULL, "1.0.0-other", found, sizeof(found), why, sizeof(why)), -EXDEV,
	       "a tree of another release: EXDEV");
	ok(strstr(why, "only of 9.9.9-test") != NULL, "naming the release it has");
	is_int(lj_guest_modules_dir(in_dir("lib/modules/9.9.9-test"), NULL, "1.0.0-other", found, sizeof(found), why,
				    sizeof(why)), -EXDEV, "lib/modules/OTHER itself: EXDEV");
	is_int(lj_guest_modules_dir(in_dir("boot"), NULL, "9.9.9-test", found, sizeof(found), why, sizeof(why)), -ENOENT,
	       "a directory without modules: ENOENT");
	is_int(lj_guest_modules_dir(NULL, in_dir("boot/vmlinuz-9.9.9-test"), "9.9.9-test", found, sizeof(found), why,
				    sizeof(why)), 0, "none given: found next to the image (an unpacked package)");
	is_str(found, in_dir("lib/modules/9.9.9-test"), "TREE/boot/vmlinuz beside TREE/lib/modules");
}

static const char *const want[] = LJ_GUEST_WANTED_MODULES;

/* The tree of an unpacked package: no modules.dep; virtio built in. */
static void fake_tree(const char *rel)
{
	char p[256];
	static const char *const mods[][2] = {
		{ "drivers/virtio/virtio_pci.ko", "virtio_ring,virtio,virtio_pci_modern_dev" },
		{ "drivers/virtio/virtio_ring.ko", "" },
		{ "drivers/virtio/virtio_pci_modern_dev.ko", "virtio" },
		{ "net/9p/9pnet_virtio.ko", "9pnet,virtio_ring,virtio" },
		{ "net/9p/9pnet.ko", "" },
		{ "fs/9p/9p.ko", "9pnet,netfs" },
		{ "fs/netfs/netfs.ko", "" },
		{ "fs/overlayfs/overlay.ko", "" },
	};

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		snprintf(p, sizeof(p), "%s/kernel/%s", rel, mods[i][0]);
		put_module(p, "9.9.9-test", mods[i][1]);
	}
	snprintf(p, sizeof(p), "%s/modules.builtin", rel);
	put_text(p, "kernel/drivers/virtio/virtio.ko\nkernel/fs/ext4/ext4.ko\n");
}

static int position(const struct lj_guest_modset *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->m[i].name, name))
			return i;
	return -1;
}

static void check_order(const struct lj_guest_modset *s, const char *how)
{
	char name[160];

	snprintf(name, sizeof(name), "%s: 8 modules, virtio (built in) left out", how);
	if (!ok(s->n == 8 && position(s, "virtio") < 0, name))
		for (int i = 0; i < s->n; i++)
			diag("%d %s", i, s->m[i].name);
	snprintf(name, sizeof(name), "%s: every module after what it needs", how);
	ok(position(s, "virtio_ring") < position(s, "virtio_pci") &&
	   position(s, "virtio_pci_modern_dev") < position(s, "virtio_pci") &&
	   position(s, "9pnet") < position(s, "9pnet_virtio") && position(s, "9pnet") < position(s, "9p") &&
	   position(s, "netfs") < position(s, "9p") && position(s, "overlay") >= 0, name);
}

static void test_resolve(void)
{
	struct lj_guest_modset s;
	const char *m = "lib/modules/9.9.9-test";

	fake_tree(m);
	if (!ok(!lj_guest_modules_resolve(in_dir(m), want, &s, why, sizeof(why)), "resolved from .modinfo"))
		diag("%s", why);
	check_order(&s, ".modinfo");
	lj_guest_modset_free(&s);
	/* depmod's view of the same tree, one line per module with its whole closure */
	put_text("lib/modules/9.9.9-test/modules.dep",
		 "kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_ring.ko "
		 "kernel/drivers/virtio/virtio_pci_modern_dev.ko\n"
		 "kernel/drivers/virtio/virtio_ring.ko:\nkernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
		 "kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio_ring.ko\n"
		 "kernel/net/9p/9pnet.ko:\nkernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko\n"
		 "kernel/fs/netfs/netfs.ko:\nkernel/fs/overlayfs/overlay.ko:\n");
	is_int(lj_guest_modules_resolve(in_dir(m), want, &s, why, sizeof(why)), 0, "resolved from modules.dep");
	check_order(&s, "modules.dep");
	lj_guest_modset_free(&s);
	unlink(in_dir("lib/modules/9.9.9-test/modules.dep"));
	unlink(in_dir("lib/modules/9.9.9-test/kernel/fs/overlayfs/overlay.ko"));
	is_int(lj_guest_modules_resolve(in_dir(m), want, &s, why, sizeof(why)), -ENOENT, "a missing module: ENOENT");
	if (!ok(strstr(why, "module overlay is neither built into the kernel nor in") != NULL, "naming it"))
		diag("%s", why);
	put_module("lib/modules/9.9.9-test/kernel/fs/overlayfs/overlay.ko", "9.9.9-test", "");
}

static void test_vermagic(void)
{
	size_t len;
	char *mod = fake_module("9.9.9-test", "", &len);

	is_int(lj_guest_module_check("overlay", mod, len, "9.9.9-test", why, sizeof(why)), 0, "vermagic of the release");
	is_int(lj_guest_module_check("overlay", mod, len, "9.9.9", why, sizeof(why)), -EXDEV,
	       "a release that is only a prefix of it: EXDEV");
	is_int(lj_guest_module_check("overlay", mod, len, "9.9.9-test-rt", why, sizeof(why)), -EXDEV,
	       "a longer release: EXDEV");
	ok(strstr(why, "built for 9.9.9-test, the image is 9.9.9-test-rt") != NULL, "naming both");
	free(mod);
}

/* A compressed module is read through its tool: the same bytes come back. */
static void test_compressed(void)
{
	char cmd[1200], *buf = NULL, path[1024];
	size_t len = 0, want_len;
	char *mod = fake_module("9.9.9-test", "", &want_len);
	char tool[256];

	if (!lj_guest_which("xz", tool, sizeof(tool))) {
		skip(2, "xz is not installed");
		free(mod);
		return;
	}
	snprintf(path, sizeof(path), "%s/m.ko", dir);
	put("m.ko", mod, want_len);
	snprintf(cmd, sizeof(cmd), "xz -f '%s'", path);
	ok(!system(cmd) && !lj_guest_module_read(in_dir("m.ko.xz"), &buf, &len, why, sizeof(why)), "a .ko.xz is read");
	ok(len == want_len && buf && !memcmp(buf, mod, len), "decompressed to the module's bytes");
	free(buf);
	free(mod);
}

static bool run_ok(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(out, 1, len - 1, p) : 0;

	out[n] = '\0';
	return p && !pclose(p);
}

static void test_initrd(void)
{
	struct lj_guest_initrd spec = { "/bin/busybox", EM_X86_64, in_dir("lib/modules/9.9.9-test"), "9.9.9-test",
					NULL, NULL, in_dir("cache"), dir };
	char path[1024], again[1024], other[1024], cmd[1200], out[4096], tool[256];
	enum lj_guest_status st;
	struct stat a, b;

	if (!lj_guest_which("cpio", tool, sizeof(tool)) || access("/bin/busybox", R_OK)) {
		skip(8, "needs cpio and busybox-static");
		return;
	}
	if (!ok(!lj_guest_initrd_build(&spec, path, sizeof(path), &st, why, sizeof(why)), "an initramfs is built"))
		diag("%s", why);
	ok(!strncmp(path, in_dir("cache/initramfs-"), strlen(in_dir("cache/initramfs-"))), "in the cache, by content");
	snprintf(cmd, sizeof(cmd), "cpio -i --quiet --to-stdout lj/modules < '%s'", path);
	ok(run_ok(cmd, out, sizeof(out)) && !strcmp(out, "virtio_ring\nvirtio_pci_modern_dev\nvirtio_pci\n9pnet\n"
						    "9pnet_virtio\nnetfs\n9p\noverlay\n"),
	   "its /lj/modules: the load order");
	snprintf(cmd, sizeof(cmd), "cpio -t --quiet < '%s' | grep -c -E '^(init|bin/busybox|lj/mod/9p.ko)$'", path);
	ok(run_ok(cmd, out, sizeof(out)) && atoi(out) == 3, "/init, busybox and the modules are in it");
	stat(path, &a);
	lj_guest_initrd_build(&spec, again, sizeof(again), &st, why, sizeof(why));
	stat(again, &b);
	ok(!strcmp(path, again) && a.st_ino == b.st_ino && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec,
	   "the same content again: the cached one, not rebuilt");
	put_module("lib/modules/9.9.9-test/kernel/fs/overlayfs/overlay.ko", "9.9.9-test", "netfs");
	lj_guest_initrd_build(&spec, other, sizeof(other), &st, why, sizeof(why));
	ok(strcmp(path, other), "a module changed: another image");
	put_module("lib/modules/9.9.9-test/kernel/fs/overlayfs/overlay.ko", "9.9.9-test-rt", "");
	ok(lj_guest_initrd_build(&spec, other, sizeof(other), &st, why, sizeof(why)) == -EXDEV &&
	   st == LJ_GUEST_BAD_MODULES, "a module of another release: BAD_MODULES");
	spec.busybox = "/proc/self/exe";	/* this test: dynamically linked */
	ok(lj_guest_initrd_build(&spec, other, sizeof(other), &st, why, sizeof(why)) && st == LJ_GUEST_NO_TOOL &&
	   strstr(why, "linked dynamically"), "a dynamic busybox: NO_TOOL, saying why");
}

/* The value after -accel in a QEMU argv. */
static const char *accel_word(char **argv)
{
	for (int i = 0; argv && argv[i]; i++)
		if (!strcmp(argv[i], "-accel"))
			return argv[i + 1];
	return "";
}

/* TCG runs every vCPU in one host thread: multi-threaded TCG left a vCPU on a stale translation of patched kernel text. */
static void test_accel_argv(void)
{
	struct lj_guest_vm vm = { .qemu = "qemu", .image = "img", .initrd = "rd", .arch = LJ_GUEST_X86_64,
				  .cpus = 2, .mem_mib = 512, .cmdline = "quiet", .exchange = "/tmp", .console = "/tmp/console" };
	char **argv;

	vm.accel = LJ_GUEST_ACCEL_TCG;
	argv = lj_guest_qemu_argv(&vm);
	is_str(accel_word(argv), "tcg,thread=single", "TCG: one thread for all vCPUs");
	lj_guest_argv_free(argv);
	vm.accel = LJ_GUEST_ACCEL_KVM;
	argv = lj_guest_qemu_argv(&vm);
	is_str(accel_word(argv), "kvm", "KVM: a thread per vCPU, as always");
	lj_guest_argv_free(argv);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/test_guest.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	plan(45);
	test_images();
	test_modules_dir();
	test_resolve();
	test_vermagic();
	test_compressed();
	test_initrd();
	test_accel_argv();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("could not remove %s", dir);
	}
	return done();
}
