/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest.h - lj-guest's configuration and the interface between its files. */
#ifndef LJ_GUEST_TOOL_H
#define LJ_GUEST_TOOL_H

#include "lj_guest.h"

#define GUEST_MAX_ENV		64
#define GUEST_MAX_APPEND	4096

/* lj-guest's own exit codes when the command could not run to its end (docs/lj-guest.md). */
enum {
	GUEST_EXIT_BAD_IMAGE = 121,
	GUEST_EXIT_BAD_MODULES = 122,
	GUEST_EXIT_NO_SUPPORT = 123,
	GUEST_EXIT_TIMEOUT = 124,
	GUEST_EXIT_PANIC = 125,
};

struct guest_opts {
	struct lj_guest_config cfg;
	const char *env[GUEST_MAX_ENV + 1];
	char append[GUEST_MAX_APPEND];
	const char *console;		/* --console FILE: keep the guest's console */
};

/* options.c: argv into @o; the command is argv[*first...]. Return: 0, LJ_OPT_EXIT_HELP or an exit code. */
int guest_parse(struct guest_opts *o, int argc, char **argv, int *first);

/* run.c: boot, run, report; the exit code. */
int guest_run(struct guest_opts *o);

#endif
