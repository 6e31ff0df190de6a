#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# robust-input.t - bad input never crashes: every tool exits 2 with one line for bad values, 1 for runtime errors.
. "$(dirname "$0")/lib.sh"

for t in cyclic signal hackbench frame env matrix compare; do
	[ -x "$LJ_BUILD/lj-$t" ] || skip_all "lj-$t not built in $LJ_BUILD"
done
export LJ_JOURNAL_DIR=$TMP/j LJ_RESULT_NO_SYSINFO=1
FIX=$LJ_SRC/tests/fixtures/compare/base
LONG=$(printf '%*s' 5000 '' | tr ' ' x)

# crashed RC: a signal (ASan/UBSan report as well, whatever the code).
crashed() {
	[ "$1" -ge 128 ] || grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$TMP/err"
}

# usage CMD...: bad input is exit 2 with exactly one line on stderr,
# naming the program, and nothing on stdout.
usage() {
	local name="$*"

	run_rc "$@"
	if crashed "$rc"; then
		ok 1 "no crash: $name"
		sed 's/^/#   /' "$TMP/err" | head -20
		return
	fi
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && ! [ -s "$TMP/out" ] &&
	   grep -q "^$1: " "$TMP/err"; then
		ok 0 "exit 2, one line: ${name:0:100}"
	else
		ok 1 "exit 2, one line: ${name:0:100}"
		diag "exit $rc, stderr:" "$(head -5 "$TMP/err")"
	fi
}

# runtime CMD...: a runtime error (unwritable file) is exit 1, one line naming PATH ($RT_PATH).
runtime() {
	local name="$*"

	run_rc "$@"
	if ! crashed "$rc" && [ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -qF -- "$RT_PATH" "$TMP/err"; then
		ok 0 "exit 1, one line naming $RT_PATH: ${name:0:80}"
	else
		ok 1 "exit 1, one line naming $RT_PATH: ${name:0:80}"
		diag "exit $rc, stderr:" "$(head -5 "$TMP/err")"
	fi
}

# --- numbers: empty, negative, huge, junk units, zero where it means nothing
usage lj-cyclic -i ''
usage lj-cyclic -i 0 -l 10
usage lj-cyclic -i -5 -l 10
usage lj-cyclic -i 99999999999999999999999 -l 10
usage lj-cyclic -i q10 -l 10
usage lj-cyclic -l -1
usage lj-cyclic -l 99999999999999999999
usage lj-cyclic -t 0 -l 10
usage lj-cyclic -t 100000 -l 10
usage lj-cyclic -D 0 -l 10
usage lj-cyclic -D 99999999999d
usage lj-cyclic -h 0 -l 10
usage lj-cyclic -p 100 -l 10
usage lj-cyclic -d -1 -t 2 -l 10
usage lj-cyclic --spike-nodes 0 --spike 1 -l 10
usage lj-cyclic --latency 99999999999 -l 10
usage lj-signal -t 1 -l 10
usage lj-signal -t 9999999999 -l 10
usage lj-signal --pace -1 -l 10
usage lj-signal --histogram 0 -l 10
usage lj-signal -b x -l 10	# -b 0 is signaltest's "off"
usage lj-signal -D ''
usage lj-hackbench -g 0 -l 10
usage lj-hackbench -f 0 -l 10
usage lj-hackbench -l 0
usage lj-hackbench -s 0 -g 1 -l 10
usage lj-hackbench -s 99999999999 -l 10
usage lj-hackbench --duration 0
usage lj-hackbench -p -i -g 1 -l 2
usage lj-frame --fps 0 -D 1
usage lj-frame --fps 100000 -D 1
usage lj-frame --fps '' -D 1
usage lj-frame -D 0
usage lj-frame --stages 0 -D 1
usage lj-frame --work 1,2,3 --stages 2 -D 1
usage lj-frame --work-time ,,, -D 1
usage lj-frame --bg-load 101 --background 1 -D 1
usage lj-frame --max-drop-rate 200% -D 1
usage lj-frame --timeline-interval 1ns --timeline "$TMP/t.csv" -D 1
usage lj-env --dwell 0 --sweep cpus=0 --cgroup ljrobust$$ -- true
usage lj-env --sweep cpus= -- true
usage lj-matrix --repeat 0 -n "$LJ_SRC/scenarios/quick.scn"
usage lj-matrix --timeout -1 -n "$LJ_SRC/scenarios/quick.scn"
usage lj-compare --alpha 2 "$FIX" "$FIX"
usage lj-compare --fail-on 'cyclic.max>' "$FIX" "$FIX"

# --- CPUs that do not exist, selectors and names that make no sense
usage lj-cyclic -a 9999 -l 10
usage lj-cyclic --cpus 3-1 -l 10
usage lj-cyclic --cpus '' -l 10
usage lj-cyclic --cpus big:99 -l 10
usage lj-signal --cpus 0-9999 -l 10
usage lj-hackbench -T --cpus 9999 -g 1 -l 2
usage lj-frame --bg-cpus 9999 --background 1 -D 1
usage lj-env --cpus 9999 -- true
usage lj-cyclic --cgroup ../../etc -l 10
usage lj-cyclic --cgroup "$LONG/.." -l 10
usage lj-cyclic --policy '' -l 10
usage lj-cyclic --preempt bogus -l 10
usage lj-cyclic --rt-throttle maybe -l 10
usage lj-cyclic --cgroup-depth 1000 --cgroup ljrobust$$ -l 10
usage lj-frame --bg-cgroup ljrobust-none$$ --background 1 -D 1
usage lj-cyclic "$LONG"
usage lj-hackbench --transport "$LONG"

# --- files: missing, directories, garbage
printf 'asdf\n\001\002 [[[ = = =\n' >"$TMP/garbage.scn"
head -c 4096 /dev/urandom >"$TMP/binary.scn"
printf '[matrix]\nrepeat = 99999999999999\n[workload x]\ncommand = true\n' >"$TMP/huge.scn"
{ printf '[matrix]\ncgroup = '; printf '%*s' 100000 '' | tr ' ' a; printf '\n[workload x]\ncommand = true\n'; } >"$TMP/long.scn"
usage lj-matrix -n /nonexistent/x.scn
usage lj-matrix -n "$TMP"
usage lj-matrix -n /dev/null
usage lj-matrix -n "$TMP/garbage.scn"
usage lj-matrix -n "$TMP/binary.scn"
usage lj-matrix -n "$TMP/huge.scn"
run_rc lj-matrix -n "$TMP/long.scn"
ok "$( ! crashed "$rc" && [ "$rc" -le 2 ] && echo 0 || echo 1)" "a 100000-character axis value: no crash"
mkdir -p "$TMP/badrun" && echo '{"cells": 5}' >"$TMP/badrun/manifest.json"
usage lj-matrix --resume "$TMP/badrun"
usage lj-matrix --resume "$TMP/none"
usage lj-compare "$TMP/empty-set"
echo '{not json' >"$TMP/garbage.json"
printf '%*s' 20000 '' | tr ' ' '[' >"$TMP/deep.json"
run_rc lj-compare --validate "$TMP/garbage.json" "$TMP/deep.json" /nonexistent "$TMP"
ok "$( ! crashed "$rc" && [ "$rc" -eq 2 ] && [ "$(grep -c ': invalid' "$TMP/out")" -eq 4 ] && echo 0 || echo 1)" \
	"--validate: garbage, 20000-deep nesting, missing file, directory: each invalid, exit 2"
sed 's/"count":6547/"count":"many"/' "$FIX/cyclic/cgroup=off/run-1.json" >"$TMP/wrongtype.json"
run_rc lj-compare --validate "$TMP/wrongtype.json"
ok "$( ! crashed "$rc" && [ "$rc" -eq 2 ] && echo 0 || echo 1)" "--validate: a count that is a string is invalid"
mkdir -p "$TMP/gd/cyclic/cgroup=off"
cp "$FIX/manifest.json" "$TMP/gd/"
for f in "$FIX"/cyclic/cgroup=off/*.json; do echo garbage >"$TMP/gd/cyclic/cgroup=off/${f##*/}"; done
run_rc lj-compare "$TMP/gd"
ok "$( ! crashed "$rc" && [ "$rc" -eq 2 ] && echo 0 || echo 1)" "a result set of garbage files: exit 2, no crash"

# --- runtime errors: a result path that cannot be written
for p in /nonexistent/dir/r.json "$TMP"; do
	RT_PATH=$p
	runtime lj-cyclic -q -l 10 --json "$p"
	runtime lj-signal -q -l 10 --json "$p"
	runtime lj-hackbench -g 1 -l 2 --json "$p"
	runtime lj-env --json="$p" -- true
done
RT_PATH=/nonexistent/t.csv
runtime lj-frame -q -D 100ms --timeline /nonexistent/t.csv

# --- edge values that are valid run and exit 0
run_rc lj-cyclic -q -i 1 -l 200 -r
is "$rc" 0 "-i 1 (a period shorter than a wake-up) runs and exits 0"
run_rc lj-cyclic -q -h 99999999999 -l 10
is "$rc" 0 "a huge -h is limited with a warning, exit 0"
run_rc lj-signal -q --pace 0 -l 10
is "$rc" 0 "lj-signal --pace 0 runs"
run_rc lj-hackbench -s 1 -g 1 -f 1 -l 10
is "$rc" 0 "lj-hackbench with 1-byte messages runs"

# --- nothing left behind
left=$(find "$LJ_JOURNAL_DIR" -type f 2>/dev/null | head -3)
is "$left" "" "no setup journal left behind"
groups=$(find /sys/fs/cgroup -maxdepth 3 -name "ljrobust*$$" 2>/dev/null | head -3)
is "$groups" "" "no group left behind"

done_testing
