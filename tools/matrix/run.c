// SPDX-License-Identifier: GPL-2.0-or-later
/* run - walk the cells in order: skip what the machine cannot provide, run the rest, record all. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_result.h"
#include "lj_time.h"
#include "lj_why.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mx_dry_run(struct mx_run *r)
{
	size_t n = lj_scenario_ncells(r->scn), skipped = 0;
	size_t *order = calloc(n, sizeof(*order));
	struct mx_probe *p = mx_probe_new();

	if (!order || !p) {
		free(order);
		mx_probe_free(p);
		return LJ_EXIT_RUNTIME;
	}
	lj_scenario_run_order(r->scn, r->scn->seed, order, n);
	if (mx_kernels_resolve(r)) {
		free(order);
		mx_probe_free(p);
		return LJ_EXIT_RUNTIME;
	}
	for (size_t k = 0; k < n; k++) {
		struct lj_scenario_cell c;
		const char *why;
		char id[1024], *cmd;

		lj_scenario_cell(r->scn, order[k], &c);
		lj_scenario_cell_id(r->scn, &c, id, sizeof(id));
		/* a guest's cells are probed in the guest */
		why = lj_scenario_in_guest(r->scn, &c) ? NULL : mx_probe_cell(p, r, &c);
		cmd = lj_scenario_command(r->scn, &c);
		if (lj_scenario_in_guest(r->scn, &c)) {
			const struct mx_kernel *kern = mx_kernel_find(r, lj_scenario_value(r->scn, &c, "kernel"));

			printf("%zu/%zu %s [%s]: run in a guest of %s: %s\n", k + 1, n,
			       r->scn->workloads[c.workload].name, id, kern ? kern->image : "?", cmd ? cmd : "?");
		} else if (why) {
			skipped++;
			printf("%zu/%zu %s [%s]: skip: %s\n", k + 1, n,
			       r->scn->workloads[c.workload].name, id, why);
		} else {
			printf("%zu/%zu %s [%s]: run: %s\n", k + 1, n,
			       r->scn->workloads[c.workload].name, id, cmd ? cmd : "?");
		}
		free(cmd);
	}
	printf("%zu cells: %zu to run (%d warmup + %d measured runs each), %zu skipped\n", n,
	       n - skipped, r->scn->warmup, r->scn->repeat, skipped);
	free(order);
	mx_probe_free(p);
	return LJ_EXIT_OK;
}

/* Rel path under the run dir for a file of cell @reldir. */
static char *path_in(struct mx_run *r, const char *reldir, const char *prefix, int n,
		     const char *suffix)
{
	char *out;

	if (asprintf(&out, "%s/%s/%s%d%s", r->dir, reldir, prefix, n, suffix) < 0)
		return NULL;
	return out;
}

/*
 * watch = ...: lj-env counted the context switches around the run into
 * its own result (@setup). Copy its ctxsw_* summary metrics and
 * side.watch into the run's result (@doc, read from @json) and rewrite
 * that atomically, so lj-compare compares them like any workload metric
 * and the run's result stands alone. A metric the workload already
 * reports under the same name is the workload's. Return: 0 or -errno.
 */
static int merge_watch(struct mx_run *r, const char *json, const char *setup, json_object *doc)
{
	json_object *env = NULL, *esum, *dsum, *eside, *dside, *watch;
	char why[256];
	int ret;

	ret = lj_result_read(setup, &env, why, sizeof(why));
	if (ret) {
		lj_warn("%s: no watch counts: %s", setup + strlen(r->dir) + 1, why[0] ? why : lj_strerror(ret));
		return ret;
	}
	if (json_object_object_get_ex(env, "summary", &esum) &&
	    json_object_object_get_ex(doc, "summary", &dsum)) {
		json_object_object_foreach(esum, key, val) {
			if (strncmp(key, "ctxsw", 5) || json_object_object_get_ex(dsum, key, NULL))
				continue;
			json_object_object_add(dsum, key, json_object_get(val));
		}
	}
	if (json_object_object_get_ex(env, "side", &eside) &&
	    json_object_object_get_ex(eside, "watch", &watch) &&
	    json_object_object_get_ex(doc, "side", &dside) &&
	    json_object_is_type(dside, json_type_object) &&
	    !json_object_object_get_ex(dside, "watch", NULL))
		json_object_object_add(dside, "watch", json_object_get(watch));
	ret = lj_json_write_atomic(doc, json);
	if (ret)
		lj_error_errno(ret, "cannot write %s", json);
	json_object_put(env);
	return ret;
}

/* One cell being run: its identity and where its files go. */
struct cell_run {
	size_t idx;
	struct lj_scenario_cell c;
	char *reldir;			/* WORKLOAD/CELL-ID, relative to the run dir */
	char what[1200];		/* "workload [id]" for messages */
	bool failed;
};

/* The files of run @i of a cell (warmup or measured); NULL members on ENOMEM. */
struct run_files {
	char *json, *log, *setup;
};

static int run_files(struct mx_run *r, const struct cell_run *cr, bool warm, int n,
		     struct run_files *f)
{
	f->json = path_in(r, cr->reldir, warm ? ".warmup-" : "run-", n, ".json");
	f->log = path_in(r, cr->reldir, warm ? "warmup-" : "run-", n, ".log");
	f->setup = warm ? NULL : path_in(r, cr->reldir, "run-", n, ".setup.json");
	return f->json && f->log && (warm || f->setup) ? 0 : -ENOMEM;
}

static void free_run_files(struct run_files *f)
{
	free(f->json);
	free(f->log);
	free(f->setup);
}

/* Why a finished run does not count ("" when it does); reads its result into *@doc. */
static void judge_run(struct mx_run *r, const struct run_files *f, bool warm,
		      struct mx_outcome *o, json_object **doc)
{
	const char *rel = f->json + strlen(r->dir) + 1;
	char why[256];

	if (!o->reason[0] && o->exit_code != 0 && o->exit_code != LJ_EXIT_THRESHOLD)
		snprintf(o->reason, sizeof(o->reason), "exit status %d", o->exit_code);
	if (!o->reason[0] && lj_result_read(f->json, doc, why, sizeof(why)))
		lj_why(o->reason, sizeof(o->reason), "no valid result in %s: %s", rel,
		       why[0] ? why : strerror(errno));
	if (warm)
		unlink(f->json);
	else if (!o->reason[0] && r->scn->nwatch && merge_watch(r, f->json, f->setup, *doc))
		snprintf(o->reason, sizeof(o->reason), "no watch counts merged into %s", rel);
}

static json_object *run_record(struct mx_run *r, const struct run_files *f, int run_no,
			       const struct mx_outcome *o)
{
	json_object *rec = json_object_new_object();
	size_t skip = strlen(r->dir) + 1;

	json_object_object_add(rec, "run", lj_json_int(run_no));
	json_object_object_add(rec, "file", json_object_new_string(f->json + skip));
	json_object_object_add(rec, "log", json_object_new_string(f->log + skip));
	if (!access(f->setup, F_OK))
		json_object_object_add(rec, "setup_file", json_object_new_string(f->setup + skip));
	json_object_object_add(rec, "exit_code", lj_json_int(o->exit_code));
	json_object_object_add(rec, "duration_ns", lj_json_int(o->duration_ns));
	return rec;
}

/*
 * One run of a cell: warmup @warm number @n, or measured run @n. Returns
 * 0 (recorded, or the cell failed: cr->failed), -EINTR when a stop
 * signal cut it short, -errno on a store error.
 */
static int one_run(struct mx_run *r, struct cell_run *cr, bool warm, int n, size_t cell_no,
		   size_t ncells)
{
	struct run_files f;
	struct mx_outcome o;
	json_object *doc = NULL;
	char reason[512];
	int ret = run_files(r, cr, warm, n, &f);

	if (ret)
		goto out;
	mx_progress(r, cell_no, ncells, cr->what, n, warm ? r->scn->warmup : r->scn->repeat, warm);
	/* leftovers from an interrupted attempt are not this run's */
	unlink(f.json);
	if (f.setup)
		unlink(f.setup);
	ret = mx_log_start(r, cr->idx, n, warm);
	if (!ret) {
		ret = mx_exec_run(r, &cr->c, f.json, f.setup, f.log, n, warm, &o);
		r->workload_ns += o.duration_ns;
	}
	r->runs_done++;
	if (!ret && o.interrupted) {
		unlink(f.json);
		ret = -EINTR;
	}
	if (ret)
		goto out;
	judge_run(r, &f, warm, &o, &doc);
	if (o.reason[0]) {
		snprintf(reason, sizeof(reason), "%s %d: %s", warm ? "warmup" : "run", n, o.reason);
		cr->failed = true;
		ret = mx_log_state(r, cr->idx, "failed", reason, true);
		mx_progress_end(r);
		lj_warn("%s: %s", cr->what, reason);
	} else if (!warm) {
		ret = mx_log_run(r, cr->idx, run_record(r, &f, n, &o));
		if (!ret)
			ret = mx_store_sync(r, false);
	}
out:
	json_object_put(doc);
	free_run_files(&f);
	return ret;
}

/*
 * Run the cell's warmup and its measured runs still missing. Returns 0
 * when the cell is finished (done or failed, recorded), -EINTR when
 * interrupted (the cell stays pending), -errno on a store error.
 */
int mx_run_cell(struct mx_run *r, json_object *cell, size_t idx, size_t cell_no, size_t ncells)
{
	struct cell_run cr = { .idx = idx };
	json_object *runs;
	char *dir = NULL;
	int have = 0, ret;

	lj_scenario_cell(r->scn, idx, &cr.c);
	mx_cell_what(r, idx, cr.what, sizeof(cr.what));
	cr.reldir = mx_store_cell_dir(r, idx);
	if (!cr.reldir || asprintf(&dir, "%s/%s", r->dir, cr.reldir) < 0) {
		ret = -ENOMEM;
		goto out;
	}
	ret = mx_mkdirs(dir);
	if (ret) {
		lj_error_errno(ret, "cannot create %s", dir);
		goto out;
	}
	if (json_object_object_get_ex(cell, "runs", &runs))
		have = (int)json_object_array_length(runs);
	for (int i = 1; i <= r->scn->warmup && !ret && !cr.failed; i++)
		ret = one_run(r, &cr, true, i, cell_no, ncells);
	for (int n = have + 1; n <= r->scn->repeat && !ret && !cr.failed; n++)
		ret = one_run(r, &cr, false, n, cell_no, ncells);
	if (ret == -EINTR)	/* not a state to keep: --resume runs the cell again */
		mx_log_state(r, idx, "pending", NULL, false);
	else if (!ret && !cr.failed)
		ret = mx_log_state(r, idx, "done", NULL, true);
out:
	free(cr.reldir);
	free(dir);
	return ret;
}

/* Skips first: the machine does not change, and the ETA then counts only real runs. */
static void skip_pass(struct mx_run *r, struct mx_probe *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_object *cell = json_object_array_get_idx(r->cells, i), *runs;
		struct lj_scenario_cell c;
		const char *why;

		if (strcmp(mx_cell_state(cell), "pending"))
			continue;
		lj_scenario_cell(r->scn, i, &c);
		/* a guest cell's setup is the guest's to provide: its lj-matrix probes it */
		why = lj_scenario_in_guest(r->scn, &c) ? NULL : mx_probe_cell(p, r, &c);
		if (why) {
			/* not logged: the compaction right after the pass records them */
			mx_log_state(r, i, "skipped", why, false);
			lj_info("cell %zu skipped: %s", i + 1, why);
			continue;
		}
		r->runs_total += r->scn->warmup + r->scn->repeat;
		if (json_object_object_get_ex(cell, "runs", &runs))
			r->runs_total -= json_object_array_length(runs);
	}
}

/* Say that the store cannot be written; true, for the caller to remember it was said. */
static bool store_error(struct mx_run *r, int ret)
{
	lj_error_errno(ret, "cannot write the store in %s", r->dir);
	return true;
}

/* The end: what happened, on stderr, the run directory on stdout, and the exit code. */
static int report(struct mx_run *r, size_t n, int ret)
{
	size_t done = 0, failed = 0, skipped = 0;

	for (size_t i = 0; i < n; i++) {
		const char *st = mx_cell_state(json_object_array_get_idx(r->cells, i));

		done += !strcmp(st, "done");
		failed += !strcmp(st, "failed");
		skipped += !strcmp(st, "skipped");
	}
	if (ret == -EINTR) {
		lj_error("interrupted: %zu of %zu cells finished; continue with: lj-matrix --resume %s",
			 done + failed + skipped, n, r->dir);
		return LJ_EXIT_RUNTIME;
	}
	if (ret)
		return LJ_EXIT_RUNTIME;
	/* stdout: the run directory, for scripts (lj-regress). */
	printf("%s\n", r->dir);
	if (lj_err_verbosity() >= 0)
		fprintf(stderr, "%s: %zu cells: %zu done, %zu failed, %zu skipped: %s\n", lj_prog(), n,
			done, failed, skipped, r->dir);
	if (failed)
		return LJ_EXIT_RUNTIME;
	if (!done || (r->cfg->strict && skipped))
		return LJ_EXIT_NOCAP;
	return LJ_EXIT_OK;
}

/*
 * Cell order[k] on this machine, or, for a guest cell, every pending cell
 * of its (kernel, cmdline) group from k on, in one guest.
 */
static int run_cell_or_group(struct mx_run *r, const size_t *order, size_t k, size_t n)
{
	struct lj_scenario_cell c, o;
	const char *kern, *words;
	size_t *idx, *no, m = 0;
	int ret;

	lj_scenario_cell(r->scn, order[k], &c);
	if (!lj_scenario_in_guest(r->scn, &c))
		return mx_run_cell(r, json_object_array_get_idx(r->cells, order[k]), order[k], k + 1, n);
	kern = lj_scenario_value(r->scn, &c, "kernel");
	words = lj_scenario_value(r->scn, &c, "cmdline");
	idx = calloc(n - k, sizeof(*idx));
	no = calloc(n - k, sizeof(*no));
	for (size_t j = k; idx && no && j < n; j++) {
		const char *w;

		lj_scenario_cell(r->scn, order[j], &o);
		w = lj_scenario_value(r->scn, &o, "cmdline");
		if (strcmp(mx_cell_state(json_object_array_get_idx(r->cells, order[j])), "pending") ||
		    strcmp(lj_scenario_value(r->scn, &o, "kernel"), kern) || (words && strcmp(w, words)))
			continue;
		idx[m] = order[j];
		no[m++] = j + 1;
	}
	ret = idx && no ? mx_guest_group(r, idx, no, m, n) : -ENOMEM;
	free(idx);
	free(no);
	return ret;
}

int mx_run_all(struct mx_run *r)
{
	size_t n = lj_scenario_ncells(r->scn);
	size_t *order = calloc(n, sizeof(*order));
	struct mx_probe *p = mx_probe_new();
	bool said = false;
	int ret, code;

	if (!order || !p) {
		free(order);
		mx_probe_free(p);
		return LJ_EXIT_RUNTIME;
	}
	lj_scenario_run_order(r->scn, r->scn->seed, order, n);
	skip_pass(r, p, n);
	ret = mx_guard_start(r);
	if (ret)
		lj_error_errno(ret, "cannot start the watchdog");
	else if ((ret = mx_store_sync(r, true)))
		said = store_error(r, ret);
	r->t0_ns = lj_now_ns();
	for (size_t k = 0; k < n && !ret; k++) {
		json_object *cell = json_object_array_get_idx(r->cells, order[k]);

		if (mx_exec_pending_stop(r)) {
			ret = -EINTR;
			break;
		}
		if (strcmp(mx_cell_state(cell), "pending"))
			continue;
		ret = run_cell_or_group(r, order, k, n);
		if (ret && ret != -EINTR)
			said = store_error(r, ret);
	}
	mx_progress_end(r);
	mx_store_finish(r, ret == -EINTR ? "interrupted" : ret ? "error" : "complete");
	code = mx_store_sync(r, true);
	if (code && !said)	/* the same full disk, said once */
		store_error(r, code);
	mx_guard_stop(r);
	free(order);
	mx_probe_free(p);
	return report(r, n, code && !ret ? code : ret);
}
