#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix.t - lj-matrix: usage errors, dry runs, the results store, failures, loads and timeouts
# (workloads are a fake tool writing a result document, so no measurement runs here).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] || skip_all "lj-matrix not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1

# A stand-in lj-env: logs its options, runs the command after --.
cat >"$TMP/fake-env" <<'EOF'
#!/bin/sh
echo "$@" >>"$FAKE_ENV_LOG"
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
EOF
chmod +x "$TMP/fake-env"
export FAKE_ENV_LOG="$TMP/env.log"

# --- usage and scenario errors
run_rc lj-matrix
is "$rc" 2 "no scenario is a usage error"
printf '[matrix]\nrepeat = 0\n[workload w]\ncommand = true\n' >"$TMP/bad.scn"
run_rc lj-matrix "$TMP/bad.scn"
is "$rc" 2 "a bad scenario exits 2"
grep -q "bad.scn:2: repeat: invalid value '0'" "$TMP/err"
ok $? "the error names file, line and problem"
run_rc lj-matrix "$TMP/missing.scn"
is "$rc" 2 "a missing scenario exits 2"
run_rc lj-matrix --repeat 0 "$TMP/bad.scn"
is "$rc" 2 "--repeat 0 is rejected"
run_rc lj-matrix --resume "$TMP" "$TMP/bad.scn"
is "$rc" 2 "--resume takes no scenario"

# --- dry run: cells, what runs, what is skipped and why
cat >"$TMP/dry.scn" <<EOF
[matrix]
repeat = 2
val = 1, 2
cpus = all, big:1
[workload ok]
command = $FAKE --value \${val}
[workload gone]
command = lj-no-such-tool -x
EOF
run_rc lj-matrix --lj-env "$TMP/fake-env" -o "$TMP/drystore" -n "$TMP/dry.scn"
is "$rc" 0 "dry run exits 0"
is "$(grep -c '^[0-9]*/8 ' "$TMP/out")" 8 "dry run lists every cell (2 workloads x 2 x 2)"
grep -q "gone \[val=1,cpus=all\]: skip: command 'lj-no-such-tool' not found" "$TMP/out"
ok $? "a missing tool is a skip reason"
if [ "$(lj_nkinds)" = 1 ]; then
	grep -q 'ok \[val=1,cpus=big:1\]: skip: cpus=big:1: one core kind' "$TMP/out"
	ok $? "cpus=big:1 on one core kind is skipped with the reason"
else
	skip 1 "this machine has several core kinds"
fi
grep -q "ok \[val=2,cpus=all\]: run: $FAKE --value 2" "$TMP/out"
ok $? "a runnable cell shows its command with axes substituted"
[ ! -e "$TMP/drystore" ]
ok $? "dry run writes nothing"

# --- the shipped scenarios parse and expand
for f in "$LJ_SRC"/scenarios/*.scn; do
	run_rc lj-matrix -n "$f"
	is "$rc" 0 "dry run of scenarios/${f##*/}"
done

# --- a real run into a store
cat >"$TMP/run.scn" <<EOF
[matrix]
repeat = 3
warmup = 1
order = random
seed = 11
val = 100, 200
[workload fake]
command = $FAKE --value \${val}
[workload broken]
command = $FAKE --fail
[workload nojson]
command = $FAKE --no-json
EOF
export FAKE_LOG="$TMP/fake.log"
run_rc lj-matrix -o "$TMP/store" -t base "$TMP/run.scn"
is "$rc" 1 "a failed cell makes the run exit 1"
dir=$(cat "$TMP/out")
case "$dir" in "$TMP/store/"*_base) ok 0 "stdout names the run directory (host_kernel_time_tag)";;
	*) ok 1 "stdout names the run directory: got '$dir'";; esac
cells "$dir" >"$TMP/cells"
is "$(grep -c 'fake .* done 3$' "$TMP/cells")" 2 "both fake cells done with 3 runs"
grep -q 'broken .* failed warmup 1: exit status 1: fake-workload: asked to fail 0$' "$TMP/cells"
ok $? "a failing workload: failed, with the reason and its last stderr line"
grep -q 'nojson .* failed warmup 1: no valid result' "$TMP/cells"
ok $? "a workload without a result document fails"
is "$(ls "$dir/fake/val=100" | grep -c '^run-[0-9].json$')" 3 "one JSON per measured run"
[ -z "$(find "$dir" -name '.warmup*' -o -name '*.tmp*')" ]
ok $? "warmup results and temporary files are gone"
run_rc lj-compare --validate "$dir"/fake/*/run-*.json
is "$rc" 0 "every stored result validates"
is "$(grep -c 'warmup=1' "$FAKE_LOG")" 6 "one warmup per cell (3 workloads x 2 values)"
is "$(grep -c 'cell=val=200 run=[123] warmup=0' "$FAKE_LOG")" 3 "the workload sees LJ_MATRIX_CELL and LJ_MATRIX_RUN"
is "$(mjson "$dir" state)" complete "manifest state complete"
is "$(mjson "$dir" tag)" base "manifest records the tag"
mjson "$dir" scenario.text | grep -q 'workload broken'
ok $? "manifest holds the scenario text"

# --- timeout and load
cat >"$TMP/load.scn" <<EOF
[matrix]
load = none, bg
[load bg]
command = sh -c 'echo \$\$ >>"$TMP/load.pids"; exec sleep 60'
[workload quick]
command = $FAKE --sleep 0.2
[workload slow]
command = $FAKE --sleep 30
timeout = 300ms
EOF
t0=$(date +%s)
run_rc lj-matrix -q -o "$TMP/store2" "$TMP/load.scn"
t1=$(date +%s)
dir2=$(cat "$TMP/out")
cells "$dir2" >"$TMP/cells2"
grep -q 'slow load=none failed run 1: timed out after 0.3 s' "$TMP/cells2"
ok $? "a run past its timeout is killed and the cell fails with the reason"
[ $((t1 - t0)) -lt 10 ]
ok $? "the timeout did not wait for the workload"
is "$(wc -l <"$TMP/load.pids")" 2 "the load ran once per run of a load=bg cell"
alive=0
for p in $(cat "$TMP/load.pids"); do kill -0 "$p" 2>/dev/null && alive=1; done
is "$alive" 0 "every load was stopped after its run"

# --- cells needing setup go through lj-env with their options
cat >"$TMP/env.scn" <<EOF
[matrix]
cgroup = off
governor = keep
dma_latency = none
[workload fake]
command = $FAKE
EOF
run_rc lj-matrix -q --lj-env "$TMP/fake-env" -o "$TMP/store3" "$TMP/env.scn"
is "$rc" 0 "a cell run under lj-env succeeds"
grep -q '^--cgroup off --json [^ ]*/fake/cgroup=off,governor=keep,dma_latency=none/run-1.setup.json -- /bin/sh -c exec ' "$FAKE_ENV_LOG"
ok $? "lj-env gets the cell's setup options and a --json for its record; keep and none are left out"
run_rc lj-matrix -q --lj-env "$TMP/nope" "$TMP/env.scn"
is "$rc" 2 "--lj-env that is not executable is a usage error"

done_testing
