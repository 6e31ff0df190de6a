#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lib-sweep.t - the tests' private journal directories (LJ_JOURNAL_DIR in
# $TMP, which `lj-env --restore` does not read) leave nothing behind: a
# test whose ljkit run was killed replays its journal at its exit, and a
# test killed with SIGKILL itself, which runs no exit trap, is replayed
# and removed by the next test's start (lib.sh), if it ran in this boot and
# PID namespace. Real cgroups, as root.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
require_real_cgroups "restoring cgroups needs root"
G=ljsweep$$
system_lock
before=$(cg_state $G)

# A test of its own in a new session (killed whole with kill -- -PID): its
# lj-env makes group $G and keeps a command in it; the test writes its
# $TMP to $2 once the group is there, then waits, or kills the run (SIGKILL)
# and exits when $3 is "exit" ($0 is lib.sh, $1 the group, $4 cg_state before).
FAKE='. "$0"; cgroup_profile; export LJ_JOURNAL_DIR=$TMP/j; mkdir -p "$LJ_JOURNAL_DIR"
lj-env -q --cgroup "$1" --cpus 1 -- sleep 60 & run=$!
until compgen -G "$LJ_JOURNAL_DIR/journal.*" >/dev/null && [ "$(cg_state "$1")" != "$4" ]; do
	kill -0 $run 2>/dev/null || exit 1; sleep 0.05
done
echo "$TMP" >"$2"
[ "$3" = exit ] && { kill -KILL $run; wait $run; exit 0; }
wait'
# The fake tests' TMPDIR is this one's: the start of a test that prove runs beside must not sweep them first.
mkdir -p "$TMP/tmp"
fake_test() {	# fake_test MARKER wait|exit: its pid
	TMPDIR=$TMP/tmp setsid bash -c "$FAKE" "$LJ_SRC/tests/cli/lib.sh" "$G" "$1" "$2" "$before" >/dev/null 2>&1 &
	echo $!
}
marked() { [ -s "$1" ] || ! kill -0 "$2" 2>/dev/null; }
gone() { ! kill -0 "$1" 2>/dev/null; }	# (not this shell's child: fake_test ran in $(...))

# 1. Its lj-env killed, the test exits: its exit trap replays the journal.
pid=$(fake_test "$TMP/m1" exit)
wait_for marked "$TMP/m1" "$pid"
ok "$([ -s "$TMP/m1" ] && echo 0 || echo 1)" "exit: the fake test's run made its group"
wait_for gone "$pid"
pkill -KILL -s "$pid" 2>/dev/null	# the killed run's command (setsid: the fake test's session)
is "$(cg_state $G)" "$before" "exit: the test's exit replayed its killed run's journal (the group is gone)"
ok "$([ -s "$TMP/m1" ] && [ ! -e "$(cat "$TMP/m1")" ] && echo 0 || echo 1)" "exit: its directory is removed"

# 2. The test itself SIGKILLed with its run: the next test's start replays it.
pid=$(fake_test "$TMP/m2" wait)
wait_for marked "$TMP/m2" "$pid"
dead=$(cat "$TMP/m2" 2>/dev/null)
ok "$([ -n "$dead" ] && [ "$(cg_state $G)" != "$before" ] && echo 0 || echo 1)" "SIGKILL: the fake test's run made its group"
kill -KILL -- -"$pid" 2>/dev/null
wait_for gone -"$pid"
ok "$([ -n "$dead" ] && [ -d "$dead" ] && echo 0 || echo 1)" "SIGKILL: its directory outlives it (no exit trap ran)"
# A directory whose owner lived in another boot or PID namespace (the host's, seen from a
# guest sharing its /tmp; a container's host) is not this machine's to judge: left alone.
mkdir -p "$TMP/tmp/ljtest.elsewhere"
echo "1 1 another-boot/pid:[1]" >"$TMP/tmp/ljtest.elsewhere/.owner"
TMPDIR=$TMP/tmp bash -c '. "$0"' "$LJ_SRC/tests/cli/lib.sh"	# a test's start
is "$(cg_state $G)" "$before" "SIGKILL: the next test's start replayed the dead test's journal (the group is gone)"
ok "$([ -n "$dead" ] && [ ! -e "$dead" ] && echo 0 || echo 1)" "SIGKILL: ...and removed its directory"
ok "$([ -f "$TMP/.owner" ] && echo 0 || echo 1)" "a live test's directory (this one's) is left as it is"
ok "$([ -f "$TMP/tmp/ljtest.elsewhere/.owner" ] && echo 0 || echo 1)" \
	"a directory of another boot or PID namespace is left as it is"

done_testing
