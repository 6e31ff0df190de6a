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
run_rc lj-compare --metrics mean "$FIX/base" "$FIX/shifted"
is "$rc" 0 "comparison without a gate exits 0"
grep -q '^Amean     mean  .*(  +9\.[0-9][0-9]%)\*$' "$TMP/out"
ok $? "the 10% shift is shown as about +9-10% and marked significant"
grep -q '^p(MWU)    mean .* 0\.000155 \* worse' "$TMP/out"
ok $? "its p-value (exact, 8 vs 8) and verdict"
grep -q 'Mann-Whitney U test, two-sided, alpha 0.05' "$TMP/out"
ok $? "the output names the test and alpha"
grep -q '^Runs      mean  *8  *8$' "$TMP/out"
ok $? "the output states n per set"
grep -q '^  kernel.release: 6.1.0 -> 6.18.0$' "$TMP/out" && grep -q '^  preempt.model: none -> full$' "$TMP/out"
ok $? "the header lists the identity fields that differ"

# --- pure noise: not significant
run_rc lj-compare --metrics mean "$FIX/base" "$FIX/noise"
grep -q '^Amean .*%) $' "$TMP/out" && ! grep -q '\*$' "$TMP/out"
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
grep -q 'cgroup=off  *cgroup=on$' "$TMP/out" && grep -q '^Amean .*\*$' "$TMP/out"
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
is "$rc" 3 "a '<' rule fails on a significant fall"
run_rc lj-compare --fail-on 'cyclic.nosuch>+5%' "$FIX/base" "$FIX/shifted"
ok $(( rc != 0 )) "a rule matching nothing does not fail"
grep -q "rule 'cyclic.nosuch>+5%' matches no metric" "$TMP/err"
ok $? "but it is warned about"
run_rc lj-compare --fail-on 'cyclic.mean+5' "$FIX/base"
is "$rc" 2 "a malformed rule is a usage error"

# --- formats
run_rc lj-compare --format csv "$FIX/base" "$FIX/shifted"
head -1 "$TMP/out" | grep -q '^workload,cell,metric,unit,better,set,n,min,mean,stddev,coeffvar,max,pct_mean,p,significant'
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
grep -q '(1 results)' "$TMP/out" && grep -q '^Amean     mean ' "$TMP/out"
ok $? "only the valid document is compared"

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
