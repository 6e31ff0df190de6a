#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-guest.t - lj-compare says when runs were measured in a guest: a QEMU TCG one
# (an emulated CPU: a warning and a note, the runs invalid for timing), a KVM one (the
# note the host figures have).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

cp -r "$FIX/base" "$TMP/kvm"
cp -r "$FIX/shifted" "$TMP/tcg"
# virt DIR NAME: every result of run directory DIR measured in a NAME guest
virt() {
	python3 - "$@" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*/*/run-*.json"):
    d = json.load(open(f))
    d.setdefault("system", {})["virtualised"] = sys.argv[2]
    json.dump(d, open(f, "w"))
PY
}
virt "$TMP/kvm" KVM
virt "$TMP/tcg" "QEMU TCG"
n=$(ls "$TMP"/tcg/*/*/run-*.json | wc -l)
run_rc lj-compare "$TMP/kvm" "$TMP/tcg"
is "$rc" 0 "lj-compare compares them"
ok "$(grep -q "^    $n measured in a QEMU TCG guest: an emulated CPU, invalid for timing" "$TMP/out"; echo $?)" \
	"the TCG set: a note under its header"
ok "$(grep -q '^    measured in a KVM guest: the host.s noise dominates max' "$TMP/out"; echo $?)" "the KVM set: the host figures' note"
is "$(grep -c "$n runs measured in a QEMU TCG guest: an emulated CPU's latencies say nothing about the kernel" "$TMP/err")" 1 \
	"one warning, for the TCG set"
run_rc lj-compare "$FIX/base" "$FIX/shifted"
ok "$(! grep -q 'measured in a' "$TMP/out" "$TMP/err"; echo $?)" "results without a hypervisor: no note"
done_testing
