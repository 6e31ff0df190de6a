// SPDX-License-Identifier: GPL-2.0-or-later
/* restore.c - lj-env --restore: replay the journals of dead ljkit processes. */
#include "env.h"
#include "lj_err.h"
#include "lj_setup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * What the replay said. With --journal FILE, the lines before the replay
 * starts are held back: a FILE that is missing or refused before anything
 * is replayed is bad input, told in one line on stderr, not on stdout.
 */
struct restore_say {
	int failures;
	bool hold;		/* --journal: hold lines until "replaying" */
	char held[1024];
};

static void say(const char *line, void *arg)
{
	struct restore_say *s = arg;

	if (!strncmp(line, "cannot", 6))
		s->failures++;
	if (s->hold && strncmp(line, "replaying ", 10)) {
		if (!s->held[0])
			snprintf(s->held, sizeof(s->held), "%s", line);
		return;
	}
	if (s->hold && s->held[0])
		printf("%s\n", s->held);
	s->hold = false;
	s->held[0] = '\0';
	printf("%s\n", line);
	lj_fflush(stdout);
}

/* An instance no journal here named (its run used another journal directory, or a PID namespace). */
static void warn_orphan_instances(void)
{
	char first[4096];
	int n = lj_setup_tracefs_stale(first, sizeof(first));

	if (n > 0)
		lj_warn("%d tracefs instance%s of dead ljkit processes still recording (%s) and no journal in %s names %s: remove %s with rmdir",
			n, n == 1 ? "" : "s", first, lj_setup_journal_dir(), n == 1 ? "it" : "them",
			n == 1 ? "it" : "them");
}

int env_restore(const struct env_config *cfg)
{
	struct restore_say s = { .hold = cfg->setup.journal != NULL };
	bool nocap;
	int n;

	n = lj_setup_restore_stale(NULL, cfg->setup.journal, say, &s);
	if (n == -EBUSY) {
		lj_error("journal %s belongs to a running process: stop it instead",
			 cfg->setup.journal ? cfg->setup.journal : "");
		return LJ_EXIT_RUNTIME;
	}
	/* Root refused something untrusted (-EPERM): an error, not a missing capability. */
	nocap = (n == -EACCES || n == -EPERM) && geteuid();
	if (n < 0 && s.hold) {	/* --journal FILE missing or refused: nothing replayed, FILE kept */
		if (s.held[0])
			lj_error("%s", s.held);
		else
			lj_error_errno(n, "cannot replay %s", cfg->setup.journal);
		return nocap ? LJ_EXIT_NOCAP : LJ_EXIT_USAGE;
	}
	if (s.held[0])	/* a line said without a replay (a torn journal removed) */
		printf("%s\n", s.held);
	if (n < 0) {
		lj_error_errno(n, "cannot restore every change (journal kept for another --restore)");
		return nocap ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
	}
	if (!n)
		printf("nothing to restore: no journal of a dead process in %s\n",
		       lj_setup_journal_dir());
	warn_orphan_instances();
	return s.failures ? LJ_EXIT_RUNTIME : LJ_EXIT_OK;
}
