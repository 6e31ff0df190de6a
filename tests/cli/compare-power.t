#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-power.t - lj-compare --perf-power on fixture run sets: the table, the lowest energy that holds, the CSV for lj-plot.
. "$(dirname "$0")/lib.sh"

[ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-compare not built"
command -v python3 >/dev/null || skip_all "no python3 to write the fixture sets"
tmpl=$(ls "$LJ_SRC"/tests/fixtures/compare/base/cyclic/cgroup=off/run-1.json)

# Three governor sets of lj-frame-like results: percentage_smooth and energy_per_frame_mj per run.
# performance: smooth 99.5, 99.7 / 9, 11 mJ; schedutil: 99.0, 99.2 / 6, 7; powersave: 80, 82 / 3, 4
mkset() {	# mkset NAME SMOOTH1 ENERGY1 SMOOTH2 ENERGY2
	mkdir -p "$TMP/$1"
	python3 - "$tmpl" "$TMP/$1" "$2" "$3" "$4" "$5" <<'EOPY'
import json, sys
t, d = json.load(open(sys.argv[1])), sys.argv[2]
for i, (s, e) in enumerate([(sys.argv[3], sys.argv[4]), (sys.argv[5], sys.argv[6])]):
    t["tool"] = "lj-frame"
    t["summary"] = {"percentage_smooth": {"value": float(s), "unit": "%", "better": "higher"},
                    "energy_per_frame_mj": {"value": float(e), "unit": "mJ", "better": "lower"}}
    json.dump(t, open("%s/run-%d.json" % (d, i + 1), "w"))
EOPY
}
mkset performance 99.5 9 99.7 11
mkset schedutil 99.0 6 99.2 7
mkset powersave 80 3 82 4

run_rc lj-compare --perf-power percentage_smooth,energy_per_frame_mj,99 --perf-power-csv "$TMP/pp.csv" \
	"$TMP/performance" "$TMP/schedutil" "$TMP/powersave"
is "$rc" 0 "--perf-power: exit 0"
grep -q "^perf/power: percentage_smooth (%, higher better) against energy_per_frame_mj (mJ, lower better), holding percentage_smooth >= 99" "$TMP/out"
ok $? "the header names both metrics, their directions and the limit"
grep -Eq "schedutil +99\.100 +6\.500  <- lowest energy that holds" "$TMP/out"; ok $? "schedutil: means 99.1 % and 6.5 mJ, the lowest energy that holds 99 %"
grep -Eq "powersave +81\.000 +3\.500  \(does not hold\)" "$TMP/out"; ok $? "powersave: cheapest, but does not hold"
grep -Eq "performance +99\.600 +10\.000$" "$TMP/out"; ok $? "performance: holds, costs more"
is "$(grep -c ',1$' "$TMP/pp.csv")" 1 "the CSV marks one best point"
is "$(sed -n 1p "$TMP/pp.csv")" "label,perf,energy,best" "the CSV header"

run_rc lj-compare --perf-power percentage_smooth,energy_per_frame_mj "$TMP/performance" "$TMP/schedutil" "$TMP/powersave"
grep -Eq "powersave +81\.000 +3\.500  <- lowest energy that holds" "$TMP/out"; ok $? "no limit: the lowest energy of all"
run_rc lj-compare --perf-power percentage_smooth "$TMP/performance"
is "$rc" 2 "--perf-power without an energy metric: usage error"
run_rc lj-compare --perf-power fps,energy_j "$TMP/performance" "$TMP/schedutil"
is "$rc" 2 "metrics no set has: exit 2"
grep -q "no workload has both fps and energy_j" "$TMP/err"; ok $? "...said in one line"

if [ -x "$LJ_SRC/scripts/lj-plot" ] && command -v gnuplot >/dev/null; then
	run_rc "$LJ_SRC/scripts/lj-plot" -o "$TMP/plots" perfpower "$TMP/pp.csv"
	is "$rc" 0 "lj-plot perfpower: exit 0"
	ok "$([ -s "$TMP/plots/perfpower.png" ] && echo 0 || echo 1)" "...writes perfpower.png"
	[ -n "$POWER_KEEP" ] && cp "$TMP/plots/perfpower.png" "$POWER_KEEP/"
else
	skip 2 "lj-plot or gnuplot missing"
fi
done_testing
