#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bpf-build.t - the BPF recorder's program builds without the build
# machine's kernel BTF (docs/explain.md, "The BPF recorder"): with
# /sys/kernel/btf/vmlinux hidden in a private mount namespace (a chroot, a
# cross build for a board) the object and its skeleton are made, and the
# object's BTF holds only the kernel fields the program reads (CO-RE
# relocates them at load), not a dump of the kernel's types.
if [ -z "${LJ_PRIVATE_NS:-}" ] && [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	LJ_PRIVATE_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

[ -n "${LJ_PRIVATE_NS:-}" ] || skip_all "needs root and a private mount namespace (unshare -m)"
for t in clang bpftool make; do
	command -v "$t" >/dev/null || skip_all "$t not installed (scripts/deps)"
done
plan 4

if [ -e /sys/kernel/btf/vmlinux ]; then
	mount --bind /dev/null /sys/kernel/btf/vmlinux
	ok $? "the kernel's BTF hidden in this mount namespace"
else
	ok 0 "no kernel BTF on this machine to hide"
fi
make -s -C "$LJ_SRC" BUILD="$TMP/b" "$TMP/b/bpf/lj_trace.skel.h" >"$TMP/out" 2>&1
ok $? "the program and its skeleton build without it" || diag "$(tail -5 "$TMP/out")"
bpftool btf dump file "$TMP/b/bpf/lj_trace.bpf.o" >"$TMP/btf" 2>&1
grep -q "STRUCT 'task_struct' size=[0-9]* vlen=6$" "$TMP/btf"
ok $? "the object's task_struct: the 6 fields the program reads ($(grep "STRUCT 'task_struct'" "$TMP/btf" | head -1))"
is "$(grep -c "^\[[0-9]*\] STRUCT " "$TMP/btf")" "$(grep -c "^\[[0-9]*\] STRUCT " <(bpftool btf dump file "$LJ_BUILD/bpf/lj_trace.bpf.o"))" \
	"the suite's own build made the same object (as many structures)"
