// SPDX-License-Identifier: GPL-2.0-or-later
/* scnfind - a scenario given by name ("lj-matrix quick") found among the installed ones. */
#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* @dir/@name.scn when it is a readable file, else NULL. */
static char *in_dir(const char *dir, const char *name)
{
	char *p = NULL;

	if (!dir || !*dir || asprintf(&p, "%s/%s.scn", dir, name) < 0)
		return NULL;
	if (access(p, R_OK)) {
		free(p);
		return NULL;
	}
	return p;
}

char *mx_scenario_find(const char *selfdir, const char *arg)
{
	static const char *const rel[] = {
		"../share/ljkit/scenarios",	/* installed next to bin/: /usr, /usr/local, a DESTDIR */
		"../scenarios",			/* the source tree, for build/lj-matrix */
	};
	char name[256], *p;
	size_t len = strlen(arg);

	/* A path, or a file that exists, is taken as it is (the parser says what is wrong). */
	if (strchr(arg, '/') || !access(arg, F_OK) || len >= sizeof(name) || !len)
		return strdup(arg);
	snprintf(name, sizeof(name), "%.*s", (int)(len > 4 && !strcmp(arg + len - 4, ".scn") ? len - 4 : len), arg);
	if ((p = in_dir(getenv("LJ_SCENARIO_DIR"), name)))
		return p;
	for (size_t i = 0; selfdir && i < sizeof(rel) / sizeof(rel[0]); i++) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s/%s", selfdir, rel[i]);
		if ((p = in_dir(dir, name)))
			return p;
	}
	if ((p = in_dir(LJ_SCENARIO_SYSDIR, name)))
		return p;
	return strdup(arg);
}
