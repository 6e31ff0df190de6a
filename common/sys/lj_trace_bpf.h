/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lj_trace_bpf - the BPF recorder: lj_trace's events kept in the kernel, per measured CPU, copied out by window. */
#ifndef LJ_TRACE_BPF_H
#define LJ_TRACE_BPF_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lj_tev.h"
#include "lj_trace_bpf_rec.h"
#include "lj_trace_priv.h"

/*
 * docs/explain.md, "The BPF recorder". lj_trace_open uses it where the
 * kernel lets a BPF program attach to its tracepoints with BTF (CO-RE),
 * the tracefs instance otherwise. The programs (common/sys/lj_trace.bpf.c)
 * write each event of a measured CPU into that CPU's ring in a map; the
 * reader maps the rings and copies out only the windows of late samples
 * (lj_trace_drain_keep), so nothing is formatted for or streamed through
 * tracefs, and the measured CPUs run a short program per event instead
 * of the trace buffer's record. Nothing is left behind by a killed run:
 * the programs and maps go with the process's file descriptors.
 */
struct lj_trace_bpf;

/*
 * Load libbpf (lj_dl: lj-cyclic does not link it), the program, size the
 * rings to @buffer_kb per measured CPU (0: LJ_TRACE_BUFFER_KB), and attach.
 * Return: 0, or -errno with one line in @why (-ENOENT no libbpf or no BTF,
 * -EPERM not allowed, ...): the caller falls back to tracefs.
 */
int lj_trace_bpf_open(struct lj_trace_bpf **out, const cpu_set_t *cpus, size_t buffer_kb,
		      char *why, size_t len);

/*
 * For tests: 4 starts the recorder as on a kernel before 5.18 (the
 * sched_switch tracepoint without prev_state), whose guessed programs
 * fail to load: the programs are chosen by the kernel's BTF, with the
 * sched_switch program that reads the task's state itself, which a newer
 * kernel takes too (a program may read fewer arguments than the
 * tracepoint has); 0, the default: the kernel's own form.
 */
extern int lj_trace_bpf_switch_form;

/* Whether @b runs the object for kernels before 5.12. */
bool lj_trace_bpf_is_plain(const struct lj_trace_bpf *b);

/* The measured threads' wake-ups and migrations only (@n 0 or above the filter's room: every task's). */
int lj_trace_bpf_threads(struct lj_trace_bpf *b, const pid_t *tids, int n);

/*
 * lj_trace_wakeups_by_timer: detach the sched_waking program where the
 * local timer's entry and exit programs are attached. Return: whether it did.
 */
bool lj_trace_bpf_drop_waking(struct lj_trace_bpf *b);

/*
 * Measure the programs' own run time in the kernel until lj_trace_bpf_off
 * (BPF_ENABLE_STATS: on while the file descriptor is open, so a killed
 * run leaves it off). Return: 0, or -errno with one line in @why.
 */
int lj_trace_bpf_measure(struct lj_trace_bpf *b, char *why, size_t len);

/* Stop recording (the events kept stay to be read); the measurement, if on, ends here. */
void lj_trace_bpf_off(struct lj_trace_bpf *b);

/* The attached programs' figures of the measurement (none before lj_trace_bpf_off). Return: how many. */
int lj_trace_bpf_programs(const struct lj_trace_bpf *b, struct lj_trace_prog_cost *out, int max);

/*
 * Detach the programs (@on false: the tracepoints run without them, as
 * with no recorder) or attach them again (LJ_EXPLAIN_ALTERNATE's windows).
 * Return: 0, or -errno with one line in @why.
 */
int lj_trace_bpf_attached(struct lj_trace_bpf *b, bool on, char *why, size_t len);

/* The programs stay attached and record nothing (@on false), or record again. */
void lj_trace_bpf_recording(struct lj_trace_bpf *b, bool on);

/* The records written so far on every measured CPU (their rings' heads). */
uint64_t lj_trace_bpf_recorded(const struct lj_trace_bpf *b);

/* What a pass copies: with @all everything left, else the records before @hold_from inside @win. */
struct lj_bpf_keep {
	uint64_t hold_from;
	const struct lj_tev_window *win;
	size_t nwin;
	bool all;
};

/* Copy each measured CPU's records out (lj_trace_bpf_scan) into @bufs, indexed by CPU. Return: 0 or -errno. */
int lj_trace_bpf_read(struct lj_trace_bpf *b, const struct lj_bpf_keep *keep, struct cpu_buf *bufs,
		      struct lj_trace_stats *st);

void lj_trace_bpf_close(struct lj_trace_bpf *b);

/* Pure parts (lj_trace_bpf_scan.c, unit-tested on rings in memory). */

/* A record as lj_tev. Return: 0, or -1 for a type the program never writes. */
int lj_trace_bpf_tev(const struct lj_bpf_rec *r, struct lj_tev *ev);

/* Where one CPU's reading is: the next index, and whether records were left out since the last one copied. */
struct lj_bpf_scan {
	uint64_t tail;
	bool gap;
};

/*
 * Read one CPU's ring (@per_slot records, a power of two) from @sc->tail
 * up to @head, the writer's next index: records overwritten before they
 * were read count as overrun; each record read counts in @st's events and
 * by_type; those @keep selects are appended to @out, an LJ_TEV_LOST marker
 * (lost = 0) before one that follows records left out (as lj_tev_prune).
 * Without @keep->all it stops at a record being written, and at one at or
 * after @keep->hold_from while no more than 1 / LJ_BPF_UNREAD_MAX of the
 * ring is left unread (the next pass reads them); past that, recent
 * records are copied whole (the ring would wrap before their windows are
 * known). Return: 0 or -ENOMEM.
 */
#define LJ_BPF_UNREAD_MAX 4
int lj_trace_bpf_scan(const struct lj_bpf_rec *ring, uint32_t per_slot, uint64_t head,
		      struct lj_bpf_scan *sc, const struct lj_bpf_keep *keep, struct cpu_buf *out,
		      struct lj_trace_stats *st);

/* Sort one CPU's events by time (they are nearly in order), stably. */
void lj_trace_bpf_order(struct lj_tev *ev, size_t n);

#endif
