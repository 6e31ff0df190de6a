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

# --- cell directories are one per cell: values that the old name replacement merged (a/b,
# a;b, a_b and "a b" were all n=a_b) get escaped names; a name that was already unambiguous
# stays as it was (existing stores, --resume).
cat >"$TMP/col.scn" <<EOF
[matrix]
n = a/b, a;b, a_b, a b, x y
[workload fake]
command = $FAKE --value 1 --label \${n}
EOF
run_rc lj-matrix -q -o "$TMP/s-col" "$TMP/col.scn"
dir=$(cat "$TMP/out")
is "$rc" 0 "colliding custom values: exit 0"
is "$(cd "$dir/fake" 2>/dev/null && ls | sort | tr '\n' ' ')" "n=a%20b n=a%2Fb n=a%3Bb n=a_b n=x_y " \
	"five cells, five directories (the colliding four escaped, x y as before)"
is "$(perl -MJSON::PP -0777 -ne 'my %f; $f{$_->{runs}[0]{file}}++ for @{ decode_json($_)->{cells} }; print scalar keys %f' "$dir/manifest.json")" 5 \
	"...and five result files in the manifest"
is "$(ls "$dir"/fake/*/run-1.json | wc -l)" 5 "...each on disk"
# A name cut at 200 bytes (with the cell's index) that another cell's value spells out exactly.
long=$(printf 'x%.0s' $(seq 250))
cat >"$TMP/cut.scn" <<EOF
[matrix]
n = $long, ${long:0:178}...0
[workload fake]
command = $FAKE --value 1 --label \${n}
EOF
run_rc lj-matrix -n "$TMP/cut.scn"
is "$rc" 2 "two cells that no name tells apart: a usage error before anything runs"
grep -q "cells 1 and 2 would share the directory fake/n=x" "$TMP/err"
ok $? "...naming both"

# --- a tag longer than a file name allows is bad input (it was "File name too long", exit 1)
run_rc lj-matrix -n -t "$(printf 'x%.0s' $(seq 300))" "$TMP/col.scn"
is "$rc" 2 "a 300-character --tag: exit 2"
grep -q -- "--tag: 300 characters: the run id HOST_RELEASE_TIME_TAG is a file name, at most 255 bytes" "$TMP/err"
ok $? "...saying why and how long it may be"

# --- a store whose disk fills up (the workload fills it after its result): one line says so, not two
if is_root && unshare -m true 2>/dev/null; then
	mkdir "$TMP/small"
	printf '%s "$@"\ndd if=/dev/zero of=%s/fill bs=4k 2>/dev/null\nexit 0\n' "$FAKE" "$TMP/small" >"$TMP/fill.sh"
	printf '[matrix]\nrepeat = 2\n[workload fill]\ncommand = sh %s\n' "$TMP/fill.sh" >"$TMP/fill.scn"
	unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=256k tmpfs "$1" || exit 77
		lj-matrix -q -o "$1" "$2" >/dev/null 2>"$3"
		echo $? >"$3.rc"
		umount "$1"' _ "$TMP/small" "$TMP/fill.scn" "$TMP/fill.err"
	if [ $? -eq 77 ]; then
		skip 2 "cannot mount a tmpfs"
	else
		is "$(cat "$TMP/fill.err.rc")" 1 "a full store: exit 1"
		is "$(grep -c 'cannot write the store' "$TMP/fill.err")" 1 "...the full store said once"
	fi
else
	skip 2 "needs root and mount namespaces for a small tmpfs"
fi

done_testing
