// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_trace_bpf - the BPF recorder's reader on rings in memory
 * (lj_trace_bpf_scan): what it copies out of the kernel's ring and what
 * it leaves there, records overwritten or being written, the markers where
 * events were left out, and the order. The round trip of recorded traces
 * through it is in test_explain (the same explanations).
 */
#include "lj_trace_bpf.h"
#include "tap.h"

#define PER 64		/* records per slot */
#define MS 1000000ULL

static struct lj_bpf_rec ring[PER];

/* Record @j: a softirq entry at @ts, committed. */
static void put(uint64_t j, uint64_t ts)
{
	struct lj_bpf_rec *r = &ring[j % PER];

	memset(r, 0, sizeof(*r));
	r->seq = j + 1;
	r->ts = ts;
	r->type = LJ_BPF_SOFTIRQ_ENTRY;
	r->a = 3;
	r->pid = 42;
}

static void test_conversion(void)
{
	struct lj_bpf_rec r = { .seq = 1, .ts = 5, .type = LJ_BPF_SWITCH, .pid = 7, .a = 7, .b = 9,
				.c = 120, .d = 49, .e = 1, .s1 = "prev", .s2 = "next-with-a-long-name" };
	struct lj_tev ev;

	is_int(lj_trace_bpf_tev(&r, &ev), 0, "a switch converts");
	ok(ev.type == LJ_TEV_SWITCH && ev.ts == 5 && ev.pid == 7 && ev.sw.prev_pid == 7 && ev.sw.next_pid == 9 &&
	   ev.sw.prev_prio == 120 && ev.sw.next_prio == 49 && ev.sw.prev_state == 1,
	   "its pids, priorities and state");
	is_str(ev.sw.prev_comm, "prev", "prev_comm");
	is_str(ev.sw.next_comm, "next-with-a-lon", "next_comm bounded to a comm's 15 characters");
	r = (struct lj_bpf_rec){ .type = LJ_BPF_IRQ_ENTRY, .a = 36, .s2 = "virtio1-req.0" };
	is_int(lj_trace_bpf_tev(&r, &ev), 0, "an irq entry converts");
	ok(ev.irq.irq == 36 && !strcmp(ev.irq.name, "virtio1-req.0"), "with its number and name");
	r = (struct lj_bpf_rec){ .type = LJ_BPF_FREQ, .a = 2400000 };
	lj_trace_bpf_tev(&r, &ev);
	ok(ev.type == LJ_TEV_FREQ && ev.freq_khz == 2400000, "cpu_frequency's kHz");
	r = (struct lj_bpf_rec){ .type = LJ_TEV_LOST };
	is_int(lj_trace_bpf_tev(&r, &ev), -1, "a type the program never writes is refused");
	r.type = 99;
	is_int(lj_trace_bpf_tev(&r, &ev), -1, "...and one out of range");
}

/*
 * 40 records 1 ms apart; a window around 10-12 ms; the hold at 30 ms:
 * the window's records come out with a marker before them (records were
 * left out), those before the hold outside it stay out, the recent ones
 * stay in the ring for the next pass, which takes them all at the end.
 */
static void test_windows(void)
{
	struct lj_tev_window win = { 10 * MS, 12 * MS };
	struct lj_bpf_keep keep = { 30 * MS, &win, 1, false };
	struct lj_bpf_keep all = { .all = true };
	struct lj_trace_stats st = { 0 };
	struct lj_bpf_scan sc = { 0 };
	struct cpu_buf out = { 0 };

	for (uint64_t j = 0; j < 40; j++)
		put(j, (j + 1) * MS);
	is_int(lj_trace_bpf_scan(ring, PER, 40, &sc, &keep, &out, &st), 0, "a pass");
	is_int((int)out.n, 4, "the window's three events and a marker before them");
	ok(out.n == 4 && out.ev[0].type == LJ_TEV_LOST && out.ev[0].ts == 10 * MS && out.ev[0].lost == 0 &&
	   out.ev[1].ts == 10 * MS && out.ev[3].ts == 12 * MS && out.ev[1].softirq_vec == 3,
	   "the marker at the first kept event's time, then the events");
	is_int((int)sc.tail, 29, "it stopped at the first record of the hold (30 ms), left in the ring");
	is_int((int)st.events, 29, "the records it read are counted");
	is_int((int)st.by_type[LJ_TEV_SOFTIRQ_ENTRY], 29, "...by type");
	is_int(lj_trace_bpf_scan(ring, PER, 40, &sc, &all, &out, &st), 0, "the last pass");
	ok(out.n == 16 && out.ev[4].type == LJ_TEV_LOST && out.ev[4].ts == 30 * MS && out.ev[15].ts == 40 * MS,
	   "it takes the rest, a marker where the window's pass left records out");
	is_int((int)st.overrun, 0, "nothing overwritten");
	free(out.ev);
}

/* The writer went round: what it overwrote is counted, and a marker says so. */
static void test_overrun(void)
{
	struct lj_bpf_keep all = { .all = true };
	struct lj_trace_stats st = { 0 };
	struct lj_bpf_scan sc = { 0 };
	struct cpu_buf out = { 0 };

	for (uint64_t j = 0; j < PER + 10; j++)
		put(j, (j + 1) * MS);
	lj_trace_bpf_scan(ring, PER, PER + 10, &sc, &all, &out, &st);
	is_int((int)st.overrun, 10, "the 10 records overwritten are overrun");
	ok(out.n == PER + 1 && out.ev[0].type == LJ_TEV_LOST && out.ev[1].ts == 11 * MS,
	   "the rest read, after a marker");
	free(out.ev);
}

/* A record being written (its seq not yet its index) ends a pass; overwritten under the reader counts. */
static void test_in_flight(void)
{
	struct lj_tev_window win = { 0, 100 * MS };
	struct lj_bpf_keep keep = { 100 * MS, &win, 1, false };
	struct lj_trace_stats st = { 0 };
	struct lj_bpf_scan sc = { 0 };
	struct cpu_buf out = { 0 };

	for (uint64_t j = 0; j < 8; j++)
		put(j, (j + 1) * MS);
	ring[5].seq = ~0ULL - 5;	/* the program's mark while it writes record 5 */
	lj_trace_bpf_scan(ring, PER, 8, &sc, &keep, &out, &st);
	ok(out.n == 5 && sc.tail == 5, "the pass stops before the record being written");
	ring[5].seq = 6;
	ring[6].seq = 7 + PER;		/* record 6 overwritten a lap later */
	lj_trace_bpf_scan(ring, PER, 8, &sc, &keep, &out, &st);
	ok(out.n == 8 && sc.tail == 8 && st.overrun == 1 && out.ev[6].type == LJ_TEV_LOST,
	   "the next takes it; an overwritten one is overrun, a marker in its place");
	free(out.ev);
}

/* A flood: more than a quarter of the ring unread, the recent records are copied rather than lost. */
static void test_flood(void)
{
	struct lj_bpf_keep keep = { 1 * MS, NULL, 0, false };
	struct lj_trace_stats st = { 0 };
	struct lj_bpf_scan sc = { 0 };
	struct cpu_buf out = { 0 };
	int n = PER / LJ_BPF_UNREAD_MAX + 5;

	for (int j = 0; j < n; j++)
		put((uint64_t)j, 2 * MS + (uint64_t)j);
	lj_trace_bpf_scan(ring, PER, (uint64_t)n, &sc, &keep, &out, &st);
	is_int((int)out.n, 5, "recent records beyond a quarter of the ring are copied out");
	is_int((int)(n - (int)sc.tail), PER / LJ_BPF_UNREAD_MAX, "a quarter stays in the kernel");
	free(out.ev);
}

static void test_order(void)
{
	struct lj_tev ev[5] = { { .ts = 1 }, { .ts = 4 }, { .ts = 3, .pid = 1 }, { .ts = 3, .pid = 2 }, { .ts = 5 } };

	lj_trace_bpf_order(ev, 5);
	ok(ev[0].ts == 1 && ev[1].ts == 3 && ev[1].pid == 1 && ev[2].pid == 2 && ev[3].ts == 4 && ev[4].ts == 5,
	   "an interrupted program's record put in time order, ties kept in order");
}

int main(void)
{
	plan_no_plan();
	test_conversion();
	test_windows();
	test_overrun();
	test_in_flight();
	test_flood();
	test_order();
	return done();
}
