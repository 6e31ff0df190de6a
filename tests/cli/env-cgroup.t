#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-cgroup.t - lj-env on this machine's real cgroups, v1 (RT group scheduling or not) or v2: groups, RT, sweep, conflicts, what is left after.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
require_real_cgroups "real cgroups need root"
G=ljt$$
system_lock
diag "cgroup $CG_MODE, groups in $CG_CPUSET${CG_CPU:+ and $CG_CPU}, RT group scheduling $CG_RT"
before=$(cg_state $G)
journals() { ls "$LJ_JOURNAL_DIR" 2>/dev/null | grep -c '^journal\.'; }
# the group the test shell is in, in the cpuset hierarchy: where lj-env comes from
if [ "$CG_MODE" = v1 ]; then
	origin=$CG_CPUSET$(sed -n 's/^[0-9]*:\([a-z_]*,\)*cpuset\(,[a-z_]*\)*://p' /proc/$BASHPID/cgroup)
else
	origin=$CG_V2$(sed -n 's/^0:://p' /proc/$BASHPID/cgroup)
fi
origin=${origin%/}

run_rc lj-env --cgroup $G --cpus 1 -- sh -c "cat /proc/self/cgroup; ls $CG_CPUSET/$G; cat $CG_CPUSET/$G/cpuset.cpus"
is "$rc" 0 "a command runs in a new group ($CG_MODE)"
cg_member "$TMP/out" $G; ok $? "...in the group of the cpuset controller"
if [ "$CG_MODE" = v1 ] && [ -n "$CG_CPU" ]; then
	grep -Eq "^[0-9]+:([a-z]+,)*cpu(,[a-z]+)*:/$G\$" "$TMP/out"; ok $? "...and in the cpu hierarchy"
elif [ -n "$CG_CPU" ]; then
	grep -q "^cpu.weight\$" "$TMP/out"; ok $? "...whose parent hands the cpu controller down (cpu.weight)"
else
	skip 1 "no cpu controller"
fi
is "$(tail -n 1 "$TMP/out")" 1 "the group's cpuset is --cpus"
is "$(cg_state $G)" "$before" "after it: no group left, every cgroup.subtree_control as before"
is "$(journals)" 0 "...and no journal"
[ "$rc" -eq 0 ] || diag "$(cat "$TMP/err")"

if [ "$CG_RT" = 1 ]; then
	run_rc lj-env --cgroup $G -- cat "$CG_CPU/$G/cpu.rt_runtime_us"
	ok "$([ "$(cat "$TMP/out")" -gt 0 ] && echo 0 || echo 1)" "the group got RT runtime by default"
	run_rc lj-env --cgroup $G --rt-runtime 0 -- chrt -f 10 true
	ok "$([ "$rc" -ne 0 ] && echo 0 || echo 1)" "with --rt-runtime 0 it cannot be FIFO (RT group scheduling)"
	skip 3 "RT group scheduling: --rt-runtime is applied, not refused"
else
	run_rc lj-env --cgroup $G -- true
	is "$(grep -c 'rt_runtime\|RT' "$TMP/err")" 0 "no RT group scheduling: nothing said about RT without --rt-runtime"
	run_rc lj-env --cgroup $G --rt-runtime 1000 -- true
	ok "$([ "$rc" = 0 ] && grep -q "warning: --rt-runtime not applied: .*\(cgroup v2 has no RT runtime per group\|no RT group scheduling\)" "$TMP/err" && echo 0 || echo 1)" \
		"--rt-runtime without RT group scheduling: one warning saying why, the command runs"
	run_rc lj-env --strict --cgroup $G --rt-runtime 1000 -- true
	is "$rc" 77 "...and with --strict: exit 77"
	is "$(wc -l <"$TMP/err")" 1 "...in one line"
	is "$(cg_state $G)" "$before" "...leaving nothing behind"
fi
run_rc lj-env --cgroup $G -- chrt -f 10 sh -c 'echo fifo'
is "$(cat "$TMP/out")" fifo "a SCHED_FIFO command runs inside the group"

# the cpu controller's weight and bandwidth, in either hierarchy's files
if [ -n "$CG_CPU" ]; then
	files="cpu.shares cpu.cfs_quota_us cpu.cfs_period_us" want="2048 20000 50000"
	[ "$CG_MODE" = v2 ] && files="cpu.weight cpu.max" want="200 20000 50000"
	run_rc lj-env --cgroup $G --cpu-weight 200 --cpu-max 20000/50000 -- sh -c "cd $CG_CPU/$G && cat $files"
	is "$(xargs <"$TMP/out")" "$want" "--cpu-weight 200 --cpu-max 20000/50000: $files"
	is "$(cg_state $G)" "$before" "...and nothing left after"
else
	skip 2 "no cpu controller"
fi

run_rc lj-env --cgroup $G --cgroup-depth 3 -- cat /proc/self/cgroup
cg_member "$TMP/out" $G/l2/l3; ok $? "--cgroup-depth 3 nests NAME/l2/l3"
is "$(cg_state $G)" "$before" "...and removes every level, and every controller it handed down"

run_rc lj-env --cgroup off --cpus 0 -- sh -c 'cat /proc/self/cgroup; grep Cpus_allowed_list /proc/self/status'
cg_member "$TMP/out" ""; ok $? "--cgroup off runs in the root group of the cpuset controller"
grep -q "Cpus_allowed_list:[[:space:]]*0\$" "$TMP/out"; ok $? "...with --cpus as the affinity"

# two processes, one group
lj-env --cgroup $G -- sleep 60 &
holder=$!
wait_child $holder
grep -q "^cgroup	$CG_CPUSET/$G	$origin\$" "$LJ_JOURNAL_DIR/journal.$holder"
ok $? "the journal names the group and where its tasks came from ($origin)"
run_rc lj-env --cgroup $G -- true
is "$rc" 1 "a group held by a live lj-env is refused"
grep -q "in use by lj-env (pid $holder" "$TMP/err"; ok $? "...naming the holder"
is "$(wc -l <"$TMP/err")" 1 "...in one line"
run_rc lj-env --rt-throttle on -- true
is "$rc" 0 "other settings are still free"
kill -INT $holder
wait $holder
is "$?" 130 "the holder ends on SIGINT (its command dies of it)"

# Two runs in two groups, the first ending while the second runs: the
# controllers a v2 parent hands down are claimed by both, so the first's
# end leaves the second's cpuset in force; the second's end restores all.
if [ "$CG_MODE" = v2 ] && grep -qw cpuset "$CG_CPUSET/cgroup.subtree_control"; then
	diag "cpuset was handed down before the test: the shared claim is not exercised here"
fi
lj-env --cgroup ${G}a --cpus 0 -- sleep 60 &
first=$!
wait_child $first
lj-env --cgroup ${G}b --cpus 1 -- sh -c 'while [ ! -e "$0" ]; do sleep 0.05; done
	grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup' "$TMP/first-done" >"$TMP/second" 2>&1 &
second=$!
wait_child $second
kill -INT $first
wait $first
touch "$TMP/first-done"
wait $second
is "$?" 0 "two groups at once: the second outlives the first"
grep -q "Cpus_allowed_list:[[:space:]]*1\$" "$TMP/second"
ok $? "...and keeps its cpuset after the first ended ($(grep Cpus_allowed_list "$TMP/second"))"
is "$(cg_state $G)" "$before" "...the last one out restores every cgroup.subtree_control"

# sweep
run_rc lj-env --cgroup $G --sweep cpus=0,1 --dwell 150ms --json "$TMP/s.json" -- sleep 1
is "$rc" 0 "--sweep runs the command"
[ "$rc" -eq 0 ] || diag "$(cat "$TMP/err")"
ok "$([ "$(grep -c 'sweep: +' "$TMP/err")" -ge 3 ] && echo 0 || echo 1)" "...logging each change on stderr"
jq -e '[.side.sweep[].cpus] | .[0:3] == ["0","1","0"]' "$TMP/s.json" >/dev/null
ok $? "the result lists the steps in order"
jq -e '[.side.sweep[].t_ns] as $t | ($t | sort) == $t and $t[1] >= 150000000' "$TMP/s.json" >/dev/null
ok $? "...with rising times one dwell apart"
jq -e '[.side.sweep[] | .write_ns >= 0 and .write_ns <= .t_ns + 1000000] | all' "$TMP/s.json" >/dev/null
ok $? "...each with how long its write took"
# mono_ns is when a step is in force: every affinity the command reads from
# then until the next step's write starts (mono_ns - write_ns) is that step's.
if command -v python3 >/dev/null; then
	run_rc lj-env --cgroup $G --sweep cpus=0,1 --dwell 100ms --json "$TMP/s2.json" -- python3 -c '
import os, time
end = time.monotonic_ns() + 800000000
while time.monotonic_ns() < end:
	a = time.monotonic_ns(); cpus = sorted(os.sched_getaffinity(0)); b = time.monotonic_ns()
	print(a, b, ",".join(map(str, cpus)))
	time.sleep(0.002)' >/dev/null
	bad=$(jq -r '.side.sweep[] | "\(.mono_ns) \(.write_ns) \(.cpus)"' "$TMP/s2.json" | awk '
		NR == FNR { from[NR] = $1; asked[NR] = $1 - $2; cpus[NR] = $3; n = NR; next }
		{ k = 0; for (i = 1; i <= n; i++) if (from[i] <= $1) k = i
		  if (k == 0 || (k < n && asked[k + 1] <= $2)) next
		  seen++; if ($3 != cpus[k]) { bad++; if (!msg) msg = $1 " read " $3 " in step " cpus[k] } }
		END { print bad + 0, seen + 0, msg }' - "$TMP/out")
	ok "$([ "${bad%% *}" = 0 ] && [ "$(echo "$bad" | cut -d" " -f2)" -gt 20 ] && echo 0 || echo 1)" \
		"...from its mono_ns on, the command reads that step's CPUs (bad, read, first: $bad)"
	[ "$(echo "$bad" | cut -d" " -f2)" -gt 20 ] ||
		diag "exit $rc, $(wc -l <"$TMP/out") reads, steps: $(jq -c '[.side.sweep[] | [.t_ns, .write_ns, .cpus]]' "$TMP/s2.json" 2>&1)" \
			"first reads: $(head -3 "$TMP/out")" "$(head -3 "$TMP/err")"
else
	skip 1 "python3 not installed"
fi
# A step that begins late gets half a dwell at least, not a burst of
# steps to catch up: lj-env stopped for 3.5 dwells here (a cpuset write
# on a loaded machine can take as long). The gap is by construction: no timing.
lj-env --cgroup $G --sweep cpus=0,1 --dwell 200ms --json "$TMP/late.json" -- sleep 2.5 >/dev/null 2>"$TMP/late.err" &
late=$!
# Stopped once the sweep has begun (a slow guest's setup can outlast any fixed wait).
for i in $(seq 100); do grep -q 'sweep: +' "$TMP/late.err" 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -STOP $late; sleep 0.7; kill -CONT $late
wait $late
is "$?" 0 "--sweep stopped for 0.7 s (3.5 dwells) and continued: the command ran"
gaps=$(jq -r '[.side.sweep[].mono_ns] as $m | [range(1; $m | length) | ($m[.] - $m[. - 1]) / 1e6 | floor] | map(tostring) | join(" ")' "$TMP/late.json")
min=$(echo $gaps | tr ' ' '\n' | sort -n | head -1)
ok "$([ -n "$min" ] && [ "$min" -ge 100 ] && echo 0 || echo 1)" \
	"...and no step after it came sooner than half a dwell (ms between steps: $gaps)"
ok "$(echo $gaps | tr ' ' '\n' | awk '$1 >= 600 { n++ } END { print !(n >= 1) }')" "...the stop itself shows as one long step"

# The command watches its own affinity (no timing: the sweep cycles, so
# CPU 1 comes round however late the machine lets it look) for up to 10 s.
run_rc lj-env --cgroup $G --sweep cpus=0/1 --dwell 100ms -- sh -c '
	for i in $(seq 500); do
		grep -q "Cpus_allowed_list:[[:space:]]*1\$" /proc/self/status && { echo moved to 1; exit 0; }
		sleep 0.02
	done; grep Cpus_allowed_list /proc/self/status'
grep -q "^moved to 1\$" "$TMP/out"; ok $? "the command's affinity follows the swept cpuset ($(tail -1 "$TMP/out"))"
is "$(cg_state $G)" "$before" "no group left behind, every cgroup.subtree_control as before"
is "$(journals)" 0 "...and no journal"

done_testing
