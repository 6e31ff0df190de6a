// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - lj-frame: wires options, setup, calibration, the run or ramp, and the reports. */
#include "frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lj_cpufreq.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_opt.h"
#include "lj_result.h"
#include "lj_stop.h"
#include "lj_time.h"
#include "lj_tool.h"

struct frm_main {
	struct frm_config cfg;
	const struct lj_topo *topo;
	struct frm_calibration cal;
	uint64_t units[FRM_MAX_STAGES];
	struct frm_trial trial;
	struct frm_ramp ramp;
	struct frm_background *bg;
	struct frm_told told;		/* the hooks each trial tells of its threads */
	struct lj_cpufreq_sampler *freq;
	char freq_why[128];
	bool ran_trial, ran_ramp, failed;
};

/*
 * A policy the stage or background threads cannot get: a fallback to OTHER (77 under
 * --strict); the stages measure, so theirs makes the run invalid (lj_tool_policy_fallback).
 */
static int check_policy(struct lj_tool *t, struct lj_sched_param *p, const char *who, bool measuring)
{
	char what[96];
	int err;

	if (p->policy == LJ_POLICY_OTHER && !p->nice)
		return 0;
	err = frm_policy_probe(p);
	if (!err)
		return 0;
	snprintf(what, sizeof(what), "%s policy %s", who, lj_sched_policy_name(p->policy));
	if ((measuring ? lj_tool_policy_fallback : lj_tool_fallback)(t, what, err, NULL))
		return LJ_EXIT_NOCAP;
	memset(p, 0, sizeof(*p));
	p->policy = LJ_POLICY_OTHER;
	return 0;
}

static int parse(void *p, int argc, char **argv)
{
	struct frm_main *m = p;

	frm_config_init(&m->cfg);
	return frm_options_parse(&m->cfg, argc, argv);
}

static void describe(void *p, struct lj_tool_desc *d)
{
	struct frm_main *m = p;

	d->json = m->cfg.json;
	d->outputs[0] = m->cfg.timeline;
	d->outputs[1] = m->cfg.frame_log;
	d->setup = &m->cfg.setup;
	d->mlock = m->cfg.fake_ns_per_unit <= 0;	/* a simulated run measures nothing */
	d->explain = &m->cfg.explain;	/* the ramp's trials tell the recorder their threads, no late frame */
}

/* Policies checked before anything is measured. */
static int prepare(void *p, struct lj_tool *t)
{
	struct frm_main *m = p;
	int ret;

	m->topo = &t->topo;
	ret = check_policy(t, &m->cfg.policy, "stage", true);
	if (!ret && m->cfg.background)
		ret = check_policy(t, &m->cfg.bg_policy, "background", false);
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
				       lj_topo_housekeeping_cpu(m->topo, &cpus), 1 << 16);
	if (ret) {
		m->freq = NULL;
		snprintf(m->freq_why, sizeof(m->freq_why), "sampler: %s", lj_strerror(ret));
	}
}

/* Calibration (memory locked), the background load, the frequency sampler; the stages start in wait. */
static int start(void *p, struct lj_tool *t, struct lj_run_desc *desc)
{
	struct frm_main *m = p;
	struct frm_config *cfg = &m->cfg;
	const char *what;
	int ret, err;

	ret = frm_calibrate(&t->topo, cfg, &m->cal);
	if (ret) {
		lj_error_errno(ret, "calibration failed");
		return LJ_EXIT_RUNTIME;
	}
	if (cfg->calibrate)
		return 0;	/* measured and stored: report_text() prints it */
	frm_work_resolve(cfg, &m->cal, m->units);
	if (cfg->fake_ns_per_unit <= 0) {
		ret = frm_background_start(cfg, &t->topo, &m->bg, &err, &what);
		if (ret)
			return ret;
		if (err && lj_tool_fallback(t, what, err, NULL)) {
			frm_background_stop(m->bg);
			m->bg = NULL;
			return LJ_EXIT_NOCAP;
		}
	}
	start_freq(m);
	/* The stage threads exist only inside a trial: each tells the hooks their ids (frm_told). */
	if (sched_getaffinity(0, sizeof(desc->measured), &desc->measured))
		CPU_ZERO(&desc->measured);
	m->told.hooks = &t->hooks;
	m->told.nbg = frm_background_threads(m->bg, m->told.bg, FRM_MAX_BACKGROUND);
	m->trial.hooks = &t->hooks;
	m->trial.told = &m->told;
	return 0;
}

/* The run or the ramp, to its end or a stop; then the load and the sampler stop. */
static int wait_run(void *p, struct lj_tool *t)
{
	struct frm_main *m = p;
	struct frm_config *cfg = &m->cfg;
	int ret;

	if (cfg->calibrate)
		return 0;
	if (cfg->ramp) {
		ret = frm_ramp_run(&m->ramp, cfg, &m->cal, m->units, &m->told);
		m->ran_ramp = !ret || ret == -EINTR;
	} else {
		ret = frm_trial_run(&m->trial, cfg, m->units);
		m->ran_trial = !ret;
	}
	if (m->freq)
		lj_cpufreq_sampler_stop(m->freq);
	frm_background_stop(m->bg);
	m->bg = NULL;
	lj_hooks_threads(&t->hooks, NULL, 0);	/* none left to read back */
	if (ret == -EINTR)
		ret = 0;	/* interrupted: report what was measured */
	if (ret) {
		lj_error_errno(ret, "run failed");
		m->failed = true;
		return LJ_EXIT_RUNTIME;
	}
	return 0;
}

/* The timeline file, the text, the --max-drop-rate gate. */
static int report_text(void *p, struct lj_tool *t, int ret)
{
	struct frm_main *m = p;
	const struct frm_config *cfg = &m->cfg;
	const struct frm_trial *tr = m->ran_trial ? &m->trial : NULL;
	const struct lj_cpufreq_sample *smp = NULL;
	size_t nsmp = 0, dropped = 0;

	if (m->failed)
		return 0;	/* nothing measured to report */
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
		frm_report_text(stdout, cfg, &m->cal, tr, m->ran_ramp ? &m->ramp : NULL, m->topo);
	if (!ret && tr && cfg->max_drop_set && frm_drop_rate(&tr->acct) > cfg->max_drop_rate) {
		if (!cfg->quiet)
			printf("threshold: drop rate %.2f%% > --max-drop-rate %.2f%%\n",
			       100.0 * frm_drop_rate(&tr->acct), 100.0 * cfg->max_drop_rate);
		return LJ_EXIT_THRESHOLD;
	}
	return ret;
}

/* The frames, the ramp, the frequency samples; a run that could not measure still says why it ended. */
static int report_json(void *p, struct lj_tool *t, struct lj_result *res, bool started, int ret)
{
	struct frm_main *m = p;
	bool measured = started && !m->failed;
	json_object *side = lj_result_side(res);

	if (!m->topo)
		return 0;	/* ended before its setup: the document says only how */
	frm_report_json(res, &m->cfg, &m->cal, measured && m->ran_trial ? &m->trial : NULL,
			measured && m->ran_ramp ? &m->ramp : NULL, m->topo);
	if (!measured)
		return 0;
	if (m->freq)
		json_object_object_add(side, "cpufreq", lj_cpufreq_sampler_json(m->freq));
	else
		json_object_object_add(side, "cpufreq",
				       lj_json_strf("unavailable: %s", m->freq_why[0] ? m->freq_why : "unknown reason"));
	if (lj_stop_requested())
		json_object_object_add(side, "interrupted", json_object_new_boolean(1));
	return 0;
}

/* A fixed run's frames and lj-frame's own overhead per frame, for the verdict (the ramp's trials: none). */
static void counts(void *p, struct lj_tool_counts *c)
{
	struct frm_main *m = p;

	if (!m->ran_trial || m->failed)
		return;
	c->samples = m->trial.acct.frames;
	c->period_ns = (uint64_t)m->cfg.period_ns;
	c->own_ns_per_period = m->trial.acct.frames ? (double)m->trial.overhead_ns / (double)m->trial.acct.frames : 0;
}

/* --perfetto: a fixed run's stages, frames, display and window counters (the ramp keeps no frames). */
static int trace(void *p, struct lj_tef *w, uint32_t pid)
{
	struct frm_main *m = p;

	return m->ran_trial && !m->failed ? frm_trace_write(&m->trial, w, pid) : 0;
}

static void free_tool(void *p)
{
	struct frm_main *m = p;

	frm_background_stop(m->bg);
	frm_trial_free(&m->trial);	/* no-op when no trial ran */
	frm_ramp_free(&m->ramp);
	if (m->freq)
		lj_cpufreq_sampler_free(m->freq);
}

static const struct lj_tool_ops frm_ops = {
	.name = "lj-frame", .size = sizeof(struct frm_main),
	.parse = parse, .describe = describe, .prepare = prepare, .start = start,
	.wait = wait_run, .counts = counts, .report_text = report_text, .report_json = report_json, .trace = trace,
	.free = free_tool,
};

int main(int argc, char **argv)
{
	return lj_tool_main(&frm_ops, argc, argv);
}
