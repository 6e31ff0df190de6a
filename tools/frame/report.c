// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - lj-frame's text summary (stdout) and result document. */
#include "frame.h"

#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_instr.h"
#include "lj_json.h"
#include "lj_parse.h"
#include "lj_result.h"
#include "lj_time.h"

static double us(int64_t ns)
{
	return (double)ns / 1000.0;
}

static int64_t q(const struct lj_hist *h, double p)
{
	return lj_hist_count(h) ? lj_hist_quantile(h, p) : 0;
}

/* "0:300 1:298" for the CPUs a stage ran frames on. */
static void placement(const struct frm_stage *st, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n + 1 < len; c++)
		if (st->cpu_count[c])
			n += snprintf(buf + n, len - n, "%s%d:%u", n ? " " : "", c, st->cpu_count[c]);
	if (!n)
		snprintf(buf, len, "-");
}

static double overhead_per_frame(const struct frm_trial *tr)
{
	return tr->acct.frames ? (double)tr->overhead_ns / (double)tr->acct.frames : 0.0;
}

/* The same in wall time: with the waits for the CPU after a hand-off (the next stage ran). */
static double overhead_wall_per_frame(const struct frm_trial *tr)
{
	return tr->acct.frames ? (double)tr->overhead_wall_ns / (double)tr->acct.frames : 0.0;
}

static double ms(double ns)
{
	return ns / 1e6;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

/* "on_time 170, deadline_missed 8 (stage 1: 8), ..." */
static void text_fates(FILE *out, const struct frm_config *cfg, const struct frm_account *a)
{
	fprintf(out, "frames by class:");
	for (int f = 0; f < FRM_NFATES; f++) {
		if (f == FRM_FATE_LATE && cfg->model != FRM_MODEL_STRICT)
			continue;
		fprintf(out, "%s %s %llu", f ? "," : "", frm_fate_name(f), ull(a->fate[f]));
		if (f == FRM_FATE_MISSED && a->fate[f]) {
			const char *sep = " (";

			for (int s = 0; s < cfg->nstages; s++) {
				if (!a->missed_by_stage[s])
					continue;
				fprintf(out, "%sstage %d: %llu", sep, s, ull(a->missed_by_stage[s]));
				sep = ", ";
			}
			fputc(')', out);
		}
	}
	fputc('\n', out);
}

static void text_display(FILE *out, const struct frm_config *cfg, const struct frm_trial *tr)
{
	const struct frm_account *a = &tr->acct;
	struct frm_smooth smooth;

	fprintf(out, "frames: %llu displayed: %llu dropped: %llu (%.2f%%) janky: %llu fps: %.2f"
		" smooth: %.2f%% longest streak: %llu\n",
		ull(a->frames), ull(a->displayed), ull(a->dropped), 100.0 * frm_drop_rate(a),
		ull(a->janky), frm_fps(a), frm_percentage_smooth(a), ull(a->longest_streak));
	fprintf(out, "frame_times ms: mean %.3f p50 %.3f p95 %.3f p99 %.3f discrepancy %.3f;"
		" longest freeze %.3f, freeze time %.3f\n",
		ms(frm_mean_frame_time(a)), ms((double)q(tr->frame_times, 0.5)),
		ms((double)q(tr->frame_times, 0.95)), ms((double)q(tr->frame_times, 0.99)),
		ms(tr->discrepancy_ns), ms((double)a->longest_freeze_ns), ms((double)a->freeze_ns));
	fprintf(out, "frame latency ms (vsync to display): mean %.3f p50 %.3f p99 %.3f max %.3f\n",
		ms(frm_mean_latency(a)), ms((double)q(tr->latency, 0.5)),
		ms((double)q(tr->latency, 0.99)), ms((double)a->latency_max_ns));
	text_fates(out, cfg, a);
	if (!frm_trial_smoothness(tr, &smooth)) {
		frm_smooth_text(out, cfg, &smooth);
		frm_smooth_free(&smooth);
	}
	fprintf(out, "production time us (vsync to present): p50 %.1f p95 %.1f p99 %.1f max %.1f"
		" (presented %llu)\n",
		us(q(tr->production, 0.5)), us(q(tr->production, 0.95)),
		us(q(tr->production, 0.99)), us(lj_hist_max(tr->production)), ull(a->presented));
}

static void text_trial(FILE *out, const struct frm_config *cfg, const struct frm_trial *tr)
{
	char cpus[256];

	text_display(out, cfg, tr);
	if (cfg->fake_ns_per_unit > 0)
		return;
	for (int s = 0; s < cfg->nstages; s++) {
		const struct frm_stage *st = &tr->stage[s];

		placement(st, cpus, sizeof(cpus));
		/* Only the first stage skips vsyncs; any stage can be cut short by the run's end. */
		fprintf(out, "stage %d: units %llu frames %llu", s, (unsigned long long)st->units,
			(unsigned long long)st->frames);
		if (!s)
			fprintf(out, " skipped %llu", (unsigned long long)st->skipped);
		fprintf(out, " abandoned %llu wake us: p50 %.1f p99 %.1f max %.1f"
			" cpus %s migrations %ld cs %ld/%ld\n",
			(unsigned long long)st->abandoned,
			us(q(st->lateness, 0.5)), us(q(st->lateness, 0.99)), us(lj_hist_max(st->lateness)),
			cpus, st->migrations, st->vcsw, st->ivcsw);
	}
	fprintf(out, "overhead: %.0f ns per frame (%.4f%% of the period); wall %.0f ns per frame\n",
		overhead_per_frame(tr), 100.0 * overhead_per_frame(tr) / (double)cfg->period_ns,
		overhead_wall_per_frame(tr));
}

/* Drift of this run's check against the figure used, as a fraction. */
static double drift(const struct frm_calib_kind *k)
{
	return k->ns_per_unit > 0 ? k->check_ns_per_unit / k->ns_per_unit - 1.0 : 0.0;
}

static void text_calibration(FILE *out, const struct frm_config *cfg, const struct frm_calibration *cal)
{
	uint64_t units[FRM_MAX_STAGES];
	double total = 0;

	for (int k = 0; k < cal->n; k++)
		fprintf(out, "calibration: kind %d cpus %s (cpu %d): %.3f ns per unit (%s%s%s),"
			" this run's check %.3f (drift %+.1f%%)\n",
			cal->k[k].kind, cal->k[k].cpus, cal->k[k].cpu, cal->k[k].ns_per_unit,
			cal->k[k].source, cal->file[0] ? " in " : "", cal->file,
			cal->k[k].check_ns_per_unit, 100.0 * drift(&cal->k[k]));
	if (cal->file_error[0])
		fprintf(out, "calibration file: %s\n", cal->file_error);
	if (cfg->calibrate || cal->fake)
		return;
	frm_work_resolve(cfg, cal, units);
	for (int s = 0; s < cfg->nstages; s++)
		total += (double)units[s] * cal->ns_per_unit;
	fprintf(out, "work per frame: %.3f ms (", total / 1e6);
	for (int s = 0; s < cfg->nstages; s++)
		fprintf(out, "%sstage %d: %llu units %.3f ms", s ? ", " : "", s,
			(unsigned long long)units[s], (double)units[s] * cal->ns_per_unit / 1e6);
	fprintf(out, ")\n");
}

void frm_report_text(FILE *out, const struct frm_config *cfg, const struct frm_calibration *cal,
		     const struct frm_trial *tr, const struct frm_ramp *ramp,
		     const struct lj_topo *t)
{
	fprintf(out, "lj-frame: %.9g Hz (period %.2f ns), %d stage%s, deadline %d frame%s later,"
		" %s model%s\n",
		cfg->fps, 1e9 / cfg->fps, cfg->nstages, cfg->nstages > 1 ? "s" : "",
		cfg->latency_frames, cfg->latency_frames > 1 ? "s" : "", frm_model_name(cfg->model),
		cfg->fake_ns_per_unit > 0 ? ", simulated work (--fake-work)" : "");
	text_calibration(out, cfg, cal);
	if (tr)
		text_trial(out, cfg, tr);
	if (ramp) {
		const struct frm_account *a = &ramp->total;

		if (ramp->never_passed)
			fprintf(out, "ramp: even 1 unit per frame dropped more than %.2f%%\n",
				100.0 * cfg->max_drop_rate);
		else
			fprintf(out, "ramp: max work %.0f units per frame (%.3f ms)%s, spread %.0f..%.0f"
				" (stddev %.1f) over %d bisections, %d trials\n",
				ramp->max_work, ramp->max_work * cal->ns_per_unit / 1e6,
				ramp->never_failed ? " (ceiling: never failed)" : "",
				ramp->spread_min, ramp->spread_max, ramp->spread_stddev,
				ramp->nest, ramp->npts);
		fprintf(out, "ramp totals: frames: %llu dropped: %llu\n",
			(unsigned long long)a->frames, (unsigned long long)a->dropped);
	}
}

static json_object *policy_json(const struct lj_sched_param *p)
{
	json_object *o = json_object_new_object();

	lj_json_add(o, "policy", json_object_new_string(lj_sched_policy_name(p->policy)));
	lj_json_add(o, "priority", lj_json_int(p->priority));
	return o;
}

static void params_json(json_object *p, const struct frm_config *cfg,
			const struct frm_calibration *cal, const uint64_t *units)
{
	json_object *arr = json_object_new_array(), *cal_arr = json_object_new_array();
	json_object *ns = json_object_new_array();

	lj_json_add(p, "mode", json_object_new_string(cfg->ramp ? "ramp" : "fixed"));
	lj_json_add(p, "fps", lj_json_num(cfg->fps));
	lj_json_add(p, "fps_num", lj_json_int(cfg->clock.num));
	lj_json_add(p, "fps_den", lj_json_int(cfg->clock.den));
	lj_json_add(p, "period_ns", lj_json_num(1e9 / cfg->fps));
	lj_json_add(p, "display_model", json_object_new_string(frm_model_name(cfg->model)));
	lj_json_add(p, "duration_ns", lj_json_int(cfg->duration_ns));
	lj_json_add(p, "stages", lj_json_int(cfg->nstages));
	lj_json_add(p, "latency_frames", lj_json_int(cfg->latency_frames));
	lj_json_add(p, "warmup_frames", lj_json_int(cfg->warmup));
	for (int s = 0; s < cfg->nstages; s++) {
		json_object_array_add(arr, lj_json_int((int64_t)units[s]));
		json_object_array_add(ns, lj_json_int((int64_t)((double)units[s] * cal->ns_per_unit)));
	}
	lj_json_add(p, cfg->ramp ? "work_ratio_units" : "work_units", arr);
	lj_json_add(p, cfg->ramp ? "work_ratio_ns" : "work_ns", ns);
	lj_json_add(p, "stage_policy", policy_json(&cfg->policy));
	if (cfg->background) {
		json_object *bg = policy_json(&cfg->bg_policy);

		lj_json_add(bg, "threads", lj_json_int(cfg->background));
		lj_json_add(bg, "cpus", cfg->bg_cpus ? json_object_new_string(cfg->bg_cpus) : NULL);
		lj_json_add(bg, "cgroup", cfg->bg_cgroup ? json_object_new_string(cfg->bg_cgroup) : NULL);
		lj_json_add(bg, "load_pct", lj_json_int(cfg->bg_load));
		lj_json_add(p, "background", bg);
	}
	lj_json_add(p, "max_drop_rate", lj_json_num(cfg->max_drop_rate));
	if (cfg->ramp) {
		lj_json_add(p, "ramp_repeat", lj_json_int(cfg->ramp_repeat));
		lj_json_add(p, "ramp_precision", lj_json_num(cfg->ramp_precision));
	}
	if (cfg->timeline)
		lj_json_add(p, "timeline_interval_ns", lj_json_int(cfg->timeline_interval_ns));
	if (!cfg->ramp)
		lj_json_add(p, "drop_window_ns", lj_json_int(cfg->drop_window_ns));
	if (cal->fake)
		lj_json_add(p, "fake_ns_per_unit", lj_json_num(cfg->fake_ns_per_unit));
	for (int k = 0; k < cal->n; k++) {
		json_object *c = json_object_new_object();

		lj_json_add(c, "kind", lj_json_int(cal->k[k].kind));
		lj_json_add(c, "cpus", json_object_new_string(cal->k[k].cpus));
		lj_json_add(c, "cpu", lj_json_int(cal->k[k].cpu));
		lj_json_add(c, "ns_per_unit", lj_json_num(cal->k[k].ns_per_unit));
		lj_json_add(c, "source", json_object_new_string(cal->k[k].source ? cal->k[k].source : "run"));
		lj_json_add(c, "khz", cal->k[k].khz ? lj_json_int(cal->k[k].khz) : NULL);
		lj_json_add(c, "measured_at", lj_json_int(cal->k[k].measured_at));
		lj_json_add(c, "check_ns_per_unit", lj_json_num(cal->k[k].check_ns_per_unit));
		lj_json_add(c, "drift", lj_json_num(drift(&cal->k[k])));
		json_object_array_add(cal_arr, c);
	}
	lj_json_add(p, "calibration", cal_arr);
	lj_json_add(p, "ns_per_unit", lj_json_num(cal->ns_per_unit));
	if (!cal->fake) {
		lj_json_add(p, "calibration_id", json_object_new_string(cal->id));
		lj_json_add(p, "calibration_file", cal->file[0] ? json_object_new_string(cal->file) : NULL);
		if (cal->file_error[0])
			lj_json_add(p, "calibration_file_error", json_object_new_string(cal->file_error));
	}
}

static json_object *stage_json(const struct frm_stage *st, const struct lj_topo *t)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_object();
	json_object *kinds = json_object_new_object();
	uint64_t per_kind[LJ_TOPO_MAX_KINDS + 1] = { 0 };
	char key[16];

	lj_json_add(o, "name", json_object_new_string(st->index ? "stage" : "stage (vsync source)"));
	lj_json_add(o, "stage", lj_json_int(st->index));
	lj_json_add(o, "tid", lj_json_int(st->tid));
	lj_json_add(o, "units", lj_json_int((int64_t)st->units));
	lj_json_add(o, "frames", lj_json_int((int64_t)st->frames));
	lj_json_add(o, "skipped", lj_json_int((int64_t)st->skipped));
	lj_json_add(o, "abandoned", lj_json_int((int64_t)st->abandoned));
	lj_json_add(o, "busy_starts", lj_json_int((int64_t)st->busy_starts));
	lj_json_add(o, "ring_full", lj_json_int((int64_t)st->ring_full));
	lj_json_add(o, "policy_error", st->policy_err ? json_object_new_string(lj_strerror(st->policy_err)) : NULL);
	lj_json_add(o, "wake_lateness", lj_result_hist_json(st->lateness, true));
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int k;

		if (!st->cpu_count[c])
			continue;
		snprintf(key, sizeof(key), "%d", c);
		lj_json_add(cpus, key, lj_json_int(st->cpu_count[c]));
		k = t ? lj_topo_kind_of(t, c) : -1;
		per_kind[k >= 0 && k < LJ_TOPO_MAX_KINDS ? k : LJ_TOPO_MAX_KINDS] += st->cpu_count[c];
	}
	for (int k = 0; k <= LJ_TOPO_MAX_KINDS; k++) {
		if (!per_kind[k])
			continue;
		if (k == LJ_TOPO_MAX_KINDS)
			snprintf(key, sizeof(key), "unknown");
		else
			snprintf(key, sizeof(key), "%d", k);
		lj_json_add(kinds, key, lj_json_int((int64_t)per_kind[k]));
	}
	lj_json_add(o, "frames_per_cpu", cpus);
	lj_json_add(o, "frames_per_kind", kinds);
	lj_json_add(o, "cpu_changes", lj_json_int((int64_t)st->cpu_changes));
	lj_json_add(o, "migrations", st->migrations >= 0 ? lj_json_int(st->migrations) : NULL);
	lj_json_add(o, "voluntary_switches", st->vcsw >= 0 ? lj_json_int(st->vcsw) : NULL);
	lj_json_add(o, "involuntary_switches", st->ivcsw >= 0 ? lj_json_int(st->ivcsw) : NULL);
	lj_json_add(o, "cpu_ns", lj_json_int(st->cpu_ns));
	lj_json_add(o, "work_ns", lj_json_int(st->work_ns));
	/* The work each frame got: wall time (preemption included) and the thread's CPU time. */
	lj_json_add(o, "work_ns_per_frame", lj_json_num(st->frames ? (double)st->work_ns / (double)st->frames : 0.0));
	lj_json_add(o, "cpu_ns_per_frame", lj_json_num(st->frames ? (double)st->cpu_ns / (double)st->frames : 0.0));
	lj_json_add(o, "overhead_ns", lj_json_int(st->overhead_ns));
	lj_json_add(o, "overhead", lj_result_hist_json(st->overhead, false));
	lj_json_add(o, "overhead_wall_ns", lj_json_int(st->overhead_wall_ns));
	lj_json_add(o, "overhead_wall", lj_result_hist_json(st->overhead_wall, false));
	return o;
}

/*
 * |interval - period| between the presents of consecutive kept frames:
 * completion jitter, which the display hides inside a period but which
 * shows how steadily the pipeline delivered. The accounting core records
 * it only into a histogram it is given, so the trial is replayed here.
 */
static json_object *present_jitter_json(const struct frm_config *cfg, const struct frm_trial *tr)
{
	struct lj_hist *h = lj_hist_new();
	struct frm_account a;
	json_object *o;

	if (!h)
		return NULL;
	frm_account_init(&a, &cfg->clock, cfg->latency_frames, cfg->model);
	a.jitter = h;
	frm_account_frames(&a, tr->frames, tr->warmup, tr->nrun, NULL, NULL);
	o = lj_result_hist_json(h, true);
	lj_hist_free(h);
	return o;
}

/* The display's view: frame_times (display intervals) and the freezes. */
static json_object *frame_times_json(const struct frm_trial *tr)
{
	const struct frm_account *a = &tr->acct;
	json_object *o = lj_result_hist_json(tr->frame_times, true);

	lj_json_add(o, "name", json_object_new_string("frame_times"));
	lj_json_add(o, "mean_frame_time_ns", lj_json_num(frm_mean_frame_time(a)));
	lj_json_add(o, "intervals", lj_json_int((int64_t)a->intervals));
	lj_json_add(o, "smooth_intervals", lj_json_int((int64_t)a->smooth));
	lj_json_add(o, "percentage_smooth", lj_json_num(frm_percentage_smooth(a)));
	lj_json_add(o, "frame_time_discrepancy_ns", lj_json_num(tr->discrepancy_ns));
	lj_json_add(o, "longest_freeze_ns", lj_json_int(a->longest_freeze_ns));
	lj_json_add(o, "freeze_time_ns", lj_json_int(a->freeze_ns));
	return o;
}

static json_object *latency_json(const struct frm_trial *tr)
{
	json_object *o = lj_result_hist_json(tr->latency, true);

	lj_json_add(o, "name", json_object_new_string("frame_latency"));
	lj_json_add(o, "mean_ns", lj_json_num(frm_mean_latency(&tr->acct)));
	return o;
}

static json_object *production_json(const struct frm_config *cfg, const struct frm_trial *tr)
{
	const struct frm_account *a = &tr->acct;
	json_object *o = lj_result_hist_json(tr->production, true);

	lj_json_add(o, "name", json_object_new_string("production_time"));
	lj_json_add(o, "p95_ns", lj_json_int(q(tr->production, 0.95)));
	lj_json_add(o, "presented", lj_json_int((int64_t)a->presented));
	lj_json_add(o, "steady_intervals", lj_json_int((int64_t)a->steady));
	lj_json_add(o, "present_intervals", lj_json_int((int64_t)a->present_intervals));
	lj_json_add(o, "percentage_steady", lj_json_num(frm_percentage_steady(a)));
	lj_json_add(o, "present_jitter", present_jitter_json(cfg, tr));
	return o;
}

/* Every frame's class, FrameTimeline style. */
static json_object *classes_json(const struct frm_config *cfg, const struct frm_account *a)
{
	json_object *o = json_object_new_object(), *by = json_object_new_array();

	lj_json_add(o, "name", json_object_new_string("frames"));
	lj_json_add(o, "display_model", json_object_new_string(frm_model_name(cfg->model)));
	lj_json_add(o, "frames", lj_json_int((int64_t)a->frames));
	lj_json_add(o, "displayed", lj_json_int((int64_t)a->displayed));
	lj_json_add(o, "dropped", lj_json_int((int64_t)a->dropped));
	lj_json_add(o, "janky", lj_json_int((int64_t)a->janky));
	for (int f = 0; f < FRM_NFATES; f++)
		lj_json_add(o, frm_fate_name(f), lj_json_int((int64_t)a->fate[f]));
	for (int s = 0; s < cfg->nstages; s++)
		json_object_array_add(by, lj_json_int((int64_t)a->missed_by_stage[s]));
	lj_json_add(o, "deadline_missed_by_stage", by);
	lj_json_add(o, "longest_streak", lj_json_int((int64_t)a->longest_streak));
	return o;
}

static void summary_account(struct lj_result *res, const struct frm_account *a)
{
	lj_result_summary(res, "frames", (double)a->frames, "frames", LJ_BETTER_NONE);
	lj_result_summary(res, "displayed", (double)a->displayed, "frames", LJ_BETTER_HIGHER);
	lj_result_summary(res, "dropped", (double)a->dropped, "frames", LJ_BETTER_LOWER);
	lj_result_summary(res, "janky", (double)a->janky, "frames", LJ_BETTER_LOWER);
	lj_result_summary(res, "drop_rate", frm_drop_rate(a), "ratio", LJ_BETTER_LOWER);
	lj_result_summary(res, "fps", frm_fps(a), "Hz", LJ_BETTER_HIGHER);
	lj_result_summary(res, "percentage_smooth", frm_percentage_smooth(a), "%", LJ_BETTER_HIGHER);
	lj_result_summary(res, "mean_frame_time", frm_mean_frame_time(a), "ns", LJ_BETTER_LOWER);
	lj_result_summary(res, "mean_frame_latency", frm_mean_latency(a), "ns", LJ_BETTER_LOWER);
	lj_result_summary(res, "longest_freeze", (double)a->longest_freeze_ns, "ns", LJ_BETTER_LOWER);
	lj_result_summary(res, "freeze_time", (double)a->freeze_ns, "ns", LJ_BETTER_LOWER);
	lj_result_summary(res, "longest_streak", (double)a->longest_streak, "frames", LJ_BETTER_LOWER);
}

/*
 * side.instruments.emulator: lj-frame's own cost per frame, all stages
 * and each (bookkeeping and hand-off around the work: docs/validity.md,
 * "The instruments' own cost"), beside the limit the verdict holds it to.
 */
static json_object *emulator_json(const struct frm_config *cfg, const struct frm_trial *tr)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	double ovh = overhead_per_frame(tr);

	lj_json_add(o, "overhead_ns_per_frame", lj_json_num(ovh));
	lj_json_add(o, "share_pct", lj_json_num(100.0 * ovh / (double)cfg->period_ns));
	lj_json_add(o, "limit_pct", lj_json_num(100.0 * LJ_INSTR_EMULATOR_LIMIT));
	for (int s = 0; s < cfg->nstages; s++) {
		const struct frm_stage *st = &tr->stage[s];
		json_object *e = json_object_new_object();

		lj_json_add(e, "stage", lj_json_int(s));
		lj_json_add(e, "overhead_ns_per_frame", st->frames ? lj_json_num((double)st->overhead_ns / (double)st->frames) : NULL);
		lj_json_add(e, "overhead_wall_ns_per_frame", st->frames ?
			    lj_json_num((double)st->overhead_wall_ns / (double)st->frames) : NULL);
		lj_json_add(e, "cpu_ns_per_frame", st->frames && st->cpu_ns >= 0 ?
		    lj_json_num((double)st->cpu_ns / (double)st->frames) : NULL);
		json_object_array_add(arr, e);
	}
	lj_json_add(o, "stages", arr);
	return o;
}

/* One object per stage, and the sums and the emulator's own cost in side. */
static void stages_json(struct lj_result *res, const struct frm_config *cfg,
			const struct frm_trial *tr, const struct lj_topo *t)
{
	json_object *results = lj_result_results(res), *side = lj_result_side(res);
	long migr = 0, vcsw = 0, ivcsw = 0;
	double ovh = overhead_per_frame(tr);

	for (int s = 0; s < cfg->nstages; s++) {
		const struct frm_stage *st = &tr->stage[s];

		json_object_array_add(results, stage_json(st, t));
		migr += st->migrations > 0 ? st->migrations : 0;
		vcsw += st->vcsw > 0 ? st->vcsw : 0;
		ivcsw += st->ivcsw > 0 ? st->ivcsw : 0;
	}
	lj_json_add(side, "migrations", lj_json_int(migr));
	lj_json_add(side, "voluntary_switches", lj_json_int(vcsw));
	lj_json_add(side, "involuntary_switches", lj_json_int(ivcsw));
	/* Where the timeline's t_s = 0 is on CLOCK_MONOTONIC (the first measured vsync). */
	lj_json_add(side, "timeline_t0_ns", lj_json_int(frm_trial_vsync(tr, tr->warmup)));
	lj_json_add(side, "overhead_ns_per_frame", lj_json_num(ovh));
	lj_json_add(side, "overhead_pct_of_period", lj_json_num(100.0 * ovh / (double)cfg->period_ns));
	lj_json_add(side, "overhead_wall_ns_per_frame", lj_json_num(overhead_wall_per_frame(tr)));
	lj_json_add(side, "instruments", json_object_new_object());
	lj_json_add(json_object_object_get(side, "instruments"), "emulator", emulator_json(cfg, tr));
	/* lj-frame's main thread while the stages ran: the validity hook's 100 ms polls */
	lj_json_add(side, "main_thread_cpu_ns", lj_json_int(tr->main_cpu_ns));
	lj_json_add(side, "main_thread_cpu_pct", lj_json_num(tr->main_wall_ns > 0 ? 100.0 * (double)tr->main_cpu_ns /
						(double)tr->main_wall_ns : 0));
}

static void trial_json(struct lj_result *res, const struct frm_config *cfg,
		       const struct frm_trial *tr, const struct lj_topo *t)
{
	json_object *results = lj_result_results(res);
	const struct frm_account *a = &tr->acct;
	struct frm_smooth smooth;

	json_object_array_add(results, frame_times_json(tr));
	json_object_array_add(results, latency_json(tr));
	json_object_array_add(results, classes_json(cfg, a));
	json_object_array_add(results, production_json(cfg, tr));
	summary_account(res, a);
	lj_result_summary(res, "frame_time_discrepancy", tr->discrepancy_ns, "ns", LJ_BETTER_LOWER);
	lj_result_summary_hist(res, "frame_latency_", tr->latency);
	lj_result_summary_hist(res, "production_", tr->production);
	if (cfg->fake_ns_per_unit <= 0)
		stages_json(res, cfg, tr, t);
	/* After the stages' objects: readers that index the results keep their places. */
	if (!frm_trial_smoothness(tr, &smooth)) {
		frm_smooth_json(res, cfg, &smooth);
		frm_smooth_free(&smooth);
	}
}

static int cmp_point(const void *a, const void *b)
{
	const struct frm_ramp_point *x = a, *y = b;

	return x->work < y->work ? -1 : x->work > y->work;
}

static void ramp_json(struct lj_result *res, const struct frm_config *cfg,
		      const struct frm_calibration *cal, const struct frm_ramp *r)
{
	json_object *o = json_object_new_object(), *curve = json_object_new_array();
	json_object *est = json_object_new_array();
	struct frm_ramp_point *pts = malloc((r->npts ? r->npts : 1) * sizeof(*pts));

	lj_json_add(o, "name", json_object_new_string("ramp"));
	lj_json_add(o, "max_work", lj_json_num(r->max_work));
	lj_json_add(o, "max_work_ns", lj_json_num(r->max_work * cal->ns_per_unit));
	lj_json_add(o, "spread_min", lj_json_num(r->spread_min));
	lj_json_add(o, "spread_max", lj_json_num(r->spread_max));
	lj_json_add_num(o, "spread_stddev", r->spread_stddev,
			"one bisection (--ramp-repeat 1): a spread needs two");
	lj_json_add(o, "never_failed", json_object_new_boolean(r->never_failed));
	lj_json_add(o, "never_passed", json_object_new_boolean(r->never_passed));
	lj_json_add(o, "trials", lj_json_int(r->npts));
	lj_json_add(o, "elapsed_ns", lj_json_int(r->elapsed_ns));
	for (int i = 0; i < r->nest; i++)
		json_object_array_add(est, lj_json_num(r->estimates[i]));
	lj_json_add(o, "estimates", est);
	if (pts) {
		memcpy(pts, r->pts, r->npts * sizeof(*pts));
		qsort(pts, r->npts, sizeof(*pts), cmp_point);
		for (int i = 0; i < r->npts; i++) {
			json_object *p = json_object_new_object();

			lj_json_add(p, "work", lj_json_int((int64_t)pts[i].work));
			lj_json_add(p, "work_ns", lj_json_num((double)pts[i].work * cal->ns_per_unit));
			lj_json_add(p, "fps", lj_json_num(pts[i].fps));
			lj_json_add(p, "drop_rate", lj_json_num(pts[i].drop_rate));
			lj_json_add(p, "percentage_smooth", lj_json_num(pts[i].smooth));
			lj_json_add(p, "production_p99_ns", lj_json_int(pts[i].production_p99_ns));
			lj_json_add(p, "frames", lj_json_int((int64_t)pts[i].frames));
			lj_json_add(p, "dropped", lj_json_int((int64_t)pts[i].dropped));
			lj_json_add(p, "pass", json_object_new_boolean(pts[i].pass));
			lj_json_add(p, "phase", json_object_new_string(pts[i].repeat < 0 ? "coarse" : "bisect"));
			if (pts[i].repeat >= 0)
				lj_json_add(p, "bisection", lj_json_int(pts[i].repeat));
			json_object_array_add(curve, p);
		}
		free(pts);
	}
	lj_json_add(o, "curve", curve);
	lj_json_add(o, "frames", lj_json_int((int64_t)r->total.frames));
	lj_json_add(o, "dropped", lj_json_int((int64_t)r->total.dropped));
	json_object_array_add(lj_result_results(res), o);
	/* Rates over a ramp mix passing and failing trials: only the counts. */
	lj_result_summary(res, "frames", (double)r->total.frames, "frames", LJ_BETTER_NONE);
	lj_result_summary(res, "dropped", (double)r->total.dropped, "frames", LJ_BETTER_NONE);
	lj_result_summary(res, "max_work", r->max_work, "units", LJ_BETTER_HIGHER);
	lj_result_summary(res, "max_work_ns", r->max_work * cal->ns_per_unit, "ns", LJ_BETTER_HIGHER);
	lj_result_summary(res, "max_work_spread", r->spread_max - r->spread_min, "units", LJ_BETTER_LOWER);
	(void)cfg;
}

void frm_report_json(struct lj_result *res, const struct frm_config *cfg,
		     const struct frm_calibration *cal, const struct frm_trial *tr,
		     const struct frm_ramp *ramp, const struct lj_topo *t)
{
	uint64_t units[FRM_MAX_STAGES];

	frm_work_resolve(cfg, cal, units);
	params_json(lj_result_params(res), cfg, cal, units);
	if (tr)
		trial_json(res, cfg, tr, t);
	if (ramp)
		ramp_json(res, cfg, cal, ramp);
}
