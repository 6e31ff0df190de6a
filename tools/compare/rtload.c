// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtload - rt-tests' own --json files (cyclictest, signaltest) read as
 * ljkit result documents, so that a history of rt-tests runs compares with
 * ljkit runs. The mapping (docs/lj-compare.md, "rt-tests --json input"):
 * the threads' min, avg (weighted by cycles) and max become the summary's
 * min, mean and max, their cycles the samples, the merged histogram (when
 * the run had -h) the percentiles every ljkit tool's summary has (lj_pcts:
 * p50 to p99_99); microseconds become ns (with
 * -N/--nsecs on the command line the values are ns already).
 */
#include "compare.h"
#include "lj_err.h"
#include "lj_json.h"
#include "lj_why.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rt-tests programs read, and the ljkit tool whose workload each one is. */
static const struct { const char *prog, *tool; } rt_progs[] = {
	{ "cyclictest", "lj-cyclic" },
	{ "signaltest", "lj-signal" },
};

/*
 * Cheap test before parsing: rt-tests writes "file_version" first, and an
 * ljkit document, which also carries rt-tests' keys (lj-cyclic --json),
 * starts with "schema". Only the first 4 KiB are looked at.
 */
static bool looks_rt(const char *path)
{
	char buf[4097];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "\"file_version\"") && !strstr(buf, "\"schema\"");
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* The ljkit tool of the document's command line ("cmdline:" in rt-tests 2.x), or NULL. */
static const char *rt_tool(json_object *doc, bool *nsecs)
{
	json_object *c = get(doc, "cmdline:");
	const char *cmd, *base, *end;
	size_t len;

	if (!c)
		c = get(doc, "cmdline");
	if (!c || !json_object_is_type(c, json_type_string))
		return NULL;
	cmd = json_object_get_string(c);
	end = cmd + strcspn(cmd, " ");
	base = cmd;
	for (const char *p = cmd; p < end; p++)
		if (*p == '/')
			base = p + 1;
	len = (size_t)(end - base);
	*nsecs = strstr(cmd, " -N") || strstr(cmd, " --nsecs");
	for (size_t i = 0; i < sizeof(rt_progs) / sizeof(rt_progs[0]); i++)
		if (len == strlen(rt_progs[i].prog) && !strncmp(base, rt_progs[i].prog, len))
			return rt_progs[i].tool;
	return NULL;
}

/* Accumulated over the threads. */
struct rt_acc {
	double min, max, weighted, cycles;
	double hist_total;
	double *hist;		/* counts per bucket (the histogram's unit), merged */
	size_t nhist;
};

static int add_hist(struct rt_acc *a, json_object *h)
{
	json_object_object_foreach(h, key, cnt) {
		char *end;
		long b = strtol(key, &end, 10);

		if (*end || b < 0 || b > (1 << 24) || !cnt)
			continue;
		if ((size_t)b >= a->nhist) {
			size_t n = (size_t)b + 1;
			double *nh = realloc(a->hist, n * sizeof(*nh));

			if (!nh)
				return -ENOMEM;
			memset(nh + a->nhist, 0, (n - a->nhist) * sizeof(*nh));
			a->hist = nh;
			a->nhist = n;
		}
		a->hist[b] += json_object_get_double(cnt);
		a->hist_total += json_object_get_double(cnt);
	}
	return 0;
}

/* A number of rt-tests' (an integer or a double, finite), into *v. */
static bool num(json_object *o, double *v)
{
	if (!o || !(json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double)))
		return false;
	*v = json_object_get_double(o);
	return isfinite(*v);
}

/* Its histogram's counts: each a count >= 0; their sum (buckets past -h are overflows: not more than cycles). */
static int hist_sum(const char *id, json_object *h, double *sum, char *why, size_t len)
{
	*sum = 0;
	if (!h)
		return 0;
	if (!json_object_is_type(h, json_type_object))
		return lj_why_err(why, len, -EINVAL, "thread %s: its histogram is not an object", id);
	json_object_object_foreach(h, key, cnt) {
		double c;

		if (!num(cnt, &c) || c < 0)
			return lj_why_err(why, len, -EINVAL, "thread %s: histogram bucket %s: not a count", id, key);
		*sum += c;
	}
	return 0;
}

/*
 * Values no run can have, as the ljkit reader refuses impossible
 * statistics (lj_result_validate): a latency below 0, min above max, an
 * average outside [min, max] (rt-tests prints it with two decimals), a
 * histogram holding more than the cycles, or values where no cycle was
 * measured. One such thread refuses the whole file.
 */
static int check_thread(const char *id, json_object *t, char *why, size_t len)
{
	double cycles = 0, mn = 0, mx = 0, av = 0, hs;
	int ret;

	if (get(t, "cycles") && (!num(get(t, "cycles"), &cycles) || cycles < 0))
		return lj_why_err(why, len, -EINVAL, "thread %s: cycles is not a count", id);
	if ((ret = hist_sum(id, get(t, "histogram"), &hs, why, len)))
		return ret;
	if (!(cycles > 0)) {
		if ((num(get(t, "max"), &mx) && mx != 0) || (num(get(t, "avg"), &av) && av != 0) || hs > 0)
			return lj_why_err(why, len, -EINVAL, "thread %s: 0 cycles but values (max %g, avg %g, %g in the histogram)",
					  id, mx, av, hs);
		return 0;
	}
	if (!num(get(t, "min"), &mn) || !num(get(t, "max"), &mx) || !num(get(t, "avg"), &av))
		return lj_why_err(why, len, -EINVAL, "thread %s: min, max or avg is missing or not a number", id);
	if (mn < 0 || mx < 0 || av < 0)
		return lj_why_err(why, len, -EINVAL, "thread %s: a negative latency (min %g, avg %g, max %g)",
				  id, mn, av, mx);
	if (mn > mx)
		return lj_why_err(why, len, -EINVAL, "thread %s: min %g > max %g", id, mn, mx);
	if (av < mn - 0.005 || av > mx + 0.005)
		return lj_why_err(why, len, -EINVAL, "thread %s: avg %g outside [min %g, max %g]", id, av, mn, mx);
	if (hs > cycles)
		return lj_why_err(why, len, -EINVAL, "thread %s: %g in the histogram, more than its %g cycles",
				  id, hs, cycles);
	return 0;
}

/* One thread's stats (checked); a thread without cycles is left out. */
static int add_thread(struct rt_acc *a, json_object *t)
{
	double cycles = 0, mn, mx, av;

	if (!num(get(t, "cycles"), &cycles) || !(cycles > 0))
		return 0;
	num(get(t, "min"), &mn);
	num(get(t, "max"), &mx);
	num(get(t, "avg"), &av);
	a->min = fmin(a->min, mn);
	a->max = fmax(a->max, mx);
	a->weighted += av * cycles;
	a->cycles += cycles;
	return json_object_is_type(get(t, "histogram"), json_type_object) ?
		add_hist(a, get(t, "histogram")) : 0;
}

/* The histogram bucket holding quantile @q of all cycles, or NAN when it is past the histogram. */
static double hist_quantile(const struct rt_acc *a, double q)
{
	double need = ceil(q * a->cycles), seen = 0;

	for (size_t b = 0; b < a->nhist; b++) {
		seen += a->hist[b];
		if (seen >= need)
			return (double)b;
	}
	return NAN;
}

static void put_quantiles(json_object *sum, const struct rt_acc *a, double scale)
{
	if (!(a->hist_total > 0))
		return;
	for (int i = 0; i < LJ_PCT_N; i++) {
		double v = hist_quantile(a, lj_pcts[i].q);

		if (!isnan(v))
			lj_summary_put(sum, lj_pcts[i].name, v * scale, "ns", LJ_BETTER_LOWER);
	}
}

/*
 * The ljkit-shaped document of rt-tests document @rt, or NULL: with @why
 * when the file is refused (impossible values, nothing measured), "" when
 * out of memory.
 */
static json_object *convert(json_object *rt, const char *tool, bool nsecs, char *why, size_t len)
{
	struct rt_acc a = { .min = INFINITY, .max = -INFINITY };
	json_object *threads = get(rt, "thread"), *doc, *sum, *rc;
	double scale = nsecs ? 1 : 1000;

	if (!json_object_is_type(threads, json_type_object)) {
		lj_why(why, len, "rt-tests --json without a \"thread\" object");
		return NULL;
	}
	json_object_object_foreach(threads, id, t) {
		if (!json_object_is_type(t, json_type_object) || check_thread(id, t, why, len) ||
		    add_thread(&a, t)) {
			if (!json_object_is_type(t, json_type_object))
				lj_why(why, len, "thread %s is not an object", id);
			free(a.hist);
			return NULL;
		}
	}
	if (!(a.cycles > 0)) {
		lj_why(why, len, "rt-tests --json with no measured cycle");
		free(a.hist);
		return NULL;
	}
	doc = json_object_new_object();
	sum = json_object_new_object();
	json_object_object_add(doc, "tool", json_object_new_string(tool));
	json_object_object_add(doc, "source", json_object_new_string("rt-tests --json"));
	rc = get(rt, "return_code");
	json_object_object_add(doc, "exit_code", lj_json_int(rc ? json_object_get_int(rc) : 0));
	lj_summary_put(sum, "min", a.min * scale, "ns", LJ_BETTER_LOWER);
	lj_summary_put(sum, "mean", a.weighted / a.cycles * scale, "ns", LJ_BETTER_LOWER);
	put_quantiles(sum, &a, scale);
	lj_summary_put(sum, "max", a.max * scale, "ns", LJ_BETTER_LOWER);
	lj_summary_put(sum, "samples", a.cycles, "count", LJ_BETTER_NONE);
	json_object_object_add(doc, "summary", sum);
	free(a.hist);
	return doc;
}

json_object *cmp_rt_doc(const char *path, const char **tool_out, char *why, size_t len)
{
	json_object *rt = NULL, *doc;
	const char *tool;
	bool nsecs = false;

	lj_why(why, len, "%s", "");
	if (!looks_rt(path) || lj_json_read(path, LJ_RESULT_MAX_BYTES, &rt, NULL, 0))
		return NULL;
	tool = json_object_is_type(rt, json_type_object) && !get(rt, "schema") ? rt_tool(rt, &nsecs) : NULL;
	doc = tool ? convert(rt, tool, nsecs, why, len) : NULL;
	json_object_put(rt);
	if (doc && tool_out)
		*tool_out = tool;
	return doc;
}
