#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# env-watch.t - lj-env --watch: context switches of named tasks and of the system around COMMAND.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j LJ_RESULT_NO_SYSINFO=1
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"
[ -r "/proc/$$/task/$$/comm" ] || skip_all "no /proc/PID/task/TID/comm here"

# jget FILE EXPR: a perl expression over the decoded document $d
jget() {
	perl -MJSON::PP -0777 -ne 'my $d = decode_json($_); my $v = eval $ARGV_E; print defined $v ? $v : "undef";
		BEGIN { $ARGV_E = shift @ARGV }' "$2" "$1"
}

# --- usage: a bad pattern is exit 2 with one line; --watch needs a command
for bad in "" "a,,b" "x,"; do
	run_rc lj-env --watch "$bad" -- true
	is "$rc" 2 "--watch '$bad': exit 2"
	grep -q "invalid --watch '$bad'" "$TMP/err"
	ok $? "--watch '$bad': the message names the value"
done
run_rc lj-env --watch 'rcu_*' --watch 'rcu_*' -- true
is "$rc" 2 "a pattern given twice: exit 2"
run_rc lj-env --show --watch 'rcu_*'
is "$rc" 2 "--show --watch: exit 2"
run_rc lj-env --watch 'rcu_*'
is "$rc" 2 "--watch without a command: exit 2"

# --- around sleep: one line per pattern and the system line, on stderr
kernel_threads=$(cat /proc/[0-9]*/task/[0-9]*/comm 2>/dev/null | grep -c '^ksoftirqd/')
run_rc lj-env --watch 'ksoftirqd/*' --watch 'rcu_*,lj-no-such-task*' --json "$TMP/s.json" -- sleep 0.3
is "$rc" 0 "--watch around sleep 0.3 exits 0"
is "$(cat "$TMP/out")" "" "nothing on stdout"
line=$(grep "^lj-env: watch 'ksoftirqd/\*': " "$TMP/err")
ok $? "a line for ksoftirqd/*"
n=$(sed -n "s/^lj-env: watch 'ksoftirqd\/\*': \([0-9]*\) tasks\?, \([0-9]*\) context switches ([0-9.]*\/s): [0-9]* voluntary, [0-9]* involuntary.*/\1 \2/p" "$TMP/err")
set -- $n
is "${1:-x}" "$kernel_threads" "ksoftirqd/*: as many tasks as /proc has ksoftirqd threads"
[ "${2:--1}" -ge 0 ] 2>/dev/null
ok $? "ksoftirqd/*: a count of context switches"
grep -q "^lj-env: watch 'lj-no-such-task\*': 0 tasks, 0 context switches" "$TMP/err"
ok $? "a pattern matching nothing is 0 tasks, not an error"
grep -Eq "^lj-env: watch system: [0-9]+ context switches \([0-9.]+/s\) in [0-9.]+ s$" "$TMP/err"
ok $? "the system-wide line"
is "$(grep -c '^lj-env: watch ' "$TMP/err")" 4 "three pattern lines and the system line"

# --- the JSON: side.watch detail, summary metrics, valid for lj-compare
run_rc lj-compare --validate "$TMP/s.json"
is "$rc" 0 "the result validates (lj-compare --validate)"
is "$(jget "$TMP/s.json" 'scalar @{$d->{side}{watch}{patterns}}')" 3 "side.watch.patterns: one per pattern"
ok "$([ "$(jget "$TMP/s.json" '$d->{side}{watch}{patterns}[0]{tasks}')" -gt 0 ]; echo $?)" \
	"side.watch: ksoftirqd/* matched tasks"
ok "$([ "$(jget "$TMP/s.json" '$d->{side}{watch}{patterns}[1]{tasks}')" -gt 0 ]; echo $?)" \
	"side.watch: rcu_* matched tasks"
is "$(jget "$TMP/s.json" '$d->{side}{watch}{patterns}[2]{tasks}')" 0 "side.watch: the unmatched pattern has 0 tasks"
is "$(jget "$TMP/s.json" 'my $p = $d->{side}{watch}{patterns}[0]; $p->{ctxsw} == $p->{voluntary} + $p->{involuntary} ? 1 : 0')" 1 \
	"side.watch: ctxsw is voluntary + involuntary"
is "$(jget "$TMP/s.json" 'my $p = $d->{side}{watch}{patterns}[1]; my $s = 0; $s += $_->{voluntary} + $_->{involuntary} for @{$p->{threads}}; $s == $p->{ctxsw} ? 1 : 0')" 1 \
	"side.watch: the threads add up to the pattern's count"
ok "$([ "$(jget "$TMP/s.json" '$d->{side}{watch}{elapsed_ns}')" -ge 300000000 ]; echo $?)" \
	"side.watch: elapsed covers the 0.3 s of COMMAND"
for m in ctxsw_system ctxsw_ksoftirqd ctxsw_rcu ctxsw_lj_no_such_task; do
	is "$(jget "$TMP/s.json" "\$d->{summary}{$m}{unit} . ' ' . \$d->{summary}{$m}{better}")" "count lower" \
		"summary.$m: a count, lower is better"
done
ok "$([ "$(jget "$TMP/s.json" '$d->{summary}{ctxsw_system}{value}')" -ge "$(jget "$TMP/s.json" '$d->{summary}{ctxsw_rcu}{value}')" ]; echo $?)" \
	"the system count is at least one pattern's"

# --- around lj-hackbench: kernel threads watched while messaging load runs.
# COMMAND's own threads are born and gone between the snapshots: not countable.
if [ -x "$LJ_BUILD/lj-hackbench" ]; then
	run_rc lj-env --watch 'ksoftirqd/*,rcu_*' --json "$TMP/h.json" -- lj-hackbench -g 1 -f 2 -l 100
	is "$rc" 0 "--watch around lj-hackbench exits 0"
	run_rc lj-compare --validate "$TMP/h.json"
	is "$rc" 0 "the hackbench watch result validates"
	ok "$([ "$(jget "$TMP/h.json" '$d->{side}{watch}{patterns}[0]{tasks} + $d->{side}{watch}{patterns}[1]{tasks}')" -gt 0 ]; echo $?)" \
		"kernel threads are found around lj-hackbench"
	ok "$([ "$(jget "$TMP/h.json" '$d->{summary}{ctxsw_system}{value}')" -gt 0 ]; echo $?)" \
		"the system count sees hackbench's messaging"
else
	skip 4 "lj-hackbench not built"
fi

# --- without --json: the lines still come, the exit status is COMMAND's
run_rc lj-env --watch 'rcu_*' -- sh -c 'exit 3'
is "$rc" 3 "COMMAND's exit status is kept"
is "$(grep -c '^lj-env: watch ' "$TMP/err")" 2 "without --json: the pattern and system lines"

done_testing
