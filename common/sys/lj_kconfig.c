// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_kconfig - the running kernel's build configuration: read, hash, look up options. */
#include "lj_kconfig.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <sha2.h>
#include <zlib.h>

#define KCONFIG_MAX (16u << 20)	/* a real config is ~300 KiB; refuse runaway input */

static void hash_text(struct lj_kconfig *k)
{
	SHA2_CTX ctx;

	SHA256Init(&ctx);
	SHA256Update(&ctx, (const uint8_t *)k->text, k->len);
	SHA256End(&ctx, k->sha256);	/* writes 64 hex digits and a NUL */
}

int lj_kconfig_from_text(struct lj_kconfig *k, const char *text, size_t len)
{
	memset(k, 0, sizeof(*k));
	k->text = malloc(len + 1);
	if (!k->text)
		return -ENOMEM;
	memcpy(k->text, text, len);
	k->text[len] = '\0';
	k->len = len;
	hash_text(k);
	return 0;
}

int lj_kconfig_load_path(struct lj_kconfig *k, const char *path)
{
	size_t cap = 256 * 1024, n = 0;
	char *buf, *nb;
	gzFile gz;
	int got, ret = 0;

	memset(k, 0, sizeof(*k));
	errno = 0;
	gz = gzopen(path, "rb");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	buf = malloc(cap);
	if (!buf) {
		gzclose(gz);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - n < 4096) {
			if (cap >= KCONFIG_MAX) {
				ret = -EFBIG;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		got = gzread(gz, buf + n, (unsigned)(cap - n - 1));
		if (got < 0) {
			int zerr;

			gzerror(gz, &zerr);
			ret = zerr == Z_ERRNO && errno ? -errno : -EIO;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	gzclose(gz);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	k->text = buf;
	k->len = n;
	snprintf(k->path, sizeof(k->path), "%s", path);
	hash_text(k);
	return 0;
}

int lj_kconfig_load(struct lj_kconfig *k)
{
	struct utsname u;
	char boot[128 + sizeof(u.release)];
	int ret;

	ret = lj_kconfig_load_path(k, "/proc/config.gz");
	if (!ret || uname(&u))
		return ret;
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	return lj_kconfig_load_path(k, boot) ? -ENOENT : 0;
}

void lj_kconfig_free(struct lj_kconfig *k)
{
	free(k->text);
	k->text = NULL;
	k->len = 0;
}

const char *lj_kconfig_get(const struct lj_kconfig *k, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *p = k->text;

	if (!p || !nlen)
		return NULL;
	/* options are whole lines "NAME=value": match at a line start only */
	while ((p = strstr(p, name))) {
		if ((p == k->text || p[-1] == '\n') && p[nlen] == '=') {
			const char *v = p + nlen + 1;
			size_t vlen = strcspn(v, "\n");

			if (vlen + 1 > len)
				return NULL;
			memcpy(buf, v, vlen);
			buf[vlen] = '\0';
			return buf;
		}
		p += nlen;
	}
	return NULL;
}

int lj_kconfig_enabled(const struct lj_kconfig *k, const char *name)
{
	char v[8];
	const char *s = lj_kconfig_get(k, name, v, sizeof(v));

	return s && !strcmp(s, "y");
}
