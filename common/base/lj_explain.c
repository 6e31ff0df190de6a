// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_explain - why a thread ran late: the interval's time split into causes, from trace events. */
#include "lj_explain.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IRQ_NEST 4
#define ACC_MAX 64
#define PRIO_UNKNOWN (-1000)
/* Events searched each way for a task's name and priority. */
#define INFO_SCAN 65536
/* Events searched back from the due time for a sched_switch to start the walk at. */
#define START_SCAN 65536
/* Events searched each way for switches to and from the idle task (idle_switch_untraced). */
#define IDLE_SCAN 4096

/* What one CPU is doing at a point of the walk. */
struct cpu_ctx {
	bool known;			/* a sched_switch told who runs */
	pid_t pid;
	int prio;
	char comm[LJ_TEV_COMM];
	bool idle;			/* inside power:cpu_idle */
	int irq_depth;
	int irq_id[IRQ_NEST];
	const char *irq_name[IRQ_NEST];
	bool in_softirq;
	unsigned int softirq_vec;
	uint32_t freq_khz;
};

/* The late thread's last trip off the CPU and back, before it ran. */
struct story {
	bool have_in, have_out, have_wake, have_mig;
	uint64_t in_ts, out_ts, wake_ts, mig_ts;
	int in_cpu, mig_from, mig_to, prio;
	long out_state;
};

/* The span open at one depth: extended while the same cause holds the CPU. */
struct open_span {
	bool open;
	int cause;
	uint64_t start, end;
};

struct acc {
	struct lj_cause c[ACC_MAX];
	int n, last;
	bool lost;			/* some time went to "no events" */
	struct open_span span[2];	/* depth 0 and 1 */
	int nspans[2];
	struct lj_explanation *x;	/* where the spans go */
};

static void story_scan_cpu(const struct lj_tev_seq *s, int cpu, pid_t tid, uint64_t ran,
			   struct story *st)
{
	for (size_t i = 0; i < s->n && s->ev[i].ts <= ran; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type != LJ_TEV_SWITCH)
			continue;
		if (e->sw.next_pid == tid && (!st->have_in || e->ts >= st->in_ts)) {
			st->have_in = true;
			st->in_ts = e->ts;
			st->in_cpu = cpu;
			st->prio = e->sw.next_prio;
		}
		if (e->sw.prev_pid == tid && (!st->have_out || e->ts >= st->out_ts)) {
			st->have_out = true;
			st->out_ts = e->ts;
			st->out_state = e->sw.prev_state;
		}
	}
}

static void story_scan_wake(const struct lj_tev_seq *s, pid_t tid, uint64_t limit,
			    struct story *st)
{
	for (size_t i = 0; i < s->n && s->ev[i].ts <= limit; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (st->have_out && e->ts <= st->out_ts)
			continue;
		/* sched_waking is the earlier of the two: prefer it when both are seen. */
		if ((e->type == LJ_TEV_WAKING || e->type == LJ_TEV_WAKEUP) && e->wake.pid == tid &&
		    (!st->have_wake || e->ts < st->wake_ts)) {
			st->have_wake = true;
			st->wake_ts = e->ts;
			if (st->prio == PRIO_UNKNOWN)
				st->prio = e->wake.prio;
		}
		if (e->type == LJ_TEV_MIGRATE && e->mig.pid == tid) {
			st->have_mig = true;
			st->mig_ts = e->ts;
			st->mig_from = e->mig.orig_cpu;
			st->mig_to = e->mig.dest_cpu;
		}
	}
}

static void find_story(const struct lj_trace_view *tv, pid_t tid, uint64_t ran, struct story *st)
{
	uint64_t limit = ran;

	memset(st, 0, sizeof(*st));
	st->prio = PRIO_UNKNOWN;
	for (int c = 0; c < tv->ncpus; c++)
		story_scan_cpu(&tv->cpus[c], c, tid, ran, st);
	if (st->have_in && st->have_out && st->out_ts > st->in_ts) {
		/* Off the CPU after its last traced switch-in: it came back unseen (from idle). */
		st->have_in = false;
	} else if (st->have_in) {
		struct story before = { .prio = PRIO_UNKNOWN };

		/* The switch-out that this switch-in ends. */
		limit = st->in_ts;
		for (int c = 0; c < tv->ncpus; c++)
			story_scan_cpu(&tv->cpus[c], c, tid, limit - 1, &before);
		st->have_out = before.have_out;
		st->out_ts = before.out_ts;
		st->out_state = before.out_state;
	}
	for (int c = 0; c < tv->ncpus; c++)
		story_scan_wake(&tv->cpus[c], tid, limit, st);
}

/* Which state, and from when a lower-priority task's run stops being "unaccounted". */
static uint64_t classify(const struct story *st, struct lj_explanation *x)
{
	uint64_t due = x->due_ns, back = st->have_in ? st->in_ts : x->ran_ns;

	if (st->have_in && st->in_ts <= due) {
		x->state = LJ_STATE_RUNNING;
		return 0;
	}
	if (st->have_wake) {
		uint64_t from = st->wake_ts > due ? st->wake_ts : due;

		x->wake_delay_ns = st->wake_ts > due ? st->wake_ts - due : 0;
		x->runq_wait_ns = back > from ? back - from : 0;
		x->state = x->wake_delay_ns > x->runq_wait_ns ? LJ_STATE_WOKEN_LATE : LJ_STATE_WAITING;
		return st->wake_ts;
	}
	if (st->have_out && (st->out_state & LJ_TEV_STATE_MASK) == 0) {
		x->state = LJ_STATE_PREEMPTED;
		x->runq_wait_ns = back > due ? back - due : 0;
		return 0;
	}
	x->state = LJ_STATE_UNKNOWN;
	return 0;
}

/* Close the span open at @depth into the explanation (counted as dropped past its depth's room). */
static void span_close(struct acc *a, int depth)
{
	struct open_span *o = &a->span[depth];
	struct lj_explanation *x = a->x;
	int room = depth ? LJ_EXPLAIN_MAXSPANS1 : LJ_EXPLAIN_MAXSPANS0;

	if (!o->open)
		return;
	o->open = false;
	if (a->nspans[depth] >= room) {
		x->spans_dropped++;
		return;
	}
	a->nspans[depth]++;
	x->spans[x->nspans] = (struct lj_span){ o->start, o->end, a->c[o->cause].kind, a->c[o->cause].id,
						a->c[o->cause].prio, depth, "" };
	memcpy(x->spans[x->nspans++].name, a->c[o->cause].name, sizeof(x->spans[0].name));
}

/*
 * The stretch [@s, @e) went to cause @i at @depth. A depth-0 span goes on
 * over the interrupts inside it while the same cause holds the CPU after
 * them; an interrupt span ends when anything else follows it.
 */
static void span_note(struct acc *a, int i, int depth, uint64_t s, uint64_t e)
{
	struct open_span *o = &a->span[depth];

	if (!a->x)
		return;
	if (depth == 0)
		span_close(a, 1);
	if (o->open && o->cause == i && (depth == 0 || o->end == s)) {
		o->end = e;
		return;
	}
	span_close(a, depth);
	*o = (struct open_span){ true, i, s, e };
}

/* Return: the index of the cause in @a. */
static int acc_add(struct acc *a, enum lj_cause_kind kind, int id, const char *name, int prio,
		   uint64_t ns)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->c[i].kind == kind && a->c[i].id == id && !strcmp(a->c[i].name, name))
			break;
	if (i == a->n) {
		if (a->n == ACC_MAX) {
			i = ACC_MAX - 1;	/* the last slot takes the overflow */
			a->c[i].kind = LJ_CAUSE_OTHER;
			a->c[i].id = 0;
			strcpy(a->c[i].name, "other");
		} else {
			a->n++;
			a->c[i] = (struct lj_cause){ .kind = kind, .id = id, .prio = prio,
						     .policy = LJ_POLICY_UNKNOWN };
			snprintf(a->c[i].name, sizeof(a->c[i].name), "%s", name);
			if (kind == LJ_CAUSE_TASK && prio >= 0 && prio < 100)
				a->c[i].policy = LJ_POLICY_RT;
		}
	}
	if (a->last != i)
		a->c[i].count++;
	a->last = i;
	a->c[i].ns += ns;
	return i;
}

/*
 * Give [@a, @b) to whatever holds the CPU: an interrupt, a softirq, the
 * idle task, the thread, or another task. Before the thread's wake-up a
 * task it would have preempted is not why it is late: that time is
 * unaccounted (the wake-up, a timer interrupt, came late).
 */
static void attribute(struct acc *acc, const struct cpu_ctx *c, uint64_t a, uint64_t b,
		      uint64_t wake_ts, const struct lj_explanation *x)
{
	uint64_t ns = b - a;
	int i, depth = 0;

	if (b <= a)
		return;
	if (c->irq_depth > 0) {
		int top = c->irq_depth - 1;

		i = acc_add(acc, LJ_CAUSE_IRQ, c->irq_id[top], c->irq_name[top], 0, ns);
		depth = 1;
	} else if (c->in_softirq) {
		i = acc_add(acc, LJ_CAUSE_SOFTIRQ, (int)c->softirq_vec,
			    lj_tev_softirq_name(c->softirq_vec), 0, ns);
		depth = 1;
	} else if (!c->known) {
		acc->lost = true;
		i = acc_add(acc, LJ_CAUSE_UNACCOUNTED, 0, "no events", 0, ns);
	} else if (c->pid == 0) {
		i = acc_add(acc, LJ_CAUSE_IDLE, 0, "idle", 0, ns);
	} else if (c->pid == x->tid) {
		i = acc_add(acc, LJ_CAUSE_SELF, c->pid, c->comm, c->prio, ns);
	} else if (a < wake_ts && x->tid_prio != PRIO_UNKNOWN && c->prio > x->tid_prio) {
		i = acc_add(acc, LJ_CAUSE_UNACCOUNTED, 1, "before wake-up", 0, ns);
	} else {
		i = acc_add(acc, LJ_CAUSE_TASK, c->pid, c->comm, c->prio, ns);
	}
	span_note(acc, i, depth, a, b);
}

static void attribute_split(struct acc *acc, const struct cpu_ctx *c, uint64_t a, uint64_t b,
			    uint64_t wake_ts, const struct lj_explanation *x)
{
	if (a < wake_ts && wake_ts < b) {
		attribute(acc, c, a, wake_ts, wake_ts, x);
		attribute(acc, c, wake_ts, b, wake_ts, x);
	} else {
		attribute(acc, c, a, b, wake_ts, x);
	}
}

/*
 * The name and priority of @pid, from the nearest event that carries
 * them: the kernel does not always trace the switch away from the idle
 * task, so the task that runs can be known only from common_pid.
 */
static void task_info(struct cpu_ctx *c, const struct lj_tev_seq *s, size_t at, pid_t pid)
{
	c->known = true;
	c->pid = pid;
	c->prio = pid ? PRIO_UNKNOWN : 120;
	snprintf(c->comm, sizeof(c->comm), pid ? "pid %d" : "swapper", (int)pid);
	for (size_t i = at; i < s->n && i - at < INFO_SCAN && pid; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type == LJ_TEV_SWITCH && e->sw.prev_pid == pid) {
			c->prio = e->sw.prev_prio;
			memcpy(c->comm, e->sw.prev_comm, sizeof(c->comm));
			return;
		}
	}
	for (size_t i = at; i-- > 0 && at - i <= INFO_SCAN && pid;) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type == LJ_TEV_SWITCH && e->sw.next_pid == pid) {
			c->prio = e->sw.next_prio;
			memcpy(c->comm, e->sw.next_comm, sizeof(c->comm));
			return;
		}
	}
}

static void apply(struct cpu_ctx *c, const struct lj_tev *e)
{
	switch (e->type) {
	case LJ_TEV_SWITCH:
		c->known = true;
		c->pid = e->sw.next_pid;
		c->prio = e->sw.next_prio;
		memcpy(c->comm, e->sw.next_comm, sizeof(c->comm));
		break;
	case LJ_TEV_IRQ_ENTRY:
	case LJ_TEV_TIMER_ENTRY:
		if (c->irq_depth < IRQ_NEST) {
			bool timer = e->type == LJ_TEV_TIMER_ENTRY;

			c->irq_id[c->irq_depth] = timer ? -1 : e->irq.irq;
			c->irq_name[c->irq_depth] = timer ? "local_timer" : e->irq.name;
		}
		c->irq_depth++;
		break;
	case LJ_TEV_IRQ_EXIT:
	case LJ_TEV_TIMER_EXIT:
		if (c->irq_depth > 0)
			c->irq_depth--;
		break;
	case LJ_TEV_SOFTIRQ_ENTRY:
		c->in_softirq = true;
		c->softirq_vec = e->softirq_vec;
		break;
	case LJ_TEV_SOFTIRQ_EXIT:
		c->in_softirq = false;
		break;
	case LJ_TEV_IDLE:
		c->idle = e->idle_state != LJ_TEV_IDLE_EXIT;
		break;
	case LJ_TEV_FREQ:
		c->freq_khz = e->freq_khz;
		break;
	case LJ_TEV_LOST:
		*c = (struct cpu_ctx){ .freq_khz = c->freq_khz };
		break;
	default:
		break;
	}
	if (c->irq_depth > IRQ_NEST)
		c->irq_depth = IRQ_NEST;
}

/* Walk the CPU's events, giving each stretch of [due, ran) to a cause. */
/*
 * Where the walk starts: the last sched_switch (or lost-events marker)
 * before @due. No interrupt or softirq is open at a switch, so the CPU's
 * state from there on is known from the events alone.
 */
static size_t walk_start(const struct lj_tev_seq *s, uint64_t due)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {	/* the first event after due */
		size_t mid = lo + (hi - lo) / 2;

		if (s->ev[mid].ts <= due)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= START_SCAN;)
		if (s->ev[i].type == LJ_TEV_SWITCH || s->ev[i].type == LJ_TEV_LOST)
			return i;
	return lo > START_SCAN ? lo - START_SCAN : 0;
}

/*
 * The wake-up of a thread woken by its own timer on @s's CPU, when no
 * sched_waking was recorded: the first local timer interrupt that ends
 * after @due (and after the thread left the CPU, @after) ran the timer,
 * since the kernel's timer interrupt runs every timer due by its end. It
 * is placed at the interrupt's entry, or at @due when the interrupt began
 * before it: within the handler's own time of where sched_waking would
 * be, and inside the interrupt, whose time is the interrupt's either way.
 */
static bool timer_wake(const struct lj_tev_seq *s, uint64_t due, uint64_t after, uint64_t before,
		       uint64_t *wake)
{
	uint64_t entry = 0;
	bool open = false;

	for (size_t i = walk_start(s, due); i < s->n && s->ev[i].ts < before; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type == LJ_TEV_TIMER_ENTRY) {
			open = true;
			entry = e->ts;
		} else if (e->type == LJ_TEV_LOST) {
			open = false;
		} else if (e->type == LJ_TEV_TIMER_EXIT && open) {
			open = false;
			if (e->ts > due && entry > after) {
				*wake = entry > due ? entry : due;
				return true;
			}
		}
	}
	return false;
}

/*
 * Whether this CPU's trace around @at lacks the switches away from the
 * idle task: some kernels' trace buffers drop the events of the idle
 * task's own context (here 6.18's tracefs instances: on CPU 1, 525
 * switches to idle and none from it, nor a cpu_idle event, while BPF
 * programs on the same tracepoints see them all; interrupt events while
 * idle are there). Several switches to idle and none from it say so.
 */
static bool idle_switch_untraced(const struct lj_tev_seq *s, size_t at)
{
	size_t to_idle = 0, lo = at > IDLE_SCAN ? at - IDLE_SCAN : 0;
	size_t hi = s->n - at > IDLE_SCAN ? at + IDLE_SCAN : s->n;

	for (size_t i = lo; i < hi; i++) {
		const struct lj_tev *e = &s->ev[i];

		if (e->type != LJ_TEV_SWITCH)
			continue;
		if (e->sw.prev_pid == 0)
			return false;
		to_idle += e->sw.next_pid == 0;
	}
	return to_idle >= 2;
}

static void walk(const struct lj_tev_seq *s, uint64_t wake_ts, struct lj_explanation *x,
		 struct acc *acc)
{
	struct cpu_ctx c = { 0 };
	uint64_t prev = x->due_ns;
	bool idle_at_due = false, exit_seen = false;
	size_t start = walk_start(s, x->due_ns);
	bool untraced = idle_switch_untraced(s, start);

	for (size_t i = start; i < s->n; i++) {
		const struct lj_tev *e = &s->ev[i];

		/*
		 * Idle, then another task's event without the switch: the task
		 * was switched in right after the idle task's last event (the
		 * interrupt that woke it), so the gap is the task's, not idle.
		 */
		if (untraced && c.known && c.pid == 0 && e->type != LJ_TEV_LOST && e->pid != 0) {
			task_info(&c, s, i, e->pid);
			x->switch_inferred = true;
		}

		/* The events lost came before the marker: their stretch is unknown. */
		if (e->type == LJ_TEV_LOST) {
			apply(&c, e);
			if (e->ts > x->due_ns)
				x->incomplete = true;
		}
		if (e->ts > x->due_ns) {
			uint64_t end = e->ts < x->ran_ns ? e->ts : x->ran_ns;

			attribute_split(acc, &c, prev > x->due_ns ? prev : x->due_ns, end, wake_ts, x);
			prev = end;
		}
		if (e->ts >= x->ran_ns)
			break;
		if (e->type != LJ_TEV_LOST && (!c.known || c.pid != e->pid))
			task_info(&c, s, i, e->pid);
		if (e->type != LJ_TEV_LOST)
			apply(&c, e);
		if (e->ts <= x->due_ns)
			idle_at_due = c.idle || (c.known && c.pid == 0);
		/*
		 * The first thing the CPU does after due ends its idle: an
		 * interrupt, a cpu_idle exit (in a trace that has them; the
		 * recorders leave them out) or the switch away from idle.
		 */
		if (idle_at_due && !exit_seen && e->ts > x->due_ns) {
			exit_seen = true;
			x->idle_exit_ns = e->ts - x->due_ns;
		}
	}
	attribute_split(acc, &c, prev, x->ran_ns, wake_ts, x);
	x->freq_khz = c.freq_khz;
	if (idle_at_due && !exit_seen)
		x->idle_exit_ns = x->latency_ns;
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct lj_cause *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/*
 * After the wake-up (before it, attribute() gives lower priorities to
 * "unaccounted"), the share of tasks an RT thread outranks: kernel prio
 * 0-99 is RT, a larger number a lower priority.
 */
static uint64_t lower_prio(const struct acc *acc, const struct lj_explanation *x)
{
	uint64_t ns = 0;

	if (x->tid_prio == PRIO_UNKNOWN || x->tid_prio < 0 || x->tid_prio >= 100)
		return 0;
	for (int i = 0; i < acc->n; i++)
		if (acc->c[i].kind == LJ_CAUSE_TASK && acc->c[i].prio > x->tid_prio)
			ns += acc->c[i].ns;
	return ns;
}

static void keep_largest(struct acc *acc, struct lj_explanation *x)
{
	qsort(acc->c, (size_t)acc->n, sizeof(acc->c[0]), by_ns_desc);
	x->ncauses = acc->n < LJ_EXPLAIN_MAXCAUSES ? acc->n : LJ_EXPLAIN_MAXCAUSES;
	memcpy(x->causes, acc->c, (size_t)x->ncauses * sizeof(acc->c[0]));
	if (acc->n > LJ_EXPLAIN_MAXCAUSES) {
		struct lj_cause *o = &x->causes[LJ_EXPLAIN_MAXCAUSES - 1];

		*o = (struct lj_cause){ .kind = LJ_CAUSE_OTHER, .policy = LJ_POLICY_UNKNOWN };
		strcpy(o->name, "other");
		for (int i = LJ_EXPLAIN_MAXCAUSES - 1; i < acc->n; i++) {
			o->ns += acc->c[i].ns;
			o->count += acc->c[i].count;
		}
	}
}

static bool about(const struct lj_tev *e, pid_t tid)
{
	switch (e->type) {
	case LJ_TEV_SWITCH:
		return e->sw.prev_pid == tid || e->sw.next_pid == tid;
	case LJ_TEV_WAKING:
	case LJ_TEV_WAKEUP:
		return e->wake.pid == tid;
	case LJ_TEV_MIGRATE:
		return e->mig.pid == tid;
	default:
		return false;
	}
}

/* The events about @tid only (its switches, wake-ups, migrations), per CPU: its story is read there. */
struct thread_view {
	pid_t tid;
	struct lj_trace_view view;
	struct lj_tev_seq *seqs;
	struct lj_tev *ev;
};

static void thread_view_free(struct thread_view *t)
{
	free(t->seqs);
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

static int thread_view_build(const struct lj_trace_view *tv, pid_t tid, struct thread_view *t)
{
	size_t n = 0, k = 0;

	thread_view_free(t);
	for (int c = 0; c < tv->ncpus; c++)
		for (size_t i = 0; i < tv->cpus[c].n; i++)
			n += about(&tv->cpus[c].ev[i], tid);
	t->seqs = calloc((size_t)tv->ncpus + 1, sizeof(*t->seqs));
	t->ev = calloc(n + 1, sizeof(*t->ev));
	if (!t->seqs || !t->ev) {
		thread_view_free(t);
		return -ENOMEM;
	}
	for (int c = 0; c < tv->ncpus; c++) {
		t->seqs[c].ev = t->ev + k;
		for (size_t i = 0; i < tv->cpus[c].n; i++)
			if (about(&tv->cpus[c].ev[i], tid))
				t->ev[k++] = tv->cpus[c].ev[i];
		t->seqs[c].n = (size_t)(t->ev + k - t->seqs[c].ev);
	}
	t->tid = tid;
	t->view = (struct lj_trace_view){ t->seqs, tv->ncpus, false };
	return 0;
}

static int explain_with(const struct lj_trace_view *tv, const struct lj_trace_view *thread,
			int cpu, pid_t tid, uint64_t due_ns, uint64_t ran_ns, struct lj_explanation *out)
{
	struct story st;
	struct acc *acc;
	uint64_t wake_ts;

	memset(out, 0, sizeof(*out));
	if (cpu < 0 || cpu >= tv->ncpus || ran_ns < due_ns)
		return -EINVAL;
	out->due_cpu = out->cpu = cpu;
	out->tid = tid;
	out->due_ns = due_ns;
	out->ran_ns = ran_ns;
	out->latency_ns = ran_ns - due_ns;
	find_story(thread, tid, ran_ns, &st);
	out->tid_prio = st.prio;
	if (st.have_in && st.in_cpu >= 0 && st.in_cpu < tv->ncpus && tv->cpus[st.in_cpu].n)
		out->cpu = st.in_cpu;
	if (!tv->cpus[out->cpu].n)
		return -ENOENT;
	if (st.have_mig && st.mig_ts > (st.have_out ? st.out_ts : 0)) {
		out->migrated = true;
		out->mig_from = st.mig_from;
		out->mig_to = st.mig_to;
	}
	/* Not after a preemption: the thread was runnable, not asleep on its timer. */
	if (tv->timer_wakeups && !st.have_wake && st.have_in && st.in_cpu == out->cpu &&
	    (!st.have_out || (st.out_state & LJ_TEV_STATE_MASK)))
		st.have_wake = timer_wake(&tv->cpus[out->cpu], due_ns, st.have_out ? st.out_ts : 0,
					  st.in_ts, &st.wake_ts);
	wake_ts = classify(&st, out);
	acc = calloc(1, sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	acc->last = -1;
	acc->x = out;
	walk(&tv->cpus[out->cpu], wake_ts, out, acc);
	span_close(acc, 1);
	span_close(acc, 0);
	if (acc->lost)
		out->incomplete = true;
	out->lower_prio_ns = lower_prio(acc, out);
	keep_largest(acc, out);
	free(acc);
	return 0;
}

int lj_explain(const struct lj_trace_view *tv, int cpu, pid_t tid, uint64_t due_ns,
	       uint64_t ran_ns, struct lj_explanation *out)
{
	struct lj_explain_req req = { cpu, tid, due_ns, ran_ns };
	int err = 0, ret = lj_explain_batch(tv, &req, 1, out, &err);

	return ret ? ret : err;
}

int lj_explain_batch(const struct lj_trace_view *tv, const struct lj_explain_req *req, size_t n,
		     struct lj_explanation *out, int *err)
{
	struct thread_view t = { 0 };
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		if (!t.ev || t.tid != req[i].tid)
			ret = thread_view_build(tv, req[i].tid, &t);
		if (ret)
			break;
		err[i] = explain_with(tv, &t.view, req[i].cpu, req[i].tid, req[i].due_ns,
				      req[i].ran_ns, &out[i]);
	}
	thread_view_free(&t);
	return ret;
}

uint64_t lj_explain_unaccounted(const struct lj_explanation *x)
{
	uint64_t ns = 0;

	for (int i = 0; i < x->ncauses; i++)
		if (x->causes[i].kind == LJ_CAUSE_UNACCOUNTED)
			ns += x->causes[i].ns;
	return ns;
}
