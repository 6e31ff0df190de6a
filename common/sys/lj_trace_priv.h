/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_trace_priv - what lj_trace.c (the instance) and lj_trace_read.c (reading it) share. */
#ifndef LJ_TRACE_PRIV_H
#define LJ_TRACE_PRIV_H

#include <stdbool.h>

#include "lj_setup.h"
#include "lj_trace.h"

#define TRACEFS LJ_SETUP_TRACEFS

struct tracefs_instance;
struct tracefs_cpu;
struct tep_handle;
struct tep_format_field;
struct kbuffer;

#define LJ_TRACE_MAXFIELDS 7

/* The events enabled, in lj_tev_type terms (lj_tev_needed's selection). */
struct lj_trace_event {
	const char *sys, *name;
	enum lj_tev_type type;
	bool required;
	bool by_pid;		/* filtered on the measured threads (lj_trace_threads) */
	bool instead_of_waking;	/* enabled only when sched_waking is missing */
};
/*
 * In lj_trace_read.c, which maps the events' ids back to these types;
 * lj_trace.c enables them (the instance's file calls the reader's, not
 * the other way round: no two files call each other).
 */
extern const struct lj_trace_event lj_trace_events[];
extern const size_t lj_trace_nevents;

struct cpu_buf {
	struct lj_tev *ev;
	size_t n, cap;
};

/* Append @ev to @b. Return: 0 or -ENOMEM. */
int lj_trace_push(struct cpu_buf *b, const struct lj_tev *ev);

struct lj_setup;
struct lj_trace_bpf;

struct lj_trace {
	struct lj_trace_bpf *bpf;	/* the BPF recorder; NULL: the tracefs instance */
	char bpf_why[256];		/* AUTO on tracefs: why not BPF */
	struct lj_setup *stack;		/* the mount claim and the instance, journaled */
	struct tracefs_instance *inst;
	char dir[256];
	int marker_fd, on_fd, hold_fd;
	bool mounted;
	cpu_set_t cpus;
	int ncpus;
	struct cpu_buf *buf;
	struct lj_tev_seq *seqs;
	struct lj_trace_view view;
	struct tep_handle *tep;
	struct tracefs_cpu **tcpu;	/* per CPU: its trace_pipe_raw, non-blocking */
	void *page;			/* one sub-buffer */
	int psize;
	size_t buffer_kb;
	struct kbuffer *kbuf;
	int type_of_id[4096];		/* event id -> lj_tev_type + 1 (0: not ours) */
	struct tep_format_field *fields[LJ_TEV_NTYPES][LJ_TRACE_MAXFIELDS];	/* per type, fill()'s order */
	struct lj_trace_stats st;
	bool have_waking;		/* sched_waking enabled: sched_wakeup is not */
	int err;			/* first error while reading */
	bool collected;
};

/*
 * The per-CPU arrays, the events' formats parsed and each CPU's
 * trace_pipe_raw opened, once (lj_trace_read.c): lj_trace_open does it
 * before the measurement, so the reader's first pass inside it only reads.
 * Return: 0 or -errno.
 */
int lj_trace_prepare(struct lj_trace *t);

#endif
