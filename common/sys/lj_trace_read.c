// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_trace_read - the recorder's buffers read into lj_tev events, per CPU. */
#include "lj_trace.h"
#include "lj_trace_bpf.h"
#include "lj_trace_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

/* lj_tev_needed's selection; sched_waking before the sched_wakeup that stands in for it. */
const struct lj_trace_event lj_trace_events[] = {
	{ "sched", "sched_switch", LJ_TEV_SWITCH, .required = true },
	{ "sched", "sched_waking", LJ_TEV_WAKING, .by_pid = true },
	{ "sched", "sched_wakeup", LJ_TEV_WAKEUP, .by_pid = true, .instead_of_waking = true },
	{ "sched", "sched_migrate_task", LJ_TEV_MIGRATE, .by_pid = true },
	{ "irq", "irq_handler_entry", LJ_TEV_IRQ_ENTRY },
	{ "irq", "irq_handler_exit", LJ_TEV_IRQ_EXIT },
	{ "irq", "softirq_entry", LJ_TEV_SOFTIRQ_ENTRY },
	{ "irq", "softirq_exit", LJ_TEV_SOFTIRQ_EXIT },
	{ "irq_vectors", "local_timer_entry", LJ_TEV_TIMER_ENTRY },
	{ "irq_vectors", "local_timer_exit", LJ_TEV_TIMER_EXIT },
	{ "power", "cpu_frequency", LJ_TEV_FREQ },
};
const size_t lj_trace_nevents = sizeof(lj_trace_events) / sizeof(lj_trace_events[0]);

/* The fields read per type, in the order fill() uses them (looked up once per event). */
static const char *const field_names[LJ_TEV_NTYPES][LJ_TRACE_MAXFIELDS] = {
	[LJ_TEV_SWITCH] = { "prev_pid", "next_pid", "prev_prio", "next_prio", "prev_state",
			    "prev_comm", "next_comm" },
	[LJ_TEV_WAKING] = { "pid", "prio", "target_cpu", "comm" },
	[LJ_TEV_WAKEUP] = { "pid", "prio", "target_cpu", "comm" },
	[LJ_TEV_MIGRATE] = { "pid", "prio", "orig_cpu", "dest_cpu", "comm" },
	[LJ_TEV_IRQ_ENTRY] = { "irq", "name" },
	[LJ_TEV_IRQ_EXIT] = { "irq" },
	[LJ_TEV_SOFTIRQ_ENTRY] = { "vec" },
	[LJ_TEV_SOFTIRQ_EXIT] = { "vec" },
	[LJ_TEV_FREQ] = { "state" },
};

static long long num(struct tep_format_field *f, const struct tep_record *r)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, r->data, &v))
		return 0;
	/* Signed fields narrower than 64 bits come back zero-extended. */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size == 4)
		return (int32_t)v;
	return (long long)v;
}

/* A char[N] field, or a __data_loc / __rel_loc string. */
static void str(struct tep_format_field *f, const struct tep_record *r, char *out, size_t len)
{
	const char *p = NULL;
	size_t n = 0, k = 0;

	if (f && (f->flags & TEP_FIELD_IS_DYNAMIC)) {
		unsigned long long loc = (unsigned long long)num(f, r) & 0xffffffffULL;
		size_t off = loc & 0xffff;

		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + (size_t)f->size;
		n = loc >> 16;
		if (off + n <= (size_t)r->size)
			p = (const char *)r->data + off;
	} else if (f && (size_t)f->offset + (size_t)f->size <= (size_t)r->size) {
		p = (const char *)r->data + f->offset;
		n = (size_t)f->size;
	}
	while (p && k + 1 < len && k < n && p[k])
		k++;
	if (p)
		memcpy(out, p, k);
	out[k] = '\0';
}

static void fill(const struct lj_trace *t, const struct tep_record *r, struct lj_tev *ev)
{
	struct tep_format_field *const *f = t->fields[ev->type];

	switch (ev->type) {
	case LJ_TEV_SWITCH:
		ev->sw.prev_pid = (pid_t)num(f[0], r);
		ev->sw.next_pid = (pid_t)num(f[1], r);
		ev->sw.prev_prio = (int)num(f[2], r);
		ev->sw.next_prio = (int)num(f[3], r);
		ev->sw.prev_state = (long)num(f[4], r);
		str(f[5], r, ev->sw.prev_comm, sizeof(ev->sw.prev_comm));
		str(f[6], r, ev->sw.next_comm, sizeof(ev->sw.next_comm));
		break;
	case LJ_TEV_WAKING:
	case LJ_TEV_WAKEUP:
		ev->wake.pid = (pid_t)num(f[0], r);
		ev->wake.prio = (int)num(f[1], r);
		ev->wake.target_cpu = (int)num(f[2], r);
		str(f[3], r, ev->wake.comm, sizeof(ev->wake.comm));
		break;
	case LJ_TEV_MIGRATE:
		ev->mig.pid = (pid_t)num(f[0], r);
		ev->mig.prio = (int)num(f[1], r);
		ev->mig.orig_cpu = (int)num(f[2], r);
		ev->mig.dest_cpu = (int)num(f[3], r);
		str(f[4], r, ev->mig.comm, sizeof(ev->mig.comm));
		break;
	case LJ_TEV_IRQ_ENTRY:
		str(f[1], r, ev->irq.name, sizeof(ev->irq.name));
		/* fallthrough */
	case LJ_TEV_IRQ_EXIT:
		ev->irq.irq = (int)num(f[0], r);
		break;
	case LJ_TEV_SOFTIRQ_ENTRY:
	case LJ_TEV_SOFTIRQ_EXIT:
		ev->softirq_vec = (unsigned int)num(f[0], r);
		break;
	case LJ_TEV_FREQ:
		ev->freq_khz = (uint32_t)num(f[0], r);
		break;
	default:
		break;
	}
}

int lj_trace_push(struct cpu_buf *b, const struct lj_tev *ev)
{
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

/* @id: the record's event id (common_type), whose lj_tev_type map_events() noted. */
static int on_record(struct lj_trace *t, int id, struct tep_record *r, int cpu)
{
	int ty = id >= 0 && id < (int)(sizeof(t->type_of_id) / sizeof(t->type_of_id[0]))
		 ? t->type_of_id[id] - 1 : -1;
	struct lj_tev ev;

	if (cpu < 0 || cpu >= t->ncpus || t->err)
		return t->err ? 1 : 0;
	if (r->missed_events) {
		ev = (struct lj_tev){ .ts = r->ts, .type = LJ_TEV_LOST,
				      .lost = r->missed_events > 0 ? (uint64_t)r->missed_events : 0 };
		t->st.lost += ev.lost;
		t->err = lj_trace_push(&t->buf[cpu], &ev);
	}
	if (ty < 0)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.ts = r->ts;
	ev.type = (enum lj_tev_type)ty;
	ev.pid = tep_data_pid(t->tep, r);
	fill(t, r, &ev);
	t->st.events++;
	t->st.by_type[ev.type]++;
	t->err = t->err ? t->err : lj_trace_push(&t->buf[cpu], &ev);
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

/*
 * The formats of our events only (tracefs_local_events would also parse
 * /proc/kallsyms, seconds under a sanitizer, for symbols never printed).
 */
static int map_events(struct lj_trace *t)
{
	int nmax = (int)(sizeof(t->type_of_id) / sizeof(t->type_of_id[0]));
	enum tep_endian local = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;

	t->tep = tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	tep_set_file_bigendian(t->tep, local);
	tep_set_local_bigendian(t->tep, local);
	tep_set_long_size(t->tep, (int)sizeof(long));
	tep_set_page_size(t->tep, (int)sysconf(_SC_PAGESIZE));
	for (size_t i = 0; i < lj_trace_nevents; i++) {
		const char *sys = lj_trace_events[i].sys, *name = lj_trace_events[i].name;
		enum lj_tev_type ty = lj_trace_events[i].type;
		int size = 0;
		char *fmt = tracefs_event_file_read(NULL, sys, name, "format", &size);
		struct tep_event *e;

		if (fmt && size > 0)
			tep_parse_event(t->tep, fmt, (unsigned long)size, sys);
		free(fmt);
		e = tep_find_event_by_name(t->tep, sys, name);
		if (!e || e->id < 0 || e->id >= nmax)
			continue;	/* absent from this kernel: never enabled either */
		t->type_of_id[e->id] = (int)ty + 1;
		for (int k = 0; k < LJ_TRACE_MAXFIELDS && field_names[ty][k]; k++)
			t->fields[ty][k] = tep_find_field(e, field_names[ty][k]);
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
			t->st.by_type[ev.type]++;
		}
		if (lost && ev.type != LJ_TEV_LOST && t->buf[cpu].n)	/* the marker takes the next time */
			t->buf[cpu].ev[t->buf[cpu].n - 1].ts = ev.ts, lost = false;
		t->err = lj_trace_push(&t->buf[cpu], &ev);
	}
	free(txt);
	return t->err;
}

/* Each traced CPU's trace_pipe_raw, opened non-blocking, and one page to read into. */
static int open_readers(struct lj_trace *t)
{
	t->tcpu = calloc((size_t)t->ncpus + 1, sizeof(*t->tcpu));
	if (!t->tcpu)
		return -ENOMEM;
	for (int c = 0; c < t->ncpus; c++) {
		if (!CPU_ISSET(c, &t->cpus))
			continue;
		t->tcpu[c] = tracefs_cpu_open(t->inst, c, true);
		if (!t->tcpu[c])
			return errno ? -errno : -EIO;
		if (tracefs_cpu_read_size(t->tcpu[c]) > t->psize)
			t->psize = tracefs_cpu_read_size(t->tcpu[c]);
	}
	t->page = malloc(t->psize > 0 ? (size_t)t->psize : 4096);
	t->kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? KBUFFER_ENDIAN_BIG
								       : KBUFFER_ENDIAN_LITTLE);
	return t->page && t->kbuf ? 0 : -ENOMEM;
}

/*
 * One page of CPU @c's buffer, consumed whole (never stopped half-way:
 * what is left of a page read is lost). Return: 1 a page was read, 0
 * nothing to read now, or -errno.
 */
static int read_page(struct lj_trace *t, int c)
{
	unsigned long long ts;
	int n = tracefs_cpu_read(t->tcpu[c], t->page, true);
	int missed;
	void *data;

	if (n <= 0)
		return n < 0 && errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK ? -errno : 0;
	if (kbuffer_load_subbuffer(t->kbuf, t->page) < 0)
		return -EIO;
	missed = kbuffer_missed_events(t->kbuf);
	for (data = kbuffer_read_event(t->kbuf, &ts); data && !t->err;
	     data = kbuffer_next_event(t->kbuf, &ts)) {
		struct tep_record r = { .ts = ts, .data = data, .size = kbuffer_event_size(t->kbuf),
					.cpu = c, .missed_events = missed };

		missed = 0;	/* before the page's first event only */
		/* The id straight from the record: a lookup of its event (tep_find_event) per record was a quarter of the decoding. */
		on_record(t, tep_data_type(t->tep, &r), &r, c);
	}
	return t->err ? t->err : 1;
}

/* Tracing off: the events already in the buffers stay there to be read. */
int lj_trace_off(struct lj_trace *t)
{
	if (t->bpf) {
		lj_trace_bpf_off(t->bpf);
		return 0;
	}
	return write(t->on_fd, "0", 1) == 1 ? 0 : -errno;
}

/* The per-CPU arrays, the event formats and the readers, once. */
int lj_trace_prepare(struct lj_trace *t)
{
	int err;

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
	if (t->bpf)
		return 0;	/* no formats to parse, no files to read: the rings are mapped */
	err = map_events(t);
	return err ? err : open_readers(t);
}

/*
 * What each CPU's buffer holds now, a buffer's worth of pages at most: a
 * reader slower than the events stops there and comes back, rather than
 * never ending while tracing goes on.
 */
int lj_trace_drain_keep(struct lj_trace *t, uint64_t hold_from, const struct lj_tev_window *keep,
			size_t nkeep)
{
	struct lj_bpf_keep k = { hold_from, keep, nkeep, false };

	if (!t->bpf)
		return lj_trace_drain(t);
	if (!t->err)
		t->err = lj_trace_bpf_read(t->bpf, &k, t->buf, &t->st);
	return t->err;
}

int lj_trace_drain(struct lj_trace *t)
{
	int err = lj_trace_prepare(t);
	size_t max = t->psize > 0 ? (size_t)t->buffer_kb * 1024 / (size_t)t->psize + 1 : 1;

	if (err)
		return t->err = err;
	for (int c = 0; c < t->ncpus && !t->err; c++) {
		if (!t->tcpu[c])
			continue;
		for (size_t k = 0; k < max; k++) {
			err = read_page(t, c);
			if (err <= 0) {
				if (err < 0 && !t->err)
					t->err = err;
				break;
			}
		}
	}
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
	err = lj_trace_prepare(t);
	if (err) {
		snprintf(why, len, "cannot read the event formats: %s", strerror(-err));
		return err;
	}
	if (t->bpf) {
		struct lj_bpf_keep all = { .all = true };

		if (!t->err)
			t->err = lj_trace_bpf_read(t->bpf, &all, t->buf, &t->st);
	} else if (keep) {
		for (int c = 0; c < t->ncpus && !t->err; c++)
			if (CPU_ISSET(c, &t->cpus))
				t->err = read_text(t, c);
	} else {
		lj_trace_drain(t);	/* tracing is off: this reaches the end */
	}
	for (int c = 0; c < t->ncpus; c++) {
		t->seqs[c] = (struct lj_tev_seq){ t->buf[c].ev, t->buf[c].n };
		if (CPU_ISSET(c, &t->cpus) && !t->bpf)	/* the BPF rings count theirs as read */
			t->st.overrun += overrun_of(t, c);
	}
	t->view.cpus = t->seqs;		/* timer_wakeups as lj_trace_wakeups_by_timer set it */
	t->view.ncpus = t->ncpus;
	t->st.ncpus = t->ncpus;
	if (t->err)
		snprintf(why, len, "reading %s: %s", t->bpf ? "the BPF recorder" : t->dir,
			 strerror(-t->err));
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
