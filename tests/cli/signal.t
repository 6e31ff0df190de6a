#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# signal.t - lj-signal: usage errors, signaltest's line format, hops and round trip, JSON, stop paths.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-signal" ] || skip_all "lj-signal not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1
# signaltest's status line, without cyclictest's I: field.
TLINE='^T: ?[0-9]+ \( *[0-9]+\) P: ?[0-9]+ C: *[0-9]+ Min: *[0-9]+ Act: *[0-9]+ Avg: *[0-9]+ Max: *[0-9]+$'

# json_ok FILE PERL-EXPR NAME: evaluate EXPR with $d the decoded document.
json_ok() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit 2;
		my $d = decode_json(<$f>); exit((eval $ARGV[1]) ? 0 : 1)' "$1" "$2"
	ok $? "$3"
}

run_rc lj-signal --help
ok $((rc != 0)) "--help exits 0"
grep -q -- '--loops' "$TMP/out"
ok $? "--help lists --loops"
run_rc lj-signal -h
ok $((rc != 0)) "-h is help, as in signaltest"

for bad in "-t 1" "-l x" "-p 100" "-a 3-1" "--pace 1q" "-D -1" "--policy fifo" "extra"; do
	run_rc lj-signal $bad
	is "$rc" 2 "usage error exits 2: $bad"
	is "$(wc -l <"$TMP/err")" 1 "one-line message: $bad"
done
run_rc lj-signal -l x
grep -q "invalid --loops 'x'" "$TMP/err"
ok $? "message names the option and the bad text"
# signaltest reads -l with atoi(): "10x" is 10; ljkit too, naming what it ignores.
run_rc lj-signal -q -l 10x
grep -q "warning: --loops '10x': ignoring 'x' after 10" "$TMP/err" && grep -qE '^T: 0 .* C: +10 ' "$TMP/out"
ok $? "-l 10x runs 10 round trips and warns about the 'x'"

run_rc lj-signal -q -l 50
is "$rc" 0 "short run exits 0"
is "$(grep -cE "$TLINE" "$TMP/out")" 2 "two T: lines in signaltest's format"
is "$(grep -c '^T:' "$TMP/out")" 2 "no malformed T: lines"
is "$(grep -cE '^T:.* C: +50 ' "$TMP/out")" 2 "every thread counts -l 50 hops"
grep -qE '^# Round trip: C: +50 Min: *[0-9]+ Act: *[0-9]+ Avg: *[0-9]+ Max: *[0-9]+$' "$TMP/out"
ok $? "round trip reported separately as a comment line"

run_rc lj-signal -q -l 20 -t 3 -v
is "$(grep -cE "$TLINE" "$TMP/out")" 3 "-t 3: three T: lines"
is "$(grep -cE '^ +[0-9]+: +[0-9]+: +[0-9]+$' "$TMP/out")" 60 "-v prints n:c:v for every hop (3 x 20)"

run_rc lj-signal -q -l 20 -N --percentiles
ok $((rc != 0)) "-N --percentiles runs"
grep -qE '^# T: 0 hop 1->0 p50:[0-9]+ p90:[0-9]+ p99:[0-9]+ p99.9:[0-9]+ p99.99:[0-9]+ \(ns\)$' "$TMP/out"
ok $? "--percentiles prints per-hop percentiles in the display unit"

run_rc lj-signal -q -l 30 --histogram 5
is "$(grep -cE '^[0-9]{6} [0-9]{6}	[0-9]{6}$' "$TMP/out")" 5 "--histogram 5: cyclictest's five bucket rows, one column per thread"
ok $(awk '/^# Total:/ { t = $3 + 0 } /^# Histogram Overflows:/ { o = $4 + 0 } END { exit !(t + o == 30) }' "$TMP/out"; echo $?) \
	"buckets plus overflows count every hop"
for l in 'Total' 'Min Latencies' 'Avg Latencies' 'Max Latencies' 'Histogram Overflows'; do
	grep -qE "^# $l:( [0-9]+){2}$" "$TMP/out"
	ok $? "histogram summary line: # $l"
done

run_rc lj-signal -q -l 100 -t 3 --json "$TMP/s.json"
is "$rc" 0 "run with --json exits 0"
json_ok "$TMP/s.json" '$d->{schema} eq "ljkit-result/1" && $d->{tool} eq "lj-signal"' "JSON schema and tool"
json_ok "$TMP/s.json" '3 == grep { $_->{kind} eq "hop" } @{$d->{results}}' "one hop result per thread"
json_ok "$TMP/s.json" '1 == grep { $_->{kind} eq "round_trip" } @{$d->{results}}' "one round-trip result"
json_ok "$TMP/s.json" '!grep { my $l = $_->{latency}; !($l->{count} == 100 && $l->{min_ns} <= $l->{p50_ns} && $l->{p50_ns} <= $l->{p99_ns} && $l->{p99_ns} <= $l->{max_ns}) } @{$d->{results}}' \
	"every block: count 100 and min <= p50 <= p99 <= max"
json_ok "$TMP/s.json" '!grep { !defined $d->{summary}{$_} } qw(min mean p50 p99 max rt_min rt_mean rt_p50 rt_p99 rt_max)' \
	"summary holds hop and round-trip metrics"
json_ok "$TMP/s.json" '!grep { $_->{kind} eq "hop" && $_->{placement} !~ /^(same-cpu|cross-cpu|unpinned)$/ } @{$d->{results}}' \
	"each hop says whether it crosses CPUs"
json_ok "$TMP/s.json" 'my ($r) = grep { $_->{kind} eq "round_trip" } @{$d->{results}}; my $s = 0; $s += $_->{latency}{mean_ns} for grep { $_->{kind} eq "hop" } @{$d->{results}}; $r->{latency}{mean_ns} >= $s' \
	"the round trip is at least the sum of its hops"

lj-signal -q -l 20 -a 0 --json "$TMP/a.json" >/dev/null 2>&1
json_ok "$TMP/a.json" '$d->{params}{placement} eq "same-cpu"' "-a 0 puts every thread on CPU 0: same-cpu"
if [ "$(nproc)" -ge 2 ]; then
	lj-signal -q -l 20 --json "$TMP/x.json" >/dev/null 2>&1
	json_ok "$TMP/x.json" '$d->{params}{placement} eq "cross-cpu"' "default: thread i on CPU i, cross-cpu"
else
	skip 1 "one CPU: no cross-CPU placement"
fi

lj-signal -q -l 20 --cpus 1 --json "$TMP/c.json" >/dev/null 2>&1
json_ok "$TMP/c.json" '$d->{params}{cpus} eq "1" && $d->{params}{placement} eq "same-cpu"' \
	"--cpus 1: the ring is placed within the selection"

run_rc lj-signal -q -l 100 -b 1ns
is "$rc" 0 "-b over the limit exits 0, as signaltest"
run_rc lj-signal -q -l 100 -b 1ns --break-fails
is "$rc" 3 "--break-fails: -b over the limit exits 3"
grep -q 'exceeded trace limit' "$TMP/out"
ok $? "-b names the thread that exceeded the limit"

run_rc timeout 10 lj-signal -q -D 0.3
is "$rc" 0 "-D 0.3 ends the endless run"
grep -qE 'C: +[1-9][0-9]* ' "$TMP/out"
ok $? "-D run counted hops"

lj-signal -q >"$TMP/int.out" 2>&1 &
pid=$!
# Signal only once the ring runs (its two threads exist).
wait_threads $pid 3
sleep 0.2
kill -INT $pid
wait $pid
is "$?" 0 "SIGINT ends the run cleanly"
is "$(grep -cE "$TLINE" "$TMP/int.out")" 2 "SIGINT still reports every thread"

if is_root; then
	run_rc lj-signal -q -l 20 -m -p 80
	is "$(grep -cE '^T: ?[0-9]+ \( *[0-9]+\) P:80 ' "$TMP/out")" 2 "-p 80 as root: P:80 on every line"
	if can_drop_to_nobody; then
		run_rc drop_to_nobody "$LJ_BUILD/lj-signal" -q -l 20 -p 80
		ok $((rc != 1 || $(grep -c warning "$TMP/err") != 1)) \
			"unprivileged -p 80 measures at SCHED_OTHER with one warning, then exits 1 as signaltest"
		run_rc drop_to_nobody "$LJ_BUILD/lj-signal" -q -l 20 -p 80 --strict
		is "$rc" 77 "unprivileged -p 80 --strict exits 77"
	else
		skip 2 "setpriv cannot drop to nobody here"
	fi
else
	skip 3 "SCHED_FIFO run needs root"
fi

result_validates "$TMP/s.json"

done_testing
