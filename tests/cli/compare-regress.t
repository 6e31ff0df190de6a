#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-regress.t - scripts/lj-regress: run, compare with the baseline tag, exit with the gate.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-matrix/lj-compare not built"
export LJ_RESULT_NO_SYSINFO=1
REG="$LJ_SRC/scripts/lj-regress"

# The fake workload's value is FAKE_BASE + the run number: 5 distinct values per cell.
cat >"$TMP/r.scn" <<EOF
[matrix]
repeat = 5
[workload fake]
command = $FAKE --value \$((FAKE_BASE + LJ_MATRIX_RUN))
EOF

run_rc "$REG" -b base -o "$TMP/store" -t new "$TMP/r.scn"
is "$rc" 2 "no baseline run yet: exit 2"
grep -q "no run tagged 'base'" "$TMP/err"
ok $? "and says so"
FAKE_BASE=100 run_rc lj-matrix -q -o "$TMP/store" -t base "$TMP/r.scn"
is "$rc" 0 "baseline run"

FAKE_BASE=100 run_rc "$REG" -b base -o "$TMP/store" -t same --fail-on 'fake.mean>+10%' "$TMP/r.scn"
is "$rc" 0 "same values: the gate passes"
grep -q '^Amean     mean' "$TMP/out"
ok $? "the comparison table is printed"

FAKE_BASE=120 run_rc "$REG" -b base -o "$TMP/store" -t slower --fail-on 'fake.mean>+10%' "$TMP/r.scn"
is "$rc" 3 "a significant +19% fails the gate: exit 3"
grep -q 'gate failed: fake.mean>+10%' "$TMP/err"
ok $? "the failing rule is listed"
is "$(ls -d "$TMP"/store/*_slower | wc -l)" 1 "the run is kept in the store under its tag"

FAKE_BASE=120 run_rc "$REG" -b base -o "$TMP/store" -t lava --format lava --fail-on 'fake.mean>+10%' "$TMP/r.scn"
grep -q '^lava-test-case fake_mean --result fail --measurement 123 --units ns$' "$TMP/out"
ok $? "LAVA output through lj-regress"
run_rc "$REG" -o "$TMP/store" "$TMP/r.scn"
is "$rc" 2 "missing --baseline is a usage error"

# Tags are strings: uname -r of a kernel built from a modified tree ends in '+'.
FAKE_BASE=100 lj-matrix -q -o "$TMP/store" -t 6.1.0-rc1+ "$TMP/r.scn" >/dev/null 2>&1
run_rc lj-matrix -o "$TMP/store" --find-tag 6.1.0-rc1+
is "$rc:$(wc -l <"$TMP/out"):$(grep -c '_6.1.0-rc1+$' "$TMP/out")" "0:1:1" "lj-matrix --find-tag finds the run tagged 6.1.0-rc1+"
run_rc lj-matrix -o "$TMP/store" --find-tag 6.1.0-rc1
is "$rc:$(wc -c <"$TMP/out")" "0:0" "...and 6.1.0-rc1 is another tag (nothing printed)"
run_rc lj-matrix -o "$TMP/store" --find-tag base
is "$(wc -l <"$TMP/out")" 1 "one run tagged base"
FAKE_BASE=100 run_rc "$REG" -b 6.1.0-rc1+ -o "$TMP/store" -t rc2 --fail-on 'fake.mean>+10%' "$TMP/r.scn"
is "$rc" 0 "lj-regress -b 6.1.0-rc1+ compares with it"

done_testing
