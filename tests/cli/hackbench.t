#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hackbench.t - lj-hackbench: usage errors, hackbench's lines, every transport in both modes, JSON, limits.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-hackbench" ] || skip_all "lj-hackbench not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1

json_ok() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit 2;
		my $d = decode_json(<$f>); exit((eval $ARGV[1]) ? 0 : 1)' "$1" "$2"
	ok $? "$3"
}

run_rc lj-hackbench --help
ok $((rc != 0)) "--help exits 0"
grep -q -- '--transport' "$TMP/out"
ok $? "--help lists --transport"
run_rc lj-hackbench -h
ok $((rc != 0)) "-h is help, as in hackbench"

for bad in "-g 0" "-l x" "-s 0" "-f -1" "-p -i" "--transport foo" "--duration 0" "--priority 5 --policy batch" "extra" \
	"--no-latency --explain"; do
	run_rc lj-hackbench $bad
	is "$rc" 2 "usage error exits 2: $bad"
	is "$(wc -l <"$TMP/err")" 1 "one-line message: $bad"
done

# --explain where no message can carry a stamp: said, and no trace recorded
run_rc lj-hackbench -g 1 -l 10 -s 4 --explain --json "$TMP/nostamp.json"
is "$rc" 0 "--explain with 4-byte messages exits 0"
grep -q "^lj-hackbench: warning: --explain: nothing to explain, no message carries its send time (messages shorter than 8 bytes" "$TMP/err"
ok $? "...and says there is nothing to explain, and why"
json_ok "$TMP/nostamp.json" '!exists $d->{side}{explain}' "...and records no trace"

run_rc lj-hackbench -g 1 -l 10
is "$rc" 0 "default transport, process mode exits 0"
is "$(sed -n 1p "$TMP/out")" "Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)" \
	"hackbench's first line"
is "$(sed -n 2p "$TMP/out")" "Each sender will pass 10 messages of 100 bytes" "hackbench's second line"
grep -qE '^Time: [0-9]+\.[0-9]{3}$' "$TMP/out"
ok $? "hackbench's Time: line"
is "$(wc -l <"$TMP/out")" 3 "nothing else on stdout by default"

if command -v hackbench >/dev/null; then
	hackbench -T -g 2 -f 3 -l 10 -s 64 | sed -E 's/[0-9]+\.[0-9]+$/T/' >"$TMP/hb.lines"
	lj-hackbench -T -g 2 -f 3 -l 10 -s 64 | sed -E 's/[0-9]+\.[0-9]+$/T/' >"$TMP/lj.lines"
	cmp -s "$TMP/hb.lines" "$TMP/lj.lines"
	ok $? "same lines as Debian's hackbench for the same options"
else
	skip 1 "hackbench (rt-tests) not installed"
fi

# Every transport in both modes: all messages arrive, each with a latency.
for mode in -P -T; do
	for tr in socket pipe inet mq; do
		if [ $tr = inet ] && ! loopback_up; then
			skip 3 "inet $mode: the loopback interface is down (a guest or namespace without network setup)"
			continue
		fi
		run_rc lj-hackbench $mode --transport $tr -g 2 -f 3 -l 20 --json "$TMP/r.json"
		is "$rc" 0 "$tr $mode exits 0"
		json_ok "$TMP/r.json" 'my $r = $d->{results}[0]; $r->{messages} == 2*3*3*20 && $r->{expected_messages} == 360 && $r->{latency}{count} == 360 && $r->{bad_stamps} == 0' \
			"$tr $mode: 360 messages, each with a latency"
		json_ok "$TMP/r.json" 'my $l = $d->{results}[0]{latency}; $l->{min_ns} > 0 && $l->{min_ns} <= $l->{p50_ns} && $l->{p50_ns} <= $l->{p99_ns} && $l->{p99_ns} <= $l->{max_ns}' \
			"$tr $mode: min <= p50 <= p99 <= max"
	done
done
json_ok "$TMP/r.json" '$d->{params}{transport} eq "mq" && $d->{params}{mode} eq "threads" && defined $d->{summary}{time} && defined $d->{summary}{msgs_per_s} && defined $d->{summary}{delay_p99} && !defined $d->{summary}{p99}' \
	"params and summary (time, msgs_per_s, delay_p50/delay_p99: not named like wake-up latencies)"

run_rc lj-hackbench -g 1 -f 2 -l 10 -s 4 --json "$TMP/s.json" --percentiles
json_ok "$TMP/s.json" '!defined $d->{results}[0]{latency} && $d->{results}[0]{latency_unavailable} =~ /8 bytes/' \
	"messages too short for a stamp: latency null with the reason"

lj-hackbench -g 1 -f 2 -l 10 --no-latency --json "$TMP/n.json" >/dev/null 2>&1
json_ok "$TMP/n.json" '!defined $d->{results}[0]{latency} && $d->{results}[0]{latency_unavailable} eq "--no-latency" && $d->{results}[0]{messages} == 40' \
	"--no-latency: every message, no latency"

# Stamps: the TSC where it is the kernel's clocksource (x86-64), clock_gettime otherwise or with --no-tsc.
want=CLOCK_MONOTONIC
[ "$(uname -m)" = x86_64 ] && [ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)" = tsc ] && want=tsc
want_tsc=$want
for opt in "" --no-tsc; do
	[ -n "$opt" ] && want=CLOCK_MONOTONIC
	lj-hackbench -g 2 -f 4 -l 50 $opt --json "$TMP/c.json" >/dev/null 2>&1
	json_ok "$TMP/c.json" '$d->{params}{stamp_clock} eq "'$want'" && ($d->{params}{stamp_clock} eq "tsc") == defined $d->{params}{tsc_ns_per_tick} && ($d->{params}{stamp_clock} eq "tsc") != defined $d->{params}{stamp_clock_why}' \
		"stamps from $want${opt:+ with $opt}, named in params with the rate or the reason"
	# every message was sent after the start and received before the end: a wrong rate breaks this
	json_ok "$TMP/c.json" 'my $r = $d->{results}[0]; $r->{latency}{count} == 1600 && $r->{bad_stamps} == 0 && $r->{latency}{min_ns} > 0 && $r->{latency}{max_ns} <= $r->{time_ns}' \
		"stamps from $want: every message between the run's start and end"
done
json_ok "$TMP/c.json" '$d->{params}{stamp_clock_why} eq "not asked"' "--no-tsc: the reason says so"

# lj-compare says when the runs it compares stamped from different clocks (their times differ by the tool too).
if [ "$want_tsc" = tsc ] && [ -x "$LJ_BUILD/lj-compare" ]; then
	mkdir -p "$TMP/cmpA" "$TMP/cmpB"
	cp "$TMP/c.json" "$TMP/cmpB/r.json"
	lj-hackbench -g 1 -f 2 -l 10 --json "$TMP/cmpA/r.json" >/dev/null 2>&1
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q "runs used different lj-hackbench stamp clocks ('tsc' in .*, 'CLOCK_MONOTONIC' in " "$TMP/cmperr"
	ok $? "lj-compare warns when the runs' stamp clocks differ"
	lj-hackbench -g 1 -f 2 -l 10 --no-tsc --json "$TMP/cmpA/r.json" >/dev/null 2>&1
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q 'stamp clocks' "$TMP/cmperr"; ok $(( ! $? )) "...and not when they are the same"
	# a result from before stamp_clock was recorded stamped with clock_gettime (unless it had no stamps)
	lj-hackbench -g 1 -f 2 -l 10 --json "$TMP/t.json" >/dev/null 2>&1
	jq 'del(.params.stamp_clock, .params.stamp_clock_why, .params.tsc_ns_per_tick)' "$TMP/t.json" >"$TMP/cmpA/r.json"
	cp "$TMP/t.json" "$TMP/cmpB/r.json"
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q "different lj-hackbench stamp clocks ('CLOCK_MONOTONIC' in .*, 'tsc' in " "$TMP/cmperr"
	ok $? "an older result without stamp_clock counts as CLOCK_MONOTONIC"
	lj-hackbench -g 1 -f 2 -l 10 --no-latency --json "$TMP/n2.json" >/dev/null 2>&1
	jq 'del(.params.stamp_clock, .params.stamp_clock_why, .params.tsc_ns_per_tick)' "$TMP/n2.json" >"$TMP/cmpA/r.json"
	lj-compare "$TMP/cmpA" "$TMP/cmpB" >/dev/null 2>"$TMP/cmperr"
	grep -q 'stamp clocks' "$TMP/cmperr"; ok $(( ! $? )) "...but one without stamps says nothing"
else
	skip 4 "no TSC stamps here, or lj-compare not built"
fi

run_rc lj-hackbench -g 1 -f 2 -l 10 --percentiles
grep -qE '^# Send-to-receive delay \(us, mostly queueing\): min:[0-9.]+ p50:[0-9.]+ p90:[0-9.]+ p99:[0-9.]+ p99.9:[0-9.]+ max:[0-9.]+$' "$TMP/out"
ok $? "--percentiles prints the latency line"

# Load mode: one line per whole second, throughput in the JSON.
run_rc timeout 20 lj-hackbench -g 1 -f 2 --duration 1.3 --json "$TMP/l.json"
is "$rc" 0 "--duration load mode exits 0"
is "$(grep -cE '^Load: 1 s: [0-9]+ msgs/s [0-9.]+ MB/s$' "$TMP/out")" 1 "one per-second line"
json_ok "$TMP/l.json" 'my $r = $d->{results}[0]; @{$r->{msgs_per_second}} == 1 && $r->{messages} > 0 && $r->{time_ns} >= 1.3e9' \
	"load JSON: per-second series and total"

# Resources are checked before anything starts, with the number needed.
run_rc bash -c 'ulimit -q 1000; exec lj-hackbench --transport mq -g 1 -l 10'
is "$rc" 77 "message queue bytes over RLIMIT_MSGQUEUE: exit 77"
grep -qE 'needs [0-9]+ bytes of message queues, but RLIMIT_MSGQUEUE is 1000 .*ulimit -q [0-9]+' "$TMP/err"
ok $? "the message names RLIMIT_MSGQUEUE and the bytes needed"
run_rc bash -c 'ulimit -n 30; exec lj-hackbench -T -g 4 -l 10'
is "$rc" 77 "too few open files: exit 77"
grep -qE 'needs [0-9]+ open files, but RLIMIT_NOFILE is 30' "$TMP/err"
ok $? "the message names RLIMIT_NOFILE and the number needed"
qmax=$(cat /proc/sys/fs/mqueue/queues_max 2>/dev/null || echo 0)
if [ "$qmax" -gt 0 ] && [ "$qmax" -le 2000 ]; then
	run_rc lj-hackbench --transport mq -f 1 -g $((qmax + 1)) -l 1
	if grep -q "needs $((qmax + 1)) message queues, but /proc/sys/fs/mqueue/queues_max is $qmax: raise it with sysctl fs.mqueue.queues_max=$((qmax + 1))" "$TMP/err"; then
		ok 0 "more queues than queues_max: the message names the sysctl and the number"
	elif [ "$rc" -eq 0 ]; then
		skip 1 "CAP_SYS_RESOURCE lifts queues_max here"
	else
		ok 1 "more queues than queues_max: the message names the sysctl and the number"
	fi
else
	skip 1 "queues_max unreadable or large"
fi
if [ "$(cat /proc/sys/fs/mqueue/msgsize_max 2>/dev/null || echo 0)" -lt 100000 ]; then
	run_rc lj-hackbench --transport mq -s 100000 -g 1 -l 1
	if grep -q 'msgsize_max' "$TMP/err"; then
		ok 0 "--datasize above msgsize_max names /proc/sys/fs/mqueue/msgsize_max"
	elif [ "$rc" -eq 0 ]; then
		skip 1 "CAP_SYS_RESOURCE lifts msgsize_max here"
	elif (( 0x$(awk '/^CapEff:/ { print $2 }' /proc/self/status) >> 24 & 1 )); then
		# CAP_SYS_RESOURCE (root in a VM or a guest; these VMs drop it) lifts
		# msgsize_max but not RLIMIT_MSGQUEUE: the limit that binds is named
		grep -q 'RLIMIT_MSGQUEUE' "$TMP/err"
		ok $? "--datasize above msgsize_max with CAP_SYS_RESOURCE: the limit that still binds is named (RLIMIT_MSGQUEUE)"
	else
		ok 1 "--datasize above msgsize_max names /proc/sys/fs/mqueue/msgsize_max"
	fi
else
	skip 1 "msgsize_max is large"
fi

lj-hackbench -g 1 -f 2 -l 10 --policy batch --cpus 0 --json "$TMP/p.json" >/dev/null 2>&1
json_ok "$TMP/p.json" '$d->{params}{policy} eq "batch" && $d->{results}[0]{messages} == 40' \
	"--policy batch --cpus 0: workers run and the policy is recorded"

if is_root; then
	run_rc lj-hackbench -F -g 1 -f 2 -l 10
	is "$rc" 0 "-F (main thread SCHED_FIFO) as root"
	if can_drop_to_nobody; then
		nobody="drop_to_nobody $LJ_BUILD/lj-hackbench -g 1 -f 2 -l 10"
		run_rc $nobody --policy fifo --priority 10
		ok $((rc != 1 || $(grep -c warning "$TMP/err") != 1)) \
			"unprivileged --policy fifo: one warning, the run goes on, exit 1 as hackbench --fifo"
		run_rc $nobody --policy fifo --priority 10 --strict
		is "$rc" 77 "unprivileged --policy fifo --strict exits 77"
	else
		skip 2 "setpriv cannot drop to nobody here"
	fi
else
	skip 3 "-F and the privilege fallback need root"
fi

# A forked worker drops the libraries only the parent calls (tools/hackbench/unmap.c):
# the parent maps libhwloc, a running worker does not (and still counts messages).
if [ "${LJ_SANITIZE:-0}" = 1 ]; then
	skip 2 "a sanitizer build keeps every library in its workers"
else
	"$LJ_BUILD/lj-hackbench" --load --quiet -g 1 -f 2 -p >"$TMP/u.out" 2>&1 &
	pid=$!
	worker= gone=0
	for ((i = 0; i < 200; i++)); do	# up to 10 s on a loaded machine
		worker=$(pgrep -P $pid | head -1)
		# (a maps file read empty: the worker is gone or not yet there)
		if [ -n "$worker" ] && grep -q libc "/proc/$worker/maps" 2>/dev/null &&
		   ! grep -q libhwloc "/proc/$worker/maps" 2>/dev/null; then
			gone=1
			break
		fi
		sleep 0.05
	done
	grep -q libhwloc "/proc/$pid/maps"
	ok $? "the parent maps libhwloc"
	ok $((gone != 1)) "a forked worker does not (pid ${worker:-none})"
	kill -TERM $pid
	wait $pid
fi

result_validates "$TMP/l.json"

done_testing
