// SPDX-License-Identifier: GPL-2.0-or-later
/* restore.c - lj-env --restore: replay the journals of dead ljkit processes. */
#include "env.h"
#include "lj_err.h"
#include "lj_setup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void say(const char *line, void *arg)
{
	int *failures = arg;

	if (!strncmp(line, "cannot", 6))
		(*failures)++;
	printf("%s\n", line);
	fflush(stdout);
}

int env_restore(const struct env_config *cfg)
{
	int failures = 0, n;

	n = lj_setup_restore_stale(NULL, cfg->setup.journal, say, &failures);
	if (n == -EBUSY) {
		lj_error("journal %s belongs to a running process: stop it instead",
			 cfg->setup.journal ? cfg->setup.journal : "");
		return LJ_EXIT_RUNTIME;
	}
	if (n < 0) {
		lj_error_errno(n, "cannot restore every change (journal kept for another --restore)");
		/* Root refused something untrusted (-EPERM): an error, not a missing capability. */
		return (n == -EACCES || n == -EPERM) && geteuid() ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
	}
	if (!n)
		printf("nothing to restore: no journal of a dead process in %s\n",
		       lj_setup_journal_dir());
	return failures ? LJ_EXIT_RUNTIME : LJ_EXIT_OK;
}
