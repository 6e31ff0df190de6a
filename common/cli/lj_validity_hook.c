// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_validity_hook - reads back what a run ran with and what the machine did, and judges it. */
#include "lj_validity_hook.h"
#include "lj_json.h"
#include "lj_hot.h"
#include "lj_parse.h"
#include "lj_result.h"
#include "lj_runprobe.h"
#include "lj_sched.h"
#include "lj_virt.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct vh_thread {
	pid_t tid;
	int policy, prio;	/* expected; policy < 0: nothing asked, not checked */
	int ran_policy, ran_prio;	/* the last read back; ran_policy < 0: not read yet */
	bool measured;		/* false: a load thread (lj_validity_check_sched_load) */
	bool live;		/* read back by the polls: the thread is believed to run */
	bool reported;		/* a mismatch was recorded already */
};

struct lj_vhook {
	struct lj_validity v;
	struct vh_thread *th;
	int nth, cap;
	cpu_set_t measured;
	struct lj_runprobe before;
	_Atomic uint64_t late_missed;
	uint64_t missed, overflows, samples, expected, reached;
	bool started, stopped, counted, fallbacks_read;
};

static struct lj_vhook *vhook_new(void)
{
	struct lj_vhook *h = calloc(1, sizeof(*h));

	if (h) {
		lj_validity_init(&h->v);
		h->before.kmsg_fd = -1;
	}
	return h;
}

static bool policy_is_rt(int policy)
{
	return policy == LJ_POLICY_FIFO || policy == LJ_POLICY_RR;
}

/* Read @t back; a difference from what was asked is recorded once. */
static void check_thread(struct lj_vhook *h, struct vh_thread *t)
{
	struct lj_sched_param got;
	int want_prio = policy_is_rt(t->policy) ? t->prio : 0, err;

	if (!t->live || t->reported || t->policy < 0)
		return;
	err = lj_sched_get(t->tid, &got);
	if (err) {
		t->live = err != -ESRCH;	/* gone: its id may come back as another task's */
		return;
	}
	if (!policy_is_rt(got.policy))
		got.priority = 0;
	t->ran_policy = got.policy;
	t->ran_prio = got.priority;
	if (got.policy == (enum lj_policy)t->policy && got.priority == want_prio)
		return;
	t->reported = true;
	(t->measured ? lj_validity_check_sched : lj_validity_check_sched_load)(
		&h->v, t->tid, lj_sched_policy_name(t->policy), want_prio,
		lj_sched_policy_name(got.policy), got.priority, false);
}

/* Read every live thread back now: one syscall each. */
static void vh_poll(void *priv)
{
	struct lj_vhook *h = priv;

	for (int i = 0; i < h->nth; i++)
		check_thread(h, &h->th[i]);
}

/* The started validity hook of @hs, if it has one. */
static struct lj_vhook *vhook_in(struct lj_hooks *hs)
{
	for (int i = 0; hs && i < hs->n; i++)
		if (hs->h[i].ops == &lj_vhook_ops && hs->h[i].started)
			return hs->h[i].priv;
	return NULL;
}

/*
 * Record @rt: a thread told again (lj-frame's background, each trial) keeps
 * what was read and reported; @find only then (the run description's ids
 * are distinct, and a hackbench run has thousands). Return: 0 or -ENOMEM.
 */
static int add_thread(struct lj_vhook *h, const struct lj_run_thread *rt, bool find)
{
	struct vh_thread *t;

	for (int i = 0; find && i < h->nth; i++)
		if (h->th[i].tid == rt->tid) {
			t = &h->th[i];
			t->policy = rt->policy;
			t->prio = rt->prio;
			t->measured = rt->measured;
			t->live = true;
			return 0;
		}
	if (h->nth == h->cap) {
		int cap = h->cap ? 2 * h->cap : 16;

		t = realloc(h->th, (size_t)cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		h->th = t;
		h->cap = cap;
	}
	h->th[h->nth++] = (struct vh_thread){ .tid = rt->tid, .policy = rt->policy, .prio = rt->prio,
					      .ran_policy = -1, .measured = rt->measured, .live = true };
	return 0;
}

static int vh_start(void *priv, const struct lj_run_desc *run)
{
	struct lj_vhook *h = priv;

	for (int i = 0; i < run->nthreads; i++)
		if (add_thread(h, &run->threads[i], false))
			return -ENOMEM;
	h->measured = run->measured;
	lj_runprobe_read(&h->before, &h->measured, 1);
	h->started = true;
	/* the first read-back is the tool's first poll (lj_hooks_poll), or stop() */
	return 0;
}

/* Threads told mid-run (lj-frame's trials): the earlier ones are gone, these are read back now. */
static void vh_threads(void *priv, const struct lj_run_thread *th, int n)
{
	struct lj_vhook *h = priv;

	for (int i = 0; i < h->nth; i++)
		h->th[i].live = false;
	for (int i = 0; i < n; i++)
		if (add_thread(h, &th[i], true)) {
			lj_validity_add(&h->v, LJ_SUSPECT, "sched", "out of memory: thread %d not read back",
					th[i].tid);
			break;
		}
	vh_poll(h);
}

static void LJ_HOT vh_late(void *priv, const struct lj_late *ev)
{
	struct lj_vhook *h = priv;

	if (ev->kind == LJ_LATE_MISSED)
		atomic_fetch_add_explicit(&h->late_missed, 1, memory_order_relaxed);
}

static void kmsg_line(const char *msg, void *arg)
{
	lj_validity_check_kmsg(arg, msg);
}

/* A run in a QEMU TCG guest (lj-guest, lj-matrix's kernel axis) measured an emulator. */
static void check_virt(struct lj_vhook *h)
{
	char name[256];
	const char *source;

	if (lj_virt_detect(name, sizeof(name), &source) == 1)
		lj_validity_check_virt(&h->v, name);
}

static void vh_stop(void *priv)
{
	struct lj_vhook *h = priv;
	struct lj_runprobe after;
	char cpus[128];
	uint64_t missed;

	if (!h->started || h->stopped)
		return;
	h->stopped = true;
	vh_poll(h);
	lj_runprobe_read(&after, &h->measured, 0);
	lj_validity_check_clocksource(&h->v, h->before.clocksource, after.clocksource);
	check_virt(h);
	lj_validity_check_freq(&h->v, h->before.freq_lo, h->before.freq_hi, after.freq_lo, after.freq_hi);
	if (h->before.cg.known && after.cg.known && !strcmp(h->before.cg.group, after.cg.group))
		lj_validity_check_cfs_throttle(&h->v, after.cg.group, h->before.cg.nr_throttled,
					       h->before.cg.throttled_ns, after.cg.nr_throttled,
					       after.cg.throttled_ns);
	lj_runprobe_kmsg(&h->before, kmsg_line, &h->v);
	lj_runprobe_close(&h->before);
	if (after.total > h->before.total)
		lj_validity_check_load(&h->v, lj_cpulist_format(&h->measured, cpus, sizeof(cpus)),
				       after.busy - h->before.busy, after.own - h->before.own,
				       after.steal - h->before.steal, after.total - h->before.total);
	missed = atomic_load_explicit(&h->late_missed, memory_order_relaxed);
	if (h->counted) {
		lj_validity_check_counts(&h->v, h->missed > missed ? h->missed : missed, h->overflows,
					 h->samples);
		lj_validity_check_cut_short(&h->v, h->expected, h->reached);
	} else if (missed) {
		lj_validity_check_counts(&h->v, missed, 0, 0);
	}
}

void lj_vhook_fallbacks(struct lj_vhook *h, json_object *setup)
{
	json_object *fb;

	/* Once: the tool may read them before its text report, contribute() again. */
	if (!h || h->fallbacks_read || !setup || !json_object_object_get_ex(setup, "fallbacks", &fb) ||
	    !json_object_is_type(fb, json_type_array))
		return;
	h->fallbacks_read = true;
	for (size_t i = 0; i < json_object_array_length(fb); i++) {
		json_object *e = json_object_array_get_idx(fb, i), *w, *r, *mp;
		/* the measuring threads without their policy measured something else: invalid */
		bool policy = json_object_object_get_ex(e, "measuring_policy", &mp) && json_object_get_boolean(mp);

		lj_validity_add(&h->v, policy ? LJ_INVALID : LJ_SUSPECT, policy ? "policy" : "fallback",
				"%s %s: %s", policy ? "measuring threads without their policy:" : "fallback",
				json_object_object_get_ex(e, "what", &w) ? json_object_get_string(w) : "?",
				json_object_object_get_ex(e, "reason", &r) ? json_object_get_string(r) : "?");
	}
}

void lj_vhook_counts(struct lj_vhook *h, uint64_t missed, uint64_t overflows, uint64_t samples,
		     uint64_t expected, uint64_t reached)
{
	if (!h)
		return;
	h->missed = missed;
	h->overflows = overflows;
	h->samples = samples;
	h->expected = expected;
	h->reached = reached;
	h->counted = true;
}

void lj_vhook_reason(struct lj_vhook *h, enum lj_validity_level l, const char *what, const char *text)
{
	if (h)
		lj_validity_add(&h->v, l, what, "%s", text);
}

void lj_vhook_reason_in(struct lj_hooks *hs, enum lj_validity_level l, const char *what,
			const char *text)
{
	lj_vhook_reason(vhook_in(hs), l, what, text);
}

const struct lj_validity *lj_vhook_verdict(const struct lj_vhook *h)
{
	return &h->v;
}

json_object *lj_validity_json(const struct lj_validity *v)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();

	json_object_object_add(o, "verdict", json_object_new_string(lj_validity_name(v->verdict)));
	for (int i = 0; i < v->n; i++) {
		json_object *r = json_object_new_object();

		json_object_object_add(r, "level", json_object_new_string(lj_validity_name(v->r[i].level)));
		json_object_object_add(r, "what", json_object_new_string(v->r[i].what));
		json_object_object_add(r, "text", json_object_new_string(v->r[i].text));
		json_object_array_add(arr, r);
	}
	json_object_object_add(o, "reasons", arr);
	if (v->more)
		json_object_object_add(o, "more_reasons", lj_json_int(v->more));
	return o;
}

void lj_validity_print(const struct lj_validity *v, FILE *out)
{
	fprintf(out, "validity: %s\n", lj_validity_name(v->verdict));
	for (int i = 0; i < v->n; i++)
		fprintf(out, "  %s: %s\n", lj_validity_name(v->r[i].level), v->r[i].text);
	if (v->more)
		fprintf(out, "  (%d more reasons)\n", v->more);
}

/*
 * {"checked": N, "differed": M, "list": [{"tid", "measured", "asked",
 * "ran"}, ...]}: the threads read back with something asked, the first
 * LJ_VHOOK_LISTED of them listed ("fifo 80": policy and priority).
 */
static json_object *threads_json(const struct lj_vhook *h)
{
	json_object *o = json_object_new_object(), *list = json_object_new_array();
	int checked = 0, differed = 0;

	for (int i = 0; i < h->nth; i++) {
		const struct vh_thread *t = &h->th[i];
		json_object *e;

		if (t->policy < 0 || t->ran_policy < 0)
			continue;
		differed += t->reported;
		if (++checked > LJ_VHOOK_LISTED)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "tid", lj_json_int(t->tid));
		json_object_object_add(e, "measured", json_object_new_boolean(t->measured));
		json_object_object_add(e, "asked", lj_json_strf("%s %d", lj_sched_policy_name(t->policy),
								 policy_is_rt(t->policy) ? t->prio : 0));
		json_object_object_add(e, "ran", lj_json_strf("%s %d", lj_sched_policy_name(t->ran_policy),
							       t->ran_prio));
		json_object_array_add(list, e);
	}
	json_object_object_add(o, "checked", lj_json_int(checked));
	json_object_object_add(o, "differed", lj_json_int(differed));
	json_object_object_add(o, "list", list);
	return o;
}

static int vh_contribute(void *priv, struct lj_result *res)
{
	struct lj_vhook *h = priv;
	json_object *block;

	lj_vhook_fallbacks(h, lj_result_setup(res));
	block = lj_validity_json(&h->v);
	json_object_object_add(block, "threads", threads_json(h));
	json_object_object_add(lj_result_root(res), "validity", block);
	return 0;
}

static void vh_report(void *priv, FILE *out)
{
	lj_validity_print(&((struct lj_vhook *)priv)->v, out);
}

static void vh_free(void *priv)
{
	struct lj_vhook *h = priv;

	if (!h)
		return;
	lj_runprobe_close(&h->before);
	free(h->th);
	free(h);
}

const struct lj_hook_ops lj_vhook_ops = {
	.name = "validity",
	.start = vh_start,
	.late = vh_late,
	.stop = vh_stop,
	.contribute = vh_contribute,
	.report = vh_report,
	.free = vh_free,
	.threads = vh_threads,
	.poll = vh_poll,
};

int lj_vhook_add(struct lj_hooks *hooks, struct lj_vhook **out)
{
	struct lj_vhook *h = vhook_new();
	int err;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	err = lj_hooks_add(hooks, &lj_vhook_ops, h, UINT64_MAX);
	if (err) {
		vh_free(h);
		return err;
	}
	*out = h;
	return 0;
}
