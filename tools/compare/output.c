// SPDX-License-Identifier: GPL-2.0-or-later
/* output - the comparison as text (mmtests style), markdown, csv, json or LAVA test cases. */
#include "compare.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_plan.h"
#include "lj_sysinfo.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const stat_names[5] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };
static const char *const stat_keys[5] = { "min", "mean", "stddev", "coeffvar", "max" };

static double stat_value(const struct cmp_cellstat *st, int k)
{
	switch (k) {
	case 0: return st->s.min;
	case 1: return st->s.mean;
	case 2: return st->s.stddev;
	case 3: return st->s.coeffvar;
	default: return st->s.max;
	}
}

static const char *better_name(enum lj_better b)
{
	return b == LJ_BETTER_LOWER ? "lower" : b == LJ_BETTER_HIGHER ? "higher" : "none";
}

/* "better"/"worse" for a significant change, "" otherwise. */
/* The direction is the shift's (or the rate ratio's), not the mean's: an outlier moves the mean. */
static const char *verdict(const struct cmp_row *r, const struct cmp_cellstat *st)
{
	double dir = r->is_count ? st->events / st->exposure - r->st[0].events / r->st[0].exposure :
		     st->shift.estimate;

	if (!st->significant || r->better == LJ_BETTER_NONE || isnan(dir) || dir == 0)
		return "";
	if ((dir < 0) == (r->better == LJ_BETTER_LOWER))
		return "better";
	return "worse";
}

/* How the row's shift was taken: "ratio" (log scale), "rate_ratio" (counts), "difference". */
static const char *shift_scale(const struct cmp_row *r, const struct cmp_cellstat *st)
{
	return r->is_count ? "rate_ratio" : st->ratio ? "ratio" : "difference";
}

/* The set index of @st within its row. */
static int s_of(const struct cmp_row *r, const struct cmp_cellstat *st)
{
	return (int)(st - r->st);
}

/* A ratio to a part in a thousand near 1 ("1.092": +9.2 %), else three significant digits. */
static const char *ratio_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 0.1 && v < 10 ? "%.3f" : "%.3g", v);
	return buf;
}

/*
 * The row's change with its interval: a positive metric's ratio "x1.092
 * [1.079, 1.108]", another's "+9.14% [+6.02, +12.30]", a count's rate ratio.
 */
static void shift_cell(char *cell, size_t len, const struct cmp_row *r, const struct cmp_cellstat *st)
{
	const struct cmp_cellstat *b = &r->st[0];
	char e[16], lo[16], hi[16];

	if (r->is_count && b->events == 0 && st->events > 0) {
		const char *of;
		bool scaled;

		/* from zero no ratio exists: the absolute change, per run and of the exposure */
		cmp_count_metric(r->metric, r->unit, r->better, &of, &scaled);
		if (of && st->exposure > (double)r->series[s_of(r, st)].n)
			snprintf(cell, len, "0 -> %.3g/run, %+.3g%% of %s", st->events / (double)r->series[s_of(r, st)].n,
				 100 * st->events / st->exposure, of);
		else
			snprintf(cell, len, "0 -> %.3g/run", st->events / (double)r->series[s_of(r, st)].n);
	}
	else if (r->is_count)
		snprintf(cell, len, "x%.3g [%.3g, %.3g]", st->rate.ratio, st->rate.ratio_lo, st->rate.ratio_hi);
	else if (st->ratio)
		snprintf(cell, len, "x%s [%s, %s]", ratio_text(e, sizeof(e), 1 + st->pct_est / 100),
			 ratio_text(lo, sizeof(lo), 1 + st->pct_lo / 100), ratio_text(hi, sizeof(hi), 1 + st->pct_hi / 100));
	else if (isnan(st->pct_est) && !strcmp(r->unit, "ns"))
		snprintf(cell, len, "%+.4g [%+.4g, %+.4g] us", st->shift.estimate / 1000, st->shift.lo / 1000,
			 st->shift.hi / 1000);
	else if (isnan(st->pct_est))
		snprintf(cell, len, "%+.4g [%+.4g, %+.4g]", st->shift.estimate, st->shift.lo, st->shift.hi);
	else
		snprintf(cell, len, "%+.2f%% [%+.2f, %+.2f]", st->pct_est, st->pct_lo, st->pct_hi);
}

/*
 * Tables for people: nanoseconds are shown in microseconds, and every
 * value with three significant digits (a histogram quantile is within
 * 1/128 of the sample, and runs of throughput or frame rates scatter by
 * more than a part in a thousand, so a fourth digit would be noise), but
 * at least its integer part (792220 msgs/s, not 792000); JSON and CSV
 * keep every digit, and nanoseconds.
 */
static const char *shown_unit(const struct cmp_row *r)
{
	return !strcmp(r->unit, "ns") ? "us" : *r->unit ? r->unit : "-";
}

void cmp_fmt_sig3(char *buf, size_t len, double v, int max_decimals)
{
	int decimals = v == 0 || !isfinite(v) ? 0 : 2 - (int)floor(log10(fabs(v)));

	snprintf(buf, len, "%.*f", decimals < 0 ? 0 : decimals > max_decimals ? max_decimals : decimals, v);
}

static void fmt_value(char *buf, size_t len, const struct cmp_row *r, int k, double v)
{
	if (strcmp(r->unit, "ns") || k == 3)	/* CoeffVar is a percentage */
		cmp_fmt_sig3(buf, len, v, 9);
	else
		cmp_fmt_sig3(buf, len, v / 1000, 3);	/* us, to the nanosecond */
}

/* "-" for a statistic that is unknown (the spread of one run). */
static void stat_cell(char *cell, size_t len, const struct cmp_row *r, const struct cmp_cellstat *st,
		      int k, bool with_pct)
{
	double v = stat_value(st, k);
	char num[48];

	if (isnan(v)) {
		snprintf(cell, len, "-");
		return;
	}
	fmt_value(num, sizeof(num), r, k, v);
	if (!with_pct || isnan(st->pct[k]))
		snprintf(cell, len, "%s", num);
	else
		snprintf(cell, len, "%s (%+7.2f%%)", num, st->pct[k]);
}

static bool same_section(const struct cmp_row *a, const struct cmp_row *b)
{
	return !strcmp(a->workload, b->workload) && !strcmp(a->cell, b->cell);
}

struct diff_ctx {
	FILE *out;
	const char *pfx, *a, *b;
	int n;
};

/* The heading comes with the first differing field, so identical systems print nothing. */
static void print_diff(const char *key, const char *va, const char *vb, void *arg)
{
	struct diff_ctx *c = arg;

	if (!c->n++)
		fprintf(c->out, "%ssystem identity that differs (%s -> %s):\n", c->pfx, c->a, c->b);
	fprintf(c->out, "%s  %s: %s -> %s\n", c->pfx, key, va, vb);
}

/* Notes that apply to the whole comparison, shared by text and markdown. */
static void print_preamble(FILE *out, struct cmp_data *d, const struct cmp_config *cfg, const char *pfx)
{
	size_t worst_a = 0, worst_b = 0;
	double worst = 0;

	fprintf(out, "%s%d result set%s%s%s:\n", pfx, d->nsets, d->nsets == 1 ? "" : "s",
		cfg->by ? " by " : "", cfg->by ? cfg->by : "");
	for (int s = 0; s < d->nsets; s++) {
		char v[160];

		cmp_validity_text(&d->sets[s], v, sizeof(v));
		fprintf(out, "%s  %s: %s (%zu results%s%s)\n", pfx, d->sets[s].label, d->sets[s].path,
			d->sets[s].nfiles, *v ? ": " : "", v);
		if (d->sets[s].nrt)
			fprintf(out, "%s    %zu of them %s\n", pfx, d->sets[s].nrt, CMP_RT_NOTE);
		cmp_guest_text(&d->sets[s], v, sizeof(v));
		if (*v)
			fprintf(out, "%s    %s\n", pfx, v);
	}
	for (int s = 1; s < d->nsets; s++) {
		struct diff_ctx c = { out, pfx, d->sets[0].label, d->sets[s].label, 0 };

		if (d->sets[0].system && d->sets[s].system && d->sets[s].system != d->sets[0].system)
			lj_sysinfo_diff(d->sets[0].system, d->sets[s].system, print_diff, &c);
	}
	for (size_t i = 0; i < d->nrows; i++)
		for (int s = 1; s < d->nsets; s++)
			if (d->rows[i]->series[0].n && d->rows[i]->series[s].n) {
				size_t na = d->rows[i]->series[0].n, nb = d->rows[i]->series[s].n;
				double p = d->rows[i]->is_count ? 0 : cmp_min_p(na, nb);

				if (p >= cfg->alpha && p > worst) {
					worst = p;
					worst_a = na;
					worst_b = nb;
				}
			}
	fprintf(out, "%s%% = change of the mean (and of each statistic) against %s: (set - %s) / %s\n",
		pfx, d->sets[0].label, d->sets[0].label, d->sets[0].label);
	fprintf(out, "%s* = significant at alpha %g after the %s adjustment across %zu tests (p row: raw p, adj = adjusted)\n",
		pfx, cfg->alpha, cfg->adjust == LJ_ADJUST_HOLM ? "Holm (family-wise)" :
		cfg->adjust == LJ_ADJUST_BH ? "Benjamini-Hochberg (false discovery rate)" : "no",
		d->nrows * (size_t)(d->nsets - 1));
	fprintf(out, "%s  tests: Mann-Whitney U, two-sided, on the runs' values (n in the Runs row); Shift = Hodges-Lehmann\n"
		"%s  shift with its %g%% interval, of positive metrics on the log scale as a ratio (x1.10 = +10%%), of others\n"
		"%s  in %% of the first set's median; counts (missed, dropped, ...) pooled over their exposure (samples,\n"
		"%s  frames, runs): conditional binomial test, Shift = rate ratio\n",
		pfx, pfx, 100 * (1 - cfg->alpha), pfx, pfx);
	if (d->nfailed_runs)
		fprintf(out, "%snote: %zu run%s left out: exit_code not 0 (--include-failed keeps them)\n", pfx,
			d->nfailed_runs, d->nfailed_runs == 1 ? "" : "s");
	if (d->nbad_values)
		fprintf(out, "%snote: %zu NaN or infinite value%s left out (warnings above name them)\n", pfx,
			d->nbad_values, d->nbad_values == 1 ? "" : "s");
	if (d->nskipped_files)
		fprintf(out, "%snote: %zu file%s skipped (warnings above say why)\n", pfx,
			d->nskipped_files, d->nskipped_files == 1 ? "" : "s");
	if (worst > 0)
		fprintf(out, "%snote: some metrics have too few runs to ever be significant at alpha %g "
			"(%zu vs %zu runs: smallest possible p = %.3g): use repeat >= 5\n", pfx, cfg->alpha,
			worst_a, worst_b, worst);
}

static void print_flags(FILE *out, struct cmp_data *d, const struct cmp_config *cfg,
			const struct cmp_row *r, const char *pfx)
{
	for (int s = 0; s < d->nsets; s++) {
		const struct cmp_cellstat *st = &r->st[s];
		char tail[256];

		if (st->bimodal)
			fprintf(out, "%s! %s %s: runs look bimodal (coefficient %.2f > %.3f): more repetitions needed\n",
				pfx, d->sets[s].label, r->metric, st->bimodal_coef, LJ_STATS_BIMODAL_THRESHOLD);
		if (st->high_cv)
			fprintf(out, "%s! %s %s: coeffvar %.1f%% > %g%%: noisy, more repetitions needed\n",
				pfx, d->sets[s].label, r->metric, st->s.coeffvar, cfg->cv_warn);
		cmp_tail_note(tail, sizeof(tail), r, d->sets[s].label, s, cfg->alpha);
		if (*tail)
			fprintf(out, "%s! %s\n", pfx, tail);
	}
}

/* A tail (p99 and beyond, max): the median over the runs with its interval, "20.0 [18.1, 25.3]". */
static bool is_tail(const struct cmp_row *r)
{
	return lj_plan_metric_quantile(r->metric) >= 0.99;
}

static void median_cell(char cell[96], size_t len, const struct cmp_row *r, const struct cmp_cellstat *st,
			double level)
{
	char m[24], lo[24], hi[24];

	fmt_value(m, sizeof(m), r, 1, st->s.median);
	fmt_value(lo, sizeof(lo), r, 1, st->med_lo);
	fmt_value(hi, sizeof(hi), r, 1, st->med_hi);
	if (st->med_level < level - 1e-9)
		snprintf(cell, len, "%s [%s, %s] %.0f%%", m, lo, hi, 100 * st->med_level);
	else
		snprintf(cell, len, "%s [%s, %s]", m, lo, hi);
}

/* The Shift and p rows of one metric (and a tail's Median row). */
static void text_tests(FILE *out, struct cmp_data *d, const struct cmp_row *r, double level)
{
	if (is_tail(r)) {
		fprintf(out, "%-9s %-14s", "Median", r->metric);
		for (int s = 0; s < d->nsets; s++) {
			char cell[96] = "-";

			if (r->series[s].n)
				median_cell(cell, sizeof(cell), r, &r->st[s], level);
			fprintf(out, " %24s", cell);
		}
		fputc('\n', out);
	}
	fprintf(out, "%-9s %-14s", "Shift", r->metric);
	for (int s = 0; s < d->nsets; s++) {
		char cell[96] = "-";

		if (s > 0 && !isnan(r->st[s].p)) {
			shift_cell(cell, sizeof(cell), r, &r->st[s]);
			if (r->st[s].significant)
				strcat(cell, "*");
		}
		fprintf(out, " %24s", cell);
	}
	fputc('\n', out);
	fprintf(out, "%-9s %-14s", r->is_count ? "p(rate)" : "p(MWU)", r->metric);
	for (int s = 0; s < d->nsets; s++) {
		const struct cmp_cellstat *st = &r->st[s];
		char cell[96];

		if (s == 0 || isnan(st->p))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.3g adj %.3g%s%s%s", st->p, st->p_adj,
				 st->significant ? " *" : "", *verdict(r, st) ? " " : "", verdict(r, st));
		fprintf(out, " %24s", cell);
	}
}

static void text_section(FILE *out, struct cmp_data *d, const struct cmp_config *cfg,
			 size_t first, size_t last)
{
	const struct cmp_row *h = d->rows[first];

	fprintf(out, "\n%s%s%s%s\n", h->workload, *h->cell ? " [" : "", h->cell, *h->cell ? "]" : "");
	fprintf(out, "%-9s %-14s", "", "");
	for (int s = 0; s < d->nsets; s++)
		fprintf(out, " %24s", d->sets[s].label);
	fputc('\n', out);
	for (size_t i = first; i <= last; i++) {
		const struct cmp_row *r = d->rows[i];

		fprintf(out, "%-9s %-14s", "Runs", r->metric);
		for (int s = 0; s < d->nsets; s++)
			fprintf(out, " %24zu", r->series[s].n);
		fputc('\n', out);
		for (int k = 0; k < 5; k++) {
			fprintf(out, "%-9s %-14s", stat_names[k], r->metric);
			for (int s = 0; s < d->nsets; s++) {
				char cell[64];

				if (!r->series[s].n)
					snprintf(cell, sizeof(cell), "-");
				else
					stat_cell(cell, sizeof(cell), r, &r->st[s], k, s > 0);
				fprintf(out, " %24s", cell);
			}
			fputc('\n', out);
		}
		text_tests(out, d, r, 1 - cfg->alpha);
		fprintf(out, "   [%s, %s is better]\n", shown_unit(r), better_name(r->better));
		print_flags(out, d, cfg, r, "  ");
	}
}

static void markdown_section(FILE *out, struct cmp_data *d, const struct cmp_config *cfg,
			     size_t first, size_t last)
{
	const struct cmp_row *h = d->rows[first];

	fprintf(out, "\n### %s%s%s%s\n\n| stat | metric |", h->workload, *h->cell ? " [" : "",
		h->cell, *h->cell ? "]" : "");
	for (int s = 0; s < d->nsets; s++)
		fprintf(out, " %s |", d->sets[s].label);
	fprintf(out, "\n| --- | --- |");
	for (int s = 0; s < d->nsets; s++)
		fprintf(out, " ---: |");
	fputc('\n', out);
	for (size_t i = first; i <= last; i++) {
		const struct cmp_row *r = d->rows[i];

		fprintf(out, "| Runs | %s (%s, %s is better) |", r->metric, shown_unit(r), better_name(r->better));
		for (int s = 0; s < d->nsets; s++)
			fprintf(out, " %zu |", r->series[s].n);
		fputc('\n', out);
		for (int k = 0; k < 5; k++) {
			fprintf(out, "| %s | %s |", stat_names[k], r->metric);
			for (int s = 0; s < d->nsets; s++) {
				char cell[64] = "-";

				if (r->series[s].n)
					stat_cell(cell, sizeof(cell), r, &r->st[s], k, s > 0);
				fprintf(out, " %s |", cell);
			}
			fputc('\n', out);
		}
		if (is_tail(r)) {
			fprintf(out, "| Median | %s |", r->metric);
			for (int s = 0; s < d->nsets; s++) {
				char cell[96] = "-";

				if (r->series[s].n)
					median_cell(cell, sizeof(cell), r, &r->st[s], 1 - cfg->alpha);
				fprintf(out, " %s |", cell);
			}
			fputc('\n', out);
		}
		fprintf(out, "| Shift | %s |", r->metric);
		for (int s = 0; s < d->nsets; s++) {
			char cell[96] = "-";

			if (s > 0 && !isnan(r->st[s].p))
				shift_cell(cell, sizeof(cell), r, &r->st[s]);
			fprintf(out, " %s |", cell);
		}
		fprintf(out, "\n| %s | %s |", r->is_count ? "p(rate)" : "p(MWU)", r->metric);
		for (int s = 0; s < d->nsets; s++) {
			const struct cmp_cellstat *st = &r->st[s];

			if (s == 0 || isnan(st->p))
				fprintf(out, " - |");
			else
				fprintf(out, " %.3g adj %.3g%s %s |", st->p, st->p_adj, st->significant ? " \\*" : "",
					verdict(r, st));
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	for (size_t i = first; i <= last; i++)
		print_flags(out, d, cfg, d->rows[i], "- ");
}

/* CSV fields are quoted when they hold a comma or quote (cell ids do). */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
	if (isnan(v))
		fputs(",", out);
	else
		fprintf(out, ",%.10g", v);	/* every digit, as JSON (%.10g) */
}

static const char *outcome_name(enum cmp_outcome o)
{
	return o == CMP_PASS ? "pass" : o == CMP_FAIL ? "fail" : o == CMP_CANNOT_JUDGE ? "cannot-judge" : "";
}

static void output_csv(FILE *out, struct cmp_data *d)
{
	fputs("workload,cell,metric,unit,better,set,n,min,mean,stddev,coeffvar,max,pct_mean,shift_pct,shift_lo_pct,shift_hi_pct,p,p_adj,significant,bimodal,high_cv,gate_failed,gate,shift_scale\n",
	      out);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cmp_row *r = d->rows[i];

		for (int s = 0; s < d->nsets; s++) {
			const struct cmp_cellstat *st = &r->st[s];

			csv_field(out, r->workload);
			fputc(',', out);
			csv_field(out, r->cell);
			fputc(',', out);
			csv_field(out, r->metric);
			fputc(',', out);
			csv_field(out, r->unit);
			fprintf(out, ",%s,", better_name(r->better));
			csv_field(out, d->sets[s].label);
			fprintf(out, ",%zu", r->series[s].n);
			for (int k = 0; k < 5; k++)
				csv_num(out, r->series[s].n ? stat_value(st, k) : NAN);
			csv_num(out, st->pct_mean);
			csv_num(out, st->pct_est);
			csv_num(out, st->pct_lo);
			csv_num(out, st->pct_hi);
			csv_num(out, st->p);
			csv_num(out, st->p_adj);
			fprintf(out, ",%d,%d,%d,%d,%s,%s\n", st->significant, st->bimodal, st->high_cv,
				st->gate_failed, outcome_name(st->outcome), s ? shift_scale(r, st) : "");
		}
	}
}

/* One set's statistics of one row, for --format json. */
static json_object *json_set_stats(const struct cmp_row *r, int s)
{
	const struct cmp_cellstat *st = &r->st[s];
	json_object *p = json_object_new_object();

	json_object_object_add(p, "n", lj_json_int(r->series[s].n));
	for (int k = 0; k < 5; k++)
		json_object_object_add(p, stat_keys[k],
				       r->series[s].n ? lj_json_num(stat_value(st, k)) : NULL);
	json_object_object_add(p, "pct_mean", lj_json_num(st->pct_mean));
	json_object_object_add(p, "median", r->series[s].n ? lj_json_num(st->s.median) : NULL);
	json_object_object_add(p, "median_lo", lj_json_num(st->med_lo));
	json_object_object_add(p, "median_hi", lj_json_num(st->med_hi));
	json_object_object_add(p, "median_level", lj_json_num(st->med_level));
	json_object_object_add(p, "shift_pct", lj_json_num(st->pct_est));
	json_object_object_add(p, "shift_lo_pct", lj_json_num(st->pct_lo));
	json_object_object_add(p, "shift_hi_pct", lj_json_num(st->pct_hi));
	if (s > 0 && !isnan(st->p)) {
		json_object_object_add(p, "shift_scale", json_object_new_string(shift_scale(r, st)));
		if (st->ratio || r->is_count) {
			json_object_object_add(p, "shift_ratio", lj_json_num(1 + st->pct_est / 100));
			json_object_object_add(p, "shift_ratio_lo", lj_json_num(1 + st->pct_lo / 100));
			json_object_object_add(p, "shift_ratio_hi", lj_json_num(1 + st->pct_hi / 100));
		}
	}
	if (r->is_count) {
		json_object_object_add(p, "events", lj_json_num(st->events));
		json_object_object_add(p, "exposure", lj_json_num(st->exposure));
	}
	json_object_object_add(p, "p", lj_json_num(st->p));
	json_object_object_add(p, "p_adj", lj_json_num(st->p_adj));
	json_object_object_add(p, "gate", st->outcome == CMP_NOT_GATED ? NULL :
			       json_object_new_string(outcome_name(st->outcome)));
	json_object_object_add(p, "gate_reason", st->outcome == CMP_NOT_GATED ? NULL :
			       json_object_new_string(st->reason));
	json_object_object_add(p, "significant", json_object_new_boolean(st->significant));
	json_object_object_add(p, "bimodal", json_object_new_boolean(st->bimodal));
	json_object_object_add(p, "bimodal_coef", lj_json_num(st->bimodal_coef));
	json_object_object_add(p, "high_coeffvar", json_object_new_boolean(st->high_cv));
	json_object_object_add(p, "gate_failed", json_object_new_boolean(st->gate_failed));
	return p;
}

static void output_json(FILE *out, struct cmp_data *d, const struct cmp_config *cfg,
			const struct cmp_rule *rules, int nrules)
{
	json_object *root = json_object_new_object(), *sets = json_object_new_array();
	json_object *rows = json_object_new_array(), *gate = json_object_new_array();

	json_object_object_add(root, "schema", json_object_new_string("ljkit-compare/1"));
	json_object_object_add(root, "test", json_object_new_string("mann-whitney-u two-sided; counts: conditional binomial"));
	json_object_object_add(root, "adjust", json_object_new_string(lj_adjust_name(cfg->adjust)));
	json_object_object_add(root, "alpha", lj_json_num(cfg->alpha));
	json_object_object_add(root, "by", cfg->by ? json_object_new_string(cfg->by) : NULL);
	for (int s = 0; s < d->nsets; s++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "label", json_object_new_string(d->sets[s].label));
		json_object_object_add(o, "path", json_object_new_string(d->sets[s].path));
		json_object *v = json_object_new_object();

		json_object_object_add(o, "results", lj_json_int(d->sets[s].nfiles));
		if (d->sets[s].nrt)
			json_object_object_add(o, "rt_tests_results", lj_json_int(d->sets[s].nrt));
		for (int k = 0; k < CMP_VALIDITY_N; k++)
			json_object_object_add(v, k == CMP_VALIDITY_UNKNOWN ? "unknown" : cmp_validity_names[k],
					       lj_json_int((int64_t)d->sets[s].nvalidity[k]));
		json_object_object_add(o, "validity", v);
		json_object_array_add(sets, o);
	}
	json_object_object_add(root, "sets", sets);
	json_object_object_add(root, "skipped_files", lj_json_uint(d->nskipped_files));
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cmp_row *r = d->rows[i];
		json_object *o = json_object_new_object(), *per = json_object_new_array();

		json_object_object_add(o, "workload", json_object_new_string(r->workload));
		json_object_object_add(o, "cell", json_object_new_string(r->cell));
		json_object_object_add(o, "metric", json_object_new_string(r->metric));
		json_object_object_add(o, "unit", json_object_new_string(r->unit));
		json_object_object_add(o, "better", json_object_new_string(better_name(r->better)));
		json_object_object_add(o, "count", json_object_new_boolean(r->is_count));
		if (r->limit != CMP_NOT_GATED) {	/* --limit, on the last set */
			json_object_object_add(o, "limit", json_object_new_string(outcome_name(r->limit)));
			json_object_object_add(o, "limit_reason", json_object_new_string(r->limit_reason));
		}
		for (int s = 0; s < d->nsets; s++)
			json_object_array_add(per, json_set_stats(r, s));
		json_object_object_add(o, "sets", per);
		json_object_array_add(rows, o);
	}
	json_object_object_add(root, "rows", rows);
	for (int k = 0; k < nrules; k++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rule", json_object_new_string(rules[k].text));
		json_object_object_add(o, "matched", lj_json_int(rules[k].matched));
		json_object_object_add(o, "failures", lj_json_int(rules[k].failures));
		json_object_object_add(o, "cannot_judge", lj_json_int(rules[k].cannot_judge));
		json_object_object_add(o, "outcome", json_object_new_string(rules[k].failures ? "fail" :
					rules[k].cannot_judge ? "cannot-judge" : "pass"));
		json_object_array_add(gate, o);
	}
	json_object_object_add(root, "gate", gate);
	/* %.17g would print 0.05 as 0.050000000000000003 */
	json_c_set_serialization_double_format("%.10g", JSON_C_OPTION_THREAD);
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/* LAVA test case names allow letters, digits, - _ . only. */
static void lava_name(char *buf, size_t len, const char *workload, const char *cell, const char *what)
{
	snprintf(buf, len, "%s%s%s_%s", workload, *cell ? "_" : "", cell, what);
	for (char *c = buf; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("-_.", *c))
			*c = '_';
}

/*
 * A cell's runs as one case, NAME_validity: fail when a run's verdict is
 * @fail_from or worse (invalid by default), else pass; suspect and invalid
 * runs' reasons on a comment line; skip when no run has a verdict.
 */
static void lava_validity(FILE *out, const struct cmp_data *d, const struct cmp_row *r, int fail_from)
{
	const struct cmp_cellvalid *c = cmp_cell_validity(d, d->nsets - 1, r->workload, r->cell);
	char name[512], counts[160] = "";
	size_t used = 0, judged = 0;
	bool fail = false;

	if (!c)
		return;
	lava_name(name, sizeof(name), r->workload, r->cell, "validity");
	for (int k = 0; k < CMP_VALIDITY_N; k++) {
		if (c->n[k])
			used += snprintf(counts + used, sizeof(counts) - used, "%s%zu %s", used ? ", " : "", c->n[k],
					 cmp_validity_names[k]);
		if (k != CMP_VALIDITY_UNKNOWN)
			judged += c->n[k];
		fail |= c->n[k] && k >= fail_from && k != CMP_VALIDITY_UNKNOWN;
	}
	fprintf(out, "# %s: %s%s%s\n", name, counts, *c->reasons ? ": " : "", c->reasons);
	fprintf(out, "lava-test-case %s --result %s\n", name, !judged ? "skip" : fail ? "fail" : "pass");
}

/*
 * One lava-test-case per metric of the last set: the measurement and the
 * outcome of the gate and the limits on it: fail when one failed, skip when
 * one could not judge, else pass, the reason on a companion comment line
 * (the shell LAVA feeds these to ignores it). The measurement is the runs'
 * mean, or the run a --limit judged (the worst). After each cell's metrics,
 * its validity case.
 */
static void output_lava(FILE *out, struct cmp_data *d, const struct cmp_config *cfg)
{
	int s = d->nsets - 1;

	for (size_t i = 0; i < d->nrows; i++) {
		const struct cmp_row *r = d->rows[i];
		const struct cmp_cellstat *st = &r->st[s];
		bool fail = st->outcome == CMP_FAIL || r->limit == CMP_FAIL;
		bool skip = !fail && (st->outcome == CMP_CANNOT_JUDGE || r->limit == CMP_CANNOT_JUDGE);
		char name[512];

		if (r->series[s].n || st->outcome == CMP_CANNOT_JUDGE || r->limit == CMP_CANNOT_JUDGE) {
			lava_name(name, sizeof(name), r->workload, r->cell, r->metric);
			if (st->outcome == CMP_FAIL || st->outcome == CMP_CANNOT_JUDGE)
				fprintf(out, "# %s: %s: %s%s\n", name, st->outcome == CMP_FAIL ? "fail" : "skip",
					st->outcome == CMP_FAIL ? "" : "cannot judge: ", st->reason);
			if (r->limit != CMP_NOT_GATED)
				fprintf(out, "# %s: %s: limit %s\n", name, r->limit == CMP_FAIL ? "fail" :
					r->limit == CMP_PASS ? "pass" : "skip: cannot judge", r->limit_reason);
			if (skip || !r->series[s].n)
				fprintf(out, "lava-test-case %s --result skip\n", name);
			else
				fprintf(out, "lava-test-case %s --result %s --measurement %.6g --units %s\n", name,
					fail ? "fail" : "pass", r->limit == CMP_PASS || r->limit == CMP_FAIL ?
					r->limit_worst : st->s.mean, *r->unit ? r->unit : "none");
		}
		if (i + 1 == d->nrows || !same_section(r, d->rows[i + 1]))
			lava_validity(out, d, r, cfg->validity_fail);
	}
}

void cmp_output(struct cmp_data *d, const struct cmp_config *cfg, const struct cmp_rule *rules,
		int nrules)
{
	FILE *out = stdout;
	size_t first = 0;

	switch (cfg->format) {
	case CMP_CSV:
		output_csv(out, d);
		return;
	case CMP_JSON:
		output_json(out, d, cfg, rules, nrules);
		return;
	case CMP_LAVA:
		output_lava(out, d, cfg);
		return;
	case CMP_MARKDOWN:
		print_preamble(out, d, cfg, "");
		break;
	default:
		print_preamble(out, d, cfg, "");
		break;
	}
	for (size_t i = 0; i < d->nrows; i++) {
		if (i + 1 < d->nrows && same_section(d->rows[i], d->rows[i + 1]))
			continue;
		if (cfg->format == CMP_MARKDOWN)
			markdown_section(out, d, cfg, first, i);
		else
			text_section(out, d, cfg, first, i);
		first = i + 1;
	}
}
