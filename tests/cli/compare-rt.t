#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-rt.t - lj-compare reads rt-tests' own cyclictest and signaltest --json files (and
# directories of them) as result sets, says so, and compares them with lj-cyclic runs; an
# lj-cyclic --json file (which carries cyclictest's keys too) stays an ljkit document.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip_all "jq not installed"
plan 24
RT="$LJ_SRC/tests/fixtures/rt-tests"

run_rc lj-compare --validate "$RT/cyclictest-h400.json" "$RT/signaltest.json"
is "$rc" 0 "--validate accepts cyclictest's and signaltest's --json"
grep -q "cyclictest-h400.json: ok (rt-tests --json, read as lj-cyclic's" "$TMP/out" &&
	grep -q "signaltest.json: ok (rt-tests --json, read as lj-signal's" "$TMP/out"
ok $? "--validate says which ljkit tool each maps to"

# The mapped values, computed independently by jq from the fixture.
metric() {	# metric WORKLOAD NAME < compare JSON: the first set's mean
	jq -r --arg w "$1" --arg m "$2" '.rows[] | select(.workload == $w and .metric == $m) | .sets[0].mean'
}
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.01) }'; }
mkdir -p "$TMP/rtset" && cp "$RT"/*.json "$TMP/rtset/"
lj-compare --format json "$TMP/rtset" >"$TMP/cmp.json" 2>"$TMP/err"
cyc="$RT/cyclictest-h400.json"
want_mean=$(jq '([.thread[] | .avg * .cycles] | add) / ([.thread[] | .cycles] | add) * 1000' "$cyc")
near "$(metric cyclic mean <"$TMP/cmp.json")" "$want_mean"
ok $? "cyclictest: mean is the threads' avg weighted by cycles, in ns ($want_mean)"
is "$(metric cyclic min <"$TMP/cmp.json")" "$(jq '[.thread[].min] | min * 1000 | . * 1.0' "$cyc")" "cyclictest: min of the threads"
is "$(metric cyclic max <"$TMP/cmp.json")" "$(jq '[.thread[].max] | max * 1000 | . * 1.0' "$cyc")" "cyclictest: max of the threads"
is "$(metric cyclic samples <"$TMP/cmp.json")" "$(jq '[.thread[].cycles] | add | . * 1.0' "$cyc")" "cyclictest: samples are the cycles"
want_p50=$(jq '([.thread[].cycles] | add) as $n | ($n * 0.5 | ceil) as $need |
	[.thread[].histogram | to_entries[] | {k: (.key | tonumber), v: .value}] | group_by(.k) |
	map({k: .[0].k, v: (map(.v) | add)}) | sort_by(.k) |
	reduce .[] as $b ({s: 0, q: null}; if .q == null then (.s += $b.v | if .s >= $need then .q = $b.k else . end) else . end) |
	.q * 1000 | . * 1.0' "$cyc")
is "$(metric cyclic p50 <"$TMP/cmp.json")" "$want_p50" "cyclictest -h: p50 from the merged histogram ($want_p50 ns)"
is "$(metric signal max <"$TMP/cmp.json")" "$(jq '[.thread[].max] | max * 1000 | . * 1.0' "$RT/signaltest.json")" "signaltest: max of the threads"
is "$(jq '.sets[0].rt_tests_results' "$TMP/cmp.json")" 2 "the JSON output counts the rt-tests files of a set"
lj-compare "$TMP/rtset" >"$TMP/text" 2>&1
grep -q "2 of them rt-tests --json read as ljkit results" "$TMP/text"
ok $? "the text output says the set's files were read as rt-tests --json"

# Something else with rt-tests' keys: another program, no threads.
printf '{"file_version": 1, "cmdline:": "hackbench -l 10", "thread": {}}\n' >"$TMP/rtset/hb.json"
run_rc lj-compare --validate "$TMP/rtset/hb.json"
is "$rc" 2 "an rt-tests file of a program lj-compare does not map is refused by --validate"

# Values no run can have: the file is refused with the reason, as the ljkit reader refuses
# impossible statistics, and the comparison counts what it skipped.
sig="$RT/signaltest.json"
jq '.thread["0"].max = -5' "$sig" >"$TMP/neg.json"
jq '.thread["0"].min = 5000' "$sig" >"$TMP/minmax.json"
jq '.thread["1"].cycles = 0' "$sig" >"$TMP/zero.json"
run_rc lj-compare --validate "$TMP/neg.json"
is "$rc:$(cat "$TMP/out")" "2:$TMP/neg.json: invalid: thread 0: a negative latency (min 15, avg 71.34, max -5)" \
	"--validate refuses a negative max"
run_rc lj-compare --validate "$TMP/minmax.json"
is "$rc:$(cat "$TMP/out")" "2:$TMP/minmax.json: invalid: thread 0: min 5000 > max 3420" "...min above max"
run_rc lj-compare --validate "$TMP/zero.json"
is "$rc" 2 "...a count of 0 with values"
grep -q "thread 1: 0 cycles but values" "$TMP/out"
ok $? "...saying so"
mkdir -p "$TMP/bad" && cp "$sig" "$TMP/neg.json" "$TMP/minmax.json" "$TMP/zero.json" "$TMP/bad/"
run_rc lj-compare --format json "$TMP/bad"
is "$(grep -c 'skipped: thread' "$TMP/err")" 3 "a set with three impossible files: a warning for each"
is "$(jq '.skipped_files' "$TMP/out"):$(jq '.sets[0].rt_tests_results' "$TMP/out")" "3:1" \
	"...counted as skipped, the good file read"
run_rc lj-compare "$TMP/bad"
grep -q "note: 3 files skipped" "$TMP/out"
ok $? "the text output counts them too"
jq '.thread["0"].avg = 20000' "$sig" >"$TMP/avg.json"
run_rc lj-compare --validate "$TMP/avg.json"
is "$rc" 2 "an average outside [min, max] is refused"

# An lj-cyclic --json document is ljkit's, although it carries cyclictest's keys.
mkdir -p "$TMP/lj"
lj-cyclic -q -t 1 -i 1000 -l 200 --json "$TMP/lj/run-1.json" >/dev/null 2>&1
jq -e '.file_version and .thread and .schema' "$TMP/lj/run-1.json" >/dev/null
ok $? "lj-cyclic --json carries cyclictest's keys beside ljkit's"
lj-compare --format json "$TMP/lj" >"$TMP/lj.json" 2>/dev/null
is "$(jq '.sets[0].rt_tests_results // 0' "$TMP/lj.json"):$(jq -r '[.rows[].metric] | index("missed") != null' "$TMP/lj.json")" \
	"0:true" "an lj-cyclic document is read as ljkit's (its own metrics, not the rt-tests mapping)"

# Real rt-tests runs, compared with lj-cyclic runs.
if command -v cyclictest >/dev/null && command -v signaltest >/dev/null; then
	mkdir -p "$TMP/rt"
	for i in 1 2 3; do
		cyclictest -q -t 1 -i 1000 -l 200 --json="$TMP/rt/cyclictest-$i.json" >/dev/null 2>&1
		lj-cyclic -q -t 1 -i 1000 -l 200 --json "$TMP/lj/run-$((i + 1)).json" >/dev/null 2>&1
	done
	signaltest -q -t 2 -l 100 --json="$TMP/rt/signaltest-1.json" >/dev/null 2>&1
	run_rc lj-compare --validate "$TMP"/rt/*.json
	is "$rc" 0 "real cyclictest and signaltest --json files validate"
	run_rc lj-compare --metrics max,mean "$TMP/rt" "$TMP/lj"
	is "$rc" 0 "a directory of real rt-tests files compares with an lj-cyclic run set"
	grep -Eq '^Runs +max +3 +4$' "$TMP/out"
	ok $? "both sets' runs are in the cyclic rows (3 cyclictest, 4 lj-cyclic)"
else
	skip 3 "rt-tests not installed"
fi
exit $((_tap_fail > 0))
