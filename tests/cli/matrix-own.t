#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-own.t - lj-matrix owns its run directory and its children: one lj-matrix per run
# directory, the workload dies with a SIGKILLed lj-matrix, --resume reruns the interrupted
# run cleanly, stale temporary files go, and directories others can write are refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] || skip_all "lj-matrix not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1
export FAKE_LOG="$TMP/fake.log"
mark="ljown$$"

# A workload that runs long in its own shell (so a grandchild, the sleep, holds on), with
# a marker in its command line to find it by (fake-workload ignores words it does not know).
cat >"$TMP/long.scn" <<EOF
[matrix]
repeat = 2
v = 1, 2
[workload fake]
command = $FAKE --sleep 30 --value \${v} $mark
EOF

export LJ_WAIT_TRIES=600	# wait_for (lib.sh): at most ~30 s
alive() { pgrep -f -- "$mark" >/dev/null; }
gone() { ! pgrep -f -- "$mark" >/dev/null; }
run_dir() { ls -d "$1"/*/ 2>/dev/null | head -1 | sed 's,/$,,'; }

lj-matrix -q -o "$TMP/s" "$TMP/long.scn" >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
wait_for alive
ok $? "the workload is running"
dir=$(run_dir "$TMP/s")

# --- a second lj-matrix on the same run directory is refused, naming the holder
run_rc lj-matrix -q --resume "$dir"
is "$rc" 1 "a second lj-matrix --resume on a busy run directory: exit 1"
grep -q "is in use by lj-matrix pid $pid" "$TMP/err"
ok $? "...naming the holder's pid"
is "$(grep -c 'run cell=' "$FAKE_LOG")" 1 "...and it ran nothing"

# --- SIGKILL: the workload (and its children) die with lj-matrix
kill -KILL $pid
wait $pid 2>/dev/null
wait_for gone
ok $? "after SIGKILL of lj-matrix, its workload and the workload's children are gone"
grep -q '"start"' "$dir/progress.jsonl"
ok $? "the progress log recorded the run that was running"

# --- --resume: the interrupted run is rerun cleanly (with a word), stale temporary files go
: >"$dir/manifest.json.tmp.99999"
cell=$(ls -d "$dir"/fake/*/ | head -1)
: >"${cell}run-1.json.tmp.88888"
sed -i "s/--sleep 30/--sleep 0.01/" "$dir/manifest.json"	# the scenario text: quick now
wait_for flock -n "$dir" true	# the watchdog holds the lock until the orphans are gone
run_rc lj-matrix --resume "$dir"
is "$rc" 0 "--resume after SIGKILL completes"
grep -q "cell 1 was interrupted in its run 1 (lj-matrix was killed): running it again" "$TMP/err"
ok $? "--resume says which cell and run were interrupted"
is "$(cells "$dir" | grep -c ' done 2$')" 2 "every cell done with its 2 runs"
[ ! -e "$dir/manifest.json.tmp.99999" ] && [ ! -e "${cell}run-1.json.tmp.88888" ]
ok $? "stale manifest.json.tmp.PID and a killed run's temporary file are removed"
[ ! -s "$dir/progress.jsonl" ]
ok $? "at the end the manifest holds everything: the progress log is empty"

# --- --resume right after a SIGKILL: the watchdog still holds the run directory while it stops
# the workload (this one takes 2 s to end on SIGTERM); --resume waits for it, naming it, where it
# refused at once naming the dead lj-matrix.
cat >"$TMP/slow.sh" <<EOF
[ -e "$TMP/quick" ] && exec $FAKE "\$@"
trap 'sleep 2; exit 1' TERM
sleep 30 & wait
EOF
printf '[matrix]\nrepeat = 1\n[workload slow]\ncommand = sh %s %s\n' "$TMP/slow.sh" "$mark" >"$TMP/slow.scn"
lj-matrix -q -o "$TMP/w" "$TMP/slow.scn" >/dev/null 2>&1 &
pid=$!
wait_for alive
dir=$(run_dir "$TMP/w")
kill -KILL $pid
wait $pid 2>/dev/null
touch "$TMP/quick"
run_rc lj-matrix --resume "$dir"
is "$rc" 0 "--resume at once after SIGKILL waits for the watchdog, then completes"
grep -q "waiting for the watchdog (pid [0-9]*) of the killed lj-matrix pid $pid" "$TMP/err"
ok $? "...saying whom it waits for and why"

# --- run directories and stores that others can write are refused
mkdir -p "$TMP/shared" && chmod 0777 "$TMP/shared"
run_rc lj-matrix -q -o "$TMP/shared" "$TMP/long.scn"
is "$rc" 2 "a store writable by anyone without the sticky bit is refused"
cp -r "$dir" "$TMP/open" && chmod 0777 "$TMP/open"
run_rc lj-matrix -q --resume "$TMP/open"
is "$rc" 2 "--resume of a run directory writable by others is refused"
ln -s "$dir" "$TMP/link"
run_rc lj-matrix -q --resume "$TMP/link"
is "$rc" 2 "--resume through a symlink is refused"
grep -q "not a directory (a symlink)" "$TMP/err"
ok $? "...saying it is a symlink"

done_testing
