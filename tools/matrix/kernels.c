// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernels - the kernel axis's values resolved to images when the run is
 * created, recorded in the manifest ("kernels") and read back by --resume:
 * a glob such as /var/cache/ljkit/kernels/linux-image-*-rt-amd64/boot/vmlinuz-*
 * keeps naming the kernel it named at the start, whatever was unpacked since.
 */
#include "matrix.h"
#include "lj_err.h"
#include "lj_json.h"

#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

static int version_order(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* A glob's newest match in version order; the pattern itself when nothing matches. */
static char *newest(const char *pattern)
{
	glob_t g;
	char *out;

	if (glob(pattern, 0, NULL, &g) || !g.gl_pathc)
		return strdup(pattern);
	qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), version_order);
	out = strdup(g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return out;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static const struct lj_scenario_axis *kernel_axis(const struct lj_scenario *s)
{
	for (int a = 0; a < s->naxes; a++)
		if (!strcmp(s->axes[a].name, "kernel"))
			return &s->axes[a];
	return NULL;
}

int mx_kernels_resolve(struct mx_run *r)
{
	const struct lj_scenario_axis *a = kernel_axis(r->scn);
	json_object *all = json_object_new_object();

	r->nkernels = 0;
	r->kernels = a ? calloc(a->nvalues, sizeof(*r->kernels)) : NULL;
	if (a && !r->kernels)
		return LJ_EXIT_RUNTIME;
	for (int v = 0; a && v < a->nvalues; v++) {
		const struct lj_scenario_kernel *sec = lj_scenario_find_kernel(r->scn, a->values[v]);
		struct mx_kernel *k = &r->kernels[r->nkernels];
		json_object *o;

		if (!strcmp(a->values[v], "host"))
			continue;
		k->value = strdup(a->values[v]);
		k->image = newest(sec ? sec->image : a->values[v]);
		k->modules = dup_or_null(sec ? sec->modules : NULL);
		k->initramfs = dup_or_null(sec ? sec->initramfs : NULL);
		k->cmdline = dup_or_null(sec ? sec->cmdline : NULL);
		r->nkernels++;
		if (!k->value || !k->image)
			return LJ_EXIT_RUNTIME;
		o = json_object_new_object();
		json_object_object_add(o, "image", lj_json_str(k->image));
		json_object_object_add(o, "modules", lj_json_str(k->modules));
		json_object_object_add(o, "initramfs", lj_json_str(k->initramfs));
		json_object_object_add(o, "cmdline", lj_json_str(k->cmdline));
		json_object_object_add(all, k->value, o);
	}
	if (r->manifest)
		json_object_object_add(r->manifest, "kernels", all);
	else
		json_object_put(all);	/* a dry run: nothing recorded */
	return 0;
}

static char *field(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       strdup(json_object_get_string(v)) : NULL;
}

int mx_kernels_load(struct mx_run *r)
{
	const struct lj_scenario_axis *a = kernel_axis(r->scn);
	json_object *all = NULL, *o;

	json_object_object_get_ex(r->manifest, "kernels", &all);
	r->kernels = a ? calloc(a->nvalues, sizeof(*r->kernels)) : NULL;
	for (int v = 0; a && r->kernels && v < a->nvalues; v++) {
		struct mx_kernel *k = &r->kernels[r->nkernels];

		if (!strcmp(a->values[v], "host"))
			continue;
		if (!all || !json_object_object_get_ex(all, a->values[v], &o) || !(k->image = field(o, "image"))) {
			lj_error("cannot resume %s: manifest.json has no image for kernel=%s", r->dir, a->values[v]);
			return LJ_EXIT_USAGE;
		}
		k->value = strdup(a->values[v]);
		k->modules = field(o, "modules");
		k->initramfs = field(o, "initramfs");
		k->cmdline = field(o, "cmdline");
		r->nkernels++;
	}
	return a && !r->kernels ? LJ_EXIT_RUNTIME : 0;
}

const struct mx_kernel *mx_kernel_find(const struct mx_run *r, const char *value)
{
	for (int i = 0; i < r->nkernels; i++)
		if (!strcmp(r->kernels[i].value, value))
			return &r->kernels[i];
	return NULL;
}

void mx_kernels_free(struct mx_run *r)
{
	for (int i = 0; i < r->nkernels; i++) {
		free(r->kernels[i].value);
		free(r->kernels[i].image);
		free(r->kernels[i].modules);
		free(r->kernels[i].initramfs);
		free(r->kernels[i].cmdline);
	}
	free(r->kernels);
	r->kernels = NULL;
	r->nkernels = 0;
}
