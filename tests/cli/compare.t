#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare.t - lj-compare on the synthetic fixtures with known answers: significance, noise,
# bimodality, --by, identity header, formats, the gate's exit codes, --validate.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-compare not built in $LJ_BUILD"

# The fixtures are what the generator writes: the known answers below hold for them.
"$FIX/generate" "$TMP/gen"
diff -r "$FIX/base" "$TMP/gen/base" >/dev/null && diff -r "$FIX/bimodal" "$TMP/gen/bimodal" >/dev/null &&
	diff -r "$FIX/byaxis" "$TMP/gen/byaxis" >/dev/null && diff -r "$FIX/shifted" "$TMP/gen/shifted" >/dev/null &&
	diff -r "$FIX/noise" "$TMP/gen/noise" >/dev/null
ok $? "the fixtures are reproduced by tests/fixtures/compare/generate"

# --- a real 10% shift: significant, worse (lower is better), about +10%
run_rc lj-compare --metrics mean,max "$FIX/base" "$FIX/shifted"
is "$rc" 0 "comparison without a gate exits 0"
grep -q '^Amean     mean  .*(  +9\.[0-9][0-9]%)$' "$TMP/out" &&
	grep -q '^Shift     mean  .* x1\.092 \[1\.079, 1\.108\]\*$' "$TMP/out"
# R: wilcox.test(log(shifted), log(base), conf.int = TRUE): exp gives 1.0918 [1.0789, 1.1080]
ok $? "the 10% shift: mean +9.14%, the Hodges-Lehmann ratio on the log scale x1.092 with its interval, significant"
grep -q '^p(MWU)    mean .* 0\.000155 adj 0\.000311 \* worse' "$TMP/out"
ok $? "its p-value (exact, 8 vs 8), Holm-adjusted over the 2 rows, and verdict"
grep -q 'significant at alpha 0.05 after the Holm (family-wise) adjustment' "$TMP/out" &&
	grep -q 'Mann-Whitney U, two-sided' "$TMP/out"
ok $? "the output names the test, the adjustment and alpha"
grep -q '^Runs      mean  *8  *8$' "$TMP/out"
ok $? "the output states n per set"
grep -q '^  kernel.release: 6.1.0 -> 6.18.0$' "$TMP/out" && grep -q '^  preempt.model: none -> full$' "$TMP/out"
ok $? "the header lists the identity fields that differ"

grep -q '^Median    max  *1929 \[1294, 2425\]  *2379 \[1649, 2977\]$' "$TMP/out"
ok $? "a tail metric (max) gets the median over the runs with its order-statistic interval, in us"
! grep -q '^Median    mean ' "$TMP/out"
ok $? "...a mean does not"

# --- pure noise: not significant
run_rc lj-compare --metrics mean "$FIX/base" "$FIX/noise"
grep -q '^Amean .*%)$' "$TMP/out" && ! grep -q '\*$' "$TMP/out"
ok $? "noise is not marked significant"
! grep -q 'system identity' "$TMP/out"
ok $? "identical systems print no identity header"

# --- bimodal runs are flagged
run_rc lj-compare --metrics mean "$FIX/base" "$FIX/bimodal"
grep -q '! bimodal mean: runs look bimodal' "$TMP/out"
ok $? "the bimodal set is flagged"
! grep -q '! base mean: runs look bimodal' "$TMP/out"
ok $? "the unimodal set is not"
grep -q '! bimodal mean: coeffvar .* more repetitions needed' "$TMP/out"
ok $? "a high coeffvar is flagged with a note"

# --- --by pivots one run on an axis
run_rc lj-compare --by cgroup --metrics mean "$FIX/byaxis"
grep -q 'cgroup=off  *cgroup=on$' "$TMP/out" && grep -q '^Shift .*\*$' "$TMP/out"
ok $? "--by cgroup compares off against on, and finds the shift"
run_rc lj-compare --by governor "$FIX/byaxis"
is "$rc" 2 "--by an axis the run lacks is bad input"
run_rc lj-compare --by cgroup "$FIX/base" "$FIX/noise"
is "$rc" 2 "--by takes one run"

# --- the gate
run_rc lj-compare --fail-on 'cyclic.mean>+5%' "$FIX/base" "$FIX/shifted"
is "$rc" 3 "a significant rise beyond the rule exits 3"
grep -q "gate failed: cyclic.mean>+5%: cyclic \[cgroup=off\] mean: +9" "$TMP/err"
ok $? "the failing rule is listed"
run_rc lj-compare --fail-on 'cyclic.mean>+20%' "$FIX/base" "$FIX/shifted"
is "$rc" 0 "a rise below the threshold passes"
run_rc lj-compare --fail-on 'cyclic.max>+1%' --fail-on '*.mean>+1%' "$FIX/base" "$FIX/noise"
is "$rc" 0 "noise does not fail the gate, whatever the threshold"
run_rc lj-compare --fail-on 'cyclic.mean<-5%' "$FIX/shifted" "$FIX/base"
is "$rc" 0 "a '<' rule on a lower-is-better metric: the significant fall is an improvement, passes"
run_rc lj-compare --fail-on 'cyclic.mean>+5%' "$FIX/shifted" "$FIX/base"
is "$rc" 0 "a '>' rule does not fire on a significant fall"
run_rc lj-compare --fail-on 'cyclic.nosuch>+5%' "$FIX/base" "$FIX/shifted"
is "$rc" 2 "a rule naming no metric (a typo) is a usage error"
grep -q "fail-on 'cyclic.nosuch>+5%': no result has metric 'nosuch'" "$TMP/err"
ok $? "...naming the rule"
run_rc lj-compare --fail-on 'cyclic.mean+5' "$FIX/base"
is "$rc" 2 "a malformed rule is a usage error"

# --- formats
run_rc lj-compare --format csv "$FIX/base" "$FIX/shifted"
head -1 "$TMP/out" | grep -q '^workload,cell,metric,unit,better,set,n,min,mean,stddev,coeffvar,max,pct_mean,shift_pct,shift_lo_pct,shift_hi_pct,p,p_adj,significant'
ok $? "csv header"
is "$(grep -c '^cyclic,cgroup=off,' "$TMP/out")" 4 "csv: one line per metric and set"
run_rc lj-compare --format json "$FIX/base" "$FIX/shifted"
json_ok "$TMP/out"
ok $? "json output parses"
perl -MJSON::PP -0777 -ne '$d = decode_json($_); ($r) = grep { $_->{metric} eq "mean" } @{ $d->{rows} };
	exit !($r->{sets}[1]{significant} && $r->{sets}[1]{n} == 8 && $d->{test} =~ /mann-whitney/)' "$TMP/out"
ok $? "json: significance, n and the test"
run_rc lj-compare --format markdown "$FIX/base" "$FIX/shifted"
grep -q '^| stat | metric | base | shifted |$' "$TMP/out"
ok $? "markdown table header"
grep -q '^| Runs | mean (us, lower is better) | 8 | 8 |$' "$TMP/out" && grep -q '^| Median | max | 1929 \[1294, 2425\] | 2379 \[1649, 2977\] |$' "$TMP/out"
ok $? "markdown: the unit shown (us) on the Runs row, and a tail's Median row"
run_rc lj-compare --lava --fail-on 'cyclic.mean>+5%' "$FIX/base" "$FIX/shifted"
grep -q '^lava-test-case cyclic_cgroup_off_mean --result fail --measurement [0-9.e+]* --units ns$' "$TMP/out" &&
	grep -q '^lava-test-case cyclic_cgroup_off_max --result pass ' "$TMP/out"
ok $? "--lava prints lava-test-case lines with the gate's verdict"
run_rc lj-compare --format yaml "$FIX/base"
is "$rc" 2 "an unknown format is a usage error"

# --- directories of plain result files (no manifest)
mkdir -p "$TMP/plain"
cp "$FIX"/base/cyclic/cgroup=off/run-*.json "$TMP/plain/"
run_rc lj-compare --metrics mean "$TMP/plain" "$FIX/shifted"
grep -q '^cyclic$' "$TMP/out"
ok $? "result files without a manifest group by tool"

# --- --metrics names a metric no result has: say which, and what there is
run_rc lj-compare --metrics mean,bogus "$FIX/base"
is "$rc" 2 "--metrics with an unknown metric is bad input"
grep -qx "lj-compare: --metrics: no result has metric 'bogus' (they have: max, mean)" "$TMP/err"
ok $? "...naming the metric and listing those the results have"

# --- a document --validate refuses (a summary value of the wrong type) is skipped whole,
# with one warning naming the file and the reason; the valid ones are compared
mkdir -p "$TMP/wrongtype"
for n in 1 2; do
	jq '.summary.mean.value = "100" | .summary.p99 = {value: true} | .summary.freq = {value: null}' \
		"$FIX"/base/cyclic/cgroup=off/run-$n.json >"$TMP/wrongtype/run-$n.json"
done
cp "$FIX"/base/cyclic/cgroup=off/run-3.json "$TMP/wrongtype/"
run_rc lj-compare "$TMP/wrongtype"
is "$rc" 0 "results beside invalid documents still compare"
is "$(grep -c 'warning: .*/wrongtype/run-[12].json: skipped: summary.mean.value: string, expected a number or null$' "$TMP/err")" 2 \
	"one warning per invalid file, naming the key and the problem"
grep -q '(1 results[):]' "$TMP/out" && grep -q '^Amean     mean ' "$TMP/out"
ok $? "only the valid document is compared"

# --- 3 vs 3 runs cannot be judged: exit 4, a skip LAVA line with the reason
mkdir -p "$TMP/three_a" "$TMP/three_b"
cp "$FIX"/base/cyclic/cgroup=off/run-[123].json "$TMP/three_a/"
cp "$FIX"/shifted/cyclic/cgroup=off/run-[123].json "$TMP/three_b/"
run_rc lj-compare --fail-on 'cyclic.mean>+5%' "$TMP/three_a" "$TMP/three_b"
is "$rc" 4 "3 vs 3 runs: the rule cannot be judged, exit 4"
grep -q "gate cannot judge: cyclic.mean>+5%: .*3 vs 3 runs: the smallest possible p is 0.1" "$TMP/err"
ok $? "...with the reason"
run_rc lj-compare --lava --fail-on 'cyclic.mean>+5%' "$TMP/three_a" "$TMP/three_b"
grep -q '^lava-test-case cyclic_mean --result skip$' "$TMP/out" &&
	grep -q '^# cyclic_mean: skip: cannot judge: cyclic.mean>+5%: 3 vs 3 runs' "$TMP/out"
ok $? "--lava: a skip line and its reason"
run_rc lj-compare --cannot-judge-ok --fail-on 'cyclic.mean>+5%' "$TMP/three_a" "$TMP/three_b"
is "$rc" 0 "--cannot-judge-ok: exit 0"
run_rc lj-compare --fail-on 'cyclic.p99>+5%' "$FIX/base" "$TMP/plain"
is "$rc" 2 "a metric no set has is a usage error"

# --- NaN / Infinity: rejected by --validate, skipped in comparisons with a warning; failed runs left out
mkdir -p "$TMP/nan"
cp "$FIX"/base/cyclic/cgroup=off/run-*.json "$TMP/nan/"
perl -0pi -e 's/("mean":\{[^}]*"value":)[0-9.e+-]+/${1}NaN/' "$TMP/nan/run-1.json"
perl -0pi -e 's/("max":\{[^}]*"value":)[0-9.e+-]+/${1}Infinity/' "$TMP/nan/run-2.json"
perl -0pi -e 's/"exit_code":0/"exit_code":1/' "$TMP/nan/run-3.json"
run_rc lj-compare --validate "$TMP/nan/run-1.json"
is "$rc" 2 "--validate rejects a NaN summary value"
grep -q "run-1.json: invalid: summary metric 'mean' is NaN" "$TMP/out"
ok $? "...naming the metric"
run_rc lj-compare "$TMP/plain" "$TMP/nan"
grep -q "warning: .*nan/run-1.json: summary metric 'mean' is NaN: skipped" "$TMP/err" &&
	grep -q "warning: .*nan/run-2.json: summary metric 'max' is infinite: skipped" "$TMP/err"
ok $? "NaN and Infinity are skipped with a warning naming the file and metric"
grep -q '^Runs      mean  *8  *6$' "$TMP/out" && grep -q '^Runs      max  *8  *6$' "$TMP/out"
ok $? "the bad value and the failed run are left out of the counts"
grep -q 'note: 1 run left out: exit_code not 0' "$TMP/out"
ok $? "the failed run is noted"
run_rc lj-compare --include-failed "$TMP/plain" "$TMP/nan"
grep -q '^Runs      mean  *8  *7$' "$TMP/out"
ok $? "--include-failed keeps it"

# --- one run: its spread is unknown, not 0
mkdir -p "$TMP/one"
cp "$FIX"/base/cyclic/cgroup=off/run-1.json "$TMP/one/"
run_rc lj-compare --metrics mean "$TMP/plain" "$TMP/one"
grep -q '^Stddev    mean  .*  -$' "$TMP/out" && grep -q '^CoeffVar  mean  .*  -$' "$TMP/out"
ok $? "n = 1: Stddev and CoeffVar print '-'"
run_rc lj-compare --metrics mean --format json "$TMP/plain" "$TMP/one"
perl -MJSON::PP -0777 -ne '$d = decode_json($_); $s = $d->{rows}[0]{sets}[1];
	exit !($s->{n} == 1 && !defined $s->{stddev} && !defined $s->{coeffvar})' "$TMP/out"
ok $? "n = 1: stddev and coeffvar are null in JSON"

# --- --plan: runs needed at the observed noise
run_rc lj-compare --plan 5 "$FIX/base" "$FIX/bimodal"
is "$rc" 0 "--plan exits 0"
grep -q '^cyclic  *cgroup=off  *mean  *5 (cv 1.3%)  *600 (cv 27%)$' "$TMP/out"
ok $? "--plan: 5 runs at cv 1.3%, 600 at cv 27% (Holm over 2 rows: alpha 0.025)"

# --- a rise from a zero baseline: dropped 0 x5 -> 7, 8, 9, 11, 12 of 600 frames per run
mkdir -p "$TMP/z0" "$TMP/z1"
set -- 7 8 9 11 12
for i in 1 2 3 4 5; do
	for d in 0 1; do
		v=0; [ $d = 1 ] && v=${!i}
		jq -c --argjson v "$v" '.tool = "lj-frame" | .summary = {frames: {value: 600, unit: "frames", better: "none"},
			dropped: {value: $v, unit: "frames", better: "lower"}}' \
			"$FIX"/base/cyclic/cgroup=off/run-$i.json >"$TMP/z$d/run-$i.json"
	done
done
run_rc lj-compare --fail-on 'frame.dropped>+10%' "$TMP/z0" "$TMP/z1"
is "$rc" 3 "a rise of dropped frames from a zero baseline fails the gate"
grep -q '^Shift     dropped .* 0 -> 9.4/run, +1.57% of frames\*$' "$TMP/out"
ok $? "...shown as an absolute change from 0, per run and of the frames, marked significant"
grep -q '^p(rate)   dropped .* \* worse' "$TMP/out"
ok $? "...tested on the pooled counts, and called worse"

# --- validity verdicts: shown per set, a mix of valid and other runs warned about
mkdir -p "$TMP/va" "$TMP/vb"
for f in "$FIX"/base/cyclic/cgroup=off/run-*.json; do
	jq -c '.validity = {verdict: "valid", reasons: []}' "$f" >"$TMP/va/${f##*/}"
done
for f in "$FIX"/shifted/cyclic/cgroup=off/run-*.json; do
	n=${f##*/run-}; n=${n%.json}
	v=valid; [ "$n" -le 2 ] && v=suspect
	jq -c --arg v "$v" '.validity = {verdict: $v, reasons: []}' "$f" >"$TMP/vb/${f##*/}"
done
run_rc lj-compare --metrics mean "$TMP/va" "$TMP/vb"
grep -q '^  va: .* (8 results: 8 valid)$' "$TMP/out" && grep -q '^  vb: .* (8 results: 6 valid, 2 suspect)$' "$TMP/out"
ok $? "each set's runs by validity verdict"
grep -q 'warning: the comparison mixes valid runs with suspect or invalid ones' "$TMP/err"
ok $? "a mix of valid and suspect runs is warned about"
grep -q 'warning: va and vb differ in 2 identity fields (kernel.release, preempt.model)' "$TMP/err"
ok $? "identity differences beyond the compared one are warned about"
run_rc lj-compare --metrics mean "$TMP/va" "$TMP/va"
! grep -q 'warning' "$TMP/err"
ok $? "all valid and one identity: no warning"
mkdir -p "$TMP/qos"
for f in "$TMP"/va/run-*.json; do
	jq -c '.setup.applied = [{what: "cpu_dma_latency", value: "0 us"}, {what: "reporter_cpu", value: "CPU 1"}]' "$f" >"$TMP/qos/${f##*/}"
done
run_rc lj-compare --metrics mean "$TMP/va" "$TMP/qos"
grep -q "warning: the runs' setup differs beyond the compared axis: - only in va; cpu_dma_latency=0 us only in qos" "$TMP/err"
ok $? "PM QoS held on one side only is warned about (the reporter's CPU is not setup)"

# --- --plan: how long each run must be for a tail quantile (2000 samples in 2 s: 1000/s)
mkdir -p "$TMP/tail"
for f in "$FIX"/base/cyclic/cgroup=off/run-*.json; do
	jq -c '.duration_ns = 2000000000 | .summary = {p99_9: {value: .summary.mean.value, unit: "ns", better: "lower"},
		samples: {value: 2000, unit: "count", better: "none"}}' "$f" >"$TMP/tail/${f##*/}"
done
run_rc lj-compare --plan 10 "$TMP/tail"
grep -q "! p99_9: each run needs >= 3688 samples: >= 3.7 s at the 1000 samples/s of 'tail' (its runs had fewer)" "$TMP/out"
ok $? "--plan: a p99.9 needs 3688 samples per run: 3.7 s at the rate seen"
run_rc lj-compare "$TMP/tail"
grep -q "! p99_9 needs >= 3688 samples per run for a 97.5% upper bound from data; 'tail' has 2000" "$TMP/out"
ok $? "the table flags a p99.9 from too few samples"

# --- validate
run_rc lj-compare --validate "$FIX"/base/cyclic/cgroup=off/run-1.json
is "$rc" 0 "--validate accepts a valid result"
echo '{"schema": "ljkit-result/1"}' >"$TMP/bad.json"
run_rc lj-compare --validate "$FIX"/base/cyclic/cgroup=off/run-1.json "$TMP/bad.json"
is "$rc" 2 "--validate exits 2 when a file is invalid"
grep -q "bad.json: invalid: " "$TMP/out"
ok $? "and names the file and the problem"
run_rc lj-compare "$TMP/none"
is "$rc" 2 "a missing set is bad input"

done_testing
