#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# frame.t - lj-frame: usage errors, the simulated pipeline (--fake-work), the ramp, JSON and timeline structure.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-frame" ] || skip_all "lj-frame not built in $LJ_BUILD"
command -v jq >/dev/null || skip_all "jq not installed"
export LJ_RESULT_NO_SYSINFO=1

# usage ARGS...: exit 2 with a "lj-frame: " message
usage() {
	run_rc lj-frame "$@"
	if [ "$rc" -eq 2 ] && grep -q '^lj-frame: ' "$TMP/err"; then
		ok 0 "usage error: $*"
	else
		ok 1 "usage error: $*"
		diag "exit $rc: $(head -1 "$TMP/err")"
	fi
}

run_rc lj-frame --help
ok $(( rc != 0 )) "--help exits 0"
grep -q -- '--ramp' "$TMP/out"; ok $? "--help lists --ramp"
grep -q -- '--cpus' "$TMP/out"; ok $? "--help lists the shared setup options"
grep -q -- '--fake-work' "$TMP/out"; ok $(( ! $? )) "--help hides the --fake-work test aid"

usage --fps 10q
grep -q "invalid --fps '10q'" "$TMP/err"; ok $? "bad --fps names the option and the text"
usage --fps 0
usage -D 0
usage --stages 2 --work 1,2,3
usage --work 5 --work-time 1ms
usage --ramp --timeline "$TMP/t.csv"
usage --max-drop-rate 150%
usage --latency-frames 0
usage --policy deadline
usage --policy other -p 10
usage --bg-load 50
usage extra-argument

# Simulated runs: stage time = NS x units, no threads, exact counts.
FAKE="--fake-work 1000 --stages 1 -D 1"
run_rc lj-frame $FAKE --work 1000 --json "$TMP/light.json" -q
is "$rc" 0 "simulated light run exits 0"
is "$(jq -r '.summary.frames.value == 60 and .summary.dropped.value == 0' "$TMP/light.json")" true \
	"1 ms frames at 60 Hz for 1 s: 60 frames, none dropped"
is "$(jq -r '.summary.percentage_smooth.value == 100' "$TMP/light.json")" true "...all intervals smooth"

# --priority as every tool names it; lj-frame's old --prio and --bg-prio stay as aliases.
for p in "-p 7" "--priority 7" "--prio 7"; do
	run_rc lj-frame $FAKE --work 1000 $p --background 1 --bg-priority 3 --json "$TMP/prio.json" -q
	is "$(jq -r '[.params.stage_policy.policy, .params.stage_policy.priority, .params.background.priority] | join(" ")' \
		"$TMP/prio.json")" "fifo 7 3" "$p: stage threads at fifo 7"
done
run_rc lj-frame $FAKE --work 1000 --background 1 --bg-prio 4 --json "$TMP/prio.json" -q
is "$(jq -r '.params.background.priority' "$TMP/prio.json")" 4 "--bg-prio is --bg-priority"
run_rc lj-frame --help
grep -q -- '-p, --priority PRIO' "$TMP/out" && ! grep -q -- '--prio ' "$TMP/out"
ok $? "--help names --priority, not the --prio alias"
# getopt would take --prio as an abbreviation of --priority anyway: the alias
# entries are what keep the names the user typed in the messages.
usage --prio 0
grep -q "^lj-frame: invalid --prio '0': out of range 1..99" "$TMP/err"; ok $? "--prio is its own entry: the message names it"
usage --background 1 --bg-prio 100
grep -q "^lj-frame: invalid --bg-prio '100'" "$TMP/err"; ok $? "...and --bg-prio"

run_rc lj-frame $FAKE --work 25000 --json "$TMP/heavy.json" -q
is "$rc" 0 "simulated overload exits 0 without a threshold"
# Display model: 25 ms frames show late, one every 25 ms; the vsyncs between are skipped.
is "$(jq -r '[.summary.frames.value, .summary.dropped.value, .summary.janky.value] | (.[0] == 60 and .[1] == 20 and .[2] == 40)' "$TMP/heavy.json")" \
	true "work of 1.5 periods: 40 frames shown late (janky), 20 skipped"
is "$(jq -r '.summary.fps.value == 40 and .params.display_model == "display"' "$TMP/heavy.json")" true "...and shows 40 fps"
run_rc lj-frame $FAKE --work 25000 --display-model strict --json "$TMP/heavy-strict.json" -q
is "$(jq -r '[.summary.frames.value, .summary.dropped.value] | (.[0] == .[1] and .[0] > 0)' "$TMP/heavy-strict.json")" \
	true "strict model: work of 1.5 periods drops every frame"
is "$(jq -r '.summary.fps.value == 0 and .params.display_model == "strict"' "$TMP/heavy-strict.json")" true "...and shows 0 fps"
usage --display-model lazy
usage --fps 60.1234567891
run_rc lj-frame $FAKE --work 1000 --fps 59.94 --json "$TMP/ntsc.json" -q
is "$(jq -r '[.params.fps_num, .params.fps_den, .summary.frames.value] | map(tostring) | join(" ")' "$TMP/ntsc.json")" \
	"2997 50 60" "--fps 59.94 is kept exact as 2997/50 Hz"

run_rc lj-frame $FAKE --work 25000 --max-drop-rate 10% -q
is "$rc" 3 "--max-drop-rate gate fails with exit 3"
run_rc lj-frame $FAKE --work 1000 --max-drop-rate 0.1 -q
is "$rc" 0 "--max-drop-rate gate passes with exit 0"

# JSON structure of a fixed run.
J="$TMP/light.json"
is "$(jq -r '.schema, .tool' "$J" | tr '\n' ' ')" "ljkit-result/1 lj-frame " "schema and tool"
for k in frames displayed dropped janky drop_rate fps percentage_smooth mean_frame_time \
	frame_time_discrepancy mean_frame_latency frame_latency_p99 longest_freeze freeze_time \
	production_p99 longest_streak; do
	is "$(jq -r ".summary.$k.value | type" "$J")" number "summary has $k"
done
for b in frame_times frame_latency frames production_time; do
	is "$(jq -r "[.results[] | select(.name == \"$b\")] | length" "$J")" 1 "results hold the $b block"
done
is "$(jq -r '.results[] | select(.name == "frame_times") | (.min_ns <= .p50_ns and .p50_ns <= .p99_ns and .p99_ns <= .max_ns and .count == 59)' "$J")" \
	true "frame_times: 59 display intervals, min <= p50 <= p99 <= max"
is "$(jq -r '.results[] | select(.name == "frames") | (.on_time == 60 and .displayed == 60 and .display_model == "display")' "$J")" \
	true "frames block: 60 on time, displayed"
is "$(jq -r '.params.work_units[0] == 1000 and .params.fps == 60' "$J")" true "params record the work and rate"

# The documents pass the project's validator when lj-compare is built.
if [ -x "$LJ_BUILD/lj-compare" ] && lj-compare --help 2>&1 | grep -q -- '--validate'; then
	run_rc lj-compare --validate "$TMP/light.json"
	is "$rc" 0 "fixed-run document validates"
	run_rc lj-compare --validate "$TMP/heavy.json"
	is "$rc" 0 "overload document validates"
else
	skip 2 "lj-compare --validate not available in $LJ_BUILD"
fi

# Ramp on the simulated workload: the edge is floor(P / k) = 16666 units at k = 1000 ns.
# In the strict model a frame counts only by its deadline.
run_rc lj-frame --ramp --fake-work 1000 --stages 1 --display-model strict --json "$TMP/ramp.json"
is "$rc" 0 "simulated ramp exits 0"
mw=$(jq -r '.summary.max_work.value | floor' "$TMP/ramp.json")
ok $(( ! (mw <= 16666 && mw >= 16666 * 97 / 100) )) "strict ramp converges on the edge (16666 units, got $mw)"
# In the display model late frames still show: only the skipped ones count against the 2%.
run_rc lj-frame --ramp --fake-work 1000 --stages 1 --json "$TMP/ramp-d.json" -q
mw=$(jq -r '.summary.max_work.value | floor' "$TMP/ramp-d.json")
ok $(( ! (mw > 16666 && mw <= 16666 * 105 / 100) )) "display ramp passes frames up to a few % over a period (got $mw)"
is "$(jq -r '.summary.max_work_spread.value == 0' "$TMP/ramp.json")" true "a deterministic workload has no spread"
is "$(jq -r '.results[] | select(.name == "ramp") | ([.curve[] | select(.pass) | .work] | max) < ([.curve[] | select(.pass | not) | .work] | min)' "$TMP/ramp.json")" \
	true "ramp curve: every passing work is below every failing one"
is "$(jq -r '.results[] | select(.name == "ramp") | (.curve | map(.work) == (map(.work) | sort))' "$TMP/ramp.json")" \
	true "ramp curve is sorted by work"
is "$(jq -r '.results[] | select(.name == "ramp") | .estimates | length' "$TMP/ramp.json")" 3 "three bisections by default"
if [ -x "$LJ_BUILD/lj-compare" ] && lj-compare --help 2>&1 | grep -q -- '--validate'; then
	run_rc lj-compare --validate "$TMP/ramp.json"
	is "$rc" 0 "ramp document validates"
else
	skip 1 "lj-compare --validate not available in $LJ_BUILD"
fi

# One bisection: the spread's standard deviation is undefined. The document stays JSON (null, and
# why), as strict parsers read it; --validate refuses a document that is not (NaN).
run_rc lj-frame --ramp --ramp-repeat 1 --fake-work 1000 --stages 1 --json "$TMP/ramp1.json" -q
python3 -c '
import json, sys
def refuse(c): raise ValueError(c)
d = json.load(open(sys.argv[1]), parse_constant=refuse)
r = [x for x in d["results"] if x.get("name") == "ramp"][0]
sys.exit(0 if r["spread_stddev"] is None and "one bisection" in r["spread_stddev_why"] else 1)' "$TMP/ramp1.json" 2>"$TMP/pyerr"
ok $? "--ramp-repeat 1: spread_stddev is null with its reason, strict JSON (was NaN)"
sed 's/"spread_min":[0-9.]*/"spread_min":NaN/' "$TMP/ramp1.json" >"$TMP/nan.json"
run_rc lj-compare --validate "$TMP/nan.json"
[ "$rc" = 2 ] && grep -qF 'results[0].spread_min is NaN or Infinity' "$TMP/out"
ok $? "lj-compare --validate refuses a NaN, naming where it is"

# Two stages with two frames of latency: each stage may take a period, the frame two.
run_rc lj-frame --ramp --fake-work 1000 --stages 2 --latency-frames 2 --display-model strict --json "$TMP/ramp2.json" -q
mw=$(jq -r '.summary.max_work.value | floor' "$TMP/ramp2.json")
ok $(( ! (mw <= 33333 && mw >= 33333 * 97 / 100) )) "pipelined ramp converges on 2P / k (33333 units, got $mw)"

# Timeline of a simulated run: one row per 100 ms.
run_rc lj-frame $FAKE --work 1000 --timeline "$TMP/t.csv" -q
is "$rc" 0 "timeline run exits 0"
is "$(head -1 "$TMP/t.csv" | cut -d, -f1-7)" "t_s,phase,frames,displayed,dropped,janky,fps" "timeline header"
is "$(tail -n +2 "$TMP/t.csv" | wc -l)" 10 "10 rows for 1 s at 100 ms"
is "$(tail -n +2 "$TMP/t.csv" | awk -F, '{ f += $3; d += $4 } END { print f, d }')" "60 60" "timeline rows add up to the frames"
is "$(tail -n +2 "$TMP/t.csv" | awk -F, '$2 != "" { bad++ } END { print bad + 0 }')" 0 "no sweep: the phase column is empty"
run_rc lj-frame $FAKE --work 20000 --display-model strict --timeline "$TMP/t2.csv" -q
is "$(tail -n +2 "$TMP/t2.csv" | awk -F, '$3 != $5 || $7 != 0 { bad++ } END { print bad + 0 }')" 0 \
	"strict, overloaded timeline: every row all dropped, 0 fps"
# A phase log as lj-env --sweep writes it: the rows take the phase in force at their start.
# Every frame's class: the issue's 1 x 17 ms case for 3 s.
run_rc lj-frame --fake-work 1000 --stages 1 -D 3 --work 17000 --frame-log "$TMP/frames.csv" --json "$TMP/f17.json" -q
is "$(head -1 "$TMP/frames.csv")" "frame,vsync_ns,present_ns,shown_ns,class,stage,waited_ns" "frame log header"
is "$(tail -n +2 "$TMP/frames.csv" | awk -F, '{ c[$5]++ } END { printf "%d %d %d", NR, c["deadline_missed"], c["skipped"] }')" \
	"180 177 3" "frame log: 180 frames, 177 shown late, 3 skipped"
is "$(jq -r '[.summary.fps.value, .summary.percentage_smooth.value, .summary.mean_frame_time.value] | "\(.[0]) \(.[1] * 10 | round / 10) \(.[2] / 10000 | round / 100)"' "$TMP/f17.json")" \
	"59 98.3 16.95" "1 x 17 ms for 3 s: 59.0 fps, 98.3 % smooth, 16.95 ms mean frame time (telemetry's figures)"
usage --ramp --frame-log "$TMP/x.csv"

# Dropped frames in a sliding window (Chromium's DroppedFrameCounter). 17 ms
# of work per 16.7 ms frame falls a third of a ms further behind each frame:
# stage 0 skips a frame about every 50, 11 in 10 s. Each 60-frame window
# holds one of them or, where two skips are under 60 frames apart, two:
# worst window 2 of 60 (3.33 %), the median window 1 (1.67 %).
usage --drop-window 10ms
usage --drop-window 61
usage --ramp --drop-window 2
run_rc lj-frame --fake-work 1000 --stages 1 -D 10 --work 17000 --timeline "$TMP/tw.csv" --json "$TMP/w.json"
is "$(jq -r '[.summary | .window_dropped_max, .window_dropped_p50, .window_dropped_p95, .window_dropped_p99 | .value] | map(tostring) | join(" ")' "$TMP/w.json")" \
	"3.333 1.667 3.333 3.333" "17 ms frames: worst 1 s window 3.33 %, p50 1.67 %, p95 and p99 3.33 %"
is "$(jq -c '.results[] | select(.name == "dropped_window") | [.window_frames, .windows, .windows_by_dropped]' "$TMP/w.json")" \
	'[60,541,[[1,451],[2,90]]]' "...over 541 windows of 60 frames: 451 hold one drop, 90 two"
is "$(jq -r '.results[] | select(.name == "dropped_window") | [.buckets[].share_pct] | (add | . * 1000 | round), (.[1] * 100 | round)' "$TMP/w.json" | tr '\n' ' ')" \
	"100000 1664 " "...smoothness buckets add up to 100 %, [3,6) holds 90 of 541 (16.64 %)"
is "$(jq -r '[.summary.throughput_janks.value, .summary.dropped.value] | map(tostring) | join(" ")' "$TMP/w.json")" "11 11" \
	"each skipped frame is one throughput jank (a gap of 2 vsyncs after gaps of 1)"
is "$(jq -c '.results[] | select(.name == "missed_vsyncs") | [.windows, .missed_vsyncs_sum_max, .missed_vsyncs_max]' "$TMP/w.json")" \
	"[9,2,1]" "589 new frames make 9 windows of 64: at most 2 vsyncs missed in one, 1 by one frame"
is "$(jq -r '.params.drop_window_ns' "$TMP/w.json")" 1000000000 "params record the 1 s window"
grep -q '^dropped in 1 s windows (541 windows of 60 frames): max 3.33% (2) at +' "$TMP/out"; ok $? "text: the window line"
grep -q '^jank (throughput drops between consecutive frames): 11 (1.83% of frames); missed vsyncs per 64 frames (9 windows)' "$TMP/out"
ok $? "text: the jank and missed vsyncs line"
is "$(head -1 "$TMP/tw.csv")" "t_s,phase,frames,displayed,dropped,janky,fps,window_dropped_pct,throughput_janks" \
	"timeline: the window's % dropped and the janks are the last columns"
is "$(tail -n +2 "$TMP/tw.csv" | awk -F, 'NR <= 9 && $8 != "" { bad++ } NR >= 10 && $8 !~ /^[0-9]/ { bad++ } { j += $9 } END { print bad + 0, j }')" \
	"0 11" "timeline: no window before the first full second, one in every row after; the janks add up"
run_rc lj-frame --fake-work 1000 --stages 1 -D 10 --work 17000 --drop-window 0.5 --json "$TMP/w2.json" -q
is "$(jq -c '.results[] | select(.name == "dropped_window") | [.window_frames, .windows, .max_dropped]' "$TMP/w2.json")" \
	"[30,571,1]" "--drop-window 0.5: 571 windows of 30 frames, none holding two skips 50 frames apart"
run_rc lj-frame $FAKE --work 1000 -D 0.5 --json "$TMP/short.json"
is "$(jq -r '[.summary.window_dropped_max.value, .summary.missed_vsyncs_sum_max.value] | map(tostring) | join(" ")' "$TMP/short.json")" \
	"null null" "a run shorter than the window (or 64 frames) leaves those metrics null"
grep -q '^dropped in 1 s windows: none (the run.s 30 frames are fewer than a window.s 60)' "$TMP/out"; ok $? "...and says so"
if [ -x "$LJ_BUILD/lj-compare" ]; then
	run_rc lj-compare --validate "$TMP/w.json" "$TMP/short.json"
	is "$rc" 0 "documents with the window figures validate"
	# lj-compare takes them as metrics where higher is worse: 20 ms frames drop
	# a frame in every 6 (worst window 10 of 60) against 17 ms frames' 2 of 60.
	mkdir -p "$TMP/w17" "$TMP/w20"
	for i in 1 2 3 4 5; do
		lj-frame --fake-work 1000 --stages 1 -D 2 --work 17000 --json "$TMP/w17/$i.json" -q 2>/dev/null
		lj-frame --fake-work 1000 --stages 1 -D 2 --work 20000 --json "$TMP/w20/$i.json" -q 2>/dev/null
	done
	run_rc lj-compare --metrics window_dropped_max,throughput_janks "$TMP/w17" "$TMP/w20"
	grep -qE '^p\(MWU\) +window_dropped_max .*\* worse +\[%, lower is better\]' "$TMP/out"
	ok $? "lj-compare: a worse worst window is a significant rise, lower being better"
	grep -qE '^p\(rate\) +throughput_janks .*\* worse +\[count, lower is better\]' "$TMP/out"
	ok $? "lj-compare: throughput janks compared as counts, lower being better"
else
	skip 3 "lj-compare not built"
fi

# (A simulated run's vsync 0 is at time 0.)
printf '0 cpus=0\n150000000 cpus=1\n' >"$TMP/phases"
export LJ_SWEEP_PHASES="$TMP/phases"
run_rc lj-frame $FAKE --work 1000 --warmup 0 --timeline "$TMP/t3.csv" -q
unset LJ_SWEEP_PHASES
is "$(tail -n +2 "$TMP/t3.csv" | cut -d, -f2 | uniq -c | awk '{ printf "%s:%s ", $1, $2 }')" "2:cpus=0 8:cpus=1 " \
	"a phase log: rows from 0.2 s take the phase that began at 0.15 s"

done_testing
