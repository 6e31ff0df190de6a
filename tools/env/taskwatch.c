// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_taskwatch - context switches of named tasks (kernel threads included) and of the system, before and after. */
#include "taskwatch.h"
#include "lj_time.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lj_taskwatch_init(struct lj_taskwatch *w)
{
	memset(w, 0, sizeof(*w));
}

static void snap_free(struct lj_taskwatch_snap *s)
{
	free(s->tasks);
	memset(s, 0, sizeof(*s));
}

void lj_taskwatch_free(struct lj_taskwatch *w)
{
	for (int i = 0; i < w->npatterns; i++)
		free(w->patterns[i]);
	snap_free(&w->before);
	snap_free(&w->after);
	memset(w, 0, sizeof(*w));
}

int lj_taskwatch_add(struct lj_taskwatch *w, const char *glob)
{
	int m;

	if (!glob || !*glob)
		return -EINVAL;
	/* fnmatch has no compile step: trying it once is the only check it offers */
	m = fnmatch(glob, "", 0);
	if (m && m != FNM_NOMATCH)
		return -EINVAL;
	for (int i = 0; i < w->npatterns; i++)
		if (!strcmp(w->patterns[i], glob))
			return -EEXIST;
	if (w->npatterns == LJ_TASKWATCH_MAX_PATTERNS)
		return -E2BIG;
	w->patterns[w->npatterns] = strdup(glob);
	if (!w->patterns[w->npatterns])
		return -ENOMEM;
	w->npatterns++;
	return 0;
}

int lj_taskwatch_add_list(struct lj_taskwatch *w, const char *list)
{
	char *copy, *tok, *next;
	int ret = 0;

	if (!list || !*list)
		return -EINVAL;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	/* split by hand: strtok would merge ",," into one separator */
	for (tok = copy; tok && !ret; tok = next) {
		char *comma = strchr(tok, ',');
		char *end;

		next = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		while (*tok == ' ' || *tok == '\t')
			tok++;
		end = tok + strlen(tok);
		while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		ret = lj_taskwatch_add(w, tok);
	}
	free(copy);
	return ret;
}

/* "N" then white space or end of line; no sign, no junk. */
static int parse_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (*s && *s != '\n' && *s != ' ' && *s != '\t' && *s != '\r')
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * The value of the line whose key is @key, "key<sep>value" with optional
 * white space around <sep> (':' in status and sched, ' ' in stat).
 * Return: 0, -ENOENT or -EINVAL.
 */
static int field(const char *text, const char *key, char sep, uint64_t *out)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *p = line;

		if (strncmp(p, key, klen))
			continue;
		p += klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (sep != ' ') {
			if (*p != sep)
				continue;
			p++;
		} else if (p == line + klen) {
			continue;	/* "ctxtx 1" is another key */
		}
		return parse_count(p, out);
	}
	return -ENOENT;
}

int lj_taskwatch_parse_status(const char *text, uint64_t *voluntary, uint64_t *involuntary)
{
	int ret = field(text, "voluntary_ctxt_switches", ':', voluntary);

	if (!ret)
		ret = field(text, "nonvoluntary_ctxt_switches", ':', involuntary);
	return ret;
}

int lj_taskwatch_parse_sched(const char *text, int64_t *migrations)
{
	uint64_t v;
	int ret = field(text, "se.nr_migrations", ':', &v);

	if (ret == -ENOENT)
		ret = field(text, "nr_migrations", ':', &v);
	if (!ret && v > INT64_MAX)
		ret = -EINVAL;
	if (!ret)
		*migrations = (int64_t)v;
	return ret;
}

int lj_taskwatch_parse_stat(const char *text, uint64_t *ctxt)
{
	return field(text, "ctxt", ' ', ctxt);
}

int lj_taskwatch_metric(const char *glob, char *buf, size_t len)
{
	char name[256];
	size_t n = 0;
	bool sep = false;

	for (const char *c = glob; *c && n < sizeof(name) - 2; c++) {
		if (isalnum((unsigned char)*c)) {
			if (sep && n)
				name[n++] = '_';
			name[n++] = *c;
			sep = false;
		} else {
			sep = true;
		}
	}
	name[n] = '\0';
	return snprintf(buf, len, "ctxsw%s%s", n ? "_" : "", name);
}

/* Read a small /proc file into @buf; 0 or -errno. */
static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int push(struct lj_taskwatch_snap *s, const struct lj_taskwatch_task *t)
{
	if (s->ntasks == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct lj_taskwatch_task *nt = realloc(s->tasks, cap * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		s->tasks = nt;
		s->cap = cap;
	}
	s->tasks[s->ntasks++] = *t;
	return 0;
}

/* One thread: comm, then the counters if a pattern matches. A thread gone meanwhile is skipped. */
static int read_task(const struct lj_taskwatch *w, const char *root, const char *pid,
		     const char *tid, struct lj_taskwatch_snap *s)
{
	struct lj_taskwatch_task t = { .migrations = -1 };
	char path[1024], text[4096];

	if (snprintf(path, sizeof(path), "%s/%s/task/%s/comm", root, pid, tid) >= (int)sizeof(path) ||
	    read_text(path, t.comm, sizeof(t.comm)))
		return 0;
	t.comm[strcspn(t.comm, "\n")] = '\0';
	for (int i = 0; i < w->npatterns; i++)
		if (!fnmatch(w->patterns[i], t.comm, 0))
			t.match |= 1u << i;
	if (!t.match)
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s/task/%s/status", root, pid, tid) >= (int)sizeof(path) ||
	    read_text(path, text, sizeof(text)) ||
	    lj_taskwatch_parse_status(text, &t.voluntary, &t.involuntary))
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s/task/%s/sched", root, pid, tid) < (int)sizeof(path) &&
	    !read_text(path, text, sizeof(text)))
		lj_taskwatch_parse_sched(text, &t.migrations);
	t.pid = (pid_t)atoi(pid);
	t.tid = (pid_t)atoi(tid);
	return push(s, &t);
}

int lj_taskwatch_snapshot(struct lj_taskwatch *w, const char *root, bool after)
{
	struct lj_taskwatch_snap *s = after ? &w->after : &w->before;
	char path[512], text[8192];
	struct dirent *pe;
	DIR *procs;
	int ret = 0;

	snap_free(s);
	procs = opendir(root);
	if (!procs)
		return -errno;
	/* the clock is read after the walk in both snapshots: the walks' lengths cancel */
	snprintf(path, sizeof(path), "%s/stat", root);
	if (!read_text(path, text, sizeof(text)) && !lj_taskwatch_parse_stat(text, &s->ctxt))
		s->have_ctxt = true;
	while (!ret && (pe = readdir(procs))) {
		struct dirent *te;
		DIR *tasks;

		if (!all_digits(pe->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", root, pe->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* exited meanwhile */
		while (!ret && (te = readdir(tasks)))
			if (all_digits(te->d_name))
				ret = read_task(w, root, pe->d_name, te->d_name, s);
		closedir(tasks);
	}
	closedir(procs);
	s->t_ns = lj_now_ns();
	return ret;
}

const struct lj_taskwatch_task *lj_taskwatch_find(const struct lj_taskwatch_snap *s,
						  const struct lj_taskwatch_task *t)
{
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].tid == t->tid && !strcmp(s->tasks[i].comm, t->comm))
			return &s->tasks[i];
	return NULL;
}

/* b - a, or 0 when the counter went backwards (a reused tid the comm did not betray) */
static uint64_t since(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

static double rate(uint64_t n, int64_t ns)
{
	return ns > 0 ? (double)n * 1e9 / (double)ns : 0.0;
}

void lj_taskwatch_delta(const struct lj_taskwatch *w, int i, struct lj_taskwatch_delta *d)
{
	uint32_t bit = 1u << i;

	memset(d, 0, sizeof(*d));
	d->pattern = w->patterns[i];
	d->migrations = -1;
	for (size_t k = 0; k < w->after.ntasks; k++) {
		const struct lj_taskwatch_task *a = &w->after.tasks[k], *b;
		struct lj_taskwatch_task born = { .migrations = 0 };
		int64_t mig;

		if (!(a->match & bit))
			continue;
		d->tasks++;
		b = lj_taskwatch_find(&w->before, a);
		if (!b) {
			/* born in the window: every count it has is the window's */
			d->appeared++;
			b = &born;
		}
		d->voluntary += since(b->voluntary, a->voluntary);
		d->involuntary += since(b->involuntary, a->involuntary);
		if (a->migrations >= 0 && b->migrations >= 0) {
			mig = a->migrations >= b->migrations ? a->migrations - b->migrations : 0;
			d->migrations = (d->migrations < 0 ? 0 : d->migrations) + mig;
		}
	}
	for (size_t k = 0; k < w->before.ntasks; k++) {
		const struct lj_taskwatch_task *b = &w->before.tasks[k];

		if ((b->match & bit) && !lj_taskwatch_find(&w->after, b)) {
			d->tasks++;
			d->vanished++;
		}
	}
	d->ctxsw = d->voluntary + d->involuntary;
	d->per_s = rate(d->ctxsw, w->after.t_ns - w->before.t_ns);
}

void lj_taskwatch_system(const struct lj_taskwatch *w, struct lj_taskwatch_system *s)
{
	memset(s, 0, sizeof(*s));
	s->elapsed_ns = w->after.t_ns - w->before.t_ns;
	s->have_ctxt = w->before.have_ctxt && w->after.have_ctxt;
	if (s->have_ctxt)
		s->ctxsw = since(w->before.ctxt, w->after.ctxt);
	s->per_s = rate(s->ctxsw, s->elapsed_ns);
}
