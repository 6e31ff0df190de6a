// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lj_trace.bpf - the BPF recorder (docs/explain.md, "The BPF recorder"):
 * the tracefs recorder's events, from the same tracepoints (raw, with
 * BTF: no record is formatted for the events not kept), kept in the
 * kernel in a ring per measured CPU that the reader maps, not streamed.
 * Built with clang -target bpf against the kernel fields it reads,
 * declared in lj_trace_bpf_kernel.h (CO-RE: their offsets are relocated
 * at load, from the running kernel's BTF).
 */
#include "lj_trace_bpf_kernel.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "lj_trace_bpf_rec.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);		/* set by the reader: slots * per_slot */
	__type(key, __u32);
	__type(value, struct lj_bpf_rec);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, LJ_BPF_MAXSLOTS);
	__type(key, __u32);
	__type(value, struct lj_bpf_head);
} heads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lj_bpf_conf);
} conf SEC(".maps");

/* Kernels before 5.14 name the task's state "state"; before 5.16 its CPU is task_struct's own. */
struct task_struct___old {
	long state;
	unsigned int cpu;
} __attribute__((preserve_access_index));

#define barrier() asm volatile("" ::: "memory")

/*
 * A record's sequence word, published so that the reader (another CPU,
 * lj_trace_bpf_scan's take(): acquire, copy, fence, reload) never takes a
 * torn record: the "being written" mark must be visible before the new
 * fields, and the fields before the commit. x86 keeps stores in order,
 * so a plain store between compiler barriers does; elsewhere (arm64's
 * weaker order) BPF has no fence instruction, and an exchange, which the
 * JITs emit fully ordered, stands for one.
 */
#if defined(__TARGET_ARCH_x86)
#define publish(p, v) do { barrier(); *(p) = (v); barrier(); } while (0)
#else
#define publish(p, v) ((void)__sync_lock_test_and_set((p), (v)))
#endif

/* This CPU's slot head, or NULL when the CPU is not measured (or nothing is recorded). */
static __always_inline struct lj_bpf_head *slot_head(struct lj_bpf_conf **cp, __s32 *slotp)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id(), k;
	struct lj_bpf_conf *c = bpf_map_lookup_elem(&conf, &zero);
	__s32 slot;

	if (!c || !c->on || cpu >= LJ_BPF_MAXCPUS)
		return 0;
	slot = c->slot_of[cpu];
	if (slot < 0)
		return 0;
	k = (__u32)slot;
	*cp = c;
	*slotp = slot;
	return bpf_map_lookup_elem(&heads, &k);
}

static __always_inline struct lj_bpf_rec *rec_at(const struct lj_bpf_conf *c, __s32 slot, __u64 i)
{
	__u32 k = (__u32)slot * c->per_slot + (__u32)(i & (c->per_slot - 1));

	return bpf_map_lookup_elem(&ring, &k);
}

#ifndef LJ_BPF_PLAIN_CLAIM
/* Record @*ip of @slot, its index taken from the head @h. A program on this CPU can be interrupted by another (an irq's inside a softirq's). */
static __always_inline struct lj_bpf_rec *claim(const struct lj_bpf_conf *c, __s32 slot,
						struct lj_bpf_head *h, __u64 *ip)
{
	*ip = __sync_fetch_and_add(&h->head, 1);
	return rec_at(c, slot, *ip);
}
#else
/*
 * The same without the atomic fetch-and-add, which BPF has only since
 * Linux 5.12 (this build is the object for older kernels). Those kernels
 * call a tracepoint's programs with preemption off (newer ones need not:
 * the reason the atomic stays theirs), so on one CPU they nest only as
 * interrupts do: one that comes in runs to its end before the
 * interrupted one goes on. A plain increment is then safe but for one
 * that comes in between its load and its store: both take the same
 * index, and when the interrupted one goes on, the other's record there
 * is committed (seq = index + 1, what an older lap's cannot be). It then
 * takes the next index; after the store, any that comes in takes a later
 * one. Two tries more bound the verifier's path.
 */
static __always_inline struct lj_bpf_rec *claim(const struct lj_bpf_conf *c, __s32 slot,
						struct lj_bpf_head *h, __u64 *ip)
{
	volatile __u64 *head = &h->head;

#pragma unroll
	for (int try = 0; try < 3; try++) {
		__u64 i = *head;
		struct lj_bpf_rec *r;

		*head = i + 1;
		barrier();
		r = rec_at(c, slot, i);
		if (!r)
			return 0;
		if (*(volatile __u64 *)&r->seq != i + 1) {
			*ip = i;
			return r;
		}
	}
	return 0;
}
#endif

/* The next record of this CPU's slot, or NULL when the CPU is not measured. */
static __always_inline struct lj_bpf_rec *reserve(struct lj_bpf_conf **cp, __u32 type)
{
	__s32 slot;
	struct lj_bpf_head *h = slot_head(cp, &slot);
	struct lj_bpf_rec *r;
	__u64 i;

	if (!h || !(r = claim(*cp, slot, h, &i)))
		return 0;
	/* Being written (what no committed index can be); commit() turns it into i + 1. */
	publish(&r->seq, ~0ULL - i);
	r->ts = bpf_ktime_get_ns();
	r->type = type;
	r->pid = (__s32)bpf_get_current_pid_tgid();
	return r;
}

static __always_inline void commit(struct lj_bpf_rec *r)
{
	publish(&r->seq, ~0ULL - r->seq + 1);
}

/* The measured threads' events only, when the reader named them (lj_trace_threads). */
static __always_inline int wanted(const struct lj_bpf_conf *c, __s32 pid)
{
	__u32 n = c->nfilter;

	if (!n)
		return 1;
	for (int i = 0; i < LJ_BPF_FILTER_MAX; i++) {
		if ((__u32)i >= n)
			break;
		if (c->tids[i] == pid)
			return 1;
	}
	return 0;
}

static __always_inline int task_cpu_of(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return (int)p->thread_info.cpu;
	return (int)((struct task_struct___old *)p)->cpu;
}

/* A comm, 16 bytes, read directly (a BTF pointer: two loads, no helper call). */
static __always_inline void comm_of(char *dst, struct task_struct *p)
{
	__builtin_memcpy(dst, p->comm, 16);
}

/*
 * The state the sched_switch event reports (__trace_sched_switch_state):
 * preempted, or the highest of the reported state bits, TASK_IDLE as
 * its own, an RT lock wait or a frozen task as uninterruptible.
 */
static __always_inline __s32 switch_state(bool preempt, unsigned int st, struct task_struct *prev)
{
	unsigned int s;

	if (preempt)
		return 0x100;			/* TASK_REPORT_MAX */
	s = (st | (unsigned int)prev->exit_state) & 0x7f;	/* TASK_REPORT */
	if ((st & 0x402) == 0x402)		/* TASK_IDLE */
		s = 0x80;
	if (st & (0x1000 | 0x8000))		/* TASK_RTLOCK_WAIT, TASK_FROZEN */
		s = 0x2;
	for (int b = 7; b >= 0; b--)
		if (s & (1u << b))
			return (__s32)(1u << b);
	return 0;
}

static __always_inline void fill_switch(bool preempt, struct task_struct *prev,
					struct task_struct *next, unsigned int st)
{
	struct lj_bpf_conf *c;
	struct lj_bpf_rec *r = reserve(&c, LJ_BPF_SWITCH);

	if (!r)
		return;
	r->a = prev->pid;
	r->b = next->pid;
	r->c = prev->prio;
	r->d = next->prio;
	r->e = switch_state(preempt, st, prev);
	comm_of(r->s1, prev);
	comm_of(r->s2, next);
	commit(r);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(lj_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	fill_switch(preempt, prev, next, prev_state);
	return 0;
}

/* Before 5.18 the tracepoint had no prev_state: the task's own (the reader loads one of the two). */
SEC("tp_btf/sched_switch")
int BPF_PROG(lj_switch_old, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned int st;

	if (bpf_core_field_exists(prev->__state))
		st = prev->__state;
	else
		st = (unsigned int)((struct task_struct___old *)prev)->state;
	fill_switch(preempt, prev, next, st);
	return 0;
}

/* A record of type @type about task @p (pid, priority, CPU, comm), or NULL when it is not wanted. */
static __always_inline struct lj_bpf_rec *task_rec(__u32 type, struct task_struct *p)
{
	__u32 zero = 0;
	struct lj_bpf_conf *c = bpf_map_lookup_elem(&conf, &zero);
	struct lj_bpf_rec *r;
	__s32 pid = p->pid;

	if (!c || !wanted(c, pid) || !(r = reserve(&c, type)))
		return NULL;
	r->a = pid;
	r->b = p->prio;
	r->c = task_cpu_of(p);
	comm_of(r->s1, p);
	return r;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(lj_waking, struct task_struct *p)
{
	struct lj_bpf_rec *r = task_rec(LJ_BPF_WAKING, p);

	if (r)
		commit(r);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(lj_migrate, struct task_struct *p, int dest_cpu)
{
	struct lj_bpf_rec *r = task_rec(LJ_BPF_MIGRATE, p);

	if (r) {
		r->d = dest_cpu;
		commit(r);
	}
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(lj_irq_entry, int irq, struct irqaction *action)
{
	struct lj_bpf_conf *c;
	struct lj_bpf_rec *r = reserve(&c, LJ_BPF_IRQ_ENTRY);

	if (!r)
		return 0;
	r->a = irq;
	bpf_probe_read_kernel_str(r->s2, sizeof(r->s2), action->name);
	commit(r);
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(lj_irq_exit, int irq)
{
	struct lj_bpf_conf *c;
	struct lj_bpf_rec *r = reserve(&c, LJ_BPF_IRQ_EXIT);

	if (r) {
		r->a = irq;
		commit(r);
	}
	return 0;
}

static __always_inline void one_number(__u32 type, __s32 v)
{
	struct lj_bpf_conf *c;
	struct lj_bpf_rec *r = reserve(&c, type);

	if (r) {
		r->a = v;
		commit(r);
	}
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(lj_softirq_entry, unsigned int vec)
{
	one_number(LJ_BPF_SOFTIRQ_ENTRY, (__s32)vec);
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(lj_softirq_exit, unsigned int vec)
{
	one_number(LJ_BPF_SOFTIRQ_EXIT, (__s32)vec);
	return 0;
}

SEC("tp_btf/local_timer_entry")
int BPF_PROG(lj_timer_entry, int vector)
{
	one_number(LJ_BPF_TIMER_ENTRY, vector);
	return 0;
}

SEC("tp_btf/local_timer_exit")
int BPF_PROG(lj_timer_exit, int vector)
{
	one_number(LJ_BPF_TIMER_EXIT, vector);
	return 0;
}

SEC("tp_btf/cpu_frequency")
int BPF_PROG(lj_freq, unsigned int frequency, unsigned int cpu_id)
{
	one_number(LJ_BPF_FREQ, (__s32)frequency);
	return 0;
}
