// SPDX-License-Identifier: GPL-2.0-or-later
/* verdicts - the runs' validity verdicts per set, and the warnings a comparison needs about them. */
#include "compare.h"
#include "lj_err.h"
#include "lj_sysinfo.h"
#include "lj_validity.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "what=value;" of each setup.applied entry of the set's first run (the reporter's CPU aside). */
static void note_setup(struct cmp_set *set, json_object *doc)
{
	json_object *setup, *applied;
	size_t used = 0;

	if (set->setup_seen || !json_object_object_get_ex(doc, "setup", &setup) ||
	    !json_object_object_get_ex(setup, "applied", &applied) || !json_object_is_type(applied, json_type_array))
		return;
	set->setup_seen = true;
	for (size_t i = 0; i < json_object_array_length(applied) && used < sizeof(set->setup); i++) {
		json_object *e = json_object_array_get_idx(applied, i), *w, *v;

		if (!json_object_object_get_ex(e, "what", &w) || !strcmp(json_object_get_string(w), "reporter_cpu"))
			continue;
		used += snprintf(set->setup + used, sizeof(set->setup) - used, "%s=%s;", json_object_get_string(w),
				 json_object_object_get_ex(e, "value", &v) ? json_object_get_string(v) : "");
	}
}

static int verdict_of(const char *s)
{
	return !strcmp(s, "valid") ? CMP_VALIDITY_VALID : !strcmp(s, "suspect") ? CMP_VALIDITY_SUSPECT :
	       !strcmp(s, "invalid") ? CMP_VALIDITY_INVALID : CMP_VALIDITY_UNKNOWN;
}

/* The index of (@set, @workload, @cell) in d->cv, or d->ncv. */
static size_t cell_index(const struct cmp_data *d, int set, const char *workload, const char *cell)
{
	for (size_t i = d->ncv; i-- > 0;)	/* a cell's runs come together: the last one first */
		if (d->cv[i].set == set && !strcmp(d->cv[i].workload, workload) && !strcmp(d->cv[i].cell, cell))
			return i;
	return d->ncv;
}

const struct cmp_cellvalid *cmp_cell_validity(const struct cmp_data *d, int set, const char *workload,
					      const char *cell)
{
	size_t i = cell_index(d, set, workload, cell);

	return i < d->ncv ? &d->cv[i] : NULL;
}

static struct cmp_cellvalid *cell_entry(struct cmp_data *d, int set, const char *workload, const char *cell)
{
	size_t i = cell_index(d, set, workload, cell);
	struct cmp_cellvalid *c;

	if (i < d->ncv)
		return &d->cv[i];
	if (d->ncv == d->capcv) {
		size_t cap = d->capcv ? d->capcv * 2 : 16;
		struct cmp_cellvalid *n = realloc(d->cv, cap * sizeof(*n));

		if (!n)
			return NULL;
		d->cv = n;
		d->capcv = cap;
	}
	c = &d->cv[d->ncv];
	memset(c, 0, sizeof(*c));
	c->set = set;
	c->workload = strdup(workload);
	c->cell = strdup(cell);
	if (!c->workload || !c->cell) {
		free(c->workload);
		free(c->cell);
		return NULL;
	}
	d->ncv++;
	return c;
}

/* "run N: level: what: text" of each reason the cell has not seen yet. */
static void note_reasons(struct cmp_cellvalid *c, json_object *v)
{
	json_object *list, *e, *lv, *w, *t;
	size_t used = strlen(c->reasons), run = 0;

	for (int k = 0; k < CMP_VALIDITY_N; k++)
		run += c->n[k];
	if (!json_object_object_get_ex(v, "reasons", &list) || !json_object_is_type(list, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(list) && used < sizeof(c->reasons); i++) {
		char one[256];

		e = json_object_array_get_idx(list, i);
		if (!json_object_object_get_ex(e, "text", &t))
			continue;
		snprintf(one, sizeof(one), "%s: %s: %s",
			 json_object_object_get_ex(e, "level", &lv) ? json_object_get_string(lv) : "?",
			 json_object_object_get_ex(e, "what", &w) ? json_object_get_string(w) : "?",
			 json_object_get_string(t));
		if (!strstr(c->reasons, one))
			used += snprintf(c->reasons + used, sizeof(c->reasons) - used, "%srun %zu: %s",
					 used ? "; " : "", run, one);
	}
}

/* Was the run measured in a guest (system.virtualised names a hypervisor)? In a TCG one? */
static void note_guest(struct cmp_set *set, json_object *doc)
{
	json_object *sys, *virt;
	const char *name;

	if (!json_object_object_get_ex(doc, "system", &sys) || !json_object_object_get_ex(sys, "virtualised", &virt) ||
	    !json_object_is_type(virt, json_type_string))
		return;
	name = json_object_get_string(virt);
	if (!set->nguest++)
		snprintf(set->guest, sizeof(set->guest), "%s", name);
	set->ntcg += !strcmp(name, LJ_VALIDITY_TCG);
}

void cmp_guest_text(const struct cmp_set *s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (s->ntcg)
		snprintf(buf, len, "%zu measured in a QEMU TCG guest: an emulated CPU, invalid for timing "
			 "(compare what ran, not how fast)", s->ntcg);
	else if (s->nguest)
		snprintf(buf, len, "measured in a %s guest: the host's noise dominates max", s->guest);
}

int cmp_note_validity(struct cmp_data *d, int set, const char *workload, const char *cell, json_object *doc)
{
	json_object *v, *verdict;
	struct cmp_cellvalid *c = cell_entry(d, set, workload, cell);
	int k = CMP_VALIDITY_UNKNOWN;

	note_setup(&d->sets[set], doc);
	note_guest(&d->sets[set], doc);
	if (json_object_object_get_ex(doc, "validity", &v) && json_object_object_get_ex(v, "verdict", &verdict))
		k = verdict_of(json_object_get_string(verdict));
	d->sets[set].nvalidity[k]++;
	if (!c)
		return -ENOMEM;
	c->n[k]++;
	if (k == CMP_VALIDITY_SUSPECT || k == CMP_VALIDITY_INVALID)
		note_reasons(c, v);
	return 0;
}

const char *const cmp_validity_names[CMP_VALIDITY_N] = { "valid", "suspect", "invalid", "no verdict" };

/* "6 valid, 2 suspect" */
void cmp_validity_text(const struct cmp_set *s, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int k = 0; k < CMP_VALIDITY_N && used < len; k++)
		if (s->nvalidity[k])
			used += snprintf(buf + used, len - used, "%s%zu %s", used ? ", " : "", s->nvalidity[k],
					 cmp_validity_names[k]);
}

struct idiff {
	int n;
	char keys[256];
};

static void count_diff(const char *key, const char *va, const char *vb, void *arg)
{
	struct idiff *c = arg;
	size_t used = strlen(c->keys);

	(void)va;
	(void)vb;
	if (used < sizeof(c->keys))
		snprintf(c->keys + used, sizeof(c->keys) - used, "%s%s", c->n ? ", " : "", key);
	c->n++;
}

/* Entries of setup list @a ("what=value;...") missing from @b, the @axis excepted, into @out. */
static int setup_missing(const char *a, const char *b, const char *axis, char *out, size_t len)
{
	size_t used = strlen(out), alen = axis ? strlen(axis) : 0;
	int n = 0;

	for (const char *p = a; *p;) {
		size_t e = strcspn(p, ";");
		char item[160];

		snprintf(item, sizeof(item), "%.*s;", (int)e, p);
		if (!(alen && !strncmp(p, axis, alen) && p[alen] == '=') && !strstr(b, item) && used < len) {
			used += snprintf(out + used, len - used, "%s%.*s", used ? ", " : "", (int)e, p);
			n++;
		}
		p += e + (p[e] == ';');
	}
	return n;
}

static void warn_setup(const struct cmp_data *d, const char *axis)
{
	for (int s = 1; s < d->nsets; s++) {
		const struct cmp_set *a = &d->sets[0], *b = &d->sets[s];
		char only_a[256] = "", only_b[256] = "";

		if (!a->setup_seen || !b->setup_seen)
			continue;
		if (setup_missing(a->setup, b->setup, axis, only_a, sizeof(only_a)) +
		    setup_missing(b->setup, a->setup, axis, only_b, sizeof(only_b)))
			lj_warn("the runs' setup differs beyond the compared axis: %s only in %s%s%s%s%s",
				*only_a ? only_a : "-", a->label, *only_b ? "; " : "", only_b,
				*only_b ? " only in " : "", *only_b ? b->label : "");
	}
}

void cmp_validity_warn(const struct cmp_data *d, const char *axis)
{
	bool any_valid = false, any_other = false;

	for (int s = 0; s < d->nsets; s++) {
		any_valid |= d->sets[s].nvalidity[CMP_VALIDITY_VALID] > 0;
		any_other |= d->sets[s].nvalidity[CMP_VALIDITY_SUSPECT] + d->sets[s].nvalidity[CMP_VALIDITY_INVALID] > 0;
	}
	for (int s = 0; s < d->nsets; s++)
		if (d->sets[s].ntcg)
			lj_warn("%s: %zu run%s measured in a QEMU TCG guest: an emulated CPU's latencies say nothing about "
				"the kernel", d->sets[s].label, d->sets[s].ntcg, d->sets[s].ntcg == 1 ? "" : "s");
	if (any_valid && any_other)
		lj_warn("the comparison mixes valid runs with suspect or invalid ones (see each set's validity)");
	else if (any_other)
		lj_warn("no compared run is valid: differences may come from the conditions, not the system");
	/* the compared axis is the set; any further identity difference is a second variable */
	for (int s = 1; s < d->nsets; s++) {
		struct idiff c = { 0, "" };

		if (!d->sets[0].system || !d->sets[s].system || d->sets[s].system == d->sets[0].system)
			continue;
		lj_sysinfo_diff(d->sets[0].system, d->sets[s].system, count_diff, &c);
		if (c.n > 1)
			lj_warn("%s and %s differ in %d identity fields (%s): a difference may come from any of them",
				d->sets[0].label, d->sets[s].label, c.n, c.keys);
	}
	warn_setup(d, axis);
}
