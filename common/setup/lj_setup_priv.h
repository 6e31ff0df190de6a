/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_setup_priv - what the setup stack's files share (lj_setup*.c only; tools use lj_setup.h). */
#ifndef LJ_SETUP_PRIV_H
#define LJ_SETUP_PRIV_H

#include "lj_setup.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#define LJ_SETUP_JOURNAL_MAGIC "# ljkit-journal/1"

/* One change: in a live stack, or read back from a journal. */
struct lj_setup_entry {
	enum lj_setup_kind kind;
	char *path;		/* file, group directory, or "preempt" */
	char *old;		/* undo value (file, preempt); NULL for a group */
	bool undone;
};

struct lj_setup {
	struct lj_setup_entry *e;
	int n, cap;
	int fd;			/* journal, -1 until the first change */
	char journal[PATH_MAX];
	char want[PATH_MAX];	/* requested journal path, "" for the default */
	char conflict[PATH_MAX + 128];
	atomic_int unwinding;
	pid_t owner;		/* forked children (workers) must not unwind it */
};

/* A journal file read back (for replay, conflict checks and listing). */
struct lj_setup_jfile {
	pid_t pid;
	unsigned long long start;
	char prog[64];
	struct lj_setup_entry *e;
	int n;
};

/* lj_setup_journal.c: the on-disk journal. */
unsigned long long lj_setup_pid_starttime(pid_t pid);
const char *lj_setup_kind_name(enum lj_setup_kind k);
int lj_setup_mkdir_p(const char *dir);
int lj_setup_journal_read(const char *path, struct lj_setup_jfile *j);
/* The same parser on @len bytes in memory (the fuzz target; parsing only, no file). */
int lj_setup_journal_parse(const char *buf, size_t len, struct lj_setup_jfile *j);
void lj_setup_journal_free(struct lj_setup_jfile *j);
bool lj_setup_journal_alive(const struct lj_setup_jfile *j);
bool lj_setup_is_journal_name(const char *name);
/* Create the journal (with its header line) at the first change. */
int lj_setup_journal_open(struct lj_setup *s);
/* Append one line and fsync: a change is made only once its undo is on disk. */
int lj_setup_journal_append(struct lj_setup *s, const char *line);
/* Append the entry line "KIND\tPATH[\tOLD]" with the fields escaped. */
int lj_setup_journal_entry(struct lj_setup *s, enum lj_setup_kind kind, const char *path,
			   const char *old);

/* lj_setup_conflict.c: one setting, one owner. */
bool lj_setup_path_within(const char *path, const char *dir);
int lj_setup_check_conflict(struct lj_setup *s, enum lj_setup_kind kind, const char *path);
int lj_setup_lock_dir(void);
void lj_setup_unlock_dir(int fd);

/* lj_setup_restore.c: undoing one entry, for the live stack and for replay. */
void lj_setup_say(void (*say)(const char *, void *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lj_setup_undo_entry(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg);

#endif
