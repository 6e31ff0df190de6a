# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - shared helpers for the CLI TAP scripts (sourced, not run).
# LJ_BUILD (set by make check) is the build directory holding lj-* binaries.

: "${LJ_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${LJ_BUILD:=$LJ_SRC/build}"
export PATH="$LJ_BUILD:$PATH"
export LJ_SRC LJ_BUILD

_tap_n=0
_tap_fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ljtest.XXXXXX")
# lj-frame's stored calibration: the test's own, not the machine's (docs/lj-frame.md).
export LJ_FRAME_CALIBRATION="$TMP/frame-calibration"
# Only the test's own shell removes it: a forked child of a background
# command killed before its exec must not take the directory with it.
_tap_shell=$BASHPID

# Tests give ljkit a private journal directory in $TMP (LJ_JOURNAL_DIR),
# where `lj-env --restore` does not look: the journals of runs killed
# there are replayed (as root) before the directory goes, or the groups
# and settings they undo would stay. Return: 1 when one could not be.
_lj_restore_private() {	# _lj_restore_private DIR
	local j rc=0
	for j in "$1" "$1"/*/; do
		compgen -G "${j%/}/journal.*" >/dev/null || continue
		LJ_JOURNAL_DIR=${j%/} "$LJ_BUILD/lj-env" -q --restore >/dev/null 2>&1 || rc=1
	done
	return $rc
}
# The start time (field 22 of /proc/PID/stat) that tells a live test from a recycled PID.
# Builtins only: it runs for every directory at every test's start.
_lj_started() {
	local stat
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 0	# 2>/dev/null first: it also silences the open
	set -- ${stat##*) }
	echo "${20}"
}
# Where PIDs mean what they say: this boot and PID namespace. A guest that
# shares the host's /tmp (make check-kernels) sees the host's tests' PIDs
# as gone, and a container its host's.
_lj_pid_space() {
	local boot
	read -r boot </proc/sys/kernel/random/boot_id 2>/dev/null
	echo "$boot/$(readlink /proc/$$/ns/pid 2>/dev/null)"
}
# A test killed with SIGKILL ran no exit trap: the next test's start
# replays what its directory holds and removes it.
_lj_sweep_killed() {
	local d owner start space here
	here=$(_lj_pid_space)
	for d in "${TMPDIR:-/tmp}"/ljtest.*/; do
		[ -f "$d.owner" ] && read -r owner start space <"$d.owner" 2>/dev/null || continue
		[ "$space" = "$here" ] && [ "$owner" != "$_tap_shell" ] && [ "$(_lj_started "$owner")" != "$start" ] ||
			continue
		_lj_restore_private "${d%/}" && rm -rf "${d%/}"
	done
}
echo "$_tap_shell $(_lj_started "$_tap_shell") $(_lj_pid_space)" >"$TMP/.owner"
_lj_sweep_killed
trap '[ "$BASHPID" = "$_tap_shell" ] && { _lj_restore_private "$TMP"; rm -rf "$TMP"; }' EXIT

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { printf '# %s\n' "$@" >&2; }	# on stderr, as Test::More: prove shows it without -v

ok() {	# ok COND_STATUS NAME
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
	fi
}

skip() {	# skip COUNT REASON
	local i
	for ((i = 0; i < $1; i++)); do
		_tap_n=$((_tap_n + 1))
		echo "ok $_tap_n # SKIP $2"
	done
}

is() {	# is GOT WANT NAME
	_tap_n=$((_tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $_tap_n - $3"
	else
		echo "not ok $_tap_n - $3"
		printf '#   expected: %s\n#        got: %s\n' "$2" "$1"
		_tap_fail=$((_tap_fail + 1))
	fi
}

# run_rc CMD...: run, capture stdout/stderr in $TMP/out $TMP/err, set $rc.
run_rc() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# require_spinner TOOL: the known-answer interference tests' preconditions
# (TOOL and tests/helpers/interferer built, root for tracefs and SCHED_FIFO,
# python3 to read the results), else skip_all; then $HELPER is set and the
# system lock held: the spinner and the RT budget are system-wide.
require_spinner() {
	[ -x "$LJ_BUILD/$1" ] || skip_all "$1 not built in $LJ_BUILD"
	HELPER=$LJ_BUILD/t/helpers/interferer
	[ -x "$HELPER" ] || skip_all "tests/helpers/interferer not built"
	is_root || skip_all "needs root (tracefs, SCHED_FIFO)"
	command -v python3 >/dev/null || skip_all "python3 not installed"
	export LJ_RESULT_NO_SYSINFO=1
	system_lock
}

# start_helper ARGS...: run tests/helpers/interferer ($HELPER) in the
# background and wait for its "ready PID"; $helper_job, $helper_pid ("" when
# it did not start), its output in $TMP/helper.out (the spins' times).
start_helper() {
	"$HELPER" "$@" >"$TMP/helper.out" 2>&1 &
	helper_job=$!
	for _ in $(seq 250); do
		grep -q '^ready ' "$TMP/helper.out" && break
		kill -0 "$helper_job" 2>/dev/null || break
		sleep 0.02
	done
	helper_pid=$(sed -n 's/^ready //p' "$TMP/helper.out")
}

# break_names_spinner CPU SPIN_US [INSPECT]: lj-cyclic -b --tracemark --explain on CPU
# beside start_helper's FIFO 99 spinner named 'Jit thread pool' (the kept trace is read
# as the kernel's text, where a name with spaces must be read whole). INSPECT, a
# command, gets each kept instance's directory before it is removed. One retry: a break
# the host's stall caused before the first spin names no spinner. Return: 0 when the
# explanation named the spinner whole, with its pid; $kept the last kept directory.
break_names_spinner() {
	local try
	for try in 1 2; do
		run_rc lj-cyclic -q -a "$1" -p 50 -i 100 -l 20000 -b $(($2 / 2)) --tracemark --explain
		kept=$(sed -n 's/^## trace stopped at the break, kept in \(.*\) (rmdir it when done)$/\1/p' "$TMP/err")
		if [ -n "$kept" ]; then
			[ -z "$3" ] || $3 "$kept"
			rmdir "$kept"
		fi
		grep -q "^## .*: Jit thread pool (pid $helper_pid, FIFO 99) ran " "$TMP/err" && return 0
		diag "try $try: exit $rc, kept in '$kept'" "$(grep '^## ' "$TMP/err" | head -2)"
	done
	return 1
}

# skip_unless_tracing: skip the whole test where --explain's recorder cannot run (no tracefs, lockdown).
skip_unless_tracing() {
	local probe_rc=0

	"$LJ_BUILD/lj-cyclic" -q -l 1 --explain >"$TMP/probe" 2>&1 || probe_rc=$?
	if [ $probe_rc -ne 0 ] || grep -q 'fallbacks:.*explain' "$TMP/probe"; then
		skip_all "tracing not possible here: $(grep explain "$TMP/probe" | head -1)"
	fi
}

# wait_for CMD...: run CMD every 50 ms until it succeeds, at most
# LJ_WAIT_TRIES times (default 400: 20 s, for loaded machines). A test
# waits for what it checks, never a fixed time. Return: 0 when CMD
# succeeded, 1 when the time ran out.
wait_for() {
	local i
	for ((i = 0; i < ${LJ_WAIT_TRIES:-400}; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# has_threads PID N: PID has at least N threads, or has ended.
has_threads() {
	[ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -ge "$2" ] || ! kill -0 "$1" 2>/dev/null
}

# has_child PID [COMM]: PID has a child (named COMM, when given), or has ended.
has_child() {
	local c
	for c in $(cat /proc/$1/task/*/children 2>/dev/null); do
		[ -z "$2" ] || [ "$(cat /proc/$c/comm 2>/dev/null)" = "$2" ] && return 0
	done
	! kill -0 "$1" 2>/dev/null
}

# wait_threads PID N: wait until process PID has N threads: a tool
# signalled before its measuring threads exist may not be ready for it.
# wait_child PID [COMM]: wait until PID (lj-env) has started its command,
# so its setup is in force. Both fail when PID ends first.
wait_threads() { wait_for has_threads "$@" && kill -0 "$1" 2>/dev/null; }
wait_child() { wait_for has_child "$@" && kill -0 "$1" 2>/dev/null; }

# v1_mount CONTROLLER: where this machine mounts that v1 controller ("" if not).
v1_mount() {
	awk -v c="$1" '$9 == "cgroup" && $NF ~ ("(^|,)" c "(,|$)") { print $5; exit }' /proc/self/mountinfo
}

# kernel_before MAJOR MINOR: the running kernel's release is older than MAJOR.MINOR.
kernel_before() {
	local major minor
	IFS=.- read -r major minor _ <<<"$(uname -r)"
	[ $((major < $1 || (major == $1 && minor < $2))) = 1 ]
}

# bpf_recorder_loads: --explain's automatic choice is the BPF recorder here: a kernel
# with BTF, before 5.12 on x86 only (its object there has no atomics; elsewhere it
# still needs the atomic exchange: docs/explain.md, "The BPF recorder").
bpf_recorder_loads() {
	[ -r /sys/kernel/btf/vmlinux ] && { ! kernel_before 5 12 || [ "$(uname -m)" = x86_64 ]; }
}

# require_real_cgroups ROOT_WHY: the preconditions of a test on the machine's own
# cgroups (root, else skip_all ROOT_WHY; a cgroup layout ljkit uses; two CPUs), with
# cgroup_profile's CG_* set.
require_real_cgroups() {
	is_root || skip_all "$1"
	cgroup_profile
	[ -n "$CG_MODE" ] || skip_all "$CG_WHY"
	[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
}

# cgroup_profile: the cgroup layout lj-env's --cgroup uses on this machine,
# as lj-env --show --json reports it (so the tests test what the tool does):
#   CG_MODE    v1 (cpuset, and cpu when mounted, in v1 hierarchies: systemd's
#              cpu,cpuacct layout included), v2 (both in the unified one),
#              "" when --cgroup cannot make a group here
#   CG_CPUSET  where groups are made for cpuset: the v1 mount or the v2 base
#   CG_CPU     the same for cpu ("" without a cpu controller)
#   CG_V2      the unified mount (v2); CG_REL the v2 base below it ("" at
#              the root, /a/b in a group systemd delegated)
#   CG_RT      1 with RT group scheduling (v1 cpu.rt_runtime_us), else 0
#   CG_WHY     why CG_MODE is "" (for skip_all)
cgroup_profile() {
	local j
	CG_MODE= CG_CPUSET= CG_CPU= CG_V2= CG_REL= CG_RT=0 CG_WHY=
	j=$(lj-env --show --json 2>/dev/null | jq -c .state.cgroup) || { CG_WHY="lj-env --show failed"; return; }
	CG_V2=$(jq -r .unified <<<"$j")
	[ "$(jq -r .rt_group_sched <<<"$j")" = true ] && CG_RT=1
	if [ -n "$(jq -r .v1_cpuset <<<"$j")" ]; then
		CG_MODE=v1 CG_CPUSET=$(jq -r .v1_cpuset <<<"$j") CG_CPU=$(jq -r .v1_cpu <<<"$j")
	elif [ "$(jq -r .v2_cpuset <<<"$j")" = true ]; then
		local base
		base=$(jq -r .v2_base <<<"$j")
		if [ -z "$base" ]; then
			CG_WHY="cgroup v2 managed by systemd and this shell's group is not delegated: run under systemd-run --scope -p Delegate=yes"
			return
		fi
		CG_MODE=v2 CG_CPUSET=$base CG_REL=${base#"$CG_V2"}
		[ "$(jq -r .v2_cpu <<<"$j")" = true ] && CG_CPU=$base
	else
		CG_WHY="no cpuset controller, in v1 or v2 (cgroup mode $(jq -r .mode <<<"$j"))"
	fi
}

# cg_member FILE NAME: FILE (a copy of /proc/PID/cgroup) puts the task in
# group NAME of the cpuset hierarchy (NAME "": the root groups).
cg_member() {
	if [ "$CG_MODE" = v1 ]; then
		grep -Eq "^[0-9]+:([a-z_]+,)*cpuset(,[a-z_]+)*:/$2\$" "$1"
	elif [ -n "$2" ]; then
		grep -q "^0::$CG_REL/$2\$" "$1"
	else
		grep -q "^0::/\$" "$1"
	fi
}

# cg_state: what a cgroup run must leave as it found: the v2 base's (and
# the unified root's) cgroup.subtree_control and the groups below the base
# (v1: the cpuset and cpu roots' groups).
cg_state() {
	if [ "$CG_MODE" = v2 ]; then
		echo "root subtree_control: $(cat "$CG_V2/cgroup.subtree_control")"
		echo "base subtree_control: $(cat "$CG_CPUSET/cgroup.subtree_control")"
	fi
	# only groups of this test's prefix: parallel tests may create theirs
	ls -d "$CG_CPUSET/$1"* ${CG_CPU:+"$CG_CPU/$1"*} 2>/dev/null | sort -u
}

# loopback_up: is lo up (IFF_UP)? A guest booted without network setup,
# or a new network namespace, has it down: TCP over loopback then fails.
# (ip reads this network namespace; /sys may be another namespace's mount)
loopback_up() {
	if command -v ip >/dev/null; then
		ip -o link show lo 2>/dev/null | grep -Eq '<([^>]*,)?UP[,>]'
	else
		[ -r /sys/class/net/lo/flags ] && (( $(cat /sys/class/net/lo/flags) & 1 ))
	fi
}

# system_lock: tests that change system-wide state (cgroups, RT budgets,
# RT throttling) hold this lock, because prove runs two test files at once
# (and other checkouts share it: same path, same flock). A lock file others
# can open can be held by anyone (flock needs only a read-only open): it
# lives in a directory of the running user's own, mode 0700, made here
# (mkdir: never through a link) and used only if it is exactly that; a
# planted link or directory makes the test bail out with the reason. The
# wait is bounded ($LJ_TEST_LOCK_TIMEOUT seconds, default 900): a holder
# that never lets go costs a message naming it, not a hung make check.
system_lock() {
	local d="${TMPDIR:-/tmp}/ljkit-system-tests-$(id -u).d" holder
	local timeout=${LJ_TEST_LOCK_TIMEOUT:-900}

	mkdir -m 700 "$d" 2>/dev/null
	if [ -L "$d" ] || [ ! -d "$d" ] || [ "$(stat -c %u:%a "$d")" != "$(id -u):700" ]; then
		echo "Bail out! $d is not a private directory of uid $(id -u) (mode 0700; a planted link?): not used for the test lock"
		exit 1
	fi
	exec 9>>"$d/lock"
	if ! flock -w "$timeout" 9; then
		holder=$(awk -v ino="$(stat -c %i "$d/lock")" '$2 == "FLOCK" && $6 ~ (":" ino "$") { print $5; exit }' /proc/locks)
		echo "Bail out! the test lock $d/lock is held by pid ${holder:-?} ($(cat "/proc/${holder:-0}/cmdline" 2>/dev/null | tr '\0' ' ' | cut -c1-80)) for over $timeout s: is it stuck? (LJ_TEST_LOCK_TIMEOUT sets the wait)"
		exit 1
	fi
}

# drop_to_nobody CMD...: run CMD as uid/gid 65534 with no groups, to see
# a tool's fallbacks without privilege. can_drop_to_nobody: does that work
# here (setpriv installed, and we may change uid)?
drop_to_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
can_drop_to_nobody() { command -v setpriv >/dev/null && drop_to_nobody true 2>/dev/null; }

# result_validates FILE: one test, the whole document against the
# ljkit-result/1 schema (lj-compare --validate); skipped when lj-compare
# is not built.
result_validates() {
	if [ -x "$LJ_BUILD/lj-compare" ]; then
		run_rc lj-compare --validate "$1"
		is "$rc" 0 "the result validates as ljkit-result/1 (lj-compare --validate)"
	else
		skip 1 "lj-compare not built: schema validation"
	fi
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}
