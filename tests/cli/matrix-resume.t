#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-resume.t - lj-matrix after SIGINT and SIGKILL: nothing half-written, --resume redoes nothing finished.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] || skip_all "lj-matrix not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1
export FAKE_LOG="$TMP/fake.log"

cat >"$TMP/r.scn" <<EOF
[matrix]
repeat = 2
val = 1, 2, 3, 4
[workload fake]
command = $FAKE --sleep 0.3 --gate $TMP/gate.\${val} --value \${val}
EOF
# Each cell's runs wait for its gate: the signals below land inside the
# second cell however slowly a loaded machine runs the first.
gates() { rm -f "$TMP"/gate.*; for v; do : >"$TMP/gate.$v"; done; }

export LJ_WAIT_TRIES=600	# wait_for (lib.sh): at most ~30 s
# cells_done DIR N: N cells are done, in the manifest or in the progress log
# lj-matrix appends to between the manifest's rewrites; wait_done DIR N waits for it
cells_done() {
	[ -f "$1/manifest.json" ] &&
		[ $(($(cells "$1" | grep -c ' done ') + $(grep -c '"state":"done"' "$1/progress.jsonl" 2>/dev/null))) -ge "$2" ]
}
wait_done() { wait_for cells_done "$@"; }

# run_dir STORE: the run directory lj-matrix creates there (waits for it)
has_run_dir() { [ -n "$(ls -d "$1"/*/ 2>/dev/null)" ]; }
run_dir() { wait_for has_run_dir "$1" && ls -d "$1"/*/ | head -1 | sed 's,/$,,'; }

# --- SIGINT in the middle of the second cell
gates 1
lj-matrix -q -o "$TMP/s" "$TMP/r.scn" >"$TMP/out" 2>"$TMP/err" &
pid=$!
dir=$(run_dir "$TMP/s")
wait_done "$dir" 1
ok $? "the first cell finishes"
kill -INT $pid
wait $pid
rc=$?
is "$rc" 1 "SIGINT: exit 1"
grep -q "interrupted: .* continue with: lj-matrix --resume $dir" "$TMP/err"
ok $? "SIGINT: says how to resume"
is "$(mjson "$dir" state)" interrupted "manifest state interrupted"
json_ok "$dir/manifest.json"
ok $? "manifest is complete JSON"
before=$(cells "$dir" | grep -c ' done ')
[ "$before" -ge 1 ] && [ "$before" -lt 4 ]
ok $? "some cells done, some pending ($before done)"
[ -z "$(find "$dir" -name '*.tmp*')" ]
ok $? "no temporary files left"
is "$(find "$dir" -name 'run-*.json' | wc -l)" "$(cells "$dir" | awk '{n += $NF} END {print n}')" \
	"result files only for recorded runs"
runs_before=$(grep -c 'warmup=0' "$FAKE_LOG")

# --- resume: the finished cells are not run again
gates 1 2 3 4
run_rc lj-matrix -q --resume "$dir"
is "$rc" 0 "resume completes"
is "$(cells "$dir" | grep -c ' done 2$')" 4 "all cells done with 2 runs each"
is "$(mjson "$dir" state)" complete "manifest state complete"
runs_after=$(grep -c 'warmup=0' "$FAKE_LOG")
# the pending cells ran their missing runs only; val=1 (first, finished) ran once per run
[ $((runs_after - runs_before)) -le $(((4 - before) * 2)) ] &&
	[ "$(grep -c 'cell=val=1 run=1 ' "$FAKE_LOG")" = 1 ]
ok $? "resume did not redo finished runs ($runs_before runs, then $((runs_after - runs_before)))"
run_rc lj-compare --validate "$dir"/fake/*/run-*.json
is "$rc" 0 "every stored result validates"

# --- SIGKILL: the manifest on disk is still whole, and resume works from it
rm -f "$FAKE_LOG"
gates 1
lj-matrix -q -o "$TMP/k" "$TMP/r.scn" >"$TMP/out" 2>"$TMP/err" &
pid=$!
dir=$(run_dir "$TMP/k")
wait_done "$dir" 1
kill -KILL $pid
wait $pid 2>/dev/null
# the watchdog stops the orphaned workload, then lets go of the run directory's lock
for ((i = 0; i < 600; i++)); do flock -n "$dir" true && break; sleep 0.05; done
json_ok "$dir/manifest.json"
ok $? "after SIGKILL the manifest is complete JSON"
is "$(mjson "$dir" state)" running "after SIGKILL the state is still running"
gates 1 2 3 4
run_rc lj-matrix -q --resume "$dir"
is "$rc" 0 "resume after SIGKILL completes"
is "$(cells "$dir" | grep -c ' done 2$')" 4 "all cells done"
for f in "$dir"/fake/*/run-*.json; do json_ok "$f" || echo "$f"; done >"$TMP/badjson"
is "$(wc -l <"$TMP/badjson")" 0 "no partial result file"

done_testing
