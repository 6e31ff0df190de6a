#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ljkit.sh - the run step of ljkit.yaml, in the Linaro test-definitions layout: run a
# scenario with lj-matrix (optionally under a background load), judge it with lj-compare
# (fixed limits, a baseline's regression gate, each cell's validity) and write
# output/result.txt, one line per test case: "<case> <pass|fail|skip> [<measurement> <units>]".
#   ljkit-matrix              lj-matrix's outcome (skip: nothing could run)
#   ljkit-background          the background load ran the whole measurement (only with -w)
#   <workload>_<cell>_<metric> every summary metric of every cell, with its measurement (ns,
#                             1/s, ...): fail when a limit (-l, -L) or a gate rule (-r) failed on it,
#                             skip when one could not judge it (the reason is in the log)
#   <workload>_<cell>_validity the cell's runs' validity verdicts: fail when one is invalid (-v
#                             suspect: suspect too), pass otherwise with the reasons in the log,
#                             skip when no run has a verdict
#   ljkit-validity            fail when any cell's validity case failed
#   ljkit-limits              the limits (-l, -L) on every run: pass, fail, skip (cannot judge)
#   ljkit-gate                the gate against the baseline (-b with -r): pass, fail, skip
# ./ljkit.sh -R FILE reports FILE: through ../../utils/send-to-lava.sh when the directory sits
# in a test-definitions tree, else with lava-test-case, else as the <LAVA_SIGNAL_TESTCASE ...>
# lines Linaro's test-runner reads. POSIX sh: dash, busybox sh, bash.
#
# Usage: ljkit.sh [-s SCENARIO] [-o STORE] [-t TAG] [-b BASELINE] [-r "RULE..."]
#                 [-l MAX_LATENCY_US] [-L "LIMIT..."] [-i ITERATIONS] [-w BACKGROUND_CMD]
#                 [-v invalid|suspect] [-m "MATRIX OPTIONS"] [-S true|false] | -R FILE | -V
# Exit: 0 the cases were written (the verdicts are in them), 1 a runtime failure before any
# case (no output directory, the build failed), 2 bad usage.
set -u
prog=ljkit.sh
here=$(cd "$(dirname "$0")" && pwd)
OUTPUT="$(pwd)/output"
RESULT_FILE="${OUTPUT}/result.txt"

SCENARIO=quick STORE=/var/lib/ljkit/results TAG= BASELINE= FAIL_ON= MAX_LATENCY= LIMITS=
ITERATIONS= BACKGROUND_CMD= VALIDITY_FAIL=invalid MATRIX_OPTS= SKIP_INSTALL=true REPORT=

die() { echo "$prog: $1" >&2; exit "${2:-2}"; }
usage() { sed -n '/^# Usage:/,/^# Exit:/p' "$here/ljkit.sh" | sed 's/^# \{0,1\}//'; }

# report FILE: each "case result [measurement units]" line to LAVA or to test-runner.
report() {
	if [ -x "$here/../../utils/send-to-lava.sh" ]; then
		"$here/../../utils/send-to-lava.sh" "$1"
		return
	fi
	while read -r tc res meas units; do
		case $res in pass|fail|skip|unknown) ;; *) continue ;; esac
		if command -v lava-test-case >/dev/null 2>&1; then
			if [ -n "$meas" ]; then
				lava-test-case "$tc" --result "$res" --measurement "$meas" --units "${units:-none}"
			else
				lava-test-case "$tc" --result "$res"
			fi
		elif [ -n "$meas" ]; then
			echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$tc RESULT=$res MEASUREMENT=$meas UNITS=${units:-none}>"
		else
			echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$tc RESULT=$res>"
		fi
	done <"$1"
}

while getopts "s:o:t:b:r:l:L:i:w:v:m:S:R:Vh" opt; do
	case $opt in
	s) SCENARIO=$OPTARG ;;
	o) STORE=$OPTARG ;;
	t) TAG=$OPTARG ;;
	b) BASELINE=$OPTARG ;;
	r) FAIL_ON=$OPTARG ;;
	l) MAX_LATENCY=$OPTARG ;;
	L) LIMITS=$OPTARG ;;
	i) ITERATIONS=$OPTARG ;;
	w) BACKGROUND_CMD=$OPTARG ;;
	v) VALIDITY_FAIL=$OPTARG ;;
	m) MATRIX_OPTS=$OPTARG ;;
	S) SKIP_INSTALL=$OPTARG ;;
	R) REPORT=$OPTARG ;;
	V) VERSION=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
if [ -n "$REPORT" ]; then
	[ -r "$REPORT" ] || die "cannot read $REPORT"
	report "$REPORT"
	exit 0
fi
case $MAX_LATENCY in ''|*[!0-9]*) [ -z "$MAX_LATENCY" ] || die "-l MAX_LATENCY: microseconds, a whole number, not '$MAX_LATENCY'" ;; esac
case $ITERATIONS in ''|*[!0-9]*) [ -z "$ITERATIONS" ] || die "-i ITERATIONS: a whole number, not '$ITERATIONS'" ;; esac
case $VALIDITY_FAIL in invalid|suspect) ;; *) die "-v: invalid or suspect, not '$VALIDITY_FAIL'" ;; esac
[ -n "$TAG" ] || TAG=$(uname -r)

# The tools: $LJ_BUILD, else this checkout built (SKIP_INSTALL false), else PATH.
top=$(cd "$here/../../.." && pwd)
case $SKIP_INSTALL in
[Ff]alse)
	if [ -z "${LJ_BUILD:-}" ]; then
		[ -x "$top/scripts/deps" ] || die "SKIP_INSTALL=false: $top is not an ljkit checkout" 1
		(cd "$top" && scripts/deps --install && make -j"$(nproc)") >&2 || die "the build failed" 1
		LJ_BUILD="$top/build"
	fi ;;
esac
bin() { if [ -n "${LJ_BUILD:-}" ]; then echo "$LJ_BUILD/$1"; else echo "$1"; fi; }
if [ "${VERSION:-}" = 1 ]; then
	"$(bin lj-compare)" --version | sed "s/^lj-compare /$prog /"
	exit 0
fi
# A scenario named by a path relative to the checkout's top (scenarios/quick.scn).
case $SCENARIO in
/*) ;;
*/*) [ -e "$SCENARIO" ] || SCENARIO="$top/$SCENARIO" ;;
esac

mkdir -p "$OUTPUT" "$STORE" || die "cannot create $OUTPUT or $STORE" 1
: >"$RESULT_FILE"
case_line() { echo "$*" >>"$RESULT_FILE" || die "cannot write $RESULT_FILE" 1; }	# a lost case fails the job

# --- the background load, in a session of its own so that all of it can be stopped
bgpid=
if [ -n "$BACKGROUND_CMD" ]; then
	if command -v setsid >/dev/null 2>&1; then
		setsid sh -c "$BACKGROUND_CMD" >"$OUTPUT/background.log" 2>&1 &
	else
		sh -c "$BACKGROUND_CMD" >"$OUTPUT/background.log" 2>&1 &
	fi
	bgpid=$!
	echo "$prog: background load (pid $bgpid): $BACKGROUND_CMD"
fi

# --- the run
# shellcheck disable=SC2086 # MATRIX_OPTS is a list of words
run=$("$(bin lj-matrix)" -q -o "$STORE" -t "$TAG" ${ITERATIONS:+--repeat "$ITERATIONS"} $MATRIX_OPTS "$SCENARIO")
mrc=$?
case $mrc in
0) case_line ljkit-matrix pass ;;
77) case_line ljkit-matrix skip ;;
*) case_line ljkit-matrix fail ;;
esac
if [ -n "$bgpid" ]; then
	if kill -0 "$bgpid" 2>/dev/null; then
		case_line ljkit-background pass
	else
		echo "$prog: the background load ended before the measurement did: see output/background.log"
		case_line ljkit-background fail
	fi
	kill -TERM "-$bgpid" 2>/dev/null || kill -TERM "$bgpid" 2>/dev/null	# its group, else itself
	wait "$bgpid" 2>/dev/null
fi
if [ -z "$run" ] || [ ! -d "$run" ]; then
	# the ljkit-matrix case says it; the report step still runs (test-runner's run.sh is set -e)
	echo "$prog: lj-matrix exit $mrc: no run directory, nothing to judge"
	exit 0
fi
echo "$prog: run $run (lj-matrix exit $mrc)"

# --- the baseline: a run directory, or the newest run in STORE whose tag is BASELINE exactly
# (tags hold letters, digits, - _ . +: compared as strings, never as patterns)
base=
if [ -n "$BASELINE" ] && [ -f "$BASELINE/manifest.json" ]; then
	base=$BASELINE
elif [ -n "$BASELINE" ]; then
	base=$(for d in "$STORE"/*/; do
		d=${d%/}
		[ "$d" != "$run" ] && [ -f "$d/manifest.json" ] || continue
		t=$(sed -n 's/^ *"tag" *: *"\([^"]*\)".*/\1/p' "$d/manifest.json" | head -n 1)
		[ "$t" = "$BASELINE" ] || continue
		echo "$(sed -n 's/^ *"start" *: *"\([^"]*\)".*/\1/p' "$d/manifest.json" | head -n 1) $d"
	done | sort | tail -n 1 | cut -d' ' -f2-)
	[ -n "$base" ] || echo "$prog: no run tagged '$BASELINE' in $STORE: no regression gate"
fi

# --- every metric, the limits, the gate and each cell's validity
set -f	# rules and limits hold '*': split them into words, never into file names
rules= limits=
for r in $FAIL_ON; do rules="$rules --fail-on $r"; done
[ -z "$MAX_LATENCY" ] || limits="--limit *.max<=${MAX_LATENCY}us"
for l in $LIMITS; do limits="$limits --limit $l"; done
compare() { "$(bin lj-compare)" --validity-fail "$VALIDITY_FAIL" "$@"; }
# shellcheck disable=SC2086 # the rules and limits are lists of words
compare --format lava $rules $limits ${base:+"$base"} "$run" >"$OUTPUT/lava.txt" 2>"$OUTPUT/compare.log"
crc=$?
cat "$OUTPUT/compare.log"
vfail=0 vpass=0
while read -r word rest; do
	case $word in
	lava-test-case)
		# "NAME --result R [--measurement M --units U]" -> "NAME R [M U]"
		set -- $rest
		line="$1 $3${5:+ $5}${7:+ $7}"
		case_line "$line"
		case $1 in *_validity) if [ "$3" = fail ]; then vfail=1; elif [ "$3" = pass ]; then vpass=1; fi ;; esac ;;
	*) echo "$word $rest" ;;	# lj-compare's reasons ("# cyclic_max: fail: limit ...")
	esac
done <"$OUTPUT/lava.txt"
if [ $vfail = 1 ]; then case_line ljkit-validity fail
elif [ $vpass = 1 ]; then case_line ljkit-validity pass
else case_line ljkit-validity skip; fi

# verdict NAME RC: lj-compare's exit status as a case: 0 pass, 4 cannot judge, else fail
verdict() { case $2 in 0) case_line "$1" pass ;; 4) case_line "$1" skip ;; *) case_line "$1" fail ;; esac; }
if [ -n "$limits" ]; then
	# shellcheck disable=SC2086
	compare --format lava $limits "$run" >/dev/null 2>&1
	verdict ljkit-limits $?
fi
if [ -n "$base" ] && [ -n "$rules" ]; then
	# shellcheck disable=SC2086
	compare --format lava $rules "$base" "$run" >/dev/null 2>&1
	verdict ljkit-gate $?
elif [ -n "$rules" ]; then
	case_line ljkit-gate skip	# no baseline to judge against
fi
echo "$prog: $(grep -c . "$RESULT_FILE") cases in $RESULT_FILE (lj-compare exit $crc)"
exit 0
