// SPDX-License-Identifier: GPL-2.0-or-later
/* options.c - lj-frame's option table, defaults and cross-option checks. */
#include "frame.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lj_err.h"
#include "lj_explain_hook.h"
#include "lj_opt.h"
#include "lj_parse.h"
#include "lj_time.h"

/* Long-only keys well above the shared tables' range. */
enum {
	K_FPS = LJ_OPT_LONG_BASE + 0x400,
	K_STAGES, K_WORK, K_WORK_TIME, K_LATENCY, K_POLICY,
	K_BACKGROUND, K_BG_POLICY, K_BG_PRIORITY, K_BG_PRIO, K_BG_CPUS, K_BG_LOAD, K_BG_CGROUP, K_PRIO,
	K_RAMP, K_MAX_DROP, K_RAMP_REPEAT, K_RAMP_PRECISION,
	K_TIMELINE, K_TIMELINE_INTERVAL, K_JSON, K_FAKE_WORK, K_WARMUP, K_MODEL,
	K_CALIBRATE, K_CALIB_FILE, K_FRAME_LOG, K_EXPLAIN, K_DROP_WINDOW,
};

#define AT(f) .off = offsetof(struct frm_config, f)
#define GIVEN(f) .given = LJ_OPT_GIVEN(struct frm_config, f)

_Static_assert(FRM_MODEL_DISPLAY == 0 && FRM_MODEL_STRICT == 1, "--display-model's values in the enum's order");

/*
 * Typed where the value is stored as given (lj_opt_store); the handler keeps
 * the options with logic. --prio and --bg-prio are lj-frame's old names,
 * kept as hidden aliases of --priority and --bg-priority (the other tools' name).
 */
static const struct lj_opt frame_opts[] = {
	{ "fps", K_FPS, LJ_OPT_ARG, "HZ", "display refresh rate, exact to 9 decimals (default 60; 59.94, 144...)" },
	{ "display-model", K_MODEL, LJ_OPT_ARG, "display|strict",
	  "display: a late frame shows at the next vsync (default); strict: a late frame is dropped",
	  LJ_OPT_CHOICE, AT(model), .values = "display strict" },
	{ "duration", 'D', LJ_OPT_ARG, "TIME", "run time, or one ramp trial (default 10s; ramp 1s)" },
	{ "stages", K_STAGES, LJ_OPT_ARG, "N", "pipeline stage threads per frame (default 2)",
	  LJ_OPT_INT, AT(nstages), .min = 1, .max = FRM_MAX_STAGES },
	{ "work", K_WORK, LJ_OPT_ARG, "LIST", "work units per stage, one value or one per stage" },
	{ "work-time", K_WORK_TIME, LJ_OPT_ARG, "LIST",
	  "work as time (bare number: us): ONE value is PER FRAME, split evenly over the stages;"
	  " a list gives each stage's own (default 2ms per stage)" },
	{ "latency-frames", K_LATENCY, LJ_OPT_ARG, "N", "deadline N vsyncs after the frame's vsync (default 1)",
	  LJ_OPT_INT, AT(latency_frames), .min = 1, .max = FRM_MAX_LATENCY_FRAMES },
	{ "warmup", K_WARMUP, LJ_OPT_ARG, "N", "frames run before measuring, per run or trial (default 6)",
	  LJ_OPT_INT, AT(warmup), .min = 0, .max = 1000 },
	{ "policy", K_POLICY, LJ_OPT_ARG, "POLICY", "stage threads' policy: other, batch, idle, fifo, rr (default other)",
	  .values = LJ_OPT_POLICY_VALUES,
	  .group = "stage thread options" },
	{ "priority", 'p', LJ_OPT_ARG, "PRIO", "stage threads' RT priority (implies fifo)",
	  LJ_OPT_INT, AT(prio), .min = 1, .max = 99 },
	{ "prio", K_PRIO, LJ_OPT_ARG, "PRIO", NULL, LJ_OPT_INT, AT(prio), .min = 1, .max = 99 },
	{ "background", K_BACKGROUND, LJ_OPT_ARG, "N", "N background threads competing for CPUs",
	  LJ_OPT_INT, AT(background), .min = 0, .max = FRM_MAX_BACKGROUND,
	  .group = "background load options" },
	{ "bg-policy", K_BG_POLICY, LJ_OPT_ARG, "POLICY", "background threads' policy (default other)",
	  .values = LJ_OPT_POLICY_VALUES },
	{ "bg-priority", K_BG_PRIORITY, LJ_OPT_ARG, "PRIO", "background threads' RT priority (implies fifo)",
	  LJ_OPT_INT, AT(bg_prio), .min = 1, .max = 99 },
	{ "bg-prio", K_BG_PRIO, LJ_OPT_ARG, "PRIO", NULL, LJ_OPT_INT, AT(bg_prio), .min = 1, .max = 99 },
	{ "bg-cpus", K_BG_CPUS, LJ_OPT_ARG, "SELECTOR", "background threads' CPUs (default: the run's CPUs)",
	  LJ_OPT_STRING, AT(bg_cpus), .values = LJ_OPT_CPU_SELECTOR_VALUES },
	{ "bg-cgroup", K_BG_CGROUP, LJ_OPT_ARG, "NAME|off",
	  "background threads' group: an existing one, or off for the root groups", LJ_OPT_STRING, AT(bg_cgroup) },
	{ "bg-load", K_BG_LOAD, LJ_OPT_ARG, "PCT", "background busy percentage per 10 ms (default 100)",
	  LJ_OPT_INT, AT(bg_load), .min = 1, .max = 100 },
	{ "ramp", K_RAMP, LJ_OPT_NOARG, NULL, "find the largest work per frame that holds the rate",
	  LJ_OPT_FLAG, AT(ramp),
	  .group = "ramp options" },
	{ "max-drop-rate", K_MAX_DROP, LJ_OPT_ARG, "RATE",
	  "ramp pass rule; in a fixed run exit 3 above it (0.02 or 2%; ramp default 2%)" },
	{ "ramp-repeat", K_RAMP_REPEAT, LJ_OPT_ARG, "N", "bisections at the edge, for the spread (default 3)",
	  LJ_OPT_INT, AT(ramp_repeat), .min = 1, .max = 32 },
	{ "ramp-precision", K_RAMP_PRECISION, LJ_OPT_ARG, "FRAC", "relative width ending a bisection (default 0.02)",
	  LJ_OPT_DOUBLE, AT(ramp_precision), .dmin = 0.001, .dmax = 0.5 },
	{ "timeline", K_TIMELINE, LJ_OPT_ARG, "FILE", "per-interval CSV: fps, drops, cpu frequency",
	  LJ_OPT_STRING, AT(timeline),
	  .group = "report options" },
	{ "frame-log", K_FRAME_LOG, LJ_OPT_ARG, "FILE",
	  "CSV of every measured frame: vsync, present and display times, class, stage", LJ_OPT_STRING, AT(frame_log) },
	{ "drop-window", K_DROP_WINDOW, LJ_OPT_ARG, "TIME",
	  "sliding window for the % of frames dropped (bare number: s; default 1s, Chromium's)",
	  LJ_OPT_DURATION, AT(drop_window_ns), .unit = LJ_NSEC_PER_SEC, GIVEN(drop_window_set) },
	{ "timeline-interval", K_TIMELINE_INTERVAL, LJ_OPT_ARG, "TIME", "timeline interval (bare number: ms; default 100ms)",
	  LJ_OPT_DURATION, AT(timeline_interval_ns), .unit = LJ_NSEC_PER_MSEC },
	{ "json", K_JSON, LJ_OPT_ARG, "FILE", "write the result document (- for stdout)", LJ_OPT_STRING, AT(json) },
	{ "calibrate", K_CALIBRATE, LJ_OPT_NOARG, NULL,
	  "measure ns per work unit for each core kind, store it for later runs, and exit", LJ_OPT_FLAG, AT(calibrate),
	  .group = "calibration options" },
	{ "calibration-file", K_CALIB_FILE, LJ_OPT_ARG, "FILE",
	  "the stored calibration (default /var/lib/ljkit/frame-calibration, see docs/lj-frame.md)",
	  LJ_OPT_STRING, AT(calib_file) },
	{ "explain", K_EXPLAIN, LJ_OPT_NOARG, NULL, "explain dropped and late frames from trace events (BPF or tracefs: LJ_EXPLAIN_RECORDER)",
	  .group = "diagnostic options" },
	{ "quiet", 'q', LJ_OPT_NOARG, NULL, "no text summary", LJ_OPT_FLAG, AT(quiet) },
	{ "verbose", 'v', LJ_OPT_NOARG, NULL, "more diagnostics", LJ_OPT_VERBOSITY },
	/* Test aid (docs/lj-frame.md): simulate stages taking NS per unit, no threads. */
	{ "fake-work", K_FAKE_WORK, LJ_OPT_ARG, "NS", NULL, LJ_OPT_DOUBLE, AT(fake_ns_per_unit), .dmin = 0.001, .dmax = 1e9 },
	{ 0 }
};

void frm_config_init(struct frm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->fps = 60.0;
	frm_clock_hz(&cfg->clock, 60);
	cfg->model = FRM_MODEL_DISPLAY;
	cfg->nstages = 2;
	cfg->latency_frames = 1;
	cfg->warmup = 6;
	cfg->prio = -1;
	cfg->bg_prio = -1;
	cfg->bg_load = 100;
	cfg->max_drop_rate = 0.02;
	cfg->ramp_repeat = 3;
	cfg->ramp_precision = 0.02;
	cfg->timeline_interval_ns = 100 * LJ_NSEC_PER_MSEC;
	cfg->drop_window_ns = LJ_NSEC_PER_SEC;
	lj_setupopt_init(&cfg->setup);
}

/* The name is kept: validate() resolves it with the priorities once all options are in. */
static int parse_policy(const char *opt, const char *arg, const char **name)
{
	enum lj_policy p;
	int ret;

	ret = lj_opt_policy(opt, arg, &p);
	if (!ret)
		*name = arg;
	return ret;
}

/* A rate as a fraction ("0.02") or a percentage ("2%"). */
static int parse_rate(const char *arg, double *out)
{
	char why[256] = "";
	size_t len = strlen(arg);

	if (len > 1 && arg[len - 1] == '%') {
		char buf[64];

		if (len >= sizeof(buf))
			return lj_opt_invalid("--max-drop-rate", arg, "too long");
		memcpy(buf, arg, len - 1);
		buf[len - 1] = '\0';
		/* Parsed without the '%', reported with it: the user's text. */
		if (lj_parse_double(buf, 0.0, 100.0, out, why, sizeof(why)))
			return lj_opt_invalid("--max-drop-rate", arg, why);
		*out /= 100.0;
		return 0;
	}
	return lj_opt_double("--max-drop-rate", arg, 0.0, 1.0, out);
}

/* The exact rate: vsync times are computed from it (account.h). */
static int parse_fps(const char *arg, struct frm_config *cfg)
{
	if (frm_clock_parse(arg, &cfg->clock))
		return lj_opt_invalid("--fps", arg, "not a rate in Hz (digits, up to 9 decimals)");
	cfg->fps = frm_clock_rate(&cfg->clock);
	if (cfg->fps < 1.0 || cfg->fps > 10000.0)
		return lj_opt_invalid("--fps", arg, "out of range 1..10000");
	return 0;
}

/* --work (units) or --work-time (durations): one value or one per stage. */
static int parse_work(int key, const char *arg, struct frm_config *cfg)
{
	char why[256] = "";
	int n = FRM_MAX_STAGES;

	if (key == K_WORK) {
		if (lj_parse_i64_list(arg, 0, INT64_C(1) << 40, cfg->work_units, &n, why, sizeof(why)))
			return lj_opt_invalid("--work", arg, why);
		cfg->nwork_units = n;
		return 0;
	}
	if (lj_parse_duration_list(arg, LJ_NSEC_PER_USEC, cfg->work_ns, &n, why, sizeof(why)))
		return lj_opt_invalid("--work-time", arg, why);
	for (int i = 0; i < n; i++)
		if (cfg->work_ns[i] < 0)
			return lj_opt_invalid("--work-time", arg, "negative duration");
	cfg->nwork_ns = n;
	return 0;
}

/* The options with logic: rates, lists, names resolved later, the duration's own rule. */
static int handle(void *ctx, int key, const char *arg)
{
	struct frm_config *cfg = ctx;

	switch (key) {
	case K_FPS:
		return parse_fps(arg, cfg);
	case 'D':
		if (lj_opt_duration("--duration", arg, LJ_NSEC_PER_SEC, &cfg->duration_ns))
			return LJ_EXIT_USAGE;
		if (cfg->duration_ns <= 0)
			return lj_opt_invalid("--duration", arg, "must be positive");
		cfg->duration_set = true;
		return 0;
	case K_WORK:
	case K_WORK_TIME:
		return parse_work(key, arg, cfg);
	case K_EXPLAIN:
		return lj_explain_parse(NULL, &cfg->explain);
	case K_POLICY:
		return parse_policy("--policy", arg, &cfg->policy_name);
	case K_BG_POLICY:
		return parse_policy("--bg-policy", arg, &cfg->bg_policy_name);
	case K_MAX_DROP:
		cfg->max_drop_set = true;
		return parse_rate(arg, &cfg->max_drop_rate);
	}
	return lj_usage_error("unhandled option (internal error)");
}

static int resolve_policy(const char *what, const char *name, int prio, struct lj_sched_param *p)
{
	memset(p, 0, sizeof(*p));
	p->policy = LJ_POLICY_OTHER;
	if (name)
		lj_sched_policy_parse(name, &p->policy);
	else if (prio > 0)
		p->policy = LJ_POLICY_FIFO;
	if (p->policy == LJ_POLICY_FIFO || p->policy == LJ_POLICY_RR) {
		p->priority = prio > 0 ? prio : 1;
	} else if (prio > 0) {
		return lj_usage_error("a %s priority needs --%spolicy fifo or rr", what,
				      strcmp(what, "stage") ? "bg-" : "");
	}
	return 0;
}

uint64_t frm_config_frames(const struct frm_config *cfg)
{
	return (uint64_t)llround((double)cfg->duration_ns * frm_clock_rate(&cfg->clock) / 1e9);
}

/* Checks that need every option: list lengths, mode combinations, frame count. */
static int validate(struct frm_config *cfg)
{
	int ret;

	cfg->period_ns = frm_vsync_ns(&cfg->clock, 1);
	if (cfg->nwork_units && cfg->nwork_ns)
		return lj_usage_error("--work and --work-time are exclusive");
	if (cfg->nwork_units > 1 && cfg->nwork_units != cfg->nstages)
		return lj_usage_error("--work has %d values for %d stages (give 1 or %d)",
				      cfg->nwork_units, cfg->nstages, cfg->nstages);
	if (cfg->nwork_ns > 1 && cfg->nwork_ns != cfg->nstages)
		return lj_usage_error("--work-time has %d values for %d stages (give 1 or %d)",
				      cfg->nwork_ns, cfg->nstages, cfg->nstages);
	if (!cfg->nwork_units && !cfg->nwork_ns) {
		cfg->work_ns[0] = 2 * LJ_NSEC_PER_MSEC * cfg->nstages;	/* per frame */
		cfg->nwork_ns = 1;
	}
	if (!cfg->duration_set)
		cfg->duration_ns = cfg->ramp ? LJ_NSEC_PER_SEC : 10 * LJ_NSEC_PER_SEC;
	if (cfg->duration_ns / 2 < cfg->period_ns)
		return lj_usage_error("--duration must span at least 2 frames at %.6g Hz", cfg->fps);
	if (cfg->duration_ns / cfg->period_ns > (int64_t)FRM_MAX_FRAMES)
		return lj_usage_error("--duration spans more than %llu frames",
				      (unsigned long long)FRM_MAX_FRAMES);
	if (cfg->calibrate && (cfg->ramp || cfg->timeline || cfg->frame_log || cfg->fake_ns_per_unit > 0))
		return lj_usage_error("--calibrate runs no frames: not with --ramp, --timeline, --frame-log or --fake-work");
	if (cfg->ramp && (cfg->timeline || cfg->frame_log))
		return lj_usage_error("--timeline and --frame-log are for a fixed run, not --ramp");
	if (cfg->timeline_interval_ns < cfg->period_ns)
		return lj_usage_error("--timeline-interval is shorter than a frame period");
	if (cfg->ramp && cfg->drop_window_set)
		return lj_usage_error("--drop-window is for a fixed run, not --ramp");
	if (!frm_window_frames(&cfg->clock, cfg->drop_window_ns) || cfg->drop_window_ns > FRM_MAX_DROP_WINDOW_NS)
		return lj_usage_error("--drop-window must hold a frame period and at most %lld s",
				      FRM_MAX_DROP_WINDOW_NS / LJ_NSEC_PER_SEC);
	if (!cfg->background && (cfg->bg_policy_name || cfg->bg_prio > 0 || cfg->bg_cpus || cfg->bg_cgroup ||
				 cfg->bg_load != 100))
		return lj_usage_error("background options need --background N");
	ret = resolve_policy("stage", cfg->policy_name, cfg->prio, &cfg->policy);
	if (ret)
		return ret;
	return resolve_policy("background", cfg->bg_policy_name, cfg->bg_prio, &cfg->bg_policy);
}

int frm_options_parse(struct frm_config *cfg, int argc, char **argv)
{
	struct lj_opt_table tables[2] = {
		{ "frame options", frame_opts, handle, cfg },
		lj_setupopt_table(&cfg->setup),
	};
	struct lj_opt_spec spec = {
		.usage = "[OPTIONS]",
		.summary = "Emulate a frame pipeline on vsync deadlines and count dropped frames.",
		.tables = tables,
		.ntables = 2,
		.epilog = "Metrics are defined in docs/lj-frame.md.",
	};
	int ret;

	ret = lj_opt_parse_no_operands(&spec, argc, argv);
	if (ret)
		return ret;
	return validate(cfg);
}
