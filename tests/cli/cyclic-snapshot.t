#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic-snapshot.t - a running lj-cyclic for outside readers, as cyclictest:
# SIGUSR2 writes the status into /dev/shm/cyclictest<PID> and the run goes
# on; the file lives from start to exit (also after SIGINT/SIGTERM), one a
# SIGKILL left is removed at the next start, a live run's is not, even
# seen from another PID namespace; -F's named pipe gives T: lines.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cyclic-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
[ -d /dev/shm ] && [ -w /dev/shm ] || skip_all "no writable /dev/shm"


lj-cyclic -q -i 1000 >"$TMP/out" 2>"$TMP/err" &
pid=$!
shm=/dev/shm/cyclictest$pid
wait_for test -e "$shm"
ok $? "the snapshot file exists from the start: $shm"
is "$(stat -c %a "$shm" 2>/dev/null)" 600 "...created by us alone (O_EXCL), mode 0600"
tail -1 "$shm" | grep -q "^# lj-cyclic pid=$pid pidns=pid:\[[0-9]*\] start=[0-9]*$"
ok $? "the file is marked as this run's (pid, PID namespace, start time)"

kill -USR2 $pid
wait_for grep -q '^T: 0 ' "$shm"
ok $? "SIGUSR2 writes the T: line into the file"
is "$(sed -n 1,2p "$shm")" "#---------------------------
# cyclictest current status:" "in cyclictest's format"
c1=$(sed -nE 's/^T: 0 .* C: *([0-9]+) .*/\1/p' "$shm")
sleep 0.3
kill -USR2 $pid
wait_for sh -c "! grep -qE '^T: 0 .* C: *${c1:-x} ' '$shm'"
c2=$(sed -nE 's/^T: 0 .* C: *([0-9]+) .*/\1/p' "$shm")
ok $(( ! (${c2:-0} > ${c1:-0}) )) "the run goes on: a second snapshot counts more cycles (${c1:-?} -> ${c2:-?})"
is "$(grep -c '^T:' "$shm")" 1 "the file holds the latest snapshot only"
tail -1 "$shm" | grep -q "^# lj-cyclic pid=$pid "
ok $? "...and still ends with the mark"

# A run in a PID namespace of its own sees no outside PID: it must leave the live run's file.
if is_root && unshare -p -f --mount-proc true 2>/dev/null; then
	unshare -p -f --mount-proc "$LJ_BUILD/lj-cyclic" -q -l 10 >/dev/null 2>&1
	ok $(test -e "$shm"; echo $?) "a run in another PID namespace leaves the live outside run's file"
else
	skip 1 "needs root and PID namespaces (unshare -p)"
fi

kill -TERM $pid
wait $pid
is "$?" 0 "SIGTERM ends the run with exit 0"
ok $(test ! -e "$shm"; echo $?) "the file is removed after SIGTERM"
check_t_lines "$TMP/out" us
ok $? "the run still prints its T: line"

lj-cyclic -q -i 1000 >/dev/null 2>&1 &
pid=$!
wait_for test -e "/dev/shm/cyclictest$pid"
kill -INT $pid
wait $pid
ok $(test ! -e "/dev/shm/cyclictest$pid"; echo $?) "the file is removed after SIGINT"

lj-cyclic -q -i 1000 >/dev/null 2>&1 &
pid=$!
wait_for test -e "/dev/shm/cyclictest$pid"
kill -KILL $pid
wait $pid 2>/dev/null
# Tests running beside this one start lj-cyclic too, and any start may
# already have removed the file: only the next start's result is asserted.
[ -e "/dev/shm/cyclictest$pid" ] || diag "the SIGKILLed run's file was already removed by another start"
lj-cyclic -q -l 10 >/dev/null 2>&1
ok $(test ! -e "/dev/shm/cyclictest$pid"; echo $?) "a file a SIGKILL left does not survive the next start"

# Which stale names are removed (a link, another user's file, a file
# without lj-cyclic's mark, a marked file whose maker holds it: never) is
# tests/unit/cyclic/test_snapshot.c's, in a directory of its own: here
# other tests' and other builds' lj-cyclic starts share /dev/shm.

# -F: the T: lines to whoever opens the pipe; the pipe removed at exit.
lj-cyclic -q -i 1000 -t 2 -F "$TMP/fifo" >/dev/null 2>&1 &
pid=$!
wait_for test -p "$TMP/fifo"
ok $? "-F creates the named pipe"
timeout 5 cat "$TMP/fifo" >"$TMP/fifo.out"
kill -INT $pid
wait $pid
is "$(grep -cE "$(t_line_re us)" "$TMP/fifo.out")" 2 "a reader of the pipe gets both threads' T: lines"
ok $(test ! -e "$TMP/fifo"; echo $?) "the pipe lj-cyclic made is removed at exit"

done_testing
