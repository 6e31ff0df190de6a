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

#include "lj_dl.h"

#define KCONFIG_MAX (16u << 20)	/* a real config is ~300 KiB; refuse runaway input */

/* Only --json's identity reads the config: lj-cyclic does not link these (lj_dl.h). */
#define ZLIB_FNS(X) X(gzopen) X(gzread) X(gzerror) X(gzclose)
#define LIBMD_FNS(X) X(SHA256Init) X(SHA256Update) X(SHA256End)
ZLIB_FNS(LJ_DL_WEAK)
LIBMD_FNS(LJ_DL_WEAK)
LJ_DL_TABLE(zlib, LJ_SONAME_Z, ZLIB_FNS);
LJ_DL_TABLE(libmd, LJ_SONAME_MD, LIBMD_FNS);
#define Z(f) LJ_DL_FN(zlib, f)
#define MD(f) LJ_DL_FN(libmd, f)

/* Hash the text just read; without libmd the config is dropped (-ENOENT: lj_dl_bind). */
static int hash_text(struct lj_kconfig *k)
{
	SHA2_CTX ctx;
	int err = LJ_DL_BIND(libmd, LIBMD_FNS, NULL, 0);

	if (err) {
		lj_kconfig_free(k);
		return err;
	}
	MD(SHA256Init)(&ctx);
	MD(SHA256Update)(&ctx, (const uint8_t *)k->text, k->len);
	MD(SHA256End)(&ctx, k->sha256);	/* writes 64 hex digits and a NUL */
	return 0;
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
	return hash_text(k);
}

int lj_kconfig_load_path(struct lj_kconfig *k, const char *path)
{
	size_t cap = 256 * 1024, n = 0;
	char *buf, *nb;
	gzFile gz;
	int got, ret = 0;

	memset(k, 0, sizeof(*k));
	ret = LJ_DL_BIND(zlib, ZLIB_FNS, NULL, 0);
	if (ret)
		return ret;
	errno = 0;
	gz = Z(gzopen)(path, "rb");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	buf = malloc(cap);
	if (!buf) {
		Z(gzclose)(gz);
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
		got = Z(gzread)(gz, buf + n, (unsigned)(cap - n - 1));
		if (got < 0) {
			int zerr;

			Z(gzerror)(gz, &zerr);
			ret = zerr == Z_ERRNO && errno ? -errno : -EIO;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	Z(gzclose)(gz);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	k->text = buf;
	k->len = n;
	snprintf(k->path, sizeof(k->path), "%s", path);
	return hash_text(k);
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
