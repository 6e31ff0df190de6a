// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tagged.c - lj-matrix --find-tag: the runs of a store with a tag, newest
 * first. The one tag lookup lj-regress and the LAVA steps use: the tag
 * is compared as a string, byte for byte ("6.1.0-rc1+" is a tag, never a
 * pattern).
 */
#include "matrix.h"
#include "lj_err.h"
#include "lj_result.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tagged {
	char *dir;
	char start[40];		/* the manifest's ISO 8601 UTC start: sorts as text */
};

/* Newest start first; the same second: the later name (a ".2" rerun) first. */
static int newest_first(const void *a, const void *b)
{
	const struct tagged *x = a, *y = b;
	int c = strcmp(y->start, x->start);

	return c ? c : strcmp(y->dir, x->dir);
}

/* The run directory @dir's manifest has exactly @tag: its start into @start. */
static bool has_tag(const char *dir, const char *tag, char *start, size_t len)
{
	char path[4096];
	json_object *m = NULL, *t, *s;
	bool hit;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (lj_json_read(path, LJ_MANIFEST_MAX_BYTES, &m, NULL, 0))
		return false;	/* not a run directory (or not one lj-matrix can read) */
	hit = json_object_object_get_ex(m, "tag", &t) && json_object_is_type(t, json_type_string) &&
	      !strcmp(json_object_get_string(t), tag);
	snprintf(start, len, "%s", json_object_object_get_ex(m, "start", &s) &&
		 json_object_is_type(s, json_type_string) ? json_object_get_string(s) : "");
	json_object_put(m);
	return hit;
}

int mx_find_tag(const struct mx_config *cfg)
{
	struct tagged *v = NULL, *nv;
	struct dirent *d;
	size_t n = 0;
	DIR *dp = opendir(cfg->out);

	if (!dp) {
		lj_error_errno(-errno, "--find-tag: cannot read the store %s", cfg->out);
		return errno == ENOENT || errno == ENOTDIR ? LJ_EXIT_USAGE : LJ_EXIT_RUNTIME;
	}
	while ((d = readdir(dp))) {
		struct tagged t;

		if (d->d_name[0] == '.' || asprintf(&t.dir, "%s/%s", cfg->out, d->d_name) < 0)
			continue;
		if (!has_tag(t.dir, cfg->find_tag, t.start, sizeof(t.start)) ||
		    !(nv = realloc(v, (n + 1) * sizeof(*v)))) {
			free(t.dir);
			continue;
		}
		v = nv;
		v[n++] = t;
	}
	closedir(dp);
	if (n)
		qsort(v, n, sizeof(*v), newest_first);
	for (size_t i = 0; i < n; i++) {
		printf("%s\n", v[i].dir);
		free(v[i].dir);
	}
	free(v);
	return LJ_EXIT_OK;
}
