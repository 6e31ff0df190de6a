#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# security.t - ljkit as root cannot be turned against its machine (docs/security.md):
# paths given to it are not destroyed, replay writes only what ljkit changes,
# planted links are not followed, nobody else can hold the setup lock.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
is_root || skip_all "the attacks are on what root does"
command -v setpriv >/dev/null || skip_all "no setpriv to drop to an unprivileged user"
command -v useradd >/dev/null || skip_all "no useradd to create the unprivileged user"
cgroup_profile
[ -n "$CG_MODE" ] || skip_all "$CG_WHY"
CG=$CG_CPUSET CPU=$CG_CPU	# where groups are made (v1 mounts, or the v2 base for both)

# An unprivileged user of the test's own, removed at exit.
U=ljsec$$
useradd -M -N -r -s /usr/sbin/nologin "$U" 2>/dev/null || skip_all "cannot create a user"
UID_=$(id -u "$U")
GID_=$(id -g "$U")
cleanup() {
	userdel "$U" 2>/dev/null
	local g
	# only if a test failed (on code that loses journals): leave no group behind
	for g in "$CG/ljsec$$a" "$CG/ljsec$$b" ${CPU:+"$CPU/ljsec$$a" "$CPU/ljsec$$b"}; do
		[ -d "$g" ] || continue
		[ -f "$g/cpu.rt_runtime_us" ] && echo 0 >"$g/cpu.rt_runtime_us"
		rmdir "$g"
	done 2>/dev/null
	[ "$BASHPID" = "$_tap_shell" ] && rm -rf "$TMP"
}
trap cleanup EXIT
as_user() { setpriv --reuid="$UID_" --regid="$GID_" --clear-groups "$@"; }

chmod 755 "$TMP"			# root's, reachable by the user
export LJ_JOURNAL_DIR=$TMP/j LJ_RESULT_NO_SYSINFO=1
PUB=$TMP/pub				# a directory anyone can write, as /tmp
mkdir "$PUB" && chmod 1777 "$PUB"
echo precious >"$TMP/victim"
system_lock

# --- 1. paths given to ljkit are not destroyed -------------------------------
mknod "$TMP/null" c 1 3 && chmod 666 "$TMP/null"
run_rc lj-env --journal "$TMP/null" --cgroup "ljsec$$a" --cpus 0 -- true
ok "$([ "$rc" -ne 0 ] && echo 0 || echo 1)" "--journal naming a device (a copy of /dev/null) is refused"
ok "$([ -c "$TMP/null" ] && echo 0 || echo 1)" "...and the device is still there"
grep -q "journal $TMP/null.*must name a new file" "$TMP/err"; ok $? "...the message says it is the journal, and why"
ok "$([ -d "$CG/ljsec$$a" ] && echo 1 || echo 0)" "...and no group was left"
[ -c /dev/null ]; ok $? "/dev/null is a character device"

as_user sh -c "echo 'the user s notes' >$PUB/notes"
run_rc lj-env --journal "$PUB/notes" --cgroup "ljsec$$a" -- true
ok "$([ "$rc" -ne 0 ] && [ "$(cat "$PUB/notes")" = "the user s notes" ] && echo 0 || echo 1)" \
	"--journal naming a user's file: refused, the file intact"

run_rc lj-env --journal "$TMP/no/such/dir/j" --cgroup "ljsec$$a" -- true
ok "$([ "$rc" -ne 0 ] && [ ! -e "$TMP/no" ] && echo 0 || echo 1)" "--journal in a missing directory: refused, nothing created"
grep -q "setup journal" "$TMP/err" && ! grep -q "cpuset.cpus" "$TMP/err"
ok $? "...reported as a journal failure, not a cgroup one"

printf 'not\ta journal\n' >"$TMP/notes" && chmod 600 "$TMP/notes"
run_rc lj-env --restore --journal "$TMP/notes"
is "$rc" 2 "--restore --journal on a file that is not a journal: bad input, exit 2"
ok "$([ -f "$TMP/notes" ] && echo 0 || echo 1)" "...and the file is NOT deleted"
grep -q "not an ljkit journal" "$TMP/out" "$TMP/err"; ok $? "...saying it is not a journal"

# two runs, one --journal: the second is refused; the first's changes stay journalled
J=$TMP/shared.journal
lj-env -q --journal "$J" --cgroup "ljsec$$a" --cpus 0 -- sleep 30 >/dev/null 2>&1 &
first=$!
for _ in $(seq 200); do [ -d "$CG/ljsec$$a" ] && grep -q "^cgroup" "$J" 2>/dev/null && break; sleep 0.05; done
run_rc lj-env --journal "$J" --cgroup "ljsec$$b" --cpus 0 -- true
ok "$([ "$rc" -ne 0 ] && [ ! -d "$CG/ljsec$$b" ] && echo 0 || echo 1)" "a second run with the same --journal is refused"
sleeper=$(pgrep -P $first)
kill -KILL $first; wait $first 2>/dev/null
[ -n "$sleeper" ] && kill $sleeper
grep -q "ljsec$$a" "$J"; ok $? "...the first run's journal still holds its group after it is killed"
run_rc lj-env --restore --journal "$J"
ok "$([ "$rc" -eq 0 ] && [ ! -d "$CG/ljsec$$a" ] && [ ! -e "$J" ] && echo 0 || echo 1)" \
	"...and --restore removes the group and the journal"

# --- 2. replay writes only what ljkit changes --------------------------------
dead=$(sh -c 'echo $$')
journal_naming() { printf '# ljkit-journal/1 pid=%s start=1 prog=lj-env\nfile\t%s\tEVIL\n' "$dead" "$1"; }
as_user sh -c "mkdir -m 1777 $PUB/jd && printf '%s' '$(journal_naming "$TMP/victim")' >$PUB/jd/journal.$dead"
run_rc env LJ_JOURNAL_DIR=$PUB/jd lj-env --restore
ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" \
	"a journal planted in a shared LJ_JOURNAL_DIR: refused, nothing written"
grep -q "journal directory $PUB/jd .*\(not root\|written by group or others\)" "$TMP/out" "$TMP/err"
ok $? "...the message names the directory"

as_user sh -c "printf '%s' '$(journal_naming "$TMP/victim")' >$PUB/userj; chmod 600 $PUB/userj"
run_rc lj-env --restore --journal "$PUB/userj"
ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && [ -f "$PUB/userj" ] && echo 0 || echo 1)" \
	"--restore --journal on a user's file: refused, nothing written, the file kept"

mkdir -p -m 700 "$LJ_JOURNAL_DIR"
journal_naming "$TMP/victim" >"$LJ_JOURNAL_DIR/journal.$dead"
chmod 600 "$LJ_JOURNAL_DIR/journal.$dead"
run_rc lj-env --restore
ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" \
	"root's own journal naming a file ljkit never changes: refused"
grep -q "is not a file ljkit changes" "$TMP/out"; ok $? "...with the reason"
rm -f "$LJ_JOURNAL_DIR/journal.$dead"

# --- 3. results do not follow planted links ----------------------------------
as_user ln -s "$TMP/victim" "$PUB/result.json"
run_rc lj-env --json "$PUB/result.json" -- true
ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" \
	"lj-env --json through a link planted in a shared directory: refused, the target intact"
grep -q "symbolic link.*not followed" "$TMP/err"; ok $? "...saying why"
run_rc lj-env --show --json "$PUB/result.json"
ok "$([ "$rc" -eq 1 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" "lj-env --show --json=FILE: the same"
if [ -x "$LJ_BUILD/lj-cyclic" ]; then
	run_rc lj-cyclic -q -l 20 -i 1000 --json "$PUB/result.json"
	ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" "lj-cyclic --json: the same"
	as_user ln -s "$TMP/victim" "$PUB/hist.txt"
	run_rc lj-cyclic -q -l 20 -i 1000 -h 20 --histfile "$PUB/hist.txt"
	ok "$([ "$rc" -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" "lj-cyclic --histfile: the same"
else
	skip 2 "lj-cyclic not built"
fi
ln -s "$TMP/victim" "$TMP/mylink"
run_rc lj-env --json "$TMP/mylink" -- true
ok "$([ "$rc" -eq 0 ] && [ -L "$TMP/mylink" ] && grep -q ljkit-result "$TMP/victim" && echo 0 || echo 1)" \
	"a link of root's own in root's directory is followed (the link stays a link)"
echo precious >"$TMP/victim"
run_rc lj-env --json "$TMP/null" -- true
ok "$([ "$rc" -eq 0 ] && [ -c "$TMP/null" ] && echo 0 || echo 1)" "a device is written in place, not replaced"
run_rc lj-env --json /dev/full -- true
is "$rc" 1 "lj-env --json that cannot be written (/dev/full): exit 1, not COMMAND's 0"

# the test suite's own lock, planted as a link in a shared TMPDIR
as_user ln -s "$TMP/victim" "$PUB/ljkit-system-tests-$(id -u).d"
(TMPDIR=$PUB; . "$LJ_SRC/tests/cli/lib.sh"; system_lock) >"$TMP/out" 2>&1
ok "$([ $? -ne 0 ] && [ "$(cat "$TMP/victim")" = precious ] && echo 0 || echo 1)" \
	"the test lock does not write through a planted link"
grep -q "Bail out!.*not a private directory" "$TMP/out"; ok $? "...it bails out saying why"
# ...and nobody else can hold it: it lives in a 0700 directory of ours (a lock file of mode
# 0644 in TMPDIR could be opened read-only and flock'd by any user, stalling make check).
mkdir -m 1777 "$TMP/pub2"
(TMPDIR=$TMP/pub2; . "$LJ_SRC/tests/cli/lib.sh"; system_lock) >"$TMP/out" 2>&1
as_user sh -c 'for f in "$1"/* "$1"/*/*; do [ -f "$f" ] && flock -n "$f" true 2>/dev/null && exit 0; done; exit 1' _ "$TMP/pub2"
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "an unprivileged user cannot open the test lock to hold it"
# a holder that never lets go: a message naming it after LJ_TEST_LOCK_TIMEOUT, not a hang
L2="$TMP/pub2/ljkit-system-tests-$(id -u).d/lock"
( exec 8>>"$L2"; flock 8; exec sleep 30 ) &
holder=$!
wait_for sh -c "! flock -n '$L2' true"
(TMPDIR=$TMP/pub2 LJ_TEST_LOCK_TIMEOUT=1; . "$LJ_SRC/tests/cli/lib.sh"; system_lock; echo got it) >"$TMP/out" 2>&1
grep -q "Bail out! the test lock .* is held by pid [0-9]* .* for over 1 s" "$TMP/out" && ! grep -q "got it" "$TMP/out"
ok $? "a lock held too long: bail out naming the holder, after the timeout"
kill "$holder" 2>/dev/null

# --- 4. nobody else can hold the setup lock ----------------------------------
mkdir -m 755 "$TMP/l"			# ljkit makes j itself
run_rc env LJ_JOURNAL_DIR=$TMP/l/j lj-env --cgroup "ljsec$$a" -- true
is "$rc" 0 "a run creates the journal directory and its lock"
as_user flock -n "$TMP/l/j/.lock" true 2>/dev/null
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "an unprivileged user cannot open the lock to hold it"
is "$(stat -c %a "$TMP/l/j/.lock")" 600 "...it is 0600"
(exec 8<"$TMP/l/j/.lock"; flock 8; exec sleep 60) >/dev/null 2>&1 &
holder=$!		# the sleep itself holds the lock
for _ in $(seq 100); do flock -n "$TMP/l/j/.lock" true || break; sleep 0.05; done
run_rc env LJ_JOURNAL_DIR=$TMP/l/j LJ_LOCK_TIMEOUT=1 timeout 120 lj-env --cgroup "ljsec$$a" -- true
is "$rc" 1 "a lock held too long: exit 1 after the timeout, not a hang"
grep -q "setup lock .* is held by pid" "$TMP/err"; ok $? "...naming the holder"
kill $holder; wait $holder 2>/dev/null
ok "$([ -d "$CG/ljsec$$a" ] && echo 1 || echo 0)" "...and no group was left"

done_testing
