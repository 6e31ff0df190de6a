/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.h - lj-compare's data model: run sets, rows (workload, cell, metric) and the gate. */
#ifndef LJ_COMPARE_H
#define LJ_COMPARE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lj_adjust.h"
#include "lj_rate.h"
#include "lj_result.h"
#include "lj_shift.h"
#include "lj_stats.h"

#define CMP_MAX_SETS	32
#define CMP_MAX_RULES	32
#define CMP_MAX_LIMITS	32

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_CSV, CMP_JSON, CMP_LAVA };

struct cmp_config {
	const char *by;			/* --by AXIS, or NULL */
	enum cmp_format format;
	double alpha;			/* significance level, default 0.05 */
	double cv_warn;			/* coeffvar (%) above which a metric is flagged */
	const char *rules[CMP_MAX_RULES];
	int nrules;
	const char *limits[CMP_MAX_LIMITS];	/* --limit: fixed thresholds on the last set's runs */
	int nlimits;
	int validity_fail;		/* lava's validity case fails from this verdict on (CMP_VALIDITY_*) */
	const char *metrics;		/* comma list filter, or NULL */
	double plan_pct;		/* --plan PCT: runs needed to detect PCT %, 0 = off */
	enum lj_adjust_method adjust;	/* across the rows of one comparison (default Holm) */
	bool cannot_judge_ok;		/* a rule that cannot be judged passes (exit 0, not 4) */
	bool include_failed;		/* keep runs whose exit_code is not 0 */
};

/* The exit status of a gate that could not judge a rule (docs/lj-compare.md). */
#define CMP_EXIT_CANNOT_JUDGE 4

enum { CMP_VALIDITY_VALID, CMP_VALIDITY_SUSPECT, CMP_VALIDITY_INVALID, CMP_VALIDITY_UNKNOWN,
       CMP_VALIDITY_N };

/* One result set: a run directory, or one value of the --by axis within it. */
struct cmp_set {
	size_t nvalidity[CMP_VALIDITY_N];	/* runs by their validity verdict */
	char setup[512];		/* the first run's setup.applied: "what=value;..." (verdicts.c) */
	size_t nguest, ntcg;		/* runs measured in a guest; in a QEMU TCG one (verdicts.c) */
	char guest[64];			/* the first such run's hypervisor ("KVM", "QEMU TCG") */
	bool setup_seen;
	char *label;
	char *path;
	json_object *system;		/* borrowed from the manifest/first result, may be NULL */
	size_t nfiles;
	size_t nrt;			/* of them, rt-tests' own --json files (rtload.c) */
};

/* The repetitions of one metric in one set. */
struct cmp_series {
	double *v;			/* each run's value of the metric, as the result has it */
	double *events;			/* count metrics: each run's events (drop_rate: its rate times its frames) */
	double *exposure;		/* count metrics: what each run's count is out of (frames, samples, 1) */
	size_t n, cap;
	double min_samples;		/* quantile metrics: the fewest samples of a run (0: unknown) */
	double min_rate;		/* ...and the lowest samples per second of a run (0: unknown) */
};

enum cmp_outcome { CMP_NOT_GATED, CMP_PASS, CMP_FAIL, CMP_CANNOT_JUDGE };

/* Results of the statistics, per set, filled by cmp_analyse. */
struct cmp_cellstat {
	struct lj_stats_summary s;
	double pct_mean;		/* (mean - first mean) / |first mean| * 100, NAN for the first */
	double pct[5];			/* same for min, mean, stddev, coeffvar, max */
	struct lj_mwu mwu;		/* against the first set (p = NAN for the first) */
	struct lj_shift shift;		/* Hodges-Lehmann shift set - first, with its interval */
	struct lj_rate_test rate;	/* count rows: pooled counts over exposure against the first set */
	double events, exposure;	/* count rows: this set's pooled counts */
	double p;			/* raw p of the row's test (MWU or rate), NAN for the first set */
	double p_adj;			/* p adjusted across the comparison's rows (cfg->adjust) */
	double pct_est, pct_lo, pct_hi;	/* the shift (or rate ratio - 1) in % of the first set, with interval */
	bool ratio;			/* the shift was taken on the log scale: pct is (ratio - 1) x 100 */
	double med_lo, med_hi, med_level;	/* the median's order-statistic interval over the runs */
	bool judgeable;			/* the sizes let the test reach alpha */
	bool significant;		/* p_adj < alpha */
	bool bimodal;
	double bimodal_coef;
	bool high_cv;
	bool gate_failed;
	enum cmp_outcome outcome;	/* worst outcome of the rules on this row and set */
	char reason[320];		/* the rule, and why it failed or could not be judged */
};

struct cmp_row {
	char *workload;
	char *cell;			/* "a=x,b=y" or "" */
	char *metric;
	char unit[16];
	enum lj_better better;
	bool is_count;			/* compared on pooled counts (counts.c) */
	struct cmp_series series[CMP_MAX_SETS];
	struct cmp_cellstat st[CMP_MAX_SETS];
	enum cmp_outcome limit;		/* the --limit rules' worst outcome on the last set (limit.c) */
	double limit_worst;		/* the run value they judged */
	char limit_reason[224];
};

/* A params key that names how a tool measured (method.c): the first value seen, and where. */
#define CMP_METHOD_KEYS 2
struct cmp_method_seen {
	char value[256];
	char path[256];
	bool warned;
};

/* The validity verdicts of one cell's runs in one set (validity.c). */
struct cmp_cellvalid {
	int set;
	char *workload, *cell;
	size_t n[CMP_VALIDITY_N];
	char reasons[480];		/* "run 2: suspect: load: CPU 0 53% busy ...; ..." */
};

struct cmp_data {
	struct cmp_set sets[CMP_MAX_SETS];
	struct cmp_cellvalid *cv;	/* per set and cell, in first-seen order */
	size_t ncv, capcv;
	int nsets;
	struct cmp_row **rows;		/* in first-seen order, then sorted */
	size_t nrows, caprows;
	size_t *hash;			/* open addressing: row index + 1, 0 = empty */
	size_t hashcap;
	json_object *docs;		/* array keeping manifests alive (systems are borrowed) */
	size_t nskipped_files;
	/* while loading a file named on the command line: why it was refused
	 * (kept here, not warned, so that all refused says it once) */
	char *refused;
	size_t refusedlen;
	size_t nfailed_runs;		/* runs left out: exit_code not 0 */
	size_t nbad_values;		/* NaN / Infinity values left out */
	/* every summary metric name any loaded result has, --metrics or not */
	char **names;
	size_t nnames, capnames;
	/* per measuring-method key, the first value seen (method.c) */
	struct cmp_method_seen method[CMP_METHOD_KEYS];
};

/* load.c */
int cmp_load(struct cmp_data *d, const struct cmp_config *cfg, char **paths, int npaths);
void cmp_free(struct cmp_data *d);
/*
 * The first --metrics name that no loaded result has, or NULL when every
 * one exists (or no --metrics was given).
 */
const char *cmp_missing_metric(const struct cmp_data *d, const struct cmp_config *cfg,
			       char *buf, size_t len);
/* Add one value (exposed for the unit test). */
int cmp_add_value(struct cmp_data *d, int set, const char *workload, const char *cell,
		  const char *metric, const char *unit, enum lj_better better, double v);
void cmp_sort_rows(struct cmp_data *d);
/* A count metric's events and exposure, and storing them (counts.c). */
int cmp_add_count(struct cmp_data *d, int set, const char *workload, const char *cell,
		  const char *metric, const char *unit, enum lj_better better, double events,
		  double exposure);
/* A rate (drop_rate): its value for the table, its events (rate x exposure) for the pooled test. */
int cmp_add_rate(struct cmp_data *d, int set, const char *workload, const char *cell,
		 const char *metric, const char *unit, enum lj_better better, double rate,
		 double exposure);

/*
 * rtload.c: if @path is rt-tests' own --json file (cyclictest, signaltest;
 * not an ljkit document carrying rt-tests' keys), an ljkit-shaped document
 * of it (tool, exit_code, summary: min, mean, [p50..p99_9,] max, samples)
 * and in *@tool the ljkit tool it maps to; else NULL.
 */
json_object *cmp_rt_doc(const char *path, const char **tool, char *why, size_t len);
#define CMP_RT_NOTE "rt-tests --json read as ljkit results: the threads' min, avg (weighted by cycles), max -> min, mean, max; cycles -> samples; a -h histogram -> p50, p90, p99, p99_9; us -> ns"

/* counts.c */
/*
 * Is summary metric @name (with @unit and @better) a count of events, and
 * what is it out of: *@exposure_metric names the sibling summary metric
 * holding the exposure (frames, samples) or is NULL (per run), and
 * *@scaled is true when the value is a rate to multiply by that exposure.
 */
bool cmp_count_metric(const char *name, const char *unit, enum lj_better better,
		      const char **exposure_metric, bool *scaled);
/* The worst problem of one result document's values, for --validate: 0 or -EINVAL with @why. */
int cmp_check_values(json_object *doc, char *why, size_t len);

/* method.c: warn once per key when runs measured differently (lj-frame calibrations, lj-hackbench stamp clocks). */
void cmp_check_method(struct cmp_data *d, const char *path, json_object *doc);

/* analyse.c */
void cmp_analyse(struct cmp_data *d, const struct cmp_config *cfg);

/* plan.c: --plan, and the tail notes (a quantile needs enough samples per run) */
void cmp_plan(FILE *out, const struct cmp_data *d, const struct cmp_config *cfg);
/* A tail metric's run @doc: its samples and samples per second, the fewest kept in @se. */
void cmp_tail_remember(struct cmp_series *se, json_object *doc);
/* "p99_9 needs >= 3688 samples per run for a 95% bound; 'base' has 2000", or "" */
void cmp_tail_note(char *buf, size_t len, const struct cmp_row *r, const char *label, int set,
		   double alpha);

/* headline.c: "how good is this machine?" from one lj-matrix run directory. Return: exit code. */
int cmp_headline(FILE *out, const char *dir);

/* @v with three significant digits but at least its integer part, at most @max_decimals (output.c). */
void cmp_fmt_sig3(char *buf, size_t len, double v, int max_decimals);

/* verdicts.c */
int cmp_note_validity(struct cmp_data *d, int set, const char *workload, const char *cell, json_object *doc);
/* The verdicts of (@workload, @cell)'s runs in @set, or NULL. */
const struct cmp_cellvalid *cmp_cell_validity(const struct cmp_data *d, int set, const char *workload,
					      const char *cell);
extern const char *const cmp_validity_names[CMP_VALIDITY_N];
void cmp_validity_text(const struct cmp_set *s, char *buf, size_t len);
/* "measured in a KVM guest: ..." for a set whose runs ran in a guest; "" otherwise. */
void cmp_guest_text(const struct cmp_set *s, char *buf, size_t len);
/*
 * Warn on stderr: mixed valid and non-valid runs; identity differences
 * beyond the compared one; setup applied on one side only (PM QoS held in
 * one set), the --by @axis excepted.
 */
void cmp_validity_warn(const struct cmp_data *d, const char *axis);

/* gate.c */
struct cmp_rule {
	char text[128];
	char workload[64];		/* "*" for any */
	char metric[64];
	char op;			/* '>' or '<' */
	double pct;			/* threshold in percent, signed */
	int failures;
	int cannot_judge;		/* row/set pairs the rule could not judge */
	int matched;
};
int cmp_rule_parse(const char *text, struct cmp_rule *r, char *why, size_t why_len);
/*
 * Evaluate all rules; marks each row's outcome and reason. Returns the exit
 * status: LJ_EXIT_THRESHOLD when a rule failed, else CMP_EXIT_CANNOT_JUDGE
 * when one could not be judged (0 with cfg->cannot_judge_ok), else 0; a
 * rule that matches no metric at all is LJ_EXIT_USAGE.
 */
int cmp_gate(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_rule *rules, int nrules,
	     bool report);
/* The status of rules or limits: any naming no metric 2, any failed 3, any undecided 4 (unless ok), else 0. */
int cmp_rules_exit(const struct cmp_config *cfg, int unmatched, int failing, int undecided);
/* Smallest two-sided exact Mann-Whitney p with na and nb values: 2 / C(na+nb, na). */
double cmp_min_p(size_t na, size_t nb);

/* limit.c: --limit 'WORKLOAD.METRIC<=VALUE[ns|us|ms|s|%]', on every run of the last set */
struct cmp_limit {
	char text[128];
	char workload[64];		/* "*" for any */
	char metric[64];
	char op[3];			/* <, <=, >, >= */
	double value, scale;		/* the bound is value x scale, in the metric's unit (ns for a time) */
	bool time;			/* a time suffix: the metric must be in ns */
	int matched, failures, cannot_judge;
};
int cmp_limit_parse(const char *text, struct cmp_limit *l, char *why, size_t len);
/* Judge every limit on the last set (row->limit, limit_reason); the exit status as cmp_gate's. */
int cmp_limits(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_limit *limits, int n, bool report);

/* output.c */
void cmp_output(struct cmp_data *d, const struct cmp_config *cfg, const struct cmp_rule *rules,
		int nrules);

/* power.c: --perf-power PERF,ENERGY[,LIMIT]: a performance metric against an energy metric per set. */
struct cmp_perf_power {
	char perf[64], energy[64];
	double limit;			/* NAN: none */
};
int cmp_perf_power_parse(const char *spec, struct cmp_perf_power *pp);
/* The table on @out, and "label,perf,energy,best" lines in @csv_path (may be NULL) for lj-plot. Return: an exit code. */
int cmp_perf_power(FILE *out, const struct cmp_data *d, const struct cmp_perf_power *pp, const char *csv_path);

#endif
