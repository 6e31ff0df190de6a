#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# profiles.t - the tests that touch the system, run inside guests of the kernel profiles
# ljkit's users have (make check-kernels): Debian's stock kernel with cgroup v2 only; the
# stock kernel with systemd's cgroup v1 layout (cpu,cpuacct co-mounted, symlinks) and no RT
# group scheduling; the PREEMPT_RT kernel with cgroup v2; the stock kernel booted
# preempt=none, whose model the setup switches for real (no lockdown in a guest); the
# stock kernel with Android's cgroup layout (the cpuset mounted noprefix at /dev/cpuset); Debian
# 11's 5.10 with cgroup v2 (the generation of Android 12-13's and many ChromeOS boards'
# kernels: no PREEMPT_DYNAMIC, a BPF without atomic fetch-and-add); Ubuntu 22.04's generic
# 5.15 with cgroup v2 (a distribution kernel of CI runners and farm hosts, and the kernels
# between: atomics, sched_switch without prev_state, task_struct's own cpu). Each
# profile is one boot running its files with prove; each file is one test here, its
# failures shown. The guest sees this tree read-only: the build is the host's.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/guest-lib.sh"

why=$(guest_skip_reason rt)
[ -z "$why" ] || skip_all "$why"
is_root || skip_all "the guests run as the host's user: root for the system tests inside"
STOCK=$(guest_kernel stock)
RT=$(guest_kernel rt)
LEGACY=$(guest_kernel legacy)
UBUNTU=$(guest_kernel ubuntu)

# What every profile runs: cgroups (create, move back, remove, crash restore, matrix axis),
# the setup stack and its journal.
SYSTEM="tests/cli/env-cgroup.t tests/cli/env-crash.t tests/cli/env-cgroup-b2b.t tests/cli/env-cgroup-v2.t
	tests/cli/env-fake.t tests/cli/env.t tests/cli/matrix-cgroup.t
	$LJ_BUILD/t/test_cgroup $LJ_BUILD/t/test_setup $LJ_BUILD/t/test_setup_trust $LJ_BUILD/t/test_setupopt"
PREEMPT="$LJ_BUILD/t/test_preempt $LJ_BUILD/t/test_preempt_switch"
# The BPF recorder's programs load and record on the kernel (CO-RE against its BTF): both
# sched_switch programs, and an idle's end seen without cpu_idle (the timer's records, then
# the switch in).
RECORDER="$LJ_BUILD/t/test_trace_bpf_switch $LJ_BUILD/t/test_trace_bpf_idle tests/cli/explain-kernel.t"
# validity.t takes 4 minutes under TCG (each chrt is a process start of tens of ms): once, on v2.
MEASURE="tests/cli/cyclic.t tests/cli/power.t"

# The cgroup tests test v2 where the guest has it: they must not skip there.
MUST_RUN_ON_V2="env-cgroup.t env-crash.t env-cgroup-b2b.t env-cgroup-v2.t matrix-cgroup.t test_cgroup"

# profile NAME IMAGE [LJ-GUEST OPTIONS...] -- FILES...: one boot running FILES, one test per
# file; the guest's own view of its profile kept in $TMP/NAME/show.json. Each file runs
# by itself (its TAP written line by line, kept when a file hangs and is killed), then
# prove reads what it wrote.
profile() {
	local name=$1 image=$2 out=$TMP/$1 opts=() f t st why
	shift 2
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	mkdir -p "$out"
	run_rc lj-guest -k "$image" --cpus 2 --memory 1G -t 900 -s "$out" --console "$out/console" "${opts[@]}" \
		-e LJ_BUILD="$LJ_BUILD" -e LJ_SRC="$LJ_SRC" -e OUT="$out" -e LJ_TEST_DISPOSABLE=1 -- sh -c '
		cd "$LJ_SRC" && "$LJ_BUILD/lj-env" --show --json >"$OUT/show.json" 2>&1
		for f; do
			t="$OUT/$(basename "$f").tap"
			sh=; case $f in *.t) sh=bash ;; esac	# as prove runs them: bash, whatever their mode
			timeout -k 5 300 $sh "$f" >"$t" 2>&1
			rc=$?
			[ $rc -ne 0 ] || prove -e cat "$t" >/dev/null 2>&1 || rc=255
			echo "$rc $f" >>"$OUT/status"
		done' _ "$@"
	is "$rc" 0 "$name: the guest booted and ran its files$([ "$rc" = 0 ] || echo ": $(tail -3 "$TMP/err")")"
	[ "$rc" = 0 ] || diag "$name: the guest's console ends with" "$(tail -20 "$out/console" 2>/dev/null)"
	for f in "$@"; do
		f=${f##*/} t=$out/${f##*/}.tap
		st=$(awk -v f="$f" '{ n = split($2, p, "/") } p[n] == f { print $1 }' "$out/status" 2>/dev/null)
		why=$(sed -n 's/^1\.\.0 # SKIP //p' "$t" 2>/dev/null)
		if [ "${st:-none}" = 0 ] && [ -n "$why" ]; then
			if [[ $name == *v2* && " $MUST_RUN_ON_V2 " == *" $f "* ]]; then
				ok 1 "$name: $f must test cgroup v2, skipped: $why"
			else
				skip 1 "$name: $f: $why"
			fi
			continue
		fi
		is "${st:-none}" 0 "$name: $f$([ "$st" = 124 ] && echo ": killed after 300 s")"
		[ "${st:-none}" = 0 ] || diag "$(grep -E '^(not ok|#)' "$t" 2>/dev/null | head -40)" "last lines: $(tail -5 "$t" 2>/dev/null)"
	done
}

# show NAME JQ: a value of the guest's lj-env --show --json
show() { jq -r "$2" "$TMP/$1/show.json" 2>/dev/null; }

# recorder_ran NAME: the BPF recorder's own tests ran in that guest (they skip where it cannot load).
recorder_ran() {
	local f
	for f in test_trace_bpf_switch test_trace_bpf_idle; do
		! grep -q '^1\.\.0 # SKIP' "$TMP/$1/$f.tap" && grep -q '^ok ' "$TMP/$1/$f.tap"
		ok $? "$1: $f ran the BPF recorder ($(head -1 "$TMP/$1/$f.tap"))"
	done
}

profile stock-v2 "$STOCK" --cgroup v2 -- $SYSTEM $PREEMPT $RECORDER $MEASURE tests/cli/validity.t \
	tests/cli/explain-toplevel.t
is "$(show stock-v2 '.state.cgroup.mode')" v2 "stock-v2: the guest had cgroup v2 only"
! grep -q '^1\.\.0 # SKIP' "$TMP/stock-v2/explain-toplevel.t.tap" && grep -q '^ok ' "$TMP/stock-v2/explain-toplevel.t.tap"
ok $? "stock-v2: explain-toplevel.t traced at the top level (a throwaway guest may: $(head -1 "$TMP/stock-v2/explain-toplevel.t.tap"))"

profile stock-v1 "$STOCK" --cgroup v1 -- $SYSTEM tests/cli/reporter-group.t tests/cli/security.t
is "$(show stock-v1 '[.state.cgroup.mode, .state.cgroup.rt_group_sched] | join(" ")')" "v1 false" \
	"stock-v1: cgroup v1 without RT group scheduling"

profile rt-v2 "$RT" --cgroup v2 -- tests/cli/env-cgroup.t tests/cli/env-crash.t tests/cli/matrix-cgroup.t \
	$LJ_BUILD/t/test_cgroup $PREEMPT $RECORDER $MEASURE
is "$(show rt-v2 '[.state.cgroup.mode, .state.preempt.model] | join(" ")')" "v2 rt" "rt-v2: PREEMPT_RT with cgroup v2"

profile stock-none "$STOCK" -a preempt=none -- tests/cli/env-crash.t tests/cli/env.t tests/cli/matrix-cgroup.t \
	$PREEMPT tests/cli/cyclic.t
is "$(show stock-none '.state.preempt.model')" none "stock-none: booted preempt=none"
ok "$(grep -q '^ok .* --preempt full switched the model through debugfs' "$TMP/stock-none/env-crash.t.tap"; echo $?)" \
	"stock-none: env-crash.t switched the model to full for real and restored it"

# Android's layout: the v1 cpuset mounted noprefix at /dev/cpuset (files cpus, mems), cpu at /dev/cpuctl.
profile stock-android "$STOCK" --cgroup android -- tests/cli/env-cgroup-noprefix.t $LJ_BUILD/t/test_cgroup
is "$(show stock-android '[.state.cgroup.v1_cpuset, .state.cgroup.v1_cpuset_noprefix, .state.cgroup.v1_cpu] | join(" ")')" \
	"/dev/cpuset true /dev/cpuctl" "stock-android: the cpuset at /dev/cpuset, noprefix; cpu at /dev/cpuctl"
! grep -q '^1\.\.0 # SKIP' "$TMP/stock-android/env-cgroup-noprefix.t.tap" 2>/dev/null
ok $? "stock-android: env-cgroup-noprefix.t ran, not skipped"

if [ -n "$LEGACY" ]; then
	# The setup's cgroup v2 and preemption paths, and the recorder (the suite keeps under 20 minutes).
	profile legacy-v2 "$LEGACY" --cgroup v2 -- tests/cli/env-cgroup.t $LJ_BUILD/t/test_cgroup $LJ_BUILD/t/test_preempt \
		$RECORDER
	is "$(show legacy-v2 '[.state.cgroup.mode, .state.preempt.model, .state.preempt.dynamic] | join(" ")')" \
		"v2 voluntary false" "legacy-v2: 5.10, cgroup v2, voluntary preemption from the kernel's config"
	# The recorder's own tests load its object without atomics there: they must run, not skip.
	recorder_ran legacy-v2
else
	skip 10 "no 5.10 kernel in $LJ_KERNEL_CACHE (scripts/deps --kernels)"
fi

if [ -n "$UBUNTU" ]; then
	# The recorder on a kernel between 5.12 and 5.17 (env-cgroup.t's 50 s under TCG: v2 has three guests already).
	profile ubuntu-v2 "$UBUNTU" --cgroup v2 -- $LJ_BUILD/t/test_cgroup $RECORDER
	is "$(show ubuntu-v2 '[.state.cgroup.mode, .system.kernel_release] | join(" ")' | sed 's/-[0-9]*-generic$//')" \
		"v2 5.15.0" "ubuntu-v2: Ubuntu's 5.15 with cgroup v2"
	recorder_ran ubuntu-v2
else
	skip 8 "no Ubuntu 5.15 kernel in $LJ_KERNEL_CACHE (scripts/deps --kernels)"
fi
done_testing
