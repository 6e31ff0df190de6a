#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ljkit-lava.sh - the run steps of scripts/lava/ljkit.yaml: run a scenario with lj-matrix,
# compare it with a baseline (a tag in the store, or a run directory) and report through
# lava-test-case: ljkit-matrix (pass, fail, skip), one case per metric of the run (from
# lj-compare --format lava, with its measurement and unit) and ljkit-gate (pass, fail,
# skip = cannot judge). Without lava-test-case on PATH the lines are printed instead.
#
# Usage: ljkit-lava.sh -s SCENARIO [-o STORE] [-t TAG] [-b BASELINE] [-r "RULE..."]
#                      [-m "MATRIX OPTIONS"] [-i true|false]
# Exit: 0 when the cases were reported (the verdicts are in them), 2 bad usage, 1 no run.
set -u
prog=ljkit-lava
here=$(cd "$(dirname "$0")" && pwd)
scenario= store=results tag= baseline= rules= mopts= skip_install=true

die() { echo "$prog: $1" >&2; exit "${2:-2}"; }
while getopts "s:o:t:b:r:m:i:h" opt; do
	case $opt in
	s) scenario=$OPTARG ;;
	o) store=$OPTARG ;;
	t) tag=$OPTARG ;;
	b) baseline=$OPTARG ;;
	r) rules=$OPTARG ;;
	m) mopts=$OPTARG ;;
	i) skip_install=$OPTARG ;;
	h) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "bad option (see -h)" ;;
	esac
done
[ -n "$scenario" ] || die "missing -s SCENARIO"
[ -n "$tag" ] || tag=$(uname -r)

# report NAME RESULT [--measurement M --units U]: one test case, through LAVA when there.
report() {
	if command -v lava-test-case >/dev/null 2>&1; then
		lava-test-case "$@"
	else
		echo "lava-test-case $*"
	fi
}

# The tools: $LJ_BUILD, else this checkout built (SKIP_INSTALL=false), else PATH.
if [ -z "${LJ_BUILD:-}" ] && [ "$skip_install" = false ]; then
	(cd "$here/../.." && scripts/deps --install && make -j"$(nproc)") >&2 || die "build failed" 1
	LJ_BUILD="$here/../../build"
fi
bin() { if [ -n "${LJ_BUILD:-}" ]; then echo "$LJ_BUILD/$1"; else echo "$1"; fi; }
# A scenario named by a path relative to the checkout's top (scenarios/quick.scn).
case $scenario in
/*) ;;
*/*) [ -e "$scenario" ] || scenario="$here/../../$scenario" ;;
esac

# --- the run
mkdir -p "$store" || die "cannot create $store" 1
# shellcheck disable=SC2086 # MATRIX_OPTS is a list of words
run=$("$(bin lj-matrix)" -q -o "$store" -t "$tag" $mopts "$scenario")
mrc=$?
case $mrc in
0) report ljkit-matrix --result pass ;;
77) report ljkit-matrix --result skip ;;
*) report ljkit-matrix --result fail ;;
esac
if [ -z "$run" ] || [ ! -d "$run" ]; then
	echo "$prog: lj-matrix exit $mrc: no run directory" >&2
	report ljkit-gate --result skip
	exit 1
fi
echo "$prog: run $run (lj-matrix exit $mrc)"

# --- the baseline: a run directory, or the newest run in STORE with that tag
base=
if [ -n "$baseline" ] && [ -f "$baseline/manifest.json" ]; then
	base=$baseline
elif [ -n "$baseline" ]; then
	for d in "$store"/*/; do
		d=${d%/}
		[ "$d" != "$run" ] && [ -f "$d/manifest.json" ] || continue
		grep -Eq "\"tag\" *: *\"$(printf '%s' "$baseline" | sed 's/[.[\*^$/]/\\&/g')\"" "$d/manifest.json" || continue
		if [ -z "$base" ] || [ "$d" -nt "$base" ]; then base=$d; fi
	done
	[ -n "$base" ] || echo "$prog: no run tagged '$baseline' in $store: metrics only, gate skipped" >&2
fi

# --- every metric, and the gate
fail_on=()
for r in $rules; do fail_on+=(--fail-on "$r"); done
if [ -n "$base" ]; then
	"$(bin lj-compare)" --format lava "${fail_on[@]}" "$base" "$run" >"$store/.lava.$$" 2>&1
else
	"$(bin lj-compare)" --format lava "$run" >"$store/.lava.$$" 2>&1
fi
crc=$?
while IFS= read -r line; do
	case $line in
	"lava-test-case "*)
		read -ra words <<<"${line#lava-test-case }"
		report "${words[@]}" ;;
	*) echo "$line" ;;	# lj-compare's reasons ("# cyclic_mean: skip: cannot judge: ...")
	esac
done <"$store/.lava.$$"
rm -f "$store/.lava.$$"
if [ -z "$base" ] || [ ${#fail_on[@]} -eq 0 ]; then
	report ljkit-gate --result skip	# nothing to judge against
else
	case $crc in
	0) report ljkit-gate --result pass ;;
	3) report ljkit-gate --result fail ;;
	4) report ljkit-gate --result skip ;;
	*) report ljkit-gate --result fail ;;
	esac
fi
exit 0
