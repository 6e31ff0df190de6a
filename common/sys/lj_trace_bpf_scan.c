// SPDX-License-Identifier: GPL-2.0-or-later
/* lj_trace_bpf_scan - one CPU's ring of the BPF recorder read into lj_tev events: only the windows asked for. */
#include "lj_trace_bpf.h"

#include <string.h>

#define SAME(x) ((int)LJ_BPF_##x == (int)LJ_TEV_##x)
_Static_assert(SAME(SWITCH) && SAME(WAKING) && SAME(MIGRATE) && SAME(IRQ_ENTRY) && SAME(IRQ_EXIT) &&
	       SAME(SOFTIRQ_ENTRY) && SAME(SOFTIRQ_EXIT) && SAME(TIMER_ENTRY) && SAME(TIMER_EXIT) &&
	       SAME(FREQ), "the BPF program's event types are lj_tev_type's");

/* A string the program copied (NUL-terminated by the kernel's helpers; bounded here anyway). */
static void str(char *dst, size_t len, const char *src, size_t n)
{
	size_t k = 0;

	while (k + 1 < len && k < n && src[k])
		k++;
	memcpy(dst, src, k);
	dst[k] = '\0';
}

int lj_trace_bpf_tev(const struct lj_bpf_rec *r, struct lj_tev *ev)
{
	if (r->type >= LJ_TEV_NTYPES || r->type == LJ_TEV_LOST)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->ts = r->ts;
	ev->type = (enum lj_tev_type)r->type;
	ev->pid = r->pid;
	switch (ev->type) {
	case LJ_TEV_SWITCH:
		ev->sw.prev_pid = r->a;
		ev->sw.next_pid = r->b;
		ev->sw.prev_prio = r->c;
		ev->sw.next_prio = r->d;
		ev->sw.prev_state = r->e;
		str(ev->sw.prev_comm, sizeof(ev->sw.prev_comm), r->s1, sizeof(r->s1));
		str(ev->sw.next_comm, sizeof(ev->sw.next_comm), r->s2, sizeof(r->s2));
		break;
	case LJ_TEV_WAKING:
	case LJ_TEV_WAKEUP:
		ev->wake.pid = r->a;
		ev->wake.prio = r->b;
		ev->wake.target_cpu = r->c;
		str(ev->wake.comm, sizeof(ev->wake.comm), r->s1, sizeof(r->s1));
		break;
	case LJ_TEV_MIGRATE:
		ev->mig.pid = r->a;
		ev->mig.prio = r->b;
		ev->mig.orig_cpu = r->c;
		ev->mig.dest_cpu = r->d;
		str(ev->mig.comm, sizeof(ev->mig.comm), r->s1, sizeof(r->s1));
		break;
	case LJ_TEV_IRQ_ENTRY:
		str(ev->irq.name, sizeof(ev->irq.name), r->s2, sizeof(r->s2));
		/* fallthrough */
	case LJ_TEV_IRQ_EXIT:
		ev->irq.irq = r->a;
		break;
	case LJ_TEV_SOFTIRQ_ENTRY:
	case LJ_TEV_SOFTIRQ_EXIT:
		ev->softirq_vec = (unsigned int)r->a;
		break;
	case LJ_TEV_FREQ:
		ev->freq_khz = (uint32_t)r->a;
		break;
	default:
		break;
	}
	return 0;
}

/* Record @j copied whole, or 0 being written, -1 overwritten by a newer one. */
static int take(const struct lj_bpf_rec *ring, uint32_t per_slot, uint64_t j, struct lj_bpf_rec *out)
{
	const struct lj_bpf_rec *r = &ring[j & (per_slot - 1)];
	uint64_t s1 = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE), s2;

	if (s1 == j + 1) {
		memcpy(out, (const void *)r, sizeof(*out));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&r->seq, __ATOMIC_RELAXED);
		return s2 == j + 1 ? 1 : -1;
	}
	/* A committed newer index (below the "being written" marks, which count down from ~0). */
	return s1 > j + 1 && s1 < UINT64_MAX / 2 ? -1 : 0;
}

int lj_trace_bpf_scan(const struct lj_bpf_rec *ring, uint32_t per_slot, uint64_t head,
		      struct lj_bpf_scan *sc, const struct lj_bpf_keep *keep, struct cpu_buf *out,
		      struct lj_trace_stats *st)
{
	size_t k = 0;

	/* What the writer went round over before it was read: gone. */
	if (head - sc->tail > per_slot) {
		st->overrun += head - per_slot - sc->tail;
		sc->tail = head - per_slot;
		sc->gap = true;
	}
	for (; sc->tail < head; sc->tail++) {
		struct lj_bpf_rec r;
		struct lj_tev ev;
		bool recent;
		int got = take(ring, per_slot, sc->tail, &r), err;

		if (got == 0 && !keep->all)
			break;		/* being written: the next pass takes it */
		if (got <= 0) {
			st->overrun++;
			sc->gap = true;
			continue;
		}
		/*
		 * Recent: stays in the kernel until its windows are known, unless
		 * the ring fills faster than that (a flood of interrupts): then it
		 * is copied out as the tracefs recorder's reader does, and pruned
		 * with the rest once older than the hold.
		 */
		recent = !keep->all && r.ts >= keep->hold_from;
		if (recent && head - sc->tail <= per_slot / LJ_BPF_UNREAD_MAX)
			break;
		if (lj_trace_bpf_tev(&r, &ev))
			continue;
		st->events++;
		st->by_type[ev.type]++;
		if (!keep->all && !recent && !lj_tev_kept(r.ts, keep->win, keep->nwin, &k)) {
			sc->gap = true;
			continue;
		}
		/* Where events were left out, the explanation must not carry the CPU's state across. */
		if (sc->gap) {
			struct lj_tev hole = { .ts = ev.ts, .type = LJ_TEV_LOST };

			if ((err = lj_trace_push(out, &hole)))
				return err;
		}
		sc->gap = false;
		if ((err = lj_trace_push(out, &ev)))
			return err;
	}
	return 0;
}

void lj_trace_bpf_order(struct lj_tev *ev, size_t n)
{
	/* Nearly in order (a program interrupted by another's on its CPU): insertion, stable. */
	for (size_t i = 1; i < n; i++) {
		struct lj_tev e = ev[i];
		size_t j = i;

		while (j > 0 && ev[j - 1].ts > e.ts) {
			ev[j] = ev[j - 1];
			j--;
		}
		ev[j] = e;
	}
}
