#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perfetto-explain.t - --perfetto with --explain, a known answer: a pinned
# SCHED_FIFO 99 spinner (tests/helpers/interferer) on the CPU lj-cyclic
# measures appears in the trace as a slice on that CPU's "what ran" track,
# named by its comm with its pid and FIFO 99, lying within one of its spins
# (the spinner's own CLOCK_MONOTONIC log) and overlapping the late wake-up
# slice on lj-cyclic's thread track, whose explained interval names it.
# Runs alone after the parallel pass, as explain.t.
. "$(dirname "$0")/lib.sh"

require_spinner lj-cyclic

CPU=$(( $(nproc) - 1 ))
SPIN_US=3000

skip_unless_tracing

# The known answer, from the trace alone and the spinner's log: the spins
# that fell inside a late wake-up of lj-cyclic, each with the spinner's
# slice on CPU's "what ran" track inside the spin (within 10 % of it at
# each end) and overlapping that wake-up, and the explained interval on
# "CPU N: explained" that overlaps it naming the spinner.
cat >"$TMP/known.py" <<'EOF'
import json, sys
trace, helper_out, pid, cpu, spin_us = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
ev = json.load(open(trace))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
def sl(track):
    return [(round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e) for e in ev
            if e["ph"] == "X" and names.get((e["pid"], e["tid"]), "").startswith(track)]
wakeups = [s for s in sl("lj-cyclic thread") if s[2]["name"] in ("late wake-up", "missed period")]
ran = [s for s in sl("CPU %s: what ran" % cpu) if s[2]["name"] == "interferer"]
explained = sl("CPU %s: explained" % cpu)
spins = [tuple(int(v) for v in l.split()[1:3]) for l in open(helper_out) if l.startswith("spin ")]
slack = spin_us * 100
found, bad = 0, []
for a, b in spins:
    late = [w for w in wakeups if w[0] < b and w[1] > a]
    mine = [r for r in ran if r[0] >= a - slack and r[1] <= b + slack and any(r[0] < w[1] and r[1] > w[0] for w in late)]
    if not late or not mine:
        continue
    r = mine[0][2]["args"]
    if r.get("pid") != pid or r.get("sched") != "FIFO 99" or r.get("cause") != "task":
        bad.append(r)
        continue
    if not any(x[0] < mine[0][1] and x[1] > mine[0][0] and "interferer (pid %d" % pid in x[2]["args"]["explanation"] for x in explained):
        bad.append("no explained interval names it at %d" % a)
        continue
    found += 1
print("%d spins found as slices%s" % (found, "; wrong: %s" % bad[:3] if bad else ""))
sys.exit(0 if found >= 3 and not bad else 1)
EOF

spin_run() {
	start_helper spin "$CPU" 99 "$SPIN_US" 25000 400
	[ -n "$helper_pid" ] || return 1
	run_rc lj-cyclic -q -a "$CPU" -p 50 -i 100 -l 3000 --explain --perfetto "$TMP/spin.trace" --json "$TMP/spin.json"
	kill "$helper_job" 2>/dev/null
	wait "$helper_job"
}
sync	# no writeback of the parallel pass's files inside the known answer
spin_run
# The host of this VM can take the CPU inside a spin: one retry, saying what the first run found.
if [ -n "$helper_pid" ] && [ "$rc" -eq 0 ] && \
   ! python3 "$TMP/known.py" "$TMP/spin.trace" "$TMP/helper.out" "$helper_pid" "$CPU" "$SPIN_US" >"$TMP/known.out" 2>&1; then
	diag "first spin run: $(cat "$TMP/known.out"); retrying once"
	spin_run
fi
if [ -z "$helper_pid" ]; then
	skip 5 "the spinner did not start: $(cat "$TMP/helper.out")"
else
	is "$rc" 0 "lj-cyclic --explain --perfetto beside a FIFO 99 spinner exits 0"
	run_rc python3 "$LJ_SRC/tests/cli/tefcheck.py" "$TMP/spin.trace"
	ok $rc "the trace reads as the Trace Event Format ($(cat "$TMP/out" "$TMP/err" | head -1))"
	python3 "$TMP/known.py" "$TMP/spin.trace" "$TMP/helper.out" "$helper_pid" "$CPU" "$SPIN_US" >"$TMP/known.out" 2>&1
	ok $? "the spinner is a slice on CPU $CPU's track inside its spin, overlapping the late wake-up, FIFO 99, explained: $(cat "$TMP/known.out")"
	ok $(python3 -c "
import json, sys
x = json.load(open(sys.argv[1]))['side']['explain']
o = json.load(open(sys.argv[2]))['otherData']
sys.exit(0 if o['explained'] == len(x['explanations']) > 0 else 1)" "$TMP/spin.json" "$TMP/spin.trace"; echo $?) \
		"every explanation of the result is in the trace (otherData.explained)"
	ok $(python3 - "$TMP/spin.trace" "$CPU" <<'EOF'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
cpu = [k for k, n in names.items() if n == "CPU %s: what ran" % sys.argv[2]]
sys.exit(0 if len(cpu) == 1 and procs[cpu[0][0]] == "CPUs" else 1)
EOF
echo $?) "the per-CPU track lives in the \"CPUs\" process"
fi

echo "1..$_tap_n"
exit $((_tap_fail > 0))
