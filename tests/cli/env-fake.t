#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-fake.t - lj-env on fake cpufreq/cpuidle trees (private mount namespace): governors, idle states, crashes.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "fake sysfs trees need root (unshare -m)"
command -v unshare >/dev/null || skip_all "no unshare"
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
FK=$TMP/fk
SYS=/sys/devices/system/cpu

shape() { rm -rf "$FK" && "$LJ_SRC/tests/fixtures/fake-cpu-sysfs.sh" "$FK" "$1"; }
# in_fake CMD...: run CMD with the fake tree over the real one; the tree's files persist across calls.
in_fake() { unshare -m --propagation private sh -c 'mount --bind "$0" '$SYS' && exec "$@"' "$FK" "$@"; }
snap() { (cd "$FK" && grep -r . --include=scaling_governor --include=disable . | sort); }

shape percpu
before=$(snap)
run_rc in_fake lj-env --governor ondemand -- true
is "$rc" 2 "an unknown governor: exit 2"
grep -q "unknown governor 'ondemand' for cpu0 (available: performance powersave schedutil)" "$TMP/err"
ok $? "...naming the governors available"
is "$(wc -l <"$TMP/err")" 1 "...in one line"
is "$(snap)" "$before" "...and nothing changed"

run_rc in_fake lj-env --governor performance --idle-state 0 -- sh -c "cat $SYS/cpu*/cpufreq/scaling_governor $SYS/cpu0/cpuidle/state*/disable | tr '\n' ' '"
is "$(cat "$TMP/out")" "performance performance 0 1 1 " "governor and idle limit in force while the command runs"
is "$(snap)" "$before" "restored byte for byte after"
run_rc in_fake lj-env --show
grep -q "^cpufreq: *cpus 0: fake-cpufreq governor schedutil" "$TMP/out"; ok $? "--show lists each policy"
grep -q "^cpuidle: *cpu1: POLL(0us) C1(2us) C2(50us) disabled" "$TMP/out"; ok $? "--show lists idle states"

# not through the in_fake function: $! must be lj-env itself, not a subshell
unshare -m --propagation private sh -c 'mount --bind "$0" '$SYS' && exec "$@"' "$FK" \
	lj-env -q --governor powersave --idle-state 0 -- sleep 5 &
pid=$!
wait_child $pid sleep
during=$(snap)
kill -KILL $pid
wait $pid 2>/dev/null
ok "$([ "$during" != "$before" ] && echo 0 || echo 1)" "SIGKILL during the command leaves the change"
run_rc in_fake lj-env --restore
is "$rc" 0 "--restore in the namespace succeeds"
is "$(snap)" "$before" "the governors and idle states are as before"

shape shared
run_rc in_fake lj-env --cpus 0 --governor powersave -- cat $SYS/cpu1/cpufreq/scaling_governor
is "$(cat "$TMP/out")" powersave "shared policy: --cpus 0 changes cpu1's governor too"

shape biglittle
before=$(snap)
run_rc in_fake lj-env --governor powersave -- true
is "$rc" 2 "big/little: a governor only the little policy has is refused for all CPUs"
is "$(snap)" "$before" "...and nothing changed"
run_rc in_fake lj-env --cpus 0 --governor schedutil -- cat $SYS/cpu0/cpufreq/scaling_governor $SYS/cpu1/cpufreq/scaling_governor
is "$(tr '\n' ' ' <"$TMP/out")" "schedutil performance " "big/little: --cpus 0 changes only the little policy"

shape nodriver
run_rc in_fake lj-env --strict --governor performance -- true
is "$rc" 77 "no cpufreq driver, --strict: exit 77"
grep -q "no cpufreq driver" "$TMP/err"; ok $? "...saying there is no cpufreq driver"
run_rc in_fake lj-env --governor performance -- true
is "$rc" 0 "no cpufreq driver without --strict: warn and run"

# No controller mounted: every cgroup mount (v1 hierarchies, systemd's
# cpu,cpuacct behind its cpu and cpuacct links, the unified one) unmounted
# in a private namespace, innermost first.
no_cgroups='awk '"'"'$0 ~ / - cgroup2? / { print $5 }'"'"' /proc/self/mountinfo | sort -r |
	while read -r m; do umount "$(printf "$m")" || exit 1; done
	! grep -q " - cgroup2\? " /proc/self/mountinfo && exec "$@"'
run_rc unshare -m --propagation private sh -c "$no_cgroups" sh lj-env --strict --cgroup ljnone -- true
is "$rc" 77 "no cpuset/cpu controller mounted, --strict: exit 77"
grep -q "no cpuset or cpu cgroup controller mounted" "$TMP/err"; ok $? "...saying which controller is missing"

done_testing
