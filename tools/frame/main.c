// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-frame: wires options, setup, calibration, the run or ramp, and the reports. */
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_cpufreq.h"
#include "lj_err.h"
#include "lj_opt.h"
#include "lj_result.h"
#include "lj_stop.h"
#include "lj_time.h"
#include "lj_tool.h"

struct frm_main {
	struct frm_config cfg;
	struct lj_topo topo;
	struct lj_setup *stack;
	struct lj_result *res;
	struct frm_calibration cal;
	struct frm_trial trial;
	struct frm_ramp ramp;
	struct frm_background *bg;
	struct lj_cpufreq_sampler *freq;
	char freq_why[128];
	bool ran_trial, ran_ramp;
};

/*
 * Note a fallback in the result's setup.fallbacks as {"what", "reason"},
 * the shape lj_setupopt and the other tools (lj_tool_fallback) record.
 */
static void record_fallback(struct frm_main *m, const char *what, int err)
{
	json_object *setup, *arr, *o;

	if (!m->res)
		return;
	setup = lj_result_setup(m->res);
	if (!json_object_object_get_ex(setup, "fallbacks", &arr)) {
		arr = json_object_new_array();
		json_object_object_add(setup, "fallbacks", arr);
	}
	o = json_object_new_object();
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "reason", json_object_new_string(lj_strerror(err)));
	json_object_array_add(arr, o);
}

/* A policy the stage or background threads cannot get: fatal under --strict, else OTHER. */
static int check_policy(struct frm_main *m, struct lj_sched_param *p, const char *who)
{
	char what[96];
	int err;

	if (p->policy == LJ_POLICY_OTHER && !p->nice)
		return 0;
	err = frm_policy_probe(p);
	if (!err)
		return 0;
	snprintf(what, sizeof(what), "%s policy %s", who, lj_sched_policy_name(p->policy));
	if (m->cfg.setup.strict) {
		lj_error_errno(err, "cannot set %s", what);
		return lj_exit_code(err) == LJ_EXIT_NOCAP ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
	}
	lj_warn_errno(err, "cannot set %s, running as other", what);
	record_fallback(m, what, err);
	memset(p, 0, sizeof(*p));
	p->policy = LJ_POLICY_OTHER;
	return 0;
}

/* Memory locked, policies checked: before anything is measured. */
static int prepare(struct frm_main *m)
{
	int ret;

	if (!getenv("LJ_SANITIZE") && m->cfg.fake_ns_per_unit <= 0) {
		ret = lj_sched_mlockall();
		if (ret) {
			lj_warn_errno(ret, "cannot lock memory");
			record_fallback(m, "mlockall", ret);
		}
	}
	ret = check_policy(m, &m->cfg.policy, "stage");
	if (!ret && m->cfg.background)
		ret = check_policy(m, &m->cfg.bg_policy, "background");
	return ret;
}

/* Frequency samples of the run's CPUs, from a housekeeping CPU where one exists. */
static void start_freq(struct frm_main *m)
{
	cpu_set_t cpus;
	int ret;

	if (m->cfg.fake_ns_per_unit > 0) {
		snprintf(m->freq_why, sizeof(m->freq_why), "simulated run");
		return;
	}
	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		snprintf(m->freq_why, sizeof(m->freq_why), "%s", lj_strerror(-errno));
		return;
	}
	if (lj_cpufreq_available(&cpus, m->freq_why, sizeof(m->freq_why)))
		return;
	ret = lj_cpufreq_sampler_start(&m->freq, &cpus, 10 * LJ_NSEC_PER_MSEC,
				       lj_topo_housekeeping_cpu(&m->topo, &cpus), 1 << 16);
	if (ret) {
		m->freq = NULL;
		snprintf(m->freq_why, sizeof(m->freq_why), "sampler: %s", lj_strerror(ret));
	}
}

static int run(struct frm_main *m)
{
	struct frm_config *cfg = &m->cfg;
	uint64_t units[FRM_MAX_STAGES];
	const char *what;
	int ret, err;

	ret = frm_calibrate(&m->topo, cfg, &m->cal);
	if (ret) {
		lj_error_errno(ret, "calibration failed");
		return LJ_EXIT_RUNTIME;
	}
	if (cfg->calibrate)
		return 0;	/* stored; report() prints it */
	frm_work_resolve(cfg, &m->cal, units);
	if (cfg->fake_ns_per_unit <= 0) {
		ret = frm_background_start(cfg, &m->topo, &m->bg, &err, &what);
		if (ret)
			return ret;
		if (err && cfg->setup.strict) {
			lj_error_errno(err, "cannot apply %s to the background threads", what);
			frm_background_stop(m->bg);
			m->bg = NULL;
			return lj_exit_code(err) == LJ_EXIT_NOCAP ? LJ_EXIT_NOCAP : LJ_EXIT_RUNTIME;
		}
		if (err) {
			lj_warn_errno(err, "cannot apply %s to the background threads, running without", what);
			record_fallback(m, what, err);
		}
	}
	start_freq(m);
	if (cfg->ramp) {
		ret = frm_ramp_run(&m->ramp, cfg, &m->cal, units);
		m->ran_ramp = !ret || ret == -EINTR;
	} else {
		ret = frm_trial_run(&m->trial, cfg, units);
		m->ran_trial = !ret;
	}
	if (m->freq)
		lj_cpufreq_sampler_stop(m->freq);
	frm_background_stop(m->bg);
	m->bg = NULL;
	if (ret == -EINTR)
		ret = 0;	/* interrupted: report what was measured */
	if (ret) {
		lj_error_errno(ret, "run failed");
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

/* "unavailable: why" when no samples were taken. */
static json_object *unavailable(const char *why)
{
	char buf[192];

	snprintf(buf, sizeof(buf), "unavailable: %s", why[0] ? why : "unknown reason");
	return json_object_new_string(buf);
}

static int report(struct frm_main *m)
{
	const struct frm_config *cfg = &m->cfg;
	const struct frm_trial *tr = m->ran_trial ? &m->trial : NULL;
	const struct frm_ramp *ramp = m->ran_ramp ? &m->ramp : NULL;
	const struct lj_cpufreq_sample *smp = NULL;
	size_t nsmp = 0, dropped = 0;
	int ret = 0;

	if (m->freq)
		smp = lj_cpufreq_sampler_samples(m->freq, &nsmp, &dropped);
	if (cfg->timeline && tr) {
		int err = frm_timeline_write(cfg->timeline, tr, cfg->timeline_interval_ns, smp, nsmp);

		if (err) {
			lj_error_errno(err, "cannot write timeline %s", cfg->timeline);
			ret = LJ_EXIT_RUNTIME;
		}
	}
	if (cfg->frame_log && tr) {
		int err = frm_frame_log_write(cfg->frame_log, tr);

		if (err) {
			lj_error_errno(err, "cannot write frame log %s", cfg->frame_log);
			ret = LJ_EXIT_RUNTIME;
		}
	}
	if (!cfg->quiet)
		frm_report_text(stdout, cfg, &m->cal, tr, ramp, &m->topo);
	if (!ret && tr && cfg->max_drop_set && frm_drop_rate(&tr->acct) > cfg->max_drop_rate) {
		if (!cfg->quiet)
			printf("threshold: drop rate %.2f%% > --max-drop-rate %.2f%%\n",
			       100.0 * frm_drop_rate(&tr->acct), 100.0 * cfg->max_drop_rate);
		ret = LJ_EXIT_THRESHOLD;
	}
	if (m->res) {
		json_object *side = lj_result_side(m->res);

		frm_report_json(m->res, cfg, &m->cal, tr, ramp, &m->topo);
		if (m->freq)
			json_object_object_add(side, "cpufreq", lj_cpufreq_sampler_json(m->freq));
		else
			json_object_object_add(side, "cpufreq", unavailable(m->freq_why));
		if (lj_stop_requested())
			json_object_object_add(side, "interrupted", json_object_new_boolean(1));
		lj_result_finish(m->res, ret);
		if (lj_result_write(m->res, cfg->json)) {
			lj_error("cannot write %s", cfg->json);
			ret = LJ_EXIT_RUNTIME;
		}
	}
	return ret;
}

/* A run that could not measure still leaves a document saying why it ended. */
static void report_failure(struct frm_main *m, int ret)
{
	frm_report_json(m->res, &m->cfg, &m->cal, NULL, NULL, &m->topo);
	lj_result_finish(m->res, ret);
	if (lj_result_write(m->res, m->cfg.json))
		lj_error("cannot write %s", m->cfg.json);
}

/* The files the run will write, checked before anything is measured. */
static int check_paths(const struct frm_config *cfg)
{
	const char *paths[] = { cfg->json, cfg->timeline, cfg->frame_log };

	return lj_tool_check_outputs(paths, sizeof(paths) / sizeof(paths[0]));
}

int main(int argc, char **argv)
{
	struct frm_main *m = calloc(1, sizeof(*m));
	int ret;

	lj_err_init(argv[0]);
	if (!m) {
		lj_error("out of memory");
		return LJ_EXIT_RUNTIME;
	}
	frm_config_init(&m->cfg);
	ret = frm_options_parse(&m->cfg, argc, argv);
	if (ret) {
		free(m);
		return ret == LJ_OPT_EXIT_HELP ? LJ_EXIT_OK : ret;
	}
	ret = check_paths(&m->cfg);
	if (ret) {
		free(m);
		return ret;
	}
	/*
	 * First thing after parsing: a SIGINT that came while the topology
	 * loaded would otherwise be lost (a background job starts with it
	 * ignored) or kill the run unreported. The setup, applied later,
	 * then unwinds normally when a signal stops the run.
	 */
	ret = lj_stop_install();
	if (ret) {
		lj_error_errno(ret, "cannot install signal handlers");
		free(m);
		return LJ_EXIT_RUNTIME;
	}
	if (lj_topo_load(&m->topo)) {
		free(m);
		return LJ_EXIT_RUNTIME;
	}
	if (m->cfg.json) {
		m->res = lj_result_new("lj-frame", argc, argv);
		if (!m->res) {
			lj_error("out of memory");
			ret = LJ_EXIT_RUNTIME;
			goto out_topo;
		}
	}
	ret = lj_setupopt_apply(&m->cfg.setup, &m->topo, &m->stack,
				m->res ? lj_result_setup(m->res) : NULL);
	if (ret)
		goto out_res;
	ret = prepare(m);
	if (!ret)
		ret = run(m);
	if (!ret)
		ret = report(m);
	else if (m->res)
		report_failure(m, ret);
	lj_setupopt_restore(&m->cfg.setup, m->stack);
out_res:
	frm_trial_free(&m->trial);	/* no-op when no trial ran */
	frm_ramp_free(&m->ramp);
	if (m->freq)
		lj_cpufreq_sampler_free(m->freq);
	if (m->res)
		lj_result_free(m->res);
out_topo:
	lj_topo_free(&m->topo);
	free(m);
	return ret;
}
