// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cellname.c - the directory of each cell, WORKLOAD/NAME, one per cell.
 *
 * NAME is the cell id ("cgroup=on,n=a_b") with the characters a path
 * component should not hold replaced by '_', as before: readable, and
 * what existing stores use (so --resume finds their cells). Replacing is
 * not injective (custom values a/b, a;b, a_b and "a b" all become
 * n=a_b), so the cells whose replaced ids collide within a workload get
 * an escaped name instead: each value with every byte outside
 * [A-Za-z0-9-_.:+] as %XX ('%', ',' and '=' included, so the separators
 * stay separators). An escaped name that differs from its id holds a
 * '%', which no replaced name does, and values are unique per axis, so
 * the names are injective; the check after (a name cut at 200 bytes) is
 * a usage error before anything runs.
 */
#include "matrix.h"
#include "lj_err.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL_NAME_MAX 200	/* NAME_MAX is 255: a readable prefix plus the index beyond */

void mx_sanitise(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.=,:+", *s))
			*s = '_';
}

/* The cell id with each value escaped (see above). */
static void escaped_id(const struct lj_scenario *s, const struct lj_scenario_cell *c, char *buf,
		       size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int a = 0; a < s->naxes && o + 1 < len; a++) {
		o += (size_t)snprintf(buf + o, len - o, "%s%s=", a ? "," : "", s->axes[a].name);
		if (o >= len)
			o = len - 1;
		for (const char *v = s->axes[a].values[c->value[a]]; *v && o + 4 < len; v++) {
			if (isalnum((unsigned char)*v) || strchr("-_.:+", *v))
				buf[o++] = *v;
			else
				o += (size_t)snprintf(buf + o, len - o, "%%%02X", (unsigned char)*v);
		}
		buf[o < len ? o : len - 1] = '\0';
	}
}

/* Cell @i's name with ids replaced (@escape false) or escaped; cut to CELL_NAME_MAX with the index. */
static char *cell_name(const struct lj_scenario *s, size_t i, bool escape)
{
	struct lj_scenario_cell c;
	char id[4096];

	lj_scenario_cell(s, i, &c);
	if (escape) {
		escaped_id(s, &c, id, sizeof(id));
	} else {
		lj_scenario_cell_id(s, &c, id, sizeof(id));
		mx_sanitise(id);
	}
	if (!id[0])
		snprintf(id, sizeof(id), "default");
	if (strlen(id) > CELL_NAME_MAX)
		snprintf(id + 180, sizeof(id) - 180, "...%zu", i);
	return strdup(id);
}

struct named {
	int workload;
	const char *name;
	size_t cell;
};

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->workload != y->workload ? x->workload - y->workload : strcmp(x->name, y->name);
}

/* Sorted by workload and name; whether any two are equal (the first pair in @a, @b). */
static bool sort_find_twins(struct named *v, size_t n, size_t *a, size_t *b, bool *twin)
{
	bool any = false;

	qsort(v, n, sizeof(*v), by_name);
	for (size_t k = 0; k < n; k++)
		twin[v[k].cell] = false;
	for (size_t k = 1; k < n; k++)
		if (!by_name(&v[k - 1], &v[k])) {
			if (!any) {
				*a = v[k - 1].cell < v[k].cell ? v[k - 1].cell : v[k].cell;
				*b = v[k - 1].cell < v[k].cell ? v[k].cell : v[k - 1].cell;
			}
			twin[v[k - 1].cell] = twin[v[k].cell] = any = true;
		}
	return any;
}

static int workload_of(const struct lj_scenario *s, size_t i)
{
	struct lj_scenario_cell c;

	lj_scenario_cell(s, i, &c);
	return c.workload;
}

static void fill(struct mx_run *r, struct named *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (struct named){ workload_of(r->scn, i), r->cellnames[i], i };
}

void mx_cell_what(struct mx_run *r, size_t idx, char *buf, size_t len)
{
	struct lj_scenario_cell c;
	char id[1024];

	lj_scenario_cell(r->scn, idx, &c);
	lj_scenario_cell_id(r->scn, &c, id, sizeof(id));
	snprintf(buf, len, "%s%s%s%s", r->scn->workloads[c.workload].name, *id ? " [" : "", id, *id ? "]" : "");
}

int mx_cell_names(struct mx_run *r)
{
	size_t n = lj_scenario_ncells(r->scn), a = 0, b = 0;
	struct named *v = calloc(n ? n : 1, sizeof(*v));
	bool *twin = calloc(n ? n : 1, sizeof(*twin));
	int ret = 0;

	r->cellnames = calloc(n ? n : 1, sizeof(*r->cellnames));
	r->ncellnames = n;
	for (size_t i = 0; r->cellnames && i < n; i++)
		if (!(r->cellnames[i] = cell_name(r->scn, i, false)))
			ret = -ENOMEM;
	if (!v || !twin || !r->cellnames || ret) {
		ret = LJ_EXIT_RUNTIME;
		goto out;
	}
	fill(r, v, n);
	if (sort_find_twins(v, n, &a, &b, twin)) {
		for (size_t i = 0; i < n && !ret; i++) {
			if (!twin[i])
				continue;
			free(r->cellnames[i]);
			if (!(r->cellnames[i] = cell_name(r->scn, i, true)))
				ret = LJ_EXIT_RUNTIME;
		}
		fill(r, v, n);
		if (!ret && sort_find_twins(v, n, &a, &b, twin)) {
			lj_error("cells %zu and %zu would share the directory %s/%s: make their values differ in the first %d characters",
				 a + 1, b + 1, r->scn->workloads[workload_of(r->scn, a)].name, r->cellnames[a],
				 CELL_NAME_MAX - 20);
			ret = LJ_EXIT_USAGE;
		}
	}
out:
	free(v);
	free(twin);
	return ret;
}

void mx_cell_names_free(struct mx_run *r)
{
	for (size_t i = 0; r->cellnames && i < r->ncellnames; i++)
		free(r->cellnames[i]);
	free(r->cellnames);
	r->cellnames = NULL;
	r->ncellnames = 0;
}
