#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# frame-sweep.t - lj-frame's timeline under lj-env --sweep on a real cpuset group: each row carries the phase in force.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
export LJ_RESULT_NO_SYSINFO=1
[ -x "$LJ_BUILD/lj-env" ] && [ -x "$LJ_BUILD/lj-frame" ] || skip_all "lj-env and lj-frame not built"
command -v jq >/dev/null || skip_all "jq not installed"
require_real_cgroups "real cgroups need root"
G=ljfs$$
system_lock

# Three phases of 400 ms, a 100 ms timeline: five changes in 2 s, so that
# a start slowed by a loaded machine still leaves three phases to see.
export TMPDIR=$TMP	# where lj-env puts its phase log
run_rc lj-env --cgroup $G --sweep cpus=0,1,0-1 --dwell 400ms --json "$TMP/env.json" -- \
	lj-frame -D 2 --work-time 400us --timeline "$TMP/t.csv" --timeline-interval 100ms \
	--json "$TMP/frame.json" -q
is "$rc" 0 "lj-frame under lj-env --sweep exits 0"
[ "$rc" -eq 0 ] || diag "$(head -3 "$TMP/err")"
is "$(head -1 "$TMP/t.csv" | cut -d, -f2)" phase "the timeline has a phase column"
# lj-frame's start (calibration, warm-up) takes part of the first phase:
# the rows show a stretch of the sweep's cycle.
seen=" $(tail -n +2 "$TMP/t.csv" | cut -d, -f2 | uniq | tr '\n' ' ')"
cycle=" cpus=0 cpus=1 cpus=0-1 cpus=0 cpus=1 cpus=0-1 cpus=0 cpus=1 cpus=0-1 "
case "$cycle" in *"$seen"*) r=0 ;; *) r=1 ;; esac
ok $r "the rows carry the sweep's phases in the sweep's order ($seen)"
ok $(( $(echo $seen | wc -w) >= 3 ? 0 : 1 )) "...at least three of them in 2 s of 400 ms phases"

# Each change the sweep made inside the timeline shows in the first row
# that starts at or after it: within one interval of the sweep's time.
t0=$(jq -r '.side.timeline_t0_ns' "$TMP/frame.json")
# (A step the kernel refused is no change of phase: lj-env logs it as an error.)
jq -r '.side.sweep[] | select(.error == null) | "\(.mono_ns) cpus=\(.cpus)"' "$TMP/env.json" >"$TMP/changes"
bad=$(awk -F, -v t0="$t0" -v iv=100000000 '
	NR == FNR { split($0, a, " "); at[NR] = a[1] - t0; lab[NR] = a[2]; n = NR; next }
	FNR > 1 { row[FNR - 1] = $1 * 1e9; ph[FNR - 1] = $2; m = FNR - 1 }
	END {
		bad = 0; checked = 0
		for (k = 2; k <= n; k++) {
			if (at[k] <= 0 || at[k] >= row[m]) continue
			for (r = 1; r <= m && row[r] < at[k]; r++) ;
			checked++
			if (ph[r] != lab[k] || row[r] - at[k] >= iv) bad++
			if (r > 1 && ph[r - 1] == lab[k]) bad++
		}
		print bad, checked
	}' "$TMP/changes" "$TMP/t.csv")
is "${bad% *}" 0 "each phase change shows within one interval of the sweep's time"
[ "${bad% *}" = 0 ] || diag "t0 $t0; changes: $(tr '\n' ' ' <"$TMP/changes"); rows: $(cut -d, -f1,2 "$TMP/t.csv" | tr '\n' ' ')"
ok $(( ${bad#* } >= 2 ? 0 : 1 )) "...checked on the two changes inside the run (${bad#* })"
[ -z "$(ls "$TMP"/lj-env-phases.* 2>/dev/null)" ]; ok $? "lj-env removes its phase log"

# A sweep faster than lj-frame's start: its cpuset changes under the
# calibration and the setup, which must follow it rather than fail.
fails=0
for i in 1 2 3; do
	run_rc lj-env --cgroup $G --sweep cpus=0,1 --dwell 20ms -- lj-frame -D 0.3 --work-time 400us -q
	[ "$rc" -eq 0 ] || { fails=$((fails + 1)); diag "exit $rc: $(grep -v 'sweep: +' "$TMP/err" | head -2)"; }
done
is "$fails" 0 "lj-frame under a 20 ms sweep starts and runs, 3 times out of 3"

done_testing
