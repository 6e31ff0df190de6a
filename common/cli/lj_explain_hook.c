// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_explain_hook - --explain: the flight recorder beside a measurement, explaining late samples. */
#include "lj_explain_hook.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lj_alternate.h"
#include "lj_err.h"
#include "lj_explain.h"
#include "lj_explain_keep.h"
#include "lj_explain_stream.h"
#include "lj_explain_json.h"
#include "lj_hot.h"
#include "lj_instr.h"
#include "lj_json.h"
#include "lj_parse.h"
#include "lj_printable.h"
#include "lj_preempt.h"
#include "lj_result.h"
#include "lj_time.h"
#include "lj_topk.h"
#include "lj_trace.h"
#include "lj_validity_hook.h"

/* Causes summed over the run: kept for the result, and counted before folding. */
#define MAXAGG 16
#define AGG_WORK 512

struct cand {
	uint64_t lat;		/* ran - due (0 if before): first, lj_topk's key */
	enum lj_late_kind kind;
	int cpu;
	pid_t tid;
	uint64_t due, ran;
};

/* One measuring thread's candidates: written by that thread only, read after stop. */
struct thread_cands {
	pid_t tid;
	uint64_t nsamples;		/* samples late() saw (default threshold: all of them) */
	int ntop;
	struct cand top[LJ_EXPLAIN_TOPK];	/* the largest samples (lj_topk) */
};

struct done {
	struct lj_explanation x;
	const char *what;
};

struct lj_explain {
	struct lj_explain_opts opts;
	struct lj_trace *trace;
	struct lj_explain_stream *stream;	/* NULL: the trace is read after the run only */
	struct lj_alternate *alt;	/* LJ_EXPLAIN_ALTERNATE's windows, or NULL */
	char alt_why[200];		/* asked for and not started: why */
	struct lj_hooks *hs;		/* the list it joined: its validity hook hears of lost events */
	uint64_t start_ns;
	int nthreads;
	struct thread_cands *th;
	_Atomic uint64_t unmatched;	/* late() from a thread not in the run description */
	struct cand *kept;		/* missed deadlines, frames, samples above a threshold */
	_Atomic int nkept;		/* claimed slots (a slot per fetch_add: any thread may append) */
	_Atomic int broke;
	struct lj_explain_keep keep;	/* what a -b --tracemark break hands the user */
	struct done *done;
	int ndone;
	uint64_t outside_window, failed, dropped;
	struct lj_cause agg[MAXAGG];
	int nagg;
	uint64_t lower_ns;		/* lower priorities after wake-ups, summed */
	int nlower;			/* explanations with some */
	struct lj_preempt_info preempt;	/* read when nlower: what let them run */
	uint64_t after_ns;		/* CPU time of stop(): the rest read, decoded and explained */
	char why[256];
	char programs_why[160];		/* LJ_EXPLAIN_PROGRAM_COST asked and refused: why */
};

int lj_explain_parse(const char *arg, struct lj_explain_opts *o)
{
	char why[256] = "";
	int64_t ns;

	const char *rec = getenv(LJ_EXPLAIN_RECORDER_ENV), *cost = getenv(LJ_EXPLAIN_PROGRAM_COST_ENV);
	const char *plain = getenv(LJ_EXPLAIN_BPF_PLAIN_ENV);
	enum lj_trace_backend b = LJ_TRACE_AUTO;
	struct lj_alternate_opts alt;

	if (rec && rec[0] && lj_trace_backend_parse(rec, &b))
		return lj_usage_error("%s: invalid recorder '%s' (bpf, tracefs or auto)",
				      LJ_EXPLAIN_RECORDER_ENV, rec);
	if (cost && cost[0] && strcmp(cost, "0") && strcmp(cost, "1"))
		return lj_usage_error("%s: invalid value '%s' (1 or 0)", LJ_EXPLAIN_PROGRAM_COST_ENV, cost);
	if (plain && plain[0] && strcmp(plain, "0") && strcmp(plain, "1"))
		return lj_usage_error("%s: invalid value '%s' (1 or 0)", LJ_EXPLAIN_BPF_PLAIN_ENV, plain);
	lj_trace_bpf_plain_claim = plain && !strcmp(plain, "1");
	if (lj_alternate_parse(getenv(LJ_EXPLAIN_ALTERNATE_ENV), "attached", &alt, why, sizeof(why)))
		return lj_usage_error("%s: %s", LJ_EXPLAIN_ALTERNATE_ENV, why);
	o->alternate_ms = alt.ms;
	o->alternate_attached = alt.word;
	o->recorder = (int)b;
	o->measure_programs = cost && !strcmp(cost, "1");
	o->explain = true;
	if (!arg)
		return 0;
	if (lj_parse_duration_ns(arg, LJ_NSEC_PER_USEC, &ns, why, sizeof(why)) || ns <= 0)
		return lj_usage_error("--explain: invalid threshold '%s'%s%s (e.g. 200us, 1ms)", arg,
				      why[0] ? ": " : "", why);
	o->threshold_ns = (uint64_t)ns;
	return 0;
}

int lj_explain_new(struct lj_explain **out, const struct lj_explain_opts *o)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->opts = *o;
	return 0;
}

int lj_explain_add(struct lj_hooks *hs, struct lj_explain *x)
{
	x->hs = hs;
	/* Without a threshold every sample comes in: the run's p99.9 is only known at the end (so with windows). */
	return lj_hooks_add(hs, &lj_explain_ops, x, x->opts.alternate_ms ? 0 : x->opts.threshold_ns);
}

static void free_(void *priv);

int lj_explain_register(struct lj_hooks *hs, const struct lj_explain_opts *o,
			struct lj_explain **out)
{
	struct lj_explain *x = NULL;
	int err;

	if (out)
		*out = NULL;
	if (!o->explain && !o->tracemark)
		return 0;
	err = lj_explain_new(&x, o);
	if (!err && (err = lj_explain_add(hs, x)))
		free_(x);
	else if (!err && out)
		*out = x;
	return err;
}

/* Keep @c if it is among the LJ_EXPLAIN_TOPK largest. Return: whether it was kept. */
static bool LJ_HOT keep_top(struct thread_cands *tc, const struct cand *c)
{
	if (!lj_topk_enters(tc->top, tc->ntop, LJ_EXPLAIN_TOPK, c->lat))
		return false;
	lj_topk_add(tc->top, &tc->ntop, LJ_EXPLAIN_TOPK, sizeof(*c), c);
	return true;
}

static struct thread_cands *LJ_HOT thread_of(struct lj_explain *x, const struct lj_late *ev)
{
	if (ev->index >= 0 && ev->index < x->nthreads &&
	    (x->th[ev->index].tid == ev->tid || x->th[ev->index].tid == 0))
		return &x->th[ev->index];
	for (int i = 0; i < x->nthreads; i++)
		if (x->th[i].tid == ev->tid)
			return &x->th[i];
	return NULL;
}

static void LJ_HOT late(void *priv, const struct lj_late *ev)
{
	struct lj_explain *x = priv;
	struct thread_cands *tc = thread_of(x, ev);
	struct cand c = { .lat = ev->ran_ns > ev->due_ns ? ev->ran_ns - ev->due_ns : 0, .kind = ev->kind,
			  .cpu = ev->cpu, .tid = ev->tid, .due = ev->due_ns, .ran = ev->ran_ns };

	if (!tc) {
		atomic_fetch_add_explicit(&x->unmatched, 1, memory_order_relaxed);
		return;
	}
	if (x->opts.alternate_ms && ev->kind == LJ_LATE_SAMPLE) {
		if (x->alt)
			lj_alternate_sample(x->alt, ev->due_ns, ev->ran_ns);
		if (c.lat < x->opts.threshold_ns)
			return;		/* every sample comes in for the windows */
	}
	if (ev->kind == LJ_LATE_SAMPLE && !x->opts.threshold_ns) {
		tc->nsamples++;
		if (!keep_top(tc, &c))
			return;
	} else {
		int k = atomic_fetch_add_explicit(&x->nkept, 1, memory_order_relaxed);

		if (k >= LJ_EXPLAIN_MAXCAND)
			return;		/* counted as dropped: nkept goes past the end */
		x->kept[k] = c;
	}
	/* The reader keeps the trace around it. */
	lj_explain_stream_notify(x->stream, (int)(tc - x->th), c.due, c.ran);
}

/*
 * Record the wake-ups and migrations of the measuring threads only (a
 * --tracemark trace, kept for the user, records every task's); a tool
 * with more threads, or one not known, records them all.
 */
static void filter_threads(struct lj_explain *x, const struct lj_run_thread *th, int n)
{
	pid_t tids[LJ_TEV_FILTER_MAX];
	int k = 0, err;

	if (x->opts.tracemark)
		return;
	for (int i = 0; i < n; i++) {
		if (!th[i].measured)
			continue;
		if (k == LJ_TEV_FILTER_MAX || th[i].tid <= 0) {
			k = 0;	/* more than a filter takes, or an id not known: every task's */
			break;
		}
		tids[k++] = th[i].tid;
	}
	err = lj_trace_threads(x->trace, tids, k);
	if (err)
		lj_info("--explain: cannot filter the wake-up events on the measured threads: %s; recording every task's",
			lj_strerror(err));
}

/* LJ_EXPLAIN_ALTERNATE's switch: the programs detached or attached, or (",attached") their records stopped. */
static int set_recorder(void *ctx, bool on, char *why, size_t len)
{
	struct lj_explain *x = ctx;

	return x->opts.alternate_attached ? lj_trace_recording(x->trace, on) : lj_trace_attached(x->trace, on, why, len);
}

static uint64_t records(void *ctx)
{
	return lj_trace_recorded(((struct lj_explain *)ctx)->trace);
}

static const char *recorder_unavailable(void *ctx)
{
	return strcmp(lj_trace_backend_name(((struct lj_explain *)ctx)->trace), "bpf") ?
	       "the tracefs recorder cannot be detached" : NULL;
}

static const struct lj_alternate_ops windows_detach = {
	set_recorder, records, recorder_unavailable, LJ_EXPLAIN_ALTERNATE_ENV, "detached", "records"
}, windows_attached = {
	set_recorder, records, recorder_unavailable, LJ_EXPLAIN_ALTERNATE_ENV, "attached, not recording", "records"
};

static int start(void *priv, const struct lj_run_desc *run)
{
	struct lj_explain *x = priv;
	/*
	 * Threads the tool names later (lj-frame's stages, lj_hooks_threads),
	 * or too many to keep apart (hackbench's workers): a slot per index.
	 */
	bool named = run->nthreads > 0 && run->nthreads <= LJ_EXPLAIN_ANON_SLOTS;
	int n = named ? run->nthreads : LJ_EXPLAIN_ANON_SLOTS, err;

	x->th = calloc((size_t)n, sizeof(*x->th));
	if (!x->th)
		return -ENOMEM;
	x->nthreads = n;
	x->kept = calloc(LJ_EXPLAIN_MAXCAND, sizeof(*x->kept));
	if (!x->kept)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		x->th[i].tid = named ? run->threads[i].tid : 0;
	/* --tracemark's trace is kept for the user to read: a tracefs instance. */
	err = lj_trace_open(&x->trace, &run->measured, x->opts.buffer_kb,
			    x->opts.tracemark ? LJ_TRACE_TRACEFS : (enum lj_trace_backend)x->opts.recorder,
			    x->why, sizeof(x->why));
	if (err)
		return err;	/* the driver's one warning names the fallback, x->why its reason (why_) */
	if (x->opts.tracemark)
		lj_explain_keep_start(&x->keep);
	x->start_ns = (uint64_t)lj_now_ns();
	if (lj_trace_bpf_why(x->trace)[0])
		lj_info("--explain: the tracefs recorder, since the BPF one could not start: %s",
			lj_trace_bpf_why(x->trace));
	if (x->opts.explain && x->opts.measure_programs &&
	    lj_trace_measure_programs(x->trace, x->programs_why, sizeof(x->programs_why)))
		lj_info("--explain: %s", x->programs_why);
	if (named)
		filter_threads(x, run->threads, run->nthreads);
	if (x->opts.timer_wakeups && !x->opts.tracemark)
		lj_trace_wakeups_by_timer(x->trace);
	/* Without it the explanation still works, from the buffer's last window only. */
	if (x->opts.explain && !x->opts.tracemark &&
	    (err = lj_explain_stream_start(&x->stream, x->trace, n, &run->measured)))
		lj_warn_errno(err, "--explain: cannot start the trace reader; only the last %d KiB per CPU are kept",
			      (int)(x->opts.buffer_kb ? x->opts.buffer_kb : LJ_TRACE_BUFFER_KB));
	if (x->opts.explain && x->opts.alternate_ms &&
	    lj_alternate_start(&x->alt, x->opts.alternate_ms, x->opts.alternate_attached ? &windows_attached : &windows_detach,
			       x, run, x->alt_why, sizeof(x->alt_why)))
		lj_warn("--explain: %s", x->alt_why);
	return 0;
}

/* Threads named after the start (lj-frame's stages, each trial): each takes its index's slot. */
static void threads(void *priv, const struct lj_run_thread *th, int n)
{
	struct lj_explain *x = priv;

	for (int i = 0; i < n; i++)
		if (th[i].measured && th[i].index >= 0 && th[i].index < x->nthreads)
			x->th[th[i].index].tid = th[i].tid;
	/* None left (the run is over): the filter stays. */
	if (n && x->trace)
		filter_threads(x, th, n);
}

void lj_explain_break(struct lj_explain *x, const char *marker)
{
	if (!x || !x->trace || atomic_exchange(&x->broke, 1))
		return;
	lj_trace_mark(x->trace, marker);
	lj_trace_off(x->trace);
	lj_explain_keep_break(&x->keep, marker);
}

static void free_(void *priv)
{
	struct lj_explain *x = priv;

	if (!x)
		return;
	lj_alternate_free(x->alt);
	lj_explain_stream_free(x->stream);
	lj_explain_keep_free(&x->keep);
	if (lj_trace_close(x->trace, atomic_load(&x->broke), x->why, sizeof(x->why)))
		lj_warn("--explain: %s", x->why);
	free(x->kept);
	free(x->th);
	free(x->done);
	free(x);
}

static const char *what_of(enum lj_late_kind k)
{
	switch (k) {
	case LJ_LATE_MISSED: return "missed period";
	case LJ_LATE_FRAME_DROPPED: return "dropped frame";
	case LJ_LATE_FRAME_JANKY: return "janky frame";
	default: return "spike";
	}
}

static int by_latency_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct cand *)a)->lat, y = ((const struct cand *)b)->lat;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* By due time; for one wake-up told twice (a sample and a missed period), the missed first. */
static int by_due(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->due != y->due)
		return x->due < y->due ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->kind == LJ_LATE_SAMPLE) - (y->kind == LJ_LATE_SAMPLE);
}

/* One explanation per wake-up: the loops tell a late one both as a sample and as missed. */
static int dedupe(struct cand *c, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!k || c[k - 1].tid != c[i].tid || c[k - 1].due != c[i].due || c[k - 1].ran != c[i].ran)
			c[k++] = c[i];
	return k;
}

/*
 * The candidates to explain, by time: everything kept, and of the largest
 * samples those above the run's p99.9 (the top n/1000, at least one).
 */
static struct cand *candidates(struct lj_explain *x, int *n)
{
	int total = 0, k = 0, nkept = atomic_load(&x->nkept);
	struct cand *all;

	if (nkept > LJ_EXPLAIN_MAXCAND) {
		x->dropped += (uint64_t)(nkept - LJ_EXPLAIN_MAXCAND);
		nkept = LJ_EXPLAIN_MAXCAND;
	}
	total = nkept;
	for (int i = 0; i < x->nthreads; i++)
		total += x->th[i].ntop;
	all = calloc((size_t)total + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (int i = 0; i < x->nthreads; i++) {
		struct thread_cands *tc = &x->th[i];
		uint64_t above = tc->nsamples / 1000 ? tc->nsamples / 1000 : 1;

		qsort(tc->top, (size_t)tc->ntop, sizeof(tc->top[0]), by_latency_desc);
		for (int j = 0; j < tc->ntop && (uint64_t)j < above; j++)
			all[k++] = tc->top[j];
	}
	memcpy(all + k, x->kept, (size_t)nkept * sizeof(*all));
	k += nkept;
	qsort(all, (size_t)k, sizeof(*all), by_due);
	*n = dedupe(all, k);
	return all;
}

/* RT priorities do not say FIFO or RR: ask the task, if it still runs under that name. */
static void refine_policies(struct lj_explanation *e)
{
	for (int i = 0; i < e->ncauses; i++) {
		struct lj_cause *c = &e->causes[i];

		if ((c->kind == LJ_CAUSE_TASK || c->kind == LJ_CAUSE_SELF) && c->id > 0) {
			int pol = lj_trace_policy_of(c->id, c->name);

			if (pol != LJ_POLICY_UNKNOWN)
				c->policy = pol;
		}
	}
}

static int by_tid_due(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->due < y->due ? -1 : x->due > y->due;
}

static int done_by_due(const void *a, const void *b)
{
	const struct done *x = a, *y = b;

	return x->x.due_ns < y->x.due_ns ? -1 : x->x.due_ns > y->x.due_ns;
}

/* Candidates the trace can speak for: on a traced CPU, after its first kept event. */
static int explainable(struct lj_explain *x, const struct lj_trace_view *v, const struct cand *c)
{
	if (c->cpu < 0 || c->cpu >= v->ncpus) {
		x->failed++;
		return 0;
	}
	if (!v->cpus[c->cpu].n || v->cpus[c->cpu].ev[0].ts > c->due) {
		x->outside_window++;
		return 0;
	}
	return 1;
}

/* Explain the candidates in one batch (grouped by thread), then order them by time. */
static void explain_all(struct lj_explain *x, struct cand *all, int n)
{
	const struct lj_trace_view *v = lj_trace_view(x->trace);
	struct lj_explain_req *req = calloc((size_t)n + 1, sizeof(*req));
	struct lj_explanation *out = calloc((size_t)n + 1, sizeof(*out));
	int *err = calloc((size_t)n + 1, sizeof(*err)), k = 0;

	if (!req || !out || !err) {
		lj_warn("--explain: out of memory for %d explanations", n);
		goto out;
	}
	qsort(all, (size_t)n, sizeof(*all), by_tid_due);
	for (int i = 0; i < n; i++)
		if (explainable(x, v, &all[i]))
			req[k++] = (struct lj_explain_req){ all[i].cpu, all[i].tid, all[i].due, all[i].ran };
	if (lj_explain_batch(v, req, (size_t)k, out, err)) {
		lj_warn("--explain: out of memory for %d explanations", k);
		goto out;
	}
	for (int i = 0, j = 0; i < n && j < k; i++) {
		if (all[i].cpu < 0 || all[i].due != req[j].due_ns || all[i].tid != req[j].tid)
			continue;	/* not explainable: counted already */
		if (err[j++]) {
			x->failed++;
			continue;
		}
		x->done[x->ndone].x = out[j - 1];
		x->done[x->ndone].what = what_of(all[i].kind);
		refine_policies(&x->done[x->ndone++].x);
	}
	qsort(x->done, (size_t)x->ndone, sizeof(*x->done), done_by_due);
out:
	free(req);
	free(out);
	free(err);
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct lj_cause *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* The run's causes: summed in a large table, the MAXAGG - 1 largest kept, the rest "other". */
static void aggregate(struct lj_explain *x)
{
	struct lj_cause *work = calloc(AGG_WORK, sizeof(*work));
	int n = 0;

	if (!work)
		return;
	for (int i = 0; i < x->ndone; i++)
		n = lj_explain_aggregate(work, n, AGG_WORK, &x->done[i].x);
	qsort(work, (size_t)n, sizeof(*work), by_ns_desc);
	x->nagg = n < MAXAGG ? n : MAXAGG;
	memcpy(x->agg, work, (size_t)x->nagg * sizeof(*work));
	if (n > MAXAGG) {
		struct lj_cause *o = &x->agg[MAXAGG - 1];

		*o = (struct lj_cause){ .kind = LJ_CAUSE_OTHER, .policy = LJ_POLICY_UNKNOWN };
		strcpy(o->name, "other");
		for (int i = MAXAGG - 1; i < n; i++) {
			o->ns += work[i].ns;
			o->count += work[i].count;
		}
	}
	free(work);
}

/* Lost events can hide a cause or invent "unaccounted" time: the verdict says so. */
static void mark_lost(struct lj_explain *x)
{
	struct lj_trace_stats st;
	char text[128];

	lj_trace_get_stats(x->trace, &st);
	if (!st.lost)
		return;
	snprintf(text, sizeof(text), "%llu trace events lost: an explanation may miss a cause",
		 (unsigned long long)st.lost);
	lj_vhook_reason_in(x->hs, LJ_SUSPECT, "trace", text);
}

/*
 * Per cause kind, the mean time per explained late sample, as summary
 * metrics (explain_<kind>_ns): lj-matrix stores them and lj-compare
 * compares them like any other, which says which cause moved between two
 * run sets. Every kind is written (0 where absent) so each run has them all.
 */
static void summarise_causes(const struct lj_explain *x, struct lj_result *res)
{
	uint64_t total[LJ_CAUSE_NKINDS] = { 0 };
	char name[48];

	if (!x->ndone)
		return;
	for (int i = 0; i < x->ndone; i++)
		for (int c = 0; c < x->done[i].x.ncauses; c++)
			total[x->done[i].x.causes[c].kind] += x->done[i].x.causes[c].ns;
	for (int k = 0; k < LJ_CAUSE_NKINDS; k++) {
		snprintf(name, sizeof(name), "explain_%s_ns", lj_cause_kind_name(k));
		lj_result_summary(res, name, (double)total[k] / x->ndone, "ns", LJ_BETTER_LOWER);
	}
	/* part of the task time: what two preemption models compare on */
	lj_result_summary(res, "explain_lower_prio_ns", (double)x->lower_ns / x->ndone, "ns",
			  LJ_BETTER_LOWER);
}

static void explain_run(struct lj_explain *x);

static void stop(void *priv)
{
	struct lj_explain *x = priv;
	int64_t cpu0 = lj_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	if (!x->trace)
		return;
	if (atomic_load(&x->broke))
		lj_explain_keep_replace(&x->keep);
	if (!x->opts.explain)
		return;
	lj_alternate_stop(x->alt);
	explain_run(x);
	x->after_ns = (uint64_t)(lj_clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0);
}

/* The reader stopped, the rest of the trace read, every candidate explained. */
static void explain_run(struct lj_explain *x)
{
	struct cand *all;
	int n = 0;

	if (lj_explain_stream_stop(x->stream))
		lj_warn("--explain: reading the trace during the run failed; explaining what was read");
	if (lj_trace_collect(x->trace, atomic_load(&x->broke), x->why, sizeof(x->why)))
		lj_warn("--explain: %s", x->why);
	all = candidates(x, &n);
	x->done = calloc((size_t)n + 1, sizeof(*x->done));
	if (!all || !x->done) {
		free(all);
		lj_warn("--explain: out of memory for %d explanations", n);
		return;
	}
	explain_all(x, all, n);
	free(all);
	aggregate(x);
	for (int i = 0; i < x->ndone; i++)
		if (x->done[i].x.lower_prio_ns) {
			x->lower_ns += x->done[i].x.lower_prio_ns;
			x->nlower++;
		}
	if (x->nlower)
		lj_preempt_detect(&x->preempt);
	mark_lost(x);
}

/*
 * Why a task an RT thread outranks could keep the CPU after the thread
 * was woken, given the kernel's preemption model.
 */
static const char *lower_prio_why(enum lj_preempt_model m)
{
	switch (m) {
	case LJ_PREEMPT_NONE:
		return "the kernel is not preemptible: a task inside the kernel keeps the CPU "
		       "until it sleeps, returns to user space or reaches cond_resched()";
	case LJ_PREEMPT_VOLUNTARY:
		return "voluntary preemption: a task inside the kernel keeps the CPU until "
		       "its next might_sleep() point";
	case LJ_PREEMPT_FULL:
	case LJ_PREEMPT_LAZY:
	case LJ_PREEMPT_RT:
		return "a preemptible kernel: only sections that cannot be preempted (spinlocks, "
		       "interrupts off), the fair server or RT throttling let them run";
	default:
		return "preemption model unknown";
	}
}

/* What the recorder's events were, by kind: where its volume comes from. */
static json_object *by_type_json(const struct lj_trace_stats *st)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < LJ_TEV_NTYPES; k++)
		if (st->by_type[k])
			json_object_object_add(o, lj_tev_type_name((enum lj_tev_type)k),
					       lj_json_int((int64_t)st->by_type[k]));
	return o;
}

/* The BPF programs' runs and run time per tracepoint (LJ_EXPLAIN_PROGRAM_COST), or null. */
static json_object *programs_json(const struct lj_explain *x)
{
	struct lj_trace_prog_cost p[LJ_TRACE_MAXPROGS];
	int n = lj_trace_programs(x->trace, p, LJ_TRACE_MAXPROGS);
	json_object *o;

	if (!n)
		return NULL;
	o = json_object_new_object();
	for (int i = 0; i < n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "runs", lj_json_int((int64_t)p[i].runs));
		json_object_object_add(e, "ns", lj_json_int((int64_t)p[i].ns));
		json_object_object_add(e, "ns_per_run", p[i].runs ? lj_json_num((double)p[i].ns / (double)p[i].runs) : NULL);
		/* sched_switch has two programs (one per kernel generation): one is attached. */
		json_object_object_add(o, p[i].tracepoint, e);
	}
	return o;
}

static int contribute(void *priv, struct lj_result *res)
{
	struct lj_explain *x = priv;
	json_object *o, *arr, *causes;
	struct lj_trace_stats st;

	if (!x->opts.explain || !x->trace)
		return 0;
	lj_trace_get_stats(x->trace, &st);
	o = json_object_new_object();
	arr = json_object_new_array();
	causes = json_object_new_array();
	json_object_object_add(o, "recorder", json_object_new_string(lj_trace_backend_name(x->trace)));
	json_object_object_add(o, "bpf_unavailable", lj_trace_bpf_why(x->trace)[0] ?
			       json_object_new_string(lj_trace_bpf_why(x->trace)) : NULL);
	json_object_object_add(o, "bpf_object", strcmp(lj_trace_backend_name(x->trace), "bpf") ? NULL :
			       json_object_new_string(lj_trace_bpf_plain(x->trace) ? "before-5.12" : "5.12"));
	json_object_object_add(o, "instance", lj_trace_dir(x->trace)[0] ?
			       json_object_new_string(lj_trace_dir(x->trace)) : NULL);
	lj_explain_keep_json(&x->keep, o);
	json_object_object_add(o, "t0_ns", lj_json_int((int64_t)x->start_ns));
	json_object_object_add(o, "threshold_ns", x->opts.threshold_ns ?
			       lj_json_int((int64_t)x->opts.threshold_ns) : NULL);
	json_object_object_add(o, "events", lj_json_int((int64_t)st.events));
	json_object_object_add(o, "events_by_type", by_type_json(&st));
	json_object_object_add(o, "pid_filter", lj_json_int(st.pid_filter));
	json_object_object_add(o, "wakeups_from",
			       json_object_new_string(lj_trace_view(x->trace)->timer_wakeups ? "local_timer" : "sched_waking"));
	json_object_object_add(o, "lost_events", lj_json_int((int64_t)st.lost));
	json_object_object_add(o, "overrun_events", lj_json_int((int64_t)st.overrun));
	json_object_object_add(o, "suspect", json_object_new_boolean(st.lost > 0));
	json_object_object_add(o, "outside_window", lj_json_int((int64_t)x->outside_window));
	json_object_object_add(o, "not_explained", lj_json_int((int64_t)x->failed));
	json_object_object_add(o, "streamed", json_object_new_boolean(x->stream != NULL));
	json_object_object_add(o, "programs", programs_json(x));
	json_object_object_add(o, "programs_unmeasured", x->programs_why[0] ?
			       json_object_new_string(x->programs_why) : NULL);
	json_object_object_add(o, "alternate", x->alt ? lj_alternate_json(x->alt) : NULL);
	if (!x->alt && x->alt_why[0])
		json_object_object_add(o, "alternate_unavailable", json_object_new_string(x->alt_why));
	json_object_object_add(o, "windows_dropped",
			       lj_json_int((int64_t)lj_explain_stream_dropped(x->stream)));
	json_object_object_add(o, "candidates_dropped",
			       lj_json_int((int64_t)(x->dropped + atomic_load(&x->unmatched))));
	for (int i = 0; i < x->ndone; i++)
		json_object_array_add(arr, lj_explanation_json(&x->done[i].x, x->done[i].what,
								x->start_ns));
	for (int i = 0; i < x->nagg; i++)
		json_object_array_add(causes, lj_cause_json(&x->agg[i]));
	json_object_object_add(o, "explanations", arr);
	json_object_object_add(o, "causes", causes);
	if (x->nlower) {
		json_object *lp = json_object_new_object();

		json_object_object_add(lp, "ns", lj_json_int((int64_t)x->lower_ns));
		json_object_object_add(lp, "explained", lj_json_int(x->nlower));
		json_object_object_add(lp, "preempt", json_object_new_string(lj_preempt_name(x->preempt.mode)));
		json_object_object_add(lp, "why", json_object_new_string(lower_prio_why(x->preempt.mode)));
		json_object_object_add(o, "lower_prio", lp);
	} else {
		json_object_object_add(o, "lower_prio", NULL);
	}
	json_object_object_add(lj_result_side(res), "explain", o);
	summarise_causes(x, res);
	return 0;
}

static void report_summary(struct lj_explain *x, FILE *out)
{
	struct lj_trace_stats st;
	char d[24], sch[24], nm[LJ_TEV_IRQNAME];

	lj_trace_get_stats(x->trace, &st);
	fprintf(out, "## explain: %d explained, %llu events read, %llu lost", x->ndone,
		(unsigned long long)st.events, (unsigned long long)st.lost);
	if (x->outside_window)
		fprintf(out, ", %llu before the kept trace (a larger buffer keeps more)",
			(unsigned long long)x->outside_window);
	if (x->dropped || atomic_load(&x->unmatched))
		fprintf(out, ", %llu not kept",
			(unsigned long long)(x->dropped + atomic_load(&x->unmatched)));
	for (int i = 0; i < x->nagg && i < 5; i++) {
		const struct lj_cause *c = &x->agg[i];

		/* Names come from the trace (a task's comm holds any byte): shown printable. */
		lj_printable_copy(c->name, nm, sizeof(nm));
		fprintf(out, "%s%s %s", i ? ", " : "; in all: ", c->kind == LJ_CAUSE_TASK ? nm :
			c->kind == LJ_CAUSE_SELF ? "itself" : lj_cause_kind_name(c->kind),
			lj_explain_dur(c->ns, d, sizeof(d)));
		if (c->kind == LJ_CAUSE_TASK)
			fprintf(out, " (pid %d, %s)", c->id, lj_cause_sched_text(c, sch, sizeof(sch)));
		else if (c->kind == LJ_CAUSE_IRQ || c->kind == LJ_CAUSE_SOFTIRQ)
			fprintf(out, " %s", nm);
		else if (c->kind == LJ_CAUSE_UNACCOUNTED)
			fprintf(out, " (%s)", nm);
	}
	fputc('\n', out);
	if (x->nlower)
		fprintf(out, "## explain: in %d of %d, tasks of lower priority kept the CPU after the wake-up, "
			"%s in all (preempt=%s: %s)\n", x->nlower, x->ndone,
			lj_explain_dur(x->lower_ns, d, sizeof(d)), lj_preempt_name(x->preempt.mode),
			lower_prio_why(x->preempt.mode));
}

static int done_by_latency_desc(const void *a, const void *b)
{
	uint64_t x = (*(const struct done *const *)a)->x.latency_ns;
	uint64_t y = (*(const struct done *const *)b)->x.latency_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The LJ_EXPLAIN_LINES largest explanations, in time order; the JSON has them all. */
static void report_lines(struct lj_explain *x, FILE *out)
{
	const struct done **by = calloc((size_t)x->ndone + 1, sizeof(*by));
	uint64_t cut = 0;
	char line[1024];
	int shown = 0;

	if (!by)
		return;
	for (int i = 0; i < x->ndone; i++)
		by[i] = &x->done[i];
	qsort(by, (size_t)x->ndone, sizeof(*by), done_by_latency_desc);
	if (x->ndone > LJ_EXPLAIN_LINES)
		cut = by[LJ_EXPLAIN_LINES - 1]->x.latency_ns;
	free(by);
	for (int i = 0; i < x->ndone && shown < LJ_EXPLAIN_LINES; i++) {
		if (x->done[i].x.latency_ns < cut)
			continue;
		shown++;
		fprintf(out, "## %s\n", lj_explain_text(&x->done[i].x, x->done[i].what, x->start_ns,
							line, sizeof(line)));
	}
	if (shown < x->ndone)
		fprintf(out, "## (%d more, smaller, in the JSON's side.explain)\n", x->ndone - shown);
}

static void report(void *priv, FILE *out)
{
	struct lj_explain *x = priv;

	if (!x->trace)
		return;
	if (x->opts.explain)
		report_lines(x, out);
	if (x->opts.explain)
		report_summary(x, out);
	if (atomic_load(&x->broke))
		fprintf(out, "## trace stopped at the break, kept in %s (rmdir it when done)\n",
			lj_trace_dir(x->trace));
	lj_explain_keep_report(&x->keep, out);
}

/* The programs' run time in the kernel, all CPUs, when measured (LJ_EXPLAIN_PROGRAM_COST). */
static void kernel_cost(const struct lj_explain *x, struct lj_instr_cost *c)
{
	struct lj_trace_prog_cost p[LJ_TRACE_MAXPROGS];
	int n = lj_trace_programs(x->trace, p, LJ_TRACE_MAXPROGS);

	c->kernel_measured = n > 0;
	for (int i = 0; i < n; i++) {
		c->kernel_ns += p[i].ns;
		c->kernel_runs += p[i].runs;
	}
}

/*
 * The reader thread during the run; the kernel's writes of the events are
 * not in it (docs/explain.md), unless the BPF programs were measured.
 */
static int cost(void *priv, struct lj_instr_cost *c)
{
	struct lj_explain *x = priv;
	struct lj_explain_stream_cost sc;
	struct lj_trace_stats st;

	if (!x->trace || !x->opts.explain)
		return 0;
	lj_explain_stream_cost(x->stream, &sc);
	lj_trace_get_stats(x->trace, &st);
	*c = (struct lj_instr_cost){ .name = "explain", .cpu_ns = sc.cpu_ns, .after_ns = x->after_ns, .events = st.events,
				     .passes = sc.passes, .threaded = x->stream != NULL, .apart = sc.apart };
	kernel_cost(x, c);
	snprintf(c->what, sizeof(c->what), "--explain's recorder (%s)", lj_trace_backend_name(x->trace));
	return 1;
}

int lj_explain_count(const struct lj_explain *x)
{
	return x && x->opts.explain ? x->ndone : 0;
}

const struct lj_explanation *lj_explain_get(const struct lj_explain *x, int i, const char **what)
{
	if (i < 0 || i >= lj_explain_count(x))
		return NULL;
	if (what)
		*what = x->done[i].what;
	return &x->done[i].x;
}

static const char *why_(void *priv)
{
	return ((struct lj_explain *)priv)->why;
}

const struct lj_hook_ops lj_explain_ops = {
	.name = "explain",
	.start = start,
	.late = late,
	.stop = stop,
	.contribute = contribute,
	.report = report,
	.free = free_,
	.threads = threads,
	.cost = cost,
	.why = why_,
};
