#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# validity.t - the validity verdict of a measuring run: a run forced to fall back is
# suspect, a run whose SCHED_FIFO priority is changed behind its back is invalid.
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

# --- a run that cannot get SCHED_FIFO falls back: suspect, with the reason
if can_drop_to_nobody; then
	# --json -: the document on stdout, cyclictest's lines (and the verdict) on stderr
	drop_to_nobody "$LJ_BUILD/lj-cyclic" -q -l 300 -i 1000 -p 80 --json - >"$TMP/r.json" 2>"$TMP/text"
	is "$?" 0 "unprivileged run with -p 80 completes (fallback)"
	is "$(verdict "$TMP/r.json")" suspect "a run forced to fall back is suspect"
	reasons "$TMP/r.json" | grep -q '^suspect fallback: fallback sched: fifo 80 -> other'
	ok $? "the reason names the fallback"
	grep -q '^validity: suspect$' "$TMP/text" && grep -q '^  suspect: fallback sched: fifo 80 -> other' "$TMP/text"
	ok $? "stderr ends with the verdict and its reasons"
	result_validates "$TMP/r.json"
else
	skip 5 "cannot run as nobody here"
fi

# --- SCHED_FIFO priority changed behind the run's back (chrt on a measuring thread): invalid
# chrt_behind TOOL ARGS...: run TOOL with -p 80 for about 3 s, set one of its SCHED_FIFO 80
# threads to priority 10 meanwhile, then check the verdict.
chrt_behind() {
	local tool=$1 pid tid="" t
	shift
	"$LJ_BUILD/$tool" "$@" --json "$TMP/chrt.json" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 50); do	# a measuring thread: a task at SCHED_FIFO 80
		for t in /proc/$pid/task/*; do
			t=${t##*/}
			chrt -p "$t" 2>/dev/null | grep -q 'SCHED_FIFO' && chrt -p "$t" | grep -q 'priority: 80' && tid=$t
		done
		[ -n "$tid" ] && break
		sleep 0.1
	done
	[ -n "$tid" ] && chrt -f -p 10 "$tid"
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
	chrt_behind lj-cyclic -q -D 3 -i 1000 -p 80 -t 1
	chrt_behind lj-signal -q -D 3 -p 80
else
	skip 8 "needs root and chrt with SCHED_FIFO"
fi

# --- lj-signal without privilege: the fallback makes it suspect
if can_drop_to_nobody; then
	# a directory nobody may write into (lj-signal prints its lines on stdout even with --json -)
	chmod o+x "$TMP" && mkdir -p "$TMP/nob" && chmod 777 "$TMP/nob"
	drop_to_nobody "$LJ_BUILD/lj-signal" -q -l 200 -p 80 --json "$TMP/nob/s.json" >/dev/null 2>"$TMP/text"
	is "$(verdict "$TMP/nob/s.json")" suspect "lj-signal forced to fall back is suspect"
	reasons "$TMP/nob/s.json" | grep -q '^suspect fallback: fallback policy: '
	ok $? "...naming the fallback"
else
	skip 2 "cannot run as nobody here"
fi

done_testing
