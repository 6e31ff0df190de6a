#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# guest.t - lj-guest's longer boots (make check-kernels): a guest that panics, the cgroup
# layouts, the preemption model switched through the guest's debugfs, the PREEMPT_RT
# kernel, a user's initramfs bringing the modules, and an arm64 guest under TCG.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/guest-lib.sh"

why=$(guest_skip_reason rt)
[ -z "$why" ] || skip_all "$why"
K=$(guest_kernel stock)
KRT=$(guest_kernel rt)
R=$(basename "$K"); R=${R#vmlinuz-}
G=lj-guest
mkdir -p "$TMP/s"

run_rc $G -k "$K" -- sh -c 'echo c > /proc/sysrq-trigger'
is "$rc" 125 "a guest whose kernel panics: exit 125"
is "$(cat "$TMP/err")" "lj-guest: guest kernel panic: sysrq triggered crash" "one line with the panic's reason"
run_rc $G -k "$K" -a panic=0 -- sh -c 'echo c > /proc/sysrq-trigger'
is "$rc" 125 "panic=0 (the kernel would wait for ever): still seen and killed, exit 125"

# One boot per layout: what /sys/fs/cgroup holds.
layout() {	# layout OPTIONS...: "TYPE cpu->TARGET systemd unified" as the guest mounted it
	$G -k "$K" "$@" -- sh -c 'cd /sys/fs/cgroup; echo "$(stat -f -c %T .) $(readlink cpu) $(ls -d systemd unified 2>/dev/null | tr "\n" " ")"'
}
is "$(layout --cgroup v1)" "tmpfs cpu,cpuacct systemd " "--cgroup v1: systemd's legacy layout, cpu -> cpu,cpuacct"
is "$(layout -a systemd.unified_cgroup_hierarchy=0)" "tmpfs cpu,cpuacct systemd " \
	"systemd.unified_cgroup_hierarchy=0 alone gives the same"
is "$(layout --cgroup hybrid)" "tmpfs cpu,cpuacct systemd unified " "--cgroup hybrid: cgroup2 at unified too"
is "$(layout --cgroup none)" "sysfs  " "--cgroup none: nothing mounted"

# The preemption model really switches in the guest (no lockdown there).
is "$($G -k "$K" -a preempt=none -- sh -c 'f=/sys/kernel/debug/sched/preempt; cat $f; echo full > $f; cat $f')" \
	"$(printf '(none) voluntary full \nnone voluntary (full) ')" "the stock kernel's preempt=none switched to full through debugfs"
is "$($G -k "$KRT" -- sh -c 'cat /sys/kernel/realtime; uname -v | grep -o PREEMPT_RT')" "$(printf '1\nPREEMPT_RT')" \
	"the RT kernel's guest is PREEMPT_RT"

# A user's initramfs: the modules and modules.dep come from it, none from a tree.
u="$TMP/u/lib/modules/$R"
mkdir -p "$u"
for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay; do
	find "$(dirname "$(dirname "$K")")/lib/modules/$R" -name "$m.ko*" -exec cp {} "$u/" \;
done
busybox depmod -b "$TMP/u" "$R"
(cd "$TMP/u" && find . | cpio -o -H newc -R 0:0 --quiet > "$TMP/user.img")
is "$($G -k "$K" -i "$TMP/user.img" -- uname -r)" "$R" "a user's initramfs, its modules loaded by name"

A=$(ls -d "$LJ_KERNEL_CACHE"/linux-image-*-arm64/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
if [ -z "$A" ] || ! command -v qemu-system-aarch64 >/dev/null || [ ! -x "$LJ_KERNEL_CACHE/busybox-static-arm64/bin/busybox" ]; then
	skip 2 "no arm64 kernel, busybox-static for arm64 or qemu-system-aarch64 (scripts/deps --arm64)"
else
	run_rc $G -k "$A" -s "$TMP/s" -- sh -c "uname -m > $TMP/s/arch; exit 4"
	is "$rc" 4 "an arm64 guest under TCG: its command's status"
	is "$(cat "$TMP/s/arch" 2>/dev/null)" aarch64 "it ran on aarch64, its share written"
fi
done_testing
