/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_setup_priv - what the setup stack's files share (lj_setup*.c only; tools use lj_setup.h). */
#ifndef LJ_SETUP_PRIV_H
#define LJ_SETUP_PRIV_H

#include "lj_setup.h"
#include "lj_why.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define LJ_SETUP_JOURNAL_MAGIC "# ljkit-journal/1"

/* One change: in a live stack, or read back from a journal. */
struct lj_setup_entry {
	enum lj_setup_kind kind;
	char *path;		/* file, group directory, or "preempt" */
	char *old;		/* undo value (file, preempt); a group's origin, or NULL */
	bool undone;
};

struct lj_setup {
	struct lj_setup_entry *e;
	int n, cap;
	int fd;			/* journal, -1 until the first change */
	char journal[PATH_MAX];
	struct stat jstat;	/* the journal we created: unlink only that file */
	char want[PATH_MAX];	/* requested journal path, "" for the default */
	char conflict[PATH_MAX + 256];	/* why the stack refused: a conflict, the journal, the lock */
	atomic_int unwinding;
	pid_t owner;		/* forked children (workers) must not unwind it */
};

/* A journal file read back (for replay, conflict checks and listing). */
struct lj_setup_jfile {
	pid_t pid;
	unsigned long long start;
	unsigned long long pidns;	/* its PID namespace's inode; 0: the initial one (not written there) */
	char prog[64];
	struct lj_setup_entry *e;
	int n;
	long long complete;	/* bytes of complete lines: a torn last line starts here */
};

/* lj_setup_journal.c: the on-disk journal. */
const char *lj_setup_kind_name(enum lj_setup_kind k);
/*
 * Read a whole journal (opened with lj_setup_open_trusted). Every line
 * must parse: the header first, then entries; only a last line without
 * its newline (torn by a crash) is ignored. -ENODATA when the file is
 * empty or holds only a torn prefix of the header (no change recorded;
 * j->pid/start set when the prefix holds them); -EBADMSG when it is not
 * an ljkit journal; @st (may be NULL) receives the file's identity.
 */
int lj_setup_journal_read(const char *path, struct lj_setup_jfile *j, struct stat *st,
			  char *why, size_t len);
/* The same parser on @len bytes in memory (the fuzz target; parsing only, no file). */
int lj_setup_journal_parse(const char *buf, size_t len, struct lj_setup_jfile *j);
void lj_setup_journal_free(struct lj_setup_jfile *j);
/*
 * @fn for each journal in @dp (directory @dir) that reads whole; the others
 * are nobody's and skipped. Stops at @fn's first non-zero return, returned.
 */
int lj_setup_journal_each(const char *dir, DIR *dp,
			  int (*fn)(const char *path, struct lj_setup_jfile *j, void *arg), void *arg);
bool lj_setup_journal_alive(const struct lj_setup_jfile *j);
/* A journal of this very process (another of its stacks: the recorder's). */
bool lj_setup_journal_own(const struct lj_setup_jfile *j);
bool lj_setup_is_journal_name(const char *name);
/* Record an entry (conflict check, journal, stack) with the directory lock held. */
int lj_setup_push_locked(struct lj_setup *s, enum lj_setup_kind kind, const char *path,
			 const char *old);
/* Create the journal (with its header line) at the first change. */
int lj_setup_journal_open(struct lj_setup *s);
/* Append one line and fsync: a change is made only once its undo is on disk. */
int lj_setup_journal_append(struct lj_setup *s, const char *line);
/* Append the entry line "KIND\tPATH[\tOLD]" with the fields escaped. */
int lj_setup_journal_entry(struct lj_setup *s, enum lj_setup_kind kind, const char *path,
			   const char *old);

/* lj_setup_ns.c: a process's liveness across namespaces. */
/* When @pid started (clock ticks after boot), telling a live run from a reused pid; 0: gone or a zombie. */
unsigned long long lj_setup_pid_starttime(pid_t pid);
/* This process's PID namespace (the inode of /proc/self/ns/pid). */
unsigned long long lj_setup_pidns(void);
/* @ns is the initial PID namespace (0: not recorded, which is how the initial one is written). */
bool lj_setup_pidns_initial(unsigned long long ns);
/*
 * A process in namespace @ns (its /proc/PID/ns/@kind link, "mnt:[N]"), as
 * this /proc sees it: its pid here, 0 when none. With @ns_pid, only the one
 * that is @ns_pid in its own namespace (and, with @start, started then).
 */
pid_t lj_setup_ns_member(const char *kind, const char *ns, pid_t ns_pid, unsigned long long start);
/*
 * Process @pid of PID namespace @pidns (0: the initial one), started at
 * @start (0: unchecked), still lives, or cannot be seen from here (another
 * namespace not below this one: presumed alive, nothing of it is undone).
 */
bool lj_setup_owner_alive(pid_t pid, unsigned long long start, unsigned long long pidns);
/* That process is this one (@start 0: unchecked). */
bool lj_setup_owner_self(pid_t pid, unsigned long long start, unsigned long long pidns);
/*
 * The owner part of the names ljkit gives its journals, run files and
 * tracefs instances: "PID" in the initial PID namespace, "PID@NS" in
 * another (two containers' pids collide). snprintf's return.
 */
int lj_setup_owner_format(char *out, size_t len);
/* Parse "PID" or "PID@NS" at @s: where it ends, or NULL when @s does not start with one. */
const char *lj_setup_owner_parse(const char *s, pid_t *pid, unsigned long long *pidns);

/* lj_setup_conflict.c: one setting, one owner. */
/* @path is @dir itself or below it (inline: conflict, trust and the stack use it; no import cycle). */
static inline bool lj_setup_path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}
int lj_setup_check_conflict(struct lj_setup *s, enum lj_setup_kind kind, const char *path);
/*
 * Another live ljkit process whose journal holds a pending file entry
 * (@path, @old), not @s's own: its pid, 0 when none (@s may be NULL: any
 * process but the caller). Called with the directory lock held.
 */
pid_t lj_setup_claim_holder(const struct lj_setup *s, const char *path, const char *old);
/*
 * The journal directory's lock (DIR/.lock, 0600, O_NOFOLLOW), taken within
 * $LJ_LOCK_TIMEOUT seconds (default 30); on timeout -ETIMEDOUT and @why
 * names the holder's pid. A thread that holds it already gets it again
 * (a tracefs undo inside a replay): lock and unlock nest. Return: the
 * locked fd or -errno.
 */
int lj_setup_lock_dir(char *why, size_t len);
void lj_setup_unlock_dir(int fd);

/* lj_setup_trust.c: what the stack trusts (docs/security.md). */
bool lj_setup_trusted_uid(uid_t uid);
/*
 * The journal directory: root's (or the running user's), not writable by
 * group or others, no untrusted directory above it; with @create, made
 * 0700 when missing (the last component only). Return: 0 or -errno, @why
 * naming the directory.
 */
int lj_setup_dir_ready(const char *dir, bool create, char *why, size_t len);
/* Open a journal for reading: a regular file, not a link, trusted owner, not writable by others, one link. Return: fd or -errno. */
int lj_setup_open_trusted(const char *path, struct stat *st, char *why, size_t len);
/*
 * May a replayed entry be undone? Only the kinds of file ljkit changes
 * (docs/security.md); @real receives the path to write (symbolic links
 * resolved and checked). Return: 0 or -EPERM with @why.
 */
int lj_setup_entry_allowed(const struct lj_setup_entry *e, char *real, size_t rlen,
			   char *why, size_t len);

/* lj_setup_cgroup.c: the cgroup entries (groups created, controllers claimed in cgroup.subtree_control). */
/*
 * @path is a cgroup.subtree_control file and @old a "-ctrl" undo: a claim
 * runs may share. Inline: the conflict check asks it and the cgroup file
 * calls the conflict file's lock (no two files call each other).
 */
static inline bool lj_setup_is_subtree_claim(const char *path, const char *old)
{
	const char *base = strrchr(path, '/');

	return base && !strcmp(base + 1, "cgroup.subtree_control") && old && old[0] == '-' && old[1];
}
/* Does @list (a cgroup.subtree_control's content) name @ctrl? */
bool lj_setup_list_has(const char *list, const char *ctrl);
/* Undo a subtree claim: disable the controller unless another live run still claims it. */
int lj_setup_undo_subtree(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg);
/* Undo a created group: its tasks back to where they came from, its RT budget handed back, rmdir. */
int lj_setup_undo_group(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg);

/*
 * One line of what an undo did, to the caller's @say (NULL: nothing). Here,
 * not in a .c file: the restore, cgroup and tracefs files say things, and
 * the restore file calls the other two (no two files call each other).
 */
static inline __attribute__((format(printf, 3, 4)))
void lj_setup_say(void (*say)(const char *, void *), void *arg, const char *fmt, ...)
{
	char buf[PATH_MAX * 2 + 128];
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say(buf, arg);
}

/* lj_setup_restore.c: undoing one entry, for the live stack and for replay. */
int lj_setup_undo_entry(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg);

/* lj_setup_tracefs.c: undoing and allowing the tracefs entries. */
int lj_setup_tracefs_undo(const struct lj_setup_entry *e, void (*say)(const char *, void *), void *arg);
int lj_setup_tracefs_allowed(const struct lj_setup_entry *e, char *why, size_t len);

#endif
