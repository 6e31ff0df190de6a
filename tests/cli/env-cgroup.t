#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-cgroup.t - lj-env on this machine's real v1 cpuset and cpu hierarchies: groups, RT, sweep, conflicts.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "real cgroups need root"
CS=$(v1_mount cpuset)
CPU=$(v1_mount cpu)
[ -n "$CS" ] && [ -n "$CPU" ] || skip_all "no v1 cpuset and cpu hierarchies"
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
G=ljt$$
system_lock

run_rc lj-env --cgroup $G --cpus 1 -- sh -c "cat /proc/self/cgroup; cat $CS/$G/cpuset.cpus $CPU/$G/cpu.rt_runtime_us"
is "$rc" 0 "a command runs in a new group"
grep -q "cpuset:/$G\$" "$TMP/out"; ok $? "...in the cpuset hierarchy"
grep -Eq "^[0-9]+:([a-z]+,)*cpu(,[a-z]+)*:/$G\$" "$TMP/out"; ok $? "...and in the cpu hierarchy"
is "$(tail -n 2 "$TMP/out" | head -n 1)" 1 "the group's cpuset is --cpus"
ok "$([ "$(tail -n 1 "$TMP/out")" -gt 0 ] && echo 0 || echo 1)" "the group got RT runtime by default"
ok "$([ -e "$CS/$G" ] || [ -e "$CPU/$G" ] && echo 1 || echo 0)" "both groups are removed after"

run_rc lj-env --cgroup $G -- chrt -f 10 sh -c 'echo fifo'
is "$(cat "$TMP/out")" fifo "a SCHED_FIFO command runs inside the group"
run_rc lj-env --cgroup $G --rt-runtime 0 -- chrt -f 10 true
ok "$([ "$rc" -ne 0 ] && echo 0 || echo 1)" "with --rt-runtime 0 it cannot be FIFO (RT group scheduling)"

run_rc lj-env --cgroup $G --cgroup-depth 3 -- cat /proc/self/cgroup
grep -q "cpuset:/$G/l2/l3\$" "$TMP/out"; ok $? "--cgroup-depth 3 nests NAME/l2/l3"
ok "$([ -e "$CS/$G" ] && echo 1 || echo 0)" "...and removes every level"

run_rc lj-env --cgroup off --cpus 0 -- sh -c 'cat /proc/self/cgroup; grep Cpus_allowed_list /proc/self/status'
grep -q "cpuset:/\$" "$TMP/out"; ok $? "--cgroup off runs in the root cpuset group"
grep -q "Cpus_allowed_list:[[:space:]]*0\$" "$TMP/out"; ok $? "...with --cpus as the affinity"

# two processes, one group
lj-env --cgroup $G -- sleep 60 &
holder=$!
wait_child $holder
run_rc lj-env --cgroup $G -- true
is "$rc" 1 "a group held by a live lj-env is refused"
grep -q "in use by lj-env (pid $holder" "$TMP/err"; ok $? "...naming the holder"
is "$(wc -l <"$TMP/err")" 1 "...in one line"
run_rc lj-env --rt-throttle on -- true
is "$rc" 0 "other settings are still free"
kill -INT $holder
wait $holder
is "$?" 130 "the holder ends on SIGINT (its command dies of it)"

# sweep
run_rc lj-env --cgroup $G --sweep cpus=0,1 --dwell 150ms --json "$TMP/s.json" -- sleep 1
is "$rc" 0 "--sweep runs the command"
[ "$rc" -eq 0 ] || diag "$(cat "$TMP/err")"
ok "$([ "$(grep -c 'sweep: +' "$TMP/err")" -ge 3 ] && echo 0 || echo 1)" "...logging each change on stderr"
jq -e '[.side.sweep[].cpus] | .[0:3] == ["0","1","0"]' "$TMP/s.json" >/dev/null
ok $? "the result lists the steps in order"
jq -e '[.side.sweep[].t_ns] as $t | ($t | sort) == $t and $t[1] >= 150000000' "$TMP/s.json" >/dev/null
ok $? "...with rising times one dwell apart"
# The command watches its own affinity (no timing: the sweep cycles, so
# CPU 1 comes round however late the machine lets it look) for up to 10 s.
run_rc lj-env --cgroup $G --sweep cpus=0/1 --dwell 100ms -- sh -c '
	for i in $(seq 500); do
		grep -q "Cpus_allowed_list:[[:space:]]*1\$" /proc/self/status && { echo moved to 1; exit 0; }
		sleep 0.02
	done; grep Cpus_allowed_list /proc/self/status'
grep -q "^moved to 1\$" "$TMP/out"; ok $? "the command's affinity follows the swept cpuset ($(tail -1 "$TMP/out"))"
ok "$([ -e "$CS/$G" ] && echo 1 || echo 0)" "no group left behind"

done_testing
