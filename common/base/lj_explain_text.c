// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_explain_text - an explanation as words, and causes summed over a run. */
#include "lj_explain.h"
#include "lj_printable.h"

#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *lj_cause_kind_name(enum lj_cause_kind k)
{
	static const char *const names[LJ_CAUSE_NKINDS] = {
		[LJ_CAUSE_TASK] = "task", [LJ_CAUSE_IRQ] = "irq", [LJ_CAUSE_SOFTIRQ] = "softirq",
		[LJ_CAUSE_IDLE] = "idle", [LJ_CAUSE_SELF] = "self",
		[LJ_CAUSE_UNACCOUNTED] = "unaccounted", [LJ_CAUSE_OTHER] = "other",
	};

	return (unsigned int)k < LJ_CAUSE_NKINDS ? names[k] : "?";
}

const char *lj_late_state_name(enum lj_late_state s)
{
	switch (s) {
	case LJ_STATE_PREEMPTED: return "preempted";
	case LJ_STATE_WAITING: return "waiting for CPU";
	case LJ_STATE_WOKEN_LATE: return "woken late";
	case LJ_STATE_RUNNING: return "running";
	default: return "unknown";
	}
}

const char *lj_cause_sched_text(const struct lj_cause *c, char *buf, size_t len)
{
	int rt = 99 - c->prio;

	if (c->policy == SCHED_DEADLINE || c->prio < 0)
		snprintf(buf, len, "DL");
	else if (c->prio >= 100)
		snprintf(buf, len, "%s nice %d", c->policy == SCHED_BATCH ? "BATCH" :
			 c->policy == SCHED_IDLE ? "IDLE" : "OTHER", c->prio - 120);
	else
		snprintf(buf, len, "%s %d", c->policy == SCHED_FIFO ? "FIFO" :
			 c->policy == SCHED_RR ? "RR" : "RT", rt);
	return buf;
}

const char *lj_explain_dur(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		double v = (double)ns / (double)u[i].div;

		if (ns < u[i].div)
			continue;
		snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, u[i].unit);
		return buf;
	}
	snprintf(buf, len, "%" PRIu64 " ns", ns);
	return buf;
}

static size_t cause_text(const struct lj_cause *c, char *buf, size_t len)
{
	char d[24], sch[24];

	lj_explain_dur(c->ns, d, sizeof(d));
	switch (c->kind) {
	case LJ_CAUSE_TASK:
		return (size_t)snprintf(buf, len, "%s (pid %d, %s) ran %s", c->name, c->id,
					lj_cause_sched_text(c, sch, sizeof(sch)), d);
	case LJ_CAUSE_IRQ:
		if (c->id < 0)
			return (size_t)snprintf(buf, len, "irq local timer %s", d);
		return (size_t)snprintf(buf, len, "irq %d %s %s", c->id, c->name, d);
	case LJ_CAUSE_SOFTIRQ:
		return (size_t)snprintf(buf, len, "softirq %s %s", c->name, d);
	case LJ_CAUSE_SELF:
		return (size_t)snprintf(buf, len, "itself %s", d);
	case LJ_CAUSE_UNACCOUNTED:
		return (size_t)snprintf(buf, len, "unaccounted%s %s",
					c->id == 1 ? " (before wake-up)" : "", d);
	default:
		return (size_t)snprintf(buf, len, "%s %s", lj_cause_kind_name(c->kind), d);
	}
}

/* "; idle exit 40 us; migrated 0->1; at 800 MHz; lower priority ran 4 us after its wake-up; 99 % explained" */
static void tail_text(const struct lj_explanation *x, char *buf, size_t len)
{
	size_t o = strlen(buf);
	uint64_t un = lj_explain_unaccounted(x);
	char d[24];

	if (x->idle_exit_ns && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; idle exit %s",
				      lj_explain_dur(x->idle_exit_ns, d, sizeof(d)));
	if (x->migrated && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; migrated CPU %d -> %d", x->mig_from,
				      x->mig_to);
	if (x->freq_khz && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; at %u MHz", x->freq_khz / 1000);
	if (x->lower_prio_ns && o < len)
		o += (size_t)snprintf(buf + o, len - o, "; lower priority ran %s after its wake-up",
				      lj_explain_dur(x->lower_prio_ns, d, sizeof(d)));
	if (o < len)
		snprintf(buf + o, len - o, "; %.0f %% explained%s",
			 x->latency_ns ? 100.0 * (double)(x->latency_ns - un) / (double)x->latency_ns : 100.0,
			 x->incomplete ? " (trace incomplete)" : "");
}

char *lj_explain_text(const struct lj_explanation *x, const char *what, uint64_t start_ns,
		      char *buf, size_t len)
{
	char d[24];
	size_t o;
	double at = x->due_ns > start_ns ? (double)(x->due_ns - start_ns) / 1e9 : 0;

	o = (size_t)snprintf(buf, len, "%s %s on CPU %d at +%.3f s (%s): ", what,
			     lj_explain_dur(x->latency_ns, d, sizeof(d)), x->cpu, at,
			     lj_late_state_name(x->state));
	for (int i = 0; i < x->ncauses && o < len; i++) {
		if (i)
			o += (size_t)snprintf(buf + o, len - o, "; ");
		if (o < len)
			o += cause_text(&x->causes[i], buf + o, len - o);
	}
	if (o < len)
		tail_text(x, buf, len);
	/* Task names come from the trace: a comm may hold any byte, an escape sequence too. */
	return lj_printable(buf);
}

static bool same_cause(const struct lj_cause *a, const struct lj_cause *b)
{
	return a->kind == b->kind && !strcmp(a->name, b->name) &&
	       (a->kind != LJ_CAUSE_TASK || a->id == b->id) &&
	       (a->kind != LJ_CAUSE_IRQ || a->id == b->id);
}

int lj_explain_aggregate(struct lj_cause *agg, int used, int max, const struct lj_explanation *x)
{
	if (max <= 0)
		return 0;
	for (int j = 0; j < x->ncauses; j++) {
		const struct lj_cause *c = &x->causes[j];
		int k;

		for (k = 0; k < used && !same_cause(&agg[k], c); k++)
			;
		if (k == used && used == max) {
			k = max - 1;	/* full: the last entry becomes "other" */
			agg[k].kind = LJ_CAUSE_OTHER;
			strcpy(agg[k].name, "other");
		} else if (k == used) {
			agg[used++] = *c;
			agg[k].ns = 0;
			agg[k].count = 0;
		}
		agg[k].ns += c->ns;
		agg[k].count += c->count;
	}
	return used;
}
