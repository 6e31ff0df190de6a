#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-alternate.t - LJ_EXPLAIN_ALTERNATE=MS cuts an --explain run into
# windows with and without the BPF recorder (docs/explain.md, "Its cost
# inside one run"): the recorder on in one window of each triple, its
# place rotating; the programs detached in the others, which the rings'
# heads show (no record written there) while the windows with them record
# at least a switch per wake-up; every sample in one window or left out;
# ",attached" keeps the programs attached and stops only their records;
# tracefs says why it cannot, and so does lj-frame (frames, not timed
# wake-ups); a bad value is a usage error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alternate-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracing, BPF)"
skip_unless_tracing
export LJ_RESULT_NO_SYSINFO=1
unset LJ_EXPLAIN_RECORDER LJ_EXPLAIN_PROGRAM_COST
CPU=$(( $(nproc) - 1 ))

refused LJ_EXPLAIN_ALTERNATE=5 --explain \
	"lj-cyclic: LJ_EXPLAIN_ALTERNATE: invalid value '5' (a window in milliseconds, 20 to 60000, then ,attached or nothing)"
refused LJ_EXPLAIN_ALTERNATE=100,off --explain "invalid value '100,off'"

run_rc env LJ_EXPLAIN_ALTERNATE=50 lj-cyclic -q -a "$CPU" -m -p 90 -i 1000 -l 1200 --explain --json "$TMP/d.json"
is "$rc" 0 "lj-cyclic --explain with windows exits 0"
if [ "$(jq -r .side.explain.recorder "$TMP/d.json")" != bpf ]; then
	skip 19 "the BPF recorder did not start here: $(jq -r .side.explain.bpf_unavailable "$TMP/d.json")"
else
	# A record per wake-up at least: its switch.
	windows_ok "$TMP/d.json" detached .side.explain.alternate 1200 50 detached records ".work >= .n"

	run_rc env LJ_EXPLAIN_ALTERNATE=50,attached lj-cyclic -q -a "$CPU" -m -p 90 -i 1000 -l 1200 --explain --json "$TMP/a.json"
	is "$rc" 0 "with ,attached: exits 0"
	windows_ok "$TMP/a.json" attached .side.explain.alternate 1200 50 "attached, not recording" records ".work >= .n"
fi

run_rc env LJ_EXPLAIN_ALTERNATE=50 LJ_EXPLAIN_RECORDER=tracefs lj-cyclic -q -a "$CPU" -i 1000 -l 100 --explain --json "$TMP/t.json"
is "$rc" 0 "on the tracefs recorder the run goes on"
jq -e '.side.explain.alternate == null and (.side.explain.alternate_unavailable | test("tracefs recorder cannot be detached"))' \
	"$TMP/t.json" >/dev/null
ok $? "...without windows, and says why ($(jq -r .side.explain.alternate_unavailable "$TMP/t.json"))"
grep -q "LJ_EXPLAIN_ALTERNATE: the tracefs recorder cannot be detached" "$TMP/err"
ok $? "...on stderr too"

# lj-frame's late events are frames, not timed wake-ups: nothing to split.
if [ -x "$LJ_BUILD/lj-frame" ]; then
	run_rc env LJ_EXPLAIN_ALTERNATE=100 lj-frame -D 1s --explain --json "$TMP/f.json"
	is "$rc" 0 "lj-frame --explain with LJ_EXPLAIN_ALTERNATE: exits 0"
	jq -e '.side.explain.alternate == null and (.side.explain.alternate_unavailable | test("timed wake-ups .*not lj-frame"))' \
		"$TMP/f.json" >/dev/null
	ok $? "...without windows, saying why ($(jq -r .side.explain.alternate_unavailable "$TMP/f.json"))"
else
	skip 2 "lj-frame not built"
fi
done_testing
