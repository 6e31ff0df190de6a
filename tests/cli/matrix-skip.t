#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-skip.t - lj-matrix's skip reasons against substituted sysfs trees (private mount
# namespace) and an unprivileged user; skipped cells are recorded, never dropped.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] || skip_all "lj-matrix not built in $LJ_BUILD"
is_root || skip_all "needs root for a private mount namespace (unshare -m)"
unshare -m true 2>/dev/null || skip_all "unshare -m is not permitted here"
export LJ_RESULT_NO_SYSINFO=1
CPU=/sys/devices/system/cpu

cat >"$TMP/gov.scn" <<EOF
[matrix]
governor = keep, performance, ondemand
idle_state = none, 1
[workload fake]
command = $FAKE
EOF

# in_fake_sysfs GOVERNORS CMD...: run CMD with a fake cpufreq tree ("" = no policy at all)
# and a fake cpuidle tree whose driver is none.
in_fake_sysfs() {
	local govs=$1
	shift
	unshare -m sh -c '
		govs=$1; shift
		mount -t tmpfs none '"$CPU"'/cpufreq || exit 90
		if [ -n "$govs" ]; then
			mkdir '"$CPU"'/cpufreq/policy0
			echo "$govs" >'"$CPU"'/cpufreq/policy0/scaling_available_governors
		fi
		mount -t tmpfs none '"$CPU"'/cpuidle || exit 90
		echo none >'"$CPU"'/cpuidle/current_driver
		exec "$@"' sh "$govs" "$@"
}

in_fake_sysfs "" lj-matrix --lj-env /bin/true -n "$TMP/gov.scn" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$rc" = 90 ]; then
	skip 6 "cannot mount over $CPU"
else
	is "$rc" 0 "dry run in the fake tree"
	grep -q 'fake \[governor=performance,idle_state=none\]: skip: governor=performance: no cpufreq driver$' "$TMP/out"
	ok $? "no cpufreq policy: governor cells skip with 'no cpufreq driver'"
	grep -q 'fake \[governor=keep,idle_state=1\]: skip: idle_state=1: no cpuidle driver$' "$TMP/out"
	ok $? "cpuidle driver none: idle_state cells skip with 'no cpuidle driver'"
	grep -q 'fake \[governor=keep,idle_state=none\]: run: ' "$TMP/out"
	ok $? "keep and none cells run"

	in_fake_sysfs "performance powersave" lj-matrix --lj-env /bin/true -n "$TMP/gov.scn" >"$TMP/out" 2>"$TMP/err"
	grep -q 'fake \[governor=performance,idle_state=none\]: run: ' "$TMP/out"
	ok $? "a governor the driver offers runs"
	grep -q "skip: governor=ondemand: governor not available (available: performance powersave)$" "$TMP/out"
	ok $? "a governor it does not offer is skipped, listing what it offers"

	# a real run records the skips in the manifest
	in_fake_sysfs "" lj-matrix -q -o "$TMP/store" "$TMP/gov.scn" >"$TMP/out" 2>"$TMP/err"
	dir=$(cat "$TMP/out")
	cells "$dir" >"$TMP/cells"
	is "$(grep -c ' skipped governor=.*: no cpufreq driver 0$' "$TMP/cells")" 4 "skipped cells are in the manifest with their reason"
fi

# an unprivileged user cannot create cgroups or hold cpu_dma_latency
if command -v setpriv >/dev/null; then
	printf '[matrix]\ncgroup = off, on\ndma_latency = none, 0\n[workload fake]\ncommand = %s\n' "$FAKE" >"$TMP/user.scn"
	chmod 755 "$TMP"
	chmod 644 "$TMP/user.scn"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LJ_BUILD/lj-matrix" --lj-env /bin/true -n "$TMP/user.scn" >"$TMP/out" 2>"$TMP/err"
	grep -q 'skip: cgroup=on: creating a cgroup needs root$' "$TMP/out"
	ok $? "as a user, cgroup=on is skipped: needs root"
	grep -q 'fake \[cgroup=off,dma_latency=0\]: skip: dma_latency=0: /dev/cpu_dma_latency: Permission denied$' "$TMP/out"
	ok $? "as a user, dma_latency is skipped with the open error"
else
	skip 2 "setpriv not installed"
fi

done_testing
