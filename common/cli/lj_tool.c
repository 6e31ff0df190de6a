// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_tool - the start and end every measuring tool shares: stop flag, topology, result, setup stack. */
#include "lj_tool.h"
#include "lj_err.h"
#include "lj_outfile.h"
#include "lj_stop.h"

int lj_tool_check_outputs(const char *const *paths, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		char why[512];
		int err;

		if (!paths[k])
			continue;
		err = lj_outfile_check(paths[k], why, sizeof(why));
		if (err && why[0])
			lj_error("cannot write %s: %s", paths[k], why);
		else if (err)
			lj_error_errno(err, "cannot write %s", paths[k]);
		if (err)
			return LJ_EXIT_RUNTIME;
	}
	return 0;
}

int lj_tool_start(struct lj_tool *t, const char *name, struct lj_setupopt *setup,
		  const char *json, int argc, char **argv)
{
	int err, ret;

	ret = lj_tool_check_outputs(&json, 1);
	if (ret)
		return ret;
	err = lj_stop_install();
	if (err) {
		lj_error_errno(err, "cannot install signal handlers");
		return LJ_EXIT_RUNTIME;
	}
	if (lj_topo_load(&t->topo))
		return LJ_EXIT_RUNTIME;		/* lj_topo_load said why */
	t->topo_loaded = true;
	t->json = json;
	if (json) {
		t->res = lj_result_new(name, argc, argv);
		if (!t->res) {
			lj_error("cannot create the result document: out of memory");
			return LJ_EXIT_RUNTIME;
		}
	}
	t->setup = setup;
	ret = lj_setupopt_apply(setup, &t->topo, &t->stack, t->res ? lj_result_setup(t->res) : NULL);
	if (ret)
		return ret;		/* apply undid what it had done */
	t->applied = true;
	return 0;
}

void lj_tool_fallback(struct lj_tool *t, const char *what, int err)
{
	json_object *fb, *o;

	if (!t->res || !json_object_object_get_ex(lj_result_setup(t->res), "fallbacks", &fb))
		return;
	o = json_object_new_object();
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "reason", json_object_new_string(lj_strerror(err)));
	json_object_array_add(fb, o);
}

int lj_tool_write_result(struct lj_tool *t, int ret)
{
	int err;

	if (!t->res)
		return ret;
	lj_result_finish(t->res, ret);
	err = lj_result_write(t->res, t->json);
	if (err) {
		lj_error_errno(err, "cannot write %s", t->json);
		return LJ_EXIT_RUNTIME;
	}
	return ret;
}

void lj_tool_end(struct lj_tool *t)
{
	if (t->applied)
		lj_setupopt_restore(t->setup, t->stack);
	t->applied = false;
	lj_result_free(t->res);
	t->res = NULL;
	if (t->topo_loaded)
		lj_topo_free(&t->topo);
	t->topo_loaded = false;
}
