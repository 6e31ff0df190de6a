#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-guest.t - lj-matrix's kernel and cmdline axes without booting anything: the
# scenario's [kernel] sections and their checks, the images a glob resolves to (newest
# version), --axis and $LJ_MATRIX_KERNELS, and kernels that cannot boot (missing, not a
# kernel, modules of another release): their cells failed with the reason, one line each,
# the host's cells run, the store whole. The boots are in tests/kernels/matrix.t.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest-lib.sh"
. "$(dirname "$0")/matrix-lib.sh"
export LJ_RESULT_NO_SYSINFO=1

printf '[matrix]\ncmdline = quiet\n[workload w]\ncommand = true\n' >"$TMP/a.scn"
run_rc lj-matrix -n "$TMP/a.scn"
is "$rc" 2 "a cmdline axis without a kernel axis: bad input"
is "$(cat "$TMP/err")" "lj-matrix: $TMP/a.scn:2: cmdline: boot words need a kernel axis (kernel = ...): the host's own cannot change" \
	"one line, naming the line"
printf '[matrix]\nkernel = nope\n[workload w]\ncommand = true\n' >"$TMP/a.scn"
run_rc lj-matrix -n "$TMP/a.scn"
ok "$([ "$rc" = 2 ] && grep -q "kernel: 'nope' is neither host, a \[kernel nope\] section nor a path" "$TMP/err"; echo $?)" \
	"a kernel that is no section nor path: bad input"
printf '[matrix]\nkernel = k\n[kernel k]\nmodules = /x\n[workload w]\ncommand = true\n' >"$TMP/a.scn"
run_rc lj-matrix -n "$TMP/a.scn"
ok "$([ "$rc" = 2 ] && grep -q "kernel 'k' has no image" "$TMP/err"; echo $?)" "a [kernel] without an image: bad input"

mkdir -p "$TMP/k/boot"
fake_bzimage "$TMP/k/boot/vmlinuz-1.2" 1.2
fake_bzimage "$TMP/k/boot/vmlinuz-1.10" 1.10
cat >"$TMP/g.scn" <<EOF
[matrix]
kernel = host, k
[kernel k]
image = $TMP/k/boot/vmlinuz-*
[workload fake]
command = $FAKE
EOF
run_rc lj-matrix -n "$TMP/g.scn"
is "$(grep -c "run in a guest of $TMP/k/boot/vmlinuz-1.10: " "$TMP/out")" 1 "a glob's newest match in version order (1.10 after 1.2)"
run_rc lj-matrix -n --axis kernel=/x/a,/x/b "$TMP/g.scn"
is "$(grep -o 'kernel=[^]]*' "$TMP/out" | tr '\n' ' ')" "kernel=/x/a kernel=/x/b " "--axis kernel=... replaces the axis's values"
LJ_MATRIX_KERNELS=/y/c run_rc lj-matrix -n "$TMP/g.scn"
is "$(grep -o 'kernel=[^]]*' "$TMP/out" | tr '\n' ' ')" "kernel=/y/c " "so does \$LJ_MATRIX_KERNELS"
LJ_MATRIX_KERNELS=/y/c run_rc lj-matrix -n --axis kernel=/x/a "$TMP/g.scn"
is "$(grep -o 'kernel=[^]]*' "$TMP/out" | tr '\n' ' ')" "kernel=/x/a " "--axis wins over the environment"

# Kernels that cannot boot: no QEMU starts, their cells fail with the reason.
mkdir -p "$TMP/m/lib/modules/9.9.9-other/kernel"
seq 1000 >"$TMP/junk"
cat >"$TMP/b.scn" <<EOF
[matrix]
kernel = host, missing, junk, mods
[kernel missing]
image = $TMP/nowhere/vmlinuz
[kernel junk]
image = $TMP/junk
[kernel mods]
image = $TMP/k/boot/vmlinuz-1.10
modules = $TMP/m
[workload fake]
command = $FAKE
EOF
run_rc lj-matrix -o "$TMP/store" "$TMP/b.scn"
dir=$(cat "$TMP/out")
is "$rc" 1 "kernels that cannot boot: exit 1 (cells failed)"
if command -v qemu-system-x86_64 >/dev/null; then
	is "$(cells "$dir")" "$(printf '%s\n' \
		"fake kernel=host done 1" \
		"fake kernel=missing failed guest kernel=missing: kernel image $TMP/nowhere/vmlinuz: No such file or directory 0" \
		"fake kernel=junk failed guest kernel=junk: kernel image $TMP/junk: not a Linux kernel image (no x86 bzImage header, no arm64 Image header with a 'Linux version' banner) 0" \
		"fake kernel=mods failed guest kernel=mods: modules: $TMP/m/lib/modules has no modules of release 1.10, only of 9.9.9-other 0")" \
		"each failed with its reason; the host's cell ran"
	is "$(grep -c 'warning: guest kernel=' "$TMP/err")" 3 "one line each"
else
	skip 2 "no qemu-system-x86_64: the guest cells are skipped"
fi
is "$(mjson "$dir" state)" complete "the manifest is complete"
is "$(mjson "$dir" kernels.k)" null "a [kernel] not in the axis is not recorded"
is "$(mjson "$dir" kernels.mods.image)" "$TMP/k/boot/vmlinuz-1.10" "the images as resolved are in the manifest"
run_rc lj-matrix --resume "$dir"
is "$rc" 1 "--resume of a finished run: nothing left, the same verdict"
run_rc lj-matrix --resume "$dir" --axis kernel=host
is "$rc" 2 "--resume takes no --axis (the manifest holds them)"

# --axis is recorded and applied again by --resume
run_rc lj-matrix -o "$TMP/store2" --axis kernel=host "$TMP/b.scn"
dir2=$(cat "$TMP/out")
is "$rc $(cells "$dir2" | wc -l)" "0 1" "--axis kernel=host: one cell, run on the host"
is "$(perl -MJSON::PP -0777 -ne 'print join(",", @{ decode_json($_)->{scenario}{overrides} })' "$dir2/manifest.json")" \
	"kernel=host" "recorded in the manifest"
run_rc lj-matrix --resume "$dir2"
is "$rc" 0 "--resume reads the same one-cell matrix back"
done_testing
