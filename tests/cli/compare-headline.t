#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-headline.t - lj-compare --headline ("how good is this machine?", the first lines of
# make quick) on a small real run: one line per tool in microseconds, with verdicts and context.
. "$(dirname "$0")/lib.sh"

for t in lj-matrix lj-compare lj-cyclic lj-signal lj-hackbench lj-frame; do
	[ -x "$LJ_BUILD/$t" ] || skip_all "$t not built in $LJ_BUILD"
done
export LJ_RESULT_NO_SYSINFO=1

# A tool the headline does not know is shown by its own summary, never dropped:
# the shared latency set when it has one (in us), else its first metrics with a direction.
mkdir -p "$TMP/own"
cat >"$TMP/own/manifest.json" <<'JSON'
{"system": {"hostname": "h", "kernel_release": "k", "preempt": {"model": "full"}},
 "cells": [
  {"workload": "probe", "axes": {}, "runs": [{"file": "p1.json"}, {"file": "p2.json"}, {"file": "p3.json"}]},
  {"workload": "rates", "axes": {}, "runs": [{"file": "r1.json"}]}]}
JSON
for i in 1 2 3; do
	cat >"$TMP/own/p$i.json" <<JSON
{"tool": "lj-newprobe", "summary": {
 "min": {"value": 100, "unit": "ns", "better": "lower"},
 "p50": {"value": ${i}000, "unit": "ns", "better": "lower"},
 "p99": {"value": ${i}0000, "unit": "ns", "better": "lower"},
 "p99_9": {"value": ${i}50000, "unit": "ns", "better": "lower"},
 "max": {"value": ${i}000000, "unit": "ns", "better": "lower"},
 "samples": {"value": 5, "unit": "count", "better": "none"}}}
JSON
done
cat >"$TMP/own/r1.json" <<'JSON'
{"tool": "x-rates", "validity": {"verdict": "valid"}, "summary": {
 "samples": {"value": 5, "unit": "count", "better": "none"},
 "rate": {"value": 1500, "unit": "1/s", "better": "higher"},
 "errors": {"value": 2, "unit": "count", "better": "lower"},
 "wait": {"value": 2500, "unit": "ns", "better": "lower"}}}
JSON
run_rc lj-compare --headline "$TMP/own"
is "$rc" 0 "--headline on tools it does not know exits 0"
grep -qE '^  lj-newprobe \(probe\) +p50 2\.00 us  p99 20\.0 us  p99\.9 250 us  max 2000 us +no verdict ' "$TMP/out"
ok $? "an unknown tool with the shared percentile set: p50/p99/p99.9/max medians in us"
grep -qE '^  x-rates \(rates\) +rate 1500 1/s  errors 2 count  wait 2\.50 us +valid \(1 runs\)$' "$TMP/out"
ok $? "an unknown tool without it: its own metrics with a direction, in their units"
[ "$(grep -c '^  ' "$TMP/out")" = 2 ]
ok $? "one line each: neither is dropped"

cat >"$TMP/small.scn" <<'SCN'
[matrix]
repeat   = 1
warmup   = 0
cgroup   = off

[workload cyclic]
command = lj-cyclic -l 100 -i 1000 -q -m -p 90

[workload signal]
command = lj-signal -l 100 -q

[workload hackbench]
command = lj-hackbench -l 2

[workload frame]
command = lj-frame --fps 60 -D 0.2s -q

[workload steady]
command = lj-frame --fps 60 -D 2s -q --stages 1 --work 1 --fake-work 17000000
SCN
run=$(lj-matrix -o "$TMP/store" -t small "$TMP/small.scn" 2>"$TMP/merr")
[ -d "$run" ] || { diag "$(tail -3 "$TMP/merr")"; skip_all "the small matrix did not run here"; }

run_rc lj-compare --headline "$run"
is "$rc" 0 "--headline exits 0"
head -1 "$TMP/out" | grep -q '^How good is this machine?  .*, kernel .*, preempt '
ok $? "it opens with the question and the machine's identity"
grep -qE '^  timer wake-up \(cyclic, [a-z]+ [0-9]+\) +p50 [0-9.]+ us  p99 [0-9.]+ us  p99\.9 [0-9.]+ us  max [0-9.]+ us +(valid|suspect|invalid) ' "$TMP/out"
ok $? "timer wake-up p50/p99/p99.9/max in us, with the policy and the verdict"
grep -q '^ *(p99.9 from 100 samples per run: a 97.5% bound from data needs 3688)$' "$TMP/out"
ok $? "a p99.9 from too few samples says so"
grep -qE '^  signal hop \(signal, [a-z]+ [0-9]+\) +p50 [0-9.]+ us  p99 [0-9.]+ us  max [0-9.]+ us ' "$TMP/out"
ok $? "signal hop in us"
grep -qE '^  frames \(frame, [0-9]+ FPS\) +dropped [0-9.]+% \([0-9]+ of [0-9]+\)  janky [0-9.]+% of intervals ' "$TMP/out"
ok $? "60 FPS frames: dropped and janky"
! grep -q '^  frames (frame, .*worst' "$TMP/out"
ok $? "a 0.2 s frame run has no worst 1 s window to show"
# 17 ms of simulated work per 16.7 ms frame: a frame skipped every 0.6 s, so the
# worst 1 s sliding window holds two of its 60 frames (Chromium's DroppedFrameCounter).
grep -qE '^  frames \(steady, 59 FPS\) +dropped [0-9.]+% \(2 of 120\)  janky [0-9.]+% of intervals  worst 1 s window 3\.33% ' "$TMP/out"
ok $? "the frames line ends with the worst sliding window's dropped share"
grep -qE '^  messaging \(hackbench\) +[0-9]+ msgs/s ' "$TMP/out"
ok $? "messaging throughput"
! grep -q ' ns\b' "$TMP/out"
ok $? "no nanoseconds in the headline"
run_rc lj-compare --headline "$run" "$run"
is "$rc" 2 "--headline takes one run directory"
run_rc lj-compare --headline "$TMP"
is "$rc" 2 "a directory that is not a run is bad input"

done_testing
