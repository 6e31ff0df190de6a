// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * headline - "how good is this machine?": the first lines of `make quick`, from one
 * lj-matrix run directory: per workload the root-group, all-CPU cell's median over its
 * runs (in microseconds), the runs' validity verdicts, and one line of identity context.
 */
#include "compare.h"
#include "lj_err.h"
#include "lj_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HL_MAX_RUNS 64

/* A cell's runs, read from their result files. */
struct hl_cell {
	json_object *docs[HL_MAX_RUNS];
	int n;
	size_t nvalidity[CMP_VALIDITY_N];
	char why[24];			/* the most frequent reason of the non-valid runs */
};

/* The cell the headline shows: root groups, all CPUs, the governor as it was. */
static int cell_score(json_object *cell)
{
	json_object *axes, *v;
	int score = 0;

	if (!json_object_object_get_ex(cell, "axes", &axes))
		return 0;
	score += json_object_object_get_ex(axes, "cgroup", &v) && !strcmp(json_object_get_string(v), "off");
	score += json_object_object_get_ex(axes, "cpus", &v) && !strcmp(json_object_get_string(v), "all");
	score += json_object_object_get_ex(axes, "governor", &v) && !strcmp(json_object_get_string(v), "keep");
	return score;
}

static json_object *pick_cell(json_object *cells, const char *workload)
{
	json_object *best = NULL;
	int best_score = -1;

	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *c = json_object_array_get_idx(cells, i), *w, *runs;
		int sc;

		if (!json_object_object_get_ex(c, "workload", &w) || strcmp(json_object_get_string(w), workload) ||
		    !json_object_object_get_ex(c, "runs", &runs) || !json_object_array_length(runs))
			continue;
		sc = cell_score(c);
		if (sc > best_score) {
			best = c;
			best_score = sc;
		}
	}
	return best;
}

static void read_cell(const char *dir, json_object *cell, struct hl_cell *hc)
{
	json_object *runs, *f;
	int reasons[8] = { 0 };
	const char *names[8] = { 0 };

	memset(hc, 0, sizeof(*hc));
	json_object_object_get_ex(cell, "runs", &runs);
	for (size_t i = 0; i < json_object_array_length(runs) && hc->n < HL_MAX_RUNS; i++) {
		json_object *doc, *val, *verdict, *rs;
		char path[4096];

		if (!json_object_object_get_ex(json_object_array_get_idx(runs, i), "file", &f))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, json_object_get_string(f));
		doc = json_object_from_file(path);
		if (!doc)
			continue;
		hc->docs[hc->n++] = doc;
		if (!json_object_object_get_ex(doc, "validity", &val) ||
		    !json_object_object_get_ex(val, "verdict", &verdict)) {
			hc->nvalidity[CMP_VALIDITY_UNKNOWN]++;
			continue;
		}
		for (int k = 0; k < CMP_VALIDITY_UNKNOWN; k++)
			hc->nvalidity[k] += !strcmp(json_object_get_string(verdict), cmp_validity_names[k]);
		if (!json_object_object_get_ex(val, "reasons", &rs))
			continue;
		/* tally the kinds of reasons at the run's own verdict, to name the commonest */
		for (size_t j = 0; j < json_object_array_length(rs); j++) {
			json_object *w, *lv;
			const char *what;
			int k;

			if (!json_object_object_get_ex(json_object_array_get_idx(rs, j), "what", &w) ||
			    (json_object_object_get_ex(json_object_array_get_idx(rs, j), "level", &lv) &&
			     strcmp(json_object_get_string(lv), json_object_get_string(verdict))))
				continue;
			what = json_object_get_string(w);
			for (k = 0; k < 8 && names[k] && strcmp(names[k], what); k++)
				;
			if (k < 8) {
				names[k] = what;
				reasons[k]++;
			}
		}
	}
	for (int k = 0, best = 0; k < 8 && names[k]; k++)
		if (reasons[k] > best) {
			best = reasons[k];
			snprintf(hc->why, sizeof(hc->why), "%s", names[k]);
		}
}

static void free_cell(struct hl_cell *hc)
{
	for (int i = 0; i < hc->n; i++)
		json_object_put(hc->docs[i]);
	hc->n = 0;
}

/* The median over the cell's runs of summary metric @m; NAN when no run has it. */
static double median_of(const struct hl_cell *hc, const char *m)
{
	double v[HL_MAX_RUNS];
	size_t n = 0;

	for (int i = 0; i < hc->n; i++) {
		json_object *sum, *e, *x;

		if (json_object_object_get_ex(hc->docs[i], "summary", &sum) &&
		    json_object_object_get_ex(sum, m, &e) && json_object_object_get_ex(e, "value", &x) && x &&
		    isfinite(json_object_get_double(x)))
			v[n++] = json_object_get_double(x);
	}
	return n ? lj_stats_quantile(v, n, 0.5) : NAN;
}

/* Microseconds with three significant digits, as the tables print them. */
static void us(char *buf, size_t len, double ns)
{
	double u = ns / 1000;
	int dec = u <= 0 ? 0 : 2 - (int)floor(log10(u));

	if (isnan(ns))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f us", dec < 0 ? 0 : dec > 3 ? 3 : dec, u);
}

static void verdict_text(const struct hl_cell *hc, char *buf, size_t len)
{
	size_t judged = (size_t)hc->n - hc->nvalidity[CMP_VALIDITY_UNKNOWN];

	if (!judged)
		snprintf(buf, len, "no verdict (the tool does not check validity yet)");
	else if (hc->nvalidity[CMP_VALIDITY_INVALID])
		snprintf(buf, len, "invalid (%zu of %d runs: %s)", hc->nvalidity[CMP_VALIDITY_INVALID], hc->n, hc->why);
	else if (hc->nvalidity[CMP_VALIDITY_SUSPECT])
		snprintf(buf, len, "suspect (%zu of %d runs: %s)", hc->nvalidity[CMP_VALIDITY_SUSPECT], hc->n, hc->why);
	else
		snprintf(buf, len, "valid (%d runs)", hc->n);
}

static const char *param_str(const struct hl_cell *hc, const char *key, char *buf, size_t len)
{
	json_object *p, *v;

	buf[0] = '\0';
	if (hc->n && json_object_object_get_ex(hc->docs[0], "params", &p) && json_object_object_get_ex(p, key, &v))
		snprintf(buf, len, "%s", json_object_get_string(v));
	return buf;
}

/* The policy lj-cyclic's first thread ran at (results[0]: after a fallback, other 0), else the one asked. */
static void ran_policy(const struct hl_cell *hc, char *pol, size_t plen, char *prio, size_t prlen)
{
	json_object *res, *th, *v;

	param_str(hc, "policy", pol, plen);
	param_str(hc, "priority", prio, prlen);
	if (!json_object_object_get_ex(hc->docs[0], "results", &res) || !json_object_array_length(res))
		return;
	th = json_object_array_get_idx(res, 0);
	if (json_object_object_get_ex(th, "policy", &v))
		snprintf(pol, plen, "%s", json_object_get_string(v));
	if (json_object_object_get_ex(th, "priority", &v))
		snprintf(prio, prlen, "%s", json_object_get_string(v));
}

/* "p99.9: 600 samples per run, a bound from data needs 3688": the quantile is near the run's max. */
static void tail_note_text(const struct hl_cell *hc, char *buf, size_t len)
{
	double samples = median_of(hc, "samples");
	size_t need = lj_plan_quantile_samples(0.999, 0.05);

	buf[0] = '\0';
	if (!isnan(samples) && samples < (double)need)
		snprintf(buf, len, "(p99.9 from %.0f samples per run: a 97.5%% bound from data needs %zu)", samples,
			 need);
}

/* The shared percentile set's label of summary metric @key ("p99.9" for p99_9), else @key. */
static const char *metric_label(const char *key)
{
	for (int i = 0; i < LJ_PCT_N; i++)
		if (!strcmp(key, lj_pcts[i].name))
			return lj_pcts[i].label;
	return key;
}

/* The headline's latency figures: "p50 12.3 us  p99 45.6 us  max 78.9 us" for @keys (NULL-ended). */
static void latency_line(const struct hl_cell *hc, const char *const *keys, char *line, size_t len)
{
	size_t used = 0;

	line[0] = '\0';
	for (int i = 0; keys[i] && used < len; i++) {
		char v[32];

		us(v, sizeof(v), median_of(hc, keys[i]));
		used += (size_t)snprintf(line + used, len - used, "%s%s %s", i ? "  " : "", metric_label(keys[i]), v);
	}
}

static const char *const latency_keys[] = { "p50", "p99", "p99_9", "max", NULL };

/* Does the first run's summary have metric @key in ns? */
static bool has_ns_metric(const struct hl_cell *hc, const char *key)
{
	json_object *sum, *e, *u;

	return json_object_object_get_ex(hc->docs[0], "summary", &sum) && json_object_object_get_ex(sum, key, &e) &&
	       json_object_object_get_ex(e, "unit", &u) && !strcmp(json_object_get_string(u), "ns");
}

/*
 * A tool the headline does not know, by its own summary: the shared
 * latency set when it has one in ns, else its first four metrics with a
 * direction, each the median over the runs in its own unit.
 */
static void own_metrics_line(const struct hl_cell *hc, char *line, size_t len)
{
	json_object *sum, *u, *b;
	size_t used = 0;
	int shown = 0;

	if (has_ns_metric(hc, "p50") && has_ns_metric(hc, "p99") && has_ns_metric(hc, "max")) {
		latency_line(hc, latency_keys, line, len);
		return;
	}
	snprintf(line, len, "(no summary metrics)");
	if (!json_object_object_get_ex(hc->docs[0], "summary", &sum))
		return;
	json_object_object_foreach(sum, key, e) {
		char v[32];
		double m;

		if (shown == 4 || used >= len)
			break;
		if (!json_object_object_get_ex(e, "better", &b) || !strcmp(json_object_get_string(b), "none"))
			continue;
		m = median_of(hc, key);
		if (json_object_object_get_ex(e, "unit", &u) && !strcmp(json_object_get_string(u), "ns"))
			us(v, sizeof(v), m);
		else
			snprintf(v, sizeof(v), isnan(m) ? "-" : "%.4g%s%s", m, u ? " " : "", u ? json_object_get_string(u) : "");
		used += (size_t)snprintf(line + used, len - used, "%s%s %s", shown ? "  " : "", metric_label(key), v);
		shown++;
	}
}

/*
 * lj-frame: drops over the run, janky intervals, and the worst sliding
 * window (Chromium's DroppedFrameCounter), which a run-wide rate hides:
 * 200 ms stalled in 10 s is 2 % of the run and 20 % of its worst second.
 */
static void frame_line(const struct hl_cell *hc, const char *workload, char *what, size_t wlen,
		       char *line, size_t llen)
{
	double fps = median_of(hc, "fps"), frames = median_of(hc, "frames");
	double worst = median_of(hc, "window_dropped_max");
	char win[32], sec[64] = "";
	int n;

	snprintf(what, wlen, "frames (%s, %.0f FPS)", workload, isnan(fps) ? 0 : round(fps));
	n = snprintf(line, llen, "dropped %.2f%% (%.0f of %.0f)  janky %.2f%% of intervals",
		     100 * median_of(hc, "drop_rate"), median_of(hc, "dropped"), frames,
		     100 - median_of(hc, "percentage_smooth"));
	if (isnan(worst) || n < 0 || (size_t)n >= llen)
		return;
	if (*param_str(hc, "drop_window_ns", win, sizeof(win)))
		snprintf(sec, sizeof(sec), "%.9g s ", atof(win) / 1e9);
	snprintf(line + n, llen - (size_t)n, "  worst %swindow %.2f%%", sec, worst);
}

/* One workload's line: what it measures, in the unit people read. */
static void workload_line(FILE *out, const char *workload, const struct hl_cell *hc)
{
	char what[96], v[128], pol[16], prio[16];
	json_object *tool;
	const char *t = json_object_object_get_ex(hc->docs[0], "tool", &tool) ? json_object_get_string(tool) : "";
	char line[256], note[160] = "";

	verdict_text(hc, v, sizeof(v));
	if (!strcmp(t, "lj-cyclic")) {
		ran_policy(hc, pol, sizeof(pol), prio, sizeof(prio));
		snprintf(what, sizeof(what), "timer wake-up (%s, %s %s)", workload, pol, prio);
		latency_line(hc, latency_keys, line, sizeof(line));
		tail_note_text(hc, note, sizeof(note));
	} else if (!strcmp(t, "lj-signal")) {
		param_str(hc, "policy", pol, sizeof(pol));
		param_str(hc, "priority", prio, sizeof(prio));
		snprintf(what, sizeof(what), "signal hop (%s, %s %s)", workload, pol, prio);
		latency_line(hc, (const char *const[]){ "p50", "p99", "max", NULL }, line, sizeof(line));
	} else if (!strcmp(t, "lj-frame")) {
		frame_line(hc, workload, what, sizeof(what), line, sizeof(line));
	} else if (!strcmp(t, "lj-oslat")) {
		param_str(hc, "policy", pol, sizeof(pol));
		param_str(hc, "priority", prio, sizeof(prio));
		snprintf(what, sizeof(what), "OS noise (%s, %s%s%s)", workload, pol, strcmp(prio, "0") ? " " : "",
			 strcmp(prio, "0") ? prio : "");
		latency_line(hc, (const char *const[]){ "p99_9", "p99_99", "max", NULL }, line, sizeof(line));
	} else if (!strcmp(t, "lj-hackbench")) {
		snprintf(what, sizeof(what), "messaging (%s)", workload);
		snprintf(line, sizeof(line), "%.0f msgs/s  (%.3f s per run)", median_of(hc, "msgs_per_s"),
			 median_of(hc, "time"));
	} else {
		snprintf(what, sizeof(what), "%s (%s)", *t ? t : "unknown tool", workload);
		own_metrics_line(hc, line, sizeof(line));
	}
	fprintf(out, "  %-34s %-58s %s\n", what, line, v);
	if (*note)
		fprintf(out, "  %-34s %s\n", "", note);
}

/* One line on what in this machine's identity explains its numbers. */
static void context_line(FILE *out, json_object *man)
{
	json_object *sys, *x, *cells;
	char ctx[512] = "";
	size_t used = 0, skipped = 0;

	if (!json_object_object_get_ex(man, "system", &sys))
		return;
	if (json_object_object_get_ex(sys, "virtualised", &x) && x && strcmp(json_object_get_string(x), "none"))
		used += snprintf(ctx + used, sizeof(ctx) - used, "a %s guest: the host's noise dominates max",
				 json_object_get_string(x));
	if (json_object_object_get_ex(man, "cells", &cells))
		for (size_t i = 0; i < json_object_array_length(cells); i++) {
			json_object *r;

			skipped += json_object_object_get_ex(json_object_array_get_idx(cells, i), "reason", &r) && r;
		}
	if (json_object_object_get_ex(sys, "cpufreq", &x) && !strncmp(json_object_get_string(x), "unavailable", 11) &&
	    used < sizeof(ctx))
		used += snprintf(ctx + used, sizeof(ctx) - used, "%sno cpufreq driver: governor cells skipped",
				 used ? "; " : "");
	if (skipped && used < sizeof(ctx))
		used += snprintf(ctx + used, sizeof(ctx) - used, "%s%zu cell%s skipped in all", used ? "; " : "",
				 skipped, skipped == 1 ? "" : "s");
	if (used)
		fprintf(out, "  context: %s\n", ctx);
}

int cmp_headline(FILE *out, const char *dir)
{
	char path[4096], seen[16][64];
	json_object *man, *cells, *sys, *x, *p;
	int nseen = 0;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	man = json_object_from_file(path);
	if (!man || !json_object_object_get_ex(man, "cells", &cells) || !json_object_is_type(cells, json_type_array)) {
		json_object_put(man);
		lj_error("--headline: %s is not an lj-matrix run directory", dir);
		return LJ_EXIT_USAGE;
	}
	json_object_object_get_ex(man, "system", &sys);
	fprintf(out, "How good is this machine?  %s, kernel %s, preempt %s  (median of each cell's runs;"
		" root groups, all CPUs)\n",
		sys && json_object_object_get_ex(sys, "hostname", &x) ? json_object_get_string(x) : "?",
		sys && json_object_object_get_ex(sys, "kernel_release", &x) ? json_object_get_string(x) : "?",
		sys && json_object_object_get_ex(sys, "preempt", &p) && json_object_object_get_ex(p, "model", &x) ?
		json_object_get_string(x) : "?");
	for (size_t i = 0; i < json_object_array_length(cells); i++) {
		json_object *w, *cell;
		const char *wl;
		struct hl_cell hc;
		int k;

		if (!json_object_object_get_ex(json_object_array_get_idx(cells, i), "workload", &w))
			continue;
		wl = json_object_get_string(w);
		for (k = 0; k < nseen && strcmp(seen[k], wl); k++)
			;
		if (k < nseen || nseen == 16)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", wl);
		cell = pick_cell(cells, wl);
		if (!cell)
			continue;
		read_cell(dir, cell, &hc);
		if (hc.n)
			workload_line(out, wl, &hc);
		free_cell(&hc);
	}
	context_line(out, man);
	json_object_put(man);
	return 0;
}
