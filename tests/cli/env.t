#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env.t - lj-env: usage errors, exit status, signals, --show, --json, --restore, privileges.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"

one_line() {	# one_line NAME: stderr is exactly one line
	is "$(wc -l <"$TMP/err")" 1 "$1: one line on stderr"
}

# --- usage and bad input: exit 2, one line -----------------------------
for bad in "--cpus 1-0" "--cpus 7" "--cpus 1a" "--dma-latency -1" "--idle-state x" \
	   "--rt-throttle maybe" "--cgroup ../x" "--cgroup-depth 0" "--sweep cpus=1,,0" \
	   "--sweep foo" "--sweep cpus=" "--dwell 1q" "--nope"; do
	run_rc lj-env $bad -- true
	is "$rc" 2 "$bad: exit 2"
	one_line "$bad"
done
run_rc lj-env --sweep cpus=0,1 -- true
is "$rc" 2 "--sweep without --cgroup: exit 2"
grep -q "needs --cgroup" "$TMP/err"; ok $? "...saying it needs --cgroup NAME"
run_rc lj-env --cgroup g --sweep cpus=0,9 -- true
is "$rc" 2 "--sweep with a CPU outside the allowed set: exit 2"
grep -q "CPU 9" "$TMP/err"; ok $? "...naming the CPU"
run_rc lj-env
is "$rc" 2 "no command: exit 2"
run_rc lj-env --show --restore
is "$rc" 2 "--show with --restore: exit 2"
grep -q "invalid --cpus '1-0'" <(lj-env --cpus 1-0 -- true 2>&1); ok $? "the message quotes the bad value"
is "$(ls "$LJ_JOURNAL_DIR" 2>/dev/null | grep -c '^journal\.')" 0 "bad input left no journal"

# --- running a command ---------------------------------------------------
run_rc lj-env -- sh -c 'exit 7'
is "$rc" 7 "the command's exit status is lj-env's"
run_rc lj-env -- /nonexistent/cmd
is "$rc" 127 "a missing command exits 127"
grep -q "cannot run '/nonexistent/cmd'" "$TMP/err"; ok $? "...saying what failed"
run_rc lj-env -- sh -c 'kill -TERM $$'
is "$rc" 143 "a command killed by SIGTERM gives 128+15"
run_rc lj-env --cpus 0 -- grep Cpus_allowed_list /proc/self/status
grep -q "Cpus_allowed_list:[[:space:]]*0$" "$TMP/out"; ok $? "--cpus without a group sets the affinity"

lj-env -- sleep 10 &
pid=$!
wait_child "$pid"
start=$(date +%s%N)
kill -TERM "$pid"
wait "$pid"
rc=$?
is "$rc" 143 "SIGTERM is forwarded: the command dies of it"
ok $(( ($(date +%s%N) - start) < 3000000000 ? 0 : 1 )) "...at once, not after the command's 10 s"

run_rc lj-env --cpus 0 --json "$TMP/r.json" -- true
is "$rc" 0 "--json FILE with a run"
jq -e '.schema == "ljkit-result/1" and .tool == "lj-env" and (.setup.applied | length) >= 1 and .params.command == ["true"]' \
	"$TMP/r.json" >/dev/null
ok $? "the result records the setup applied and the command"

# --- show and restore ----------------------------------------------------
run_rc lj-env --show
is "$rc" 0 "--show exits 0"
for key in cgroup: cpufreq: cpuidle: preemption: journals:; do
	grep -q "^$key" "$TMP/out"; ok $? "--show prints $key"
done
run_rc lj-env --show --json
jq -e '.state.cgroup.mode and .state.preempt.model and .system.kernel_release' "$TMP/out" >/dev/null
ok $? "--show --json prints state and system identity"
run_rc lj-env --restore
is "$rc" 0 "--restore with nothing to do exits 0"
grep -q "nothing to restore" "$TMP/out"; ok $? "...and says so"

# --- privileges ------------------------------------------------------------
if is_root && command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	mkdir -p "$TMP/jn" && chmod 1777 "$TMP/jn"
	as_nobody() { LJ_JOURNAL_DIR=$TMP/jn setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	run_rc as_nobody "$LJ_BUILD/lj-env" --strict --cgroup ljnobody -- true
	is "$rc" 77 "not root, --strict --cgroup: exit 77"
	one_line "not root, --strict"
	run_rc as_nobody "$LJ_BUILD/lj-env" --cgroup ljnobody -- sh -c 'exit 5'
	is "$rc" 5 "not root without --strict: warns and runs the command"
	grep -q "warning: --cgroup not applied" "$TMP/err"; ok $? "...with a warning naming the option"
	is "$(find /sys/fs/cgroup -maxdepth 3 -name ljnobody 2>/dev/null)" "" "...and no group was created (v1 or v2)"
	run_rc as_nobody "$LJ_BUILD/lj-env" --strict --rt-throttle off -- true
	is "$rc" 77 "not root, --strict --rt-throttle: exit 77"
else
	skip 7 "needs root and setpriv to drop privileges"
fi

done_testing
