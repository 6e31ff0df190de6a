// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guest - the cells of one (kernel, cmdline) group run by one guest: the
 * guest boots that kernel with those words and runs this very lj-matrix
 * (--guest-job, inguest.c) from the host's tree, which runs the cells as
 * on any machine, its setup stack inside the guest, and writes the runs'
 * files into the run directory (shared at the same path) and its events
 * into the exchange share. This side reads the events as they come and
 * records them in the store as its own: the manifest and progress.jsonl
 * have one writer, and a guest that dies leaves every run it finished
 * recorded.
 */
#include "matrix.h"
#include "lj_err.h"
#include "lj_guest.h"
#include "lj_json.h"
#include "lj_result.h"
#include "lj_time.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TICK_NS		(100 * LJ_NSEC_PER_MSEC)
#define BOOT_NS		(300 * LJ_NSEC_PER_SEC)	/* a boot may take this long whatever --guest-timeout says */
#define JOB		"job.json"
#define EVENTS		"events.jsonl"
#define MAX_ENV		64
#define LINE_MAX_BYTES	(1 << 20)

extern char **environ;

struct group {
	struct mx_run *r;
	const size_t *cells, *cell_no;
	size_t n, ncells;
	char what[600];			/* "kernel=rt,cmdline=none" */
	char events[PATH_MAX];
	off_t off;
	int64_t last_ns;		/* the last word from the guest */
	int64_t run_limit_ns;		/* the running run's own timeout; 0 none */
	bool hello, running;
	int err;			/* a store error: stop the guest */
};

static size_t cell_no(const struct group *gr, size_t idx)
{
	for (size_t i = 0; i < gr->n; i++)
		if (gr->cells[i] == idx)
			return gr->cell_no[i];
	return 0;
}

/* A start event: the progress line, and the run's limit (its workload's timeout). */
static void started(struct group *gr, json_object *ev, size_t idx)
{
	struct mx_run *r = gr->r;
	struct lj_scenario_cell c;
	json_object *st, *v;
	char what[1200];
	bool warm;
	int run;

	json_object_object_get_ex(ev, "start", &st);
	run = json_object_object_get_ex(st, "run", &v) ? json_object_get_int(v) : 0;
	warm = json_object_object_get_ex(st, "warmup", &v) && json_object_get_boolean(v);
	lj_scenario_cell(r->scn, idx, &c);
	gr->run_limit_ns = r->scn->workloads[c.workload].timeout_ns ? r->scn->workloads[c.workload].timeout_ns :
			   r->cfg->timeout_ns;
	gr->running = true;
	mx_cell_what(r, idx, what, sizeof(what));
	mx_progress(r, cell_no(gr, idx), gr->ncells, what, run, warm ? r->scn->warmup : r->scn->repeat, warm);
	r->runs_done++;
}

/* One event of the guest's lj-matrix: recorded, and said as this lj-matrix says its own. */
static void event(struct group *gr, json_object *ev)
{
	struct mx_run *r = gr->r;
	json_object *v, *why;
	char what[1200];
	int64_t idx;
	int ret;

	if (json_object_object_get_ex(ev, "hello", &v)) {
		gr->hello = true;
		return;
	}
	ret = mx_log_forward(r, ev);
	if (ret <= 0) {
		gr->err = ret;
		return;
	}
	json_object_object_get_ex(ev, "cell", &v);
	idx = json_object_get_int64(v);
	if (json_object_object_get_ex(ev, "start", NULL)) {
		started(gr, ev, (size_t)idx);
		return;
	}
	gr->running = false;
	if (json_object_object_get_ex(ev, "state", &v) && !strcmp(json_object_get_string(v), "failed") &&
	    json_object_object_get_ex(ev, "reason", &why)) {
		mx_progress_end(r);
		mx_cell_what(r, (size_t)idx, what, sizeof(what));
		lj_warn("%s: %s", what, json_object_get_string(why));
	}
	ret = mx_store_sync(r, false);
	if (ret)
		gr->err = ret;
}

/* The events file's new complete lines. */
static void read_events(struct group *gr)
{
	char buf[65536];
	ssize_t n;
	int fd = open(gr->events, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && (n = pread(fd, buf, sizeof(buf) - 1, gr->off)) > 0) {
		char *line = buf, *nl;

		buf[n] = '\0';
		while (!gr->err && (nl = memchr(line, '\n', (size_t)(buf + n - line)))) {
			json_object *ev;

			*nl = '\0';
			ev = json_tokener_parse(line);
			if (ev) {
				event(gr, ev);
				gr->last_ns = lj_now_ns();
			}
			json_object_put(ev);
			line = nl + 1;
		}
		if (line == buf)	/* a line longer than the buffer: not ours */
			line = buf + n;
		gr->off += line - buf;
		if (gr->err || line < buf + n)
			break;
	}
	if (fd >= 0)
		close(fd);
}

/* Every tick: the events, then is the guest still talking? */
static int tick(void *arg, char *why, size_t len)
{
	struct group *gr = arg;
	int64_t limit, quiet;

	read_events(gr);
	if (gr->err) {
		snprintf(why, len, "cannot write the store: %s", lj_strerror(gr->err));
		return 1;
	}
	/*
	 * Booting: the guest timeout, 300 s at least (TCG boots on a busy machine
	 * took 40 s here); between runs: the guest timeout; in a run: that beyond
	 * the run's own timeout, or none when the run has none.
	 */
	limit = !gr->hello ? (gr->r->cfg->guest_timeout_ns > BOOT_NS ? gr->r->cfg->guest_timeout_ns : BOOT_NS) :
		!gr->running ? gr->r->cfg->guest_timeout_ns :
		gr->run_limit_ns ? gr->run_limit_ns + gr->r->cfg->guest_timeout_ns : 0;
	quiet = lj_now_ns() - gr->last_ns;
	if (!limit || quiet < limit)
		return 0;
	snprintf(why, len, "the guest %s for %.0f s: killed", gr->hello ? "said nothing" : "did not start its lj-matrix",
		 (double)quiet / LJ_NSEC_PER_SEC);
	return 1;
}

/* The job the guest's lj-matrix reads: the run directory, the scenario as recorded, the cells. */
static int write_job(struct group *gr, const char *dir, const char *xchg)
{
	struct mx_run *r = gr->r;
	json_object *job = json_object_new_object(), *cells = json_object_new_array(), *scn;
	char path[PATH_MAX];
	int ret;

	json_object_object_add(job, "dir", json_object_new_string(dir));
	json_object_object_get_ex(r->manifest, "scenario", &scn);
	json_object_object_add(job, "scenario", json_object_get(scn));
	json_object_object_add(job, "timeout_ns", lj_json_int(r->cfg->timeout_ns));
	json_object_object_add(job, "events", json_object_new_string(LJ_GUEST_EXCHANGE "/" EVENTS));
	for (size_t i = 0; i < gr->n; i++)
		json_object_array_add(cells, json_object_get(json_object_array_get_idx(r->cells, gr->cells[i])));
	json_object_object_add(job, "cells", cells);
	snprintf(path, sizeof(path), "%s/" JOB, xchg);
	ret = lj_json_write_atomic(job, path);
	json_object_put(job);
	return ret;
}

/* The host's LJ_* variables (not the per-run LJ_MATRIX_* ones) for the guest's lj-matrix. */
static void guest_env(const char **env)
{
	int n = 0;

	for (char **e = environ; *e && n < MAX_ENV; e++)
		if (!strncmp(*e, "LJ_", 3) && strncmp(*e, "LJ_MATRIX_", 10))
			env[n++] = *e;
	env[n] = NULL;
}

/* RUNDIR/guests/GROUP.EXT: where the guest's console and its lj-matrix's output are kept. */
static void log_path(const struct group *gr, const char *ext, char *out, size_t len)
{
	char name[600];

	snprintf(name, sizeof(name), "%s", gr->what);
	mx_sanitise(name);
	snprintf(out, len, "%s/guests/%.200s.%s", gr->r->dir, name, ext);
}

static void keep_console(const struct group *gr, struct lj_guest *g)
{
	char to[PATH_MAX], buf[65536];
	ssize_t n;
	int in = open(lj_guest_console(g), O_RDONLY | O_CLOEXEC), out;

	log_path(gr, "console", to, sizeof(to));
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

/* The cells the guest left unfinished: failed (skipped when this machine cannot boot it) with @why. */
static int finish_cells(struct group *gr, const struct lj_guest_result *res, const char *why)
{
	struct mx_run *r = gr->r;
	const char *state = res->status == LJ_GUEST_NO_TOOL ? "skipped" : "failed";
	char reason[1400];
	size_t left = 0;
	int ret = 0;

	snprintf(reason, sizeof(reason), "guest %s: %s", gr->what, why);
	for (size_t i = 0; i < gr->n && !ret; i++) {
		const char *st = mx_cell_state(json_object_array_get_idx(r->cells, gr->cells[i]));

		if (strcmp(st, "pending") && strcmp(st, "running"))
			continue;
		if (res->status == LJ_GUEST_INTERRUPTED) {
			mx_log_state(r, gr->cells[i], "pending", NULL, false);	/* --resume runs it */
			continue;
		}
		ret = mx_log_state(r, gr->cells[i], state, reason, true);
		left++;
	}
	if (left) {
		mx_progress_end(r);
		lj_warn("%s (%zu cell%s %s)", reason, left, left == 1 ? "" : "s", state);
	}
	return ret;
}

/* Why the guest's cells not run were not: how the guest ended, or its lj-matrix's last words. */
static void reason(const struct group *gr, const struct lj_guest_result *res, char *why, size_t len)
{
	char log[PATH_MAX], line[300] = "", buf[300];
	FILE *f;

	if (res->status != LJ_GUEST_RAN) {
		snprintf(why, len, "%s", res->why);
		return;
	}
	log_path(gr, "log", log, sizeof(log));
	f = fopen(log, "re");
	while (f && fgets(buf, sizeof(buf), f))
		if (buf[0] != '\n')
			snprintf(line, sizeof(line), "%s", buf);
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	snprintf(why, len, "its lj-matrix ended with status %d before this cell%s%s", res->exit_status,
		 *line ? ": " : "", line);
}

/* The guest's boot words: the [kernel]'s own, then the cmdline axis's (none: no words). */
static void boot_words(const struct mx_kernel *k, const char *axis, char *out, size_t len)
{
	bool some = axis && strcmp(axis, "none");

	snprintf(out, len, "%s%s%s", k->cmdline ? k->cmdline : "", k->cmdline && some ? " " : "", some ? axis : "");
}

/* The guest's configuration: the kernel, this lj-matrix to run, the run directory shared back. */
static int configure(struct group *gr, const struct mx_kernel *k, struct lj_guest_config *gc, char *dir,
		     char *self, char *path, size_t len)
{
	struct mx_run *r = gr->r;
	const char *old = getenv("PATH");

	if (!realpath(r->dir, dir))
		return -errno;
	snprintf(self, len, "%s/lj-matrix", r->selfdir ? r->selfdir : ".");
	/* the tools next to lj-matrix first, as for a cell on the host (exec.c) */
	snprintf(path, len, "%s:%s", r->selfdir ? r->selfdir : "/usr/bin", old ? old : "/usr/bin:/bin");
	gc->image = k->image;
	gc->modules = k->modules;
	gc->initramfs = k->initramfs;
	gc->path = path;
	gc->shares[0] = dir;
	gc->nshares = 1;
	gc->out_fd = gc->err_fd = -1;
	return 0;
}

int mx_guest_group(struct mx_run *r, const size_t *cells, const size_t *cell_no, size_t n, size_t ncells)
{
	struct group gr = { .r = r, .cells = cells, .cell_no = cell_no, .n = n, .ncells = ncells };
	char dir[PATH_MAX], self[PATH_MAX], path[PATH_MAX * 2], words[4096], cwd[PATH_MAX], log[PATH_MAX + 16],
	     why[600];
	char *argv[] = { self, (char *)"--guest-job", (char *)LJ_GUEST_EXCHANGE "/" JOB, NULL };
	struct lj_guest_config gc = { .argv = argv };
	struct lj_guest_result res = { .status = LJ_GUEST_ERROR };
	const char *kv, *cv, *env[MAX_ENV + 1];
	struct lj_guest *g = NULL;
	struct lj_scenario_cell c;
	const struct mx_kernel *k;
	int ret;

	lj_scenario_cell(r->scn, cells[0], &c);
	kv = lj_scenario_value(r->scn, &c, "kernel");
	cv = lj_scenario_value(r->scn, &c, "cmdline");
	snprintf(gr.what, sizeof(gr.what), "kernel=%s%s%s", kv, cv ? ",cmdline=" : "", cv ? cv : "");
	k = mx_kernel_find(r, kv);
	if (!k)
		return -ENOENT;
	ret = configure(&gr, k, &gc, dir, self, path, sizeof(self));
	if (ret)
		return ret;
	boot_words(k, cv, words, sizeof(words));
	gc.cmdline = words;
	gc.cwd = getcwd(cwd, sizeof(cwd));
	guest_env(env);
	gc.env = (char *const *)(uintptr_t)env;
	snprintf(log, sizeof(log), "%s/guests", r->dir);
	mx_mkdirs(log);
	log_path(&gr, "log", log, sizeof(log));
	gc.out_fd = gc.err_fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	ret = lj_guest_open(&gc, &g, &res);
	if (!ret) {
		snprintf(gr.events, sizeof(gr.events), "%s/" EVENTS, lj_guest_exchange(g));
		ret = write_job(&gr, dir, lj_guest_exchange(g));
		if (ret) {
			res.status = LJ_GUEST_ERROR;
			snprintf(res.why, sizeof(res.why), "cannot write the guest's job: %s", lj_strerror(ret));
		}
	}
	if (!ret)
		ret = lj_guest_start(g, &res);
	if (!ret) {
		pid_t qemu = lj_guest_pid(g);

		lj_info("guest %s: booting %s (%s) for %zu cells", gr.what, res.release,
			res.accel == LJ_GUEST_ACCEL_KVM ? "KVM" : "TCG", n);
		mx_guard_tell(r, qemu, true);
		gr.last_ns = lj_now_ns();
		lj_guest_wait(g, &r->sigs, TICK_NS, tick, &gr, &res);
		mx_guard_tell(r, qemu, false);
		read_events(&gr);
		if (res.boot_ns >= 0)
			lj_info("guest %s: ready after %.1f s, ended after %.1f s", gr.what,
				(double)res.boot_ns / LJ_NSEC_PER_SEC, (double)res.total_ns / LJ_NSEC_PER_SEC);
	}
	if (g)
		keep_console(&gr, g);
	lj_guest_close(g);
	if (gc.out_fd >= 0)
		close(gc.out_fd);
	if (gr.err)
		return gr.err;
	if (res.status == LJ_GUEST_INTERRUPTED)
		r->interrupted = true;
	reason(&gr, &res, why, sizeof(why));
	ret = finish_cells(&gr, &res, why);
	return !ret && res.status == LJ_GUEST_INTERRUPTED ? -EINTR : ret;
}
