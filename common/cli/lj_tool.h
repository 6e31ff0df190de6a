/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_tool - the start and end every measuring tool shares: stop flag, topology, result, setup stack. */
#ifndef LJ_TOOL_H
#define LJ_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "lj_result.h"
#include "lj_setupopt.h"
#include "lj_topo.h"

/*
 * What a measuring tool holds from its start to its end, besides its own
 * run: the topology it places threads on, the result document (only with
 * --json), and the setup stack its setup options were applied through.
 * Zero-initialise it; lj_tool_end() releases what lj_tool_start() got,
 * however far it got.
 */
struct lj_tool {
	struct lj_topo topo;
	struct lj_result *res;		/* NULL without --json */
	const char *json;		/* --json path, or NULL */
	struct lj_setupopt *setup;
	struct lj_setup *stack;
	bool topo_loaded, applied;
};

/*
 * Check that each non-NULL path of @paths can be written
 * (lj_result_check_path), before anything is measured, so a bad --json,
 * --histfile or --timeline does not cost a run.
 * Return: 0, or LJ_EXIT_RUNTIME after "cannot write PATH: why".
 */
int lj_tool_check_outputs(const char *const *paths, size_t n);

/*
 * Check that a result can be written to @json (lj_result_check_path:
 * found before anything is measured), install the stop handlers
 * (lj_stop), load the topology, create the result document when @json is
 * set (named @name, with @argv), and apply @setup through the setup
 * stack, recording it in the result.
 * Return: 0, or an exit code after a message.
 */
int lj_tool_start(struct lj_tool *t, const char *name, struct lj_setupopt *setup,
		  const char *json, int argc, char **argv);

/*
 * Record in the result's setup.fallbacks ({"what", "reason"}, the keys
 * lj_setupopt uses) a capability the run went without; no-op without a
 * result.
 */
void lj_tool_fallback(struct lj_tool *t, const char *what, int err);

/*
 * Finish the result with exit code @ret and write it to the --json path.
 * Return: @ret, or LJ_EXIT_RUNTIME after a message when writing failed.
 * Without a result, @ret unchanged.
 */
int lj_tool_write_result(struct lj_tool *t, int ret);

/* Undo the setup stack, free the result and the topology. */
void lj_tool_end(struct lj_tool *t);

#endif
