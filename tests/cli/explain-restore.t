#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-restore.t - the --explain recorder's tracefs state is a change
# like any other: a SIGKILLed recording is undone by lj-env --restore (its
# instance stopped and removed, tracefs unmounted when the run mounted
# it), a later run warns about the stale instance meanwhile, and runs
# that overlap share the mount: the last one out unmounts it, a killed
# one's claim included; a tracefs mounted by someone else is left alone.
# Runs in a private mount namespace with tracefs unmounted, so that the
# tools mount it themselves; instances are the kernel's, global: every
# instance of a run started here is removed at the end. The tracefs
# recorder is forced (LJ_EXPLAIN_RECORDER); the BPF one, which has nothing
# to undo, is killed last: it leaves no mount, no journal, no program.
if [ -z "${LJ_PRIVATE_NS:-}" ] && [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	LJ_PRIVATE_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] && [ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-cyclic or lj-env not built in $LJ_BUILD"
is_root || skip_all "needs root (tracefs)"
[ -n "${LJ_PRIVATE_NS:-}" ] || skip_all "no private mount namespace (unshare -m)"
TFS=/sys/kernel/tracing
[ -d "$TFS" ] || skip_all "no $TFS mount point"
while grep -q " $TFS .* - tracefs " /proc/self/mountinfo; do umount "$TFS" || skip_all "cannot unmount $TFS here"; done
export LJ_JOURNAL_DIR=$TMP/journal LJ_RESULT_NO_SYSINFO=1 LJ_EXPLAIN_RECORDER=tracefs
CPU=$(( $(nproc) - 1 ))
started=()

# Every instance of a run of ours goes, even when a test failed half-way.
cleanup_instances() {
	local p d
	grep -q " $TFS .* - tracefs " /proc/self/mountinfo || mount -t tracefs nodev "$TFS" 2>/dev/null
	for p in "${started[@]}"; do
		d=$TFS/instances/ljkit-$p
		[ -d "$d" ] && { echo 0 >"$d/tracing_on"; rmdir "$d"; }
	done
}
trap 'cleanup_instances 2>/dev/null; [ "$BASHPID" = "$_tap_shell" ] && rm -rf "$TMP"' EXIT

mounted() { grep -c " $TFS .* - tracefs " /proc/self/mountinfo; }
recording() { [ "$(cat "$TFS/instances/ljkit-$1/tracing_on" 2>/dev/null)" = 1 ] || ! kill -0 "$1" 2>/dev/null; }

# start_recording ARGS...: lj-cyclic --explain in the background, until its instance records; sets $pid.
start_recording() {
	"$LJ_BUILD/lj-cyclic" -q -a "$CPU" -p 50 --explain "$@" >/dev/null 2>"$TMP/rec.${#started[@]}.err" &
	pid=$!
	started+=("$pid")
	wait_for recording "$pid" && kill -0 "$pid" 2>/dev/null
}

run_rc lj-cyclic -q -l 1 --explain
if [ "$rc" -ne 0 ] || grep -q 'fallbacks:.*explain' "$TMP/err"; then
	skip_all "tracing not possible here: $(grep explain "$TMP/err" | head -1)"
fi
is "$(mounted)" 0 "a short --explain run that mounted tracefs unmounts it"

# 1. SIGKILL while recording; a later run warns; lj-env --restore undoes it.
start_recording -i 1000 -l 1000000
ok $? "lj-cyclic --explain records (instance ljkit-$pid, tracing on)"
{ kill -KILL "$pid"; wait "$pid"; } 2>/dev/null
killed=$pid
[ -d "$TFS/instances/ljkit-$killed" ] && [ "$(mounted)" = 1 ]
ok $? "the killed run left its instance and its mount (what --restore must undo)"
run_rc lj-cyclic -q -l 1
# (other runs on this machine may have left theirs: the warning names every one)
grep -q "tracefs instances\{0,1\} of dead ljkit processes still recording (.*$TFS/instances/ljkit-$killed[,)]" "$TMP/err"
ok $? "a later run warns about the stale instance, naming it"
run_rc lj-cyclic -q -l 1 --explain
grep -q "still recording (.*$TFS/instances/ljkit-$killed[,)]" "$TMP/err"
ok $? "a later --explain run warns too"
[ "$(mounted)" = 1 ]
ok $? "that run left the mount to the killed run's claim"
run_rc lj-env --restore
is "$rc" 0 "lj-env --restore exits 0"
grep -q "stopped and removed tracefs instance $TFS/instances/ljkit-$killed" "$TMP/out" &&
	grep -q "unmounted tracefs at $TFS" "$TMP/out"
ok $? "it says it removed the instance and unmounted tracefs"
[ "$(mounted)" = 0 ] && ! compgen -G "$LJ_JOURNAL_DIR/journal.*" >/dev/null
ok $? "tracefs unmounted as before, no journal left"
mount -t tracefs nodev "$TFS"
[ ! -d "$TFS/instances/ljkit-$killed" ]
ok $? "the instance is gone from the kernel"
umount "$TFS"

# 2. Two overlapping runs: the first to mount ends first; the second unmounts at its end.
start_recording -i 1000 -l 1000 && a=$pid &&
	start_recording -i 1000 -l 1000000 && b=$pid
ok $? "two --explain runs record at once"
wait "$a"
is "$?" 0 "the first exits 0"
is "$(mounted)" 1 "tracefs stays mounted while the second records"
kill -INT "$b"
wait "$b"
is "$?" 0 "the second exits 0 on SIGINT"
is "$(mounted)" 0 "the last run out unmounted tracefs"
ls "$LJ_JOURNAL_DIR" | grep -q '^journal\.' && diag "$(cat "$LJ_JOURNAL_DIR"/journal.*)"

# 3. The claim survives SIGKILL: a run killed, a second one ends, the mount waits for --restore.
start_recording -i 1000 -l 1000000 && a=$pid &&
	start_recording -i 1000 -l 300 && b=$pid
ok $? "a run to kill and a short one record at once"
{ kill -KILL "$a"; wait "$a"; } 2>/dev/null
wait "$b"
[ "$(mounted)" = 1 ] && [ ! -d "$TFS/instances/ljkit-$b" ]
ok $? "the short run removed its instance and left the mount to the killed run's claim"
run_rc lj-env --restore
[ "$rc" = 0 ] && [ "$(mounted)" = 0 ]
ok $? "lj-env --restore then unmounts it"

# 5. A run killed in a mount namespace of its own, which died with it: its mount is gone, its
# instance (the kernel's, global) is not; --restore here, where tracefs is not mounted, removes
# the instance through a mount of a child's own.
unshare -m --propagation private bash -c '
	"$1" -q -a "$2" -p 50 -i 1000 -l 1000000 --explain >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 400); do [ "$(cat /sys/kernel/tracing/instances/ljkit-$pid/tracing_on 2>/dev/null)" = 1 ] && break; sleep 0.05; done
	echo $pid >"$3"
	kill -KILL $pid
	wait $pid' _ "$LJ_BUILD/lj-cyclic" "$CPU" "$TMP/nspid" 2>/dev/null
inner=$(cat "$TMP/nspid")
started+=("$inner")
[ "$(mounted)" = 0 ]
ok $? "the killed run's mount went with its namespace"
run_rc lj-env --restore
[ "$rc" = 0 ] && grep -q "stopped and removed tracefs instance $TFS/instances/ljkit-$inner" "$TMP/out"
ok $? "lj-env --restore removes its instance from a namespace where tracefs is not mounted"
mount -t tracefs nodev "$TFS"
[ ! -d "$TFS/instances/ljkit-$inner" ] && ! compgen -G "$LJ_JOURNAL_DIR/journal.*" >/dev/null
ok $? "...gone from the kernel, no journal left"
umount "$TFS"
[ "$(mounted)" = 0 ]
ok $? "...and nothing stays mounted here"

# 4. A tracefs someone else mounted is theirs: used, never unmounted.
mount -t tracefs nodev "$TFS"
start_recording -i 1000 -l 200 && wait "$pid"
ok $? "a run on a tracefs mounted by someone else exits 0"
[ "$(mounted)" = 1 ] && [ ! -d "$TFS/instances/ljkit-$pid" ]
ok $? "it removed its instance and left the mount"
umount "$TFS"

# 6. The BPF recorder killed while it records: its programs and maps go with the process.
prog_ids() {	# prog_ids PID: the ids of the BPF programs PID holds (fdinfo), one a line
	local f
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = anon_inode:bpf-prog ] &&
			sed -n 's/^prog_id:[[:space:]]*//p' "/proc/$1/fdinfo/${f##*/}" 2>/dev/null
	done
}
held() { [ "$(prog_ids "$1" | wc -l)" -ge 1 ]; }
gone() { local id; for id in $1; do bpftool prog show id "$id" >/dev/null 2>&1 && return 1; done; return 0; }
if command -v bpftool >/dev/null && LJ_EXPLAIN_RECORDER=bpf "$LJ_BUILD/lj-cyclic" -q -l 1 --explain 2>&1 >/dev/null |
	grep -q 'fallbacks:.*explain'; then
	skip 3 "the BPF recorder cannot load here"
elif command -v bpftool >/dev/null; then
	LJ_EXPLAIN_RECORDER=bpf "$LJ_BUILD/lj-cyclic" -q -a "$CPU" -p 50 -i 1000 -l 1000000 --explain \
		>/dev/null 2>&1 &
	pid=$!
	wait_for held "$pid"
	rc=$?
	ids=$(prog_ids "$pid" | tr '\n' ' ')
	ok $rc "lj-cyclic --explain records with the BPF recorder (programs $ids)"
	{ kill -KILL "$pid"; wait "$pid"; } 2>/dev/null
	wait_for gone "$ids"
	ok $? "killed, its programs are gone from the kernel"
	[ "$(mounted)" = 0 ] && ! compgen -G "$LJ_JOURNAL_DIR/journal.*" >/dev/null
	ok $? "...and it mounted nothing and left no journal"
else
	skip 3 "no bpftool"
fi

done_testing
