#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# explain-kept.t - the traces -b with --tracemark keeps for the user hold
# megabytes per CPU each until removed: a run that keeps one replaces those
# kept by runs over before it started (one kept trace at a time, as a break
# in the peers' one top-level buffer replaces the last), says which, and
# leaves those of runs beside it, a run without a break, and a killed run's
# instance still recording (that one is lj-env --restore's).
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] && [ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-cyclic or lj-env not built in $LJ_BUILD"
is_root || skip_all "needs root (tracefs instances)"
export LJ_JOURNAL_DIR=$TMP/journal LJ_RESULT_NO_SYSINFO=1
KEPT='s/^## trace stopped at the break, kept in \(.*\) (rmdir it when done)$/\1/p'
ours=()
cleanup() {
	local d
	for d in "${ours[@]}"; do [ -d "$d" ] && { echo 0 >"$d/tracing_on"; rmdir "$d"; }; done 2>/dev/null
}
trap '[ "$BASHPID" = "$_tap_shell" ] && { cleanup; _lj_restore_private "$TMP"; rm -rf "$TMP"; }' EXIT

# brk NAME OPTS...: a run of 50 wake-ups breaking at its first (-b 1); its
# kept trace's directory in $kept, its stderr in $TMP/NAME.err.
brk() {
	local name=$1
	shift
	lj-cyclic -q -l 50 -i 1000 -b 1 --tracemark "$@" >/dev/null 2>"$TMP/$name.err"
	kept=$(sed -n "$KEPT" "$TMP/$name.err")
	[ -n "$kept" ] && ours+=("$kept")
}
brk probe
[ -d "$kept" ] || skip_all "no trace kept here: $(head -1 "$TMP/probe.err")"
P=$kept

# B starts now, after P ended; it breaks later, when it is stopped for 200 ms.
lj-cyclic -q -D 60 -i 1000 -b 30000 --tracemark >/dev/null 2>"$TMP/B.err" &
bpid=$!
wait_threads $bpid 2
ok $? "a run that breaks later is measuring"

brk A
A=$kept
ok $([ -d "$A" ] && [ ! -d "$P" ]; echo $?) "a run that keeps its trace removes the one kept by a run over before it started"
grep -qxF "## it replaces the trace kept by earlier runs ($P): one kept trace at a time" "$TMP/A.err"
ok $? "...and names it" || sed 's/^/#   /' "$TMP/A.err" >&2

kill -STOP $bpid; sleep 0.2; kill -CONT $bpid
wait $bpid
is "$?" 0 "the run beside it breaks when it is held past its threshold"
B=$(sed -n "$KEPT" "$TMP/B.err")
[ -n "$B" ] && ours+=("$B")
ok $([ -d "$B" ] && [ -d "$A" ]; echo $?) "it keeps its trace and leaves the one kept by the run that ran beside it"
grep -q "it replaces.*$A" "$TMP/B.err"
ok $((! $?)) "...and does not name it"

brk C --explain --json="$TMP/C.json"
C=$kept
ok $([ -d "$C" ] && [ ! -d "$A" ] && [ ! -d "$B" ]; echo $?) "the next run replaces both, which were over when it started"
line=$(grep '^## it replaces the traces kept by earlier runs' "$TMP/C.err")
[[ "$line" == *"$A"* && "$line" == *"$B"* ]]
ok $? "...and names both" || sed 's/^/#   /' "$TMP/C.err" >&2
python3 - "$TMP/C.json" "$A" "$B" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["side"]["explain"]["replaced_kept_traces"]
assert sys.argv[2] in r.split(", ") and sys.argv[3] in r.split(", "), r
PY
ok $? "side.explain.replaced_kept_traces lists them"

lj-cyclic -q -l 50 -i 1000 -b 1000000 --tracemark >/dev/null 2>"$TMP/D.err"
ok $([ -d "$C" ]; echo $?) "a run without a break removes nothing"

# A killed run's instance still records: a stale one, left to lj-env --restore.
LJ_EXPLAIN_RECORDER=tracefs lj-cyclic -q -D 60 -i 1000 --explain >/dev/null 2>&1 &
epid=$!
E=/sys/kernel/tracing/instances/ljkit-$epid
ours+=("$E")
recording() { [ "$(cat "$E/tracing_on" 2>/dev/null)" = 1 ]; }
wait_for recording && wait_threads $epid 2
kill -KILL $epid
wait $epid 2>/dev/null
brk F
ok $([ -d "$E" ] && [ "$(cat "$E/tracing_on")" = 1 ]; echo $?) "a killed run's instance, still recording, is not taken for a kept trace"
# lj-env --show lists both, each with its buffers' size.
lj-env --show >"$TMP/show" 2>&1
kb=$(cat "$kept/buffer_total_size_kb")
grep -qxF "trace:       $kept: kept after a -b break, $kb KiB of buffers: rmdir it when read" "$TMP/show" &&
	grep -q "^trace:       $E: still recording, its run gone, [0-9]* KiB of buffers: run lj-env --restore\$" "$TMP/show"
ok $? "lj-env --show lists the kept trace and the killed run's, with their buffers" || grep '^trace' "$TMP/show" | sed 's/^/#   /' >&2
lj-env --show --json | python3 -c '
import json, sys
t = {x["path"]: x for x in json.load(sys.stdin)["state"]["traces"]}
assert t[sys.argv[1]]["kept"] is True and t[sys.argv[1]]["buffer_kb"] == int(sys.argv[3]), t
assert t[sys.argv[2]]["kept"] is False, t' "$kept" "$E" "$kb"
ok $? "...and in the JSON (state.traces: path, kept, buffer_kb)"
grep -q "it replaces.*$E" "$TMP/F.err"
ok $((! $?)) "...nor named as replaced"
lj-env --restore >/dev/null 2>&1
ok $([ ! -d "$E" ] && [ -d "$kept" ]; echo $?) "lj-env --restore removes it and leaves the kept trace"

done_testing
