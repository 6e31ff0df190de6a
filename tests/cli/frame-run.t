#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# frame-run.t - lj-frame with real stage threads: light load holds the rate, overload drops, sanity of what it measures.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-frame" ] || skip_all "lj-frame not built in $LJ_BUILD"
command -v jq >/dev/null || skip_all "jq not installed"
export LJ_RESULT_NO_SYSINFO=1

# Light load: two stages of 400 us at 60 Hz (5% of a period). The VM is
# shared and noisy, so the bar is generous (< 20% dropped) and a bad run
# gets one retry; an idle machine drops none.
light() {
	lj-frame -D 1 --work-time 400us --json "$TMP/light.json" -q 2>"$TMP/err"
}
light; rc=$?
rate=$(jq -r '.summary.drop_rate.value' "$TMP/light.json" 2>/dev/null)
if [ "$rc" -ne 0 ] || ! awk -v r="$rate" 'BEGIN { exit !(r < 0.2) }'; then
	diag "first light run: exit $rc, drop rate $rate; retrying once"
	light; rc=$?
	rate=$(jq -r '.summary.drop_rate.value' "$TMP/light.json" 2>/dev/null)
fi
is "$rc" 0 "light run exits 0"
# The run's own validity verdict measures the load from outside the tool:
# when others kept the CPUs busy, a dropped frame is theirs, not lj-frame's.
busy=$(jq -r '[.validity.reasons[]? | select(.what == "load") | .text] | join("; ")' "$TMP/light.json" 2>/dev/null)
if ! awk -v r="$rate" 'BEGIN { exit !(r < 0.2) }' && [ -n "$busy" ]; then
	skip 1 "the machine was busy with other work ($busy): drop rate $rate says nothing of lj-frame"
else
	awk -v r="$rate" 'BEGIN { exit !(r < 0.2) }'; ok $? "light load drops almost nothing (drop rate $rate < 0.2)"
fi

J="$TMP/light.json"
is "$(jq -r '.summary.frames.value == 60' "$J")" true "1 s at 60 Hz is 60 frames"
is "$(jq -r '.results[] | select(.name == "production_time") | (.min_ns > 0 and .min_ns <= .p50_ns and .p50_ns <= .p95_ns and .p95_ns <= .p99_ns and .p99_ns <= .max_ns)' "$J")" \
	true "production time: 0 < min <= p50 <= p95 <= p99 <= max"
is "$(jq -r '[.results[] | select(.stage != null)] | length' "$J")" 2 "one result per stage"
is "$(jq -r '[.results[] | select(.stage != null) | .wake_lateness | (.count > 0 and .min_ns <= .p50_ns and .p50_ns <= .p99_ns and .p99_ns <= .max_ns)] | all' "$J")" \
	true "stage wake-up lateness: counted, min <= p50 <= p99 <= max"
is "$(jq -r '[.results[] | select(.stage != null) | ((.frames_per_cpu | add) // 0) == .frames] | all' "$J")" \
	true "per-stage placement accounts for every frame worked on"
is "$(jq -r '.params.calibration | length > 0 and all(.ns_per_unit > 0)' "$J")" true "calibration reports ns per unit"
is "$(jq -r '.side.overhead_ns_per_frame >= 0' "$J")" true "emulator overhead is reported"
# the main thread polls the validity hook 10 times a second: it ran, and far less than the stages did
is "$(jq -r '.side.main_thread_cpu_ns > 0 and .side.main_thread_cpu_pct > 0 and .side.main_thread_cpu_pct < 100 and
	.side.main_thread_cpu_ns < ([.results[] | select(.stage != null) | .cpu_ns] | add)' "$J")" \
	true "the main thread's CPU time while the stages ran is reported, below the stages'"
is "$(jq -r '.side.cpufreq | type' "$J")" "$( [ -e /sys/devices/system/cpu/cpu0/cpufreq ] && echo object || echo string)" \
	"cpufreq samples, or why there are none"

# Calibration per core kind on a fake big.LITTLE machine (CPU 0 little,
# CPU 1 big), generated with hwloc's tools; --cpus big keeps every stage
# frame on the big kind.
if [ "$(nproc)" -ge 2 ] && command -v lstopo >/dev/null && command -v hwloc-annotate >/dev/null &&
   lstopo -i "pack:1 [numa] core:2 pu:1" --of xml "$TMP/two.xml" 2>/dev/null &&
   hwloc-annotate "$TMP/two.xml" "$TMP/bl1.xml" -- none -- cpukind 0x1 0 0 CoreType little-core &&
   hwloc-annotate "$TMP/bl1.xml" "$TMP/bl.xml" -- none -- cpukind 0x2 1 0 CoreType big-core; then
	HWLOC_XMLFILE="$TMP/bl.xml" HWLOC_THISSYSTEM=1 run_rc lj-frame -D 0.3 --work 100 --json "$TMP/bl.json" -q
	is "$(jq -c '[.params.calibration[] | [.kind, .cpus]]' "$TMP/bl.json")" '[[0,"0"],[1,"1"]]' \
		"calibration: one entry per core kind"
	HWLOC_XMLFILE="$TMP/bl.xml" HWLOC_THISSYSTEM=1 run_rc lj-frame -D 1 --work 100 --cpus big --json "$TMP/bl2.json" -q
	is "$(jq -c '[.params.calibration[].kind], ([.results[] | select(.stage != null) | .frames_per_kind | keys[]] | unique)' "$TMP/bl2.json" | tr '\n' ' ')" \
		'[1] ["1"] ' "--cpus big: calibrated on and ran on the big kind only"
else
	skip 2 "fake big.LITTLE topology needs 2 CPUs, lstopo and hwloc-annotate"
fi

# The stored calibration: the first run measures and stores it, later runs
# reuse it (same units for the same --work-time) and report their drift.
C="$LJ_FRAME_CALIBRATION"
[ -s "$C" ]; ok $? "the first real run stored a calibration in \$LJ_FRAME_CALIBRATION"
run_rc lj-frame -D 0.2 --stages 1 --work-time 8ms --json "$TMP/c1.json" -q
run_rc lj-frame -D 0.2 --stages 1 --work-time 8ms --json "$TMP/c2.json" -q
is "$(jq -r '[.params.calibration[].source] | unique | join(",")' "$TMP/c1.json")" stored "later runs reuse the stored figure"
is "$(jq -r '.params.work_units[0]' "$TMP/c1.json")" "$(jq -r '.params.work_units[0]' "$TMP/c2.json")" \
	"...so the same --work-time is the same number of units"
is "$(jq -r '.params.calibration_id' "$TMP/c1.json")" "$(jq -r '.params.calibration_id' "$TMP/c2.json")" "...and the same calibration_id"
is "$(jq -r '[.params.calibration[] | (.drift | type), (.check_ns_per_unit > 0)] | map(tostring) | join(",")' "$TMP/c1.json")" \
	"number,true" "each run records its own check and the drift"
# (Under heavy load a short run may skip every frame: then there is nothing per frame.)
is "$(jq -r '.results[] | select(.stage == 0) | ((.frames == 0 and .work_ns_per_frame == 0) or ((.work_ns_per_frame > 0) and (.cpu_ns_per_frame > 0)))' "$TMP/c1.json")" \
	true "measured work per frame: wall and CPU time"
cp "$C" "$TMP/calib.before"
sleep 1
run_rc lj-frame --calibrate
is "$rc" 0 "--calibrate exits 0"
grep -q '^calibration: .*(new in ' "$TMP/out"; ok $? "--calibrate measures anew and says where it stored the figure"
cmp -s "$C" "$TMP/calib.before"; ok $(( ! $? )) "--calibrate rewrote the stored calibration"
run_rc lj-frame -D 0.2 --stages 1 --work-time 8ms --json "$TMP/c3.json" -q
[ "$(jq -r '.params.calibration_id' "$TMP/c3.json")" != "$(jq -r '.params.calibration_id' "$TMP/c1.json")" ]
ok $? "a new calibration has a new calibration_id"
if [ -x "$LJ_BUILD/lj-compare" ]; then
	mkdir -p "$TMP/cmpA" "$TMP/cmpB" && cp "$TMP/c1.json" "$TMP/cmpA/" && cp "$TMP/c3.json" "$TMP/cmpB/"
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q 'different lj-frame calibrations' "$TMP/cmperr"; ok $? "lj-compare warns when runs used different calibrations"
	cp "$TMP/c2.json" "$TMP/cmpB/c3.json"
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q 'different lj-frame calibrations' "$TMP/cmperr"; ok $(( ! $? )) "...and not when they used the same"
	# The run that measures and stores a figure says "new", those that read it back "stored":
	# the same calibration, no warning (make quick said "runs used different ... calibrations").
	export LJ_FRAME_CALIBRATION=$TMP/fresh-calibration
	mkdir -p "$TMP/cmpN" "$TMP/cmpS"
	lj-frame -D 0.2 --stages 1 --work-time 8ms --json "$TMP/cmpN/n.json" -q >/dev/null 2>&1
	lj-frame -D 0.2 --stages 1 --work-time 8ms --json "$TMP/cmpS/s.json" -q >/dev/null 2>&1
	export LJ_FRAME_CALIBRATION=$C
	is "$(jq -r '.params.calibration_id | test("/new ")' "$TMP/cmpN/n.json"):$(jq -r '.params.calibration_id | test("/stored ")' "$TMP/cmpS/s.json")" \
		"true:true" "set-up: one run measured its calibration, the next read it back"
	lj-compare "$TMP/cmpN" "$TMP/cmpS" >/dev/null 2>"$TMP/cmperr"
	grep -q 'different lj-frame calibrations' "$TMP/cmperr"; ok $(( ! $? )) "...the same calibration, once new and once stored: no warning"
else
	skip 4 "lj-compare not built"
fi
run_rc lj-frame -D 0.2 --calibration-file /proc/no/such/calib
is "$rc" 0 "an unwritable calibration file does not stop the run"
grep -q '^calibration file: cannot write /proc/no/such/calib' "$TMP/out"; ok $? "...and says why it was not stored"
grep -q '^calibration: .*(run)' "$TMP/out"; ok $? "...and that the figure is this run's own"
usage_cal() { run_rc lj-frame "$@"; is "$rc" 2 "usage error: $*"; }
usage_cal --calibrate --ramp

# Overload: one stage whose work is 1.5 periods cannot present anything on time.
run_rc lj-frame -D 0.5 --stages 1 --work-time 25ms --display-model strict --json "$TMP/heavy.json" -q
is "$rc" 0 "overloaded run exits 0"
rate=$(jq -r '.summary.drop_rate.value' "$TMP/heavy.json")
awk -v r="$rate" 'BEGIN { exit !(r >= 0.9) }'; ok $? "work longer than a period drops nearly all frames (drop rate $rate)"
# Work that never pauses is cut short by the run's end: that frame counts
# as abandoned, so it is in neither the stage's frames nor its placement.
placed=$(jq -r '[.results[] | select(.stage != null) | ((.frames_per_cpu | add) // 0) == .frames] | all' "$TMP/heavy.json")
is "$placed" true "placement leaves out the frame cut short at the end"
[ "$placed" = true ] || diag "stages: $(jq -c '[.results[] | select(.stage != null) | {frames, abandoned, skipped, frames_per_cpu}]' "$TMP/heavy.json")"

# Background threads and the text summary.
run_rc lj-frame -D 0.3 --work-time 200us --background 2 --bg-load 30
is "$rc" 0 "run with background threads exits 0"
grep -q '^frames: [0-9]* displayed: [0-9]* dropped: [0-9]* (' "$TMP/out"; ok $? "text summary line"
grep -q '^stage 1: ' "$TMP/out"; ok $? "per-stage text line"
grep -q '^stage 0: units [0-9]* frames [0-9]* skipped [0-9]* abandoned [0-9]* wake us: ' "$TMP/out"
ok $? "stage 0's line counts both its skipped and its abandoned frames"

# Urgent vs non-urgent placement: stages in a group of their own, the
# background in the root groups on another CPU (root; needs 2 CPUs). A
# real cgroup is a system change: take the shared lock (held to the end).
cgroup_profile
if is_root && [ "$(nproc)" -ge 2 ] && [ -n "$CG_MODE" ]; then
	system_lock
	run_rc lj-frame -D 0.3 --work-time 200us --cgroup "ljframe-t$$" --cpus 1 \
		--background 1 --bg-cgroup off --bg-cpus 0 --json "$TMP/grp.json" -q
	is "$rc" 0 "stages in a group, background in the root groups"
	fb=$(jq -c '[.setup.fallbacks[].what]' "$TMP/grp.json")
	# v2: a thread cannot be in another group than its process (no threaded groups): said, not hidden
	want='[]'
	[ "$CG_MODE" = v2 ] && want='["--bg-cgroup"]'
	is "$fb" "$want" "...fallbacks: $want ($CG_MODE)"
	[ "$fb" = "$want" ] || diag "stderr: $(cat "$TMP/err")"
	placed=$(jq -c '[.results[] | select(.stage != null) | .frames_per_cpu]' "$TMP/grp.json")
	if [ "$(jq -r '[.[] | keys[]] | length' <<<"$placed")" = 0 ]; then
		skip 1 "no stage finished a frame in 0.3 s on this loaded machine: placement says nothing"
	else
		is "$(jq -r '[.[] | keys[]] | unique == ["1"]' <<<"$placed")" true \
			"...every stage frame on the group's CPU (frames per CPU, by stage: $placed)"
	fi
	is "$(find /sys/fs/cgroup -maxdepth 3 -name "ljframe-t$$" 2>/dev/null)" "" "...and the group is gone afterwards (v1 or v2)"
	run_rc lj-frame -D 0.3 --background 1 --bg-cgroup "ljframe-none$$" -q
	is "$rc" 2 "--bg-cgroup naming a missing group is a usage error"
else
	skip 5 "cgroup placement needs root, 2 CPUs and a cpuset controller${CG_WHY:+ ($CG_WHY)}"
fi

# A real timeline.
run_rc lj-frame -D 0.5 --work-time 200us --timeline "$TMP/t.csv" --timeline-interval 50ms -q
is "$rc" 0 "timeline run exits 0"
is "$(tail -n +2 "$TMP/t.csv" | wc -l)" 10 "10 rows for 0.5 s at 50 ms"

# caught PID: wait until PID catches SIGINT (SigCgt bit 1). A background
# job of a non-interactive shell starts with SIGINT ignored, so a SIGINT
# sent before lj_stop_install would be lost, and on a loaded machine that
# window can exceed a fixed sleep. 10 s at most: a bound for a stuck tool.
caught() {
	local i mask

	for ((i = 0; i < 100; i++)); do
		mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
		[ -n "$mask" ] && (( 0x$mask & 2 )) && return 0
		sleep 0.1
	done
	return 1
}

# SIGINT ends the run early and still reports.
lj-frame -D 20 --work-time 200us --json "$TMP/int.json" -q &
pid=$!
caught $pid || diag "lj-frame does not catch SIGINT yet"
sleep 1
kill -INT $pid
wait $pid; rc=$?
is "$rc" 0 "SIGINT: exit 0 after reporting"
is "$(jq -r '.side.interrupted == true and .summary.frames.value < 1200' "$TMP/int.json")" true "SIGINT: partial run recorded as interrupted"

# A frame's work does not outlive a stop: units run in chunks that watch
# the stop flag and the run's end. The bounds (2 s after SIGINT; 5 s for
# a 0.2 s run, which needs calibration too and may share the CPUs with
# other tests) tell a stop from the 10 s a frame's work would take: they
# are not timing claims.
lj-frame -D 60 --work-time 10s --json "$TMP/long.json" -q &
pid=$!
caught $pid || diag "lj-frame does not catch SIGINT yet"
sleep 1
kill -INT $pid
for ((i = 0; i < 20; i++)); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
kill -0 $pid 2>/dev/null; ok $(( ! $? )) "SIGINT ends a run inside a 10 s frame's work within 2 s"
kill -KILL $pid 2>/dev/null
wait $pid; rc=$?
is "$rc" 0 "...exits 0"
is "$(jq -r '.side.interrupted' "$TMP/long.json" 2>/dev/null)" true "...and writes the result, marked interrupted"
run_rc timeout 5 lj-frame -D 200ms --warmup 0 --work-time 10s --json "$TMP/long.json" -q
is "$rc" 0 "-D 200ms ends a run of 10 s frames at its end, not the frame's"
is "$(jq -r '(.summary.frames.value > 0) and (.summary.dropped.value == .summary.frames.value)' "$TMP/long.json")" \
	true "...with every measured frame dropped"
is "$(jq -c '[.results[] | select(.stage != null) | .abandoned]' "$TMP/long.json")" \
	"[1,0]" "...the one frame started, cut short at the end, counted as abandoned by stage 0"

# Fallbacks are recorded as {"what", "reason"}, as every tool does.
if can_drop_to_nobody; then
	drop_to_nobody "$LJ_BUILD/lj-frame" -D 0.2 --work-time 200us -p 10 -q --json - >"$TMP/fb.json" 2>"$TMP/err"
	is "$(jq -r '.setup.fallbacks | length > 0 and
		all(type == "object" and (.what | type) == "string" and (.reason | type) == "string")' "$TMP/fb.json")" \
		true "without privilege, -p 10 falls back and setup.fallbacks holds {what, reason} objects"
else
	skip 1 "cannot run as nobody: fallback record"
fi

# Frequencies on a fake cpufreq tree (root: private mount namespace): the
# timeline gets a column per CPU and the samples record changes only. The
# new value is renamed into place: a reader never sees a half-written file.
if is_root && command -v unshare >/dev/null &&
   bash "$LJ_SRC/tests/fixtures/fake-cpu-sysfs.sh" "$TMP/sys" percpu 2>/dev/null; then
	unshare -m bash -c "mount --make-rprivate / &&
		mount --bind '$TMP/sys' /sys/devices/system/cpu &&
		{ (sleep 0.35; echo 2400000 >'$TMP/sys/cpufreq/policy0/new' &&
		   mv '$TMP/sys/cpufreq/policy0/new' '$TMP/sys/cpufreq/policy0/scaling_cur_freq') &
		  lj-frame -D 1 --work-time 200us --timeline '$TMP/tf.csv' --json '$TMP/tf.json' -q; rc=\$?; wait; exit \$rc; }"
	is "$?" 0 "run on a fake cpufreq tree exits 0"
	head -1 "$TMP/tf.csv" | grep -q ',cpu0_khz'; ok $? "timeline has a frequency column per CPU"
	is "$(tail -1 "$TMP/tf.csv" | cut -d, -f8)" 2400000 "timeline shows cpu0's new frequency"
	is "$(jq -c '[.side.cpufreq.samples[] | select(.[1] == 0) | .[2]] | (last == 2400000 and
		([range(1; length) as $i | .[$i] != .[$i - 1]] | all))' "$TMP/tf.json")" true \
		"cpu0: samples are changes only, ending at the new frequency"
	is "$(jq -c '[.side.cpufreq.samples[] | select(.[1] == 1)] | length' "$TMP/tf.json")" 1 \
		"cpu1 never changed: one sample"
else
	skip 5 "fake cpufreq tree needs root and unshare"
fi

# RT priority for the stage threads.
if is_root; then
	run_rc lj-frame -D 0.2 --work-time 200us -p 10 --json "$TMP/rt.json" -q
	is "$(jq -r '.params.stage_policy.policy + ":" + (.params.stage_policy.priority | tostring)' "$TMP/rt.json")" \
		"fifo:10" "-p 10 runs the stages as fifo:10"
else
	run_rc lj-frame -D 0.2 --work-time 200us -p 10 --strict -q
	is "$rc" 77 "-p without privilege under --strict exits 77"
fi

done_testing
