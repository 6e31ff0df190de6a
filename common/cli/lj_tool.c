// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_tool - the lifecycle every measuring tool runs through: per-tool operations, one driver. */
#include "lj_tool.h"
#include "lj_instruments.h"
#include "lj_perfetto.h"
#include "lj_power_hook.h"
#include "lj_validity_hook.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lj_err.h"
#include "lj_opt.h"
#include "lj_outfile.h"
#include "lj_prefault.h"
#include "lj_sched.h"
#include "lj_stop.h"
#include "lj_time.h"

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

/* Append {what, @key: value} to the setup record's @list (created when missing). */
static void record(struct lj_tool *t, const char *list, const char *what, const char *key,
		   const char *value)
{
	json_object *arr, *o;

	if (!t->setup_rec)
		return;
	if (!json_object_object_get_ex(t->setup_rec, list, &arr)) {
		arr = json_object_new_array();
		json_object_object_add(t->setup_rec, list, arr);
	}
	o = json_object_new_object();
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, key, json_object_new_string(value));
	json_object_array_add(arr, o);
}

void lj_tool_applied(struct lj_tool *t, const char *what, const char *value)
{
	record(t, "applied", what, "value", value);
}

void lj_tool_note(struct lj_tool *t, const char *what, const char *value)
{
	record(t, "notes", what, "value", value);
}

int lj_tool_fallback(struct lj_tool *t, const char *what, int err, const char *reason)
{
	size_t len = strlen(t->fallbacks);

	if (!reason)
		reason = lj_strerror(err);
	if (t->strict) {
		lj_error("missing privilege (--strict): %s (%s)", what, reason);
		return LJ_EXIT_NOCAP;
	}
	record(t, "fallbacks", what, "reason", reason);
	snprintf(t->fallbacks + len, sizeof(t->fallbacks) - len, "%s%s (%s)",
		 len ? ", " : "", what, reason);
	return 0;
}

int lj_tool_policy_fallback(struct lj_tool *t, const char *what, int err, const char *reason)
{
	json_object *arr;
	int ret = lj_tool_fallback(t, what, err, reason);

	if (ret)
		return ret;
	t->policy_fell = true;
	if (t->setup_rec && json_object_object_get_ex(t->setup_rec, "fallbacks", &arr) &&
	    json_object_array_length(arr))
		json_object_object_add(json_object_array_get_idx(arr, json_object_array_length(arr) - 1),
				       "measuring_policy", json_object_new_boolean(1));
	return 0;
}

/*
 * A run whose measuring threads fell back from the policy asked for is
 * invalid: after its report, exit 1 as rt-tests do, unless the user asked
 * to measure anyway (--policy-fallback).
 */
static int policy_rule(struct lj_tool *t, int ret)
{
	if (ret || !t->policy_fell || (t->desc.setup && t->desc.setup->policy_fallback))
		return ret;
	lj_error("the measuring threads did not get the scheduling policy asked for: the run is invalid "
		 "(exit 1, as rt-tests do); run as root or raise RLIMIT_RTPRIO, or give --policy-fallback "
		 "to measure anyway");
	return LJ_EXIT_RUNTIME;
}

/*
 * The one mlockall rule: lock current and future pages on fault
 * (MCL_ONFAULT) before the measuring threads exist, then prefault the
 * program's image (lj_prefault_images; only its code the measuring
 * threads run for a tool that marked it, lj_prefault_hot); what the
 * loops touch besides (stacks, histograms) each tool prefaults in prepare
 * and start. Untouched pages of the other libraries stay out of memory.
 * A kernel without MCL_ONFAULT locks everything. A refusal is a fallback
 * (77 under --strict). A sanitizer build (LJ_SANITIZED) does not lock: it
 * measures nothing real, so it says so at -v and records nothing.
 */
static int lock_memory(struct lj_tool *t)
{
	char what[96];
	bool on_fault;
	long pages;
	int err;

	if (LJ_SANITIZED) {
		lj_info("mlockall skipped under the address sanitizer");
		return 0;
	}
	err = lj_sched_mlockall(&on_fault);
	if (err)
		return lj_tool_fallback(t, "mlockall", err, NULL);
	t->mlocked = true;
	if (!on_fault) {
		lj_tool_applied(t, "mlockall", "current and future");
		return 0;
	}
	pages = t->desc.prefault_hot ? lj_prefault_hot() : lj_prefault_images();
	if (pages < 0)
		snprintf(what, sizeof(what), "current and future, on fault; prefault failed (%s)",
			 lj_strerror((int)pages));
	else
		snprintf(what, sizeof(what), "current and future, on fault; %ld image pages prefaulted",
			 pages);
	lj_tool_applied(t, "mlockall", what);
	return 0;
}

/* Outputs, stop handlers, topology, result, setup: before anything is measured. */
static int begin(struct lj_tool *t, int argc, char **argv)
{
	const char *paths[LJ_TOOL_MAX_OUTPUTS + 2] = { t->desc.json };
	char why[128];
	int err, ret;

	memcpy(paths + 1, t->desc.outputs, sizeof(t->desc.outputs));
	paths[LJ_TOOL_MAX_OUTPUTS + 1] = t->desc.setup ? t->desc.setup->perfetto : NULL;
	ret = lj_tool_check_outputs(paths, LJ_TOOL_MAX_OUTPUTS + 2);
	if (ret)
		return ret;
	/*
	 * First thing after the checks: a SIGINT while the topology loads
	 * must stop the run, not kill it unreported (a background job starts
	 * with SIGINT ignored; the handler makes it a stop request).
	 */
	err = lj_stop_install();
	if (err) {
		lj_error_errno(err, "cannot install signal handlers");
		return LJ_EXIT_RUNTIME;
	}
	err = t->desc.topo_apart ? lj_topo_load_apart(&t->topo, why, sizeof(why))
				 : lj_topo_load(&t->topo, why, sizeof(why));
	if (err) {
		lj_error_errno(err, "%s", why);
		return LJ_EXIT_RUNTIME;
	}
	t->topo_loaded = true;
	if (t->desc.json) {
		t->res = lj_result_new(t->ops->name, argc, argv);
		if (!t->res) {
			lj_error("cannot create the result document: out of memory");
			return LJ_EXIT_RUNTIME;
		}
	}
	/* Without --json the record still exists: hooks (validity) read the fallbacks. */
	t->setup_rec = t->res ? lj_result_setup(t->res) : json_object_new_object();
	if (!t->desc.setup)
		return 0;
	ret = lj_setupopt_apply(t->desc.setup, &t->topo, &t->stack, t->setup_rec);
	if (ret)
		return ret;		/* apply undid what it had done */
	t->applied = true;
	return 0;
}

struct lj_run_thread *lj_tool_threads(struct lj_tool *t, int n)
{
	struct lj_run_thread *th = calloc(n > 0 ? (size_t)n : 1, sizeof(*th));

	if (!th) {
		lj_error("out of memory for %d thread descriptions", n);
		return NULL;
	}
	free(t->threads);
	t->threads = th;
	t->run.threads = th;
	t->run.nthreads = n;
	return th;
}

/* An hour of --power readings (10 Hz) kept for --perfetto's counters: 16 bytes per CPU each. */
#define POWER_SERIES_MAX 36000

/*
 * The hooks every measuring run gets from what its tool described: the
 * validity verdict, the recorder when the --explain options ask for it,
 * with --power the power sampler, after them, so that a throttled run
 * hands its reason to the verdict of the same list, and with --perfetto
 * the keeper of late samples (the power readings then kept as a series).
 */
static int add_hooks(struct lj_tool *t)
{
	const struct lj_setupopt *o = t->desc.setup;
	int err = lj_vhook_add(&t->hooks, &t->validity);

	if (!err && t->desc.explain)
		err = lj_explain_register(&t->hooks, t->desc.explain, &t->explain);
	if (!err && o && o->power)
		err = lj_power_hook_add(&t->hooks, t->topo_loaded ? &t->topo : NULL, &t->power);
	if (!err && o && o->perfetto) {
		err = lj_perfetto_add(&t->hooks, (uint64_t)o->perfetto_threshold_ns, &t->perfetto);
		lj_power_hook_keep_series(t->power, POWER_SERIES_MAX);
	}
	return lj_exit_code(err);
}

/* Start the hooks beside the run: one that cannot start is a fallback (77 under --strict). */
static int start_hooks(struct lj_tool *t, const struct lj_run_desc *run)
{
	int ret = 0;

	if (!lj_hooks_start(&t->hooks, run))
		return 0;
	for (int i = 0; i < t->hooks.n && !ret; i++) {
		const struct lj_hook *h = &t->hooks.h[i];
		const char *why = h->ops->why ? h->ops->why(h->priv) : NULL;

		if (!h->started)
			ret = lj_tool_fallback(t, h->ops->name, h->start_err, why && *why ? why : NULL);
	}
	return ret;
}

/* The tool's own figures, to the verdict: after the threads are done, before the hooks stop. */
static void take_counts(struct lj_tool *t, void *tool)
{
	struct lj_tool_counts c = { 0 };

	if (!t->ops->counts)
		return;
	t->ops->counts(tool, &c);
	t->instr.samples = c.samples;
	t->instr.own_ns_per_period = c.own_ns_per_period;
	t->instr.period_ns = c.period_ns;
	if (t->validity)
		lj_vhook_counts(t->validity, c.missed, c.overflows, c.samples, c.expected, c.reached);
}

static int first(int ret, int r)
{
	return ret ? ret : lj_exit_code(r);
}

/* From start to the text report: the measurement itself. Return: the run's exit code. */
static int measure(struct lj_tool *t, void *tool, bool *started)
{
	const struct lj_tool_ops *ops = t->ops;
	bool refused;
	int64_t began;		/* the hooks had started: the instruments' cost is over the time from here */
	uint64_t span;
	int ret;

	t->run.tool = ops->name;
	ret = lj_exit_code(ops->start(tool, t, &t->run));
	if (ret)
		return ret;
	ret = start_hooks(t, &t->run);
	refused = ret != 0;
	if (refused)
		lj_stop_request();	/* --strict: the threads leave at once */
	else if (t->fallbacks[0])
		lj_warn("measuring with fallbacks: %s", t->fallbacks);
	began = lj_now_ns();
	if (ops->go)
		ret = first(ret, ops->go(tool, t));
	ret = first(ret, ops->wait(tool, t));
	span = (uint64_t)(lj_now_ns() - began);
	take_counts(t, tool);
	lj_hooks_stop(&t->hooks);
	/* What the instruments cost the measurement: after stop (their threads are joined). */
	lj_instruments_gather(&t->instr, &t->hooks, span);
	if (!refused)
		lj_instruments_judge(&t->instr, &t->hooks);
	if (refused)
		return ret;		/* refused before measuring: nothing to report */
	*started = true;
	ret = first(ret, ops->report_text(tool, t, ret));
	lj_vhook_fallbacks(t->validity, t->setup_rec);
	lj_hooks_report(&t->hooks, stderr);
	/* A report that could not be written is the run's failure, in its document too. */
	return policy_rule(t, first(ret, lj_out_flush()));
}

/* The result document: the tool's blocks, the hooks' blocks, written with the exit code. */
static int write_result(struct lj_tool *t, void *tool, bool started, int ret)
{
	int err;

	if (!t->res)
		return ret;
	ret = first(ret, t->ops->report_json(tool, t, t->res, started, ret));
	ret = first(ret, lj_hooks_contribute(&t->hooks, t->res));
	if (started)
		lj_instruments_json(&t->instr, t->res);
	lj_result_finish(t->res, ret);
	err = lj_result_write(t->res, t->desc.json);
	if (err) {
		lj_error_errno(err, "cannot write %s", t->desc.json);
		return ret ? ret : LJ_EXIT_RUNTIME;
	}
	return ret;
}

static bool hook_started(const struct lj_tool *t, const void *priv)
{
	for (int i = 0; i < t->hooks.n; i++)
		if (t->hooks.h[i].priv == priv)
			return t->hooks.h[i].started;
	return false;
}

/* --perfetto, after a run that started: the trace, named in the result's params. */
static int write_trace(struct lj_tool *t, void *tool, int argc, char **argv)
{
	struct lj_perfetto_parts parts = {
		.path = t->desc.setup->perfetto, .tool = t->ops->name, .sample = t->desc.trace_sample,
		.argc = argc, .argv = argv, .explain = t->explain, .power = t->power,
		.tool_trace = t->ops->trace, .ctx = tool,
	};
	char why[256] = "";
	int err;

	if (!hook_started(t, t->perfetto))
		return 0;	/* a fallback, said before measuring */
	err = lj_perfetto_write(t->perfetto, &parts, why, sizeof(why));
	if (err && why[0])
		lj_error("cannot write the trace %s: %s", parts.path, why);
	else if (err)
		lj_error_errno(err, "cannot write the trace %s", parts.path);
	if (err)
		return LJ_EXIT_RUNTIME;
	if (t->res)
		json_object_object_add(lj_result_params(t->res), "perfetto", json_object_new_string(parts.path));
	return 0;
}

static int run_phases(struct lj_tool *t, void *tool, int argc, char **argv)
{
	const struct lj_tool_ops *ops = t->ops;
	bool started = false;
	int ret;

	ret = begin(t, argc, argv);
	if (ret)
		return ret;
	ret = lj_exit_code(ops->prepare(tool, t));
	if (!ret && t->desc.mlock)
		ret = lock_memory(t);
	if (!ret)
		ret = add_hooks(t);
	if (!ret)
		ret = measure(t, tool, &started);
	if (started && t->perfetto)
		ret = first(ret, write_trace(t, tool, argc, argv));
	return write_result(t, tool, started, ret);
}

/* Undo the setup stack, release the hooks, the result and the topology. */
static void end(struct lj_tool *t)
{
	lj_hooks_free(&t->hooks);
	free(t->threads);
	if (t->mlocked)
		munlockall();
	if (t->applied)
		lj_setupopt_restore(t->desc.setup, t->stack);
	if (!t->res)
		json_object_put(t->setup_rec);
	lj_result_free(t->res);
	if (t->topo_loaded)
		lj_topo_free(&t->topo);
}

int lj_tool_main(const struct lj_tool_ops *ops, int argc, char **argv)
{
	struct lj_tool t = { .ops = ops };
	void *tool;
	int ret;

	lj_err_init(argv[0]);
	lj_hooks_init(&t.hooks);
	tool = calloc(1, ops->size);
	if (!tool) {
		lj_error("out of memory");
		return LJ_EXIT_RUNTIME;
	}
	ret = ops->parse(tool, argc, argv);
	if (ret == LJ_OPT_EXIT_HELP) {
		ret = LJ_EXIT_OK;
	} else if (!ret) {
		ops->describe(tool, &t.desc);
		t.strict = t.desc.setup && t.desc.setup->strict;
		if (t.desc.setup && t.desc.setup->perfetto_threshold_ns && !t.desc.setup->perfetto)
			ret = lj_usage_error("--perfetto-threshold needs --perfetto FILE");
		t.text = t.desc.json && !strcmp(t.desc.json, "-") ? stderr : stdout;
		if (!ret)
			ret = run_phases(&t, tool, argc, argv);
	}
	/* The tool's threads are joined before the setup they ran in is undone. */
	ops->free(tool);
	end(&t);
	free(tool);
	return lj_exit_flushed(ret);
}
