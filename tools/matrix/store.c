// SPDX-License-Identifier: GPL-2.0-or-later
/* store - the results store: run ids, run directories and the manifest. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_result.h"
#include "lj_sysinfo.h"
#include "lj_time.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MANIFEST_SCHEMA "ljkit-manifest/1"

int mx_mkdirs(const char *path)
{
	char *p = strdup(path);
	int ret = 0;

	if (!p)
		return -ENOMEM;
	for (char *c = p + 1;; c++) {
		if (*c != '/' && *c)
			continue;
		char save = *c;

		*c = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			ret = -errno;
			break;
		}
		*c = save;
		if (!save)
			break;
	}
	free(p);
	return ret;
}

/*
 * A store in a directory anyone may write to, without the sticky bit,
 * lets another user rename the run directory away and put theirs, with
 * links in it, in its place.
 */
static int check_store_dir(const char *out)
{
	struct stat st;

	if (stat(out, &st)) {
		lj_error_errno(-errno, "cannot use %s", out);
		return LJ_EXIT_RUNTIME;
	}
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		lj_error("%s is writable by anyone and not sticky (mode %04o): choose another --out", out,
			 (unsigned)(st.st_mode & 07777));
		return LJ_EXIT_USAGE;
	}
	return 0;
}

const char *mx_cell_state(json_object *cell)
{
	json_object *v;

	return json_object_object_get_ex(cell, "state", &v) ? json_object_get_string(v) : "pending";
}

static char *now_iso(char *buf, size_t len)
{
	lj_iso8601_utc(time(NULL), buf, len);
	return buf;
}

static json_object *cell_json(struct mx_run *r, size_t i)
{
	const struct lj_scenario *s = r->scn;
	struct lj_scenario_cell c;
	json_object *o = json_object_new_object(), *axes = json_object_new_object();
	char id[1024];
	char *cmd;

	lj_scenario_cell(s, i, &c);
	lj_scenario_cell_id(s, &c, id, sizeof(id));
	cmd = lj_scenario_command(s, &c);
	for (int a = 0; a < s->naxes; a++)
		json_object_object_add(axes, s->axes[a].name,
				       json_object_new_string(s->axes[a].values[c.value[a]]));
	json_object_object_add(o, "index", lj_json_int(i));
	json_object_object_add(o, "workload", json_object_new_string(s->workloads[c.workload].name));
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "axes", axes);
	json_object_object_add(o, "command", lj_json_str(cmd));
	json_object_object_add(o, "state", json_object_new_string("pending"));
	json_object_object_add(o, "reason", json_object_new_null());
	json_object_object_add(o, "runs", json_object_new_array());
	free(cmd);
	return o;
}

json_object *mx_store_scenario_json(struct mx_run *r)
{
	json_object *o = json_object_new_object(), *axes = json_object_new_array();
	json_object *over = json_object_new_array();
	const struct lj_scenario *s = r->scn;

	/* the --axis values, in the order they were applied: --resume applies them again */
	if (r->env_kernels)
		json_object_array_add(over, json_object_new_string(r->env_kernels));
	for (int i = 0; i < r->cfg->naxes; i++)
		json_object_array_add(over, json_object_new_string(r->cfg->axes[i]));
	json_object_object_add(o, "overrides", over);
	for (int a = 0; a < s->naxes; a++) {
		json_object *ax = json_object_new_object(), *vals = json_object_new_array();

		for (int v = 0; v < s->axes[a].nvalues; v++)
			json_object_array_add(vals, json_object_new_string(s->axes[a].values[v]));
		json_object_object_add(ax, "name", json_object_new_string(s->axes[a].name));
		json_object_object_add(ax, "values", vals);
		json_object_array_add(axes, ax);
	}
	json_object_object_add(o, "path", json_object_new_string(s->path));
	json_object_object_add(o, "text", json_object_new_string(s->text));
	json_object_object_add(o, "repeat", lj_json_int(s->repeat));
	json_object_object_add(o, "warmup", lj_json_int(s->warmup));
	json_object_object_add(o, "order", json_object_new_string(
		s->order == LJ_SCENARIO_RANDOM ? "random" : "sequential"));
	json_object_object_add(o, "seed", lj_json_uint(s->seed));
	json_object_object_add(o, "axes", axes);
	return o;
}

int mx_store_create(struct mx_run *r)
{
	struct utsname u;
	char stamp[32], id[512], iso[32];
	size_t n = lj_scenario_ncells(r->scn);
	json_object *m, *cells, *sys;
	struct tm tm;
	time_t t = time(NULL);
	int ret;

	uname(&u);
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	/* host_release_time[_tag]: sorts by time within a host and kernel. */
	snprintf(id, sizeof(id), "%s_%s_%s%s%s", u.nodename, u.release, stamp,
		 r->cfg->tag ? "_" : "", r->cfg->tag ? r->cfg->tag : "");
	mx_sanitise(id);
	if (asprintf(&r->dir, "%s/%s", r->cfg->out, id) < 0)
		return -ENOMEM;
	ret = mx_mkdirs(r->cfg->out);
	if (ret) {
		lj_error_errno(ret, "cannot create %s", r->cfg->out);
		return LJ_EXIT_RUNTIME;
	}
	ret = check_store_dir(r->cfg->out);
	if (ret)
		return ret;
	/* Two runs in the same second with the same tag get a suffix, never share a dir. */
	for (int k = 2; mkdir(r->dir, 0755); k++) {
		if (errno != EEXIST || k > 99) {
			lj_error_errno(-errno, "cannot create %s", r->dir);
			return LJ_EXIT_RUNTIME;
		}
		free(r->dir);
		if (asprintf(&r->dir, "%s/%s.%d", r->cfg->out, id, k) < 0)
			return -ENOMEM;
	}

	ret = mx_guard_lock(r);
	if (ret)
		return ret;
	mx_guard_record(r);
	ret = mx_log_open(r);
	if (ret) {
		lj_error_errno(ret, "cannot create %s/progress.jsonl", r->dir);
		return LJ_EXIT_RUNTIME;
	}
	m = json_object_new_object();
	json_object_object_add(m, "schema", json_object_new_string(MANIFEST_SCHEMA));
	json_object_object_add(m, "run_id", json_object_new_string(strrchr(r->dir, '/') + 1));
	json_object_object_add(m, "tag", lj_json_str(r->cfg->tag));
	json_object_object_add(m, "host", json_object_new_string(u.nodename));
	json_object_object_add(m, "kernel", json_object_new_string(u.release));
	json_object_object_add(m, "tool_version", json_object_new_string(LJ_VERSION));
	json_object_object_add(m, "start", json_object_new_string(now_iso(iso, sizeof(iso))));
	json_object_object_add(m, "end", json_object_new_null());
	json_object_object_add(m, "state", json_object_new_string("running"));
	json_object_object_add(m, "scenario", mx_store_scenario_json(r));
	sys = getenv("LJ_RESULT_NO_SYSINFO") ? NULL : lj_sysinfo_collect();
	json_object_object_add(m, "system", sys ? sys : json_object_new_object());
	cells = json_object_new_array_ext(n);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(cells, cell_json(r, i));
	json_object_object_add(m, "cells", cells);
	r->manifest = m;
	r->cells = cells;
	ret = mx_kernels_resolve(r);
	if (ret)
		return ret;
	ret = mx_store_sync(r, true);
	if (ret) {
		lj_error_errno(ret, "cannot write %s/manifest.json", r->dir);
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

void mx_store_finish(struct mx_run *r, const char *state)
{
	char iso[32];

	json_object_object_add(r->manifest, "state", json_object_new_string(state));
	json_object_object_add(r->manifest, "end", json_object_new_string(now_iso(iso, sizeof(iso))));
}

/* The manifest of @r->dir, checked for its schema; *@scn gets its "scenario". */
static int read_manifest(struct mx_run *r, json_object **scn)
{
	char path[4096], why[256];
	json_object *m, *v;
	int ret;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	ret = lj_json_read(path, LJ_MANIFEST_MAX_BYTES, &m, why, sizeof(why));
	if (ret) {
		lj_error("cannot resume %s: manifest.json: %s", r->dir, why[0] ? why : lj_strerror(ret));
		return ret == -ENOMEM ? LJ_EXIT_RUNTIME : LJ_EXIT_USAGE;
	}
	if (!json_object_object_get_ex(m, "schema", &v) ||
	    strcmp(json_object_get_string(v), MANIFEST_SCHEMA) ||
	    !json_object_object_get_ex(m, "scenario", scn) ||
	    !json_object_object_get_ex(*scn, "text", &v) || !json_object_is_type(v, json_type_string) ||
	    !json_object_object_get_ex(m, "cells", &r->cells) ||
	    !json_object_is_type(r->cells, json_type_array)) {
		json_object_put(m);
		r->cells = NULL;
		lj_error("cannot resume %s: manifest.json is not an " MANIFEST_SCHEMA " manifest", r->dir);
		return LJ_EXIT_USAGE;
	}
	r->manifest = m;
	return 0;
}

/* The --axis values the run was started with, applied again in their order. */
static int apply_overrides(struct mx_run *r, json_object *scn)
{
	json_object *over;
	char err[1024];

	if (!json_object_object_get_ex(scn, "overrides", &over) || !json_object_is_type(over, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(over); i++) {
		const char *spec = json_object_get_string(json_object_array_get_idx(over, i)), *eq;
		char name[128];

		if (!spec || !(eq = strchr(spec, '=')) || eq == spec) {
			lj_error("%s: manifest.json: overrides: '%s' is not NAME=VALUES", r->dir, spec ? spec : "null");
			return LJ_EXIT_USAGE;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
		if (lj_scenario_set_axis(r->scn, name, eq + 1, err, sizeof(err))) {
			lj_error("%s: manifest.json: %s", r->dir, err);
			return LJ_EXIT_USAGE;
		}
	}
	return 0;
}

/* The scenario as the run started it (its text, overrides included). */
int mx_store_scenario(struct mx_run *r, json_object *scn)
{
	char err[512];
	json_object *v;
	const char *spath;
	int ret;

	spath = json_object_object_get_ex(scn, "path", &v) && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : "manifest";
	if (!json_object_object_get_ex(scn, "text", &v) || !json_object_is_type(v, json_type_string) ||
	    lj_scenario_parse(spath, json_object_get_string(v), &r->scn, err, sizeof(err))) {
		lj_error("cannot resume %s: %s", r->dir, v ? err : "no scenario text");
		return LJ_EXIT_USAGE;
	}
	ret = apply_overrides(r, scn);
	if (ret)
		return ret;
	if (json_object_object_get_ex(scn, "repeat", &v))
		r->scn->repeat = json_object_get_int(v);
	if (json_object_object_get_ex(scn, "warmup", &v))
		r->scn->warmup = json_object_get_int(v);
	if (json_object_object_get_ex(scn, "seed", &v)) {
		r->scn->seed = json_object_get_uint64(v);
		r->scn->seed_set = true;
	}
	if (r->cells && json_object_array_length(r->cells) != lj_scenario_ncells(r->scn)) {
		lj_error("cannot resume %s: manifest has %zu cells, its scenario %zu", r->dir,
			 json_object_array_length(r->cells), lj_scenario_ncells(r->scn));
		return LJ_EXIT_USAGE;
	}
	return 0;
}

/* Temporary files a killed workload left in a cell directory (run-1.json.tmp.PID, ...). */
static void clean_cell_dir(struct mx_run *r, size_t cell)
{
	char *rel = mx_store_cell_dir(r, cell), *dir = NULL;
	struct dirent *e;
	DIR *d;

	if (!rel || asprintf(&dir, "%s/%s", r->dir, rel) < 0 || !(d = opendir(dir))) {
		free(rel);
		free(dir);
		return;
	}
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".tmp") && e->d_type == DT_REG)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	free(rel);
	free(dir);
}

/*
 * A cell still "running" after the replay was cut short by a kill: say
 * so, clear what its run left behind and make it pending again (its
 * recorded runs stay; the interrupted one runs again from the start).
 */
static void requeue_interrupted(struct mx_run *r)
{
	size_t n = json_object_array_length(r->cells);

	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(r->cells, i), *v, *run, *num;

		if (!json_object_object_get_ex(c, "state", &v) ||
		    strcmp(json_object_get_string(v), "running"))
			continue;
		if (json_object_object_get_ex(c, "running", &run) &&
		    json_object_object_get_ex(run, "run", &num))
			lj_warn("cell %zu was interrupted in its %s %d (lj-matrix was killed): running it again",
				i + 1, json_object_object_get_ex(run, "warmup", &v) &&
				json_object_get_boolean(v) ? "warmup" : "run", json_object_get_int(num));
		clean_cell_dir(r, i);
		mx_log_state(r, i, "pending", NULL, false);
	}
}

/* --resume: the scenario comes back from the manifest, so the run continues what it started. */
int mx_store_open(struct mx_run *r)
{
	json_object *scn;
	int ret = mx_guard_check_dir(r->cfg->resume);

	if (ret)
		return ret;
	r->dir = strdup(r->cfg->resume);
	if (!r->dir)
		return LJ_EXIT_RUNTIME;
	ret = mx_guard_lock(r);
	if (!ret)
		ret = read_manifest(r, &scn);
	if (!ret)
		ret = mx_store_scenario(r, scn);
	if (!ret)
		ret = mx_kernels_load(r);
	if (!ret)
		ret = mx_cell_names(r);
	if (!ret)
		ret = mx_log_replay(r);
	if (ret)
		return ret;
	mx_guard_record(r);
	requeue_interrupted(r);
	mx_guard_clean_tmp(r);
	ret = mx_log_open(r);
	if (ret) {
		lj_error_errno(ret, "cannot open %s/progress.jsonl", r->dir);
		return LJ_EXIT_RUNTIME;
	}
	json_object_object_add(r->manifest, "state", json_object_new_string("running"));
	json_object_object_add(r->manifest, "end", json_object_new_null());
	return 0;
}

/* <workload>/<cell name>: one directory per cell holding its runs' JSON and logs (cellname.c). */
char *mx_store_cell_dir(struct mx_run *r, size_t i)
{
	struct lj_scenario_cell c;
	char *out;

	if (i >= r->ncellnames || lj_scenario_cell(r->scn, i, &c))
		return NULL;
	if (asprintf(&out, "%s/%s", r->scn->workloads[c.workload].name, r->cellnames[i]) < 0)
		return NULL;
	return out;
}
