// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * storelog - the run's progress without rewriting the manifest per run:
 * each event (a run starting, a run recorded, a cell finished) is one
 * JSON line appended to RUNDIR/progress.jsonl, and the manifest is
 * rewritten from memory ("compacted", the log then emptied) only when
 * that costs at most a twentieth of the time since the last rewrite,
 * and at the end. --resume replays the log onto the manifest.
 */
#include "matrix.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_readall.h"
#include "lj_result.h"
#include "lj_time.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_NAME	"progress.jsonl"
#define COMPACT_SHARE	20	/* compaction may take 1/20 of the wall time */

int mx_log_open(struct mx_run *r)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/" LOG_NAME, r->dir);
	r->log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	return r->log_fd < 0 ? -errno : 0;
}

void mx_log_close(struct mx_run *r)
{
	if (r->log_fd > 0)
		close(r->log_fd);
	r->log_fd = -1;
}

/* One event as one line in one write(2); @sync for what must survive a power cut. */
static int append(struct mx_run *r, json_object *ev, bool sync)
{
	const char *text = json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE);
	char *line = NULL;
	int n, ret = 0;

	if (!text || (n = asprintf(&line, "%s\n", text)) < 0)
		return -ENOMEM;
	/* in a guest the events go to the host's lj-matrix, which syncs them into its store */
	if (write(r->log_fd, line, n) != n)
		ret = errno ? -errno : -EIO;
	else if (sync && !r->in_guest && fdatasync(r->log_fd))
		ret = -errno;
	free(line);
	return ret;
}

static json_object *event(size_t cell)
{
	json_object *ev = json_object_new_object();

	json_object_object_add(ev, "cell", lj_json_int((int64_t)cell));
	return ev;
}

/* The cell's state in memory and, when @log, in the progress log. */
int mx_log_state(struct mx_run *r, size_t cell, const char *state, const char *reason, bool log)
{
	json_object *c = json_object_array_get_idx(r->cells, cell), *ev;
	int ret = 0;

	json_object_object_add(c, "state", json_object_new_string(state));
	json_object_object_add(c, "reason", reason ? json_object_new_string(reason) : json_object_new_null());
	json_object_object_del(c, "running");
	if (!log)
		return 0;
	ev = event(cell);
	json_object_object_add(ev, "state", json_object_new_string(state));
	json_object_object_add(ev, "reason", reason ? json_object_new_string(reason) : json_object_new_null());
	ret = append(r, ev, true);
	json_object_put(ev);
	return ret;
}

/* Before a run starts: "running" with the run, so --resume knows what was cut short. */
int mx_log_start(struct mx_run *r, size_t cell, int run_no, bool warmup)
{
	json_object *c = json_object_array_get_idx(r->cells, cell), *ev, *run;
	int ret;

	run = json_object_new_object();
	json_object_object_add(run, "run", lj_json_int(run_no));
	json_object_object_add(run, "warmup", json_object_new_boolean(warmup));
	json_object_object_add(c, "state", json_object_new_string("running"));
	json_object_object_add(c, "running", run);
	ev = event(cell);
	json_object_object_add(ev, "start", json_object_get(run));
	/* no fsync: a power cut kills the workload too, and SIGKILL keeps the page cache */
	ret = append(r, ev, false);
	json_object_put(ev);
	return ret;
}

/* A measured run recorded: appended to the cell's runs and to the log. */
int mx_log_run(struct mx_run *r, size_t cell, json_object *rec)
{
	json_object *c = json_object_array_get_idx(r->cells, cell), *runs, *ev;
	int ret;

	if (!json_object_object_get_ex(c, "runs", &runs)) {
		runs = json_object_new_array();
		json_object_object_add(c, "runs", runs);
	}
	json_object_array_add(runs, json_object_get(rec));
	ev = event(cell);
	json_object_object_add(ev, "run", rec);
	ret = append(r, ev, true);
	json_object_put(ev);
	return ret;
}

/*
 * Rewrite the manifest from memory and empty the log, when @force or
 * when the last rewrite's cost is at most 1/COMPACT_SHARE of the time
 * since: the overhead per run stays flat as the matrix grows, and small
 * matrices still get a fresh manifest after nearly every run.
 */
int mx_store_sync(struct mx_run *r, bool force)
{
	char path[4096];
	int64_t t0 = lj_now_ns();
	int ret;

	if (r->in_guest || (!force && t0 - r->compact_end_ns < r->compact_cost_ns * COMPACT_SHARE))
		return 0;
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	ret = lj_json_write_atomic(r->manifest, path);
	/* the manifest now holds every event: the log starts over (replay is idempotent anyway) */
	if (!ret && r->log_fd > 0 && ftruncate(r->log_fd, 0))
		ret = -errno;
	r->compact_end_ns = lj_now_ns();
	r->compact_cost_ns = r->compact_end_ns - t0;
	return ret;
}

static bool get_index(json_object *ev, size_t n, size_t *cell)
{
	json_object *v;
	int64_t i;

	if (!json_object_object_get_ex(ev, "cell", &v) || !json_object_is_type(v, json_type_int))
		return false;
	i = json_object_get_int64(v);
	if (i < 0 || (uint64_t)i >= n)
		return false;
	*cell = (size_t)i;
	return true;
}

/* Apply one logged event; false when it is not one lj-matrix writes. */
static bool apply(struct mx_run *r, json_object *ev)
{
	size_t cell, n = json_object_array_length(r->cells);
	json_object *c, *v, *runs, *num;

	if (!json_object_is_type(ev, json_type_object) || !get_index(ev, n, &cell))
		return false;
	c = json_object_array_get_idx(r->cells, cell);
	if (json_object_object_get_ex(ev, "start", &v) && json_object_is_type(v, json_type_object)) {
		json_object_object_add(c, "state", json_object_new_string("running"));
		json_object_object_add(c, "running", json_object_get(v));
		return true;
	}
	if (json_object_object_get_ex(ev, "run", &v) && json_object_is_type(v, json_type_object) &&
	    json_object_object_get_ex(v, "run", &num) && json_object_is_type(num, json_type_int)) {
		if (!json_object_object_get_ex(c, "runs", &runs) || !json_object_is_type(runs, json_type_array))
			return false;
		/* a run the manifest already has (compacted before the log was emptied) */
		if (json_object_get_int(num) == (int)json_object_array_length(runs) + 1)
			json_object_array_add(runs, json_object_get(v));
		return true;
	}
	if (json_object_object_get_ex(ev, "state", &v) && json_object_is_type(v, json_type_string)) {
		json_object *why = NULL;

		json_object_object_get_ex(ev, "reason", &why);
		json_object_object_add(c, "state", json_object_get(v));
		json_object_object_add(c, "reason", why ? json_object_get(why) : json_object_new_null());
		json_object_object_del(c, "running");
		return true;
	}
	return false;
}

int mx_log_forward(struct mx_run *r, json_object *ev)
{
	bool durable = json_object_object_get_ex(ev, "run", NULL) || json_object_object_get_ex(ev, "state", NULL);
	int ret;

	if (!apply(r, ev))
		return 0;
	ret = append(r, ev, durable);
	return ret ? ret : 1;
}

/*
 * --resume: the events logged since the last compaction, onto the
 * manifest read back. A last line without its newline is a write cut
 * short by the kill and is ignored. Return: 0 or an exit code.
 */
int mx_log_replay(struct mx_run *r)
{
	char path[4096], *text, *line, *next, why[256];
	size_t len, bad = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/" LOG_NAME, r->dir);
	ret = lj_readall(path, LJ_MANIFEST_MAX_BYTES, &text, &len, why, sizeof(why));
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		lj_error("cannot resume %s: %s: %s", r->dir, LOG_NAME, why[0] ? why : lj_strerror(ret));
		return ret == -ENOMEM ? LJ_EXIT_RUNTIME : LJ_EXIT_USAGE;
	}
	for (line = text; (next = strchr(line, '\n')); line = next + 1) {
		json_object *ev;

		*next = '\0';
		ev = json_tokener_parse(line);
		bad += !apply(r, ev);
		json_object_put(ev);
	}
	free(text);
	if (bad)
		lj_warn("%s/%s: %zu lines that are not lj-matrix events ignored", r->dir, LOG_NAME, bad);
	return 0;
}
