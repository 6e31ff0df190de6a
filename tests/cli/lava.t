#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lava.t - scripts/lava/ljkit.yaml's run steps, run here as LAVA would (params as
# variables, from the checkout's top) with a stand-in lava-test-case that records its
# arguments: the matrix case, one case per metric with its measurement, the gate's
# pass/fail/skip.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-matrix/lj-compare not built"
plan 12
export LJ_RESULT_NO_SYSINFO=1
DEF="$LJ_SRC/scripts/lava/ljkit.yaml"

mkdir -p "$TMP/bin"
cat >"$TMP/bin/lava-test-case" <<'EOS'
#!/bin/sh
echo "$*" >>"$LAVA_LOG"
EOS
chmod +x "$TMP/bin/lava-test-case"

# The definition's run steps, one command per "- " line under "steps:".
sed -n '/^ *steps:/,$p' "$DEF" | sed -n 's/^ *- //p' >"$TMP/steps.sh"
grep -q 'ljkit-lava.sh' "$TMP/steps.sh"
ok $? "the definition's steps run scripts/lava/ljkit-lava.sh"

# run_def NAME [VAR=VALUE...]: the steps with the definition's params overridden, cases in $TMP/NAME.
run_def() {
	local name=$1
	shift
	: >"$TMP/$name"
	(
		cd "$LJ_SRC" || exit 1
		SCENARIO= STORE= TAG= BASELINE= FAIL_ON= MATRIX_OPTS= SKIP_INSTALL=true
		for a in "$@"; do eval "${a%%=*}=\${a#*=}"; done
		export LAVA_LOG="$TMP/$name" PATH="$TMP/bin:$PATH"
		set -e
		eval "$(cat "$TMP/steps.sh")"
	) >"$TMP/$name.out" 2>&1
}

cat >"$TMP/tiny.scn" <<EOF
[matrix]
repeat = 5
[workload fake]
command = $FAKE --value \$((FAKE_BASE + LJ_MATRIX_RUN))
EOF
common=(SCENARIO="$TMP/tiny.scn" STORE="$TMP/store")

FAKE_BASE=100 run_def first "${common[@]}" TAG=base
is "$?" 0 "the steps succeed"
is "$(cat "$TMP/first")" "ljkit-matrix --result pass
fake_mean --result pass --measurement 103 --units ns
ljkit-gate --result skip" "no baseline: the matrix, each metric with its measurement, the gate skipped"

FAKE_BASE=100 run_def same "${common[@]}" TAG=same BASELINE=base FAIL_ON='fake.mean>+10%'
is "$(cat "$TMP/same")" "ljkit-matrix --result pass
fake_mean --result pass --measurement 103 --units ns
ljkit-gate --result pass" "same values against the baseline tag: metric and gate pass"

FAKE_BASE=120 run_def slower "${common[@]}" TAG=slower BASELINE=base FAIL_ON='fake.mean>+10%'
is "$(cat "$TMP/slower")" "ljkit-matrix --result pass
fake_mean --result fail --measurement 123 --units ns
ljkit-gate --result fail" "a significant +19%: the metric and the gate fail"

base_dir=$(ls -d "$TMP"/store/*_base)
FAKE_BASE=100 run_def bydir "${common[@]}" TAG=bydir BASELINE="$base_dir" FAIL_ON='fake.mean>+10%'
is "$(tail -1 "$TMP/bydir")" "ljkit-gate --result pass" "the baseline as a run directory"

FAKE_BASE=120 run_def few "${common[@]}" TAG=few BASELINE=base FAIL_ON='fake.mean>+10%' MATRIX_OPTS="--repeat 2"
is "$(grep -c . "$TMP/few"):$(sed -n 2p "$TMP/few"):$(tail -1 "$TMP/few")" \
	"3:fake_mean --result skip:ljkit-gate --result skip" "2 vs 5 runs cannot be judged: metric and gate skip"
grep -q '^# fake_mean: skip: cannot judge' "$TMP/few.out"
ok $? "the reason is in the log"

FAKE_BASE=100 run_def nobase "${common[@]}" TAG=nobase BASELINE=nosuchtag FAIL_ON='fake.mean>+10%'
is "$(tail -1 "$TMP/nobase")" "ljkit-gate --result skip" "a baseline tag with no run: the gate is skipped"
grep -q "no run tagged 'nosuchtag'" "$TMP/nobase.out"
ok $? "and the log says why"

printf '[matrix]\nrepeat = 1\n[workload broken]\ncommand = %s --fail\n' "$FAKE" >"$TMP/broken.scn"
run_def broken SCENARIO="$TMP/broken.scn" STORE="$TMP/store" TAG=broken
is "$(head -1 "$TMP/broken")" "ljkit-matrix --result fail" "a failing cell fails the matrix case"

# Without lava-test-case on PATH the script prints the lines (CI logs, bisect).
(cd "$LJ_SRC" && FAKE_BASE=100 scripts/lava/ljkit-lava.sh -s "$TMP/tiny.scn" -o "$TMP/store" -t plain) >"$TMP/plain" 2>&1
grep -q '^lava-test-case fake_mean --result pass --measurement 103 --units ns$' "$TMP/plain"
ok $? "without lava-test-case the cases are printed"
exit $((_tap_fail > 0))
