// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_perfetto - write --perfetto's trace after the run from what the hooks and the tool kept. */
#include "lj_perfetto.h"
#include "lj_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lj_explain.h"
#include "lj_explain_hook.h"
#include "lj_phases.h"
#include "lj_power.h"
#include "lj_power_hook.h"
#include "lj_powersample.h"

/* Lanes a thread's or a CPU's overlapping slices spread over; past them a slice is counted, not written. */
#define MAX_LANES 32
/* The made-up process that holds the per-CPU tracks. */
#define CPU_PID (LJ_TEF_TID_BASE - 1)

struct writer {
	struct lj_tef *w;
	const struct lj_perfetto *p;
	const struct lj_perfetto_parts *parts;
	uint32_t pid;
	bool cpus_named;		/* the CPU process has its name */
	uint64_t overlapping;		/* slices left out: MAX_LANES others overlapped them */
};

static void cpu_process(struct writer *wr)
{
	if (!wr->cpus_named)
		lj_tef_process(wr->w, CPU_PID, "CPUs", 1);
	wr->cpus_named = true;
}

/* "lj-cyclic thread 0", "lj-frame load (tid 123)". */
static void thread_name(const struct writer *wr, const struct lj_pf_thread *th, char *buf, size_t len)
{
	if (th->measured && th->index >= 0)
		snprintf(buf, len, "%s thread %d", wr->parts->tool, th->index);
	else
		snprintf(buf, len, "%s load", wr->parts->tool);
}

static void name_threads(struct writer *wr)
{
	const struct lj_pf_thread *th;
	char name[96];
	int n;

	th = lj_perfetto_threads(wr->p, &n);
	for (int i = 0; i < n; i++) {
		thread_name(wr, &th[i], name, sizeof(name));
		lj_tef_thread(wr->w, wr->pid, (uint32_t)th[i].tid, name, th[i].measured ? th[i].index : 1000 + i);
	}
}

/* The lane's track: the thread itself, or a made-up one beside it for slices that overlap. */
static uint32_t sample_track(struct writer *wr, pid_t tid, int lane, uint32_t *lanes)
{
	const struct lj_pf_thread *th;
	char name[128], thread[80];
	int n, k = 0;

	if (!lane)
		return (uint32_t)tid;
	if (!lanes[lane]) {
		th = lj_perfetto_threads(wr->p, &n);
		while (k < n && th[k].tid != tid)
			k++;
		if (k < n)
			thread_name(wr, &th[k], thread, sizeof(thread));
		else
			snprintf(thread, sizeof(thread), "tid %d", (int)tid);
		snprintf(name, sizeof(name), "%s overlapping %d", thread, lane);
		lanes[lane] = lj_tef_track(wr->w, wr->pid, name, 2000);
	}
	return lanes[lane];
}

static void sample_slice(struct writer *wr, const struct lj_pf_sample *s, uint32_t tid)
{
	const char *what = wr->parts->sample ? wr->parts->sample : "late sample";
	json_object *args = json_object_new_object();

	json_object_object_add(args, "latency_us", lj_json_usec(s->lat));
	json_object_object_add(args, "cpu", lj_json_int(s->cpu));
	json_object_object_add(args, "thread", lj_json_int(s->index));
	json_object_object_add(args, "due_ns", lj_json_int((int64_t)s->due_ns));
	json_object_object_add(args, "ran_ns", lj_json_int((int64_t)s->ran_ns));
	lj_tef_slice(wr->w, wr->pid, tid, s->kind == LJ_LATE_MISSED ? "missed period" : what, "sample",
		     s->due_ns, s->lat, args);
}

/* The kept samples, each a slice from due to ran on its thread's track (lanes where they overlap). */
static int write_samples(struct writer *wr, uint64_t *dropped, size_t *nkept)
{
	uint64_t ends[MAX_LANES];
	uint32_t lanes[MAX_LANES];
	struct lj_pf_sample *s;
	int nlanes = 0, err;
	size_t n;

	s = lj_perfetto_samples(wr->p, &n, dropped, &err);
	*nkept = n;
	for (size_t i = 0; i < n; i++) {
		int lane;

		if (!i || s[i].tid != s[i - 1].tid) {
			memset(ends, 0, sizeof(ends));
			memset(lanes, 0, sizeof(lanes));
			nlanes = 0;
		}
		lane = lj_tef_lane(ends, &nlanes, MAX_LANES, s[i].due_ns, s[i].due_ns + s[i].lat);
		if (lane < 0)
			wr->overlapping++;
		else
			sample_slice(wr, &s[i], sample_track(wr, s[i].tid, lane, lanes));
	}
	free(s);
	return err;
}

/* ---- --explain: per CPU, the explained intervals and what ran in them ---- */

struct span_out {
	uint64_t start, end;
	int depth;
	const struct lj_explanation *x;
	const struct lj_span *span;
};

/* "cc1", "irq local_timer", "softirq RCU", "idle", "unaccounted (before wake-up)". */
static void cause_label(const struct lj_span *c, char *buf, size_t len)
{
	switch (c->kind) {
	case LJ_CAUSE_TASK:
	case LJ_CAUSE_SELF:
		snprintf(buf, len, "%s", c->name);
		break;
	case LJ_CAUSE_IRQ:
	case LJ_CAUSE_SOFTIRQ:
	case LJ_CAUSE_UNACCOUNTED:
		if (c->kind == LJ_CAUSE_UNACCOUNTED)
			snprintf(buf, len, "unaccounted (%s)", c->name);
		else
			snprintf(buf, len, "%s %s", lj_cause_kind_name(c->kind), c->name);
		break;
	default:
		snprintf(buf, len, "%s", lj_cause_kind_name(c->kind));
	}
}

static void span_slice(struct writer *wr, uint32_t tid, const struct span_out *s)
{
	const struct lj_span *c = s->span;
	json_object *args = json_object_new_object();
	char label[64], sch[24];

	cause_label(c, label, sizeof(label));
	json_object_object_add(args, "cause", json_object_new_string(lj_cause_kind_name(c->kind)));
	if (c->kind == LJ_CAUSE_TASK || c->kind == LJ_CAUSE_SELF) {
		struct lj_cause as = { .kind = c->kind, .id = c->id, .prio = c->prio,
				       .policy = c->prio >= 0 && c->prio < 100 ? LJ_POLICY_RT : LJ_POLICY_UNKNOWN };

		for (int i = 0; i < s->x->ncauses; i++)	/* the policy read back after the run */
			if (s->x->causes[i].kind == c->kind && s->x->causes[i].id == c->id)
				as.policy = s->x->causes[i].policy;

		json_object_object_add(args, "pid", lj_json_int(c->id));
		json_object_object_add(args, "sched", json_object_new_string(lj_cause_sched_text(&as, sch, sizeof(sch))));
	}
	json_object_object_add(args, "late_tid", lj_json_int(s->x->tid));
	lj_tef_slice(wr->w, CPU_PID, tid, label, "explain", s->start, s->end - s->start, args);
}

static int span_cmp(const void *a, const void *b)
{
	const struct span_out *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth - y->depth;		/* the parent before what it holds */
	return x->end > y->end ? -1 : x->end < y->end;
}

/*
 * One CPU's spans from every explanation on it, made to nest: where two
 * explanations cover the same time the first one's spans stay (they
 * come from the same trace), and an interrupt span is cut to the
 * depth-0 span it starts in, or before the next one that starts inside it.
 */
static size_t clip_spans(struct span_out *s, size_t n)
{
	uint64_t covered[2] = { 0, 0 };
	size_t out = 0, parent = SIZE_MAX;

	qsort(s, n, sizeof(*s), span_cmp);
	for (size_t i = 0; i < n; i++) {
		struct span_out v = s[i];

		if (v.start < covered[v.depth])
			v.start = covered[v.depth];
		if (v.depth == 1 && parent != SIZE_MAX && v.start < s[parent].end && v.end > s[parent].end)
			v.end = s[parent].end;
		for (size_t j = i + 1; v.depth == 1 && j < n && s[j].start < v.end; j++)
			if (s[j].depth == 0 && s[j].start > v.start && s[j].start >= covered[0])
				v.end = s[j].start;
		if (v.end <= v.start)
			continue;
		covered[v.depth] = v.end;
		if (v.depth == 0) {
			covered[1] = covered[1] > v.start ? covered[1] : v.start;
			parent = out;
		}
		s[out++] = v;
	}
	return out;
}

/* "CPU 1: what ran" for the explanations on @cpu. Return: 0 or -ENOMEM. */
static int write_cpu_spans(struct writer *wr, int cpu)
{
	const struct lj_explain *ex = wr->parts->explain;
	struct span_out *s;
	size_t n = 0, cap = 0;
	char name[48];
	uint32_t tid;

	for (int i = 0; i < lj_explain_count(ex); i++) {
		const struct lj_explanation *x = lj_explain_get(ex, i, NULL);

		cap += x->cpu == cpu ? (size_t)x->nspans : 0;
	}
	s = malloc((cap ? cap : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (int i = 0; i < lj_explain_count(ex); i++) {
		const struct lj_explanation *x = lj_explain_get(ex, i, NULL);

		for (int k = 0; x->cpu == cpu && k < x->nspans; k++)
			s[n++] = (struct span_out){ x->spans[k].start_ns, x->spans[k].end_ns, x->spans[k].depth,
						    x, &x->spans[k] };
	}
	n = clip_spans(s, n);
	snprintf(name, sizeof(name), "CPU %d: what ran", cpu);
	tid = lj_tef_track(wr->w, CPU_PID, name, 2 * cpu + 1);
	for (size_t k = 0; k < n; k++)
		span_slice(wr, tid, &s[k]);
	free(s);
	return 0;
}

static void explained_slice(struct writer *wr, uint32_t tid, const struct lj_explanation *x,
			    const char *what, uint64_t t0)
{
	json_object *args = json_object_new_object();
	char text[1024];

	lj_explain_text(x, what, t0, text, sizeof(text));
	json_object_object_add(args, "explanation", json_object_new_string(text));
	json_object_object_add(args, "tid", lj_json_int(x->tid));
	json_object_object_add(args, "state", json_object_new_string(lj_late_state_name(x->state)));
	json_object_object_add(args, "latency_us", lj_json_usec(x->latency_ns));
	lj_tef_slice(wr->w, CPU_PID, tid, what, "explain", x->due_ns, x->latency_ns, args);
}

/* "CPU 1: explained": each interval explained on @cpu, with its explanation's line. */
static void write_cpu_explained(struct writer *wr, int cpu, uint64_t t0)
{
	const struct lj_explain *ex = wr->parts->explain;
	uint64_t ends[MAX_LANES] = { 0 };
	uint32_t lanes[MAX_LANES] = { 0 };
	int nlanes = 0;

	for (int i = 0; i < lj_explain_count(ex); i++) {
		const char *what;
		const struct lj_explanation *x = lj_explain_get(ex, i, &what);
		int lane;

		if (x->cpu != cpu)
			continue;
		lane = lj_tef_lane(ends, &nlanes, MAX_LANES, x->due_ns, x->ran_ns);
		if (lane < 0) {
			wr->overlapping++;
			continue;
		}
		if (!lanes[lane]) {
			char name[48];

			snprintf(name, sizeof(name), lane ? "CPU %d: explained (%d)" : "CPU %d: explained",
				 cpu, lane + 1);
			lanes[lane] = lj_tef_track(wr->w, CPU_PID, name, 2 * cpu);
		}
		explained_slice(wr, lanes[lane], x, what, t0);
	}
}

/* Explanations come sorted by due time; each CPU that has one gets its two tracks. */
static int write_explained(struct writer *wr, uint64_t t0)
{
	const struct lj_explain *ex = wr->parts->explain;
	bool done[CPU_SETSIZE] = { false };
	int err = 0;

	for (int i = 0; i < lj_explain_count(ex) && !err; i++) {
		int cpu = lj_explain_get(ex, i, NULL)->cpu;

		if (cpu < 0 || cpu >= CPU_SETSIZE || done[cpu])
			continue;
		done[cpu] = true;
		cpu_process(wr);
		write_cpu_explained(wr, cpu, t0);
		err = write_cpu_spans(wr, cpu);
	}
	return err;
}

/* ---- --power: frequency and idle per CPU ---- */

static void power_counters(struct writer *wr, const struct lj_pw_series *se, const struct lj_pw_snap *first)
{
	char name[48];

	cpu_process(wr);
	for (int p = 0; p < se->npol; p++)
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (!CPU_ISSET(cpu, &first->pol[p].cpus))
				continue;
			snprintf(name, sizeof(name), "CPU %d frequency", cpu);
			for (size_t k = 0; k < se->n; k++)
				if (se->khz[k * (size_t)se->npol + (size_t)p])
					lj_tef_counter(wr->w, CPU_PID, name, "MHz", se->t_ns[k],
						       (double)se->khz[k * (size_t)se->npol + (size_t)p] / 1e3);
		}
	/* The share of each interval between two readings the CPU spent idle, from its start. */
	for (int c = 0; c < se->ncpu; c++) {
		if (!first->cpu[c].nidle)
			continue;
		snprintf(name, sizeof(name), "CPU %d idle", first->cpu[c].cpu);
		for (size_t k = 1; k < se->n; k++) {
			uint64_t dt = se->t_ns[k] - se->t_ns[k - 1];
			uint64_t a = se->idle_us[(k - 1) * (size_t)se->ncpu + (size_t)c];
			uint64_t b = se->idle_us[k * (size_t)se->ncpu + (size_t)c];

			if (dt && b >= a)
				lj_tef_counter(wr->w, CPU_PID, name, "%", se->t_ns[k - 1],
					       100.0 * (double)(b - a) * 1e3 / (double)dt);
		}
	}
}

/* ---- lj-env --sweep's phases ---- */

static size_t write_phases(struct writer *wr, uint64_t start, uint64_t stop)
{
	struct lj_phase *ph = calloc(LJ_PHASES_MAX, sizeof(*ph));
	size_t n = ph ? lj_phases_load(getenv("LJ_SWEEP_PHASES"), ph, LJ_PHASES_MAX) : 0;
	uint32_t tid = 0;

	for (size_t k = 0; k < n; k++) {
		uint64_t a = (uint64_t)ph[k].t_ns > start ? (uint64_t)ph[k].t_ns : start;
		uint64_t b = k + 1 < n && (uint64_t)ph[k + 1].t_ns < stop ? (uint64_t)ph[k + 1].t_ns : stop;

		if (b <= a)
			continue;
		if (!tid)
			tid = lj_tef_track(wr->w, wr->pid, "sweep phases (lj-env --sweep)", -1);
		lj_tef_slice(wr->w, wr->pid, tid, ph[k].label, "sweep", a, b - a, NULL);
	}
	free(ph);
	return n;
}

/* What a reader needs to know of the trace: the clock, the tool, what was kept. */
static json_object *other_data(const struct writer *wr, uint64_t start, uint64_t stop, size_t kept,
			       uint64_t dropped, size_t nphases)
{
	json_object *o = json_object_new_object();
	uint64_t thr = lj_perfetto_threshold(wr->p);
	char cmd[2048] = "", what[96];
	size_t len = 0;

	for (int i = 0; i < wr->parts->argc && len < sizeof(cmd); i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, "%s%s", i ? " " : "", wr->parts->argv[i]);
	json_object_object_add(o, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	json_object_object_add(o, "ts_unit", json_object_new_string("us, three decimals: every ns"));
	json_object_object_add(o, "tool", json_object_new_string(wr->parts->tool));
	json_object_object_add(o, "version", json_object_new_string(LJ_VERSION));
	json_object_object_add(o, "pid", lj_json_int(wr->pid));
	json_object_object_add(o, "command", json_object_new_string(cmd));
	json_object_object_add(o, "run_start_ns", lj_json_int((int64_t)start));
	json_object_object_add(o, "run_stop_ns", lj_json_int((int64_t)stop));
	if (thr)
		snprintf(what, sizeof(what), "every one above %llu ns", (unsigned long long)thr);
	else
		snprintf(what, sizeof(what), "each thread's %d largest, every missed period", LJ_PERFETTO_TOPK);
	json_object_object_add(o, "samples", json_object_new_string(what));
	json_object_object_add(o, "samples_kept", lj_json_int((int64_t)kept));
	json_object_object_add(o, "samples_not_kept", lj_json_int((int64_t)dropped));
	json_object_object_add(o, "slices_overlapping_not_written", lj_json_int((int64_t)wr->overlapping));
	json_object_object_add(o, "explained", lj_json_int(lj_explain_count(wr->parts->explain)));
	json_object_object_add(o, "sweep_phases", lj_json_int((int64_t)nphases));
	return o;
}

int lj_perfetto_write(const struct lj_perfetto *p, const struct lj_perfetto_parts *parts,
		      char *why, size_t len)
{
	struct lj_tef w;
	struct writer wr = { .w = &w, .p = p, .parts = parts, .pid = (uint32_t)getpid() };
	const struct lj_pw_snap *first;
	const struct lj_pw_series *se = lj_power_hook_series(parts->power, &first);
	uint64_t start, stop, dropped = 0;
	size_t kept = 0, nph;
	char pname[96];
	int err;

	lj_perfetto_window(p, &start, &stop);
	err = lj_tef_open(&w, parts->path, why, len);
	if (err)
		return err;
	snprintf(pname, sizeof(pname), "%s (pid %u)", parts->tool, wr.pid);
	lj_tef_process(&w, wr.pid, pname, 0);
	name_threads(&wr);
	err = write_samples(&wr, &dropped, &kept);
	if (!err)
		err = write_explained(&wr, start);
	if (!err && se)
		power_counters(&wr, se, first);
	nph = write_phases(&wr, start, stop);
	if (!err && parts->tool_trace)
		err = parts->tool_trace(parts->ctx, &w, wr.pid);
	if (err) {
		lj_tef_abort(&w);
		return err;
	}
	return lj_tef_close(&w, other_data(&wr, start, stop, kept, dropped, nph));
}
