// SPDX-License-Identifier: GPL-2.0-or-later
/* limit - fixed thresholds 'WORKLOAD.METRIC<=50us': every run of the set under test must hold them. */
#include "compare.h"
#include "lj_err.h"
#include "lj_parse.h"
#include "lj_why.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A value's unit suffix: times scale to ns (for a metric in ns), '%' to a fraction. */
static const struct {
	const char *suffix;
	double scale;
	bool time;
} suffixes[] = {
	{ "ns", 1, true }, { "us", 1e3, true }, { "ms", 1e6, true }, { "s", 1e9, true }, { "%", 0.01, false },
};

static int parse_value(const char *s, struct cmp_limit *l, char *why, size_t len)
{
	char num[64];
	size_t n = strlen(s);

	l->scale = 1;
	l->time = false;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i].suffix);

		if (n > k && !strcmp(s + n - k, suffixes[i].suffix)) {
			l->scale = suffixes[i].scale;
			l->time = suffixes[i].time;
			n -= k;
			break;
		}
	}
	if (!n || n >= sizeof(num))
		return lj_why_err(why, len, -EINVAL, "expected a number, with ns, us, ms, s or %% after it");
	snprintf(num, sizeof(num), "%.*s", (int)n, s);
	return lj_parse_double(num, -1e18, 1e18, &l->value, why, len) ? -EINVAL : 0;
}

/*
 * WORKLOAD.METRIC OP VALUE[UNIT], OP one of < <= > >=: WORKLOAD may be '*',
 * the metric may contain dots (the workload ends at the first).
 */
int cmp_limit_parse(const char *text, struct cmp_limit *l, char *why, size_t len)
{
	const char *dot = strchr(text, '.'), *op = strpbrk(text, "<>");
	size_t oplen;

	memset(l, 0, sizeof(*l));
	snprintf(l->text, sizeof(l->text), "%s", text);
	if (!dot || !op || dot > op || dot == text || op == dot + 1)
		return lj_why_err(why, len, -EINVAL, "expected WORKLOAD.METRIC<=VALUE (or <, >, >=)");
	if ((size_t)(dot - text) >= sizeof(l->workload) || (size_t)(op - dot - 1) >= sizeof(l->metric))
		return lj_why_err(why, len, -EINVAL, "name too long");
	snprintf(l->workload, sizeof(l->workload), "%.*s", (int)(dot - text), text);
	snprintf(l->metric, sizeof(l->metric), "%.*s", (int)(op - dot - 1), dot + 1);
	oplen = op[1] == '=' ? 2 : 1;
	snprintf(l->op, sizeof(l->op), "%.*s", (int)oplen, op);
	return parse_value(op + oplen, l, why, len);
}

static bool holds(const struct cmp_limit *l, double v, double bound)
{
	if (l->op[0] == '<')
		return l->op[1] ? v <= bound : v < bound;
	return l->op[1] ? v >= bound : v > bound;
}

/* A value a limit compares, for messages: in us for a metric in ns, to the digit that decides. */
static void shown(char *buf, size_t len, const struct cmp_row *row, double v)
{
	bool ns = !strcmp(row->unit, "ns");

	snprintf(buf, len, "%.6g %s", ns ? v / 1000 : v, ns ? "us" : row->unit);
}

/* One limit on one row's last set: its worst run against the bound. */
static enum cmp_outcome judge(const struct cmp_limit *l, struct cmp_row *row, int s)
{
	const struct cmp_series *se = &row->series[s];
	double bound = l->value * l->scale, worst;
	size_t at = 0;
	char w[64], b[64];

	if (!se->n) {
		snprintf(row->limit_reason, sizeof(row->limit_reason), "%s: no values in the set", l->text);
		return CMP_CANNOT_JUDGE;
	}
	if (l->time && strcmp(row->unit, "ns")) {
		snprintf(row->limit_reason, sizeof(row->limit_reason), "%s: '%s' is in %s, not a time", l->text,
			 row->metric, *row->unit ? row->unit : "no unit");
		return CMP_CANNOT_JUDGE;
	}
	/* the worst run: the largest against an upper bound, the smallest against a lower one */
	for (size_t i = 1; i < se->n; i++)
		if (l->op[0] == '<' ? se->v[i] > se->v[at] : se->v[i] < se->v[at])
			at = i;
	worst = se->v[at];
	row->limit_worst = worst;
	shown(w, sizeof(w), row, worst);
	shown(b, sizeof(b), row, bound);
	snprintf(row->limit_reason, sizeof(row->limit_reason), "%s: worst run %s (run %zu of %zu) against %s %s",
		 l->text, w, at + 1, se->n, l->op, b);
	return holds(l, worst, bound) ? CMP_PASS : CMP_FAIL;
}

static void limit_apply(struct cmp_data *d, struct cmp_limit *l, bool report)
{
	int s = d->nsets - 1;

	for (size_t i = 0; i < d->nrows; i++) {
		struct cmp_row *row = d->rows[i];
		enum cmp_outcome o;

		if ((strcmp(l->workload, "*") && strcmp(l->workload, row->workload)) || strcmp(l->metric, row->metric))
			continue;
		l->matched++;
		o = judge(l, row, s);
		l->failures += o == CMP_FAIL;
		l->cannot_judge += o == CMP_CANNOT_JUDGE;
		/* a row keeps its worst outcome: fail, then cannot judge, then pass */
		if (row->limit == CMP_NOT_GATED || o == CMP_FAIL || (o == CMP_CANNOT_JUDGE && row->limit == CMP_PASS))
			row->limit = o;
		if (report && o == CMP_FAIL)
			lj_error("limit failed: %s%s%s%s %s: %s in '%s'", row->workload, *row->cell ? " [" : "",
				 row->cell, *row->cell ? "]" : "", row->metric, row->limit_reason, d->sets[s].label);
		else if (report && o == CMP_CANNOT_JUDGE)
			lj_warn("limit cannot judge: %s%s%s%s %s: %s", row->workload, *row->cell ? " [" : "",
				row->cell, *row->cell ? "]" : "", row->metric, row->limit_reason);
	}
}

int cmp_limits(struct cmp_data *d, const struct cmp_config *cfg, struct cmp_limit *limits, int n, bool report)
{
	int failing = 0, undecided = 0, unmatched = 0;

	for (int k = 0; k < n; k++) {
		limit_apply(d, &limits[k], report);
		if (!limits[k].matched) {
			if (report)
				lj_error("--limit '%s': no result has metric '%s' for workload '%s'", limits[k].text,
					 limits[k].metric, limits[k].workload);
			unmatched++;
		}
		failing += limits[k].failures > 0;
		undecided += limits[k].cannot_judge > 0;
	}
	return cmp_rules_exit(cfg, unmatched, failing, undecided);
}
