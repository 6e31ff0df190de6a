// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_trace_read - the recorder's buffers read into lj_tev events, per CPU. */
#include "lj_trace.h"
#include "lj_trace_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

static long long num(struct tep_event *e, struct tep_record *r, const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, r->data, &v))
		return 0;
	/* Signed fields narrower than 64 bits come back zero-extended. */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 4)
		return (int32_t)v;
	return (long long)v;
}

static void str(struct tep_event *e, struct tep_record *r, const char *name, char *out, size_t len)
{
	int n = 0;
	const char *p = tep_get_field_raw(NULL, e, name, r, &n, 0);
	size_t k = 0;

	while (p && k + 1 < len && k < (size_t)n && p[k])
		k++;
	if (p)
		memcpy(out, p, k);
	out[k] = '\0';
}

static void fill(struct tep_event *e, struct tep_record *r, struct lj_tev *ev)
{
	switch (ev->type) {
	case LJ_TEV_SWITCH:
		ev->sw.prev_pid = (pid_t)num(e, r, "prev_pid");
		ev->sw.next_pid = (pid_t)num(e, r, "next_pid");
		ev->sw.prev_prio = (int)num(e, r, "prev_prio");
		ev->sw.next_prio = (int)num(e, r, "next_prio");
		ev->sw.prev_state = (long)num(e, r, "prev_state");
		str(e, r, "prev_comm", ev->sw.prev_comm, sizeof(ev->sw.prev_comm));
		str(e, r, "next_comm", ev->sw.next_comm, sizeof(ev->sw.next_comm));
		break;
	case LJ_TEV_WAKING:
	case LJ_TEV_WAKEUP:
		ev->wake.pid = (pid_t)num(e, r, "pid");
		ev->wake.prio = (int)num(e, r, "prio");
		ev->wake.target_cpu = (int)num(e, r, "target_cpu");
		str(e, r, "comm", ev->wake.comm, sizeof(ev->wake.comm));
		break;
	case LJ_TEV_MIGRATE:
		ev->mig.pid = (pid_t)num(e, r, "pid");
		ev->mig.prio = (int)num(e, r, "prio");
		ev->mig.orig_cpu = (int)num(e, r, "orig_cpu");
		ev->mig.dest_cpu = (int)num(e, r, "dest_cpu");
		str(e, r, "comm", ev->mig.comm, sizeof(ev->mig.comm));
		break;
	case LJ_TEV_IRQ_ENTRY:
		str(e, r, "name", ev->irq.name, sizeof(ev->irq.name));
		/* fallthrough */
	case LJ_TEV_IRQ_EXIT:
		ev->irq.irq = (int)num(e, r, "irq");
		break;
	case LJ_TEV_SOFTIRQ_ENTRY:
	case LJ_TEV_SOFTIRQ_EXIT:
		ev->softirq_vec = (unsigned int)num(e, r, "vec");
		break;
	case LJ_TEV_IDLE:
	case LJ_TEV_FREQ:
		ev->idle_state = (uint32_t)num(e, r, "state");	/* freq_khz shares it */
		break;
	default:
		break;
	}
}

static int push(struct lj_trace *t, int cpu, const struct lj_tev *ev)
{
	struct cpu_buf *b = &t->buf[cpu];

	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		struct lj_tev *p = realloc(b->ev, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->ev = p;
		b->cap = cap;
	}
	b->ev[b->n++] = *ev;
	return 0;
}

static int on_record(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct lj_trace *t = ctx;
	int ty = e->id >= 0 && e->id < (int)(sizeof(t->type_of_id) / sizeof(t->type_of_id[0]))
		 ? t->type_of_id[e->id] - 1 : -1;
	struct lj_tev ev;

	if (cpu < 0 || cpu >= t->ncpus || t->err)
		return t->err ? 1 : 0;
	if (r->missed_events) {
		ev = (struct lj_tev){ .ts = r->ts, .type = LJ_TEV_LOST,
				      .lost = r->missed_events > 0 ? (uint64_t)r->missed_events : 0 };
		t->st.lost += ev.lost;
		t->err = push(t, cpu, &ev);
	}
	if (ty < 0)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.ts = r->ts;
	ev.type = (enum lj_tev_type)ty;
	ev.pid = tep_data_pid(t->tep, r);
	fill(e, r, &ev);
	t->st.events++;
	t->err = t->err ? t->err : push(t, cpu, &ev);
	return t->err ? 1 : 0;
}

/* Overwritten before they were read: the "overrun" of each CPU's stats file. */
static uint64_t overrun_of(struct lj_trace *t, int cpu)
{
	char file[64], *txt, *p;
	uint64_t v = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	txt = tracefs_instance_file_read(t->inst, file, NULL);
	if (txt && (p = strstr(txt, "overrun: ")))
		v = strtoull(p + 9, NULL, 10);
	free(txt);
	return v;
}

static int map_events(struct lj_trace *t)
{
	static const char *const systems[] = { "sched", "irq", "irq_vectors", "timer", "power", NULL };
	int nmax = (int)(sizeof(t->type_of_id) / sizeof(t->type_of_id[0]));

	t->tep = tracefs_local_events_system(NULL, systems);
	if (!t->tep)
		return errno ? -errno : -EIO;
	for (size_t i = 0; i < lj_trace_nevents; i++) {
		struct tep_event *e = tep_find_event_by_name(t->tep, lj_trace_events[i].sys,
							     lj_trace_events[i].name);

		if (e && e->id >= 0 && e->id < nmax)
			t->type_of_id[e->id] = (int)lj_trace_events[i].type + 1;
	}
	return 0;
}

/* The kept trace, read as text (which does not consume it) and parsed line by line. */
static int read_text(struct lj_trace *t, int cpu)
{
	char file[64], *txt, *line, *save = NULL;
	bool lost = false;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace", cpu);
	txt = tracefs_instance_file_read(t->inst, file, NULL);
	if (!txt)
		return errno ? -errno : -EIO;
	for (line = strtok_r(txt, "\n", &save); line && !t->err; line = strtok_r(NULL, "\n", &save)) {
		struct lj_tev ev;
		int c;

		if (lj_tev_parse_line(line, &ev, &c) != 1 || c != cpu)
			continue;
		if (ev.type == LJ_TEV_LOST) {
			t->st.lost += ev.lost;
			lost = true;
		} else {
			t->st.events++;
		}
		if (lost && ev.type != LJ_TEV_LOST && t->buf[cpu].n)	/* the marker takes the next time */
			t->buf[cpu].ev[t->buf[cpu].n - 1].ts = ev.ts, lost = false;
		t->err = push(t, cpu, &ev);
	}
	free(txt);
	return t->err;
}

/* The per-CPU arrays and the event formats, once. */
static int prepare(struct lj_trace *t)
{
	if (t->buf)
		return 0;
	t->ncpus = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &t->cpus))
			t->ncpus = c + 1;
	t->buf = calloc((size_t)t->ncpus + 1, sizeof(*t->buf));
	t->seqs = calloc((size_t)t->ncpus + 1, sizeof(*t->seqs));
	if (!t->buf || !t->seqs)
		return -ENOMEM;
	return map_events(t);
}

int lj_trace_drain(struct lj_trace *t)
{
	int err = prepare(t);

	if (err)
		return err;
	if (tracefs_iterate_raw_events(t->tep, t->inst, &t->cpus, sizeof(t->cpus), on_record, t) < 0 &&
	    !t->err)
		t->err = -EIO;
	return t->err;
}

void lj_trace_prune(struct lj_trace *t, uint64_t before, const struct lj_tev_window *keep,
		    size_t nkeep)
{
	for (int c = 0; t->buf && c < t->ncpus; c++)
		t->buf[c].n = lj_tev_prune(t->buf[c].ev, t->buf[c].n, before, keep, nkeep);
}

int lj_trace_collect(struct lj_trace *t, bool keep, char *why, size_t len)
{
	int err;

	lj_trace_off(t);
	if (t->collected)
		return t->err;
	t->collected = true;
	err = prepare(t);
	if (err) {
		snprintf(why, len, "cannot read the event formats: %s", strerror(-err));
		return err;
	}
	if (keep) {
		for (int c = 0; c < t->ncpus && !t->err; c++)
			if (CPU_ISSET(c, &t->cpus))
				t->err = read_text(t, c);
	} else {
		lj_trace_drain(t);
	}
	for (int c = 0; c < t->ncpus; c++) {
		t->seqs[c] = (struct lj_tev_seq){ t->buf[c].ev, t->buf[c].n };
		if (CPU_ISSET(c, &t->cpus))
			t->st.overrun += overrun_of(t, c);
	}
	t->view = (struct lj_trace_view){ t->seqs, t->ncpus };
	t->st.ncpus = t->ncpus;
	if (t->err)
		snprintf(why, len, "reading %s: %s", t->dir, strerror(-t->err));
	return t->err;
}

const struct lj_trace_view *lj_trace_view(const struct lj_trace *t)
{
	return &t->view;
}

void lj_trace_get_stats(const struct lj_trace *t, struct lj_trace_stats *st)
{
	*st = t->st;
}

int lj_trace_policy_of(pid_t pid, const char *comm)
{
	char path[64], buf[64] = "";
	FILE *f;
	int pol;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return LJ_POLICY_UNKNOWN;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (strncmp(buf, comm, LJ_TEV_COMM - 1))
		return LJ_POLICY_UNKNOWN;
	pol = sched_getscheduler(pid);
	return pol < 0 ? LJ_POLICY_UNKNOWN : pol & ~SCHED_RESET_ON_FORK;
}
