#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lava.t - automated/linux/ljkit (the Linaro test-definitions layout): the yaml's run steps
# run as Linaro's test-runner runs them (a /bin/sh script: the params as NAME='value'
# lines, set -e, the steps, from a copy of the tree), under dash and under busybox sh, on a
# tiny scenario of a fake workload; output/result.txt checked case by case (metrics, a
# failing limit, validity invalid/suspect, the gate, a baseline tag with '+', the
# background load), and the report read the way test-runner and send-to-lava.sh read it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-matrix/lj-compare not built"
command -v python3 >/dev/null || skip_all "python3 not installed (test-runner's parser is Python)"
shells=
command -v dash >/dev/null && shells="$shells dash"
command -v busybox >/dev/null && busybox sh -c 'exit 0' 2>/dev/null && shells="$shells busybox"
[ -n "$shells" ] || skip_all "neither dash nor busybox installed"
nsh=$(echo $shells | wc -w)
plan $((11 * nsh + 17))
export LJ_RESULT_NO_SYSINFO=1
DIR="$LJ_SRC/automated/linux/ljkit"

# The tree as test-runner copies it (the definition's directory at the same place), and
# run.sh as its mkrun() writes it: shebang, the params, set -e, cd, the steps.
mkdir -p "$TMP/repo/automated/linux" && cp -r "$DIR" "$TMP/repo/automated/linux/"
rm -rf "$TMP/repo/automated/linux/ljkit/output"
params=$(sed -n '/^params:/,/^run:/p' "$DIR/ljkit.yaml" | sed -n "s/^    \([A-Z_]*\): \"\(.*\)\"$/\1='\2'/p")
steps=$(sed -n '/^ *steps:/,$p' "$DIR/ljkit.yaml" | sed -n 's/^ *- //p')
echo "$steps" | grep -q '^\./ljkit\.sh -R \./output/result\.txt$'
ok $? "the steps run ljkit.sh, then report output/result.txt"

cat >"$TMP/tiny.scn" <<SCENARIO
[matrix]
repeat = 5
[workload fake]
command = $FAKE --value \$((FAKE_BASE + LJ_MATRIX_RUN)) --metric max=\$((FAKE_BASE * 10 + LJ_MATRIX_RUN)):ns:lower --verdict "\$FAKE_VERDICT"
SCENARIO
export FAKE_VERDICT=valid:none:fine

# run_def SHELL NAME [VAR=VALUE...]: run.sh with the params overridden, under SHELL;
# its output in $TMP/NAME.out, the cases in $TMP/NAME (result.txt).
run_def() {
	local sh=$1 name=$2
	shift 2
	{
		echo "#!/bin/sh"
		echo "$params"
		for a in "$@"; do echo "${a%%=*}='${a#*=}'"; done
		echo "set -e"
		echo "cd $TMP/repo"
		echo "$steps"
	} >"$TMP/run.sh"
	rm -rf "$TMP/repo/automated/linux/ljkit/output"
	if [ "$sh" = busybox ]; then busybox sh "$TMP/run.sh"; else "$sh" "$TMP/run.sh"; fi >"$TMP/$name.out" 2>&1
	cp "$TMP/repo/automated/linux/ljkit/output/result.txt" "$TMP/$name" 2>/dev/null || : >"$TMP/$name"
}
case_of() { grep "^$2 " "$TMP/$1" | cut -d' ' -f2-; }	# case_of RUN CASE: "result [measurement units]"
common=(SCENARIO="$TMP/tiny.scn" STORE="$TMP/store")

for sh in $shells; do
	export FAKE_BASE=100
	run_def $sh $sh-first "${common[@]}" TAG=base
	is "$(cat "$TMP/$sh-first")" "ljkit-matrix pass
fake_mean pass 103 ns
fake_max pass 1003 ns
fake_validity pass
ljkit-validity pass" "$sh: no baseline, no limit: the matrix, each metric with its measurement (the runs' mean), the validity"

	run_def $sh $sh-limit "${common[@]}" TAG=limit MAX_LATENCY=1 LIMITS='fake.mean<=200ns'
	is "$(case_of $sh-limit fake_max):$(case_of $sh-limit fake_mean):$(case_of $sh-limit ljkit-limits)" \
		"fail 1005 ns:pass 105 ns:fail" "$sh: MAX_LATENCY=1 (us) fails max (the worst run, 1005 ns), a met limit passes"
	grep -q '^# fake_max: fail: limit \*.max<=1us: worst run 1.005 us (run 5 of 5) against <= 1 us$' "$TMP/$sh-limit.out"
	ok $? "$sh: the log says which run broke which limit"

	FAKE_VERDICT='invalid:policy:SCHED_OTHER instead of FIFO 90' run_def $sh $sh-invalid "${common[@]}" TAG=invalid
	is "$(case_of $sh-invalid fake_validity):$(case_of $sh-invalid ljkit-validity):$(case_of $sh-invalid fake_mean)" \
		"fail:fail:pass 103 ns" "$sh: invalid runs fail the validity case (the metrics are still reported)"
	grep -q '^# fake_validity: 5 invalid: run 1: invalid: policy: SCHED_OTHER instead of FIFO 90' "$TMP/$sh-invalid.out"
	ok $? "$sh: ...with the reason in the log"
	FAKE_VERDICT='suspect:load:CPU 0 53% busy' run_def $sh $sh-suspect "${common[@]}" TAG=suspect
	is "$(case_of $sh-suspect fake_validity)" pass "$sh: suspect runs pass the validity case"
	grep -q '^# fake_validity: 5 suspect: run 1: suspect: load: CPU 0 53% busy' "$TMP/$sh-suspect.out"
	ok $? "$sh: ...the reason in the log"
	FAKE_VERDICT='suspect:load:CPU 0 53% busy' run_def $sh $sh-strict "${common[@]}" TAG=strict VALIDITY_FAIL=suspect
	is "$(case_of $sh-strict fake_validity)" fail "$sh: VALIDITY_FAIL=suspect: suspect runs fail it"

	run_def $sh $sh-same "${common[@]}" TAG=same BASELINE=base FAIL_ON='fake.mean>+10%'
	is "$(case_of $sh-same fake_mean):$(case_of $sh-same ljkit-gate)" "pass 103 ns:pass" "$sh: same values against the baseline tag: pass"
	FAKE_BASE=120 run_def $sh $sh-slower "${common[@]}" TAG=slower BASELINE=base FAIL_ON='fake.mean>+10%'
	is "$(case_of $sh-slower fake_mean):$(case_of $sh-slower ljkit-gate)" "fail 123 ns:fail" "$sh: a significant +19%: the metric and the gate fail"
	FAKE_BASE=120 run_def $sh $sh-few "${common[@]}" TAG=few BASELINE=base FAIL_ON='fake.mean>+10%' ITERATIONS=2
	is "$(case_of $sh-few fake_mean):$(case_of $sh-few ljkit-gate)" "skip:skip" "$sh: ITERATIONS=2 against 5 runs cannot be judged: skip"
done
sh=${shells##* }
shcmd=$sh
[ "$sh" = busybox ] && shcmd="busybox sh"

# A baseline tag is matched as written: 'v1+' is not a pattern that 'v11' fits.
FAKE_BASE=100 run_def $sh plus1 "${common[@]}" TAG=v1+
FAKE_BASE=200 run_def $sh plus2 "${common[@]}" TAG=v11
FAKE_BASE=200 run_def $sh plus "${common[@]}" TAG=after BASELINE=v1+ FAIL_ON='fake.mean>+10%'
is "$(case_of plus ljkit-gate)" fail "the baseline tagged exactly 'v1+' (mean 103) is taken, not the newer 'v11' (203)"
run_def $sh nobase "${common[@]}" TAG=nobase BASELINE=v1 FAIL_ON='fake.mean>+10%'
is "$(case_of nobase ljkit-gate)" skip "a baseline tag no run has exactly ('v1'): the gate is skipped"
grep -q "no run tagged 'v1' in" "$TMP/nobase.out"
ok $? "...and the log says why"
base_dir=$(ls -d "$TMP"/store/*_v1+)
run_def $sh bydir "${common[@]}" TAG=bydir BASELINE="$base_dir" FAIL_ON='fake.mean>+10%'
is "$(case_of bydir ljkit-gate)" pass "the baseline as a run directory"

# The background load runs through the measurement and is stopped after it.
run_def $sh bg "${common[@]}" TAG=bg BACKGROUND_CMD="sleep 300 & echo \$! >$TMP/bg.pid; wait"
is "$(case_of bg ljkit-background)" pass "BACKGROUND_CMD ran the whole measurement"
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"; }	# ended (a zombie too)
wait_for gone "$(cat "$TMP/bg.pid")"
ok $? "...and it is stopped afterwards, with what it started"
kill "$(cat "$TMP/bg.pid")" 2>/dev/null
run_def $sh bgshort "${common[@]}" TAG=bgshort BACKGROUND_CMD="true"
is "$(case_of bgshort ljkit-background)" fail "a background load that ended early fails its case"

printf '[matrix]\nrepeat = 1\n[workload broken]\ncommand = %s --fail\n' "$FAKE" >"$TMP/broken.scn"
run_def $sh broken SCENARIO="$TMP/broken.scn" STORE="$TMP/store" TAG=broken
is "$(head -1 "$TMP/broken")" "ljkit-matrix fail" "a failing cell fails the matrix case"

# --- the report, as Linaro's tools read it
res=$TMP/$sh-limit
# test-runner (automated/utils/test-runner.py, ResultParser.parse_stdout): a line of the
# step output that starts with "<LAVA_SIGNAL_TESTCASE " (or "<") and then "TEST_CASE_ID=",
# with the angle brackets stripped and split on single spaces, gives a case from the words
# TEST_CASE_ID=, RESULT=, MEASUREMENT= (a float, else left empty) and UNITS=; with no such
# line at all the test is "no-result-found fail". The same steps, in Python:
parse_runner() {
	python3 -c '
import re, sys
cases = []
for line in sys.stdin:
    if re.match(r"\<(|LAVA_SIGNAL_TESTCASE )TEST_CASE_ID=.*", line):
        d = {"test_case_id": "", "result": "", "measurement": "", "units": ""}
        for w in line.strip("\n").strip("\r").strip("<>").split(" "):
            for key, name in (("TEST_CASE_ID", "test_case_id"), ("RESULT", "result"), ("UNITS", "units")):
                m = re.match(key + "=(.*)", w)
                if m:
                    d[name] = m.group(1)
            m = re.match("MEASUREMENT=(.*)", w)
            if m:
                try:
                    d["measurement"] = float(m.group(1))
                except ValueError:
                    pass
        cases.append(d)
if not cases:
    cases = [{"test_case_id": "no-result-found", "result": "fail", "measurement": "", "units": ""}]
for d in cases:
    meas = "" if d["measurement"] == "" else " %g %s" % (d["measurement"], d["units"])
    print("%s %s%s" % (d["test_case_id"], d["result"], meas))'
}
(cd "$TMP/repo/automated/linux/ljkit" && PATH="/usr/bin:/bin" $shcmd ./ljkit.sh -R "$res") >"$TMP/signals"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=fake_max RESULT=fail MEASUREMENT=1005 UNITS=ns>$' "$TMP/signals"
ok $? "without lava-test-case the report prints LAVA's signal lines"
is "$(parse_runner <"$TMP/signals")" "$(cat "$res")" "test-runner's parser reads back every case of result.txt, measurements and units"
is "$(echo "no ljkit here" | parse_runner)" "no-result-found fail" "(the parser's negative control: no case line, no-result-found)"

# send-to-lava.sh (automated/utils): a result.txt line ending in one of pass, fail, skip,
# unknown after a blank is a case without measurement; otherwise a line with such a word
# between blanks gives the case, the result, the measurement and the units as its first
# four blank-separated words. Its grep -E patterns, applied to every line:
classify() {
	while read -r line; do
		if echo "$line" | grep -iq -E ".* +(pass|fail|skip|unknown)$"; then
			echo "${line%% *} ${line##* }"
		elif echo "$line" | grep -iq -E ".*+ (pass|fail|skip|unknown)+ .*+"; then
			echo "$line" | awk '{ print $1, $2, $3, $4 }'
		else
			echo "UNREAD $line"
		fi
	done
}
is "$(classify <"$res")" "$(cat "$res")" "send-to-lava.sh's patterns read every line of result.txt as written"

# In a test-definitions tree the report goes through its send-to-lava.sh.
mkdir -p "$TMP/repo/automated/utils"
printf '#!/bin/sh\necho "send-to-lava $1" >"%s/sent"\n' "$TMP" >"$TMP/repo/automated/utils/send-to-lava.sh"
chmod +x "$TMP/repo/automated/utils/send-to-lava.sh"
(cd "$TMP/repo/automated/linux/ljkit" && $shcmd ./ljkit.sh -R "$res") >/dev/null
is "$(cat "$TMP/sent" 2>/dev/null)" "send-to-lava $res" "in a test-definitions tree the report calls ../../utils/send-to-lava.sh"
rm -rf "$TMP/repo/automated/utils"
# With lava-test-case on PATH (inside LAVA), one call per case.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "$*" >>"%s/calls"\n' "$TMP" >"$TMP/bin/lava-test-case"
chmod +x "$TMP/bin/lava-test-case"
(cd "$TMP/repo/automated/linux/ljkit" && PATH="$TMP/bin:$PATH" $shcmd ./ljkit.sh -R "$res") >/dev/null
grep -qx 'fake_max --result fail --measurement 1005 --units ns' "$TMP/calls" &&
	grep -qx 'ljkit-matrix --result pass' "$TMP/calls" && [ "$(wc -l <"$TMP/calls")" -eq "$(wc -l <"$res")" ]
ok $? "with lava-test-case on PATH: one call per case, measurement and units passed"
is "$($shcmd "$DIR/ljkit.sh" -l 50us 2>/dev/null; echo "rc=$?")" "rc=2" "MAX_LATENCY must be whole microseconds: usage error"
# A case that cannot be written (a full disk: result.txt on /dev/full) fails the job, in one line.
rm -rf "$TMP/repo/automated/linux/ljkit/output" && mkdir "$TMP/repo/automated/linux/ljkit/output"
ln -s /dev/full "$TMP/repo/automated/linux/ljkit/output/result.txt"
(cd "$TMP/repo/automated/linux/ljkit" && FAKE_BASE=100 $shcmd ./ljkit.sh -s "$TMP/tiny.scn" -o "$TMP/store" -t full) >/dev/null 2>"$TMP/full.err"
is "$?:$(grep -c 'cannot write .*result.txt' "$TMP/full.err")" "1:1" "result.txt that cannot be written: exit 1, one line (it exited 0 with the cases lost)"
exit $((_tap_fail > 0))
