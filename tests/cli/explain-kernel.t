#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-kernel.t - --explain's automatic recorder on the kernel this runs on
# (docs/explain.md, "The recorders"): BPF on a kernel that can run its
# programs (5.12 or later, with BTF), else tracefs saying why (before 5.12:
# the verifier refuses the atomic fetch-and-add, and the reason says so);
# with either, the tail is explained. make check runs it on the machine's
# kernel, make check-kernels in the guests, Debian 11's 5.10 among them.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracing)"
skip_unless_tracing
export LJ_RESULT_NO_SYSINFO=1
unset LJ_EXPLAIN_RECORDER
CPU=$(( $(nproc) - 1 ))


# Without a threshold the run's tail (above its p99.9) is explained: there always is one.
run_rc lj-cyclic -q -a "$CPU" -i 500 -l 2000 --explain --json "$TMP/r.json"
is "$rc" 0 "lj-cyclic --explain runs on $(uname -r)"
[ "$rc" -eq 0 ] || diag "$(head -3 "$TMP/err")"
rec=$(jq -r '.side.explain.recorder' "$TMP/r.json")
why=$(jq -r '.side.explain.bpf_unavailable // ""' "$TMP/r.json")
if kernel_before 5 12; then
	is "$rec" tracefs "before 5.12: the tracefs recorder"
	[[ $why == *"needs Linux 5.12"* ]]
	ok $? "...saying the BPF one needs 5.12 ($why)"
elif [ -e /sys/kernel/btf/vmlinux ]; then
	is "$rec" bpf "5.12 or later, with BTF: the BPF recorder"
	is "$why" "" "...with no reason to fall back"
else
	is "$rec" tracefs "without BTF: the tracefs recorder"
	[[ $why == *BTF* ]]
	ok $? "...saying there is no BTF ($why)"
fi
jq -e '(.side.explain.explanations | length) > 0 and .side.explain.events > 0' "$TMP/r.json" >/dev/null
ok $? "the tail explained ($(jq -c '[(.side.explain.explanations | length), .side.explain.events]' "$TMP/r.json") explanations, events)"
jq -e '[.side.explain.explanations[] | .causes | length > 0] | all' "$TMP/r.json" >/dev/null
ok $? "...each with its causes"

done_testing
