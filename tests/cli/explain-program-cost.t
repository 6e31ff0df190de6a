#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-program-cost.t - LJ_EXPLAIN_PROGRAM_COST=1 measures the BPF
# recorder's programs in the kernel (docs/explain.md, "The recorder's
# cost"): per tracepoint their runs and run time in side.explain.programs,
# the sum in side.instruments.explain; known answers from the workload
# (a FIFO thread woken 500 times on one CPU: at least two switches and one
# local timer interrupt per wake-up that slept, and no sched_waking program,
# which such a thread's wake-ups do without where the local timer's events
# are there; with -p 0 one sched_waking each); nothing measured without it or on tracefs (which
# says why); a bad value is a usage error.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracing, BPF)"
skip_unless_tracing
export LJ_RESULT_NO_SYSINFO=1
unset LJ_EXPLAIN_RECORDER
CPU=$(( $(nproc) - 1 ))

run_rc env LJ_EXPLAIN_PROGRAM_COST=yes lj-cyclic -q -l 10 --explain
is "$rc:$(wc -l <"$TMP/err")" "2:1" "LJ_EXPLAIN_PROGRAM_COST=yes: exit 2, one line"
grep -q "LJ_EXPLAIN_PROGRAM_COST: invalid value 'yes' (1 or 0)" "$TMP/err"
ok $? "...naming the variable and the values"

run_rc env LJ_EXPLAIN_PROGRAM_COST=1 lj-cyclic -q -a "$CPU" -m -p 90 -i 1000 -l 500 --explain --json "$TMP/m.json"
is "$rc" 0 "lj-cyclic --explain with the programs measured exits 0"
if [ "$(jq -r .side.explain.recorder "$TMP/m.json")" != bpf ]; then
	skip 5 "the BPF recorder did not start here: $(jq -r .side.explain.bpf_unavailable "$TMP/m.json")"
else
	# A missed period's wake-up does not sleep: no switch, no waking.
	if [ "$(jq -r .side.explain.wakeups_from "$TMP/m.json")" = local_timer ]; then
		jq -e '(500 - .results[0].missed) as $slept | .side.explain.programs.sched_switch.runs >= 2 * $slept and
			.side.explain.programs.local_timer_entry.runs >= $slept and .side.explain.programs.sched_waking == null' "$TMP/m.json" >/dev/null
	else
		jq -e '(500 - .results[0].missed) as $slept | .side.explain.programs.sched_switch.runs >= 2 * $slept and
			.side.explain.programs.sched_waking.runs >= $slept' "$TMP/m.json" >/dev/null
	fi
	ok $? "500 wake-ups: two sched_switch runs at least per sleep, and one local timer interrupt and no sched_waking program (pinned RT threads, x86) or one sched_waking ($(jq -c '[.side.explain.wakeups_from, .side.explain.programs.sched_switch.runs, .side.explain.programs.local_timer_entry.runs, .side.explain.programs.sched_waking.runs, .results[0].missed]' "$TMP/m.json"))"
	jq -e '[.side.explain.programs[] | select(.runs > 0) | .ns > 0 and (.ns_per_run - .ns / .runs | fabs) < 1e-6] | all' \
		"$TMP/m.json" >/dev/null
	ok $? "each program that ran took time, ns_per_run its mean"
	jq -e '.side.instruments.explain as $i | ([.side.explain.programs[].ns] | add) == $i.kernel_ns and
		([.side.explain.programs[].runs] | add) == $i.kernel_runs and ($i.kernel_ns_per_sample - $i.kernel_ns / 500 | fabs) < 1e-6' \
		"$TMP/m.json" >/dev/null
	ok $? "side.instruments.explain: kernel_ns and kernel_runs their sums, per wake-up ($(jq -r '.side.instruments.explain.kernel_ns_per_sample | floor' "$TMP/m.json") ns)"
	jq -e '.side.explain.programs_unmeasured == null' "$TMP/m.json" >/dev/null
	ok $? "nothing said unmeasured"

	run_rc lj-cyclic -q -a "$CPU" -i 1000 -l 100 --explain --json "$TMP/n.json"
	jq -e '.side.explain.programs == null and (.side.instruments.explain | has("kernel_ns") | not)' "$TMP/n.json" >/dev/null
	ok $? "without it: no programs measured, no kernel figures"
fi

run_rc env LJ_EXPLAIN_PROGRAM_COST=1 LJ_EXPLAIN_RECORDER=tracefs lj-cyclic -q -a "$CPU" -i 1000 -l 100 --explain --json "$TMP/t.json"
is "$rc" 0 "on the tracefs recorder the run goes on"
jq -e '.side.explain.programs == null and (.side.explain.programs_unmeasured | test("tracefs"))' "$TMP/t.json" >/dev/null
ok $? "...with no programs to measure, and says so ($(jq -r .side.explain.programs_unmeasured "$TMP/t.json"))"
done_testing
