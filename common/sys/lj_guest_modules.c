// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_guest_modules - the kernel modules a guest loads for its shares, in dependency order. */
#include "lj_guest_priv.h"
#include "lj_elf.h"
#include "lj_readall.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODULE_MAX_BYTES	(256u << 20)
#define DEPTH_MAX		32

/* One module of the tree: its name, its file, and modules.dep's list of what it needs. */
struct entry {
	char name[64];
	char *path;
	char *deps;		/* modules.dep's paths after the ':', or NULL (read .modinfo) */
};

struct modidx {
	const char *dir;
	struct entry *e;
	size_t n, cap;
	char (*builtin)[64];
	size_t nbuiltin;
	bool from_dep;
};

/* "kernel/fs/9p/9p.ko.xz" -> "9p"; '-' and '_' are the same to the kernel. */
static void module_name(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = base[i] == '-' ? '_' : base[i];
	out[n] = '\0';
}

static bool is_module_file(const char *path)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz", NULL };
	size_t n = strlen(path);

	for (int i = 0; ext[i]; i++) {
		size_t k = strlen(ext[i]);

		if (n > k && !strcmp(path + n - k, ext[i]))
			return true;
	}
	return false;
}

static int add_entry(struct modidx *x, const char *path, const char *deps)
{
	struct entry *e;

	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 1024;
		struct entry *v = realloc(x->e, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		x->e = v;
		x->cap = cap;
	}
	e = &x->e[x->n];
	module_name(path, e->name, sizeof(e->name));
	e->path = strdup(path);
	e->deps = deps ? strdup(deps) : NULL;
	if (!e->path || (deps && !e->deps)) {
		free(e->path);
		free(e->deps);
		return -ENOMEM;
	}
	x->n++;
	return 0;
}

/* modules.dep: "kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko ..." */
static int read_dep(struct modidx *x, const char *text)
{
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		char *line = strndup(l, n), *colon;
		int ret = line ? 0 : -ENOMEM;

		if (line && (colon = strchr(line, ':'))) {
			*colon = '\0';
			ret = add_entry(x, line, colon + 1);
		}
		free(line);
		if (ret)
			return ret;
		l += n + (l[n] == '\n');
	}
	x->from_dep = true;
	return 0;
}

/* The tree without modules.dep: every module file under @rel (relative to the index's dir). */
static int walk(struct modidx *x, const char *rel, int depth)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int ret = 0;

	snprintf(path, sizeof(path), "%s%s%s", x->dir, *rel ? "/" : "", rel);
	dir = opendir(path);
	if (!dir)
		return depth ? 0 : -errno;
	while (!ret && (d = readdir(dir))) {
		char sub[PATH_MAX];

		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", d->d_name);
		if (d->d_type == DT_DIR && depth < DEPTH_MAX)
			ret = walk(x, sub, depth + 1);
		else if ((d->d_type == DT_REG || d->d_type == DT_UNKNOWN) && is_module_file(sub))
			ret = add_entry(x, sub, NULL);
	}
	closedir(dir);
	return ret;
}

static int read_builtin(struct modidx *x)
{
	char path[PATH_MAX], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/modules.builtin", x->dir);
	if (lj_readall(path, 16u << 20, &text, &len, NULL, 0))
		return 0;	/* none listed: nothing is taken as built in */
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");

		if (n) {
			char (*v)[64] = realloc(x->builtin, (x->nbuiltin + 1) * sizeof(*v)), *line = strndup(l, n);

			if (v)
				x->builtin = v;
			if (!v || !line) {
				free(line);
				free(text);
				return -ENOMEM;
			}
			module_name(line, x->builtin[x->nbuiltin++], sizeof(x->builtin[0]));
			free(line);
		}
		l += n + (l[n] == '\n');
	}
	free(text);
	return 0;
}

static int index_tree(struct modidx *x)
{
	char path[PATH_MAX], *text;
	size_t len;
	int ret = read_builtin(x);

	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/modules.dep", x->dir);
	if (!lj_readall(path, 64u << 20, &text, &len, NULL, 0)) {
		ret = read_dep(x, text);
		free(text);
		return ret;
	}
	return walk(x, "", 0);
}

static void free_index(struct modidx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->e[i].path);
		free(x->e[i].deps);
	}
	free(x->e);
	free(x->builtin);
}

static bool builtin(const struct modidx *x, const char *name)
{
	for (size_t i = 0; i < x->nbuiltin; i++)
		if (!strcmp(x->builtin[i], name))
			return true;
	return false;
}

static const struct entry *find(const struct modidx *x, const char *name)
{
	for (size_t i = 0; i < x->n; i++)
		if (!strcmp(x->e[i].name, name))
			return &x->e[i];
	return NULL;
}

static bool in_set(const struct lj_guest_modset *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->m[i].name, name))
			return true;
	return false;
}

static int append(struct lj_guest_modset *s, const struct modidx *x, const struct entry *e)
{
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		struct lj_guest_module *v = realloc(s->m, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->m = v;
		s->cap = cap;
	}
	snprintf(s->m[s->n].name, sizeof(s->m[0].name), "%s", e->name);
	snprintf(s->m[s->n].path, sizeof(s->m[0].path), "%s/%s", x->dir, e->path);
	s->n++;
	return 0;
}

/* What @e needs: modules.dep's paths, else its .modinfo "depends=a,b", as blank-separated names. */
static int needs(const struct modidx *x, const struct entry *e, char **out, char *why, size_t wlen)
{
	char path[PATH_MAX], *buf;
	const char *data, *dep;
	size_t len, size, dlen;
	int ret;

	if (x->from_dep)
		return (*out = strdup(e->deps)) ? 0 : -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", x->dir, e->path);
	ret = lj_guest_module_read(path, &buf, &len, why, wlen);
	if (ret)
		return ret;
	dep = !lj_elf_section(buf, len, ".modinfo", &data, &size) ? lj_elf_modinfo(data, size, "depends", &dlen) :
	      NULL;
	*out = dep ? strndup(dep, dlen) : strdup("");
	for (char *c = *out; c && *c; c++)
		if (*c == ',')
			*c = ' ';
	free(buf);
	return *out ? 0 : -ENOMEM;
}

static int resolve(const struct modidx *x, const char *name, int depth, struct lj_guest_modset *s,
		   char *why, size_t wlen)
{
	const struct entry *e;
	char *deps = NULL, *save = NULL;
	int ret;

	if (in_set(s, name) || builtin(x, name))
		return 0;
	e = find(x, name);
	if (!e)
		return lj_why_err(why, wlen, -ENOENT, "module %s is neither built into the kernel nor in %s", name,
				  x->dir);
	if (depth > DEPTH_MAX)
		return lj_why_err(why, wlen, -ELOOP, "module %s: dependencies loop", name);
	ret = needs(x, e, &deps, why, wlen);
	for (char *t = ret ? NULL : strtok_r(deps, " \t", &save); t && !ret; t = strtok_r(NULL, " \t", &save)) {
		char dname[64];

		module_name(t, dname, sizeof(dname));
		if (*dname)
			ret = resolve(x, dname, depth + 1, s, why, wlen);
	}
	free(deps);
	return ret ? ret : append(s, x, e);
}

int lj_guest_modules_resolve(const char *dir, const char *const *want, struct lj_guest_modset *set,
			     char *why, size_t len)
{
	struct modidx x = { .dir = dir };
	int ret = index_tree(&x);

	memset(set, 0, sizeof(*set));
	if (ret)
		return lj_why_err(why, len, ret, "cannot index the modules in %s: %s", dir, strerror(-ret));
	for (int i = 0; want[i] && !ret; i++)
		ret = resolve(&x, want[i], 0, set, why, len);
	free_index(&x);
	if (ret)
		lj_guest_modset_free(set);
	return ret;
}

void lj_guest_modset_free(struct lj_guest_modset *set)
{
	free(set->m);
	memset(set, 0, sizeof(*set));
}

static const char *decompressor(const char *path, const char **pkg)
{
	size_t n = strlen(path);

	*pkg = "";
	if (n > 3 && !strcmp(path + n - 3, ".xz"))
		return *pkg = "xz-utils", "xz";
	if (n > 4 && !strcmp(path + n - 4, ".zst"))
		return *pkg = "zstd", "zstd";
	if (n > 3 && !strcmp(path + n - 3, ".gz"))
		return *pkg = "gzip", "gzip";
	return NULL;
}

/* A compressed module through its tool (xz -dc, zstd -dc, gzip -dc) into memory. */
static int read_compressed(const char *tool, const char *pkg, const char *path, char **buf, size_t *len,
			   char *why, size_t wlen)
{
	char *argv[] = { (char *)(uintptr_t)tool, (char *)"-dc", (char *)(uintptr_t)path, NULL }, fdpath[64];
	int out = lj_guest_anon_file(), ret;

	if (out < 0)
		return lj_why_err(why, wlen, -errno, "cannot decompress %s: %s", path, strerror(errno));
	ret = lj_guest_run_tool(argv, -1, out, why, wlen);
	if (ret == -ENOENT)
		lj_why(why, wlen, "%s needs %s, which is not installed (apt-get install %s)", path, tool, pkg);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", out);
	if (!ret)
		ret = lj_readall(fdpath, MODULE_MAX_BYTES, buf, len, why, wlen);
	close(out);
	return ret;
}

int lj_guest_module_read(const char *path, char **buf, size_t *len, char *why, size_t wlen)
{
	const char *pkg, *tool = decompressor(path, &pkg);

	if (tool)
		return read_compressed(tool, pkg, path, buf, len, why, wlen);
	return lj_readall(path, MODULE_MAX_BYTES, buf, len, why, wlen);
}

int lj_guest_module_check(const char *name, const char *buf, size_t len, const char *release,
			  char *why, size_t wlen)
{
	const char *data, *magic;
	size_t size, mlen, word = 0, rlen = strlen(release);

	if (lj_elf_section(buf, len, ".modinfo", &data, &size) ||
	    !(magic = lj_elf_modinfo(data, size, "vermagic", &mlen)))
		return lj_why_err(why, wlen, -EINVAL, "module %s has no vermagic: not a kernel module", name);
	while (word < mlen && magic[word] != ' ')
		word++;
	if (word != rlen || memcmp(magic, release, rlen))
		return lj_why_err(why, wlen, -EXDEV, "module %s is built for %.*s, the image is %s", name,
				  (int)word, magic, release);
	return 0;
}
