// SPDX-License-Identifier: GPL-2.0-or-later
/* store - the results store: run ids, run directories and the manifest. */
#include "matrix.h"
#include "lj_err.h"
#include "lj_result.h"
#include "lj_sysinfo.h"
#include "lj_time.h"

#include <ctype.h>
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

/* Keep a name usable as one path component: letters, digits, - _ . = , : + */
static void sanitise(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.=,:+", *s))
			*s = '_';
}

static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : json_object_new_null();
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
	json_object_object_add(o, "index", json_object_new_int64(i));
	json_object_object_add(o, "workload", json_object_new_string(s->workloads[c.workload].name));
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "axes", axes);
	json_object_object_add(o, "command", jstr(cmd));
	json_object_object_add(o, "state", json_object_new_string("pending"));
	json_object_object_add(o, "reason", json_object_new_null());
	json_object_object_add(o, "runs", json_object_new_array());
	free(cmd);
	return o;
}

static json_object *scenario_json(struct mx_run *r)
{
	json_object *o = json_object_new_object(), *axes = json_object_new_array();
	const struct lj_scenario *s = r->scn;

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
	json_object_object_add(o, "repeat", json_object_new_int(s->repeat));
	json_object_object_add(o, "warmup", json_object_new_int(s->warmup));
	json_object_object_add(o, "order", json_object_new_string(
		s->order == LJ_SCENARIO_RANDOM ? "random" : "sequential"));
	json_object_object_add(o, "seed", json_object_new_uint64(s->seed));
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
	sanitise(id);
	if (asprintf(&r->dir, "%s/%s", r->cfg->out, id) < 0)
		return -ENOMEM;
	ret = mx_mkdirs(r->cfg->out);
	if (ret) {
		lj_error_errno(ret, "cannot create %s", r->cfg->out);
		return LJ_EXIT_RUNTIME;
	}
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

	m = json_object_new_object();
	json_object_object_add(m, "schema", json_object_new_string(MANIFEST_SCHEMA));
	json_object_object_add(m, "run_id", json_object_new_string(strrchr(r->dir, '/') + 1));
	json_object_object_add(m, "tag", jstr(r->cfg->tag));
	json_object_object_add(m, "host", json_object_new_string(u.nodename));
	json_object_object_add(m, "kernel", json_object_new_string(u.release));
	json_object_object_add(m, "tool_version", json_object_new_string(LJ_VERSION));
	json_object_object_add(m, "start", json_object_new_string(now_iso(iso, sizeof(iso))));
	json_object_object_add(m, "end", json_object_new_null());
	json_object_object_add(m, "state", json_object_new_string("running"));
	json_object_object_add(m, "scenario", scenario_json(r));
	sys = getenv("LJ_RESULT_NO_SYSINFO") ? NULL : lj_sysinfo_collect();
	json_object_object_add(m, "system", sys ? sys : json_object_new_object());
	cells = json_object_new_array_ext(n);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(cells, cell_json(r, i));
	json_object_object_add(m, "cells", cells);
	r->manifest = m;
	r->cells = cells;
	ret = mx_store_save(r);
	if (ret) {
		lj_error_errno(ret, "cannot write %s/manifest.json", r->dir);
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

int mx_store_save(struct mx_run *r)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	return lj_json_write_atomic(r->manifest, path);
}

void mx_store_finish(struct mx_run *r, const char *state)
{
	char iso[32];

	json_object_object_add(r->manifest, "state", json_object_new_string(state));
	json_object_object_add(r->manifest, "end", json_object_new_string(now_iso(iso, sizeof(iso))));
}

/* --resume: the scenario comes back from the manifest, so the run continues what it started. */
int mx_store_open(struct mx_run *r)
{
	char path[4096], err[512];
	json_object *m, *scn, *v;
	const char *text, *spath;
	int ret;

	r->dir = strdup(r->cfg->resume);
	if (!r->dir)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	m = json_object_from_file(path);
	if (!m) {
		const char *why = json_util_get_last_err();

		/* json-c's message ends in a newline: keep the error one line. */
		lj_error("cannot resume %s: no readable manifest.json (%.*s)", r->dir,
			 why ? (int)strcspn(why, "\n") : 1, why ? why : "?");
		return LJ_EXIT_USAGE;
	}
	if (!json_object_object_get_ex(m, "schema", &v) ||
	    strcmp(json_object_get_string(v), MANIFEST_SCHEMA) ||
	    !json_object_object_get_ex(m, "scenario", &scn) ||
	    !json_object_object_get_ex(scn, "text", &v) ||
	    !json_object_object_get_ex(m, "cells", &r->cells) ||
	    !json_object_is_type(r->cells, json_type_array)) {
		json_object_put(m);
		lj_error("cannot resume %s: manifest.json is not an " MANIFEST_SCHEMA " manifest", r->dir);
		return LJ_EXIT_USAGE;
	}
	text = json_object_get_string(v);
	spath = json_object_object_get_ex(scn, "path", &v) ? json_object_get_string(v) : "manifest";
	ret = lj_scenario_parse(spath, text, &r->scn, err, sizeof(err));
	if (ret) {
		json_object_put(m);
		lj_error("cannot resume %s: %s", r->dir, err);
		return LJ_EXIT_USAGE;
	}
	/* Settings as they were when the run started (overrides included). */
	if (json_object_object_get_ex(scn, "repeat", &v))
		r->scn->repeat = json_object_get_int(v);
	if (json_object_object_get_ex(scn, "warmup", &v))
		r->scn->warmup = json_object_get_int(v);
	if (json_object_object_get_ex(scn, "seed", &v)) {
		r->scn->seed = json_object_get_uint64(v);
		r->scn->seed_set = true;
	}
	if (json_object_array_length(r->cells) != lj_scenario_ncells(r->scn)) {
		lj_error("cannot resume %s: manifest has %zu cells, its scenario %zu", r->dir,
			 json_object_array_length(r->cells), lj_scenario_ncells(r->scn));
		json_object_put(m);	/* after the message: r->cells lives in it */
		r->cells = NULL;
		return LJ_EXIT_USAGE;
	}
	r->manifest = m;
	json_object_object_add(m, "state", json_object_new_string("running"));
	json_object_object_add(m, "end", json_object_new_null());
	return 0;
}

/* <workload>/<cell id>: one directory per cell holding its runs' JSON and logs. */
char *mx_store_cell_dir(struct mx_run *r, size_t i)
{
	struct lj_scenario_cell c;
	char id[1024], *out;

	lj_scenario_cell(r->scn, i, &c);
	if (lj_scenario_cell_id(r->scn, &c, id, sizeof(id)) <= 0)
		snprintf(id, sizeof(id), "default");
	sanitise(id);
	if (strlen(id) > 200)	/* NAME_MAX is 255: keep a readable prefix plus the index */
		snprintf(id + 180, sizeof(id) - 180, "...%zu", i);
	if (asprintf(&out, "%s/%s", r->scn->workloads[c.workload].name, id) < 0)
		return NULL;
	return out;
}
