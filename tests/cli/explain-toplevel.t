#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-toplevel.t - -b with --tracemark and the user's own trace in the
# top-level buffer: when the top level traces something (an event enabled),
# the break writes the marker there and stops it, as cyclictest does, and
# says so; a top level with nothing enabled (the kernel's default) and a run
# without a break leave it as it was.
#
# Enabling an event at the top level allocates its buffers for good where
# they are not yet (buffer_size_kb's "(expanded: N)"): that is done only in a
# throwaway machine (LJ_TEST_DISPOSABLE=1: the guests of make check-kernels)
# or where they are allocated already; the top level's tracing_on, events
# and trace are put back as found.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
is_root || skip_all "needs root (tracefs)"
TFS=/sys/kernel/tracing
[ -d "$TFS" ] || skip_all "no $TFS mount point"
mounted=
if ! grep -q " $TFS .* - tracefs " /proc/self/mountinfo; then
	mount -t tracefs nodev "$TFS" 2>/dev/null || skip_all "cannot mount tracefs at $TFS"
	mounted=1
fi
export LJ_JOURNAL_DIR=$TMP/journal LJ_RESULT_NO_SYSINFO=1
# Only reads until the checks pass: even an empty write to set_event allocates the buffers.
unmount() { [ -n "$mounted" ] && umount "$TFS"; }
skip_unmounted() { unmount; skip_all "$@"; }
was_on=$(cat $TFS/tracing_on 2>/dev/null)
[ -n "$was_on" ] || skip_unmounted "no top-level tracing_on in $TFS"
[ -z "$(cat $TFS/set_event)" ] && [ "$(cat $TFS/current_tracer)" = nop ] ||
	skip_unmounted "the top level traces something here already: not a test's to touch"
grep -vq '^#' $TFS/trace && skip_unmounted "the top-level buffer holds a trace someone may read"
grep -q expanded $TFS/buffer_size_kb && [ "${LJ_TEST_DISPOSABLE:-}" != 1 ] &&
	skip_unmounted "enabling a top-level event would allocate its buffers for good ($(cat $TFS/buffer_size_kb)): run where that is allowed (LJ_TEST_DISPOSABLE=1, make check-kernels' guests)"
# From here the top level is as found at the end: no event, tracing_on, an empty trace.
restore() {
	echo >$TFS/set_event
	echo "$was_on" >$TFS/tracing_on
	echo >$TFS/trace
	for d in $TFS/instances/ljkit-*; do [ "$(cat "$d/tracing_on" 2>/dev/null)" = 0 ] && rmdir "$d"; done 2>/dev/null
	unmount
}
trap '[ "$BASHPID" = "$_tap_shell" ] && { restore; _lj_restore_private "$TMP"; rm -rf "$TMP"; }' EXIT
MARK='hit latency threshold'

# brk NAME: a run breaking at its first wake-up, its stderr in $TMP/NAME.err, its JSON in $TMP/NAME.json.
brk() {
	lj-cyclic -q -l 50 -i 1000 -b 1 --tracemark --explain --json="$TMP/$1.json" >/dev/null 2>"$TMP/$1.err"
}

# The kernel's default: tracing on, nothing enabled.
echo 1 >$TFS/tracing_on
brk idle
grep -q '^## trace stopped at the break, kept in' "$TMP/idle.err"
ok $? "the run breaks and keeps its own trace" || sed 's/^/#   /' "$TMP/idle.err" >&2
ok $([ "$(cat $TFS/tracing_on)" = 1 ] && ! grep -q "$MARK" $TFS/trace; echo $?) \
	"a top level tracing nothing is left on, unmarked (cyclictest would turn it off)"
grep -q "top-level" "$TMP/idle.err"
ok $((! $?)) "...and nothing is said of it"

# The user traces sched_switch at the top level.
echo sched:sched_switch >$TFS/set_event
lj-cyclic -q -l 50 -i 1000 -b 1000000 --tracemark >/dev/null 2>"$TMP/nobreak.err"
ok $([ "$(cat $TFS/tracing_on)" = 1 ] && ! grep -q "$MARK" $TFS/trace; echo $?) "a run without a break leaves the user's trace going"
brk user
grep -qxF "## your top-level trace (1 event) marked and stopped at the break too, as cyclictest stops it" "$TMP/user.err"
ok $? "a break says it marked and stopped the user's top-level trace" || sed 's/^/#   /' "$TMP/user.err" >&2
is "$(cat $TFS/tracing_on)" 0 "...which is stopped"
grep -q "tracing_mark_write: $MARK" $TFS/trace
ok $? "...with the marker in it"
grep -q 'sched_switch:' $TFS/trace
ok $? "...after the user's own events"
python3 - "$TMP/user.json" <<'PY'
import json, sys
assert json.load(open(sys.argv[1]))["side"]["explain"]["top_level_stopped"] == "1 event"
PY
ok $? "side.explain.top_level_stopped says what was stopped"
grep -q "tracing_mark_write: $MARK" "$(sed -n 's/^## trace stopped at the break, kept in \(.*\) (rmdir.*/\1/p' "$TMP/user.err")/trace"
ok $? "the run's own kept trace has the marker too"

done_testing
