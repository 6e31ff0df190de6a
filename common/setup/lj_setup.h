/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_setup - the setup stack: every system change with its undo, in memory and in an fsync'd journal. */
#ifndef LJ_SETUP_H
#define LJ_SETUP_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>


/*
 * A change is pushed onto the stack (and appended to the journal, fsync'd)
 * before it is made; lj_setup_undo() undoes the stack in reverse order.
 * The journal is one text file per process, by default
 * /run/ljkit/journal.PID ($LJ_JOURNAL_DIR replaces /run/ljkit; journal.PID@NS
 * in a PID namespace other than the initial one: lj_setup_ns.c), created at
 * the first change, always new (O_CREAT|O_EXCL|O_NOFOLLOW, 0600) in a
 * directory only root can write (docs/security.md). Its lines (fields separated by tabs, values escaped
 * with \\, \t, \n):
 *
 *   # ljkit-journal/1 pid=PID start=STARTTIME prog=NAME
 *   file    PATH  OLD        write OLD back to PATH (O_TRUNC)
 *   cgroup  PATH [ORIGIN]    created group: move its tasks back to ORIGIN
 *                            (where its creator was; else the nearest
 *                            ancestor that takes them), rmdir
 *   preempt MODE             dynamic preemption mode to switch back to
 *   tracefs-mount PATH NS    tracefs at PATH in mount namespace NS ("mnt:[N]"), mounted
 *                            by an ljkit run or shared with one: the last claim unmounts it
 *   tracefs-instance PATH    a tracefs instance: tracing stopped, directory removed
 *   undone  N                entry N (0-based) has been undone
 *
 * STARTTIME (field 22 of /proc/PID/stat) tells a live process from a
 * recycled PID. A journal whose process is dead is stale: lj-env --restore
 * (lj_setup_restore_stale) replays it.
 *
 * Two ljkit processes may not change the same setting: before a change,
 * the journals of the other live processes are searched (under a lock file
 * in the journal directory) for the same path, or a group containing it;
 * a match is refused with -EBUSY and lj_setup_conflict() says who holds it.
 */
enum lj_setup_kind {
	LJ_SETUP_FILE,
	LJ_SETUP_CGROUP,
	LJ_SETUP_PREEMPT,
	LJ_SETUP_TRACEFS_MOUNT,
	LJ_SETUP_TRACEFS_INSTANCE,
};

struct lj_setup;

#define LJ_SETUP_DEFAULT_DIR "/run/ljkit"

/* $LJ_JOURNAL_DIR or /run/ljkit. */
const char *lj_setup_journal_dir(void);

/*
 * A new, empty stack. @journal is the journal file, or NULL for
 * DIR/journal.PID. The stack registers itself so that exit() and (when
 * lj_setup_catch_signals() was called) SIGINT/SIGTERM/SIGHUP unwind it,
 * in the creating process only: forked workers that exit leave it alone.
 * Return: 0 or -errno.
 */
int lj_setup_new(struct lj_setup **out, const char *journal);

/*
 * Write @value to @path (O_TRUNC: fake sysfs trees are plain files) after
 * recording the current content as the undo. A path inside a group this
 * stack created is written without an entry: removing the group undoes it.
 * Return: 0, -EBUSY (held by another process), or -errno of the write.
 */
int lj_setup_write(struct lj_setup *s, const char *path, const char *value);

/*
 * Record that @path must be written with @undo on unwind, without writing
 * it now (for writes whose inverse is not the old content, such as
 * cgroup.subtree_control "+cpuset" / "-cpuset").
 */
int lj_setup_push_file(struct lj_setup *s, const char *path, const char *undo);

/*
 * mkdir @path (a cgroup directory) and record its removal; @origin (may be
 * NULL) is the group of the same hierarchy the caller's process is in now,
 * where the tasks still in @path go back before it is removed. -EEXIST if
 * it exists.
 */
int lj_setup_mkdir_cgroup(struct lj_setup *s, const char *path, const char *origin);

/*
 * Make sure every cgroup v2 controller of @ctrls (NULL-terminated) is
 * enabled in @subtree (a cgroup.subtree_control file, read once). Each run
 * that needs one holds a claim: the
 * one that writes "+ctrl" records "-ctrl" as its undo; a run that finds it
 * enabled by another live ljkit process records the same undo beside it
 * (no conflict between them); one that finds it enabled by anyone else
 * records nothing. The undo disables @ctrl only when no other live run
 * still holds a claim on it, so that a run never pulls a controller from
 * under another one's group. Return: 0 or -errno.
 */
int lj_setup_claim_subtree(struct lj_setup *s, const char *subtree, const char *const *ctrls);

/* Record a preemption mode to restore (call before switching). */
int lj_setup_push_preempt(struct lj_setup *s, const char *old_mode);

/*
 * The change just recorded was not made after all (the write failed):
 * mark the last entry undone so unwinding leaves it alone.
 */
void lj_setup_forget_last(struct lj_setup *s);

/*
 * Hand every change over instead of undoing it (a trace kept for the
 * user): each entry is marked undone in the journal, which is removed.
 */
void lj_setup_release(struct lj_setup *s);

/* Number of entries on the stack. */
int lj_setup_depth(const struct lj_setup *s);

/*
 * Undo every entry in reverse order. Entries that fail are kept in the
 * journal (it is removed only when everything was undone) and the first
 * error is returned; @say, when not NULL, receives one line per action
 * worth telling ("moved 2 tasks from X to its parent", failures).
 */
int lj_setup_undo(struct lj_setup *s, void (*say)(const char *line, void *arg), void *arg);

/* Undo (silently) if needed and free. */
void lj_setup_free(struct lj_setup *s);

/* The journal path ("" until the first change). */
const char *lj_setup_journal(const struct lj_setup *s);

/*
 * Why the last call refused, "" if it did not: after -EBUSY "PATH is being
 * changed by lj-cyclic (pid 123, journal F)"; after a journal or lock
 * failure the journal's own words ("cannot create setup journal F: File
 * exists (--journal must name a new file)", "journal directory D can be
 * written by group or others ...", "the setup lock L is held by pid N ...").
 */
const char *lj_setup_conflict(const struct lj_setup *s);

/* lj_setup_conflict() when it says something, else strerror(@err): for "cannot X: WHY". */
const char *lj_setup_why(const struct lj_setup *s, int err);

/* The changes as a JSON array of {"kind", "path", "old"} (new reference). */
json_object *lj_setup_json(const struct lj_setup *s);

/*
 * Install SIGINT/SIGTERM/SIGHUP handlers, where the disposition is still
 * the default, that unwind every live stack and then die of the signal.
 * Tools that catch those signals themselves unwind in their teardown.
 */
void lj_setup_catch_signals(void);

/*
 * Stale journals of dead processes in @dir (NULL: lj_setup_journal_dir()).
 * lj_setup_find_stale returns how many, and the first path in @first.
 */
int lj_setup_find_stale(const char *dir, char *first, size_t len);

/*
 * Replay the stale journals in @dir (or the one file @journal when not
 * NULL, refused with -EBUSY if its process is alive). Only trusted
 * journals (root's, 0600, read whole: -EBADMSG for a file that is not a
 * journal, left as it is) whose every entry names a file ljkit changes
 * (-EPERM otherwise, journal kept). Return: the number of journals
 * replayed, or the first -errno; @say tells each action and refusal.
 */
int lj_setup_restore_stale(const char *dir, const char *journal,
			   void (*say)(const char *line, void *arg), void *arg);

/*
 * tracefs, for the --explain recorder (lj_setup_tracefs.c). The mount is
 * shared: every run that uses a tracefs mounted by an ljkit run claims it
 * in its journal, and the last claim undone (live or replayed after a
 * crash, counted under the directory lock) unmounts it; a tracefs mounted
 * by anyone else is never claimed nor unmounted.
 */
#define LJ_SETUP_TRACEFS "/sys/kernel/tracing"

/*
 * Claim tracefs at LJ_SETUP_TRACEFS: mount it when nothing is mounted
 * there (*mounted true), share it when an ljkit run mounted it, leave it
 * unclaimed when someone else did. Return: 0, -ENODEV (no tracefs, no
 * mount point) or -errno (the mount, the journal: lj_setup_conflict).
 */
int lj_setup_tracefs_mount(struct lj_setup *s, bool *mounted);

/*
 * Create this process's instance, LJ_SETUP_TRACEFS/instances/ljkit-PID
 * (ljkit-PID@NS outside the initial PID namespace: a container's pids are
 * another's too, the instances are the kernel's), journaled (its removal
 * stops and frees it). Its name in @name.
 */
int lj_setup_tracefs_instance(struct lj_setup *s, char *name, size_t len);

/*
 * Instances "ljkit-PID[@NS]" still recording (tracing_on 1) whose process
 * is gone (as far as this PID namespace can tell: lj_setup_ns.c): a run
 * killed before it removed its own. Return: how many, their
 * directories in @names, comma-separated (as many as fit).
 */
int lj_setup_tracefs_stale(char *names, size_t len);

/*
 * Traces kept for the user after a break (-b with --tracemark) by runs
 * that are gone: instances "ljkit-OWNER" not recording whose process is
 * gone. Each holds its buffers, megabytes per CPU, until removed.
 * lj_setup_tracefs_kept lists them in @names (comma-separated, as many as
 * fit); lj_setup_tracefs_drop_kept removes those of them listed in
 * @only (what lj_setup_tracefs_kept gave when this run started: runs
 * over by then, not ones beside it). Return: how many.
 */
int lj_setup_tracefs_kept(char *names, size_t len);
int lj_setup_tracefs_drop_kept(const char *only, char *names, size_t len);

/*
 * A file a run keeps beside its journal while it lives (lj-env's sweep
 * phase log): DIR/run-@name.PID.START (PID@NS in another PID namespace) in the checked journal directory,
 * new (O_CREAT|O_EXCL|O_NOFOLLOW, 0600), its path in @path. A run killed
 * before it removes it leaves it to lj_setup_restore_stale (lj-env
 * --restore), which removes those of processes that are gone (the PID
 * dead, or now another process's: START is its start time).
 * Return: an fd open for writing, or -errno.
 */
int lj_setup_runfile(const char *name, char *path, size_t len);

/*
 * Live journals of other processes in @dir, for --show: calls @fn per
 * journal (@pidns: its process's PID namespace, 0 for the initial one).
 */
int lj_setup_list(const char *dir,
		  void (*fn)(const char *path, pid_t pid, unsigned long long pidns, bool alive, int pending, void *arg),
		  void *arg);

#endif
