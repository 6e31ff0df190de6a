#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-display.t - what lj-compare's rows show: a ratio metric (lj-frame's drop_rate) with
# its own values and unit while its test pools the dropped frames, and every value with
# three significant digits (throughput as 792220 msgs/s, not 792220.29).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-compare not built in $LJ_BUILD"
plan 8

# run DIR N DROPPED RATE: one frame run of 60 frames with DROPPED of them dropped, RATE msgs/s
run() {
	mkdir -p "$1"
	"$FAKE" --metric "drop_rate=$(awk -v d="$3" 'BEGIN { printf "%.17g", d / 60 }'):ratio:lower" \
		--metric frames=60:frames:none --metric "dropped=$3:frames:lower" \
		--metric "msgs_per_s=$4:1/s:higher" --json "$1/run-$2.json" >/dev/null
}
i=0
for d in 7 0 0 0 0; do i=$((i + 1)); run "$TMP/a" $i $d $((792000 + i * 55)).29; done
i=0
for d in 9 8 10 7 9; do i=$((i + 1)); run "$TMP/b" $i $d $((701000 + i * 37)).61; done

run_rc lj-compare --metrics drop_rate,msgs_per_s "$TMP/a" "$TMP/b"
is "$rc" 0 "the comparison runs"
# a: rates 7/60, 0, 0, 0, 0: mean 0.02333, max 0.1167 (not 1.40 and 7.00 dropped frames)
grep -q '^Amean     drop_rate  *0\.0233  *0\.143 ' "$TMP/out" && grep -q '^Max       drop_rate  *0\.117  *0\.167 ' "$TMP/out"
ok $? "drop_rate's rows show its own values, the share of frames dropped"
grep -q '^p(rate)   drop_rate .*\[ratio, lower is better\]' "$TMP/out"
ok $? "with its unit, and tested as a rate (p(rate))"
# pooled: 7 of 300 frames against 43 of 300: the rate ratio 43/7
grep -q '^Shift     drop_rate  *- *x6\.14 \[' "$TMP/out"
ok $? "its test pools the dropped frames: rate ratio 43/7 = 6.14"
json=$(lj-compare --format json --metrics drop_rate "$TMP/a" "$TMP/b")
is "$(echo "$json" | jq -r '.rows[0].sets[0] | "\(.mean * 100000 | round) \(.max * 10000 | round) \(.events) \(.exposure)"')" \
	"2333 1167 7 300" "JSON: the mean and max are rates, events and exposure the pooled counts"
grep -q '^Amean     msgs_per_s  *792165  *701112 ' "$TMP/out"
ok $? "throughput with three significant digits but its integer part: 792165 msgs/s, no decimals"
# sig3 LINE...: the most significant digits any number with a fractional part shows
sig3() { grep -E '^(Min|Amean|Stddev|CoeffVar|Max) ' | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]*\.[0-9]+$/) {
	d = $i; sub(/\./, "", d); sub(/^0+/, "", d); if (length(d) > m) m = length(d) } } END { print m + 0 }'; }
is "$(sig3 <"$TMP/out")" 3 "a value with decimals has three significant digits (0.0233, 87.0, 0.00834)"
is "$(lj-compare --format csv --metrics msgs_per_s "$TMP/a" "$TMP/b" | awk -F, 'NR == 2 { print $9 }')" "792165.29" \
	"CSV keeps every digit"
exit $((_tap_fail > 0))
