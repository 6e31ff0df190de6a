// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_guest_initrd - the guest's initramfs: busybox, /init and the modules
 * its shares need, packed by cpio and kept in the cache under the sha256
 * of everything that goes in, so a second guest of the same kernel
 * reuses it. A user's initramfs goes first in the same file: the kernel
 * unpacks concatenated archives in order, ours on top.
 */
#include "lj_guest_priv.h"
#include "lj_elf.h"
#include "lj_readall.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FORMAT		"ljkit-initrd/1"	/* change when the layout below changes */
#define FILE_MAX	(512u << 20)

/* What goes in besides the script: busybox, the modules (decompressed), the config, the user's. */
struct parts {
	char *busybox;
	size_t busybox_len;
	struct lj_guest_modset set;
	char **mod;
	size_t *mod_len;
	char *config, *user;
	size_t config_len, user_len;
};

static void free_parts(struct parts *p)
{
	for (int i = 0; p->mod && i < p->set.n; i++)
		free(p->mod[i]);
	free(p->mod);
	free(p->mod_len);
	lj_guest_modset_free(&p->set);
	free(p->busybox);
	free(p->config);
	free(p->user);
}

static int read_busybox(const struct lj_guest_initrd *s, struct parts *p, enum lj_guest_status *st,
			char *why, size_t wlen)
{
	struct lj_elf_info info;
	char m1[32], m2[32], err[256];

	*st = LJ_GUEST_NO_TOOL;
	if (lj_readall(s->busybox, FILE_MAX, &p->busybox, &p->busybox_len, err, sizeof(err)))
		return lj_why_err(why, wlen, -ENOENT, "busybox %s: %s (install busybox-static)", s->busybox, err);
	if (lj_elf_inspect(p->busybox, p->busybox_len, &info))
		return lj_why_err(why, wlen, -EINVAL, "%s is not a 64-bit ELF program", s->busybox);
	if (info.machine != s->machine)
		return lj_why_err(why, wlen, -EINVAL, "%s is for %s, the guest is %s", s->busybox,
				  lj_elf_machine_name(info.machine, m1, sizeof(m1)),
				  lj_elf_machine_name(s->machine, m2, sizeof(m2)));
	if (info.interp)
		return lj_why_err(why, wlen, -EINVAL, "%s is linked dynamically: the initramfs has no C library "
				  "(install busybox-static)", s->busybox);
	*st = LJ_GUEST_ERROR;
	return 0;
}

static int read_modules(const struct lj_guest_initrd *s, struct parts *p, enum lj_guest_status *st,
			char *why, size_t wlen)
{
	static const char *const want[] = LJ_GUEST_WANTED_MODULES;
	int ret = lj_guest_modules_resolve(s->moddir, want, &p->set, why, wlen);

	if (ret) {
		*st = ret == -ENOENT ? LJ_GUEST_NO_SUPPORT : LJ_GUEST_ERROR;
		return ret;
	}
	p->mod = calloc((size_t)p->set.n + 1, sizeof(*p->mod));
	p->mod_len = calloc((size_t)p->set.n + 1, sizeof(*p->mod_len));
	if (!p->mod || !p->mod_len)
		return -ENOMEM;
	for (int i = 0; i < p->set.n; i++) {
		const struct lj_guest_module *m = &p->set.m[i];

		ret = lj_guest_module_read(m->path, &p->mod[i], &p->mod_len[i], why, wlen);
		if (!ret)
			ret = lj_guest_module_check(m->name, p->mod[i], p->mod_len[i], s->release, why, wlen);
		if (ret) {
			*st = ret == -EXDEV ? LJ_GUEST_BAD_MODULES : ret == -ENOENT ? LJ_GUEST_NO_TOOL : LJ_GUEST_ERROR;
			return ret;
		}
	}
	return 0;
}

static void hash_part(SHA2_CTX *c, const char *tag, const void *buf, size_t len)
{
	char head[96];
	int n = snprintf(head, sizeof(head), "%s %zu\n", tag, len);

	SHA256Update(c, (const uint8_t *)head, (size_t)n);
	if (len)
		SHA256Update(c, buf, len);
}

static void content_key(const struct parts *p, char key[65])
{
	SHA2_CTX c;

	SHA256Init(&c);
	hash_part(&c, FORMAT, lj_guest_init_script, strlen(lj_guest_init_script));
	hash_part(&c, "busybox", p->busybox, p->busybox_len);
	for (int i = 0; i < p->set.n; i++) {
		hash_part(&c, "module", p->set.m[i].name, strlen(p->set.m[i].name));
		hash_part(&c, "bytes", p->mod[i], p->mod_len[i]);
	}
	hash_part(&c, "config", p->config, p->config_len);
	hash_part(&c, "user", p->user, p->user_len);
	SHA256End(&c, key);
}

static int write_file(const char *dir, const char *name, const void *buf, size_t len, mode_t mode)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	for (size_t off = 0; off < len && !ret;) {
		ssize_t n = write(fd, (const char *)buf + off, len - off);

		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0)
			off += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* The staging tree (and cpio's list of it): /init, /bin/busybox, /lj/modules, /lj/mod/NAME.ko, /lj/config. */
static int stage(const char *dir, const struct parts *p, FILE *list)
{
	char sub[PATH_MAX];
	int ret;

	snprintf(sub, sizeof(sub), "%s/bin", dir);
	if (mkdir(sub, 0755))
		return -errno;
	snprintf(sub, sizeof(sub), "%s/lj/mod", dir);
	if (lj_guest_mkdirs(sub, 0755))
		return -errno;
	fputs(".\ninit\nbin\nbin/busybox\nlj\nlj/mod\n", list);
	ret = write_file(dir, "init", lj_guest_init_script, strlen(lj_guest_init_script), 0755);
	if (!ret)
		ret = write_file(dir, "bin/busybox", p->busybox, p->busybox_len, 0755);
	if (!ret && p->config) {
		ret = write_file(dir, "lj/config", p->config, p->config_len, 0644);
		fputs("lj/config\n", list);
	}
	for (int i = 0; !ret && i < p->set.n; i++) {
		snprintf(sub, sizeof(sub), "lj/mod/%s.ko", p->set.m[i].name);
		ret = write_file(dir, sub, p->mod[i], p->mod_len[i], 0644);
		fprintf(list, "%s\n", sub);
	}
	if (!ret && p->set.n) {
		FILE *f;

		snprintf(sub, sizeof(sub), "%s/lj/modules", dir);
		f = fopen(sub, "we");
		if (!f)
			return -errno;
		for (int i = 0; i < p->set.n; i++)
			fprintf(f, "%s\n", p->set.m[i].name);
		ret = fclose(f) ? -errno : 0;
		fputs("lj/modules\n", list);
	}
	return ret;
}

/* rm -r of the staging tree: it holds only what stage() wrote. */
static void unstage(const char *dir, const struct parts *p)
{
	char sub[PATH_MAX];
	static const char *const names[] = { "init", "bin/busybox", "lj/config", "lj/modules", "lj/mod", "lj",
					     "bin", NULL };

	for (int i = 0; i < p->set.n; i++) {
		snprintf(sub, sizeof(sub), "%s/lj/mod/%s.ko", dir, p->set.m[i].name);
		unlink(sub);
	}
	for (int i = 0; names[i]; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if (unlink(sub))
			rmdir(sub);
	}
	rmdir(dir);
}

/* cpio -o of the staging tree appended to @out_fd, after the user's archive padded to 4 bytes. */
static int pack(const char *work, const struct parts *p, int out_fd, char *why, size_t wlen)
{
	char dir[PATH_MAX - 128], dirarg[PATH_MAX];
	char *argv[] = { (char *)"cpio", (char *)"-o", (char *)"-H", (char *)"newc", (char *)"-R", (char *)"0:0",
			 (char *)"--quiet", dirarg, NULL };
	int list_fd = lj_guest_anon_file(), ret;
	FILE *list;

	snprintf(dir, sizeof(dir), "%s/stage.XXXXXX", work);
	if (list_fd < 0 || !mkdtemp(dir)) {
		if (list_fd >= 0)
			close(list_fd);
		return lj_why_err(why, wlen, -errno, "cannot stage the initramfs in %s: %s", work, strerror(errno));
	}
	list = fdopen(list_fd, "w+");
	ret = list ? stage(dir, p, list) : -errno;
	if (!ret && fflush(list))
		ret = -errno;
	if (ret)
		lj_why(why, wlen, "cannot stage the initramfs in %s: %s", dir, strerror(-ret));
	if (!ret && p->user) {
		static const char zero[4];

		if (write(out_fd, p->user, p->user_len) != (ssize_t)p->user_len ||
		    write(out_fd, zero, (4 - p->user_len % 4) % 4) < 0)
			ret = lj_why_err(why, wlen, -EIO, "cannot write the initramfs: %s", strerror(errno));
	}
	snprintf(dirarg, sizeof(dirarg), "--directory=%s", dir);
	if (!ret) {
		lseek(list_fd, 0, SEEK_SET);
		ret = lj_guest_run_tool(argv, list_fd, out_fd, why, wlen);
		if (ret == -ENOENT)
			lj_why(why, wlen, "cpio is not installed (apt-get install cpio)");
	}
	unstage(dir, p);
	if (list)
		fclose(list);
	else
		close(list_fd);
	return ret;
}

static bool usable_cache(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size > 0 &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* Build into a temporary file in @dir, then rename it to @final. */
static int build(const char *dir, const char *final, const struct parts *p, enum lj_guest_status *st,
		 char *why, size_t wlen)
{
	char tmp[PATH_MAX];
	int fd, ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", final, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return lj_why_err(why, wlen, -errno, "cannot create %s: %s", tmp, strerror(errno));
	ret = pack(dir, p, fd, why, wlen);
	if (close(fd) && !ret)
		ret = lj_why_err(why, wlen, -errno, "cannot write %s: %s", tmp, strerror(errno));
	if (!ret && rename(tmp, final))
		ret = lj_why_err(why, wlen, -errno, "cannot rename %s: %s", tmp, strerror(errno));
	if (ret)
		unlink(tmp);
	*st = ret == -ENOENT ? LJ_GUEST_NO_TOOL : LJ_GUEST_ERROR;
	return ret;
}

static int read_optional(const char *path, char **buf, size_t *len, char *why, size_t wlen)
{
	char err[256];

	if (!path)
		return 0;
	if (lj_readall(path, FILE_MAX, buf, len, err, sizeof(err)))
		return lj_why_err(why, wlen, -EINVAL, "%s: %s", path, err);
	return 0;
}

int lj_guest_initrd_build(const struct lj_guest_initrd *spec, char *out, size_t len,
			  enum lj_guest_status *status, char *why, size_t wlen)
{
	struct parts p = { 0 };
	char key[65], cpio[PATH_MAX];
	const char *dir = spec->tmp;
	int ret;

	*status = LJ_GUEST_ERROR;
	ret = read_busybox(spec, &p, status, why, wlen);
	if (!ret && !lj_guest_which("cpio", cpio, sizeof(cpio))) {
		*status = LJ_GUEST_NO_TOOL;
		ret = lj_why_err(why, wlen, -ENOENT, "cpio is not installed (apt-get install cpio)");
	}
	if (!ret && spec->moddir)
		ret = read_modules(spec, &p, status, why, wlen);
	if (!ret)
		ret = read_optional(spec->config, &p.config, &p.config_len, why, wlen);
	if (!ret && (ret = read_optional(spec->user, &p.user, &p.user_len, why, wlen)))
		*status = LJ_GUEST_BAD_IMAGE;
	if (ret)
		goto out;
	content_key(&p, key);
	if (spec->cache && !lj_guest_mkdirs(spec->cache, 0755) && !access(spec->cache, W_OK))
		dir = spec->cache;
	snprintf(out, len, "%s/initramfs-%s.img", dir, key);
	if (!usable_cache(out))
		ret = build(dir, out, &p, status, why, wlen);
out:
	free_parts(&p);
	return ret;
}
