/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_trace_bpf_kernel - the kernel's types the BPF program reads, by name, relocated at load (CO-RE). */
#ifndef LJ_TRACE_BPF_KERNEL_H
#define LJ_TRACE_BPF_KERNEL_H

/*
 * Only what common/sys/lj_trace.bpf.c touches, instead of a vmlinux.h
 * dumped from the build machine's BTF: each structure is marked
 * preserve_access_index, so clang records every field access by name and
 * libbpf rewrites its offset from the running kernel's BTF when the
 * program loads. The layout here is never used as such: the build needs
 * no kernel BTF (a chroot, a cross build for a board), the kernel the
 * program loads into does. A field a kernel lacks fails the load (or is
 * asked with bpf_core_field_exists first), and the tracefs recorder is used.
 */
#include <linux/types.h>
#include <linux/bpf.h>	/* the map types and flags of bpf_helpers.h */

typedef _Bool bool;
#define true 1
#define false 0

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct thread_info {
	__u32 cpu;			/* CONFIG_THREAD_INFO_IN_TASK, 5.16 and later: the task's CPU */
};

struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;		/* 5.14 and later; task_struct___old has "state" */
	int exit_state;
	int prio;
	int pid;
	char comm[16];
};

struct irqaction {
	const char *name;
};

#pragma clang attribute pop

#endif
