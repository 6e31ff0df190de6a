// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup_journal - the setup journal on disk: line format, parsing. */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *lj_setup_journal_dir(void)
{
	const char *d = getenv("LJ_JOURNAL_DIR");

	return d && *d ? d : LJ_SETUP_DEFAULT_DIR;
}

/* ---- escaping for one-line journal fields ---- */

static void escape(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 3 < len; in++) {
		if (*in == '\\' || *in == '\t' || *in == '\n') {
			out[o++] = '\\';
			out[o++] = *in == '\t' ? 't' : *in == '\n' ? 'n' : '\\';
		} else {
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

const char *lj_setup_kind_name(enum lj_setup_kind k)
{
	switch (k) {
	case LJ_SETUP_FILE:
		return "file";
	case LJ_SETUP_CGROUP:
		return "cgroup";
	case LJ_SETUP_PREEMPT:
		return "preempt";
	case LJ_SETUP_TRACEFS_MOUNT:
		return "tracefs-mount";
	case LJ_SETUP_TRACEFS_INSTANCE:
		return "tracefs-instance";
	}
	return "?";
}

/* ---- journal parsing (for restore and conflict checks) ---- */

void lj_setup_journal_free(struct lj_setup_jfile *j)
{
	for (int i = 0; i < j->n; i++) {
		free(j->e[i].path);
		free(j->e[i].old);
	}
	free(j->e);
	j->e = NULL;
	j->n = 0;
}

/*
 * The header "# ljkit-journal/1 pid=PID start=START [pidns=NS ]prog=NAME":
 * all of it, or not a journal. pidns is written outside the initial PID
 * namespace only (journals from before it was written are the initial's).
 */
static int parse_header(const char *line, struct lj_setup_jfile *j)
{
	const char *p;
	char *end;

	if (strncmp(line, LJ_SETUP_JOURNAL_MAGIC " pid=", strlen(LJ_SETUP_JOURNAL_MAGIC " pid=")))
		return -EBADMSG;
	p = line + strlen(LJ_SETUP_JOURNAL_MAGIC " pid=");
	errno = 0;
	j->pid = (pid_t)strtol(p, &end, 10);
	if (errno || end == p || j->pid <= 0 || strncmp(end, " start=", 7))
		return -EBADMSG;
	p = end + 7;
	j->start = strtoull(p, &end, 10);
	if (!errno && end != p && !strncmp(end, " pidns=", 7)) {
		p = end + 7;
		j->pidns = strtoull(p, &end, 10);
		if (!j->pidns)
			return -EBADMSG;
	}
	if (errno || end == p || strncmp(end, " prog=", 6))
		return -EBADMSG;
	snprintf(j->prog, sizeof(j->prog), "%s", end + 6);
	return 0;
}

static int add_entry(struct lj_setup_jfile *j, int *alloc, enum lj_setup_kind kind,
		     char *path, char *old)
{
	bool no_old = kind == LJ_SETUP_CGROUP || kind == LJ_SETUP_TRACEFS_INSTANCE;
	struct lj_setup_entry *e;

	if (j->n == *alloc) {
		int cap = *alloc ? 2 * *alloc : 16;

		e = realloc(j->e, (size_t)cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		j->e = e;
		*alloc = cap;
	}
	e = &j->e[j->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	unescape(path);
	e->path = strdup(path);
	if (old) {
		unescape(old);
		e->old = strdup(old);
	} else if (!no_old) {
		e->old = strdup("");
	}
	j->n++;
	if (!e->path || ((old || !no_old) && !e->old))
		return -ENOMEM;
	return 0;
}

/* One entry or "undone" line (newline removed). */
static int parse_line(char *line, struct lj_setup_jfile *j, int *alloc)
{
	char *f1, *f2, *f3, *save = NULL, *end;

	f1 = strtok_r(line, "\t", &save);
	f2 = strtok_r(NULL, "\t", &save);
	f3 = strtok_r(NULL, "", &save);
	if (!f1 || !f2)
		return -EBADMSG;
	if (!strcmp(f1, "undone")) {
		long idx = strtol(f2, &end, 10);

		if (*end || end == f2 || f3 || idx < 0 || idx >= j->n)
			return -EBADMSG;
		j->e[idx].undone = true;
		return 0;
	}
	if (!strcmp(f1, "file"))
		return add_entry(j, alloc, LJ_SETUP_FILE, f2, f3);
	if (!strcmp(f1, "cgroup"))	/* f3: where its tasks came from (older journals have none) */
		return add_entry(j, alloc, LJ_SETUP_CGROUP, f2, f3);
	if (!strcmp(f1, "preempt") && f3)
		return add_entry(j, alloc, LJ_SETUP_PREEMPT, f2, f3);
	if (!strcmp(f1, "tracefs-mount") && f3)
		return add_entry(j, alloc, LJ_SETUP_TRACEFS_MOUNT, f2, f3);
	if (!strcmp(f1, "tracefs-instance") && !f3)
		return add_entry(j, alloc, LJ_SETUP_TRACEFS_INSTANCE, f2, NULL);
	return -EBADMSG;
}

/*
 * A first line torn by a crash: empty, or a prefix of the header
 * lj_setup_journal_open writes ("# ljkit-journal/1 pid=P start=S prog=N").
 * A number counts only once the character after it is there (a torn
 * "pid=12" may have been "pid=1234"): then j->pid / j->start are set.
 */
static bool header_prefix(const char *s, size_t n, struct lj_setup_jfile *j)
{
	static const char *const lit[] = { LJ_SETUP_JOURNAL_MAGIC " pid=", " start=", " pidns=", " prog=" };
	size_t i = 0;

	for (int f = 0; f < 4; f++) {
		unsigned long long v = 0;
		size_t d;

		/* pidns is optional: a line that has not come to it, or goes on to prog, skips it */
		if (f == 2 && (n - i < 3 || strncmp(s + i, lit[2], 3)))
			continue;
		for (const char *l = lit[f]; *l && i < n; l++, i++)
			if (s[i] != *l)
				return false;
		if (i == n)
			return true;
		if (f == 3)
			break;
		for (d = i; i < n && i - d < 20 && isdigit((unsigned char)s[i]); i++)
			v = v * 10 + (unsigned long long)(s[i] - '0');
		if (i == n)
			return true;
		if (i == d || (f == 0 && (!v || v > INT_MAX)) || (f == 2 && !v))
			return false;
		if (f == 0)
			j->pid = (pid_t)v;
		else if (f == 1)
			j->start = v;
		else
			j->pidns = v;
	}
	for (; i < n; i++)
		if (!isprint((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * The parser itself, on an open stream (lj_setup_journal_read and _parse
 * share it): every complete line must parse; *lineno is the line that did
 * not. Frees what it read on failure.
 *
 * A last line without its newline was torn by a crash and counts as not
 * written. That is safe because of the order of lj_setup_journal_append's
 * callers: an entry is written and fsynced BEFORE its change is made, so a
 * torn entry's change was never made (the process died in the write); an
 * "undone" line is written AFTER its undo, so a torn one only makes the
 * replay write the old value again (or rmdir a group already gone), which
 * changes nothing. j->complete is where the complete lines end: replay
 * cuts the torn tail there before it appends its own lines.
 *
 * No complete line at all, and what there is (possibly nothing) is a prefix
 * of the header: -ENODATA, a journal that holds no change (j->pid / start
 * set if the prefix holds them). Anything else: -EBADMSG.
 */
static int journal_parse_stream(FILE *f, struct lj_setup_jfile *j, int *lineno)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0, alloc = 0;
	bool torn_header = false, empty = true;

	*lineno = 0;
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		empty = false;
		if (line[n - 1] != '\n') {
			torn_header = !*lineno && header_prefix(line, (size_t)n, j);
			break;	/* the last line, torn by a crash before its newline */
		}
		j->complete += n;
		line[n - 1] = '\0';
		ret = (*lineno)++ ? parse_line(line, j, &alloc) : parse_header(line, j);
	}
	if (!ret && !*lineno)
		ret = torn_header || empty ? -ENODATA : -EBADMSG;
	free(line);
	if (ret)
		lj_setup_journal_free(j);
	return ret;
}

int lj_setup_journal_read(const char *path, struct lj_setup_jfile *j, struct stat *st,
			  char *why, size_t len)
{
	struct stat own;
	int ret, fd, lineno;
	FILE *f;

	memset(j, 0, sizeof(*j));
	fd = lj_setup_open_trusted(path, st ? st : &own, why, len);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	ret = journal_parse_stream(f, j, &lineno);
	fclose(f);
	if (ret == -ENODATA)
		lj_why(why, len, "%s holds no change (its first line torn by a crash)", path);
	else if (ret == -EBADMSG)
		lj_why(why, len, "%s is not an ljkit journal (line %d): refused, left as it is",
				 path, lineno ? lineno : 1);
	return ret;
}

int lj_setup_journal_parse(const char *buf, size_t len, struct lj_setup_jfile *j)
{
	FILE *f;
	int ret, lineno;

	memset(j, 0, sizeof(*j));
	if (!len)
		return -ENODATA;	/* an empty journal holds no change (fmemopen refuses an empty buffer) */
	f = fmemopen((void *)(uintptr_t)buf, len, "r");
	if (!f)
		return -errno;
	ret = journal_parse_stream(f, j, &lineno);
	fclose(f);
	return ret;
}

int lj_setup_journal_each(const char *dir, DIR *dp,
			  int (*fn)(const char *path, struct lj_setup_jfile *j, void *arg), void *arg)
{
	struct dirent *d;
	int ret = 0;

	while (!ret && (d = readdir(dp))) {
		char jpath[PATH_MAX];
		struct lj_setup_jfile j;

		if (!lj_setup_is_journal_name(d->d_name))
			continue;
		snprintf(jpath, sizeof(jpath), "%s/%s", dir, d->d_name);
		if (lj_setup_journal_read(jpath, &j, NULL, NULL, 0))
			continue;	/* not a journal read whole: nobody's */
		ret = fn(jpath, &j, arg);
		lj_setup_journal_free(&j);
	}
	return ret;
}

bool lj_setup_journal_alive(const struct lj_setup_jfile *j)
{
	return lj_setup_owner_alive(j->pid, j->start, j->pidns);
}

bool lj_setup_journal_own(const struct lj_setup_jfile *j)
{
	return lj_setup_owner_self(j->pid, j->start, j->pidns);
}

int lj_setup_runfile(const char *name, char *path, size_t len)
{
	char why[PATH_MAX + 256], owner[48];
	int fd, ret = lj_setup_dir_ready(lj_setup_journal_dir(), true, why, sizeof(why));

	if (ret)
		return ret;
	lj_setup_owner_format(owner, sizeof(owner));
	if (strchr(name, '/') || snprintf(path, len, "%s/run-%s.%s.%llu", lj_setup_journal_dir(), name,
					   owner, lj_setup_pid_starttime(getpid())) >= (int)len)
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

bool lj_setup_is_journal_name(const char *name)
{
	return !strncmp(name, "journal.", 8) && name[8];
}

/* @path is a journal of this very process (another of its stacks: the recorder's). */
static bool own_journal(const char *path)
{
	struct lj_setup_jfile j;
	bool own;

	if (lj_setup_journal_read(path, &j, NULL, NULL, 0))
		return false;
	own = lj_setup_journal_own(&j);
	lj_setup_journal_free(&j);
	return own;
}

/*
 * The default journal: DIR/journal.OWNER (lj_setup_owner_format), or
 * DIR/journal.OWNER.K when another stack of this process has that name
 * (the --explain recorder keeps its own). An existing journal of another
 * process is the caller's error.
 */
static int open_default(struct lj_setup *s)
{
	char owner[48];
	int fd = -1;

	lj_setup_owner_format(owner, sizeof(owner));
	for (int k = 0; k < 16; k++) {
		if (k)
			snprintf(s->journal, sizeof(s->journal), "%s/journal.%s.%d",
				 lj_setup_journal_dir(), owner, k);
		else
			snprintf(s->journal, sizeof(s->journal), "%s/journal.%s",
				 lj_setup_journal_dir(), owner);
		fd = open(s->journal, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST || !own_journal(s->journal))
			break;
		errno = EEXIST;
	}
	return fd;
}

/*
 * Create the journal: O_EXCL|O_NOFOLLOW, 0600, never an existing file
 * (not even a stale journal of an earlier process with our pid: that one
 * is for --restore). The default lives in the checked journal directory;
 * --journal PATH must name a new file in an existing directory.
 */
int lj_setup_journal_open(struct lj_setup *s)
{
	unsigned long long ns;
	char line[256];
	int ret;

	if (s->fd >= 0)
		return 0;
	if (s->want[0]) {
		snprintf(s->journal, sizeof(s->journal), "%s", s->want);
		s->fd = open(s->journal, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
	} else {
		ret = lj_setup_dir_ready(lj_setup_journal_dir(), true, s->conflict, sizeof(s->conflict));
		if (ret)
			goto fail;
		s->fd = open_default(s);
	}
	if (s->fd < 0) {
		ret = -errno;
		lj_why(s->conflict, sizeof(s->conflict), "cannot create setup journal %s: %s%s",
				 s->journal, strerror(-ret),
				 ret == -EEXIST ? (s->want[0] ? " (--journal must name a new file)"
						   : " (a stale journal: run lj-env --restore)") : "");
		/* -EBUSY, not -EEXIST: callers read -EEXIST from mkdir as "the group exists". */
		if (ret == -EEXIST || ret == -ELOOP)
			ret = -EBUSY;
		goto fail;
	}
	ns = lj_setup_pidns();
	if (lj_setup_pidns_initial(ns))
		snprintf(line, sizeof(line), LJ_SETUP_JOURNAL_MAGIC " pid=%d start=%llu prog=%s\n",
			 (int)getpid(), lj_setup_pid_starttime(getpid()), program_invocation_short_name);
	else
		snprintf(line, sizeof(line), LJ_SETUP_JOURNAL_MAGIC " pid=%d start=%llu pidns=%llu prog=%s\n",
			 (int)getpid(), lj_setup_pid_starttime(getpid()), ns, program_invocation_short_name);
	if (write(s->fd, line, strlen(line)) < 0 || fsync(s->fd) < 0) {
		ret = -errno;
		lj_why(s->conflict, sizeof(s->conflict), "cannot write setup journal %s: %s",
				 s->journal, strerror(-ret));
		close(s->fd);
		s->fd = -1;
		unlink(s->journal);	/* ours: created just now, O_EXCL */
		goto fail;
	}
	if (fstat(s->fd, &s->jstat) < 0)
		memset(&s->jstat, 0, sizeof(s->jstat));
	return 0;
fail:
	s->journal[0] = '\0';
	return ret;
}

int lj_setup_journal_append(struct lj_setup *s, const char *line)
{
	size_t len = strlen(line);
	int ret = 0;

	errno = 0;
	if (write(s->fd, line, len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	/* The change is made only once its undo is on disk. */
	else if (fsync(s->fd))
		ret = -errno;
	if (ret)
		lj_why(s->conflict, sizeof(s->conflict), "cannot write setup journal %s: %s",
				 s->journal, strerror(-ret));
	return ret;
}


int lj_setup_journal_entry(struct lj_setup *s, enum lj_setup_kind kind, const char *path,
			   const char *old)
{
	char epath[PATH_MAX * 2], eold[8192], *line;
	int ret;

	escape(path, epath, sizeof(epath));
	escape(old ? old : "", eold, sizeof(eold));
	if (asprintf(&line, "%s\t%s%s%s\n", lj_setup_kind_name(kind), epath,
		     old ? "\t" : "", old ? eold : "") < 0)
		return -ENOMEM;
	ret = lj_setup_journal_append(s, line);
	free(line);
	return ret;
}
