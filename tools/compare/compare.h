/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.h - lj-compare's data model: run sets, rows (workload, cell, metric) and the gate. */
#ifndef LJ_COMPARE_H
#define LJ_COMPARE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "lj_result.h"
#include "lj_stats.h"

#define CMP_MAX_SETS	32
#define CMP_MAX_RULES	32

enum cmp_format { CMP_TEXT, CMP_MARKDOWN, CMP_CSV, CMP_JSON, CMP_LAVA };

struct cmp_config {
	const char *by;			/* --by AXIS, or NULL */
	enum cmp_format format;
	double alpha;			/* significance level, default 0.05 */
	double cv_warn;			/* coeffvar (%) above which a metric is flagged */
	const char *rules[CMP_MAX_RULES];
	int nrules;
	const char *metrics;		/* comma list filter, or NULL */
};

/* One result set: a run directory, or one value of the --by axis within it. */
struct cmp_set {
	char *label;
	char *path;
	json_object *system;		/* borrowed from the manifest/first result, may be NULL */
	size_t nfiles;
};

/* The repetitions of one metric in one set. */
struct cmp_series {
	double *v;
	size_t n, cap;
};

/* Results of the statistics, per set, filled by cmp_analyse. */
struct cmp_cellstat {
	struct lj_stats_summary s;
	double pct_mean;		/* (mean - first mean) / |first mean| * 100, NAN for the first */
	double pct[5];			/* same for min, mean, stddev, coeffvar, max */
	struct lj_mwu mwu;		/* against the first set (p = NAN for the first) */
	bool significant;
	bool bimodal;
	double bimodal_coef;
	bool high_cv;
	bool gate_failed;
};

struct cmp_row {
	char *workload;
	char *cell;			/* "a=x,b=y" or "" */
	char *metric;
	char unit[16];
	enum lj_better better;
	struct cmp_series series[CMP_MAX_SETS];
	struct cmp_cellstat st[CMP_MAX_SETS];
};

struct cmp_data {
	struct cmp_set sets[CMP_MAX_SETS];
	int nsets;
	struct cmp_row **rows;		/* in first-seen order, then sorted */
	size_t nrows, caprows;
	size_t *hash;			/* open addressing: row index + 1, 0 = empty */
	size_t hashcap;
	json_object *docs;		/* array keeping manifests alive (systems are borrowed) */
	size_t nskipped_files;
	/* every summary metric name any loaded result has, --metrics or not */
	char **names;
	size_t nnames, capnames;
	/* the first lj-frame calibration seen (calib.c) */
	char calib_id[256];
	char calib_path[256];
	bool calib_warned;
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

/* calib.c: warn once when lj-frame runs used different calibrations. */
void cmp_check_calibration(struct cmp_data *d, const char *path, json_object *doc);

/* analyse.c */
void cmp_analyse(struct cmp_data *d, const struct cmp_config *cfg);

/* gate.c */
struct cmp_rule {
	char text[128];
	char workload[64];		/* "*" for any */
	char metric[64];
	char op;			/* '>' or '<' */
	double pct;			/* threshold in percent, signed */
	int failures;
	int matched;
};
int cmp_rule_parse(const char *text, struct cmp_rule *r, const char **why);
/* Evaluate all rules; marks gate_failed in the rows. Returns the number of failing rules. */
int cmp_gate(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_rule *rules, int nrules,
	     bool report);

/* output.c */
void cmp_output(struct cmp_data *d, const struct cmp_config *cfg, const struct cmp_rule *rules,
		int nrules);

#endif
