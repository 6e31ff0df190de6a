// SPDX-License-Identifier: GPL-2.0-or-later
/* load - read run directories (manifest + result files) into per-set metric series. */
#include "compare.h"
#include "lj_err.h"
#include "lj_plan.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t hash_key(const char *w, const char *c, const char *m)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a over the three parts */
	const char *parts[3] = { w, c, m };

	for (int i = 0; i < 3; i++) {
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

static int grow_hash(struct cmp_data *d)
{
	size_t cap = d->hashcap ? d->hashcap * 2 : 256;
	size_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < d->nrows; i++) {
		struct cmp_row *r = d->rows[i];
		size_t k = hash_key(r->workload, r->cell, r->metric) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(d->hash);
	d->hash = h;
	d->hashcap = cap;
	return 0;
}

static struct cmp_row *find_row(struct cmp_data *d, const char *w, const char *c, const char *m,
				bool create)
{
	size_t k;
	struct cmp_row *r;

	if (d->nrows * 2 >= d->hashcap && grow_hash(d))
		return NULL;
	k = hash_key(w, c, m) & (d->hashcap - 1);
	while (d->hash[k]) {
		r = d->rows[d->hash[k] - 1];
		if (!strcmp(r->workload, w) && !strcmp(r->cell, c) && !strcmp(r->metric, m))
			return r;
		k = (k + 1) & (d->hashcap - 1);
	}
	if (!create)
		return NULL;
	if (d->nrows == d->caprows) {
		size_t cap = d->caprows ? d->caprows * 2 : 64;
		struct cmp_row **nr = realloc(d->rows, cap * sizeof(*nr));

		if (!nr)
			return NULL;
		d->rows = nr;
		d->caprows = cap;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->workload = strdup(w);
	r->cell = strdup(c);
	r->metric = strdup(m);
	if (!r->workload || !r->cell || !r->metric) {
		free(r->workload);
		free(r->cell);
		free(r->metric);
		free(r);
		return NULL;
	}
	d->rows[d->nrows++] = r;
	d->hash[k] = d->nrows;
	return r;
}

static int grow(double **a, size_t cap)
{
	double *na = realloc(*a, cap * sizeof(*na));

	if (!na)
		return -ENOMEM;
	*a = na;
	return 0;
}

/* One run's value (and, for a count metric, its events and exposure; NAN otherwise). */
static int add_point(struct cmp_data *d, int set, const char *workload, const char *cell,
		     const char *metric, const char *unit, enum lj_better better, double v,
		     double events, double exposure)
{
	struct cmp_row *r = find_row(d, workload, cell, metric, true);
	struct cmp_series *s;

	if (!r)
		return -ENOMEM;
	if (!r->unit[0]) {
		snprintf(r->unit, sizeof(r->unit), "%s", unit ? unit : "");
		r->better = better;
		r->is_count = !isnan(exposure);
	}
	s = &r->series[set];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;

		if (grow(&s->v, cap) || grow(&s->events, cap) || grow(&s->exposure, cap))
			return -ENOMEM;
		s->cap = cap;
	}
	s->events[s->n] = events;
	s->exposure[s->n] = exposure;
	s->v[s->n++] = v;
	return 0;
}

int cmp_add_count(struct cmp_data *d, int set, const char *workload, const char *cell,
		  const char *metric, const char *unit, enum lj_better better, double v,
		  double exposure)
{
	return add_point(d, set, workload, cell, metric, unit, better, v, v, exposure);
}

int cmp_add_rate(struct cmp_data *d, int set, const char *workload, const char *cell,
		 const char *metric, const char *unit, enum lj_better better, double rate,
		 double exposure)
{
	return add_point(d, set, workload, cell, metric, unit, better, rate, round(rate * exposure), exposure);
}

int cmp_add_value(struct cmp_data *d, int set, const char *workload, const char *cell,
		  const char *metric, const char *unit, enum lj_better better, double v)
{
	return add_point(d, set, workload, cell, metric, unit, better, v, NAN, NAN);
}

static bool metric_wanted(const struct cmp_config *cfg, const char *m)
{
	size_t len = strlen(m);

	if (!cfg->metrics)
		return true;
	for (const char *p = cfg->metrics; *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !strncmp(p, m, n))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* Remember @name among the metric names seen, for --metrics' message. */
static int note_name(struct cmp_data *d, const char *name)
{
	for (size_t i = 0; i < d->nnames; i++)
		if (!strcmp(d->names[i], name))
			return 0;
	if (d->nnames == d->capnames) {
		size_t cap = d->capnames ? d->capnames * 2 : 16;
		char **nn = realloc(d->names, cap * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		d->names = nn;
		d->capnames = cap;
	}
	d->names[d->nnames] = strdup(name);
	if (!d->names[d->nnames])
		return -ENOMEM;
	d->nnames++;
	return 0;
}

const char *cmp_missing_metric(const struct cmp_data *d, const struct cmp_config *cfg,
			       char *buf, size_t len)
{
	if (!cfg->metrics)
		return NULL;
	for (const char *p = cfg->metrics; *p;) {
		size_t n = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < d->nnames && !found; i++)
			found = strlen(d->names[i]) == n && !strncmp(d->names[i], p, n);
		if (!found && n) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return buf;
		}
		p += n + (p[n] == ',');
	}
	return NULL;
}

/* One summary value; a count metric is stored with its exposure (counts.c). */
static int add_metric(struct cmp_data *d, int set, const char *workload, const char *cell,
		      const char *name, json_object *doc, const char *unit, enum lj_better better,
		      double v)
{
	const char *of = NULL;
	double exposure = 1;
	json_object *sum = NULL, *m, *ev;
	bool scaled = false;

	json_object_object_get_ex(doc, "summary", &sum);
	if (!cmp_count_metric(name, unit, better, &of, &scaled)) {
		double q = lj_plan_metric_quantile(name);
		int ret = cmp_add_value(d, set, workload, cell, name, unit, better, v);
		struct cmp_row *r = ret || !(q > 0 && q < 1) ? NULL : find_row(d, workload, cell, name, false);

		/* a tail quantile remembers how many samples its runs had (plan.c) */
		if (r)
			cmp_tail_remember(&r->series[set], doc);
		return ret;
	}
	if (of && json_object_object_get_ex(sum, of, &m) && json_object_object_get_ex(m, "value", &ev) &&
	    ev && isfinite(json_object_get_double(ev)) && json_object_get_double(ev) > 0)
		exposure = json_object_get_double(ev);
	else
		scaled = false;	/* no exposure: the rate per run stays what it is */
	if (scaled)
		return cmp_add_rate(d, set, workload, cell, name, unit, better, v, exposure);
	return cmp_add_count(d, set, workload, cell, name, unit, better, v, exposure);
}

/*
 * The "summary" of one result document (@path, for messages) into set @set
 * under (workload, cell). A metric whose value is null is one the run could
 * not measure (e.g. no frequency samples) and is skipped quietly; any other
 * value that is not a number is a malformed result: one warning per file.
 */
static int add_doc(struct cmp_data *d, const struct cmp_config *cfg, int set, const char *path,
		   const char *workload, const char *cell, json_object *doc)
{
	const char *bad = NULL, *why = NULL;
	json_object *sum, *ec;
	int nbad = 0;

	if (!json_object_object_get_ex(doc, "summary", &sum) ||
	    !json_object_is_type(sum, json_type_object))
		return -EINVAL;
	if (!cfg->include_failed && json_object_object_get_ex(doc, "exit_code", &ec) && ec &&
	    json_object_get_int(ec) != 0) {
		lj_info("%s: exit_code %d: run left out (--include-failed keeps it)", path,
			json_object_get_int(ec));
		d->nfailed_runs++;
		return -ECANCELED;
	}
	if (cmp_note_validity(d, set, workload, cell, doc))
		return -ENOMEM;
	cmp_check_method(d, path, doc);
	json_object_object_foreach(sum, name, m) {
		json_object *v = NULL, *u, *b;
		enum lj_better better = LJ_BETTER_NONE;
		const char *bs, *wrong = NULL;
		int ret;

		if (!json_object_is_type(m, json_type_object))
			wrong = "not an object";
		else if (!json_object_object_get_ex(m, "value", &v))
			wrong = "no value";
		else if (v && !json_object_is_type(v, json_type_double) &&
			 !json_object_is_type(v, json_type_int))
			wrong = json_object_is_type(v, json_type_string) ? "value is a string" :
				json_object_is_type(v, json_type_boolean) ? "value is a boolean" :
				"value is not a number";
		if (wrong) {
			if (!nbad++) {
				bad = name;
				why = wrong;
			}
			continue;
		}
		ret = note_name(d, name);
		if (ret)
			return ret;
		if (!v || !metric_wanted(cfg, name))
			continue;
		if (!isfinite(json_object_get_double(v))) {
			lj_warn("%s: summary metric '%s' is %s: skipped", path, name,
				isnan(json_object_get_double(v)) ? "NaN" : "infinite");
			d->nbad_values++;
			continue;
		}
		bs = json_object_object_get_ex(m, "better", &b) ? json_object_get_string(b) : "";
		if (!strcmp(bs, "lower"))
			better = LJ_BETTER_LOWER;
		else if (!strcmp(bs, "higher"))
			better = LJ_BETTER_HIGHER;
		ret = add_metric(d, set, workload, cell, name, doc,
				 json_object_object_get_ex(m, "unit", &u) ? json_object_get_string(u) : "",
				 better, json_object_get_double(v));
		if (ret)
			return ret;
	}
	if (nbad == 1)
		lj_warn("%s: summary metric '%s' skipped: %s", path, bad, why);
	else if (nbad)
		lj_warn("%s: summary metric '%s' and %d more skipped: %s", path, bad, nbad - 1, why);
	return 0;
}

/* "governor=x,cgroup=on" without the @axis part; *@value gets the axis value. */
static void split_axis(const char *cell, const char *axis, char *rest, size_t len, char *value,
		       size_t vlen)
{
	size_t alen = strlen(axis), used = 0;

	rest[0] = '\0';
	value[0] = '\0';
	for (const char *p = cell; *p;) {
		size_t n = strcspn(p, ",");

		if (n > alen && !strncmp(p, axis, alen) && p[alen] == '=') {
			snprintf(value, vlen, "%.*s", (int)(n - alen - 1), p + alen + 1);
		} else if (used < len) {
			used += snprintf(rest + used, len - used, "%s%.*s", used ? "," : "", (int)n, p);
		}
		p += n + (p[n] == ',');
	}
}

static int set_for_label(struct cmp_data *d, const char *label, const char *path, json_object *sys)
{
	for (int i = 0; i < d->nsets; i++)
		if (!strcmp(d->sets[i].label, label))
			return i;
	if (d->nsets == CMP_MAX_SETS)
		return -E2BIG;
	d->sets[d->nsets].label = strdup(label);
	d->sets[d->nsets].path = strdup(path);
	d->sets[d->nsets].system = sys;
	if (!d->sets[d->nsets].label || !d->sets[d->nsets].path)
		return -ENOMEM;
	return d->nsets++;
}

/* The last component of @path, trailing slashes ignored, in @buf: the default set label. */
static const char *base_name(const char *path, char *buf, size_t size)
{
	size_t len = strlen(path);
	const char *s;

	while (len > 1 && path[len - 1] == '/')
		len--;
	snprintf(buf, size, "%.*s", (int)len, path);
	s = strrchr(buf, '/');
	return s ? s + 1 : buf;
}

static void keep(struct cmp_data *d, json_object *o)
{
	if (!d->docs)
		d->docs = json_object_new_array();
	json_object_array_add(d->docs, o);
}

/*
 * A result document as --validate accepts it (bounded, a regular file,
 * ljkit-result/1 with a summary), or NULL after one warning: a document
 * that validation refuses never reaches the table or the gate.
 */
/* A file refused: said (or kept for the caller, a file given by name) and counted. */
static void skip_file(struct cmp_data *d, const char *path, const char *why, int ret)
{
	if (d->refused)
		snprintf(d->refused, d->refusedlen, "%s", why[0] ? why : lj_strerror(ret));
	else
		lj_warn("%s: skipped: %s", path, why[0] ? why : lj_strerror(ret));
	d->nskipped_files++;
}

static json_object *read_result(struct cmp_data *d, const char *path)
{
	json_object *doc = NULL;
	char why[256];
	int ret = lj_result_read(path, &doc, why, sizeof(why));

	if (ret) {
		skip_file(d, path, why, ret);
		return NULL;
	}
	return doc;
}

/* A set more than lj-compare holds: say the limit (and why it is reached). */
static int too_many_sets(const struct cmp_config *cfg, const char *dir)
{
	if (cfg->by)
		lj_error("--by %s: %s has more than %d values of the axis (lj-compare compares at most %d sets)",
			 cfg->by, dir, CMP_MAX_SETS, CMP_MAX_SETS);
	else
		lj_error("more than %d result sets (lj-compare compares at most %d): %s", CMP_MAX_SETS,
			 CMP_MAX_SETS, dir);
	return LJ_EXIT_USAGE;
}

/* A run's "file" stays inside its run directory: relative, no ".." component. */
static bool inside_run(const char *file)
{
	if (!*file || file[0] == '/')
		return false;
	for (const char *p = file; (p = strstr(p, "..")); p += 2)
		if ((p == file || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return false;
	return true;
}

/* A set without an identity yet (files, or guests' runs) takes its first run's. */
static void take_system(struct cmp_data *d, int set, json_object *doc)
{
	json_object *sys;

	if (!d->sets[set].system && json_object_object_get_ex(doc, "system", &sys)) {
		d->sets[set].system = json_object_get(sys);
		keep(d, sys);
	}
}

/* The measured runs of one cell into set @s. Return: 0 or an exit code. */
static int load_cell_runs(struct cmp_data *d, const struct cmp_config *cfg, const char *dir, int s,
			  const char *workload, const char *cell, json_object *runs)
{
	for (size_t j = 0; j < json_object_array_length(runs); j++) {
		json_object *run = json_object_array_get_idx(runs, j), *f, *doc;
		char path[4096];
		int ret;

		if (!json_object_object_get_ex(run, "file", &f) ||
		    !json_object_is_type(f, json_type_string))
			continue;
		if (!inside_run(json_object_get_string(f))) {
			lj_warn("%s/manifest.json: run file '%s' is outside the run directory, skipped",
				dir, json_object_get_string(f));
			d->nskipped_files++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, json_object_get_string(f));
		doc = read_result(d, path);
		if (!doc)
			continue;
		take_system(d, s, doc);
		ret = add_doc(d, cfg, s, path, workload, cell, doc);
		json_object_put(doc);
		if (ret == -ENOMEM)
			return LJ_EXIT_RUNTIME;
		if (!ret)
			d->sets[s].nfiles++;
		else if (ret != -ECANCELED)	/* -ECANCELED: a failed run, left out and counted */
			d->nskipped_files++;
	}
	return 0;
}

/* The set of a run directory labelled @label: "#2", "#3"... when a rerun has the same tag. */
static int run_set(struct cmp_data *d, const struct cmp_config *cfg, const char *dir,
		   const char *label, json_object *sys)
{
	char uniq[300];
	int set;

	snprintf(uniq, sizeof(uniq), "%s", label);
	for (int k = 2; k < 100; k++) {
		bool clash = false;

		for (int i = 0; i < d->nsets; i++)
			clash |= !strcmp(d->sets[i].label, uniq);
		if (!clash)
			break;
		snprintf(uniq, sizeof(uniq), "%s#%d", label, k);
	}
	set = set_for_label(d, uniq, dir, sys);
	if (set < 0)
		return set == -E2BIG ? -too_many_sets(cfg, dir) : -LJ_EXIT_RUNTIME;
	return set;
}

/* A run directory written by lj-matrix. */
static int load_run(struct cmp_data *d, const struct cmp_config *cfg, const char *dir,
		    json_object *man)
{
	json_object *cells, *tag, *sys = NULL, *kern;
	const char *label;
	char base[256];
	int set = -1, ret;

	keep(d, man);
	/* cells in guests (lj-matrix's kernel axis): each set's identity is its first run's, not the host's */
	if (!json_object_object_get_ex(man, "kernels", &kern) || !json_object_is_type(kern, json_type_object) ||
	    !json_object_object_length(kern))
		json_object_object_get_ex(man, "system", &sys);
	if (!json_object_object_get_ex(man, "cells", &cells) ||
	    !json_object_is_type(cells, json_type_array)) {
		lj_error("%s/manifest.json: no cells array", dir);
		return LJ_EXIT_USAGE;
	}
	label = json_object_object_get_ex(man, "tag", &tag) && json_object_is_type(tag, json_type_string) ?
		json_object_get_string(tag) : base_name(dir, base, sizeof(base));
	if (!cfg->by && (set = run_set(d, cfg, dir, label, sys)) < 0)
		return -set;
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i), *w, *id, *runs;
		char cell[1024], value[256];
		int s = set;

		/* A manifest is data: a cell of the wrong shape is skipped, never trusted. */
		if (!json_object_object_get_ex(c, "workload", &w) ||
		    !json_object_object_get_ex(c, "id", &id) ||
		    !json_object_object_get_ex(c, "runs", &runs) ||
		    !json_object_is_type(w, json_type_string) ||
		    !json_object_is_type(id, json_type_string) ||
		    !json_object_is_type(runs, json_type_array))
			continue;
		snprintf(cell, sizeof(cell), "%s", json_object_get_string(id));
		if (cfg->by) {
			char label2[300];

			split_axis(json_object_get_string(id), cfg->by, cell, sizeof(cell), value,
				   sizeof(value));
			if (!value[0]) {
				lj_error("--by %s: %s has no axis '%s'", cfg->by, dir, cfg->by);
				return LJ_EXIT_USAGE;
			}
			snprintf(label2, sizeof(label2), "%s=%s", cfg->by, value);
			s = set_for_label(d, label2, dir, sys);
			if (s < 0)
				return s == -E2BIG ? too_many_sets(cfg, dir) : LJ_EXIT_RUNTIME;
		}
		ret = load_cell_runs(d, cfg, dir, s, json_object_get_string(w), cell, runs);
		if (ret)
			return ret;
	}
	return 0;
}

/* Result files without a manifest: every *.json below @path is one run of its tool. */
static int load_files(struct cmp_data *d, const struct cmp_config *cfg, const char *path, int set)
{
	struct stat st;
	json_object *doc, *tool;
	char why[256];
	const char *t;
	int ret;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		struct dirent **list;
		int n = scandir(path, &list, NULL, alphasort);

		if (n < 0)
			return -errno;
		for (int i = 0; i < n; i++) {
			const char *name = list[i]->d_name;
			size_t len = strlen(name);
			char sub[4096];

			if (name[0] != '.' && (list[i]->d_type == DT_DIR ||
					       (len > 5 && !strcmp(name + len - 5, ".json")))) {
				snprintf(sub, sizeof(sub), "%s/%s", path, name);
				ret = load_files(d, cfg, sub, set);
				if (ret == -ENOMEM)
					return ret;
			}
			free(list[i]);
		}
		free(list);
		return 0;
	}
	doc = cmp_rt_doc(path, NULL, why, sizeof(why));	/* rt-tests' own --json (rtload.c), else ljkit's */
	if (doc)
		d->sets[set].nrt++;
	else if (why[0])
		skip_file(d, path, why, -EINVAL);	/* rt-tests' with values no run can have */
	else
		doc = read_result(d, path);
	if (!doc)
		return 0;
	json_object_object_get_ex(doc, "tool", &tool);	/* validated: present */
	t = json_object_get_string(tool);
	if (!strncmp(t, "lj-", 3))
		t += 3;
	take_system(d, set, doc);
	ret = add_doc(d, cfg, set, path, t, "", doc);
	json_object_put(doc);
	if (!ret)
		d->sets[set].nfiles++;
	else if (ret != -ENOMEM && ret != -ECANCELED)
		d->nskipped_files++;
	return ret == -ENOMEM ? ret : 0;
}

/* One command-line path; a regular file that is refused leaves why in @refused. */
static int load_path(struct cmp_data *d, const struct cmp_config *cfg, const char *path,
		     char *refused, size_t len)
{
	char man[4096], base[256];
	json_object *m;
	struct stat st;
	int ret, set;

	if (stat(path, &st)) {
		lj_error_errno(-errno, "cannot read %s", path);
		return LJ_EXIT_USAGE;
	}
	snprintf(man, sizeof(man), "%s/manifest.json", path);
	if (S_ISDIR(st.st_mode) && !lstat(man, &st)) {
		char why[256];

		ret = lj_json_read(man, LJ_MANIFEST_MAX_BYTES, &m, why, sizeof(why));
		if (ret) {
			lj_error("%s: %s", man, why[0] ? why : lj_strerror(ret));
			return ret == -ENOMEM ? LJ_EXIT_RUNTIME : LJ_EXIT_USAGE;
		}
		return load_run(d, cfg, path, m);
	}
	if (cfg->by) {
		lj_error("--by needs a run directory with a manifest.json: %s", path);
		return LJ_EXIT_USAGE;
	}
	set = set_for_label(d, base_name(path, base, sizeof(base)), path, NULL);
	if (set < 0)
		return set == -E2BIG ? too_many_sets(cfg, path) : LJ_EXIT_RUNTIME;
	if (!S_ISDIR(st.st_mode)) {
		d->refused = refused;
		d->refusedlen = len;
	}
	ret = load_files(d, cfg, path, set);
	d->refused = NULL;
	if (ret) {
		lj_error_errno(ret, "cannot read %s", path);
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

/*
 * Every path in turn. A file given by name that is refused is a warning
 * when something else is usable; when every path given is such a file,
 * there is nothing to compare: one error line, a usage error.
 */
int cmp_load(struct cmp_data *d, const struct cmp_config *cfg, char **paths, int npaths)
{
	char (*refused)[512] = calloc(npaths ? npaths : 1, sizeof(*refused));
	int ret = 0, nrefused = 0;

	if (!refused) {
		lj_error_errno(-ENOMEM, "loading the results");
		return LJ_EXIT_RUNTIME;
	}
	for (int i = 0; i < npaths && !ret; i++) {
		ret = load_path(d, cfg, paths[i], refused[i], sizeof(refused[i]));
		nrefused += refused[i][0] != 0;
	}
	if (!ret && npaths && nrefused == npaths) {
		if (npaths == 1)
			lj_error("%s: %s: no results to compare", paths[0], refused[0]);
		else
			lj_error("%s: %s (and %d more given files refused): no results to compare",
				 paths[0], refused[0], npaths - 1);
		ret = LJ_EXIT_USAGE;
	} else if (!ret) {
		for (int i = 0; i < npaths; i++)
			if (refused[i][0])
				lj_warn("%s: skipped: %s", paths[i], refused[i]);
	}
	free(refused);
	return ret;
}

static int row_cmp(const void *a, const void *b)
{
	const struct cmp_row *x = *(struct cmp_row *const *)a, *y = *(struct cmp_row *const *)b;
	int c = strcmp(x->workload, y->workload);

	if (!c)
		c = strcmp(x->cell, y->cell);
	return c;
}

/* Group by workload and cell, keeping the metrics in the order the tools wrote them. */
void cmp_sort_rows(struct cmp_data *d)
{
	/* A bottom-up merge sort: stable, unlike qsort. */
	struct cmp_row **tmp = malloc(d->nrows * sizeof(*tmp) + 1);

	if (!tmp)
		return;
	for (size_t width = 1; width < d->nrows; width *= 2) {
		for (size_t lo = 0; lo < d->nrows; lo += 2 * width) {
			size_t mid = lo + width < d->nrows ? lo + width : d->nrows;
			size_t hi = lo + 2 * width < d->nrows ? lo + 2 * width : d->nrows;
			size_t a = lo, b = mid, k = lo;

			while (a < mid || b < hi) {
				if (b >= hi || (a < mid && row_cmp(&d->rows[a], &d->rows[b]) <= 0))
					tmp[k++] = d->rows[a++];
				else
					tmp[k++] = d->rows[b++];
			}
		}
		memcpy(d->rows, tmp, d->nrows * sizeof(*tmp));
	}
	free(tmp);
	/* the hash holds old indices: rebuild */
	d->hashcap /= 2;
	grow_hash(d);
}

void cmp_free(struct cmp_data *d)
{
	for (size_t i = 0; i < d->nrows; i++) {
		struct cmp_row *r = d->rows[i];

		for (int s = 0; s < CMP_MAX_SETS; s++) {
			free(r->series[s].v);
			free(r->series[s].events);
			free(r->series[s].exposure);
		}
		free(r->workload);
		free(r->cell);
		free(r->metric);
		free(r);
	}
	free(d->rows);
	free(d->hash);
	for (size_t i = 0; i < d->ncv; i++) {
		free(d->cv[i].workload);
		free(d->cv[i].cell);
	}
	free(d->cv);
	for (int i = 0; i < d->nsets; i++) {
		free(d->sets[i].label);
		free(d->sets[i].path);
	}
	json_object_put(d->docs);
	for (size_t i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
}
