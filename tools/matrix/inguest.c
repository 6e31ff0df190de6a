// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inguest - lj-matrix --guest-job FILE, the lj-matrix a kernel axis's
 * guest runs (guest.c writes FILE): the cells it was given, probed and
 * run here as on any machine (the setup stack, its journal and its
 * restore are the guest's), their files written into the run directory
 * shared at the same path, their events (progress.jsonl's lines) into
 * the exchange share for the host's lj-matrix, the store's one writer.
 */
#include "matrix.h"
#include "lj_err.h"
#include "lj_result.h"
#include "lj_time.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* The job's cells at their indices; the others stay NULL (not this guest's). */
static int place_cells(struct mx_run *r, json_object *job)
{
	json_object *cells, *v;
	size_t n = lj_scenario_ncells(r->scn);

	if (!json_object_object_get_ex(job, "cells", &cells) || !json_object_is_type(cells, json_type_array))
		return -EINVAL;
	r->cells = json_object_new_array_ext((int)n);
	r->manifest = json_object_new_object();
	json_object_object_add(r->manifest, "cells", r->cells);
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i);
		int64_t idx = json_object_object_get_ex(c, "index", &v) ? json_object_get_int64(v) : -1;

		if (idx < 0 || (size_t)idx >= n || !json_object_object_get_ex(c, "runs", &v))
			return -EINVAL;
		json_object_array_put_idx(r->cells, (size_t)idx, json_object_get(c));
	}
	return 0;
}

static int read_job(struct mx_run *r, json_object **job)
{
	const char *dir, *events;
	char why[256];
	json_object *scn, *v;
	int ret = lj_json_read(r->cfg->guest_job, LJ_MANIFEST_MAX_BYTES, job, why, sizeof(why));

	if (ret) {
		lj_error("--guest-job %s: %s", r->cfg->guest_job, why[0] ? why : lj_strerror(ret));
		return LJ_EXIT_USAGE;
	}
	dir = str(*job, "dir");
	events = str(*job, "events");
	if (!dir || !events || !json_object_object_get_ex(*job, "scenario", &scn)) {
		lj_error("--guest-job %s: not a job of lj-matrix's", r->cfg->guest_job);
		return LJ_EXIT_USAGE;
	}
	r->dir = strdup(dir);
	ret = r->dir ? mx_store_scenario(r, scn) : LJ_EXIT_RUNTIME;
	if (!ret)
		ret = mx_cell_names(r);	/* the host's names: the same scenario gives the same */
	if (ret)
		return ret;
	if (json_object_object_get_ex(*job, "timeout_ns", &v))
		r->cfg->timeout_ns = json_object_get_int64(v);
	if (place_cells(r, *job)) {
		lj_error("--guest-job %s: its cells are not the scenario's", r->cfg->guest_job);
		return LJ_EXIT_USAGE;
	}
	r->log_fd = open(events, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (r->log_fd < 0) {
		lj_error_errno(-errno, "cannot open %s", events);
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

/* The first word to the host: this lj-matrix runs, under this kernel. */
static void hello(struct mx_run *r)
{
	struct utsname u;
	char line[512];
	int n;

	uname(&u);
	n = snprintf(line, sizeof(line), "{\"hello\":{\"release\":\"%.200s\",\"pid\":%ld}}\n", u.release, (long)getpid());
	if (write(r->log_fd, line, (size_t)n) != n)
		lj_warn_errno(-errno, "cannot tell the host");
}

/* Skips first, as on the host: the ETA then counts real runs. */
static void probe_cells(struct mx_run *r, json_object *cells)
{
	struct mx_probe *p = mx_probe_new();

	for (size_t i = 0; p && i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i), *v;
		size_t idx = (size_t)(json_object_object_get_ex(c, "index", &v) ? json_object_get_int64(v) : 0);
		struct lj_scenario_cell cell;
		const char *why;

		lj_scenario_cell(r->scn, idx, &cell);
		why = mx_probe_cell(p, r, &cell);
		if (why)
			mx_log_state(r, idx, "skipped", why, true);
		else if (json_object_object_get_ex(c, "runs", &v))
			r->runs_total += r->scn->warmup + r->scn->repeat - json_object_array_length(v);
	}
	mx_probe_free(p);
}

int mx_guest_inner(struct mx_run *r)
{
	json_object *job = NULL, *cells;
	size_t n, failed = 0;
	int ret = read_job(r, &job);

	r->in_guest = true;
	if (ret)
		goto out;
	hello(r);
	r->t0_ns = lj_now_ns();
	mx_exec_block_signals(r);
	json_object_object_get_ex(job, "cells", &cells);
	probe_cells(r, cells);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n && !ret; i++) {
		json_object *c = json_object_array_get_idx(cells, i), *v;
		size_t idx = (size_t)(json_object_object_get_ex(c, "index", &v) ? json_object_get_int64(v) : 0);
		const char *st = mx_cell_state(c);

		if (!strcmp(st, "pending") || !strcmp(st, "running"))
			ret = mx_run_cell(r, c, idx, i + 1, n);
		failed += !strcmp(mx_cell_state(c), "failed");
	}
	mx_progress_end(r);
	/* the guest's log: what this lj-matrix cost beyond its runs (scripts/bench-guest reads it) */
	if (lj_err_verbosity() >= 0 && r->runs_done)
		fprintf(stderr, "%s: %zu runs in %.3f s, their workloads %.3f s: %.1f ms per run of lj-matrix's own\n",
			lj_prog(), r->runs_done, (double)(lj_now_ns() - r->t0_ns) / LJ_NSEC_PER_SEC,
			(double)r->workload_ns / LJ_NSEC_PER_SEC,
			(double)(lj_now_ns() - r->t0_ns - r->workload_ns) / (double)r->runs_done / LJ_NSEC_PER_MSEC);
	ret = ret ? LJ_EXIT_RUNTIME : failed ? LJ_EXIT_RUNTIME : LJ_EXIT_OK;
out:
	json_object_put(job);
	return ret;
}
