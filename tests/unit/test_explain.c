// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_explain - the cause attribution on recorded traces
 * (the .trace files in tests/fixtures/explain: this machine's kernel text output,
 * recorded with record.sh there). Expected shares are the trace's own
 * timestamps added by hand (microsecond resolution), given beside each test.
 */
#include <errno.h>
#include <sched.h>

#include "lj_explain.h"
#include "lj_trace_bpf.h"
#include "tap.h"

#include <stdbool.h>

#define MAXEV 4096
#define NCPU 2
#define US 1000ULL

static struct lj_tev evs[NCPU][MAXEV];
static struct lj_tev_seq seqs[NCPU];
static struct lj_trace_view view = { seqs, NCPU };

/* Load a fixture; a "[LOST N EVENTS]" line takes the time of the CPU's next event. */
static int load(const char *name)
{
	char path[512], line[512];
	const char *src = getenv("LJ_SRC");
	bool pending[NCPU] = { false };
	size_t n[NCPU] = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/explain/%s", src ? src : ".", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct lj_tev ev;
		int cpu = -1, r = lj_tev_parse_line(line, &ev, &cpu);

		if (r <= 0 || cpu < 0 || cpu >= NCPU || n[cpu] == MAXEV)
			continue;
		if (ev.type == LJ_TEV_LOST) {
			evs[cpu][n[cpu]++] = ev;
			pending[cpu] = true;
			continue;
		}
		if (pending[cpu])
			evs[cpu][n[cpu] - 1].ts = ev.ts;
		pending[cpu] = false;
		evs[cpu][n[cpu]++] = ev;
	}
	fclose(f);
	for (int c = 0; c < NCPU; c++)
		seqs[c] = (struct lj_tev_seq){ evs[c], n[c] };
	return 0;
}

static const struct lj_cause *find(const struct lj_explanation *x, enum lj_cause_kind k, int id)
{
	for (int i = 0; i < x->ncauses; i++)
		if (x->causes[i].kind == k && x->causes[i].id == id)
			return &x->causes[i];
	return NULL;
}

static uint64_t ns_of(const struct lj_explanation *x, enum lj_cause_kind k, int id)
{
	const struct lj_cause *c = find(x, k, id);

	return c ? c->ns : 0;
}

static uint64_t total(const struct lj_explanation *x)
{
	uint64_t s = 0;

	for (int i = 0; i < x->ncauses; i++)
		s += x->causes[i].ns;
	return s;
}

static void test_parse(void)
{
	struct lj_tev ev;
	int cpu = -1;

	is_int(lj_tev_parse_line("      interferer-9667    [001] d..2.   585.172241: sched_switch: "
				 "prev_comm=interferer prev_pid=9667 prev_prio=0 prev_state=S ==> "
				 "next_comm=lj-cyclic next_pid=9670 next_prio=49\n", &ev, &cpu), 1,
	       "sched_switch line parses");
	ok(cpu == 1 && ev.type == LJ_TEV_SWITCH && ev.ts == 585172241000ULL && ev.pid == 9667 &&
	   ev.sw.prev_pid == 9667 && ev.sw.next_pid == 9670 && ev.sw.next_prio == 49 &&
	   ev.sw.prev_state == 1 && !strcmp(ev.sw.next_comm, "lj-cyclic"),
	   "its fields: cpu, time, pids, prio, state, comm");
	is_int(lj_tev_parse_line("  <idle>-0  [000] d.h1.  1.5: irq_handler_entry: irq=36 name=virtio1-req.0",
				 &ev, &cpu), 1, "irq_handler_entry parses");
	ok(ev.irq.irq == 36 && !strcmp(ev.irq.name, "virtio1-req.0") && ev.pid == 0 &&
	   ev.ts == 1500000000ULL && cpu == 0, "irq number, name, idle pid, fraction as ns");
	is_int(lj_tev_parse_line("  cc1-9642  [001] d.h2.  585.168226: sched_waking: comm=lj-cyclic pid=9670 "
				 "prio=49 target_cpu=001", &ev, &cpu), 1, "sched_waking parses");
	ok(ev.type == LJ_TEV_WAKING && ev.wake.pid == 9670, "as sched_waking (not sched_wakeup)");
	is_int(lj_tev_parse_line("  cc1-9642  [001] dNh3.  585.168228: sched_wakeup: comm=lj-cyclic pid=9670 "
				 "prio=49 target_cpu=001", &ev, &cpu), 1, "sched_wakeup parses");
	ok(ev.type == LJ_TEV_WAKEUP, "as sched_wakeup");
	is_int(lj_tev_parse_line("CPU:1 [LOST 12 EVENTS]", &ev, &cpu), 1, "a LOST line parses");
	ok(ev.type == LJ_TEV_LOST && ev.lost == 12 && cpu == 1, "its count and CPU");
	is_int(lj_tev_parse_line("# tracer: nop", &ev, &cpu), 0, "a header is no event");
	is_int(lj_tev_parse_line("  a-1  [000] ....  1.0: sched_switch: prev_comm=a prev_pid=x", &ev, &cpu),
	       -EINVAL, "a broken sched_switch is -EINVAL");

	/*
	 * A task's name is up to 15 bytes of anything its process chose,
	 * printed as it is: spaces (Android's "Jit thread pool", "Signal
	 * Catcher"), "=", "] ", a field's own text. The kept trace (-b) is
	 * read as this text.
	 */
	is_int(lj_tev_parse_line(" Jit thread pool-4242    [001] d..2.   10.000001: sched_switch: "
				 "prev_comm=Jit thread pool prev_pid=4242 prev_prio=120 prev_state=S ==> "
				 "next_comm=Signal Catcher next_pid=4243 next_prio=120", &ev, &cpu), 1,
	       "names with spaces: sched_switch parses");
	ok(!strcmp(ev.sw.prev_comm, "Jit thread pool") && !strcmp(ev.sw.next_comm, "Signal Catcher") &&
	   ev.pid == 4242 && ev.sw.prev_pid == 4242 && ev.sw.next_pid == 4243 && cpu == 1,
	   "...both names whole, the pids and the CPU");
	is_int(lj_tev_parse_line("    a next_pid=7-5       [001] d..2.   10.000002: sched_switch: "
				 "prev_comm=a next_pid=7 prev_pid=5 prev_prio=120 prev_state=R+ ==> "
				 "next_comm=b prev_pid=9 next_pid=2 next_prio=98", &ev, &cpu), 1,
	       "names holding other fields' text parse");
	ok(!strcmp(ev.sw.prev_comm, "a next_pid=7") && ev.sw.prev_pid == 5 && ev.sw.prev_state == 0x100 &&
	   !strcmp(ev.sw.next_comm, "b prev_pid=9") && ev.sw.next_pid == 2 && ev.sw.next_prio == 98,
	   "...the fields are the kernel's, not the names'");
	is_int(lj_tev_parse_line("  x-1 [002] 1: y-3       [001] dNh2.   10.000003: sched_waking: "
				 "comm=z pid=3 prio=9 pid=8 prio=120 target_cpu=001", &ev, &cpu), 1,
	       "a name that looks like the line's prefix parses");
	ok(ev.pid == 3 && cpu == 1 && ev.ts == 10000003000ULL && !strcmp(ev.wake.comm, "z pid=3 prio=9") &&
	   ev.wake.pid == 8 && ev.wake.prio == 120, "...its task, CPU and time are the prefix's, after the name");
	is_int(lj_tev_parse_line("  CPU:1 [LOST 2-9       [001] d..2.   10.000004: sched_waking: "
				 "comm=CPU:1 [LOST 2 pid=9 prio=99 target_cpu=001", &ev, &cpu), 1,
	       "a name starting \"CPU:1 [LOST 2\" is its event");
	ok(ev.type == LJ_TEV_WAKING && ev.wake.pid == 9, "...a sched_waking, not a lost-events marker");
	is_int(lj_tev_parse_line("  <idle>-0  [000] d.h1.  1.5: irq_handler_entry: irq=40 name=my dev 0", &ev, &cpu),
	       1, "an interrupt's name with spaces parses");
	ok(!strcmp(ev.irq.name, "my dev 0") && ev.irq.irq == 40, "...whole");
	is_int(lj_tev_parse_line("  x-1  [-1] d..2.  1.5: sched_waking: comm=x pid=1 prio=1 target_cpu=001",
				 &ev, &cpu), 0, "a negative CPU is no event");
	is_int(lj_tev_parse_line("  x-1  [001] d..2.  18446744073.5: local_timer_entry: vector=236", &ev, &cpu),
	       0, "a time past 2^64 ns is no event");
}

/*
 * lj-cyclic (pid 9670, FIFO 50 = kernel prio 49) due at 585.169225 on CPU 1
 * while the spinner (pid 9667, FIFO 99, 3000 us) runs: woken at 169227,
 * switched in at 172241. In [169225, 172250): local timer 169226-169230 and
 * 172005-172016 (15 us), RCU softirq 172017-172018 (1 us), the spinner
 * 1 + 2775 + 1 + 223 = 3000 us, the thread itself 172241-172250 (9 us).
 */
static void test_wake_behind_fifo(void)
{
	struct lj_explanation x;
	const struct lj_cause *hog;
	char text[512], sch[24];

	is_int(load("wake-behind-fifo.trace"), 0, "wake-behind-fifo fixture loads");
	is_int(lj_explain(&view, 1, 9670, 585169225 * US, 585172250 * US, &x), 0, "explained");
	is_int(x.state, LJ_STATE_WAITING, "woken in time, waited for the CPU");
	is_int(x.wake_delay_ns, 2 * US, "woken 2 us after due");
	is_int(x.runq_wait_ns, 3014 * US, "waited 3014 us on the run queue");
	hog = find(&x, LJ_CAUSE_TASK, 9667);
	ok(hog && x.causes[0].id == 9667 && x.causes[0].kind == LJ_CAUSE_TASK,
	   "the spinner is the first cause");
	is_int(hog ? hog->ns : 0, 3000 * US, "the spinner ran 3000 us of it");
	is_str(hog ? lj_cause_sched_text(hog, sch, sizeof(sch)) : "", "RT 99",
	       "its priority from the trace: RT 99");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 15 * US, "local timer 15 us");
	is_int(ns_of(&x, LJ_CAUSE_SOFTIRQ, 9), 1 * US, "RCU softirq 1 us");
	is_int(ns_of(&x, LJ_CAUSE_SELF, 9670), 9 * US, "the thread itself 9 us");
	is_int(x.lower_prio_ns, 0, "nothing of lower priority held the CPU (the spinner outranks it)");
	is_int(total(&x), x.latency_ns, "the shares add up to the latency");
	is_int(lj_explain_unaccounted(&x), 0, "nothing unaccounted");
	ok(!x.incomplete, "the trace covers the interval");
	ok(!x.switch_inferred, "no switch inferred (this trace has the switches)");
	lj_explain_text(&x, "spike", 585 * 1000000000ULL, text, sizeof(text));
	is_str(text, "spike 3.02 ms on CPU 1 at +0.169 s (waiting for CPU): interferer (pid 9667, "
	       "RT 99) ran 3.00 ms; irq local timer 15.0 us; itself 9.00 us; softirq RCU 1.00 us; "
	       "100 % explained", "the text line");
	/* A comm may hold any byte (prctl PR_SET_NAME): the text shows control characters as '?'. */
	if (hog) {
		snprintf(x.causes[hog - x.causes].name, sizeof(hog->name), "\x1b[2J\nx\a");
		lj_explain_text(&x, "spike", 585 * 1000000000ULL, text, sizeof(text));
		ok(strstr(text, "?[2J?x? (pid 9667,") && !strpbrk(text, "\x1b\n\a"),
		   "a task name's escape, newline and bell are shown as '?'");
	}
}

/*
 * A busy SCHED_OTHER shell (pid 9680) on CPU 1 preempted at 585.608276 by
 * the spinner (FIFO 99), back at 611470 without a wake-up. In
 * [608263, 611500): local timer 608263-608272 (9 us), itself 608272-608276
 * (4 us), spinner 608276-611470 (3194 us), itself again 611470-611500 (30).
 */
static void test_preempt(void)
{
	struct lj_explanation x;

	is_int(load("preempt.trace"), 0, "preempt fixture loads");
	is_int(lj_explain(&view, 1, 9680, 585608263 * US, 585611500 * US, &x), 0, "explained");
	is_int(x.state, LJ_STATE_PREEMPTED, "preempted, not woken");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 9681), 3194 * US, "the spinner ran 3194 us");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 9 * US, "local timer 9 us");
	is_int(ns_of(&x, LJ_CAUSE_SELF, 9680), 34 * US, "itself 34 us");
	is_int(x.lower_prio_ns, 0, "a SCHED_OTHER thread outranks nobody");
	is_int(total(&x), 3237 * US, "the shares add up to 3237 us");
}

/*
 * A loopback UDP flood (pid 15295) on CPU 1: NET_RX softirqs every few us.
 * In [631.314640, 631.315850) (1210 us) for a thread absent from the
 * trace: 80 NET_RX softirqs of 46 us, 3 of them under the local timer that
 * hit inside a softirq, so 43 us; local timer 11 us; bash 314675-315060
 * (385 us), tr 315060-315646 (586 us), lj-cyclic 314669-314675 and
 * 315695-315705 (16 us); the flood the rest.
 */
static void test_storm(void)
{
	struct lj_explanation x;
	const struct lj_cause *rx;

	is_int(load("storm.trace"), 0, "storm fixture loads");
	is_int(lj_explain(&view, 1, 4242, 631314640 * US, 631315850 * US, &x), 0, "explained");
	is_int(x.state, LJ_STATE_UNKNOWN, "a thread the trace never shows: state unknown");
	rx = find(&x, LJ_CAUSE_SOFTIRQ, 3);
	is_int(rx ? rx->ns : 0, 43 * US, "NET_RX softirq 43 us (nested timer excluded)");
	ok(rx && !strcmp(rx->name, "NET_RX"), "named NET_RX");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 11 * US, "local timer 11 us");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 18831), 385 * US, "bash 385 us");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 15500), 586 * US, "tr 586 us");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 15313), 16 * US, "lj-cyclic 16 us");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 15295), (1210 - 43 - 11 - 385 - 586 - 16) * US,
	       "the flood the rest");
	is_int(total(&x), 1210 * US, "the shares add up");
}

/*
 * Unaccounted time, on the wake-behind-fifo trace:
 *  - due at 585.173000 but the timer fired at 173228: cc1 (pid 9642,
 *    prio 120, which lj-cyclic preempts) ran 172254-173228 before the
 *    wake-up: nothing explains the late interrupt, 228 us unaccounted,
 *    the timer 173228-173237, cc1 173237-173241 (after the wake-up: it
 *    did hold the CPU), the thread 173241-173245; "woken late";
 *  - an interval starting 100 us before the trace's first event
 *    (585.168015): 100 us "no events", flagged incomplete;
 *  - lost events (the "[LOST ...]" line added by hand in lost.trace,
 *    before 172005): 169230-172005 unknown.
 */
static void test_unaccounted(void)
{
	struct lj_explanation x;
	char text[512];

	is_int(load("wake-behind-fifo.trace"), 0, "fixture loads");
	is_int(lj_explain(&view, 1, 9670, 585173000 * US, 585173245 * US, &x), 0, "late timer explained");
	is_int(x.state, LJ_STATE_WOKEN_LATE, "woken late");
	is_int(x.wake_delay_ns, 230 * US, "woken 230 us after due");
	is_int(ns_of(&x, LJ_CAUSE_UNACCOUNTED, 1), 228 * US, "228 us unaccounted before the wake-up");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 9642), 4 * US, "cc1 blamed only after the wake-up (4 us)");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 9 * US, "the late timer's own 9 us");
	is_int(total(&x), 245 * US, "the shares add up");
	is_int(x.lower_prio_ns, 4 * US, "lower priority after the wake-up: cc1's 4 us, not the 224 us before it");
	lj_explain_text(&x, "spike", 585 * 1000000000ULL, text, sizeof(text));
	ok(strstr(text, "; lower priority ran 4.00 us after its wake-up; ") != NULL,
	   "the text line says so");

	is_int(lj_explain(&view, 1, 9670, 585167915 * US, 585168200 * US, &x), 0, "early explained");
	is_int(ns_of(&x, LJ_CAUSE_UNACCOUNTED, 0), 100 * US, "100 us before the trace: no events");
	ok(x.incomplete, "flagged incomplete");
	is_int(total(&x), 285 * US, "the shares add up");

	is_int(load("lost.trace"), 0, "lost fixture loads");
	is_int(lj_explain(&view, 1, 9670, 585169225 * US, 585172250 * US, &x), 0, "explained");
	is_int(ns_of(&x, LJ_CAUSE_UNACCOUNTED, 0), 2775 * US, "2775 us lost");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 9667), 225 * US, "the spinner's 225 us still seen");
	ok(x.incomplete, "flagged incomplete");
	is_int(total(&x), x.latency_ns, "the shares add up");
}

/* The same explanation twice sums to twice its causes; a full table folds into "other". */
static void test_aggregate(const struct lj_explanation *x)
{
	struct lj_cause agg[8];
	int n = lj_explain_aggregate(agg, lj_explain_aggregate(agg, 0, 8, x), 8, x);
	uint64_t sum = 0;

	is_int(n, x->ncauses, "as many aggregated causes as distinct ones");
	for (int i = 0; i < n; i++)
		sum += agg[i].ns;
	is_int(sum, 2 * x->latency_ns, "aggregated time is twice the latency");
	n = lj_explain_aggregate(agg, lj_explain_aggregate(agg, 0, 2, x), 2, x);
	is_int(n, 2, "two slots used");
	is_int(agg[1].kind, LJ_CAUSE_OTHER, "the last slot folds the rest as other");
	is_int(agg[0].ns + agg[1].ns, 2 * x->latency_ns, "nothing lost in the folding");
}

/*
 * lj-cyclic (pid 8574) due on an idle CPU 0 (cpu_idle state 1 since
 * 735.935551). In [935610, 935622): idle until the timer interrupt at
 * 935612 (exit latency 2 us), the timer 935612-935617, idle again
 * 935617-935619 (leaving idle: cpu_idle exit at 935618, switch at 935619),
 * the thread 935619-935622.
 */
static void test_idle_exit(void)
{
	struct lj_explanation x;

	is_int(load("idle-exit.trace"), 0, "idle-exit fixture loads");
	is_int(lj_explain(&view, 0, 8574, 735935610 * US, 735935622 * US, &x), 0, "explained");
	is_int(x.idle_exit_ns, 2 * US, "idle exit latency 2 us");
	is_int(ns_of(&x, LJ_CAUSE_IDLE, 0), 4 * US, "idle 4 us");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 5 * US, "local timer 5 us");
	is_int(ns_of(&x, LJ_CAUSE_SELF, 8574), 3 * US, "itself 3 us");
	is_int(x.state, LJ_STATE_WAITING, "woken 2 us late, then 7 us to run: waiting");
	is_int(total(&x), 12 * US, "the shares add up");
	ok(!x.switch_inferred, "CPU 0 traces its switches from idle: nothing inferred");
	test_aggregate(&x);
}

/*
 * A kernel that does not trace the switch away from idle (the fixture's
 * CPU 1: switches to idle, none from it): the spinner's first event comes
 * 130 us after the interrupt that woke it; that gap is the spinner's. In
 * [000100, 003105): idle 100-102 (2 us), local timer 102-112 and 242-253
 * (21 us), spinner 112-242, 253-254 and 256-3100 (2975 us), TIMER softirq
 * 254-256 (2 us), itself 3100-3105 (5 us). Before, the 130 us were idle.
 */
static void test_idle_untraced(void)
{
	struct lj_explanation x;

	is_int(load("idle-untraced.trace"), 0, "idle-untraced fixture loads");
	is_int(lj_explain(&view, 1, 6585, 700000100 * US, 700003105 * US, &x), 0, "explained");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 6580), 2975 * US, "the spinner 2975 us: the untraced switch's gap is its");
	is_int(ns_of(&x, LJ_CAUSE_IDLE, 0), 2 * US, "idle 2 us, until the interrupt");
	is_int(ns_of(&x, LJ_CAUSE_IRQ, -1), 21 * US, "local timer 21 us");
	is_int(ns_of(&x, LJ_CAUSE_SOFTIRQ, 1), 2 * US, "TIMER softirq 2 us");
	is_int(ns_of(&x, LJ_CAUSE_SELF, 6585), 5 * US, "itself 5 us");
	is_int(x.idle_exit_ns, 2 * US, "idle exit 2 us");
	is_int(x.wake_delay_ns, 5 * US, "woken 5 us after due");
	is_int(x.state, LJ_STATE_WAITING, "then waited for the CPU");
	is_int(total(&x), x.latency_ns, "the shares add up to the latency");
	ok(x.switch_inferred, "...and it says the switch from idle was inferred");
}

/*
 * Pruning keeps the windows and everything after @before, and marks the
 * holes: on the wake-behind-fifo trace, keeping only [169225, 172250]
 * (and nothing after) still explains that interval exactly as before.
 */
static void test_prune(void)
{
	struct lj_tev_window keep[] = { { 585169000 * US, 585172300 * US } };
	struct lj_explanation x;
	size_t n0, n;

	is_int(load("wake-behind-fifo.trace"), 0, "fixture loads");
	n0 = seqs[1].n;
	n = lj_tev_prune(evs[1], seqs[1].n, 585180000 * US, keep, 1);
	seqs[1].n = n;
	ok(n < n0, "events outside the window are dropped");
	is_int(evs[1][0].type, LJ_TEV_LOST, "the hole before the window is marked");
	ok(evs[1][1].ts >= keep[0].from && evs[1][n - 1].ts <= keep[0].to, "what is left is the window");
	is_int(lj_explain(&view, 1, 9670, 585169225 * US, 585172250 * US, &x), 0, "explained after pruning");
	is_int(ns_of(&x, LJ_CAUSE_TASK, 9667), 3000 * US, "the spinner still ran 3000 us");
	is_int(total(&x), x.latency_ns, "the shares still add up");
	ok(!x.incomplete, "a hole before the interval does not make it incomplete");
	is_int(lj_tev_prune(evs[1], n, 0, NULL, 0), n, "nothing before 0: nothing dropped");
}

/* The span of @x at @depth whose cause is (@kind, @id) starting at @start_us, or NULL. */
static const struct lj_span *span_at(const struct lj_explanation *x, int depth, enum lj_cause_kind kind,
				     int id, uint64_t start_us)
{
	for (int i = 0; i < x->nspans; i++) {
		const struct lj_span *s = &x->spans[i];

		if (s->depth == depth && s->start_ns == start_us * US && s->kind == kind && s->id == id)
			return s;
	}
	return NULL;
}

/*
 * When each cause held the CPU, on the wake-behind-fifo interval above:
 * the spinner from due (169225) to the switch at 172241, over the local
 * timers 169226-169230 and 172005-172016 and the RCU softirq
 * 172017-172018 that came on top of it; then the thread to 172250.
 */
static void test_spans(void)
{
	const struct lj_span *hog, *self, *t1, *t2, *rcu;
	struct lj_explanation x;
	uint64_t irq_ns = 0;

	is_int(load("wake-behind-fifo.trace"), 0, "fixture loads for the spans");
	is_int(lj_explain(&view, 1, 9670, 585169225 * US, 585172250 * US, &x), 0, "explained");
	is_int(x.nspans, 5, "five spans: the spinner, the thread, two timers, one softirq");
	hog = span_at(&x, 0, LJ_CAUSE_TASK, 9667, 585169225);
	self = span_at(&x, 0, LJ_CAUSE_SELF, 9670, 585172241);
	t1 = span_at(&x, 1, LJ_CAUSE_IRQ, -1, 585169226);
	t2 = span_at(&x, 1, LJ_CAUSE_IRQ, -1, 585172005);
	rcu = span_at(&x, 1, LJ_CAUSE_SOFTIRQ, 9, 585172017);
	is_int(hog ? hog->end_ns : 0, 585172241 * US, "the spinner's span: due to its switch-out, over the interrupts");
	is_int(self ? self->end_ns : 0, 585172250 * US, "the thread's span: switch-in to ran");
	is_int(t1 ? t1->end_ns : 0, 585169230 * US, "the first timer interrupt, depth 1");
	is_int(t2 ? t2->end_ns : 0, 585172016 * US, "the second");
	is_int(rcu ? rcu->end_ns : 0, 585172018 * US, "the RCU softirq, depth 1");
	for (int i = 0; i < x.nspans; i++)
		if (x.spans[i].depth == 1)
			irq_ns += x.spans[i].end_ns - x.spans[i].start_ns;
	is_int(irq_ns, ns_of(&x, LJ_CAUSE_IRQ, -1) + ns_of(&x, LJ_CAUSE_SOFTIRQ, 9),
	       "the depth-1 spans hold exactly the interrupts' shares");
	is_int(x.spans_dropped, 0, "none dropped");
	is_str(hog ? hog->name : "", "interferer", "a span carries its cause's name");
}

/* Drop what the recorder does not record (lj_tev_needed, measuring @tid): in place, per CPU. */
/* Keep in every CPU's events those @keep takes (about thread @tid). Return: how many were dropped. */
static size_t keep_events(bool (*keep)(const struct lj_tev *e, pid_t tid), pid_t tid)
{
	size_t dropped = 0;

	for (int c = 0; c < NCPU; c++) {
		size_t k = 0;

		for (size_t i = 0; i < seqs[c].n; i++)
			if (keep(&evs[c][i], tid))
				evs[c][k++] = evs[c][i];
		dropped += seqs[c].n - k;
		seqs[c].n = k;
	}
	return dropped;
}

static bool needed(const struct lj_tev *e, pid_t tid)
{
	return lj_tev_needed(e, &tid, 1, true);
}

static size_t keep_needed(pid_t tid)
{
	return keep_events(needed, tid);
}

/* An event as the BPF recorder's program writes it (lj_trace_bpf_rec.h's layout), as record @j. */
static void to_rec(const struct lj_tev *e, uint64_t j, struct lj_bpf_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->seq = j + 1;
	r->ts = e->ts;
	r->type = (uint32_t)e->type;
	r->pid = e->pid;
	switch (e->type) {
	case LJ_TEV_SWITCH:
		r->a = e->sw.prev_pid, r->b = e->sw.next_pid, r->c = e->sw.prev_prio;
		r->d = e->sw.next_prio, r->e = (int32_t)e->sw.prev_state;
		memcpy(r->s1, e->sw.prev_comm, sizeof(r->s1));
		memcpy(r->s2, e->sw.next_comm, sizeof(e->sw.next_comm));
		break;
	case LJ_TEV_WAKING:
		r->a = e->wake.pid, r->b = e->wake.prio, r->c = e->wake.target_cpu;
		memcpy(r->s1, e->wake.comm, sizeof(r->s1));
		break;
	case LJ_TEV_MIGRATE:
		r->a = e->mig.pid, r->b = e->mig.prio, r->c = e->mig.orig_cpu, r->d = e->mig.dest_cpu;
		memcpy(r->s1, e->mig.comm, sizeof(r->s1));
		break;
	case LJ_TEV_IRQ_ENTRY:
		memcpy(r->s2, e->irq.name, sizeof(r->s2));
		/* fallthrough */
	case LJ_TEV_IRQ_EXIT:
		r->a = e->irq.irq;
		break;
	case LJ_TEV_SOFTIRQ_ENTRY:
	case LJ_TEV_SOFTIRQ_EXIT:
		r->a = (int32_t)e->softirq_vec;
		break;
	case LJ_TEV_FREQ:
		r->a = (int32_t)e->freq_khz;
		break;
	default:
		break;
	}
}

/*
 * The loaded events through the BPF recorder: written into a ring as its
 * program writes them (events lost in the trace: a record overwritten
 * before it was read), read back by its reader (lj_trace_bpf_scan).
 * Return: 0, or -1 when the reader did not give back as many events.
 */
static int through_bpf(void)
{
	static struct lj_bpf_rec ring[MAXEV];
	int ret = 0;

	for (int c = 0; c < NCPU; c++) {
		struct lj_bpf_scan sc = { 0 };
		struct lj_bpf_keep all = { .all = true };
		struct lj_trace_stats st = { 0 };
		struct cpu_buf out = { 0 };
		uint64_t j = 0;

		for (size_t i = 0; i < seqs[c].n; i++, j++) {
			to_rec(&evs[c][i], j, &ring[j % MAXEV]);
			if (evs[c][i].type == LJ_TEV_LOST)
				ring[j % MAXEV].seq = j + 1 + MAXEV;	/* a lap later: overwritten */
		}
		if (lj_trace_bpf_scan(ring, MAXEV, j, &sc, &all, &out, &st) || out.n != seqs[c].n)
			ret = -1;
		if (out.n)
			memcpy(evs[c], out.ev, (out.n < MAXEV ? out.n : MAXEV) * sizeof(*out.ev));
		seqs[c].n = out.n < MAXEV ? out.n : MAXEV;
		free(out.ev);
	}
	return ret;
}

static bool same_spans(const struct lj_explanation *a, const struct lj_explanation *b)
{
	if (a->nspans != b->nspans || a->spans_dropped != b->spans_dropped)
		return false;
	for (int i = 0; i < a->nspans; i++) {
		const struct lj_span *x = &a->spans[i], *y = &b->spans[i];

		if (x->start_ns != y->start_ns || x->end_ns != y->end_ns || x->kind != y->kind ||
		    x->id != y->id || x->depth != y->depth || strcmp(x->name, y->name))
			return false;
	}
	return true;
}

/*
 * The light recorder's selection explains every known answer as the full
 * trace does: the FIFO hog (wake-behind-fifo), the preemption, the
 * loopback flood (storm), the lower-priority kernel work and the late
 * timer (the unaccounted cases), lost events and an idle CPU's exit:
 * each explained on the fixture as recorded and on what lj_tev_needed
 * keeps of it (no hrtimer_expire_entry, no sched_wakeup, no other task's
 * wake-up or migration), the same text, state, delays and spans.
 */
static void test_light(void)
{
	static const struct {
		const char *fixture;
		int cpu;
		pid_t tid;
		uint64_t due_us, ran_us;
	} cases[] = {
		{ "wake-behind-fifo.trace", 1, 9670, 585169225, 585172250 },
		{ "wake-behind-fifo.trace", 1, 9670, 585173000, 585173245 },
		{ "preempt.trace", 1, 9680, 585608263, 585611500 },
		{ "storm.trace", 1, 4242, 631314640, 631315850 },
		{ "lost.trace", 1, 9670, 585169225, 585172250 },
		{ "idle-exit.trace", 0, 8574, 735935610, 735935622 },
	};
	char t1[512], t2[512], name[160];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lj_explanation full, light;
		size_t dropped;

		is_int(load(cases[i].fixture), 0, "the fixture loads");
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, cases[i].due_us * US, cases[i].ran_us * US,
				  &full), 0, "explained on the whole trace");
		dropped = keep_needed(cases[i].tid);
		snprintf(name, sizeof(name), "%s: %zu events the light recorder does not record", cases[i].fixture,
			 dropped);
		ok(dropped > 0, name);
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, cases[i].due_us * US, cases[i].ran_us * US,
				  &light), 0, "explained on the light recorder's events");
		lj_explain_text(&full, "spike", 0, t1, sizeof(t1));
		lj_explain_text(&light, "spike", 0, t2, sizeof(t2));
		snprintf(name, sizeof(name), "%s, due %llu: the same explanation", cases[i].fixture,
			 (unsigned long long)cases[i].due_us);
		is_str(t2, t1, name);
		ok(light.state == full.state && light.wake_delay_ns == full.wake_delay_ns &&
		   light.runq_wait_ns == full.runq_wait_ns && light.idle_exit_ns == full.idle_exit_ns &&
		   light.lower_prio_ns == full.lower_prio_ns && light.incomplete == full.incomplete &&
		   light.migrated == full.migrated && light.tid_prio == full.tid_prio,
		   "the same state, delays, idle exit and lower-priority time");
		ok(same_spans(&light, &full), "the same spans");
		/* The BPF recorder's records of the same events: the same answer again. */
		is_int(through_bpf(), 0, "every event through the BPF recorder's ring and reader");
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, cases[i].due_us * US, cases[i].ran_us * US,
				  &light), 0, "explained on the BPF recorder's events");
		lj_explain_text(&light, "spike", 0, t2, sizeof(t2));
		is_str(t2, t1, "...the same explanation");
		ok(light.state == full.state && light.wake_delay_ns == full.wake_delay_ns &&
		   light.runq_wait_ns == full.runq_wait_ns && light.idle_exit_ns == full.idle_exit_ns &&
		   light.lower_prio_ns == full.lower_prio_ns && light.incomplete == full.incomplete &&
		   light.migrated == full.migrated && light.tid_prio == full.tid_prio && same_spans(&light, &full),
		   "...the same state, delays, idle exit, lower-priority time and spans");
	}
}

/*
 * What the recorders give up by leaving cpu_idle out (docs/explain.md,
 * "What is recorded"): a polling idle CPU 0 left for a remote wake-up,
 * with no interrupt. Thread 500 due at 001000 (woken then from CPU 1),
 * idle since 000100, the idle loop's exit at 001003, the switch to the
 * thread at 001005. The whole trace's idle exit is the cpu_idle exit's,
 * 3 us; the recorded one's the switch's, 5 us; the causes are the same
 * (idle 5 us: the idle task ran until the switch).
 */
static void test_idle_poll_exit(void)
{
	struct lj_explanation full, light;

	is_int(load("idle-poll.trace"), 0, "idle-poll fixture loads");
	is_int(lj_explain(&view, 0, 500, 100001000 * US, 100001005 * US, &full), 0, "explained on the whole trace");
	is_int(full.idle_exit_ns, 3 * US, "idle exit 3 us: the cpu_idle exit");
	is_int(ns_of(&full, LJ_CAUSE_IDLE, 0), 5 * US, "idle 5 us");
	is_int((int)keep_needed(500), 2, "the recorders keep neither cpu_idle event");
	is_int(lj_explain(&view, 0, 500, 100001000 * US, 100001005 * US, &light), 0, "explained on the recorded events");
	is_int(light.idle_exit_ns, 5 * US, "idle exit 5 us: the switch away from idle, 2 us after the exit");
	is_int(ns_of(&light, LJ_CAUSE_IDLE, 0), 5 * US, "the same idle 5 us");
	ok(light.state == full.state && light.wake_delay_ns == full.wake_delay_ns &&
	   light.runq_wait_ns == full.runq_wait_ns && total(&light) == total(&full),
	   "the same state, delays and total");
}

static bool not_a_wakeup(const struct lj_tev *e, pid_t tid)
{
	(void)tid;
	return e->type != LJ_TEV_WAKING && e->type != LJ_TEV_WAKEUP;
}

/* Drop every sched_waking and sched_wakeup, as the BPF recorder does for timer wake-ups. Return: how many. */
static size_t drop_wakings(void)
{
	return keep_events(not_a_wakeup, 0);
}

/*
 * Threads woken by their own timers, recorded without sched_waking
 * (lj_trace_wakeups_by_timer): the wake-up is the entry of the local
 * timer interrupt that ran the timer. Against the whole trace: the same
 * causes, text, spans and state; the wake-up earlier by the handler's
 * time before its sched_waking, the wait on the run queue longer by as
 * much. Where the thread was preempted, nothing is inferred.
 */
static void test_timer_wakeups(void)
{
	static const struct {
		const char *fixture;
		int cpu;
		pid_t tid;
		uint64_t due_us, ran_us, handler_us;	/* interrupt entry -> its sched_waking */
		enum lj_late_state state;
	} cases[] = {
		/* the FIFO spinner's CPU: timer 169226-169230, waking at 169227 */
		{ "wake-behind-fifo.trace", 1, 9670, 585169225, 585172250, 1, LJ_STATE_WAITING },
		/* the next period, a compiler's CPU: timer 173228-173237, waking at 173230 */
		{ "wake-behind-fifo.trace", 1, 9670, 585173000, 585173245, 2, LJ_STATE_WOKEN_LATE },
		/* an idle CPU: timer 935612-935617, waking at 935612 */
		{ "idle-exit.trace", 0, 8574, 735935610, 735935622, 0, LJ_STATE_WAITING },
		{ "preempt.trace", 1, 9680, 585608263, 585611500, 0, LJ_STATE_PREEMPTED },
	};
	char t1[512], t2[512], name[200];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lj_explanation full, timer, none;
		uint64_t due = cases[i].due_us * US, ran = cases[i].ran_us * US;

		is_int(load(cases[i].fixture), 0, "the fixture loads");
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, due, ran, &full), 0, "explained on the whole trace");
		is_int(full.state, cases[i].state, "its state");
		ok(drop_wakings() > 0, "the wake-ups dropped");
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, due, ran, &none), 0, "explained without them");
		view.timer_wakeups = true;
		is_int(lj_explain(&view, cases[i].cpu, cases[i].tid, due, ran, &timer), 0, "...and as timer wake-ups");
		view.timer_wakeups = false;
		lj_explain_text(&full, "spike", 0, t1, sizeof(t1));
		lj_explain_text(&timer, "spike", 0, t2, sizeof(t2));
		snprintf(name, sizeof(name), "%s, due %llu: the same explanation", cases[i].fixture,
			 (unsigned long long)cases[i].due_us);
		is_str(t2, t1, name);
		is_int(timer.state, full.state, "...the same state");
		ok(same_spans(&timer, &full) && total(&timer) == total(&full) &&
		   timer.idle_exit_ns == full.idle_exit_ns && timer.lower_prio_ns == full.lower_prio_ns,
		   "...the same spans, total, idle exit and lower-priority time");
		is_int(timer.wake_delay_ns + cases[i].handler_us * US, full.wake_delay_ns,
		       "...woken at the interrupt's entry, before its sched_waking");
		is_int(timer.runq_wait_ns, full.runq_wait_ns + cases[i].handler_us * US,
		       "...and waited as much longer");
		if (cases[i].state != LJ_STATE_PREEMPTED)
			ok(none.state != full.state, "without the inference the state is lost");
	}
}

/* The kernel's filter for the measured threads' events. */
static void test_pid_filter(void)
{
	pid_t tids[LJ_TEV_FILTER_MAX + 1];
	char buf[LJ_TEV_FILTER_MAX * 24 + 8];
	struct lj_tev e = { .type = LJ_TEV_WAKING, .wake.pid = 15 };

	for (int i = 0; i <= LJ_TEV_FILTER_MAX; i++)
		tids[i] = 100 + i;
	tids[0] = 12;
	tids[1] = 15;
	is_int(lj_tev_pid_filter(tids, 2, buf, sizeof(buf)), 1, "two threads: a filter");
	is_str(buf, "pid == 12 || pid == 15", "in the kernel's filter syntax");
	is_int(lj_tev_pid_filter(tids, 0, buf, sizeof(buf)), 0, "no thread known: no filter");
	is_str(buf, "0", "the kernel's word to clear one");
	is_int(lj_tev_pid_filter(tids, LJ_TEV_FILTER_MAX + 1, buf, sizeof(buf)), 0, "too many: no filter");
	tids[1] = 0;
	is_int(lj_tev_pid_filter(tids, 2, buf, sizeof(buf)), 0, "an id not known: no filter");
	tids[1] = 15;
	is_int(lj_tev_pid_filter(tids, 2, buf, 10), -ENOSPC, "a buffer too small: -ENOSPC");
	ok(lj_tev_needed(&e, tids, 2, true), "a measured thread's wake-up is recorded");
	e.wake.pid = 16;
	ok(!lj_tev_needed(&e, tids, 2, true), "another task's is not");
	ok(lj_tev_needed(&e, tids, 0, true), "every task's when none is known");
	ok(lj_tev_needed(&e, tids, LJ_TEV_FILTER_MAX + 1, true), "and when too many for a filter");
	e.type = LJ_TEV_WAKEUP;
	e.wake.pid = 15;
	ok(!lj_tev_needed(&e, tids, 2, true), "sched_wakeup not beside sched_waking");
	ok(lj_tev_needed(&e, tids, 2, false), "but in its stead");
	e.type = LJ_TEV_HRTIMER;
	ok(!lj_tev_needed(&e, NULL, 0, true), "hrtimer_expire_entry never");
	e.type = LJ_TEV_IDLE;
	e.idle_state = LJ_TEV_IDLE_EXIT;
	ok(!lj_tev_needed(&e, NULL, 0, true), "cpu_idle never, not even its exits");
	e.type = LJ_TEV_SWITCH;
	ok(lj_tev_needed(&e, tids, 2, true), "every switch");
	is_str(lj_tev_type_name(LJ_TEV_MIGRATE), "sched_migrate_task", "type names are the kernel's");
}

static void test_bad_input(void)
{
	struct lj_explanation x;

	is_int(lj_explain(&view, 5, 1, 10, 20, &x), -EINVAL, "CPU outside the trace: -EINVAL");
	is_int(lj_explain(&view, 1, 1, 20, 10, &x), -EINVAL, "ran before due: -EINVAL");
	is_int(lj_explain(&view, 1, 1, 10, 20, &x), -ENOENT, "no event on the CPU: -ENOENT");
}

int main(void)
{
	plan_no_plan();
	test_parse();
	test_wake_behind_fifo();
	test_spans();
	test_preempt();
	test_storm();
	test_unaccounted();
	test_idle_poll_exit();
	test_idle_exit();
	test_bad_input();
	test_idle_untraced();
	test_prune();
	test_light();
	test_pid_filter();
	test_timer_wakeups();
	return done();
}
