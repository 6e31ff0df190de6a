#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic.t - lj-cyclic: usage errors, --help, cyclictest's line formats, JSON, signals.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cyclic-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1

# --- usage -------------------------------------------------------------------

run_rc lj-cyclic --help
is "$rc" 0 "--help exits 0"
grep -q -- '--interval' "$TMP/out" && grep -q -- '--catch-up' "$TMP/out"
ok $? "--help lists cyclictest's and ljkit's options"

usage_case() {	# usage_case WANT_TEXT NAME ARGS...
	local want=$1 name=$2
	shift 2
	run_rc lj-cyclic "$@"
	is "$rc" 2 "$name exits 2"
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qF -- "$want" "$TMP/err"; then
		ok 0 "$name: one line naming '$want'"
	else
		ok 1 "$name: one line naming '$want'"
		diag "stderr: $(cat "$TMP/err")"
	fi
}

usage_case "lj-cyclic: invalid --interval 'q10'" "bad -i" -i q10 -l 1
# cyclictest reads -i with atoi(): "10q" runs at 10 us; ljkit too, saying what it ignored.
run_rc lj-cyclic -q -i 10q -l 1
is "$rc" 0 "-i 10q runs, as cyclictest's atoi() reads it"
grep -q "warning: --interval '10q': ignoring 'q' after 10" "$TMP/err"
ok $? "-i 10q: a warning names the ignored 'q'"
usage_case "invalid --loops 'abc'" "bad -l" -l abc
usage_case "invalid --priority '100'" "-p above 99" -p 100 -l 1
usage_case "invalid --catch-up 'later'" "unknown catch-up policy" --catch-up later -l 1
usage_case "invalid --affinity '3-1'" "reversed CPU range" -a 3-1 -l 1
usage_case "invalid --duration '-1'" "negative duration" -D -1
usage_case "unexpected argument 'extra'" "stray argument" -l 1 extra
usage_case "--catch-up burst" "burst with POSIX timers" -x --catch-up burst -l 1
usage_case "--nope" "unknown option" --nope
usage_case "'999'" "CPU that does not exist" -a 999 -l 1 -q

# --- a short real run: cyclictest's T: line, exact field widths ---------------

run_rc lj-cyclic -q -l 100 -i 1000 -t 2
is "$rc" 0 "-q -l 100 -t 2 runs"
is "$(grep -c '^T:' "$TMP/out")" 2 "one T: line per thread"
check_t_lines "$TMP/out" us
ok $? "T: lines have cyclictest's field widths (us)"
# As cyclictest (its main loop stops when any thread's count reaches -l):
# the first thread with 100 ends the run, whichever it is under load.
is "$(grep '^T:' "$TMP/out" | sed -E 's/.* C: *([0-9]+) .*/\1/' | sort -n | tail -1)" 100 \
	"the run ends when a thread has its -l 100 loops (none runs more)"
is "$(grep '^T: 1' "$TMP/out" | sed -E 's/.* I:([0-9]+) .*/\1/')" 1500 "thread 1 interval is -i plus -d 500"
check_t_sanity "$TMP/out"
ok $? "every T: line has Min <= Avg <= Max"

run_rc lj-cyclic -q -N -l 100 -i 1000
check_t_lines "$TMP/out" ns
ok $? "-N prints ns with cyclictest's wider Act/Avg fields"

for mode in -r -x; do
	run_rc lj-cyclic -q -l 100 -i 1000 $mode
	ok $(( rc != 0 || $(grep -c '^T: 0 .* C:    100 ' "$TMP/out") != 1 )) "$mode: 100 loops measured"
done

run_rc lj-cyclic -q -D 200ms -i 1000
c=$(sed -nE 's/^T: 0 .* C: *([0-9]+) .*/\1/p' "$TMP/out")
ok $(( rc != 0 || ${c:-0} < 1 || ${c:-0} > 300 )) "-D 200ms ends the run after about 200 periods (got ${c:-none})"

# --- live mode: header and redraw, as cyclictest prints them ---------------------

run_rc lj-cyclic -l 200 -i 1000 -t 2
grep -q "^policy: other/other: loadavg: " "$TMP/out" && grep -q $'\e\[4Apolicy:' "$TMP/out"
ok $? "live mode: policy/loadavg header, redrawn with ESC[4A"

# --- -h histogram layout --------------------------------------------------------

run_rc lj-cyclic -q -l 100 -i 1000 -h 40 -t 2
is "$rc" 0 "-h 40 runs"
check_hist_layout "$TMP/out" 40 2 0
ok $? "-h: 40 bucket rows, Total/Min/Avg/Max/Overflows lines, overflow cycles per thread"
ok $(grep -c '^T:' "$TMP/out") "-q -h prints no T: lines (cyclictest's summary replaces them)"
run_rc lj-cyclic -q -l 100 -i 1000 -H 40 -t 2
check_hist_layout "$TMP/out" 40 2 1
ok $? "-H adds the sum column and totals"
run_rc lj-cyclic -q -l 100 -i 1000 -h 20 --histfile "$TMP/hist.txt"
ok $(( rc != 0 || $(grep -c '^# Histogram$' "$TMP/out") != 0 || $(grep -c '^# Histogram$' "$TMP/hist.txt") != 1 )) "--histfile moves the histogram to the file"
run_rc lj-cyclic -l 100 -i 1000 -h 20 --histfile /nonexistent/x
is "$rc" 1 "an unwritable --histfile is a runtime error"
ok $(( $(grep -c '^T:' "$TMP/out") != 0 )) "...found before measuring"
grep -q '^lj-cyclic: cannot write /nonexistent/x: ' "$TMP/err"; ok $? "...and the message names the file"
if [ -w /dev/full ]; then
	run_rc lj-cyclic -q -l 100 -i 1000 -h 20 --histfile /dev/full
	is "$rc" 1 "a --histfile write that fails after the run (ENOSPC) is a runtime error"
else
	skip 1 "no writable /dev/full"
fi

# --- extras: breaktrace, spikes, percentiles -----------------------------------

run_rc lj-cyclic -q -l 100 -i 1000 -b 1
grep -q '^# Break thread: [0-9]' "$TMP/out" && grep -q '^# Break value: [0-9]' "$TMP/out" &&
	grep -q '^T: 0 .* C:      1 ' "$TMP/out"
ok $? "-b 1 stops at the first wake-up and names the break thread"

run_rc lj-cyclic -q -l 100 -i 1000 --spike 1
grep -qE '^T: 0 Spike: {0,7}[0-9]+: TS: {0,11}[0-9]+$' "$TMP/out" && grep -q '^spikes = 100$' "$TMP/out"
ok $? "--spike 1 lists every wake-up in cyclictest's Spike: format"

run_rc lj-cyclic -q -l 200 -i 1000 --percentiles
line=$(grep '^# T: 0 p50:' "$TMP/out")
read -r p50 p99 <<<"$(sed -E 's/.*p50: *([0-9]+) .*p99: *([0-9]+) .*/\1 \2/' <<<"$line")"
ok $(( ${p50:-1} > ${p99:-0} )) "--percentiles prints p50 <= p99 (${p50:-?} ${p99:-?})"

# --- JSON ----------------------------------------------------------------------

if have_python; then
	run_rc lj-cyclic -q -l 200 -i 1000 -t 2 -h 50 --json "$TMP/r.json"
	is "$rc" 0 "--json run exits 0"
	python3 - "$TMP/r.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "ljkit-result/1", d["schema"]
assert d["tool"] == "lj-cyclic"
assert len(d["results"]) == 2, len(d["results"])
# As cyclictest 2.x: the run ends when the first thread reaches -l.
assert max(t["count"] for t in d["results"]) == 200, [t["count"] for t in d["results"]]
for t in d["results"]:
    assert 0 < t["count"] <= 200, t["count"]
    assert t["min_ns"] <= t["p50_ns"] <= t["p99_ns"] <= t["p99_9_ns"] <= t["max_ns"], t
    assert t["missed"] >= 0 and t["overflows"] >= 0
    assert sum(c for _, c in t["histogram"]) == t["count"] - t["overflows"]
    assert 0 <= t["h_overflows"] <= t["count"]
s = d["summary"]
for k in ("min", "mean", "p50", "p99", "p99_9", "max", "missed"):
    assert k in s, k
assert s["min"]["value"] <= s["p50"]["value"] <= s["p99"]["value"] <= s["max"]["value"]
assert s["p50"]["unit"] == "ns"
assert len(d["side"]["threads"]) == 2
for t in d["side"]["threads"]:
    assert t["nvcsw"] >= 0 and t["nivcsw"] >= 0 and t["last_cpu"] >= 0
assert d["params"]["interval_ns"] == 1000000
EOF
	ok $? "JSON: schema, per-thread min <= p50 <= p99 <= max, summary, side metrics"
	run_rc lj-cyclic -q -l 100 -i 1000 --cpus 0 --json -
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["results"][0]["cpu"] == 0' "$TMP/out" &&
		grep -q '^T: 0 ' "$TMP/err"
	ok $? "--json - : the document alone on stdout, T: lines on stderr; --cpus 0 pins the thread"
else
	skip 3 "python3 not installed"
fi

# A harness passes '-h 3500' as one argv element: atoi skips the blank.
run_rc lj-cyclic -q -l 20 '-h 3500'
is "$rc" 0 "'-h 3500' as one word runs"
grep -q '^# Histogram$' "$TMP/out" && [ "$(grep -cE '^[0-9]{6} ' "$TMP/out")" -eq 3500 ]
ok $? "...with cyclictest's 3500-bucket histogram"

# --- cyclictest options that need the machine --------------------------------

if have_python; then
	run_rc lj-cyclic -q -l 10 --deepest-idle-state 1 --json "$TMP/idle.json"
	python3 - "$TMP/idle.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["setup"]
assert any("idle" in e["what"] for e in s["applied"] + s["fallbacks"]), s
EOF
	ok $? "--deepest-idle-state goes through the setup stack (applied or a recorded fallback)"
else
	skip 1 "python3 not installed"
fi
if [ -r /dev/cpu/0/msr ]; then
	run_rc lj-cyclic -q -l 10 --smi
	grep -qE '^# T: 0 SMI: +[0-9]+$' "$TMP/out"
	ok $? "--smi: the SMI count of the thread's CPU"
else
	run_rc lj-cyclic -q -l 10 --smi
	[ "$rc" -eq 1 ] && grep -q "SMI counter is not supported on this machine" "$TMP/err"
	ok $? "--smi without an SMI counter: exit 1 with cyclictest's reason"
fi
# Thread 1 wakes every 51 ms: it would need a second for its 20, thread 0 20 ms.
run_rc lj-cyclic -q -l 20 -t 2 -i 1000 -d 50000
is "$(grep -c '^T:' "$TMP/out")" 2 "two threads"
c1=$(sed -nE 's/^T: 1 .* C: +([0-9]+) .*/\1/p' "$TMP/out")
ok $(( ! (${c1:-20} < 20) )) "-l 20 with two threads: the run ends when the first has its 20 (thread 1: ${c1:-?})"
grep -q "cut short" "$TMP/err"
ok $((! $?)) "...which is the run asked for, not one cut short" || grep validity -A3 "$TMP/err" | sed 's/^/#   /' >&2
# A break ends it before any thread has its 20: that one is cut short.
run_rc lj-cyclic -q -l 20 -t 2 -i 1000 -d 50000 -b 1ns
grep -q "suspect: run cut short: [0-9]* of 20 samples measured" "$TMP/err"
ok $? "a run a break ended is cut short, counted against the furthest thread's 20"
run_rc lj-cyclic -q -l 20 -t 2 --loops-per-thread
is "$(grep -cE '^T:.* C: +20 ' "$TMP/out")" 2 "--loops-per-thread: every thread runs its 20"

# --- signals: SIGUSR1 status, SIGINT ends and still reports --------------------

lj-cyclic -q -i 1000 >"$TMP/sig.out" 2>"$TMP/sig.err" &
pid=$!
wait_threads $pid 2	# measuring: its thread exists
sleep 0.1
kill -USR1 $pid
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
is "$rc" 0 "SIGINT ends an endless run with exit 0"
grep -q '^# lj-cyclic current status:' "$TMP/sig.err" && grep -q '^T: 0 ' "$TMP/sig.err"
ok $? "SIGUSR1 prints the current T: lines to stderr"
check_t_lines "$TMP/sig.out" us
ok $? "the run interrupted by SIGINT still prints its T: line"

done_testing
