#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-find.t - lj-matrix finds a scenario given by name: $LJ_SCENARIO_DIR, the installed
# scenarios next to its bin/ directory, the source tree's scenarios/; a path stays a path.
. "$(dirname "$0")/lib.sh"

plan 6
mkdir -p "$TMP/scn" "$TMP/cwd"
printf '[matrix]\nrepeat = 1\n[workload only_here]\ncommand = true\n' >"$TMP/scn/tiny.scn"
cd "$TMP/cwd" || exit 1

run_rc env LJ_SCENARIO_DIR="$TMP/scn" lj-matrix -n tiny
is "$rc:$(grep -c only_here "$TMP/out")" "0:1" "a name is looked up in \$LJ_SCENARIO_DIR"
run_rc env LJ_SCENARIO_DIR="$TMP/scn" lj-matrix -n tiny.scn
is "$rc:$(grep -c only_here "$TMP/out")" "0:1" "NAME.scn too"
run_rc env -u LJ_SCENARIO_DIR lj-matrix -n quick
is "$rc:$(grep -c 'cyclic \[' "$TMP/out" | awk '{ print ($1 > 0) }')" "0:1" \
	"build/lj-matrix finds the source tree's scenarios/quick.scn by name"
# Installed layout: PREFIX/bin/lj-matrix finds PREFIX/share/ljkit/scenarios.
mkdir -p "$TMP/pfx/bin" "$TMP/pfx/share/ljkit/scenarios"
cp "$LJ_BUILD/lj-matrix" "$TMP/pfx/bin/"
cp "$TMP/scn/tiny.scn" "$TMP/pfx/share/ljkit/scenarios/installed.scn"
run_rc env -u LJ_SCENARIO_DIR "$TMP/pfx/bin/lj-matrix" -n installed
is "$rc:$(grep -c only_here "$TMP/out")" "0:1" "an installed lj-matrix finds PREFIX/share/ljkit/scenarios/NAME.scn"
printf '[matrix]\nrepeat = 1\n[workload local_file]\ncommand = true\n' >"$TMP/cwd/tiny"
run_rc env LJ_SCENARIO_DIR="$TMP/scn" lj-matrix -n tiny
is "$rc:$(grep -c local_file "$TMP/out")" "0:1" "an existing file of that name wins over a lookup"
run_rc lj-matrix -n nosuch-scenario
is "$rc" 2 "a name found nowhere is bad input"
exit $((_tap_fail > 0))
