// SPDX-License-Identifier: GPL-2.0-or-later
/* run - walk the cells in order: skip what the machine cannot provide, run the rest, record all. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_result.h"
#include "lj_time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *cell_state(json_object *cell)
{
	json_object *v;

	return json_object_object_get_ex(cell, "state", &v) ? json_object_get_string(v) : "pending";
}

static void set_state(json_object *cell, const char *state, const char *reason)
{
	json_object_object_add(cell, "state", json_object_new_string(state));
	json_object_object_add(cell, "reason",
			       reason ? json_object_new_string(reason) : json_object_new_null());
}

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
	for (size_t k = 0; k < n; k++) {
		struct lj_scenario_cell c;
		const char *why;
		char id[1024], *cmd;

		lj_scenario_cell(r->scn, order[k], &c);
		lj_scenario_cell_id(r->scn, &c, id, sizeof(id));
		why = mx_probe_cell(p, r, &c);
		cmd = lj_scenario_command(r->scn, &c);
		if (why) {
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
	const char *why = NULL;
	int ret;

	ret = lj_result_read(setup, &env, &why);
	if (ret) {
		lj_warn("%s: no watch counts: %s", setup + strlen(r->dir) + 1, why ? why : lj_strerror(ret));
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

/*
 * Run the cell's warmup and its measured runs still missing. Returns 0
 * when the cell is finished (done or failed, recorded in @cell), -EINTR
 * when interrupted (the cell stays pending), -errno on a store error.
 */
static int run_cell(struct mx_run *r, json_object *cell, size_t idx, size_t cell_no, size_t ncells)
{
	struct lj_scenario_cell c;
	json_object *runs;
	char *reldir = mx_store_cell_dir(r, idx), *dir = NULL, what[1200], id[1024];
	char reason[512];
	int have, ret = 0;

	lj_scenario_cell(r->scn, idx, &c);
	lj_scenario_cell_id(r->scn, &c, id, sizeof(id));
	snprintf(what, sizeof(what), "%s%s%s%s", r->scn->workloads[c.workload].name,
		 *id ? " [" : "", id, *id ? "]" : "");
	if (!reldir || asprintf(&dir, "%s/%s", r->dir, reldir) < 0) {
		ret = -ENOMEM;
		goto out;
	}
	ret = mx_mkdirs(dir);
	if (ret) {
		lj_error_errno(ret, "cannot create %s", dir);
		goto out;
	}
	if (!json_object_object_get_ex(cell, "runs", &runs)) {
		runs = json_object_new_array();
		json_object_object_add(cell, "runs", runs);
	}
	have = (int)json_object_array_length(runs);

	for (int i = 1; i <= r->scn->warmup + r->scn->repeat - have; i++) {
		bool warm = i <= r->scn->warmup;
		int run_no = warm ? i : have + i - r->scn->warmup;
		char *json = warm ? path_in(r, reldir, ".warmup-", i, ".json") :
				    path_in(r, reldir, "run-", run_no, ".json");
		char *log = warm ? path_in(r, reldir, "warmup-", i, ".log") :
				   path_in(r, reldir, "run-", run_no, ".log");
		char *setup = warm ? NULL : path_in(r, reldir, "run-", run_no, ".setup.json");
		struct mx_outcome o;
		json_object *doc = NULL, *rec;
		const char *why = NULL;

		if (!json || !log || (!warm && !setup)) {
			free(json);
			free(log);
			free(setup);
			ret = -ENOMEM;
			goto out;
		}
		mx_progress(r, cell_no, ncells, what, warm ? i : run_no,
			    warm ? r->scn->warmup : r->scn->repeat, warm);
		/* leftovers from an interrupted attempt are not this run's */
		unlink(json);
		if (setup)
			unlink(setup);
		ret = mx_exec_run(r, &c, json, setup, log, run_no, warm, &o);
		r->runs_done++;
		if (!ret && o.interrupted) {
			unlink(json);
			ret = -EINTR;
		}
		if (!ret && !o.reason[0] && o.exit_code != 0 && o.exit_code != LJ_EXIT_THRESHOLD)
			snprintf(o.reason, sizeof(o.reason), "exit status %d", o.exit_code);
		if (!ret && !o.reason[0] && lj_result_read(json, &doc, &why))
			snprintf(o.reason, sizeof(o.reason), "no valid result in %s: %s",
				 json + strlen(r->dir) + 1, why ? why : strerror(errno));
		if (warm)
			unlink(json);
		else if (!ret && !o.reason[0] && r->scn->nwatch && merge_watch(r, json, setup, doc))
			snprintf(o.reason, sizeof(o.reason), "no watch counts merged into %s",
				 json + strlen(r->dir) + 1);
		if (!ret && o.reason[0]) {
			snprintf(reason, sizeof(reason), "%s %d: %s", warm ? "warmup" : "run",
				 warm ? i : run_no, o.reason);
			set_state(cell, "failed", reason);
			mx_progress_end(r);
			lj_warn("%s: %s", what, reason);
		} else if (!ret && !warm) {
			rec = json_object_new_object();
			json_object_object_add(rec, "run", json_object_new_int(run_no));
			json_object_object_add(rec, "file", json_object_new_string(json + strlen(r->dir) + 1));
			json_object_object_add(rec, "log", json_object_new_string(log + strlen(r->dir) + 1));
			if (!access(setup, F_OK))
				json_object_object_add(rec, "setup_file",
						       json_object_new_string(setup + strlen(r->dir) + 1));
			json_object_object_add(rec, "exit_code", json_object_new_int(o.exit_code));
			json_object_object_add(rec, "duration_ns", json_object_new_int64(o.duration_ns));
			json_object_array_add(runs, rec);
			ret = mx_store_save(r);
		}
		json_object_put(doc);
		free(json);
		free(log);
		free(setup);
		if (ret || !strcmp(cell_state(cell), "failed"))
			goto out;
	}
	set_state(cell, "done", NULL);
out:
	free(reldir);
	free(dir);
	return ret;
}

int mx_run_all(struct mx_run *r)
{
	size_t n = lj_scenario_ncells(r->scn), done = 0, failed = 0, skipped = 0;
	size_t *order = calloc(n, sizeof(*order));
	struct mx_probe *p = mx_probe_new();
	int ret = 0, code;

	if (!order || !p) {
		free(order);
		mx_probe_free(p);
		return LJ_EXIT_RUNTIME;
	}
	lj_scenario_run_order(r->scn, r->scn->seed, order, n);
	/* Skips first: the machine does not change, and the ETA then counts only real runs. */
	for (size_t i = 0; i < n; i++) {
		json_object *cell = json_object_array_get_idx(r->cells, i), *runs;
		struct lj_scenario_cell c;
		const char *why;

		if (strcmp(cell_state(cell), "pending"))
			continue;
		lj_scenario_cell(r->scn, i, &c);
		why = mx_probe_cell(p, r, &c);
		if (why) {
			set_state(cell, "skipped", why);
			lj_info("cell %zu skipped: %s", i + 1, why);
			continue;
		}
		r->runs_total += r->scn->warmup + r->scn->repeat;
		if (json_object_object_get_ex(cell, "runs", &runs))
			r->runs_total -= json_object_array_length(runs);
	}
	ret = mx_store_save(r);
	if (ret)
		lj_error_errno(ret, "cannot write %s/manifest.json", r->dir);
	r->t0_ns = lj_now_ns();
	for (size_t k = 0; k < n && !ret; k++) {
		json_object *cell = json_object_array_get_idx(r->cells, order[k]);

		if (mx_exec_pending_stop(r)) {
			ret = -EINTR;
			break;
		}
		if (strcmp(cell_state(cell), "pending"))
			continue;
		ret = run_cell(r, cell, order[k], k + 1, n);
		if (ret != -EINTR) {
			int sret = mx_store_save(r);

			if (sret) {
				lj_error_errno(sret, "cannot write %s/manifest.json", r->dir);
				ret = sret;
			}
		}
	}
	mx_progress_end(r);
	for (size_t i = 0; i < n; i++) {
		const char *st = cell_state(json_object_array_get_idx(r->cells, i));

		done += !strcmp(st, "done");
		failed += !strcmp(st, "failed");
		skipped += !strcmp(st, "skipped");
	}
	mx_store_finish(r, ret == -EINTR ? "interrupted" : ret ? "error" : "complete");
	code = mx_store_save(r);
	if (code)
		lj_error_errno(code, "cannot write %s/manifest.json", r->dir);
	free(order);
	mx_probe_free(p);

	if (ret == -EINTR) {
		lj_error("interrupted: %zu of %zu cells finished; continue with: lj-matrix --resume %s",
			 done + failed + skipped, n, r->dir);
		return LJ_EXIT_RUNTIME;
	}
	if (ret || code)
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
