#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-cgroup-noprefix.t - lj-env in a v1 cpuset mounted noprefix (Android's
# /dev/cpuset, whose files are cpus and mems): a group made with --cpus,
# an existing group's cpus put back by lj-env --restore after SIGKILL, and
# nothing left behind. Runs where the cpuset is mounted so: make
# check-kernels boots a guest with lj-guest --cgroup android for it.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
require_real_cgroups "real cgroups need root"
[ "$(lj-env --show --json | jq -r .state.cgroup.v1_cpuset_noprefix)" = true ] ||
	skip_all "the cpuset is not a v1 hierarchy mounted noprefix (lj-guest --cgroup android makes one)"
system_lock
G=ljnp$$
diag "cpuset $CG_CPUSET (noprefix), cpu ${CG_CPU:-none}"
before=$(cg_state $G)

run_rc lj-env --show
grep -q "cpuset $CG_CPUSET (v1, noprefix)" "$TMP/out"; ok $? "--show names the cpuset noprefix"

run_rc lj-env --cgroup $G --cpus 1 -- sh -c "grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup; cat $CG_CPUSET/$G/cpus"
is "$rc" 0 "a command runs in a new group"
[ "$rc" -eq 0 ] || diag "$(cat "$TMP/err")"
cg_member "$TMP/out" $G; ok $? "...in the group of the cpuset hierarchy"
is "$(tail -n 1 "$TMP/out")" 1 "...whose cpus file is --cpus"
grep -q "^Cpus_allowed_list:[[:space:]]*1\$" "$TMP/out"; ok $? "...and the command's CPUs"
is "$(cg_state $G)" "$before" "after it: no group left"

# An existing group: its cpus is changed, journaled, and put back after a SIGKILL.
mkdir "$CG_CPUSET/$G"
cat "$CG_CPUSET/cpus" >"$CG_CPUSET/$G/cpus"
cat "$CG_CPUSET/mems" >"$CG_CPUSET/$G/mems"
old=$(cat "$CG_CPUSET/$G/cpus")
lj-env --cgroup $G --cpus 1 -- sleep 61.5 >/dev/null 2>&1 &
job=$!
wait_for grep -qx 1 "$CG_CPUSET/$G/cpus"
ok $? "an existing group's cpus set to --cpus while the command runs"
kill -9 $job
wait $job 2>/dev/null
run_rc lj-env --restore
is "$rc" 0 "lj-env --restore after SIGKILL"
[ "$rc" -eq 0 ] || diag "$(cat "$TMP/out" "$TMP/err")"
grep -q "restored $CG_CPUSET/$G/cpus to '$old'" "$TMP/out"; ok $? "...put the group's cpus back ($(grep cpus "$TMP/out"))"
is "$(cat "$CG_CPUSET/$G/cpus")" "$old" "...and the file reads as before"
pkill -f "^sleep 61.5\$" 2>/dev/null
rmdir "$CG_CPUSET/$G" ${CG_CPU:+"$CG_CPU/$G"} 2>/dev/null
is "$(cg_state $G)" "$before" "nothing of the test left"

done_testing
