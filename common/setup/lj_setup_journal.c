// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_setup_journal - the setup journal on disk: line format, parsing. */
#include "lj_setup_priv.h"
#include "lj_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot. */
unsigned long long lj_setup_pid_starttime(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (lj_file_read(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
	if (!p)
		return 0;
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		v = strtoull(p + 1, NULL, 10);
	return v;
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

/* The parser itself, on an open stream: lj_setup_journal_read and _parse share it. */
static int journal_parse_stream(FILE *f, struct lj_setup_jfile *j)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0, alloc = 0;

	while ((len = getline(&line, &cap, f)) > 0) {
		char *f1, *f2, *f3, *save = NULL;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!strncmp(line, LJ_SETUP_JOURNAL_MAGIC, strlen(LJ_SETUP_JOURNAL_MAGIC))) {
			char *p;

			if ((p = strstr(line, " pid=")))
				j->pid = (pid_t)strtol(p + 5, NULL, 10);
			if ((p = strstr(line, " start=")))
				j->start = strtoull(p + 7, NULL, 10);
			if ((p = strstr(line, " prog=")))
				snprintf(j->prog, sizeof(j->prog), "%s", p + 6);
			continue;
		}
		if (!*line || *line == '#')
			continue;
		f1 = strtok_r(line, "\t", &save);
		f2 = strtok_r(NULL, "\t", &save);
		f3 = strtok_r(NULL, "", &save);
		if (!f1 || !f2)
			continue;	/* a torn last line after a crash */
		if (!strcmp(f1, "undone")) {
			long idx = strtol(f2, NULL, 10);

			if (idx >= 0 && idx < j->n)
				j->e[idx].undone = true;
			continue;
		}
		if (j->n == alloc) {
			struct lj_setup_entry *ne;

			alloc = alloc ? 2 * alloc : 16;
			ne = realloc(j->e, alloc * sizeof(*ne));
			if (!ne) {
				ret = -ENOMEM;
				break;
			}
			j->e = ne;
		}
		memset(&j->e[j->n], 0, sizeof(j->e[0]));
		if (!strcmp(f1, "file"))
			j->e[j->n].kind = LJ_SETUP_FILE;
		else if (!strcmp(f1, "cgroup"))
			j->e[j->n].kind = LJ_SETUP_CGROUP;
		else if (!strcmp(f1, "preempt"))
			j->e[j->n].kind = LJ_SETUP_PREEMPT;
		else
			continue;
		unescape(f2);
		j->e[j->n].path = strdup(f2);
		if (f3) {
			unescape(f3);
			j->e[j->n].old = strdup(f3);
		} else if (j->e[j->n].kind == LJ_SETUP_FILE) {
			j->e[j->n].old = strdup("");
		}
		j->n++;
	}
	free(line);
	if (ret)
		lj_setup_journal_free(j);
	return ret;
}

int lj_setup_journal_read(const char *path, struct lj_setup_jfile *j)
{
	FILE *f = fopen(path, "re");
	int ret;

	memset(j, 0, sizeof(*j));
	if (!f)
		return -errno;
	ret = journal_parse_stream(f, j);
	fclose(f);
	return ret;
}

int lj_setup_journal_parse(const char *buf, size_t len, struct lj_setup_jfile *j)
{
	FILE *f;
	int ret;

	memset(j, 0, sizeof(*j));
	if (!len)
		return 0;	/* fmemopen refuses an empty buffer; an empty journal has no entries */
	f = fmemopen((void *)(uintptr_t)buf, len, "r");
	if (!f)
		return -errno;
	ret = journal_parse_stream(f, j);
	fclose(f);
	return ret;
}

bool lj_setup_journal_alive(const struct lj_setup_jfile *j)
{
	if (j->pid <= 0)
		return false;
	if (kill(j->pid, 0) && errno == ESRCH)
		return false;
	return lj_setup_pid_starttime(j->pid) == j->start;
}

bool lj_setup_is_journal_name(const char *name)
{
	return !strncmp(name, "journal.", 8) && name[8];
}

int lj_setup_mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int lj_setup_journal_open(struct lj_setup *s)
{
	char dir[PATH_MAX], line[256], *slash;
	int ret;

	if (s->fd >= 0)
		return 0;
	if (s->want[0])
		snprintf(s->journal, sizeof(s->journal), "%s", s->want);
	else
		snprintf(s->journal, sizeof(s->journal), "%s/journal.%d",
			 lj_setup_journal_dir(), (int)getpid());
	snprintf(dir, sizeof(dir), "%s", s->journal);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		ret = lj_setup_mkdir_p(dir);
		if (ret)
			goto fail;
	}
	s->fd = open(s->journal, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (s->fd < 0) {
		ret = -errno;
		goto fail;
	}
	snprintf(line, sizeof(line), LJ_SETUP_JOURNAL_MAGIC " pid=%d start=%llu prog=%s\n",
		 (int)getpid(), lj_setup_pid_starttime(getpid()), program_invocation_short_name);
	if (write(s->fd, line, strlen(line)) < 0) {
		ret = -errno;
		close(s->fd);
		s->fd = -1;
		unlink(s->journal);
		goto fail;
	}
	return 0;
fail:
	s->journal[0] = '\0';
	return ret;
}

int lj_setup_journal_append(struct lj_setup *s, const char *line)
{
	size_t len = strlen(line);

	if (write(s->fd, line, len) != (ssize_t)len)
		return errno ? -errno : -EIO;
	/* The change is made only once its undo is on disk. */
	if (fsync(s->fd))
		return -errno;
	return 0;
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
