/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_kconfig - the running kernel's build configuration: read, hash, look up options. */
#ifndef LJ_KCONFIG_H
#define LJ_KCONFIG_H

#include <stddef.h>

/*
 * The configuration comes from /proc/config.gz (CONFIG_IKCONFIG_PROC) or
 * /boot/config-RELEASE, in that order. Both are read through zlib, which
 * passes plain text through, and the sha256 is of the uncompressed text
 * so the two copies of one configuration hash the same.
 */
struct lj_kconfig {
	char path[128];		/* the file it was read from */
	char sha256[65];	/* hex digest of the uncompressed text */
	char *text;		/* NUL-terminated "CONFIG_X=y" lines */
	size_t len;
};

/* Load the running kernel's config. Return: 0 or -errno (-ENOENT: neither file). */
int lj_kconfig_load(struct lj_kconfig *k);
int lj_kconfig_load_path(struct lj_kconfig *k, const char *path);
/* Take a copy of @text (for tests and for configs read elsewhere). Return: 0 or -ENOMEM. */
int lj_kconfig_from_text(struct lj_kconfig *k, const char *text, size_t len);
void lj_kconfig_free(struct lj_kconfig *k);

/*
 * The value of option @name ("CONFIG_HZ") copied into @buf ("250", "y",
 * "\"str\"" with its quotes); NULL when the option is not set ("# ... is
 * not set" or absent) or @buf is too small.
 */
const char *lj_kconfig_get(const struct lj_kconfig *k, const char *name, char *buf, size_t len);

/* 1 when @name is =y, 0 otherwise. */
int lj_kconfig_enabled(const struct lj_kconfig *k, const char *name);

#endif
