#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare-harden.t - lj-compare's loader and output against hostile inputs: bounded, regular
# files only, only documents --validate accepts, a lost table is an error, limits said;
# lj-regress checks its rules before it runs anything.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-compare" ] || skip_all "lj-compare not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1
RUN1_FIX="$FIX/base/cyclic/cgroup=off/run-1.json"

# --- stdout that cannot be written (ENOSPC): exit non-zero, say so
lj-compare "$FIX/base" "$FIX/shifted" >/dev/full 2>"$TMP/err"
is "$?" 1 "stdout on /dev/full: exit 1"
grep -q "cannot write the report to standard output: No space left on device" "$TMP/err"
ok $? "stdout on /dev/full: says the output was lost"
lj-compare --validate "$FIX"/base/cyclic/cgroup=off/run-1.json >/dev/full 2>/dev/null
is "$?" 1 "--validate on /dev/full: exit 1"

# --- manifests that are not regular files, or too big: refused at once, never read whole
cp -r "$FIX/base" "$TMP/fifo" && rm "$TMP/fifo/manifest.json" && mkfifo "$TMP/fifo/manifest.json"
run_rc timeout 20 lj-compare "$TMP/fifo"
is "$rc" 2 "a FIFO as manifest.json: exit 2 without waiting for a writer"
grep -q "manifest.json: not a regular file" "$TMP/err"
ok $? "a FIFO as manifest.json: says it is not a regular file"
cp -r "$FIX/base" "$TMP/zero" && ln -sf /dev/zero "$TMP/zero/manifest.json"
run_rc timeout 20 lj-compare "$TMP/zero"
is "$rc" 2 "manifest.json -> /dev/zero: exit 2 (not read forever)"
cp -r "$FIX/base" "$TMP/huge" && truncate -s 257M "$TMP/huge/manifest.json"
run_rc timeout 60 lj-compare "$TMP/huge"
is "$rc" 2 "a 257 MiB manifest: exit 2"
grep -q "manifest.json: larger than 268435456 bytes" "$TMP/err"
ok $? "a 257 MiB manifest: says the limit"
run_rc timeout 20 lj-compare /dev/zero
ok $([ "$rc" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
	grep -q "/dev/zero: not a regular file: no results to compare" "$TMP/err"; echo $?) \
	"/dev/zero as the only result: refused as not a regular file, in one line (exit 2: nothing to compare)"

# --- a run directory's document that --validate refuses never reaches the table or the gate
cp -r "$FIX/base" "$TMP/bad"
for n in 1 2 3 4 5 6 7 8; do
	jq '.summary.mean.value = -1e12 | .summary.max.better = "smaller"' \
		"$FIX/base/cyclic/cgroup=off/run-$n.json" >"$TMP/bad/cyclic/cgroup=off/run-$n.json"
done
jq '.schema = "other/9"' "$FIX/base/cyclic/cgroup=off/run-1.json" >"$TMP/bad/cyclic/cgroup=off/run-1.json"
run_rc lj-compare --validate "$TMP/bad/cyclic/cgroup=off/run-2.json"
is "$rc" 2 "(--validate refuses the doctored result)"
run_rc lj-compare --fail-on 'cyclic.mean<-10%' "$FIX/base" "$TMP/bad"
[ "$rc" = 4 ] && grep -q "/bad (0 results)" "$TMP/out" && grep -q "no values of 'mean'" "$TMP/err"
ok $? "invalid documents are skipped: the set has no results, the gate cannot judge (4), not fail (3)"
is "$(grep -c 'warning: .*/bad/cyclic/cgroup=off/run-[1-8].json: skipped: ' "$TMP/err")" 8 \
	"one warning per refused document, with the reason"
grep -q "run-1.json: skipped: schema 'other/9' is not ljkit-result/1" "$TMP/err"
ok $? "the wrong schema is named"

# --- a manifest's run file outside its run directory is not read
mkdir -p "$TMP/esc"
cp "$RUN1_FIX" "$TMP/outside.json"
jq '.cells[0].runs = [.cells[0].runs[0] | .file = "../outside.json"]' "$FIX/base/manifest.json" \
	>"$TMP/esc/manifest.json"
run_rc lj-compare "$TMP/esc"
[ "$rc" = 2 ] && grep -q "run file '../outside.json' is outside the run directory, skipped" "$TMP/err"
ok $? "a run file with .. in the manifest is skipped with a warning (nothing left: exit 2)"

# --- over the set limit: the message says it
sets=()
for i in $(seq 1 33); do
	mkdir -p "$TMP/sets/s$i" && cp "$FIX"/base/cyclic/cgroup=off/run-1.json "$TMP/sets/s$i/"
	sets+=("$TMP/sets/s$i")
done
run_rc lj-compare "${sets[@]}"
is "$rc" 2 "33 result sets: exit 2"
grep -q "more than 32 result sets (lj-compare compares at most 32)" "$TMP/err"
ok $? "33 result sets: the message says the limit"

# --- --check-rules, and lj-regress checks its rules before it runs the matrix
run_rc lj-compare --fail-on 'cyclic.max>+10%' --check-rules
is "$rc" 0 "--check-rules: a good rule exits 0 without result sets"
run_rc lj-compare --fail-on 'cyclic.max>>10' --check-rules
is "$rc" 2 "--check-rules: a bad rule exits 2"
if [ -x "$LJ_BUILD/lj-matrix" ]; then
	cat >"$TMP/r.scn" <<EOF
[workload fake]
command = $FAKE --value 5
EOF
	LJ_BUILD=$LJ_BUILD lj-matrix -q -o "$TMP/store" -t base "$TMP/r.scn" >/dev/null 2>&1
	run_rc env LJ_BUILD="$LJ_BUILD" "$LJ_SRC/scripts/lj-regress" -b base -t new -o "$TMP/store" \
		--fail-on 'fake.mean>>1' "$TMP/r.scn"
	is "$rc" 2 "lj-regress with a bad --fail-on: exit 2"
	is "$(ls "$TMP/store" | wc -l)" 1 "lj-regress with a bad --fail-on: no matrix ran"
else
	skip 2 "lj-matrix not built"
fi

# --- messages carry no raw control characters (a path or value from elsewhere)
run_rc "$LJ_SRC/scripts/lj-regress" -b x $'a\033]0;t\007b.scn'
[ "$rc" = 2 ] && ! grep -q $'\033' "$TMP/err" && grep -q 'a?\]0;t?b.scn' "$TMP/err"
ok $? "lj-regress: a path with an escape sequence is echoed with ? for the control characters"
run_rc lj-compare $'/nonexistent/a\033[2Jb'
! grep -q $'\033' "$TMP/err" && grep -q 'a?\[2Jb' "$TMP/err"
ok $? "lj-compare: the same"

done_testing
