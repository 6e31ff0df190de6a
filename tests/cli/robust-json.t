#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# robust-json.t - nothing is lost: an interrupted run still writes its --json result; bad result paths are safe.
. "$(dirname "$0")/lib.sh"

for t in cyclic signal hackbench frame env compare; do
	[ -x "$LJ_BUILD/lj-$t" ] || skip_all "lj-$t not built in $LJ_BUILD"
done
command -v jq >/dev/null || skip_all "jq not installed"
export LJ_JOURNAL_DIR=$TMP/j LJ_RESULT_NO_SYSINFO=1

# wait_for FILE REGEX: until FILE has a line matching REGEX (30 s at most:
# a bound for a stuck tool, not a timing claim).
wait_for() {
	local i

	for ((i = 0; i < 300; i++)); do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# caught PID SIG: until PID catches SIG (its SigCgt bit; 10 s at most).
# Without a progress line to wait for, this tells that the tool's stop
# handlers are in place, so the signal asks it to stop rather than kill it.
caught() {
	local i mask bit=$((1 << ($(kill -l "$2") - 1)))

	for ((i = 0; i < 100; i++)); do
		mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
		[ -n "$mask" ] && (( 0x$mask & bit )) && return 0
		sleep 0.1
	done
	return 1
}

# interrupted SIG NAME PROGRESS-REGEX CMD...: start CMD with --json, wait
# until its output shows it measures, send SIG; it must exit 0 and leave
# a valid result document.
interrupted() {
	local sig=$1 name=$2 re=$3 pid
	shift 3

	# The previous run's output must not satisfy wait_for before this
	# run's child has truncated it: the signal would come before the tool
	# could catch it.
	rm -f "$TMP/r.json" "$TMP/out" "$TMP/err"
	"$@" --json "$TMP/r.json" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	if [ -n "$re" ]; then
		wait_for "$TMP/out" "$re" || diag "$name: no progress line"
	else
		caught "$pid" "$sig" || diag "$name: SIG$sig not caught"
		sleep 1
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	is "$rc" 0 "$name: SIG$sig ends the run with exit 0"
	lj-compare --validate "$TMP/r.json" >/dev/null 2>&1
	ok $? "$name: SIG$sig still writes a valid --json result"
}

interrupted INT lj-cyclic '^T: *0 .* C: *[1-9]' lj-cyclic -i 1000
last_c=$(sed -E 's/\x1b\[[0-9]+A//g' "$TMP/out" | grep '^T: *0 ' | tail -n 1 | sed -E 's/.* C: *([0-9]+) .*/\1/')
is "$(jq '.results[0].count' "$TMP/r.json" 2>/dev/null)" "$last_c" "lj-cyclic: the result holds every wake-up the last T: line counted"
interrupted TERM lj-cyclic '^T: *0 .* C: *[1-9]' lj-cyclic -i 1000 -t 2

interrupted INT lj-signal '^T: *0 .* C: *[1-9]' lj-signal
jq -e '[.results[] | select(.kind == "hop") | .latency.count > 0] | length == 2 and all' "$TMP/r.json" >/dev/null
ok $? "lj-signal: the interrupted result holds both hops' samples"
interrupted TERM lj-signal '^T: *0 .* C: *[1-9]' lj-signal -t 3

interrupted TERM lj-hackbench '^Load: .* [1-9][0-9]* msgs' lj-hackbench --load -g 1 -f 2
jq -e '.results[0].messages > 0' "$TMP/r.json" >/dev/null
ok $? "lj-hackbench --load: the interrupted result holds the messages' latencies"
interrupted INT lj-hackbench '' lj-hackbench -g 1 -f 2 -l 100000000

interrupted TERM lj-frame '' lj-frame -q -D 60s --timeline "$TMP/tl.csv"
jq -e '.summary.frames.value | type == "number"' "$TMP/r.json" >/dev/null
ok $? "lj-frame: the interrupted result counts its frames"
[ -s "$TMP/tl.csv" ]
ok $? "lj-frame: ...and the timeline is written too"
interrupted INT lj-frame '' lj-frame -q -D 60s

# An unwritable result path is found before anything runs or measures.
run_rc lj-env --json="$TMP/none/r.json" -- touch "$TMP/ran"
is "$rc" 1 "lj-env: an unwritable --json is a runtime error"
ok "$([ -e "$TMP/ran" ] && echo 1 || echo 0)" "lj-env: ...found before COMMAND runs"
for t in "lj-cyclic -i 1000 -l 300" "lj-signal -l 300" "lj-hackbench -g 1 -f 1 -l 100" "lj-frame -D 300ms"; do
	run_rc $t --json "$TMP/none/r.json"
	is "$rc" 1 "${t%% *}: an unwritable --json is a runtime error"
	! grep -q '^T:\|^Time:\|^frames\|fps' "$TMP/out"
	ok $? "${t%% *}: ...found before measuring"
done

# Results are written over regular files only; a FIFO, a device or a
# symlink is not replaced by rename (as root, /dev/null became a file).
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo" &
run_rc lj-cyclic -q -l 5 --json "$TMP/fifo"
wait
is "$rc" 0 "--json to a FIFO succeeds"
ok "$([ -p "$TMP/fifo" ] && echo 0 || echo 1)" "...and the FIFO is still a FIFO"
lj-compare --validate "$TMP/from-fifo" >/dev/null 2>&1
ok $? "...and its reader got a valid document"
echo old >"$TMP/target.json"
ln -s target.json "$TMP/link.json"
run_rc lj-signal -q -l 5 --json "$TMP/link.json"
ok "$([ "$rc" -eq 0 ] && [ -L "$TMP/link.json" ] && echo 0 || echo 1)" "--json to a symlink keeps the link"
lj-compare --validate "$TMP/target.json" >/dev/null 2>&1
ok $? "...and writes the document to its target"
run_rc lj-hackbench -g 1 -f 1 -l 5 --json /dev/full
is "$rc" 1 "--json to a full device is a runtime error"
ok "$([ -c /dev/full ] && echo 0 || echo 1)" "...and /dev/full is still a device"

left=$(find "$LJ_JOURNAL_DIR" -type f 2>/dev/null | head -3)
is "$left" "" "no setup journal left behind"

done_testing
