#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-kernel.t - --explain's automatic recorder on the kernel this runs on
# (docs/explain.md, "The recorders"): BPF on a kernel with BTF, its object
# without atomics before 5.12 (whose verifier refuses the atomic
# fetch-and-add; outside x86 it also needs the atomic exchange, and falls
# back to tracefs saying so), else tracefs saying why; with either, the tail
# is explained, and by the tracefs recorder when asked for. make check runs it on the machine's kernel, make
# check-kernels in the guests, Debian 11's 5.10 among them.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracing)"
skip_unless_tracing
export LJ_RESULT_NO_SYSINFO=1
unset LJ_EXPLAIN_RECORDER
CPU=$(( $(nproc) - 1 ))

# LJ_EXPLAIN_BPF_PLAIN (explain-plain.t's switch to the object for kernels before 5.12): 1 or 0.
run_rc env LJ_EXPLAIN_BPF_PLAIN=yes lj-cyclic -q -l 10 --explain
is "$rc:$(wc -l <"$TMP/err")" "2:1" "LJ_EXPLAIN_BPF_PLAIN=yes: exit 2, one line"
grep -q "LJ_EXPLAIN_BPF_PLAIN: invalid value 'yes' (1 or 0)" "$TMP/err"
ok $? "...naming the variable and the values it takes"


# Without a threshold the run's tail (above its p99.9) is explained: there always is one.
run_rc lj-cyclic -q -a "$CPU" -i 500 -l 2000 --explain --json "$TMP/r.json"
is "$rc" 0 "lj-cyclic --explain runs on $(uname -r)"
[ "$rc" -eq 0 ] || diag "$(head -3 "$TMP/err")"
rec=$(jq -r '.side.explain.recorder' "$TMP/r.json")
why=$(jq -r '.side.explain.bpf_unavailable // ""' "$TMP/r.json")
object=$(jq -r '.side.explain.bpf_object // "none"' "$TMP/r.json")
if [ -e /sys/kernel/btf/vmlinux ] && ! bpf_recorder_loads; then
	is "$rec" tracefs "before 5.12 outside x86: the tracefs recorder"
	[[ $why == *"needs Linux 5.12"* ]]
	ok $? "...saying the BPF one needs 5.12 ($why)"
elif [ -e /sys/kernel/btf/vmlinux ]; then
	is "$rec" bpf "with BTF: the BPF recorder"
	is "$why" "" "...with no reason to fall back"
	if kernel_before 5 12; then
		is "$object" before-5.12 "...its object without atomics (before 5.12)"
	else
		is "$object" 5.12 "...its object with the atomic fetch-and-add (5.12 or later)"
	fi
else
	is "$rec" tracefs "without BTF: the tracefs recorder"
	[[ $why == *BTF* ]]
	ok $? "...saying there is no BTF ($why)"
fi
jq -e '(.side.explain.explanations | length) > 0 and .side.explain.events > 0' "$TMP/r.json" >/dev/null
ok $? "the tail explained ($(jq -c '[(.side.explain.explanations | length), .side.explain.events]' "$TMP/r.json") explanations, events)"
jq -e '[.side.explain.explanations[] | .causes | length > 0] | all' "$TMP/r.json" >/dev/null
ok $? "...each with its causes"

# The tracefs recorder, which sets its instance's options (those the
# kernel has: fewer on older ones), explains the tail on this kernel too.
run_rc env LJ_EXPLAIN_RECORDER=tracefs lj-cyclic -q -a "$CPU" -i 500 -l 2000 --explain --json "$TMP/t.json"
is "$rc:$(jq -r '.side.explain.recorder' "$TMP/t.json" 2>/dev/null)" "0:tracefs" \
	"LJ_EXPLAIN_RECORDER=tracefs: the tracefs recorder runs on $(uname -r)"
[ "$rc" -eq 0 ] || diag "$(head -3 "$TMP/err")"
jq -e '(.side.explain.explanations | length) > 0 and .side.explain.events > 0' "$TMP/t.json" >/dev/null
ok $? "...and explains the tail ($(jq -c '[(.side.explain.explanations | length), .side.explain.events]' "$TMP/t.json" 2>/dev/null))"

done_testing
