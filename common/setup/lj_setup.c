// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_setup - the setup stack: record each change before it is made, undo
 * in reverse at exit and on signals. The journal's format lives in
 * lj_setup_journal.c, the cross-process check in lj_setup_conflict.c,
 * undoing and crash replay in lj_setup_restore.c.
 */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_STACKS 8

static struct lj_setup *live[MAX_STACKS];
static bool atexit_done;

/* ---- stack ---- */

/* exit() and fatal signals: only the process that made the changes undoes them. */
static void unwind_at_exit(void)
{
	pid_t self = getpid();

	for (int i = 0; i < MAX_STACKS; i++)
		if (live[i] && live[i]->owner == self)
			lj_setup_undo(live[i], NULL, NULL);
}

static void register_stack(struct lj_setup *s)
{
	if (!atexit_done) {
		atexit(unwind_at_exit);
		atexit_done = true;
	}
	for (int i = 0; i < MAX_STACKS; i++)
		if (!live[i]) {
			live[i] = s;
			return;
		}
}

static void unregister_stack(struct lj_setup *s)
{
	for (int i = 0; i < MAX_STACKS; i++)
		if (live[i] == s)
			live[i] = NULL;
}

int lj_setup_new(struct lj_setup **out, const char *journal)
{
	struct lj_setup *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->fd = -1;
	s->owner = getpid();
	if (journal)
		snprintf(s->want, sizeof(s->want), "%s", journal);
	register_stack(s);
	*out = s;
	return 0;
}

int lj_setup_depth(const struct lj_setup *s)
{
	return s ? s->n : 0;
}

const char *lj_setup_journal(const struct lj_setup *s)
{
	return s ? s->journal : "";
}

const char *lj_setup_conflict(const struct lj_setup *s)
{
	return s ? s->conflict : "";
}

const char *lj_setup_why(const struct lj_setup *s, int err)
{
	return s && s->conflict[0] ? s->conflict : strerror(err < 0 ? -err : err);
}

static bool inside_created_group(const struct lj_setup *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (s->e[i].kind == LJ_SETUP_CGROUP && !s->e[i].undone &&
		    lj_setup_path_within(path, s->e[i].path) && strcmp(path, s->e[i].path))
			return true;
	return false;
}

/* Check for conflicts, append to the journal and the stack. Called locked. */
static int push_entry(struct lj_setup *s, enum lj_setup_kind kind, const char *path, const char *old)
{
	struct lj_setup_entry *e;
	int ret;

	ret = lj_setup_journal_open(s);
	if (ret)
		return ret;
	ret = lj_setup_check_conflict(s, kind, path);
	if (ret)
		return ret;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		struct lj_setup_entry *ne = realloc(s->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		s->e = ne;
		s->cap = cap;
	}
	ret = lj_setup_journal_entry(s, kind, path, old);
	if (ret)
		return ret;
	e = &s->e[s->n];
	e->kind = kind;
	e->path = strdup(path);
	e->old = old ? strdup(old) : NULL;
	e->undone = false;
	if (!e->path || (old && !e->old))
		return -ENOMEM;
	s->n++;
	return 0;
}

/*
 * The unwinding signals are held while the stack changes: a handler that
 * undoes it must not see a half-appended entry or a half-done undo.
 */
static void hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

int lj_setup_push_locked(struct lj_setup *s, enum lj_setup_kind kind, const char *path,
			 const char *old)
{
	sigset_t mask;
	int ret;

	hold_signals(&mask);
	ret = push_entry(s, kind, path, old);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return ret;
}

int lj_setup_write(struct lj_setup *s, const char *path, const char *value)
{
	char old[4096];
	ssize_t n;
	int lock, ret;

	s->conflict[0] = '\0';
	if (inside_created_group(s, path))
		return lj_file_write(path, value);
	n = lj_file_read(path, old, sizeof(old));
	if (n < 0)
		return (int)n;
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	/* Equal values need no entry, but another process may still hold it. */
	ret = lj_setup_push_locked(s, LJ_SETUP_FILE, path, old);
	lj_setup_unlock_dir(lock);
	if (ret)
		return ret;
	ret = lj_file_write(path, value);
	if (ret)
		lj_setup_forget_last(s);
	return ret;
}

/* Entry @i is done with (undone, or never made): say so in the journal. */
static void mark_undone(struct lj_setup *s, int i)
{
	char line[32];

	s->e[i].undone = true;
	if (s->fd >= 0) {
		snprintf(line, sizeof(line), "undone\t%d\n", i);
		lj_setup_journal_append(s, line);
	}
}

void lj_setup_forget_last(struct lj_setup *s)
{
	if (s && s->n && !s->e[s->n - 1].undone)
		mark_undone(s, s->n - 1);
}

void lj_setup_release(struct lj_setup *s)
{
	if (!s || getpid() != s->owner)
		return;
	for (int i = s->n - 1; i >= 0; i--)
		if (!s->e[i].undone)
			mark_undone(s, i);
}

int lj_setup_push_file(struct lj_setup *s, const char *path, const char *undo)
{
	int lock, ret;

	s->conflict[0] = '\0';
	if (inside_created_group(s, path))
		return 0;
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	ret = lj_setup_push_locked(s, LJ_SETUP_FILE, path, undo);
	lj_setup_unlock_dir(lock);
	return ret;
}

/* Claim @ctrl in @subtree (locked; @list: the file's content, read once for all controllers). */
static int claim_one(struct lj_setup *s, const char *subtree, const char *list, const char *ctrl)
{
	char undo[64], add[64];
	bool enabled = lj_setup_list_has(list, ctrl);
	int ret = 0;

	snprintf(undo, sizeof(undo), "-%s", ctrl);
	snprintf(add, sizeof(add), "+%s", ctrl);
	/* A group this stack created goes with its subtree_control: nothing to record. */
	if (inside_created_group(s, subtree))
		return enabled ? 0 : lj_file_write(subtree, add);
	/* Enabled by anyone but a live ljkit run (the admin, a boot script): theirs, not ours to take back. */
	if (enabled && lj_setup_claim_holder(s, subtree, undo) <= 0)
		return 0;
	ret = lj_setup_push_locked(s, LJ_SETUP_FILE, subtree, undo);
	if (!ret && !enabled) {
		ret = lj_file_write(subtree, add);
		if (ret)
			lj_setup_forget_last(s);
	}
	return ret;
}

int lj_setup_claim_subtree(struct lj_setup *s, const char *subtree, const char *const *ctrls)
{
	char list[512];
	ssize_t n;
	int lock, ret = 0;

	s->conflict[0] = '\0';
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	n = lj_file_read(subtree, list, sizeof(list));
	if (n < 0)
		ret = (int)n;
	for (int c = 0; !ret && ctrls[c]; c++)
		ret = claim_one(s, subtree, list, ctrls[c]);
	lj_setup_unlock_dir(lock);
	return ret;
}

int lj_setup_mkdir_cgroup(struct lj_setup *s, const char *path, const char *origin)
{
	struct stat st;
	int lock, ret;

	s->conflict[0] = '\0';
	if (!stat(path, &st)) {
		/* An existing group is reused, unless a live ljkit process created it. */
		lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
		if (lock < 0)
			return lock;
		ret = lj_setup_check_conflict(s, LJ_SETUP_CGROUP, path);
		lj_setup_unlock_dir(lock);
		return ret ? ret : -EEXIST;
	}
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	ret = lj_setup_push_locked(s, LJ_SETUP_CGROUP, path, origin && *origin ? origin : NULL);
	lj_setup_unlock_dir(lock);
	if (ret)
		return ret;
	if (mkdir(path, 0755)) {
		ret = -errno;
		/* Nothing was made: drop the entry so undo does not rmdir a stranger's group. */
		lj_setup_forget_last(s);
	}
	return ret;
}

int lj_setup_push_preempt(struct lj_setup *s, const char *old_mode)
{
	int lock, ret;

	s->conflict[0] = '\0';
	lock = lj_setup_lock_dir(s->conflict, sizeof(s->conflict));
	if (lock < 0)
		return lock;
	ret = lj_setup_push_locked(s, LJ_SETUP_PREEMPT, "preempt", old_mode);
	lj_setup_unlock_dir(lock);
	return ret;
}

/* Unlink the journal only if the name still leads to the file this stack created. */
static void remove_own_journal(const struct lj_setup *s)
{
	struct stat st;

	if (!lstat(s->journal, &st) && st.st_dev == s->jstat.st_dev && st.st_ino == s->jstat.st_ino)
		unlink(s->journal);
}

int lj_setup_undo(struct lj_setup *s, void (*say)(const char *line, void *arg), void *arg)
{
	sigset_t mask;
	int ret = 0;

	/* Only the process that made the changes undoes them and removes its journal. */
	if (!s || getpid() != s->owner)
		return 0;
	if (atomic_exchange(&s->unwinding, 1))
		return 0;	/* a signal arrived during an unwind: let it finish */
	hold_signals(&mask);
	for (int i = s->n - 1; i >= 0; i--) {
		struct lj_setup_entry *e = &s->e[i];
		int r;

		if (e->undone)
			continue;
		r = lj_setup_undo_entry(e, say, arg);
		if (r) {
			if (!ret)
				ret = r;
			continue;
		}
		mark_undone(s, i);
	}
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
		/* Keep the journal when something could not be undone: --restore retries. */
		if (!ret)
			remove_own_journal(s);
	}
	if (!ret) {
		for (int i = 0; i < s->n; i++) {
			free(s->e[i].path);
			free(s->e[i].old);
		}
		s->n = 0;
	}
	atomic_store(&s->unwinding, 0);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return ret;
}

void lj_setup_free(struct lj_setup *s)
{
	if (!s)
		return;
	lj_setup_undo(s, NULL, NULL);
	unregister_stack(s);
	for (int i = 0; i < s->n; i++) {
		free(s->e[i].path);
		free(s->e[i].old);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->e);
	free(s);
}

json_object *lj_setup_json(const struct lj_setup *s)
{
	json_object *arr = json_object_new_array();

	if (!arr || !s)
		return arr;
	for (int i = 0; i < s->n; i++) {
		json_object *o = json_object_new_object();

		if (!o)
			break;
		json_object_object_add(o, "kind", json_object_new_string(lj_setup_kind_name(s->e[i].kind)));
		json_object_object_add(o, "path", json_object_new_string(s->e[i].path));
		if (s->e[i].old)
			json_object_object_add(o, s->e[i].kind == LJ_SETUP_CGROUP ? "origin" : "old",
					       json_object_new_string(s->e[i].old));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* ---- signals ---- */

static void on_fatal_signal(int sig)
{
	int saved = errno;

	unwind_at_exit();
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

void lj_setup_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigfillset(&sa.sa_mask);	/* one unwind at a time */
		sigaction(sigs[i], &sa, NULL);
	}
}

