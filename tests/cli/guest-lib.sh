# SPDX-License-Identifier: GPL-2.0-or-later
# guest-lib.sh - finding a guest kernel and QEMU for the tests that boot one (sourced after lib.sh).

# Where scripts/deps --kernels unpacks Debian's kernel packages (docs/lj-guest.md).
: "${LJ_KERNEL_CACHE:=/var/cache/ljkit/kernels}"

# guest_kernel stock|rt|legacy: the newest unpacked image of that flavour (legacy: Debian 11's 5.10), or "".
guest_kernel() {
	local pat
	case $1 in
	stock) pat="linux-image-*[0-9]-amd64" ;;
	rt) pat="linux-image-*-rt-amd64" ;;
	legacy) pat="linux-image-5.10.*[0-9]-amd64" ;;
	ubuntu) pat="linux-image-5.15.*-generic" ;;
	esac
	ls -d "$LJ_KERNEL_CACHE"/$pat/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1
}

# guest_skip_reason [rt]: why a boot test cannot run here ("" when it can).
guest_skip_reason() {
	local k
	[ "$(uname -m)" = x86_64 ] || { echo "the boot tests use Debian's amd64 kernels"; return; }
	command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64 (scripts/deps --install)"; return; }
	[ -x /bin/busybox ] || { echo "no busybox-static (scripts/deps --install)"; return; }
	command -v cpio >/dev/null || { echo "no cpio (scripts/deps --install)"; return; }
	for k in stock "$@"; do
		[ -n "$(guest_kernel "$k")" ] ||
			{ echo "no $k kernel in $LJ_KERNEL_CACHE (scripts/deps --kernels)"; return; }
	done
}

# alive PID: the process exists and is not a zombie.
alive() {
	local st
	st=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# gone PID: the process has ended (a zombie counts as ended).
gone() { ! alive "$1"; }

# qemu_child PID: the QEMU lj-guest or lj-matrix PID started ("" while there is none).
qemu_child() {
	local c
	for c in $(cat /proc/$1/task/*/children 2>/dev/null); do
		case $(cat "/proc/$c/comm" 2>/dev/null) in qemu-system*) echo "$c"; return ;; esac
	done
}

# has_qemu PID: PID has started its QEMU, or has ended.
has_qemu() { [ -n "$(qemu_child "$1")" ] || ! kill -0 "$1" 2>/dev/null; }

# A fake x86 bzImage of release $2 at $1: the setup header's magic and version string, nothing bootable.
fake_bzimage() {
	python3 - "$1" "$2" <<'PY'
import sys
img = bytearray(0x800)
img[0x202:0x206] = b"HdrS"
img[0x20e:0x210] = (0x400).to_bytes(2, "little")
v = (sys.argv[2] + " (test@host) #1 SMP").encode() + b"\0"
img[0x600:0x600 + len(v)] = v
open(sys.argv[1], "wb").write(img)
PY
}
