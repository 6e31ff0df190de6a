#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix.t - lj-matrix's kernel and cmdline axes (make check-kernels): Debian's stock and
# PREEMPT_RT kernels x cgroup off/on, one guest per kernel; the preemption model switched
# and restored inside the stock kernel's guest, booted with cgroup v1; a guest that panics,
# one that hangs, and an lj-matrix SIGKILLed while its guest runs, then --resume.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/guest-lib.sh"
. "$(dirname "$0")/../cli/matrix-lib.sh"

why=$(guest_skip_reason rt)
[ -z "$why" ] || skip_all "$why"
is_root || skip_all "the guests run as the host's user: root for the cgroup cells"
export LJ_WAIT_TRIES=6000	# boots under TCG on a loaded machine: wait up to 5 min

# recorded STORE PID: a run is recorded in STORE's run (in the log, or compacted into the
# manifest), or lj-matrix PID has ended
recorded() {
	grep -qs '"run":{' "$1"/*/progress.jsonl || grep -qs '"duration_ns"' "$1"/*/manifest.json ||
		! kill -0 "$2" 2>/dev/null
}

# field FILE EXPR: one value of a result (python3, for JSON)
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }

cat >"$TMP/k.scn" <<EOF
[matrix]
repeat = 2
kernel = stock, rt
cgroup = off, on
[kernel stock]
image = $(guest_kernel stock)
[kernel rt]
image = $(guest_kernel rt)
[workload cyclic]
command = lj-cyclic -l 200 -i 1000 -q
timeout = 120s
EOF
run_rc lj-matrix -o "$TMP/store" "$TMP/k.scn"
is "$rc" 0 "2 kernels x cgroup off/on: every cell done"
dir=$(cat "$TMP/out")
is "$(cells "$dir" | awk '$3 == "done" && $4 == 2' | wc -l)" 4 "4 cells, 2 runs each"
runs=$(ls "$dir"/cyclic/*/run-[12].json 2>/dev/null)
is "$(for f in $runs; do field "$f" 'd["system"]["kernel_release"]'; done | sort -u | wc -l)" 2 \
	"the results carry two kernel releases"
is "$(for f in "$dir"/cyclic/kernel=rt,*/run-[12].json; do field "$f" 'd["system"]["preempt"]["model"]'; done | sort -u)" rt \
	"the rt kernel's results: preempt model rt"
is "$(for f in "$dir"/cyclic/kernel=stock,*/run-[12].json; do field "$f" 'd["system"]["preempt"]["model"]'; done | sort -u)" \
	voluntary "the stock kernel's: voluntary (Debian's default dynamic mode)"
is "$(for f in $runs; do field "$f" 'd["system"]["cgroup_mode"]'; done | sort -u)" v2 "each with the cgroup mode its guest had (v2)"
is "$(ls "$dir"/guests/*.console | wc -l) $(cat "$dir"/guests/*.console | grep -c 'ljkit-guest: ready')" "2 2" \
	"one boot per kernel for its 2 cells and 4 runs"
tcg=$(field "$(echo "$runs" | head -1)" 'd["system"]["virtualised"]')
if [ "$tcg" = "QEMU TCG" ]; then
	is "$(for f in $runs; do field "$f" '[r["what"] for r in d["validity"]["reasons"] if r["level"] == "invalid"][0]'; done | sort -u)" tcg \
		"measured under TCG: every result invalid, reason tcg"
	run_rc lj-compare --by kernel "$dir"
	ok "$(grep -q 'measured in a QEMU TCG guest' "$TMP/out" && grep -q 'kernel=rt: 4 runs measured in a QEMU TCG guest' "$TMP/err"; echo $?)" \
		"lj-compare --by kernel says so"
	ok "$(grep -q 'kernel_release: .* -> .*-rt-' "$TMP/out"; echo $?)" "and shows the kernels' identities apart"
else
	skip 3 "the guests ran under $tcg, not TCG"
fi

# preempt none, full, keep in order inside one guest of the stock kernel, booted with cgroup v1
cat >"$TMP/p.scn" <<EOF
[matrix]
kernel = stock
cmdline = systemd.unified_cgroup_hierarchy=0
preempt = none, full, keep
[kernel stock]
image = $(guest_kernel stock)
[workload cyclic]
command = lj-cyclic -l 50 -i 1000 -q
timeout = 120s
EOF
run_rc lj-matrix -o "$TMP/pstore" "$TMP/p.scn"
is "$rc" 0 "preempt = none, full, keep in the stock kernel's guest: done"
pdir=$(cat "$TMP/out")
mode() { field "$pdir/cyclic/kernel=stock,cmdline=systemd.unified_cgroup_hierarchy=0,preempt=$1/run-1.json" "$2"; }
is "$(mode none 'd["system"]["preempt"]["mode"]') $(mode full 'd["system"]["preempt"]["mode"]')" "none full" \
	"the model switched to none, then to full"
is "$(mode full 'd["system"]["preempt"]["source"]')" "debugfs sched/preempt" "read back from the guest's debugfs"
is "$(mode keep 'd["system"]["preempt"]["mode"]')" voluntary "and restored: the next cell sees the boot's voluntary"
is "$(mode keep 'd["system"]["cgroup_mode"]')" v1 "systemd.unified_cgroup_hierarchy=0: the guest had cgroup v1"
ok "$(mode keep 'd["system"]["cmdline"]' | grep -q 'systemd.unified_cgroup_hierarchy=0'; echo $?)" "the boot words in the identity"

# a guest that panics: its cells fail with the reason, the matrix goes on, the store is whole
cat >"$TMP/x.scn" <<EOF
[matrix]
kernel = stock
cmdline = rdinit=/nonexistent, none
[kernel stock]
image = $(guest_kernel stock)
[workload fake]
command = $FAKE
timeout = 120s
EOF
run_rc lj-matrix -o "$TMP/xstore" "$TMP/x.scn"
xdir=$(cat "$TMP/out")
is "$rc" 1 "a guest that panics: exit 1"
is "$(cells "$xdir" | cut -d' ' -f2-3)" "$(printf 'kernel=stock,cmdline=rdinit=/nonexistent failed\nkernel=stock,cmdline=none done')" \
	"its cell failed, the next group's ran"
ok "$(cells "$xdir" | grep -q 'guest kernel panic: VFS: Unable to mount root fs'; echo $?)" "the reason: the panic's line"
is "$(grep -c 'warning: guest kernel=stock,cmdline=rdinit' "$TMP/err")" 1 "one line for it"
is "$(mjson "$xdir" state)" complete "the manifest is complete"

# a guest that hangs (its QEMU stopped): killed after --guest-timeout beyond the run's timeout
sed -i 's/^cmdline = .*/cmdline = none/; s/^timeout = .*/timeout = 5s/; s/^\[matrix\]/[matrix]\nrepeat = 3/' "$TMP/x.scn"
lj-matrix -o "$TMP/hstore" --guest-timeout 10s "$TMP/x.scn" >"$TMP/hout" 2>"$TMP/herr" &
pid=$!
wait_for has_qemu $pid
q=$(qemu_child $pid)
wait_for recorded "$TMP/hstore" $pid
kill -STOP "$q"
wait $pid
rc=$?
is "$rc" 1 "a guest that hangs: exit 1"
hdir=$(cat "$TMP/hout")
ok "$(cells "$hdir" | grep -q 'failed guest kernel=stock,cmdline=none: the guest said nothing for [0-9]* s: killed [1-2]$'; echo $?)" \
	"its cell failed with the reason, the recorded run kept: $(cells "$hdir")"
ok "$(gone "$q"; echo $?)" "and its QEMU is gone"

# lj-matrix SIGKILLed while its guest runs: the guest goes with it; --resume runs what is missing
lj-matrix -o "$TMP/rstore" "$TMP/x.scn" >/dev/null 2>&1 &
pid=$!
wait_for has_qemu $pid
q=$(qemu_child $pid)
wait_for recorded "$TMP/rstore" $pid
kill -9 $pid
wait $pid 2>/dev/null
wait_for gone "$q"
ok "$(gone "$q"; echo $?)" "lj-matrix SIGKILLed: its guest is gone"
rdir=$(ls -d "$TMP"/rstore/*/)
wait_for flock -n "$rdir" true	# the watchdog holds the lock until the orphans are gone
run_rc lj-matrix --resume "$rdir"
is "$rc" 0 "--resume boots a guest again and finishes"
is "$(cells "$rdir" | cut -d' ' -f3-)" "done 3" "the cell done with its 3 runs"
is "$(mjson "$rdir" state)" complete "the manifest is complete"
done_testing
