// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_power_hook - the power sampler beside a run: summary metrics, the "power" block, throttling as a validity reason. */
#include "lj_power_hook.h"
#include "lj_alternate.h"
#include "lj_err.h"
#include "lj_hot.h"
#include "lj_instr.h"
#include "lj_parse.h"
#include "lj_power_report.h"
#include "lj_powersample.h"
#include "lj_result.h"
#include "lj_topo.h"
#include "lj_validity_hook.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PW_ROOT "/sys"
#define PW_INTERVAL_NS 100000000u	/* 10 Hz: sees a counter wrap, costs nothing measurable */

struct lj_power_hook {
	struct lj_hooks *hs;
	int nkinds;
	cpu_set_t kinds[LJ_TOPO_MAX_KINDS];
	char kind_tag[LJ_TOPO_MAX_KINDS][16];
	struct lj_pw_sampler *sampler;
	struct lj_pw_figures fig;
	bool derived;
	char throttle[400];		/* why the run counts as throttled */
	size_t series_max;		/* readings kept as a series, 0: none */
	uint32_t alternate_ms;		/* LJ_POWER_ALTERNATE: windows with and without the sampler; 0 off */
	struct lj_alternate *alt;
	char alt_why[200];		/* asked for and not started: why */
};

/* Kinds in metric names: little and big for two, kindN for more, "all" for one kind of several clusters. */
static void take_kinds(struct lj_power_hook *h, const struct lj_topo *topo)
{
	h->nkinds = topo->nkinds < LJ_TOPO_MAX_KINDS ? topo->nkinds : LJ_TOPO_MAX_KINDS;
	for (int k = 0; k < h->nkinds; k++) {
		h->kinds[k] = topo->kinds[k].cpus;
		if (h->nkinds == 1)
			snprintf(h->kind_tag[k], sizeof(h->kind_tag[k]), "all");
		else if (h->nkinds == 2)
			snprintf(h->kind_tag[k], sizeof(h->kind_tag[k]), "%s", k ? "big" : "little");
		else
			snprintf(h->kind_tag[k], sizeof(h->kind_tag[k]), "kind%d", k);
	}
}

struct lj_power_hook *lj_power_hook_new(struct lj_hooks *hs, const struct lj_topo *topo)
{
	struct lj_power_hook *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->hs = hs;
	if (topo && topo->nkinds > 0)
		take_kinds(h, topo);
	return h;
}

int lj_power_hook_add(struct lj_hooks *hs, const struct lj_topo *topo, struct lj_power_hook **out)
{
	struct lj_alternate_opts alt;
	struct lj_power_hook *h;
	char why[200];
	int ret;

	if (out)
		*out = NULL;
	if (lj_alternate_parse(getenv(LJ_POWER_ALTERNATE_ENV), NULL, &alt, why, sizeof(why)))
		return lj_usage_error("%s: %s", LJ_POWER_ALTERNATE_ENV, why);
	h = lj_power_hook_new(hs, topo);
	if (!h)
		return -ENOMEM;
	h->alternate_ms = alt.ms;
	/* With windows every sample comes in (lj_alternate); else none. */
	ret = lj_hooks_add(hs, &lj_power_hook_ops, h, alt.ms ? 0 : UINT64_MAX);
	if (ret)
		lj_power_hook_ops.free(h);
	else if (out)
		*out = h;
	return ret;
}

void lj_power_hook_keep_series(struct lj_power_hook *h, size_t max)
{
	if (h)
		h->series_max = max;
}

const struct lj_pw_series *lj_power_hook_series(const struct lj_power_hook *h, const struct lj_pw_snap **first)
{
	const struct lj_pw_series *se = h && h->sampler ? lj_pw_sampler_series(h->sampler) : NULL;

	if (first)
		*first = se ? lj_pw_sampler_first(h->sampler) : NULL;
	return se;
}

const struct lj_pw_figures *lj_power_hook_figures(const struct lj_power_hook *h)
{
	return h && h->derived ? &h->fig : NULL;
}

static int set_sampler(void *ctx, bool on, char *why, size_t len)
{
	lj_pw_sampler_pause(((struct lj_power_hook *)ctx)->sampler, !on);
	return 0;
}

static uint64_t readings(void *ctx)
{
	return lj_pw_sampler_steps(((struct lj_power_hook *)ctx)->sampler);
}

static const char *sampler_unavailable(void *ctx)
{
	return lj_pw_sampler_threaded(((struct lj_power_hook *)ctx)->sampler) ? NULL :
	       "no sampler thread runs here (nothing to read but at the run's ends)";
}

static const struct lj_alternate_ops windows = {
	set_sampler, readings, sampler_unavailable, LJ_POWER_ALTERNATE_ENV, "asleep", "readings"
};

static int ph_start(void *priv, const struct lj_run_desc *run)
{
	struct lj_power_hook *h = priv;
	int err = lj_pw_sampler_start(&h->sampler, PW_ROOT, PW_INTERVAL_NS, run ? &run->measured : NULL,
				      h->series_max);

	if (!err && h->alternate_ms && run &&
	    lj_alternate_start(&h->alt, h->alternate_ms, &windows, h, run, h->alt_why, sizeof(h->alt_why)))
		lj_warn("--power: %s", h->alt_why);
	return err;
}

static void LJ_HOT ph_late(void *priv, const struct lj_late *ev)
{
	struct lj_power_hook *h = priv;

	if (h->alt && ev->kind == LJ_LATE_SAMPLE)
		lj_alternate_sample(h->alt, ev->due_ns, ev->ran_ns);
}

static void append(char *buf, size_t len, const char *text)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? "; " : "", text);
}

/* The words for why the run was throttled, from the figures. */
static void throttle_text(struct lj_power_hook *h)
{
	const struct lj_pw_figures *f = &h->fig;
	char line[200], cpus[64];

	for (int i = 0; i < f->nclusters; i++)
		if (f->cl[i].capped) {
			snprintf(line, sizeof(line), "cpus %s max frequency capped %.0f -> %.0f MHz",
				 lj_cpulist_format(&f->cl[i].cpus, cpus, sizeof(cpus)),
				 (double)f->cl[i].limit_start_khz / 1e3, (double)f->cl[i].limit_min_khz / 1e3);
			append(h->throttle, sizeof(h->throttle), line);
		}
	for (int i = 0; i < f->ntrips; i++)
		if (strcmp(f->trip[i].type, "active")) {
			snprintf(line, sizeof(line), "%s crossed its %s trip point %.1f C (%.1f -> %.1f C)",
				 f->trip[i].zone, f->trip[i].type, f->trip[i].trip_c, f->trip[i].start_c, f->trip[i].max_c);
			append(h->throttle, sizeof(h->throttle), line);
		}
	if (f->throttle_events) {
		snprintf(line, sizeof(line), "%llu thermal throttle events", (unsigned long long)f->throttle_events);
		append(h->throttle, sizeof(h->throttle), line);
	}
}

/* The validity hook of the same list, if the tool registered one. */
static void mark_suspect(struct lj_power_hook *h)
{
	lj_vhook_reason_in(h->hs, LJ_SUSPECT, "throttle", h->throttle);
}

static void ph_stop(void *priv)
{
	struct lj_power_hook *h = priv;

	if (!h->sampler || h->derived)
		return;
	lj_alternate_stop(h->alt);
	lj_pw_sampler_stop(h->sampler);
	if (lj_pw_sampler_derive(h->sampler, &h->fig))
		return;
	h->derived = true;
	if (h->fig.throttled) {
		throttle_text(h);
		mark_suspect(h);
	}
}

static double summary_value(struct lj_result *res, const char *metric)
{
	json_object *s, *m, *v;

	if (!json_object_object_get_ex(lj_result_root(res), "summary", &s) ||
	    !json_object_object_get_ex(s, metric, &m) || !json_object_object_get_ex(m, "value", &v))
		return NAN;
	return json_object_get_double(v);
}

static void metric(struct lj_result *res, const char *name, double v, const char *unit, enum lj_better b)
{
	if (isfinite(v))
		lj_result_summary(res, name, v, unit, b);
}

static void cluster_metrics(struct lj_result *res, const struct lj_pw_cluster *c)
{
	char name[48], tag[16];

	if (c->id >= 0)
		snprintf(tag, sizeof(tag), "c%d", c->id);
	else
		snprintf(tag, sizeof(tag), "all");
	if (c->from != LJ_PWF_NONE) {
		snprintf(name, sizeof(name), "freq_avg_mhz_%s", tag);
		metric(res, name, c->avg_khz / 1e3, "MHz", LJ_BETTER_NONE);
	}
	snprintf(name, sizeof(name), "freq_min_share_%s", tag);
	metric(res, name, c->share_min * 100, "%", LJ_BETTER_NONE);
	snprintf(name, sizeof(name), "freq_max_share_%s", tag);
	metric(res, name, c->share_max * 100, "%", LJ_BETTER_NONE);
	if (c->has_trans) {
		snprintf(name, sizeof(name), "freq_trans_%s", tag);
		metric(res, name, (double)c->trans, "count", LJ_BETTER_LOWER);
	}
	snprintf(name, sizeof(name), "idle_share_%s", tag);
	metric(res, name, c->idle_share * 100, "%", LJ_BETTER_NONE);
}

/*
 * Per core kind: with several kinds always; with one, only when it spans
 * several clusters (x86's per-CPU policies), else it repeats the cluster.
 */
static void kind_metrics(struct lj_result *res, const struct lj_power_hook *h)
{
	struct lj_pw_kindfig kf[LJ_TOPO_MAX_KINDS];
	char name[48];

	if (!h->nkinds || (h->nkinds == 1 && h->fig.nclusters < 2))
		return;
	lj_pw_kinds(&h->fig, h->kinds, h->nkinds, kf);
	for (int k = 0; k < h->nkinds; k++) {
		if (kf[k].from != LJ_PWF_NONE) {
			snprintf(name, sizeof(name), "freq_avg_mhz_%s", h->kind_tag[k]);
			metric(res, name, kf[k].avg_khz / 1e3, "MHz", LJ_BETTER_NONE);
		}
		if (h->fig.cl[0].id >= 0 || h->nkinds > 1) {	/* no cpufreq, one kind: idle_share_all is there */
			snprintf(name, sizeof(name), "idle_share_%s", h->kind_tag[k]);
			metric(res, name, kf[k].idle_share * 100, "%", LJ_BETTER_NONE);
		}
	}
}

/* Energy per unit of the tool's work: per frame (lj-frame), per million messages (lj-hackbench). */
static void work_metrics(struct lj_result *res, const struct lj_pw_figures *f)
{
	double frames = summary_value(res, "frames");
	double msgs = summary_value(res, "msgs_per_s") * summary_value(res, "time");

	metric(res, "energy_per_frame_mj", lj_pw_per_unit(f, frames, 1e3), "mJ", LJ_BETTER_LOWER);
	metric(res, "energy_per_mmsg_j", lj_pw_per_unit(f, msgs, 1e6), "J", LJ_BETTER_LOWER);
}

static int ph_contribute(void *priv, struct lj_result *res)
{
	struct lj_power_hook *h = priv;
	const struct lj_pw_figures *f = &h->fig;
	const struct lj_pw_snap *first;
	json_object *side;
	double tmax = NAN;

	if (!h->sampler)
		return 0;
	first = lj_pw_sampler_first(h->sampler);
	side = lj_power_json(first, h->derived ? f : NULL, h->throttle);
	if (h->alternate_ms) {
		json_object_object_add(side, "alternate", h->alt ? lj_alternate_json(h->alt) : NULL);
		json_object_object_add(side, "alternate_unavailable", h->alt_why[0] ? json_object_new_string(h->alt_why) : NULL);
	}
	json_object_object_add(lj_result_side(res), "power", side);
	if (!h->derived)
		return 0;
	for (int i = 0; i < f->nclusters; i++)
		cluster_metrics(res, &f->cl[i]);
	kind_metrics(res, h);
	if (f->have_energy) {
		metric(res, "energy_j", f->energy_j, "J", LJ_BETTER_LOWER);
		metric(res, "power_w", f->power_w, "W", LJ_BETTER_LOWER);
		work_metrics(res, f);
	}
	for (int i = 0; i < f->nzone; i++)
		if (isnan(tmax) || f->zone[i].max_c > tmax)
			tmax = f->zone[i].max_c;
	metric(res, "temp_max_c", tmax, "C", LJ_BETTER_LOWER);
	if (first->have[LJ_PWO_CPUFREQ] || first->have[LJ_PWO_THERMAL] || first->have[LJ_PWO_THROTTLE])
		metric(res, "throttled", f->throttled ? 1 : 0, "count", LJ_BETTER_LOWER);
	return 0;
}

static void ph_report(void *priv, FILE *out)
{
	struct lj_power_hook *h = priv;

	if (h->sampler)
		lj_power_print(lj_pw_sampler_first(h->sampler), h->derived ? &h->fig : NULL, h->throttle, out);
}

/* The sampler thread during the run; the first and last snapshots are read outside it. */
static int ph_cost(void *priv, struct lj_instr_cost *c)
{
	struct lj_power_hook *h = priv;
	struct lj_pw_cost pc;

	if (!h->sampler)
		return 0;
	lj_pw_sampler_cost(h->sampler, &pc);
	*c = (struct lj_instr_cost){ .name = "power", .what = "--power's sampler", .cpu_ns = pc.thread_ns,
				     .after_ns = pc.edge_ns, .passes = pc.samples, .threaded = pc.threaded,
				     .apart = pc.apart };
	return 1;
}

static void ph_free(void *priv)
{
	struct lj_power_hook *h = priv;

	if (!h)
		return;
	lj_alternate_free(h->alt);
	lj_pw_sampler_free(h->sampler);
	lj_power_figures_free(&h->fig);
	free(h);
}

const struct lj_hook_ops lj_power_hook_ops = {
	.name = "power",
	.start = ph_start,
	.late = ph_late,
	.stop = ph_stop,
	.contribute = ph_contribute,
	.report = ph_report,
	.free = ph_free,
	.cost = ph_cost,
};
