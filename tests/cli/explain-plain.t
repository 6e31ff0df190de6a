#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-plain.t - explain.t's known answers (the FIFO hog, the loopback
# flood, lower-priority kernel work, ...) with the BPF recorder's object for
# kernels before 5.12, forced with LJ_EXPLAIN_BPF_PLAIN on any kernel: its
# records placed without the atomic fetch-and-add those kernels lack, the
# loopback flood's interrupts coming in on its softirqs' programs.
[ -r /sys/kernel/btf/vmlinux ] || { echo "1..0 # SKIP no kernel BTF: no BPF recorder to test"; exit 0; }
LJ_EXPLAIN_BPF_PLAIN=1 exec bash "$(dirname "$0")/explain.t" "$@"
