#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# matrix-harden.t - lj-matrix against hostile scenarios and run directories: values stay data,
# names stay inside the store, limits exit 2, --resume of a damaged manifest does not crash.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] || skip_all "lj-matrix not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1

# --- custom axis values are data: ; | & > and spaces do not run anything
cat >"$TMP/inj.scn" <<EOF
[matrix]
v = 1;touch $TMP/pwned-semi, 2|touch $TMP/pwned-pipe, 3&touch $TMP/pwned-amp, 4>$TMP/pwned-redir
[workload fake]
command = $FAKE --value \${v}
EOF
run_rc lj-matrix -q -o "$TMP/s-inj" "$TMP/inj.scn"
[ ! -e "$TMP/pwned-semi" ] && [ ! -e "$TMP/pwned-pipe" ] && [ ! -e "$TMP/pwned-amp" ] &&
	[ ! -e "$TMP/pwned-redir" ]
ok $? "axis values with ; | & > ran nothing (and redirected nothing)"
dir=$(cat "$TMP/out")
grep -q "'1;touch $TMP/pwned-semi'" "$dir/manifest.json"
ok $? "the manifest's command shows the value as one quoted word"

# --- names used as paths: a workload or cgroup named .. is refused by the parser
printf '[workload ..]\ncommand = true\n' >"$TMP/dotdot.scn"
run_rc lj-matrix -n "$TMP/dotdot.scn"
is "$rc" 2 "workload named ..: exit 2"
grep -q "invalid workload name '..'" "$TMP/err"
ok $? "workload named ..: says so"
printf '[matrix]\ncgroup = ..\n[workload w]\ncommand = true\n' >"$TMP/cg.scn"
run_rc lj-matrix -n "$TMP/cg.scn"
is "$rc" 2 "cgroup = ..: refused before any run (exit 2)"

# --- error messages carry no raw control characters
printf '[matrix]\nx = a\033]0;owned\007b\n[workload w]\ncommand = echo ${x}\n' >"$TMP/esc.scn"
run_rc lj-matrix -n "$TMP/esc.scn"
! grep -q $'\033' "$TMP/err" && [ "$rc" = 2 ]
ok $? "a value with an escape sequence: exit 2, no ESC in the message"
run_rc lj-matrix -n $'/nonexistent/a\033[2Jb.scn'
! grep -q $'\033' "$TMP/err" && grep -q 'a?\[2Jb.scn' "$TMP/err"
ok $? "a path with an escape sequence is echoed with ? for the control character"

# --- over the limits: exit 2 (bad input), not 1
{
	echo '[matrix]'
	for a in a b c d e; do echo "$a = $(seq -s, 1 11)"; done
	echo '[workload w]'
	echo 'command = true ${a}${b}${c}${d}${e}'
} >"$TMP/big.scn"
run_rc lj-matrix -n "$TMP/big.scn"
is "$rc" 2 "a scenario over 100,000 cells: exit 2"
grep -q "161051 cells (at most 100000)" "$TMP/err"
ok $? "over the cell limit: says the limit"
{
	echo '[matrix]'
	printf 'x = 1, %s\n' "$(head -c 70000 /dev/zero | tr '\0' v)"
	echo '[workload w]'
	echo 'command = true ${x}'
} >"$TMP/long.scn"
run_rc lj-matrix -n "$TMP/long.scn"
is "$rc" 2 "a command expanding over 64 KiB: refused by the parser (exit 2)"

# --- --resume of a manifest whose cells do not match its scenario: a message, no crash
cat >"$TMP/r.scn" <<EOF
[matrix]
v = 1, 2
[workload fake]
command = $FAKE --value \${v}
EOF
run_rc lj-matrix -q -o "$TMP/s-uaf" "$TMP/r.scn"
dir=$(cat "$TMP/out")
perl -MJSON::PP -0777 -i -ne 'my $m = decode_json($_); pop @{ $m->{cells} }; print encode_json($m)' \
	"$dir/manifest.json"
run_rc lj-matrix --resume "$dir"
is "$rc" 2 "--resume, manifest with 1 cell for a 2-cell scenario: exit 2"
grep -q "manifest has 1 cells, its scenario 2" "$TMP/err"
ok $? "--resume, cell count mismatch: says both counts"

# --- --resume replays progress.jsonl onto the manifest: idempotent, a torn last line ignored
export FAKE_LOG="$TMP/fake.log"
cat >"$TMP/rep.scn" <<EOF
[matrix]
repeat = 2
v = 1, 2
[workload fake]
command = $FAKE --value \${v}
EOF
run_rc lj-matrix -q -o "$TMP/s-rep" "$TMP/rep.scn"
dir=$(cat "$TMP/out")
# as if killed after logging cell 2's events but before the manifest caught up (and in
# the middle of writing one more line): the manifest has cell 2 at its first run
perl -MJSON::PP -0777 -i -ne 'my $m = decode_json($_); my $c = $m->{cells}[1];
	open(my $log, ">", "$ARGV_DIR/progress.jsonl") or die;
	my $j = JSON::PP->new->canonical;
	print $log $j->encode({ cell => 1, run => $_ }), "\n" for @{ $c->{runs} };
	print $log $j->encode({ cell => 1, state => "done", reason => undef }), "\n";
	print $log "{\"cell\":0,\"sta";
	splice(@{ $c->{runs} }, 1); $c->{state} = "running"; $m->{state} = "running";
	print encode_json($m); BEGIN { $ARGV_DIR = shift @ARGV }' "$dir" "$dir/manifest.json"
before=$(wc -l <"$FAKE_LOG")
run_rc lj-matrix --resume "$dir"
is "$rc" 0 "--resume with a log ahead of the manifest: exit 0"
is "$(wc -l <"$FAKE_LOG")" "$before" "...nothing ran again: the log had it all"
is "$(cells "$dir" | grep -c ' done 2$')" 2 "...both cells done with 2 runs (the repeated run not added twice)"
! grep -q "interrupted\|not lj-matrix events" "$TMP/err"
ok $? "...a torn last line is ignored without a word"

done_testing
