// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - lj-signal's output: signaltest's T: lines, the round trip, -v values and JSON. */
#include "sig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lj_err.h"
#include "lj_hist.h"
#include "lj_json.h"
#include "lj_parse.h"
#include "lj_report.h"
#include "lj_rtjson.h"
#include "lj_time.h"

#define RLOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)

static long unit(const struct sig_config *cfg, int64_t ns)
{
	return (long)(cfg->nsecs ? ns : ns / LJ_NSEC_PER_USEC);
}

static void fill_line(const struct sig_ring *r, const struct sig_thread *t,
		      const struct sig_live *l, struct lj_report_line *out)
{
	const struct sig_config *cfg = r->cfg;
	uint64_t c = RLOAD(&l->cycles);
	int prio = r->sched_fallback ? 0 : cfg->priority;

	memset(out, 0, sizeof(*out));
	out->thread = t->index;
	out->tid = t->tid;
	out->prio = prio;
	out->interval = -1;		/* signaltest's line has no I: field */
	out->cycles = c;
	out->min = c ? unit(cfg, RLOAD(&l->min_ns)) : 0;
	out->act = c ? unit(cfg, RLOAD(&l->act_ns)) : 0;
	out->avg = c ? unit(cfg, RLOAD(&l->sum_ns) / (int64_t)c) : 0;
	out->max = c ? unit(cfg, RLOAD(&l->max_ns)) : 0;
	out->nsecs = cfg->nsecs;
}

/* signaltest's live block: load average, a blank line, thread 0, cursor back up. */
void sig_report_live(const struct sig_ring *r)
{
	struct lj_report_line line;
	char lavg[256] = "";
	int fd = open("/proc/loadavg", O_RDONLY);

	if (fd >= 0) {
		ssize_t n = read(fd, lavg, sizeof(lavg) - 1);

		lavg[n > 0 ? n - 1 : 0] = '\0';
		close(fd);
	}
	fill_line(r, &r->th[0], &r->th[0].live, &line);
	printf("%s          \n\n", lavg);
	lj_report_rt_line(stdout, &line);
	printf("\033[3A");
	lj_fflush(stdout);
}

static void print_percentiles(const struct sig_config *cfg, const char *what,
			      const struct lj_hist *h)
{
	printf("# %s", what);
	for (int i = 0; i < LJ_PCT_N; i++)
		printf(" %s:%ld", lj_pcts[i].label, unit(cfg, lj_hist_quantile(h, lj_pcts[i].q)));
	printf(" (%s)\n", cfg->nsecs ? "ns" : "us");
}

/* cyclictest's histogram block: one row per bucket, one column per thread (hop into it). */
static void print_histogram(const struct sig_ring *r)
{
	const struct sig_config *cfg = r->cfg;
	static const char *const rows[] = { "Min", "Avg", "Max" };

	printf("# Histogram\n");
	for (int64_t b = 0; b < cfg->histogram; b++) {
		printf("%06lld", (long long)b);
		for (int i = 0; i < r->n; i++)
			printf("%s%06llu", i ? "\t" : " ", (unsigned long long)r->th[i].lin[b]);
		printf("\n");
	}
	printf("# Total:");
	for (int i = 0; i < r->n; i++) {
		uint64_t sum = 0;

		for (int64_t b = 0; b < cfg->histogram; b++)
			sum += r->th[i].lin[b];
		printf(" %09llu", (unsigned long long)sum);
	}
	printf("\n");
	for (int k = 0; k < 3; k++) {
		printf("# %s Latencies:", rows[k]);
		for (int i = 0; i < r->n; i++) {
			struct lj_report_line l;

			fill_line(r, &r->th[i], &r->th[i].live, &l);
			printf(" %05ld", k == 0 ? l.min : k == 1 ? l.avg : l.max);
		}
		printf("\n");
	}
	printf("# Histogram Overflows:");
	for (int i = 0; i < r->n; i++)
		printf(" %05llu", (unsigned long long)r->th[i].lin_over);
	printf("\n");
}

void sig_report_final(const struct sig_ring *r)
{
	const struct sig_config *cfg = r->cfg;
	struct lj_report_line line;
	char what[64];

	if (r->broke_thread >= 0)
		printf("Thread %d exceeded trace limit.\n", r->broke_thread);
	for (int i = 0; i < r->n; i++) {
		fill_line(r, &r->th[i], &r->th[i].live, &line);
		lj_report_rt_line(stdout, &line);
	}
	/* The round trip as a comment line: parsers that read T: lines skip it. */
	fill_line(r, &r->th[0], &r->th[0].rt_live, &line);
	printf("# Round trip: C:%7llu Min:%7ld Act:%*ld Avg:%*ld Max:%8ld\n",
	       (unsigned long long)line.cycles, line.min, cfg->nsecs ? 8 : 5, line.act,
	       cfg->nsecs ? 8 : 5, line.avg, line.max);
	if (cfg->histogram)
		print_histogram(r);
	if (cfg->percentiles) {
		for (int i = 0; i < r->n; i++) {
			snprintf(what, sizeof(what), "T:%2d hop %d->%d", i,
				 (i + r->n - 1) % r->n, i);
			print_percentiles(cfg, what, r->th[i].hop);
		}
		print_percentiles(cfg, "Round trip", r->th[0].rt);
	}
	if (cfg->verbose) {
		for (int i = 0; i < r->n; i++) {
			const struct sig_thread *t = &r->th[i];
			uint64_t from = t->nvalues > t->values_cap ? t->nvalues - t->values_cap : 0;

			for (uint64_t c = from; c < t->nvalues; c++)
				printf("%8d:%8llu:%8ld\n", i, (unsigned long long)c,
				       unit(cfg, t->values[c % t->values_cap]));
		}
	}
	lj_fflush(stdout);
}

/* Which of the ring's hops crossed CPUs: "same-cpu", "cross-cpu", "mixed", "unpinned". */
static const char *ring_placement(const struct sig_ring *r)
{
	const char *p = sig_placement(r, 0);

	for (int i = 1; i < r->n; i++)
		if (strcmp(p, sig_placement(r, i)))
			return "mixed";
	return p;
}

/* The run's parameters, after any fallback. */
static void params_json(const struct sig_ring *r, json_object *params)
{
	const struct sig_config *cfg = r->cfg;
	char list[256];

	json_object_object_add(params, "threads", lj_json_int(r->n));
	json_object_object_add(params, "loops", lj_json_int((int64_t)cfg->loops));
	json_object_object_add(params, "duration_ns", lj_json_int(cfg->duration_ns));
	json_object_object_add(params, "policy",
			       json_object_new_string(lj_sched_policy_name(r->sched_fallback ?
							LJ_POLICY_OTHER : cfg->policy)));
	json_object_object_add(params, "priority",
			       lj_json_int(r->sched_fallback ? 0 : cfg->priority));
	json_object_object_add(params, "signal", json_object_new_string("SIGUSR1"));
	json_object_object_add(params, "pace_ns", lj_json_int(cfg->pace_every ? cfg->pace_ns : 0));
	json_object_object_add(params, "pace_every", lj_json_int((int64_t)cfg->pace_every));
	json_object_object_add(params, "placement", json_object_new_string(ring_placement(r)));
	json_object_object_add(params, "cpus",
			       json_object_new_string(lj_cpulist_format(&r->measured, list, sizeof(list))));
	json_object_object_add(params, "mlockall", json_object_new_boolean(r->mlocked));
	json_object_object_add(params, "breaktrace_ns", lj_json_int(cfg->breaktrace_ns));
}

/* signaltest's own keys: num_threads and thread{"<i>"} with the T: lines' numbers. */
static void rt_keys(const struct sig_ring *r, json_object *root)
{
	json_object *threads;

	lj_rtjson_header(root);
	json_object_object_add(root, "num_threads", lj_json_int(r->n));
	threads = lj_rtjson_threads(root);
	for (int i = 0; i < r->n; i++) {
		const struct sig_thread *t = &r->th[i];
		struct lj_rtjson_thread rt = { .cpu = t->cpu, .node = -1 };
		struct lj_report_line l;

		fill_line(r, t, &t->live, &l);
		rt.cycles = l.cycles;
		rt.min = l.min;
		rt.max = l.max;
		if (l.cycles)
			rt.avg = (double)RLOAD(&t->live.sum_ns) / (double)l.cycles /
				 (r->cfg->nsecs ? 1.0 : 1000.0);
		lj_rtjson_thread_add(threads, i, &rt);
	}
}

int sig_report_json(const struct sig_ring *r, struct lj_result *res)
{
	json_object *params = lj_result_params(res);
	json_object *results = lj_result_results(res);
	json_object *side = lj_result_side(res);
	json_object *threads = json_object_new_array();
	struct lj_hist *all = lj_hist_new();
	const struct lj_hist *rt = r->th[0].rt;

	if (!all || !threads) {
		lj_hist_free(all);
		json_object_put(threads);
		return -ENOMEM;
	}
	params_json(r, params);
	for (int i = 0; i < r->n; i++) {
		const struct sig_thread *t = &r->th[i];
		int from = (i + r->n - 1) % r->n;
		json_object *o = json_object_new_object();
		json_object *s = json_object_new_object();

		lj_hist_merge(all, t->hop);
		json_object_object_add(o, "kind", json_object_new_string("hop"));
		json_object_object_add(o, "thread", lj_json_int(i));
		json_object_object_add(o, "tid", lj_json_int(t->tid));
		json_object_object_add(o, "from_thread", lj_json_int(from));
		json_object_object_add(o, "cpu", lj_json_int(t->cpu));
		json_object_object_add(o, "from_cpu", lj_json_int(r->th[from].cpu));
		json_object_object_add(o, "placement", json_object_new_string(sig_placement(r, i)));
		json_object_object_add(o, "latency", lj_result_hist_json(t->hop, true));
		json_object_array_add(results, o);

		json_object_object_add(s, "thread", lj_json_int(i));
		json_object_object_add(s, "last_cpu", lj_json_int(t->last_cpu));
		json_object_object_add(s, "voluntary_ctxt_switches", lj_json_int(t->nvcsw));
		json_object_object_add(s, "involuntary_ctxt_switches", lj_json_int(t->nivcsw));
		json_object_object_add(s, "wait_errors", lj_json_int((int64_t)t->wait_errors));
		json_object_object_add(s, "kill_errors", lj_json_int((int64_t)t->kill_errors));
		json_object_object_add(s, "paces", lj_json_int((int64_t)t->paces));
		json_object_array_add(threads, s);
	}
	{
		json_object *o = json_object_new_object();

		json_object_object_add(o, "kind", json_object_new_string("round_trip"));
		json_object_object_add(o, "thread", lj_json_int(0));
		json_object_object_add(o, "hops", lj_json_int(r->n));
		json_object_object_add(o, "placement", json_object_new_string(ring_placement(r)));
		json_object_object_add(o, "latency", lj_result_hist_json(rt, true));
		json_object_array_add(results, o);
	}
	json_object_object_add(side, "threads", threads);
	json_object_object_add(side, "reporter_cpu", lj_json_int(r->reporter_cpu));

	lj_result_summary_hist(res, "", all);
	lj_result_summary_hist(res, "rt_", rt);
	lj_hist_free(all);
	rt_keys(r, lj_result_root(res));
	return 0;
}
