#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hackbench-stop.t - lj-hackbench leaves no worker behind after SIGINT, SIGTERM or its own SIGKILL.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-hackbench" ] || skip_all "lj-hackbench not built in $LJ_BUILD"
command -v setsid >/dev/null || skip_all "setsid (util-linux) not installed"

# Live (non-zombie) processes of session $1: the tool and its workers.
# Killed workers stay zombies until init reaps them: those are gone already.
alive() {
	ps -o stat= -s "$1" 2>/dev/null | grep -vc '^Z'
}

# stop SIGNAL MODE ARGS...: start lj-hackbench in its own session, check it
# spawned its workers, send SIGNAL to the parent only, then check the session empties.
stop() {
	local sig=$1 mode=$2 pid sid n i left
	shift 2
	setsid "$LJ_BUILD/lj-hackbench" $mode -g 2 -f 3 --quiet "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	# setsid forks nothing here (a background job is not a group leader), so
	# $pid becomes the leader of session $pid, but only once setsid() has
	# run: before that, ps shows this script's session, full of other tests'
	# processes. Watch only the new session.
	for ((i = 0; i < 200; i++)); do
		sid=$(ps -o sid= -p $pid 2>/dev/null | tr -d ' ')
		[ "$sid" = "$pid" ] && break
		sleep 0.05
	done
	if [ "$sid" != "$pid" ]; then
		ok 1 "SIG$sig to the parent ($mode $*): lj-hackbench never led its own session (sid '$sid')"
		kill -KILL $pid 2>/dev/null
		{ wait $pid; } 2>/dev/null
		rc=-1 left=-1
		return
	fi
	# Wait until every worker runs (12 threads or 12 processes besides main):
	# a signal before the handlers are installed would prove nothing.
	for ((i = 0; i < 200; i++)); do
		if [ "$mode" = -T ]; then
			[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 13 ] && break
		else
			[ -n "$sid" ] && [ "$(alive "$sid")" -ge 13 ] && break
		fi
		sleep 0.05
	done
	n=$(alive "$sid")
	sleep 0.2
	kill -"$sig" $pid
	{ wait $pid; } 2>/dev/null	# no "Killed" job notice on stderr
	rc=$?
	for ((i = 0; i < 200; i++)); do	# up to 10 s on a loaded machine
		left=$(alive "$sid")
		[ "$left" -eq 0 ] && break
		sleep 0.05
	done
	ok $((left != 0)) "SIG$sig to the parent ($mode $*, $n processes before): none left"
	[ "$left" -eq 0 ] || ps -o pid,ppid,pgid,stat,args -s "$sid" | sed 's/^/#   /'
}

for mode in -P -T; do
	stop TERM $mode --load
	is "$rc" 0 "SIGTERM ends load mode cleanly ($mode)"
	grep -qE '^Time: [0-9]+\.[0-9]{3}$' "$TMP/out"
	ok $? "SIGTERM in load mode still reports ($mode)"
	stop INT $mode --load
	is "$rc" 0 "SIGINT ends load mode cleanly ($mode)"
	stop KILL $mode --load
	is "$rc" 137 "the parent died of SIGKILL ($mode)"
done
stop INT -P -l 100000
is "$rc" 0 "SIGINT ends a long loop-mode run (-P)"
stop KILL -P --transport mq --load
stop KILL -P --transport pipe --load

# Process mode: workers run in their own process group, apart from the parent's.
setsid "$LJ_BUILD/lj-hackbench" -g 1 -f 2 --load --quiet >/dev/null 2>&1 &
pid=$!
for ((i = 0; i < 200; i++)); do
	[ "$(ps -o pid= --ppid $pid | wc -l)" -ge 4 ] && break
	sleep 0.05
done
pg_parent=$(ps -o pgid= -p $pid | tr -d ' ')
pg_workers=$(ps -o pgid= --ppid $pid | tr -d ' ' | sort -u)
kill -TERM $pid
wait $pid
ok $(([ -n "$pg_workers" ] && [ "$(echo "$pg_workers" | wc -l)" -eq 1 ] && [ "$pg_workers" != "$pg_parent" ]) && echo 0 || echo 1) \
	"workers share one process group, not the parent's"

done_testing
