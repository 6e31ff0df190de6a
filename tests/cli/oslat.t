#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# oslat.t - lj-oslat: oslat's options and lines, its result document with oslat's keys and
# numbers that agree with its text to the microsecond, the verdict, --power and --explain that
# the driver gives it, -T's break; the known answer: each spin of a pinned SCHED_FIFO 99
# spinner is a gap of the busy loop on its CPU, found by the spinner's own timestamps and
# explained as the spinner's; lj-compare --headline shows its runs.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-oslat" ] || skip_all "lj-oslat not built in $LJ_BUILD"
command -v jq >/dev/null || skip_all "jq not installed"
export LJ_RESULT_NO_SYSINFO=1
CPU=$(( $(nproc) - 1 ))
TAB=$'\t'

usage() {	# usage ARGS...: exit 2 with one "lj-oslat: " line
	run_rc lj-oslat "$@"
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q '^lj-oslat: ' "$TMP/err"; then
		ok 0 "usage error: $*"
	else
		ok 1 "usage error: $*"
		diag "exit $rc: $(head -2 "$TMP/err")"
	fi
}

run_rc lj-oslat --help
is "$rc" 0 "--help exits 0"
for o in --bucket-size --bias --cpu-list --cpu-main-thread --duration --rtprio --workload-mem --quiet \
	--single-preheat --trace-threshold --workload --zero-omit --json --preheat --explain --power --strict; do
	grep -q -- "$o" "$TMP/out" || { diag "--help lacks $o"; false; }
done
ok $? "--help lists oslat's options, ljkit's and the shared setup options (--power, --strict)"
run_rc lj-oslat -v
ok $(( rc != 0 )) "-v prints the version and exits 0, as oslat's"

usage -b 3
usage -b 1025
usage -f 0
usage -f 100
usage -D 0
usage -w foo
usage -m 0
usage -T 0
usage -c 99999
usage -B --preheat 0
usage extra-argument

# oslat's lines, and the same numbers in the document (exact arithmetic on the buckets).
run_rc lj-oslat -c "$CPU" -D 0.5 --preheat 0.1 --json "$TMP/a.json"
is "$rc" 0 "a half-second run on CPU $CPU exits 0"
is "$(head -1 "$TMP/out")" "oslat V 2.40" "it opens with oslat's version line"
ok $(grep -c "^Total runtime: $TAB${TAB}0.500 seconds\$\|^CPU list: $TAB$TAB$CPU\$\|^Pre-heat for 0.100 seconds...\$\|^Test starts...\$\|^Test completed.\$" \
	"$TMP/out" | awk '{ print $1 != 5 }') "oslat's settings block and progress lines"
sed -n "s/^ *\([0-9][0-9][0-9]\) (us):$TAB \([0-9]*\)\( (including overflows)\)\?\$/\1 \2/p" "$TMP/out" >"$TMP/buckets"
is "$(wc -l <"$TMP/buckets") $(head -1 "$TMP/buckets" | cut -d' ' -f1) $(tail -1 "$TMP/buckets" | cut -d' ' -f1)" \
	"32 001 032" "32 bucket lines labelled 001 to 032"
grep -q "^    032 (us):$TAB [0-9]* (including overflows)\$" "$TMP/out"
ok $? "...the last one including the overflows"
grep -q "^        Core:$TAB $CPU\$" "$TMP/out" && grep -q "^Counter Freq:$TAB 1000 (Mhz)\$" "$TMP/out"
ok $? "Core and Counter Freq lines (the ns clock: 1000 ticks per us)"
field() { sed -n "s/^ *$1:$TAB \([0-9.]*\) (.*/\1/p" "$TMP/out"; }
J=$TMP/a.json
n=$(awk '{ s += $2 } END { print s }' "$TMP/buckets")
is "$n $n $n" "$(jq -r '"\(.results[0].gaps.count) \(.summary.samples.value) \([.thread["0"].histogram[]] | add)"' "$J")" \
	"the buckets add up to the gaps counted in results, summary and oslat's histogram"
is "$(field Maximum) $(field Minimum)" "$(jq -r '"\(.results[0].gaps.max_ns / 1000 | floor + 1) \(.results[0].gaps.min_ns / 1000 | floor + 1)"' "$J")" \
	"Maximum and Minimum are floor(us) + 1 of the exact max_ns and min_ns"
avg=$(awk -v ov="$(jq .results[0].buckets.overflow_us "$J")" '{ s += $2 * ($1 + 0); n += $2 } END { printf "%.3f", (s + ov) / n }' "$TMP/buckets")
is "$(field Average)" "$avg" "Average is oslat's: the labels weighted by counts, plus the overflow"
is "$(jq -c '[.num_threads, .thread["0"].cpu, .thread["0"].freq, (.thread["0"].histogram | keys | length > 0)]' "$J")" \
	"[1,$CPU,1000,true]" "oslat's --json keys: num_threads, thread[\"0\"] with cpu, freq and its histogram"
is "$(jq -c '[.validity.verdict != null, .validity.threads.checked, .params.policy]' "$J")" '[true,0,"default"]' \
	"the verdict is there; without -f the loops run as started (nothing asked, nothing read back)"
grep -q '^validity: ' "$TMP/err"; ok $? "...and on stderr"
result_validates "$J"

run_rc lj-oslat -q -z -b 1024 -c "$CPU" -D 0.3 --preheat 0
is "$(head -1 "$TMP/out")" "oslat V 2.40" "-q: the version line"
ok $(grep -c 'Total runtime\|Test starts\|Pre-heat' "$TMP/out") "...then no settings or progress lines"
grep -q '^    \.\.\.$' "$TMP/out" && grep -q "^   1024 (us):$TAB [0-9]* (including overflows)\$" "$TMP/out"
ok $? "-z: empty buckets become '    ...' lines, the last bucket stays"

run_rc lj-oslat -B -c "$CPU" -D 0.2 --preheat 0.1 -w memmove -m 4K --json "$TMP/b.json"
bias=$(sed -n 's/^Global bias set to \([0-9]*\) (us)$/\1/p' "$TMP/out")
is "$(sed -n "s/^ *\([0-9]*\) (us):$TAB.*/\1/p" "$TMP/out" | head -1)" "$(printf '%03d' $((bias + 1)))" \
	"-B: 'Global bias set to N (us)' and the first bucket is N + 1"
grep -q "^Workload: $TAB${TAB}memmove\$" "$TMP/out" && grep -q "^Workload mem: $TAB${TAB}4 (KiB)\$" "$TMP/out"
ok $? "-w memmove -m 4K in the settings block"
is "$(jq -c '[.params.bias_us, .params.workload, .params.workload_mem]' "$TMP/b.json")" "[$bias,\"memmove\",4096]" \
	"...and in params"

# -T: the first gap of 1 us or more stops the run; the result and the summary are kept.
run_rc lj-oslat -T 1 -c "$CPU" -D 5 --preheat 0 --json "$TMP/t.json"
is "$rc" 3 "-T: a gap over the threshold stops the run with exit 3"
grep -q "^lj-oslat: Trace threshold (1 us) triggered on cpu $CPU with [0-9]* us!\$" "$TMP/err" &&
	grep -q '^Stopping the test.$' "$TMP/err"
ok $? "...saying so as oslat does"
grep -q "^    Duration:$TAB " "$TMP/out" && [ "$(jq .side.break_us "$TMP/t.json")" -ge 1 ]
ok $? "...and the summary and the document are still written"
kept=$(sed -n 's/^## trace stopped at the break, kept in \(.*\) (rmdir it when done)$/\1/p' "$TMP/err")
[ -n "$kept" ] && rmdir "$kept"

if is_root; then
	# -f: the verdict reads each loop's policy back; a chrt behind the run's back is caught.
	lj-oslat -f 10 -c "$CPU" -D 3 --preheat 0 -q --json "$TMP/f.json" >"$TMP/fout" 2>"$TMP/ferr" &
	job=$!
	wait_threads "$job" 2
	tid=$(ls "/proc/$job/task" | grep -v "^$job\$" | head -1)
	chrt -f -p 5 "$tid" >/dev/null 2>&1
	wait "$job"
	is "$(jq -c '[.validity.verdict, .validity.threads.checked, .validity.threads.list[0].asked]' "$TMP/f.json")" \
		'["invalid",1,"fifo 10"]' "-f 10: the loop is read back at fifo 10; changed to fifo 5 the run is invalid"
	grep -q "^  invalid: thread $tid ran fifo 5, asked fifo 10\$" "$TMP/ferr"
	ok $? "...naming the thread"
else
	skip 2 "needs root: SCHED_FIFO"
fi

# What the driver gives it: --power and --explain, with no code of lj-oslat's own.
run_rc lj-oslat -c "$CPU" -D 0.2 --preheat 0 -q --power --explain --json "$TMP/p.json"
is "$rc" 0 "--power --explain exit 0"
is "$(jq -c '[.side.power.sources != null, (.side.explain != null or (.setup.fallbacks | map(.what) | index("explain") != null))]' "$TMP/p.json")" \
	"[true,true]" "side.power, and side.explain or the explain fallback"

if can_drop_to_nobody; then
	chmod 755 "$TMP"
	# The policy rule (docs/design.md): a refused -f measures, is invalid and exits 1 as
	# rt-tests' oslat does; --policy-fallback keeps exit 0, still invalid.
	run_rc drop_to_nobody "$LJ_BUILD/lj-oslat" -f 10 -c "$CPU" -D 0.2 --preheat 0 -q
	is "$rc" 1 "as nobody, -f 10 falls back, measures and exits 1 as oslat"
	grep -q '^lj-oslat: warning: measuring with fallbacks: sched (fifo 10 -> other: ' "$TMP/err" &&
		grep -q '^  invalid: measuring threads without their policy: sched: fifo 10 -> other: ' "$TMP/err" &&
		grep -q '^    001 (us):' "$TMP/out"
	ok $? "...the one warning names it, the verdict is invalid for it, the lines are printed"
	run_rc drop_to_nobody "$LJ_BUILD/lj-oslat" -f 10 -c "$CPU" -D 0.2 --preheat 0 -q --policy-fallback
	is "$rc" 0 "...with --policy-fallback it exits 0"
	run_rc drop_to_nobody "$LJ_BUILD/lj-oslat" -f 10 -c "$CPU" -D 0.2 --preheat 0 -q --strict
	is "$rc" 77 "...with --strict it exits 77"
else
	skip 4 "cannot run as nobody here"
fi

# The known answer: a FIFO 99 spinner pinned to CPU takes it for SPIN_US every 100 ms; each
# spin inside the measured phase lies within one of the loop's largest gaps (end_ns - gap_ns
# <= the spin's start, end_ns >= its end, all CLOCK_MONOTONIC), and --explain gives that gap's
# time to the spinner and to the interrupts that came in on it: together at least 90 % of the
# spin, the spinner alone at least half. The host may take the vCPU inside a spin, and the
# guest's trace counts that as whatever ran: the spinner's, or an interrupt's when the host
# took it inside one (CI once saw the local timer hold 1.6 ms of a 5.2 ms spin under ASan).
# Other tasks may share the gap on a loaded machine, so the spinner need not be its only cause.
# The spinner outlives the run, so the recorder reads its policy back (FIFO, not the trace's RT).
HELPER=$LJ_BUILD/t/helpers/interferer
SPIN_US=5000
if ! is_root || [ ! -x "$HELPER" ]; then
	skip 4 "needs root and tests/helpers/interferer (a SCHED_FIFO spinner)"
else
	system_lock
	spin_run() {
		"$HELPER" spin "$CPU" 99 "$SPIN_US" 100000 100 >"$TMP/helper.out" 2>&1 &
		hjob=$!
		wait_for grep -q '^ready ' "$TMP/helper.out"
		hpid=$(sed -n 's/^ready //p' "$TMP/helper.out")
		run_rc lj-oslat -c "$CPU" -D 0.9 --preheat 0 -q --explain --json "$TMP/k.json"
		kill "$hjob" 2>/dev/null
		wait "$hjob"
		spins=$(awk '/^spin /{ printf "%s[%s,%s]", (n++ ? "," : ""), $2, $3 }' "$TMP/helper.out")
		inside="(.results[0] as \$r | [[$spins][] | select(.[0] >= \$r.start_ns and .[1] <= \$r.end_ns)])"
	}
	# A machine shared with other RT work can delay the spinner or the run: one retry, saying why.
	spin_run
	if [ "$(jq "$inside | length >= 3" "$TMP/k.json" 2>/dev/null)" != true ]; then
		diag "first run: rc $rc, spinner '$(head -1 "$TMP/helper.out")', $(grep -c '^spin ' "$TMP/helper.out") spins," \
		     "measured $(jq -c '[.results[0].start_ns, .results[0].end_ns]' "$TMP/k.json" 2>&1); retrying once"
		spin_run
	fi
	is "$rc" 0 "lj-oslat beside the spinner (pid $hpid) exits 0"
	is "$(jq "$inside | length >= 3" "$TMP/k.json")" true "at least 3 spins fall inside the measured phase"
	is "$(jq "(.side.threads[0].largest) as \$g | all($inside[]; . as \$s | any(\$g[]; .end_ns >= \$s[1] and .end_ns - .gap_ns <= \$s[0]))" "$TMP/k.json")" \
		true "each of them lies within one of the CPU's largest gaps (the spinner's own timestamps)"
	if jq -e '.setup.fallbacks | map(.what) | index("explain") != null' "$TMP/k.json" >/dev/null; then
		skip 1 "tracing not possible here: $(jq -c .setup.fallbacks "$TMP/k.json")"
	else
		explained=$(jq ".side.explain as \$x | all($inside[]; . as \$s | any(\$x.explanations[];
			\$x.t0_ns + .at_ns <= \$s[0] and \$x.t0_ns + .at_ns + .latency_ns >= \$s[1] and
			([.causes[] | select(.pid == $hpid and .name == \"interferer\" and .sched == \"FIFO 99\")
			  | .ns] | add // 0) as \$spinner |
			([.causes[] | select(.kind == \"irq\" or .kind == \"softirq\") | .ns] | add // 0) as \$irqs |
			\$spinner >= (\$s[1] - \$s[0]) * 0.5 and
			\$spinner + \$irqs >= (\$s[1] - \$s[0]) * 0.9))" "$TMP/k.json")
		is "$explained" true "--explain: the gap around each spin is explained, the spinner (FIFO 99) and the interrupts on it for its spin"
		[ "$explained" = true ] ||
			diag "spins [start, end] and the explanations containing them (latency, the spinner's ns):" \
			     "$(jq -c ".side.explain as \$x | [$inside[] | . as \$s | {spin: \$s, by: [\$x.explanations[] |
				select(\$x.t0_ns + .at_ns <= \$s[0] and \$x.t0_ns + .at_ns + .latency_ns >= \$s[1]) |
				{latency_ns, causes: [.causes[] | {kind, name, ns}]}]}]" "$TMP/k.json")"
	fi
	exec 9<&-
fi

# lj-matrix stores its runs and lj-compare --headline shows them (never dropped).
if [ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-compare" ]; then
	printf '[matrix]\nrepeat = 1\nwarmup = 0\ncgroup = off\n\n[workload oslat]\ncommand = lj-oslat -c %s -D 0.2 --preheat 0 -q\n' \
		"$CPU" >"$TMP/o.scn"
	mrun=$(lj-matrix -o "$TMP/store" -t o "$TMP/o.scn" 2>"$TMP/merr")
	run_rc lj-compare --headline "$mrun"
	grep -qE '^  OS noise \(oslat, default\) +p99\.9 [0-9.]+ us  p99\.99 [0-9.]+ us  max [0-9.]+ us +(valid|suspect|invalid) ' "$TMP/out"
	ok $? "lj-compare --headline: OS noise p99.9, p99.99 and max in us, with the verdict"
	run_rc lj-compare "$mrun"
	grep -q '^oslat' "$TMP/out" && grep -qE '^Max +max ' "$TMP/out"
	ok $? "lj-compare's table has the oslat workload's rows"
else
	skip 2 "lj-matrix or lj-compare not built"
fi

done_testing
