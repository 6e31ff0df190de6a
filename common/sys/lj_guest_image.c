// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_guest_image - what kernel an image is (architecture, release) and where its modules are. */
#include "lj_guest_priv.h"
#include "lj_why.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define BZ_MAGIC_OFF	0x202		/* "HdrS": the x86 boot protocol's setup header */
#define BZ_VERSION_PTR	0x20e		/* kernel_version: offset - 0x200 of the version string */
#define ARM64_MAGIC_OFF	0x38		/* "ARM\x64" in an arm64 Image header */
#define BANNER		"Linux version "
#define GZ_CHUNK	(1 << 20)

/* The release: the first word of a version string ("6.1.0-57-amd64 (debian-kernel@...) #1 ..."). */
static void first_word(const char *s, size_t max, char *out, size_t len)
{
	size_t n = 0;

	while (n < max && s[n] && s[n] != ' ' && s[n] != '\n' && n + 1 < len)
		n++;
	memcpy(out, s, n);
	out[n] = '\0';
}

static int probe_bzimage(const unsigned char *p, size_t size, struct lj_guest_image *img)
{
	size_t ptr;

	if (size < 0x300 || memcmp(p + BZ_MAGIC_OFF, "HdrS", 4))
		return -EINVAL;
	ptr = (size_t)(p[BZ_VERSION_PTR] | p[BZ_VERSION_PTR + 1] << 8) + 0x200;
	img->arch = LJ_GUEST_X86_64;
	if (ptr == 0x200 || ptr >= size)
		return -EINVAL;
	first_word((const char *)p + ptr, size - ptr, img->release, sizeof(img->release));
	return img->release[0] ? 0 : -EINVAL;
}

static bool banner_release(const unsigned char *p, size_t size, char *out, size_t len)
{
	const char *b = memmem(p, size, BANNER, strlen(BANNER));
	size_t off;

	if (!b)
		return false;
	off = (size_t)((const unsigned char *)b - p) + strlen(BANNER);
	first_word((const char *)p + off, size - off, out, len);
	return out[0] != '\0';
}

static bool arm64_header(const unsigned char *p, size_t size)
{
	return size > ARM64_MAGIC_OFF + 4 && !memcmp(p + ARM64_MAGIC_OFF, "ARM\x64", 4);
}

/* A gzip'd arm64 Image: its header and banner, read through zlib a chunk at a time. */
static int probe_gzip(const char *path, struct lj_guest_image *img)
{
	gzFile gz = gzopen(path, "rb");
	unsigned char *buf = malloc(GZ_CHUNK + 256);
	size_t have = 0;
	bool head = false, found = false;
	int n;

	if (!gz || !buf) {
		if (gz)
			gzclose(gz);
		free(buf);
		return -ENOMEM;
	}
	/* Keep 256 bytes of the previous chunk: a banner may straddle two. */
	while (!found && (n = gzread(gz, buf + have, GZ_CHUNK)) > 0) {
		size_t size = have + (size_t)n;

		if (!head && !(head = arm64_header(buf, size)))
			break;
		found = banner_release(buf, size, img->release, sizeof(img->release));
		have = size < 256 ? size : 256;
		memmove(buf, buf + size - have, have);
	}
	gzclose(gz);
	free(buf);
	img->arch = LJ_GUEST_ARM64;
	return head && found ? 0 : -EINVAL;
}

static int probe_mapped(const char *path, const unsigned char *p, size_t size, struct lj_guest_image *img)
{
	if (!probe_bzimage(p, size, img))
		return 0;
	if (arm64_header(p, size)) {
		img->arch = LJ_GUEST_ARM64;
		return banner_release(p, size, img->release, sizeof(img->release)) ? 0 : -EINVAL;
	}
	if (size > 2 && p[0] == 0x1f && p[1] == 0x8b)
		return probe_gzip(path, img);
	return -EINVAL;
}

int lj_guest_image_probe(const char *path, struct lj_guest_image *img, char *why, size_t len)
{
	struct stat st;
	void *map;
	int fd, ret;

	memset(img, 0, sizeof(*img));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lj_why_err(why, len, -errno, "%s", strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 64) {
		close(fd);
		return lj_why_err(why, len, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL, "%s",
				  S_ISDIR(st.st_mode) ? "a directory, not a kernel image" :
				  "not a Linux kernel image (too small or not a regular file)");
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return lj_why_err(why, len, -errno, "cannot map it: %s", strerror(errno));
	ret = probe_mapped(path, map, (size_t)st.st_size, img);
	munmap(map, (size_t)st.st_size);
	if (ret == -ENOMEM)
		return lj_why_err(why, len, ret, "out of memory");
	if (ret)
		return lj_why_err(why, len, ret, "not a Linux kernel image (no x86 bzImage header, no arm64 Image "
				  "header with a 'Linux version' banner)");
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Does @dir look like lib/modules/RELEASE (modules.order, modules.builtin or kernel/)? */
static bool is_release_dir(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/modules.order", dir);
	if (!access(p, F_OK))
		return true;
	snprintf(p, sizeof(p), "%s/modules.builtin", dir);
	if (!access(p, F_OK))
		return true;
	snprintf(p, sizeof(p), "%s/kernel", dir);
	return is_dir(p);
}

/* The releases @mods (a lib/modules) holds, as "a, b" into @out. */
static void list_releases(const char *mods, char *out, size_t len)
{
	DIR *d = opendir(mods);
	struct dirent *e;
	size_t used = 0;

	out[0] = '\0';
	while (d && (e = readdir(d)) && used < len)
		if (e->d_name[0] != '.')
			used += snprintf(out + used, len - used, "%s%s", used ? ", " : "", e->d_name);
	if (d)
		closedir(d);
}

/* A user's tree: lib/modules/RELEASE itself, or a root holding lib/modules/. */
static int tree_dir(const char *tree, const char *release, char *dir, size_t len, char *why, size_t wlen)
{
	char mods[PATH_MAX], have[512];
	const char *base = strrchr(tree, '/');

	if (is_release_dir(tree)) {
		base = base && base[1] ? base + 1 : tree;
		if (strcmp(base, release))
			return lj_why_err(why, wlen, -EXDEV, "%s holds the modules of release %s, the image is %s",
					  tree, base, release);
		snprintf(dir, len, "%s", tree);
		return 0;
	}
	snprintf(mods, sizeof(mods), "%s/lib/modules", tree);
	if (!is_dir(mods))
		return lj_why_err(why, wlen, -ENOENT, "%s: %s", tree, is_dir(tree) ?
				  "no lib/modules/RELEASE in it (an unpacked linux-image package or a modules_install tree)" :
				  "no such directory");
	snprintf(dir, len, "%s/%s", mods, release);
	if (is_dir(dir))
		return 0;
	list_releases(mods, have, sizeof(have));
	return lj_why_err(why, wlen, have[0] ? -EXDEV : -ENOENT, "%s has no modules of release %s%s%s", mods,
			  release, have[0] ? ", only of " : " (it is empty)", have);
}

int lj_guest_modules_dir(const char *tree, const char *image, const char *release, char *dir,
			 size_t len, char *why, size_t wlen)
{
	char *copy;

	if (tree)
		return tree_dir(tree, release, dir, len, why, wlen);
	/* An unpacked package: TREE/boot/vmlinuz-R beside TREE/lib/modules/R. */
	copy = strdup(image);
	if (!copy)
		return -ENOMEM;
	snprintf(dir, len, "%s/lib/modules/%s", dirname(dirname(copy)), release);
	free(copy);
	if (is_dir(dir))
		return 0;
	snprintf(dir, len, "/lib/modules/%s", release);
	if (is_dir(dir))
		return 0;
	dir[0] = '\0';
	return lj_why_err(why, wlen, -ENOENT, "no modules tree of release %s next to the image nor in /lib/modules",
			  release);
}
