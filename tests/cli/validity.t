#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# validity.t - the validity verdict of a measuring run: a run whose measuring threads could
# not get the policy asked for is invalid and exits 1 (as rt-tests; --policy-fallback: 0), a
# run whose SCHED_FIFO priority is changed behind its back is invalid; every
# tool's threads (lj-frame's stages per trial, lj-hackbench's workers) are read back.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
command -v python3 >/dev/null || skip_all "python3 not installed"
export LJ_RESULT_NO_SYSINFO=1

verdict() {	# verdict FILE: the result's validity verdict
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["validity"]["verdict"])' "$1"
}
reasons() {	# reasons FILE: one "level what: text" line per reason
	python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["validity"]["reasons"]: print(r["level"], r["what"] + ":", r["text"])' "$1"
}

# --- a run that cannot get SCHED_FIFO measures at SCHED_OTHER: invalid, exit 1 (the policy rule)
if can_drop_to_nobody; then
	# --json -: the document on stdout, cyclictest's lines (and the verdict) on stderr
	drop_to_nobody "$LJ_BUILD/lj-cyclic" -q -l 300 -i 1000 -p 80 --json - >"$TMP/r.json" 2>"$TMP/text"
	is "$?:$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exit_code"])' "$TMP/r.json")" "1:1" \
		"unprivileged -p 80: measured at SCHED_OTHER, exit 1 as cyclictest (the result records it)"
	is "$(verdict "$TMP/r.json")" invalid "a run whose measuring threads did not get their policy is invalid"
	reasons "$TMP/r.json" | grep -q '^invalid policy: measuring threads without their policy: sched: fifo 80 -> other'
	ok $? "the reason names the policy asked for and what ran"
	grep -q '^validity: invalid$' "$TMP/text" && grep -q '^  invalid: measuring threads without their policy: sched: fifo 80 -> other' "$TMP/text" &&
		tail -1 "$TMP/text" | grep -q '^lj-cyclic: the measuring threads did not get the scheduling policy asked for: the run is invalid (exit 1'
	ok $? "stderr has the verdict and its reasons, then why it exits 1"
	result_validates "$TMP/r.json"
	drop_to_nobody "$LJ_BUILD/lj-cyclic" -q -l 100 -i 1000 -p 80 --policy-fallback --json - >"$TMP/r2.json" 2>"$TMP/text"
	is "$?:$(verdict "$TMP/r2.json")" "0:invalid" "--policy-fallback: exit 0, the run still invalid"
	if [ -x "$LJ_BUILD/lj-oslat" ]; then
		drop_to_nobody "$LJ_BUILD/lj-oslat" -q -D 1 -f 1 -c 0 --json - >"$TMP/o.json" 2>"$TMP/text"
		is "$?:$(verdict "$TMP/o.json")" "1:invalid" "lj-oslat -f 1 as nobody: invalid, exit 1 as oslat"
	else
		skip 1 "lj-oslat not built"
	fi
else
	skip 7 "cannot run as nobody here"
fi

# --- SCHED_FIFO priority changed behind the run's back (chrt on a measuring thread): invalid
# chrt_behind TOOL ARGS...: run TOOL with -p 80 (and a long duration), set one of its SCHED_FIFO 80
# threads to priority 10, let the run go on 3 s (lj-hackbench reads its workers back every second,
# lj-frame its stages every 100 ms), stop it with SIGINT, then check the verdict. Stopped, not
# timed: a run of fixed length could end before the polling shell finds the thread on a slow
# machine (a TCG guest: each chrt is a process start of tens of ms), leaving nothing to see.
chrt_behind() {
	local tool=$1 pid tid="" t
	shift
	"$LJ_BUILD/$tool" "$@" --json "$TMP/chrt.json" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 100); do	# a measuring thread: a task at SCHED_FIFO 80 (one still there to change)
		for t in /proc/$pid/task/*; do
			t=${t##*/}
			chrt -p "$t" 2>/dev/null | grep -q 'SCHED_FIFO' && chrt -p "$t" 2>/dev/null | grep -q 'priority: 80' &&
				chrt -f -p 10 "$t" 2>/dev/null && tid=$t && break
		done
		[ -n "$tid" ] && break
		sleep 0.1
	done
	[ -n "$tid" ] && sleep 3
	kill -INT $pid 2>/dev/null
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && [ -n "$tid" ]
	ok $? "$tool: the run completes after its thread's priority was changed (thread ${tid:-not found})"
	is "$(verdict "$TMP/chrt.json")" invalid "$tool: a SCHED_FIFO priority changed behind the run's back is invalid"
	reasons "$TMP/chrt.json" | grep -q "^invalid sched: thread $tid ran fifo 10, asked fifo 80$"
	ok $? "$tool: the reason names the thread, what it ran with and what was asked"
	grep -q '^validity: invalid$' "$TMP/err" && ! grep -q validity "$TMP/out"
	ok $? "$tool: the verdict is on stderr (stdout keeps the rt-tests lines)"
}

if is_root && command -v chrt >/dev/null && chrt -f 1 true 2>/dev/null; then
	chrt_behind lj-cyclic -q -D 60 -i 1000 -p 80 -t 1
	chrt_behind lj-signal -q -D 60 -p 80
	# lj-frame's stage threads are told to the hooks per trial and read back every 100 ms
	chrt_behind lj-frame -q -D 60 -p 80
	# lj-hackbench's workers: read back before the clock and, in load mode, every second
	chrt_behind lj-hackbench -T --policy fifo --priority 80 -g 1 -f 2 --duration 60 --quiet
else
	skip 16 "needs root and chrt with SCHED_FIFO"
fi

# --- lj-signal without privilege: the policy fallback makes it invalid
if can_drop_to_nobody; then
	# a directory nobody may write into (lj-signal prints its lines on stdout even with --json -)
	chmod o+x "$TMP" && mkdir -p "$TMP/nob" && chmod 777 "$TMP/nob"
	drop_to_nobody "$LJ_BUILD/lj-signal" -q -l 200 -p 80 --json "$TMP/nob/s.json" >/dev/null 2>"$TMP/text"
	is "$(verdict "$TMP/nob/s.json")" invalid "lj-signal without its policy is invalid"
	reasons "$TMP/nob/s.json" | grep -q '^invalid policy: measuring threads without their policy: policy: '
	ok $? "...naming the fallback"
else
	skip 2 "cannot run as nobody here"
fi

# --- the threads read back: validity.threads lists them with what was asked and what they ran
threads() {	# threads FILE: "checked differed", then "measured,asked,ran" per listed thread, sorted
	python3 -c 'import json,sys
t=json.load(open(sys.argv[1]))["validity"]["threads"]
print(t["checked"], t["differed"])
for e in sorted(t["list"], key=lambda e: (not e["measured"], e["tid"])): print(str(e["measured"]).lower(), e["asked"], e["ran"], sep=",")' "$1"
}
listed_tids() {	# listed_tids FILE: the measured threads' ids listed, sorted
	python3 -c 'import json,sys
print(*sorted(e["tid"] for e in json.load(open(sys.argv[1]))["validity"]["threads"]["list"] if e["measured"]))' "$1"
}
no_sched_reason() { ! reasons "$1" | grep -q '^[a-z]* sched:'; }

if is_root && chrt -f 1 true 2>/dev/null; then
	# two stages at FIFO 50 and one background thread at FIFO 5 (load, not measured)
	"$LJ_BUILD/lj-frame" -q -D 1 -p 50 --background 1 --bg-priority 5 --bg-load 10 --json "$TMP/f.json" 2>"$TMP/err"
	is "$?" 0 "lj-frame -p 50 --background 1 --bg-priority 5 runs"
	is "$(threads "$TMP/f.json")" "$(printf '3 0\ntrue,fifo 50,fifo 50\ntrue,fifo 50,fifo 50\nfalse,fifo 5,fifo 5')" \
		"lj-frame: both stages read back at fifo 50, the background thread at fifo 5 (not measured)"
	is "$(listed_tids "$TMP/f.json")" \
		"$(python3 -c 'import json,sys; print(*sorted(r["tid"] for r in json.load(open(sys.argv[1]))["results"] if r.get("tid")))' "$TMP/f.json")" \
		"lj-frame: the threads read back are the stage threads the result reports"
	no_sched_reason "$TMP/f.json"
	ok $? "lj-frame: no sched reason when every thread runs what was asked"
	# the ramp: every trial's two stages are read back
	"$LJ_BUILD/lj-frame" -q --ramp -D 100ms -p 40 --json "$TMP/r.json" 2>"$TMP/err"
	is "$?" 0 "lj-frame --ramp -p 40 runs"
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); t=d["validity"]["threads"]; trials=len(d["results"][0]["curve"])
sys.exit(0 if trials > 1 and t["checked"] == 2 * trials and t["differed"] == 0 and
	 all(e["asked"] == e["ran"] == "fifo 40" for e in t["list"]) else 1)' "$TMP/r.json"
	ok $? "lj-frame --ramp: two stage threads read back per trial, each at fifo 40"
	# lj-hackbench: 1 group of 2 senders and 2 receivers, threads then processes
	"$LJ_BUILD/lj-hackbench" -T --policy fifo --priority 10 -g 1 -f 2 -l 50 --json "$TMP/h.json" >/dev/null 2>"$TMP/err"
	is "$?" 0 "lj-hackbench -T --policy fifo --priority 10 runs"
	is "$(threads "$TMP/h.json")" "$(printf '4 0\ntrue,fifo 10,fifo 10\ntrue,fifo 10,fifo 10\ntrue,fifo 10,fifo 10\ntrue,fifo 10,fifo 10')" \
		"lj-hackbench -T: the 4 worker threads read back at fifo 10"
	no_sched_reason "$TMP/h.json"
	ok $? "lj-hackbench -T: no sched reason"
	"$LJ_BUILD/lj-hackbench" --policy rr --priority 7 -g 1 -f 2 -l 50 --json "$TMP/hp.json" >/dev/null 2>"$TMP/err"
	is "$(threads "$TMP/hp.json")" "$(printf '4 0\ntrue,rr 7,rr 7\ntrue,rr 7,rr 7\ntrue,rr 7,rr 7\ntrue,rr 7,rr 7')" \
		"lj-hackbench (processes): the 4 worker processes read back at rr 7"
else
	skip 10 "needs root and SCHED_FIFO"
fi

# nothing asked: nothing read back (the workers run as the tool was started)
"$LJ_BUILD/lj-hackbench" -T -g 1 -f 2 -l 50 --json "$TMP/h0.json" >/dev/null 2>"$TMP/err"
is "$(threads "$TMP/h0.json")" "0 0" "lj-hackbench without --policy: no thread checked"

# --- refused (nobody): the fallback, and the threads read back at what they fell back to
if can_drop_to_nobody; then
	chmod o+x "$TMP" && mkdir -p "$TMP/nob" && chmod 777 "$TMP/nob"
	drop_to_nobody "$LJ_BUILD/lj-frame" -q -D 1 -p 50 --json "$TMP/nob/f.json" 2>"$TMP/err"
	is "$?" 1 "lj-frame -p 50 as nobody measures, exit 1 (the policy rule)"
	reasons "$TMP/nob/f.json" | grep -q '^invalid policy: measuring threads without their policy: stage policy fifo: '
	ok $? "lj-frame as nobody: invalid, naming the stage policy"
	is "$(threads "$TMP/nob/f.json")" "$(printf '2 0\ntrue,other 0,other 0\ntrue,other 0,other 0')" \
		"lj-frame as nobody: both stages read back at the fallback, other 0"
	drop_to_nobody "$LJ_BUILD/lj-hackbench" -T --policy fifo --priority 10 -g 1 -f 2 -l 50 \
		--json "$TMP/nob/h.json" >/dev/null 2>"$TMP/err"
	is "$(verdict "$TMP/nob/h.json")" invalid "lj-hackbench -T --policy fifo as nobody is invalid"
	reasons "$TMP/nob/h.json" | grep -q '^invalid policy: measuring threads without their policy: policy: '
	ok $? "...naming the policy"
	is "$(threads "$TMP/nob/h.json")" "$(printf '4 0\ntrue,other 0,other 0\ntrue,other 0,other 0\ntrue,other 0,other 0\ntrue,other 0,other 0')" \
		"...and the 4 workers read back at what they run, other 0"
else
	skip 6 "cannot run as nobody here"
fi

# --- CFS bandwidth throttling: a known answer. A cpu group allowed 10 ms
# per 100 ms (v1 cpu.cfs_quota_us, v2 cpu.max) holds a busy loop and
# lj-cyclic (SCHED_OTHER): the quota runs out in every period, so the
# group's cpu.stat counts throttled periods, and the verdict must say so.
cgroup_profile
CPUCG=$CG_CPU
if is_root && [ -n "$CPUCG" ] && [ -w "$CPUCG" ] && [ -z "$CG_REL" ]; then
	system_lock
	G="$CPUCG/ljvalid-cfs$$" added=
	if [ "$CG_MODE" = v2 ]; then
		# the root hands cpu down (the test's own change, taken back below)
		grep -qw cpu "$CPUCG/cgroup.subtree_control" || { echo +cpu >"$CPUCG/cgroup.subtree_control" && added=1; }
		mkdir "$G" && echo "10000 100000" >"$G/cpu.max"
	else
		mkdir "$G" && echo 100000 >"$G/cpu.cfs_period_us" && echo 10000 >"$G/cpu.cfs_quota_us"
	fi
	sh -c 'echo $$ >"$1/cgroup.procs"; exec sh -c "while :; do :; done"' _ "$G" &
	spinner=$!
	sh -c 'echo $$ >"$1/cgroup.procs"; exec "$2" -q -l 500 -i 1000 --json "$3"' _ "$G" "$LJ_BUILD/lj-cyclic" \
		"$TMP/cfs.json" >/dev/null 2>"$TMP/err"
	kill "$spinner"; wait "$spinner" 2>/dev/null
	wait_for rmdir "$G"
	[ -n "$added" ] && echo -cpu >"$CPUCG/cgroup.subtree_control"
	# Under QEMU's TCG every result is invalid (reason tcg): the throttling is still named beside it.
	want=suspect
	reasons "$TMP/cfs.json" | grep -q '^invalid tcg:' && want=invalid
	is "$(verdict "$TMP/cfs.json")" $want "lj-cyclic in a group out of CPU quota is $want ($CG_MODE)"
	reasons "$TMP/cfs.json" | grep -q "^suspect cfs-throttling: cgroup /ljvalid-cfs$$ throttled [1-9][0-9]* times ([0-9.]* ms) by its CPU bandwidth quota\$"
	ok $? "...naming the group and how often its quota ran out"
	[ ! -d "$G" ]; ok $? "...and the group is gone"
	"$LJ_BUILD/lj-cyclic" -q -l 100 -i 1000 --json "$TMP/nocfs.json" >/dev/null 2>&1
	reasons "$TMP/nocfs.json" | grep -q "cfs-throttling"
	ok $((! $?)) "a run in a group without a quota says nothing of throttling"
else
	skip 4 "needs root and a cpu controller at the root of its hierarchy${CG_WHY:+ ($CG_WHY)}"
fi

done_testing
