#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# instruments.t - every run says what its own instruments cost it
# (side.instruments, docs/validity.md): lj-cyclic with --explain and
# --power (the recorder's reader and the sampler: CPU time, share of the
# run, limit, where they ran, events per wake-up), the recorder's events
# by type (no hrtimer_expire_entry, no sched_wakeup beside sched_waking,
# wake-ups filtered on the measured thread), and lj-frame's own overhead
# per frame and per stage beside its limit, with the wait for the CPU
# after a hand-off apart from it.
. "$(dirname "$0")/lib.sh"

is_root || skip_all "the recorder needs root (tracefs)"
skip_unless_tracing

CPU=$(( $(nproc) - 1 ))

jcheck() {	# jcheck FILE PYTHON-EXPR NAME: the expression over d (the document), i (side.instruments)
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
i = d['side'].get('instruments', {})
sys.exit(0 if ($2) else 1)" "$1" 2>"$TMP/pyerr"
	ok $? "$3"
	[ -s "$TMP/pyerr" ] && diag "$(cat "$TMP/pyerr")"
}

# 1. lj-cyclic: 500 wake-ups at 1 ms (about 5 passes of the reader).
run_rc lj-cyclic -q -a "$CPU" -i 1000 -l 500 --explain --power --json "$TMP/c.json"
is "$rc" 0 "lj-cyclic --explain --power runs"
J=$TMP/c.json
jcheck "$J" "i['samples'] == 500 and 0.3e9 < i['measured_ns'] < 60e9" "samples and the measurement's wall time"
jcheck "$J" "i['explain']['events'] == d['side']['explain']['events'] > 0" "the recorder's events, as side.explain counts them"
jcheck "$J" "abs(i['explain']['events_per_sample'] - i['explain']['events'] / 500) < 1e-6" "events per wake-up"
jcheck "$J" "i['explain']['threaded'] and i['explain']['passes'] >= 1 and i['explain']['cpu_ns'] > 0" \
	"the reader thread's passes and CPU time"
jcheck "$J" "abs(i['explain']['share_pct'] - 100.0 * i['explain']['cpu_ns'] / i['measured_ns']) < 1e-6" \
	"its share of the run is its CPU time over the wall time"
jcheck "$J" "i['explain']['limit_pct'] == (2 if i['explain']['off_measured_cpus'] else 1)" \
	"the limit: 2 % off the measured CPUs, 1 % on them"
if [ "$(nproc)" -gt 1 ]; then
	jcheck "$J" "i['explain']['off_measured_cpus']" "with another CPU allowed the reader kept off CPU $CPU"
else
	skip 1 "one CPU: the reader cannot keep off it"
fi
jcheck "$J" "i['explain']['outside_cpu_ns'] > 0" "the reading and explaining after the run, apart"
jcheck "$J" "'power' in i and i['power']['cpu_ns'] >= 0 and i['power']['outside_cpu_ns'] > 0" \
	"the power sampler's cost, and its two snapshots apart"
jcheck "$J" "i['power']['threaded'] or i['power']['cpu_ns'] == 0" "no sampler thread, no thread time"
jcheck "$J" "'sched_switch' in d['side']['explain']['events_by_type'] and not {'hrtimer_expire_entry', 'sched_wakeup'} & set(d['side']['explain']['events_by_type'])" \
	"recorded: switches; not: hrtimer_expire_entry, sched_wakeup"
jcheck "$J" "d['side']['explain']['pid_filter'] == 1" "wake-ups and migrations filtered on the one measuring thread"
jcheck "$J" "not [r for r in d['validity']['reasons'] if r['what'] == 'instrument'] or i['explain']['share_pct'] > i['explain']['limit_pct'] or i['power']['share_pct'] > i['power']['limit_pct']" \
	"an instrument reason only over a limit"

# 2. Without an instrument nothing is said about one.
run_rc lj-cyclic -q -a "$CPU" -i 1000 -l 100 --json "$TMP/n.json"
jcheck "$TMP/n.json" "'instruments' not in d['side']" "no instrument, no side.instruments"

# 3. lj-frame: its own overhead per frame, all stages and each.
run_rc lj-frame -q -D 1s --stages 2 --work 1 --json "$TMP/f.json"
is "$rc" 0 "lj-frame runs"
F=$TMP/f.json
jcheck "$F" "i['emulator']['overhead_ns_per_frame'] == d['side']['overhead_ns_per_frame']" "the emulator's overhead per frame"
jcheck "$F" "len(i['emulator']['stages']) == 2 and all(s['overhead_ns_per_frame'] >= 0 for s in i['emulator']['stages'])" \
	"per stage"
jcheck "$F" "i['emulator']['limit_pct'] == 5 and abs(i['emulator']['share_pct'] - d['side']['overhead_pct_of_period']) < 1e-9" \
	"its share of the period beside the 5 % limit"
jcheck "$F" "('emulator' in [r['what'] for r in d['validity']['reasons']]) == (i['emulator']['share_pct'] > 5)" \
	"the emulator reason exactly when over the limit"

# 4. Both stages on one CPU: the hand-off wakes stage 1, which takes the
# CPU before stage 0's futex call returns (most frames here: a 2 ms wait
# in stage 0's wall time). That is stage 1's work, not the emulator's
# cost: the verdict's figure counts the hand-off in CPU time.
run_rc lj-frame -q -D 1s --stages 2 --work-time 2ms,2ms --cpus "$CPU" --json "$TMP/f1.json"
is "$rc" 0 "lj-frame with both stages on CPU $CPU runs"
if python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['side']['instruments']['emulator']['stages'][0]
sys.exit(0 if s['overhead_wall_ns_per_frame'] >= 1e6 else 1)" "$TMP/f1.json"; then
	jcheck "$TMP/f1.json" "i['emulator']['stages'][0]['overhead_ns_per_frame'] < 0.25e6" \
		"stage 0 waited for stage 1 in its hand-off: not counted as its cost"
	jcheck "$TMP/f1.json" "'emulator' not in [r['what'] for r in d['validity']['reasons']]" \
		"no emulator reason for the next stage's work"
else
	skip 2 "stage 1 did not take stage 0's CPU at the hand-off on this scheduler"
fi
jcheck "$TMP/f1.json" "all(s['overhead_ns_per_frame'] <= s['overhead_wall_ns_per_frame'] + 1 for s in i['emulator']['stages'])" \
	"per stage, the cost within its wall time"

run_rc lj-frame -q -D 1s --stages 1 --work 1 --explain --json "$TMP/fx.json"
jcheck "$TMP/fx.json" "'explain' in i and 'emulator' in i and i['explain']['events_per_sample'] > 0" \
	"lj-frame --explain: events per frame beside the emulator's figures"
done_testing
