#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# consumers.t - lj-cyclic (and lj-hackbench) under the programs that run rt-tests, on their own
# command lines (mmtests' shellpack, rteval's module with its SIGINT stop,
# OSADL's latency plot script and gnuplot, ChromiumOS's runner with and
# without --breaktrace, under nice with --policy=other): each reads the run's
# stdout as it reads cyclictest's (tests/cli/consumers.py), and what it gets
# must be the run's own figures, from the same run's --json (one option added
# to each line: the truth). The readers are checked on cyclictest's output too
# where rt-tests is installed, so that one reading nothing cannot pass.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
command -v python3 >/dev/null || skip_all "python3 not installed (the readers are Python)"
is_root || skip_all "the consumers run cyclictest as root (real-time priorities, mlockall)"

export LJ_RESULT_NO_SYSINFO=1
READ="$LJ_SRC/tests/cli/consumers.py"
ncpus=$(nproc)
cpulist="0-$((ncpus - 1))"
PEER=
command -v cyclictest >/dev/null && cyclictest -q -l 1 >/dev/null 2>&1 && PEER=cyclictest

# judge READER NAME [ARG]: the reader on $TMP/out (stdout) against $TMP/out.json.
judge() {
	local reader=$1 name=$2
	python3 "$READ" "$reader" "$TMP/out" "$TMP/out.json" ${3:+"$3"} >"$TMP/read" 2>"$TMP/why"
	ok $? "$name"
	[ -s "$TMP/why" ] && { sed 's/^/#   /' "$TMP/why"; head -20 "$TMP/out" | sed 's/^/#   out: /'; } >&2
	sed 's/^/# /' "$TMP/read"
}

# peer_judge READER NAME CMD...: the same reader on cyclictest's output and
# JSON (written while a thread may still add a sample: up to three tries).
peer_judge() {
	local reader=$1 name=$2 try
	shift 2
	if [ -z "$PEER" ]; then
		skip 1 "cyclictest (rt-tests) not installed or not runnable"
		return
	fi
	for try in 1 2 3; do
		cyclictest "$@" --json="$TMP/out.json" >"$TMP/out" 2>/dev/null
		python3 "$READ" "$reader" "$TMP/out" "$TMP/out.json" ${READ_ARG:+"$READ_ARG"} >/dev/null 2>&1 && break
	done
	judge "$reader" "$name"  ${READ_ARG:+"$READ_ARG"}
}

# --- mmtests (config-workload-cyclictest-histogram-none): its BENCH_CMD with
# the unset parameters left as it leaves them (--threads with no number, -a
# alone), --duration shortened; the log is stdout and stderr together.
mm=(--mlockall -p98 --threads -a --duration=2 --histogram=500 --quiet)
lj-cyclic "${mm[@]}" --json="$TMP/out.json" >"$TMP/out" 2>&1
is "$?" 0 "mmtests' command line runs (--threads and -a without values)"
judge mmtests "mmtests' report reads the run's Min/Avg/Max latencies and overflows"
grep -q '^# Histogram Overflows: [0-9]' "$TMP/out"
ok $? "the overflow row mmtests reads is there"
peer_judge mmtests "the mmtests reader reads cyclictest's own log" "${mm[@]}"

# --- rteval: '-i100 -qmu' with '-h 3500' as one word and a thread per CPU
# of its cpulist; stopped with SIGINT (every 2 s until it exits), stdout only.
rteval_run() {	# rteval_run PROGRAM [EXTRA...]
	local prog=$1 pid n
	shift
	"$prog" -i100 -qmu '-h 3500' -p95 "-t$ncpus" "-a$cpulist" "$@" --json="$TMP/out.json" \
		>"$TMP/out" 2>/dev/null </dev/null &
	pid=$!
	sleep 1.5
	for n in 1 2 3 4 5; do
		kill -INT $pid 2>/dev/null || break
		sleep 0.5
		kill -0 $pid 2>/dev/null || break
		sleep 1.5
	done
	wait $pid
}
rteval_run lj-cyclic
is "$?" 0 "rteval's command line, stopped by its SIGINT, exits 0"
judge rteval "rteval reads every CPU's histogram, samples, min, max and mean as the run's" "$cpulist"
# With its --cyclictest-threshold: -b, the break value read as a number.
rteval_run lj-cyclic -b1
grep -q '^# Break value: [0-9]' "$TMP/out"
ok $? "with rteval's threshold (-b) the break value line is there"
judge rteval "rteval reads the run stopped at the break" "$cpulist"
READ_ARG=$cpulist
if [ -n "$PEER" ]; then
	rteval_run cyclictest
	judge rteval "the rteval reader reads cyclictest's own histogram" "$cpulist"
else
	skip 1 "cyclictest (rt-tests) not installed or not runnable"
fi
READ_ARG=

# --- OSADL's latency plot (mklatencyplot.bash): -Sp90 -i200 -h400, the
# maximum from the Max Latencies row, the bucket rows made tab-separated and
# cut into one file per core for gnuplot.
lj-cyclic -l2000 -m -Sp90 -i200 -h400 -q --json="$TMP/out.json" >"$TMP/output" 2>/dev/null
is "$?" 0 "OSADL's command line runs"
max=$(grep "Max Latencies" "$TMP/output" | tr " " "\n" | sort -n | tail -1 | sed s/^0*//)
want=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(t["max"] for t in d["thread"].values()))' "$TMP/out.json")
is "$max" "$want" "the plot's 'max N us' is the run's largest latency"
grep -v -e "^#" -e "^$" "$TMP/output" | tr " " "\t" >"$TMP/histogram"
bad=
for i in $(seq 1 "$ncpus"); do
	cut -f1,$((i + 1)) "$TMP/histogram" >"$TMP/histogram$i"
	python3 - "$TMP/histogram$i" "$TMP/out.json" $((i - 1)) <<'PY' || bad="$bad $i"
import json, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()]
t = json.load(open(sys.argv[2]))["thread"][sys.argv[3]]
assert len(rows) == 400 and all(len(r) == 2 for r in rows), "not 400 rows of 2 fields"
got = {int(b): int(n) for b, n in rows if int(n)}
want = {int(b): n for b, n in t["histogram"].items() if n}
assert got == want, (got, want)
PY
done
ok $([ -z "$bad" ]; echo $?) "each core's file holds 400 classes of 2 fields, the run's counts${bad:+ (not core$bad)}"
if command -v gnuplot >/dev/null; then
	sum=$(gnuplot -e "set print '-'; stats '$TMP/histogram1' using 2 nooutput; print int(STATS_sum)" 2>/dev/null)
	want=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["thread"]["0"]["histogram"].values()))' "$TMP/out.json")
	is "$sum" "$want" "gnuplot reads core 1's file: its samples are the run's"
else
	skip 1 "gnuplot not installed"
fi

# --- ChromiumOS's cyclictest runner: --verbose, the intervals equal
# (--distance=0), its policy and priority as options; its parse needs exit 0.
cros=(--verbose --distance=0 --policy=rr --interval=1000 --threads=2 --loops=300)
lj-cyclic "${cros[@]}" --priority=20 --json="$TMP/out.json" >"$TMP/out" 2>/dev/null
is "$?" 0 "ChromiumOS's command line (SCHED_RR) exits 0"
judge chromeos "ChromiumOS reads every sample of each thread: count, min and max the run's"
# Its CFS case: --policy=other under nice, no priority.
nice -n 10 lj-cyclic --verbose --distance=0 --policy=other --interval=1000 --threads=2 --loops=300 \
	--json="$TMP/out.json" >"$TMP/out" 2>/dev/null
judge chromeos "ChromiumOS's CFS case (--policy=other under nice) reads as the run's"
# --tracemark --breaktrace: the break value added to the breaking thread.
lj-cyclic "${cros[@]}" --tracemark --breaktrace=1 --priority=20 --json="$TMP/out.json" >"$TMP/out" 2>"$TMP/err"
is "$?" 0 "with --tracemark --breaktrace it still exits 0"
judge chromeos "ChromiumOS finds the breaking thread by its id and adds the break value to it"
kept=$(sed -n 's/^## trace stopped at the break, kept in \([^ ]*\) .*/\1/p' "$TMP/err")
[ -n "$kept" ] && rmdir "$kept" 2>/dev/null
peer_judge chromeos "the ChromiumOS reader reads cyclictest's own --verbose output" "${cros[@]}" --priority=20

# --- hackbench as rteval's load ('-P -g <3 per CPU> -l 1000 -s 1000', rerun whenever it
# exits) and as the older shellpacks and farm scripts read it: the number after "Time:".
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	lj-hackbench -P -g $((3 * ncpus)) -l 1000 -s 1000 --json="$TMP/hb.json" >"$TMP/hb" 2>/dev/null
	is "$?" 0 "rteval's hackbench load command line runs to its end, exit 0"
	t=$(grep '^Time:' "$TMP/hb" | awk '{print $2}')
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
# Milliseconds truncated, as hackbench prints them (docs/lj-hackbench.md).
assert 0 <= d["results"][0]["time_ns"] - round(float(sys.argv[2]) * 1e9) < 1e6, (sys.argv[2], d["results"][0]["time_ns"])' \
		"$TMP/hb.json" "$t" 2>/dev/null
	ok $? "the Time: a script reads ($t s) is the run's time"
else
	skip 2 "lj-hackbench not built"
fi

# --- the readers refuse a run whose figures are not the text's.
python3 - "$TMP/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["thread"]["1"]["max"] += 1
json.dump(d, open(sys.argv[1], "w"))
PY
python3 "$READ" chromeos "$TMP/out" "$TMP/out.json" >/dev/null 2>&1
ok $((! $?)) "the reader refuses a maximum that is not the one it read"

done_testing
