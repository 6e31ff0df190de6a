#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-watch.t - lj-matrix's "watch" run setting: lj-env --watch around every run, ctxsw_*
# metrics merged into the run's result and compared by lj-compare.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-matrix or lj-env not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1 LJ_JOURNAL_DIR=$TMP/j

# jget FILE EXPR: a perl expression over the decoded document $d
jget() {
	perl -MJSON::PP -0777 -ne 'my $d = decode_json($_); my $v = eval $ARGV_E; print defined $v ? $v : "undef";
		BEGIN { $ARGV_E = shift @ARGV }' "$2" "$1"
}

# A stand-in lj-env: logs its options, runs the command after --, writes no result.
cat >"$TMP/fake-env" <<'EOF2'
#!/bin/sh
echo "$@" >>"$FAKE_ENV_LOG"
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
EOF2
chmod +x "$TMP/fake-env"
export FAKE_ENV_LOG="$TMP/env.log"

# --- scenario errors
printf '[matrix]\nwatch = a*,,b\n[workload w]\ncommand = true\n' >"$TMP/bad.scn"
run_rc lj-matrix -o "$TMP/bad" "$TMP/bad.scn"
is "$rc" 2 "an empty watch pattern is a bad scenario: exit 2"
grep -q "bad.scn:2: watch: empty pattern" "$TMP/err"
ok $? "the error names file, line and problem"

# --- every run goes through lj-env with one --watch per pattern, even without setup axes
cat >"$TMP/w.scn" <<EOF2
[matrix]
repeat = 2
watch = ksoftirqd/*, rcu_*
val = 1, 2
[workload fake]
command = $FAKE --value \${val}
EOF2
run_rc lj-matrix -o "$TMP/drystore" -n "$TMP/w.scn"
is "$rc" 0 "dry run exits 0"
is "$(grep -c '^[0-9]*/2 ' "$TMP/out")" 2 "watch is not an axis: two cells (val)"

run_rc lj-matrix --lj-env "$TMP/fake-env" -o "$TMP/fakestore" "$TMP/w.scn"
is "$(grep -c -- "^--watch ksoftirqd/\* --watch rcu_\* --json .*run-1.setup.json --" "$FAKE_ENV_LOG")" 2 \
	"lj-env gets --watch for each pattern without setup axes (first run of each cell)"
is "$rc" 1 "an lj-env that records no watch counts fails the runs"
dir=$(cat "$TMP/out")
cells "$dir" | grep -q "failed run 1: no watch counts merged into"
ok $? "the failure says the watch counts are missing"

# --- with the real lj-env: the ctxsw metrics join each run's result
run_rc lj-matrix -o "$TMP/store" --tag a "$TMP/w.scn"
is "$rc" 0 "lj-matrix with watch exits 0"
dir=$(cat "$TMP/out")
is "$(cells "$dir" | awk '$3 == "done"' | wc -l)" 2 "both cells done"
runs=("$dir"/fake/*/run-*.json)
runs=($(printf '%s\n' "${runs[@]}" | grep -v 'setup.json$'))
is "${#runs[@]}" 4 "four measured results"
run_rc lj-compare --validate "${runs[@]}"
is "$rc" 0 "the merged results validate"
bad=0
for f in "${runs[@]}"; do
	[ -f "${f%.json}.setup.json" ] || bad=$((bad + 1))
	for m in mean ctxsw_system ctxsw_ksoftirqd ctxsw_rcu; do
		[ "$(jget "$f" "\$d->{summary}{$m}{unit}")" != undef ] || bad=$((bad + 1))
	done
	[ "$(jget "$f" '$d->{summary}{ctxsw_ksoftirqd}{value} >= 0 && $d->{summary}{ctxsw_system}{value} > 0 ? 1 : 0')" = 1 ] ||
		bad=$((bad + 1))
	[ "$(jget "$f" 'scalar @{$d->{side}{watch}{patterns}}')" = 2 ] || bad=$((bad + 1))
	[ "$(jget "$f" '$d->{summary}{ctxsw_system}{value} == $d->{side}{watch}{system}{ctxsw} ? 1 : 0')" = 1 ] ||
		bad=$((bad + 1))
done
is "$bad" 0 "every result: the workload's mean, ctxsw_system/_ksoftirqd/_rcu in summary, side.watch, its setup.json"
sum=0
for f in "${runs[@]}"; do sum=$((sum + $(jget "$f" '$d->{summary}{mean}{value}'))); done
is "$sum" 6 "the workload's own metric is kept (val 1, 1, 2, 2)"
ok "$([ "$(jget "${runs[0]}" '$d->{side}{watch}{patterns}[1]{tasks}')" -gt 0 ]; echo $?)" \
	"rcu_* matched kernel threads"

# --- a failing workload's reason is its own last line, not lj-env's watch lines after it
printf '[matrix]\nwatch = rcu_*\n[workload bad]\ncommand = %s --fail\n' "$FAKE" >"$TMP/fail.scn"
run_rc lj-matrix -o "$TMP/failstore" "$TMP/fail.scn"
is "$rc" 1 "a failing workload under watch: exit 1"
cells "$(cat "$TMP/out")" | grep -q "failed run 1: exit status 1: fake-workload: asked to fail"
ok $? "the reason is the workload's last line"

# --- lj-compare: the ctxsw metrics are compared between two run directories
run_rc lj-matrix -o "$TMP/store" --tag b "$TMP/w.scn"
is "$rc" 0 "a second matrix run"
dir_b=$(cat "$TMP/out")
run_rc lj-compare --format csv "$dir" "$dir_b"
is "$rc" 0 "lj-compare exits 0"
for m in ctxsw_system ctxsw_ksoftirqd ctxsw_rcu mean; do
	is "$(grep -c "^fake,val=[12],$m,[a-z]*,lower," "$TMP/out")" 4 "lj-compare: $m in both cells and both sets"
done
run_rc lj-compare --metrics ctxsw_system "$dir" "$dir_b"
is "$rc" 0 "lj-compare --metrics ctxsw_system"
grep -q ctxsw_system "$TMP/out"
ok $? "the text report shows ctxsw_system"

done_testing
