/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_trace_bpf_rec - the records the BPF recorder keeps in the kernel, shared by the program and its reader. */
#ifndef LJ_TRACE_BPF_REC_H
#define LJ_TRACE_BPF_REC_H

/*
 * Included by the BPF program (common/sys/lj_trace.bpf.c, after
 * lj_trace_bpf_kernel.h) and by userspace: both take the __u32 types
 * from linux/types.h.
 * Each measured CPU has a slot: a ring of LJ_BPF_REC records in the map
 * "ring" (slot * per_slot + index % per_slot) and a head in "heads",
 * written by that CPU only. The reader maps both (BPF_F_MMAPABLE) and
 * copies out only what an explanation needs: no system call per event,
 * nothing streamed.
 */
#include <linux/types.h>

#define LJ_BPF_MAXCPUS 1024	/* CPU numbers the program knows (CPU_SETSIZE) */
#define LJ_BPF_MAXSLOTS 256	/* measured CPUs at most */
#define LJ_BPF_FILTER_MAX 64	/* LJ_TEV_FILTER_MAX */

/* lj_tev_type's numbers (lj_tev.h cannot be included here; lj_trace_bpf.c checks them). */
enum lj_bpf_type {
	LJ_BPF_SWITCH = 0, LJ_BPF_WAKING = 1, LJ_BPF_MIGRATE = 3, LJ_BPF_IRQ_ENTRY = 4,
	LJ_BPF_IRQ_EXIT = 5, LJ_BPF_SOFTIRQ_ENTRY = 6, LJ_BPF_SOFTIRQ_EXIT = 7,
	LJ_BPF_TIMER_ENTRY = 8, LJ_BPF_TIMER_EXIT = 9, LJ_BPF_FREQ = 12,
};

/*
 * One event: its lj_tev_type and common_pid, then by type
 *   SWITCH:  a prev_pid, b next_pid, c prev_prio, d next_prio, e prev_state
 *            (the tracepoint's report: 0 runnable/preempted, else a state bit),
 *            s1 prev_comm, s2 next_comm
 *   WAKING:  a pid, b prio, c target_cpu, s1 comm
 *   MIGRATE: a pid, b prio, c orig_cpu, d dest_cpu, s1 comm
 *   IRQ_ENTRY: a irq, s2 the handler's name; IRQ_EXIT: a irq
 *   SOFTIRQ_*: a vec; FREQ: a the frequency (no program records cpu_idle)
 * seq is the record's index + 1 once written, ~0 - index while it is
 * being written: the reader takes a record whose seq it expects before
 * and after copying it (an overwritten one is counted as overrun).
 */
struct lj_bpf_rec {
	__u64 seq;
	__u64 ts;		/* bpf_ktime_get_ns: CLOCK_MONOTONIC */
	__u32 type;
	__s32 pid;
	__s32 a, b, c, d, e;
	char s1[16];
	char s2[24];
};

/* A slot's head, alone on its cache line (its CPU writes it at each event). */
struct lj_bpf_head {
	__u64 head;
	__u64 pad[7];
};

/* Set by the reader before it attaches the programs; tids updated while they run. */
struct lj_bpf_conf {
	__u32 on;			/* 0: record nothing */
	__u32 per_slot;			/* records per slot, a power of two */
	__u32 nfilter;			/* 0: every task's wake-ups and migrations */
	__s32 tids[LJ_BPF_FILTER_MAX];
	__s16 slot_of[LJ_BPF_MAXCPUS];	/* CPU -> slot, -1: not measured */
};

#endif
