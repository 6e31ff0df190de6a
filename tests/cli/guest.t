#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# guest.t - lj-guest: bad input without a boot (one line, its exit code), then one guest of
# Debian's stock kernel (output, exit status, shares, mounts, nothing reaches the host),
# a runner SIGKILLed while its guest boots (no QEMU left) and a guest that does not end
# in time (killed). More boots are in tests/kernels (make check-kernels).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest-lib.sh"

G=lj-guest

run_rc $G true
is "$rc" 2 "no -k: usage error"
run_rc $G -k /nonexistent
is "$rc" 2 "no command: usage error"

run_rc $G --qemu /bin/true -k "$TMP/none" -- true
is "$rc" 121 "a missing image: exit 121"
is "$(cat "$TMP/err")" "lj-guest: kernel image $TMP/none: No such file or directory" "one line naming it"
run_rc $G --qemu /bin/true -k /etc/hostname -- true
is "$rc" 121 "an image that is not a kernel: exit 121"
ok "$([ "$(wc -l < "$TMP/err")" = 1 ] && grep -q 'not a Linux kernel image' "$TMP/err"; echo $?)" "one line saying so"

fake_bzimage "$TMP/vmlinuz-9.9.9-fake" 9.9.9-fake
mkdir -p "$TMP/tree/lib/modules/1.0.0-other/kernel"
run_rc $G --qemu /bin/true -k "$TMP/vmlinuz-9.9.9-fake" -M "$TMP/tree" -- true
is "$rc" 122 "modules of another release: exit 122"
is "$(cat "$TMP/err")" "lj-guest: modules: $TMP/tree/lib/modules has no modules of release 9.9.9-fake, only of 1.0.0-other" \
	"one line naming both releases"
mkdir -p "$TMP/tree2/lib/modules/9.9.9-fake/kernel"
printf 'kernel/fs/9p/9p.ko\n' >"$TMP/tree2/lib/modules/9.9.9-fake/modules.builtin"
if [ -x /bin/busybox ] && command -v cpio >/dev/null; then
	run_rc $G --qemu /bin/true -k "$TMP/vmlinuz-9.9.9-fake" -M "$TMP/tree2" -- true
	is "$rc" 123 "a kernel without virtio-pci, 9p or overlay: exit 123"
	is "$(cat "$TMP/err")" "lj-guest: module virtio_pci is neither built into the kernel nor in $TMP/tree2/lib/modules/9.9.9-fake" \
		"one line naming the module"
else
	skip 2 "no busybox-static or cpio (scripts/deps --install): checked before the modules"
fi
run_rc $G --qemu "$TMP/no-qemu" -k "$TMP/vmlinuz-9.9.9-fake" -- true
is "$rc" 77 "QEMU missing: exit 77"
run_rc $G -k "$TMP/vmlinuz-9.9.9-fake" --memory 12 -- true
is "$rc" 2 "--memory below 128M: usage error"

why=$(guest_skip_reason)
if [ -n "$why" ]; then
	skip 13 "$why"
	done_testing
	exit
fi
K=$(guest_kernel stock)
R=$(basename "$K"); R=${R#vmlinuz-}
mkdir -p "$TMP/share"
run_rc $G -k "$K" -s "$TMP/share" -- sh -c '
	uname -r; echo to-stderr >&2
	awk "\$2 == \"/sys/fs/cgroup\" { print \$3 }" /proc/mounts > '"$TMP/share/cgroup"'
	cat /sys/kernel/debug/sched/preempt > '"$TMP/share/preempt"'
	echo written > /etc/ljkit-guest-test; cat /etc/ljkit-guest-test > '"$TMP/share/overlay"'
	ls /run > '"$TMP/share/run"'
	bash -c "cat <(echo through-dev-fd) /dev/stdin <<<and-stdin" > '"$TMP/share/devfd"'
	cat /sys/class/net/lo/operstate /sys/class/net/lo/flags > '"$TMP/share/lo"'
	exit 3'
is "$rc" 3 "the command's exit status is lj-guest's"
is "$(cat "$TMP/out")" "$R" "its stdout, from the guest's kernel $R"
is "$(cat "$TMP/err")" "to-stderr" "its stderr apart"
is "$(cat "$TMP/share/cgroup" 2>/dev/null)" cgroup2 "cgroup v2 at /sys/fs/cgroup by default"
ok "$(grep -q '(' "$TMP/share/preempt" 2>/dev/null; echo $?)" "debugfs mounted: sched/preempt readable ($(cat "$TMP/share/preempt" 2>/dev/null))"
is "$(cat "$TMP/share/overlay" 2>/dev/null)" written "the guest writes over the host's root (the overlay)"
ok "$([ ! -e /etc/ljkit-guest-test ]; echo $?)" "and nothing of it reaches the host"
is "$(cat "$TMP/share/run" 2>/dev/null)" ljkit-guest "a fresh /run: the host's setup journals are not the guest's"
is "$(cat "$TMP/share/devfd" 2>/dev/null | tr '\n' ' ')" "through-dev-fd and-stdin " \
	"/dev/fd and /dev/stdin as on a booted system: bash's <(...) works"
ok "$(( ($(sed -n 2p "$TMP/share/lo" 2>/dev/null || echo 0) & 1) == 0 ))" "the loopback interface is up (flags $(sed -n 2p "$TMP/share/lo" 2>/dev/null))"

# SIGKILL on the runner while its guest boots: PR_SET_PDEATHSIG takes QEMU with it.
$G -k "$K" -- sleep 600 >/dev/null 2>&1 &
pid=$!
wait_for has_qemu $pid
q=$(qemu_child $pid)
kill -9 $pid
wait $pid 2>/dev/null
wait_for gone "${q:-0}"
ok "$([ -n "$q" ] && gone "$q"; echo $?)" "SIGKILL on lj-guest: its QEMU (pid ${q:-none}) does not outlive it"

run_rc $G -k "$K" -t 2 -- sleep 600
is "$rc" 124 "a guest that does not end in time: exit 124"
ok "$(grep -qE 'killed' "$TMP/err" && [ "$(wc -l < "$TMP/err")" = 1 ]; echo $?)" "one line: $(cat "$TMP/err")"
done_testing
