#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-crash.t - crash safety on real cgroups (v1 or v2): SIGKILL lj-env during setup and during the command, --restore, compare snapshots.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
require_real_cgroups "the full setup needs root"
G=ljcrash$$
system_lock

# Every file the full setup touches, and the groups that exist (only ours:
# parallel tests may create theirs); v2: every cgroup.subtree_control on the way;
# the preemption model where debugfs lets it be switched (a guest: make check-kernels).
snap() {
	{
		cat /proc/sys/kernel/sched_rt_runtime_us
		[ -w /sys/kernel/debug/sched/preempt ] && cat /sys/kernel/debug/sched/preempt
		[ "$CG_RT" = 1 ] && cat "$CG_CPU/cpu.rt_runtime_us"
		[ "$CG_MODE" = v1 ] && cat "$CG_CPUSET/cpuset.cpus"
		grep -H . /sys/devices/system/cpu/cpu*/cpuidle/state*/disable
		cg_state $G
	} 2>&1
}
FULL="--cgroup $G --cgroup-depth 2 --cpus 1 --rt-throttle off --idle-state 0 --rt-runtime 50000 --dma-latency 0 --preempt full"
# the command outlives any kill and restore on a slow machine (a loaded TCG guest took over 5 s); reaped after each
CMD=(sh -c 'echo $$ >>"$0"; exec sleep 30' "$TMP/pids")
before=$(snap)

# command_started PID: wait until the command wrote its pid: the setup is in force
pid_written() { [ -s "$TMP/pids" ] || ! kill -0 "$1" 2>/dev/null; }
command_started() { wait_for pid_written "$1" && [ -s "$TMP/pids" ]; }

reap_commands() {	# the orphaned commands of killed runs
	[ -s "$TMP/pids" ] && kill $(cat "$TMP/pids") 2>/dev/null
	: >"$TMP/pids"
}

for delay in 0.001 0.004 0.01 0.03 0.4; do
	lj-env -q $FULL -- "${CMD[@]}" &
	pid=$!
	# The last delay is "while the command runs": wait for it, however slow the machine.
	if [ "$delay" = 0.4 ]; then command_started $pid; else sleep $delay; fi
	kill -KILL $pid
	wait $pid 2>/dev/null
	run_rc lj-env --restore
	is "$rc" 0 "SIGKILL after ${delay}s: --restore succeeds"
	is "$(snap)" "$before" "SIGKILL after ${delay}s: every touched file is as before"
	if [ "$delay" = 0.4 ]; then
		grep -q "moved 1 task still in .*/$G/l2 to .* (where it came from)" "$TMP/out"
		ok $? "restore moved the orphaned command back where it came from and said so"
	fi
	reap_commands
done

# The orphan goes back to the group it came from, not merely to the
# parent: lj-env started from a group O of the test's own.
O=ljo$$
mkdir "$CG_CPUSET/$O"
if [ "$CG_MODE" = v1 ]; then
	cat "$CG_CPUSET/cpuset.cpus" >"$CG_CPUSET/$O/cpuset.cpus"
	cat "$CG_CPUSET/cpuset.mems" >"$CG_CPUSET/$O/cpuset.mems"
	[ -n "$CG_CPU" ] && mkdir "$CG_CPU/$O"
fi
(
	echo $BASHPID >"$CG_CPUSET/$O/cgroup.procs"
	[ "$CG_MODE" = v1 ] && [ -n "$CG_CPU" ] && echo $BASHPID >"$CG_CPU/$O/cgroup.procs"
	exec lj-env -q $FULL -- "${CMD[@]}"
) &
pid=$!
command_started $pid
kill -KILL $pid
wait $pid 2>/dev/null
run_rc lj-env --restore
cat "/proc/$(cat "$TMP/pids")/cgroup" >"$TMP/orphan" 2>/dev/null
cg_member "$TMP/orphan" $O; ok $? "the orphan is back in the group its lj-env came from ($O), not in the parent"
if [ "$CG_MODE" = v1 ] && [ -n "$CG_CPU" ]; then
	grep -Eq "^[0-9]+:([a-z]+,)*cpu(,[a-z]+)*:/$O\$" "$TMP/orphan"; ok $? "...in the cpu hierarchy too"
else
	skip 1 "one hierarchy"
fi
is "$(snap)" "$before" "...and everything else is as before"
reap_commands
wait_for rmdir "$CG_CPUSET/$O" 2>/dev/null	# once the orphan is gone
[ "$CG_MODE" = v1 ] && [ -n "$CG_CPU" ] && wait_for rmdir "$CG_CPU/$O" 2>/dev/null

# a tool that finds a stale journal
lj-env -q $FULL -- "${CMD[@]}" &
pid=$!
command_started $pid
kill -KILL $pid
wait $pid 2>/dev/null
run_rc lj-env --cpus 0 -- true
grep -q "stale setup journal.*lj-env --restore" "$TMP/err"; ok $? "a stale journal is reported, with the remedy"
ok "$([ "$(snap)" != "$before" ] && echo 0 || echo 1)" "...and not restored without being asked"
run_rc lj-env -q --restore-stale --cpus 0 -- true
is "$rc" 0 "--restore-stale restores first, then runs"
is "$(snap)" "$before" "...leaving everything as before"
reap_commands

# SIGINT: the normal unwind, no --restore needed
lj-env -q $FULL -- "${CMD[@]}" &
pid=$!
command_started $pid
during=$(snap)
kill -INT $pid
wait $pid
rc=$?
is "$rc" 130 "SIGINT: the command dies of it, lj-env exits 130"
ok "$([ "$during" != "$before" ] && echo 0 || echo 1)" "the setup was in force while the command ran"
# Writable by its mode is not enough: kernel lockdown refuses debugfs to root (lj-env then
# warns and runs without it, as it should; -q hides that warning, so it is asked apart).
if [ -w /sys/kernel/debug/sched/preempt ] && ! grep -q '(full)' <<<"$before" &&
	! lj-env --preempt full -- true 2>&1 | grep -q -- '--preempt not applied'; then
	grep -q '(full)' <<<"$during"; ok $? "--preempt full switched the model through debugfs while the command ran"
else
	skip 1 "the preemption model cannot be switched here (or is full already)"
fi
is "$(snap)" "$before" "SIGINT: every touched file is as before"
is "$(ls "$LJ_JOURNAL_DIR" | grep -c '^journal\.')" 0 "no journal is left"
reap_commands

# bad input with a full setup changes nothing
for bad in "--cpus 5" "--idle-state 99x" "--sweep cpus=0,7 --cgroup $G"; do
	run_rc lj-env $FULL $bad -- true
	is "$rc" 2 "$bad in a full setup: exit 2"
	is "$(snap)" "$before" "$bad: nothing changed"
done
reap_commands	# a command a very early kill let start after its reap

# --sweep's phase log lives beside the journal: a SIGKILL leaves it there (never in $TMPDIR)
# and --restore removes it with the journal.
mkdir -p "$TMP/tmpdir"
TMPDIR=$TMP/tmpdir lj-env -q --cgroup $G --sweep cpus=0,1 --dwell 50ms -- "${CMD[@]}" &
pid=$!
command_started $pid
ls "$LJ_JOURNAL_DIR"/run-phases.$pid.* >/dev/null 2>&1
ok $? "the sweep's phase log is in the journal directory (run-phases.$pid.START)"
kill -KILL $pid
wait $pid 2>/dev/null
is "$(ls -A "$TMP/tmpdir" | wc -l)" 0 "nothing of it in \$TMPDIR"
run_rc lj-env --restore
grep -q "removed $LJ_JOURNAL_DIR/run-phases.$pid.[0-9]*, left by pid $pid, which is gone" "$TMP/out"
ok $? "--restore removes the killed sweep's phase log, saying so"
is "$(ls -A "$LJ_JOURNAL_DIR" | grep -v '^.lock$' | wc -l)" 0 "...and leaves nothing but the lock"
reap_commands

done_testing
