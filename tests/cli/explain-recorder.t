#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-recorder.t - --explain's choice of recorder (docs/explain.md, "The
# recorders"): on a kernel without BTF (here /sys/kernel/btf/vmlinux hidden
# under /dev/null in a private mount namespace, as on kernels built without
# it) the automatic choice falls back to tracefs and says why; a forced
# BPF recorder that cannot load is the explain fallback (one warning, 77
# with --strict); a bad LJ_EXPLAIN_RECORDER is a usage error.
if [ -z "${LJ_PRIVATE_NS:-}" ] && [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	LJ_PRIVATE_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracing)"
[ -n "${LJ_PRIVATE_NS:-}" ] || skip_all "no private mount namespace (unshare -m)"
skip_unless_tracing
export LJ_RESULT_NO_SYSINFO=1
unset LJ_EXPLAIN_RECORDER
CPU=$(( $(nproc) - 1 ))
plan 9

run_rc env LJ_EXPLAIN_RECORDER=ebpf lj-cyclic -q -l 10 --explain
is "$rc:$(wc -l <"$TMP/err")" "2:1" "LJ_EXPLAIN_RECORDER=ebpf: exit 2, one line"
grep -q "LJ_EXPLAIN_RECORDER: invalid recorder 'ebpf' (bpf, tracefs or auto)" "$TMP/err"
ok $? "...naming the variable and the choices"

[ -e /sys/kernel/btf/vmlinux ] && mount --bind /dev/null /sys/kernel/btf/vmlinux
ok $? "the kernel's BTF hidden in this mount namespace"

# -i 200 at 1.0 ms thresholds: a VM's wake-ups give some samples to explain.
run_rc lj-cyclic -q -a "$CPU" -i 200 -l 1000 --explain=1 --json "$TMP/auto.json"
is "$rc" 0 "without BTF, --explain runs"
jq -e '.side.explain | .recorder == "tracefs" and (.bpf_unavailable | test("BTF")) and (.instance | startswith("/sys/kernel/tracing/instances/ljkit-"))' \
	"$TMP/auto.json" >/dev/null
ok $? "the automatic choice: tracefs, saying BPF had no BTF ($(jq -r .side.explain.bpf_unavailable "$TMP/auto.json"))"
jq -e '(.side.explain.explanations | length) > 0 and .side.instruments.explain.what == "--explain'"'"'s recorder (tracefs)"' \
	"$TMP/auto.json" >/dev/null
ok $? "it explained late samples; side.instruments names the recorder"

run_rc env LJ_EXPLAIN_RECORDER=bpf lj-cyclic -q -a "$CPU" -l 50 --explain --json "$TMP/forced.json"
is "$rc:$(grep -c 'warning: measuring with fallbacks: explain' "$TMP/err")" "0:1" \
	"the BPF recorder forced without BTF: the run goes on, one warning names the explain fallback"
jq -e '.setup.fallbacks | map(select(.what == "explain"))[0].reason | test("BTF")' "$TMP/forced.json" >/dev/null &&
	grep -q "fallbacks: explain (.*BTF.*)" "$TMP/err"
ok $? "...and the result records it, the warning and the record saying the step that failed (no BTF)"
run_rc env LJ_EXPLAIN_RECORDER=bpf lj-cyclic -q -a "$CPU" -l 50 --explain --strict
is "$rc" 77 "...with --strict: exit 77"
