#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# badinput.t - the bad-input table: each class of bad input (unknown option,
# bad number, out-of-range value, bad CPU list, unwritable output, missing
# file, garbage file) for each tool gives its exit status and exactly one
# line on stderr naming the tool, creates nothing (no file, no journal, no
# group) and loses nothing already stored (an existing result file, a
# results store). One test per row; a row that fails on a known, open bug
# is TODO with the reason (prove counts it, and says when it starts passing).
. "$(dirname "$0")/lib.sh"

for t in cyclic signal hackbench frame env matrix compare; do
	[ -x "$LJ_BUILD/lj-$t" ] || skip_all "lj-$t not built in $LJ_BUILD"
done
export PATH="$LJ_SRC/scripts:$PATH"
export LJ_JOURNAL_DIR=$TMP/journal LJ_RESULT_NO_SYSINFO=1
W=$TMP/work
G=ljbad$$
mkdir -p "$W/results" "$LJ_JOURNAL_DIR"
cd "$W" || exit 1

# What is already stored: a result file the user keeps, a complete run in
# the store, a scenario that is fine, and files that are not what they claim.
echo '{"precious": true}' >keep.json
cp -r "$LJ_SRC/tests/fixtures/compare/base" results/base
printf '[matrix]\n[workload a]\ncommand = true\n' >ok.scn
printf '[matrix]\ncpus = 3-1\n[workload a]\ncommand = true\n' >badcpu.scn
head -c 512 /dev/urandom >garbage
cp garbage garbage.scn
cp garbage garbage.json
mkdir -p badrun && cp garbage badrun/manifest.json

state() {	# every file under the work directory with its checksum, journals, our groups
	find . -path ./.out -prune -o -path ./.err -prune -o -print0 | sort -z |
		xargs -0 sh -c 'for f; do if [ -f "$f" ]; then md5sum "$f"; else echo "$f/"; fi; done' x
	find "$LJ_JOURNAL_DIR" -name 'journal.*' 2>/dev/null
	find /sys/fs/cgroup -maxdepth 3 -name "$G*" 2>/dev/null
}

crashed() {
	[ "$rc" -ge 128 ] && [ "$rc" -ne 255 ] || grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' .err
}

# row TOOL CLASS WANT_RC TODO_REASON ARGS...: run TOOL ARGS in the work
# directory (stdout to $ROW_STDOUT when set); TODO_REASON "" for a row
# that must pass.
row() {
	local tool=$1 class=$2 want=$3 todo=$4 before after why=""
	shift 4
	before=$(state)
	"$tool" "$@" >"${ROW_STDOUT:-.out}" 2>.err
	rc=$?
	after=$(state)
	if crashed; then
		why="crashed (exit $rc)"
	elif [ "$rc" -ne "$want" ]; then
		why="exit $rc, wanted $want"
	elif [ "$(wc -l <.err)" -ne 1 ]; then
		why="$(wc -l <.err) lines on stderr"
	elif ! grep -q "^${tool##*/}: " .err; then
		why="the line does not start with '${tool##*/}: '"
	elif [ "$want" -eq 2 ] && [ -s .out ]; then
		why="bad usage printed on stdout"
	elif [ "$before" != "$after" ]; then
		why="files, journals or groups changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -3 | tr '\n' ' ')"
	fi
	_tap_n=$((_tap_n + 1))
	if [ -z "$why" ]; then
		echo "ok $_tap_n - ${tool##*/} $class: exit $want, one line, nothing created or lost${todo:+ # TODO $todo}"
	else
		echo "not ok $_tap_n - ${tool##*/} $class: exit $want, one line, nothing created or lost${todo:+ # TODO $todo}"
		diag "$why" "command: $tool $*" "stderr: $(head -3 .err)"
		[ -n "$todo" ] || _tap_fail=$((_tap_fail + 1))
	fi
}
NA() { :; }	# a class that does not apply to a tool (no such input)

# The measuring tools: every usage error names the bad value before any
# setup or output; --json keep.json must survive it.
for tool in lj-cyclic lj-signal; do
	row $tool "unknown option" 2 "" --bogus -l 10 --json keep.json
	row $tool "bad number" 2 "" -l x10 --json keep.json
	row $tool "out-of-range" 2 "" -p 100 -l 10 --json keep.json
	row $tool "bad CPU list" 2 "" --cpus 3-1 --cgroup $G -l 10 --json keep.json
	row $tool "CPU beyond the machine" 2 "" --cpus 0-9999 --cgroup $G -l 10
	row $tool "unwritable output" 1 "" -q -l 10 --json nodir/r.json
	row $tool "output is a directory" 1 "" -q -l 10 --json results
done
row lj-hackbench "unknown option" 2 "" --bogus -g 1 -l 2 --json keep.json
row lj-hackbench "bad number" 2 "" -g x --json keep.json
row lj-hackbench "out-of-range" 2 "" -g 0 -l 2 --json keep.json
row lj-hackbench "bad CPU list" 2 "" -T --cpus 3-1 --cgroup $G -g 1 -l 2 --json keep.json
row lj-hackbench "unwritable output" 1 "" -g 1 -l 2 --json nodir/r.json
row lj-frame "unknown option" 2 "" --bogus -D 100ms --json keep.json
row lj-frame "bad number" 2 "" -D 1x --json keep.json
row lj-frame "out-of-range" 2 "" --fps 0 -D 100ms --json keep.json
row lj-frame "bad CPU list" 2 "" --cpus 3-1 --cgroup $G -D 100ms --json keep.json
row lj-frame "unwritable output" 1 "" -q -D 100ms --timeline nodir/t.csv
NA "measuring tools: missing file, garbage file (they read no input file)"

row lj-env "unknown option" 2 "" --bogus --cgroup $G -- true
row lj-env "bad number" 2 "" --dwell 1q --sweep cpus=0 --cgroup $G -- true
row lj-env "out-of-range" 2 "" --cgroup-depth 1000 --cgroup $G -- true
row lj-env "bad CPU list" 2 "" --cpus 3-1 --cgroup $G -- true
row lj-env "bad CPU list in --sweep" 2 "" --sweep cpus=0,3-1 --cgroup $G -- true
row lj-env "unwritable output" 1 "" --json=nodir/r.json -- true
row lj-env "missing command" 127 "" -- ./no-such-command
row lj-env "missing journal" 2 "" --restore --journal missing
row lj-env "garbage journal" 2 "" --restore --journal garbage

row lj-matrix "unknown option" 2 "" --bogus ok.scn
row lj-matrix "bad number" 2 "" --repeat x ok.scn
row lj-matrix "out-of-range" 2 "" --repeat 0 ok.scn
row lj-matrix "bad number on resume" 2 "" --repeat 0 --resume results/base
row lj-matrix "bad CPU list in the scenario" 2 "" -q badcpu.scn
row lj-matrix "unwritable output" 1 "" -q -o keep.json ok.scn
row lj-matrix "missing file" 2 "" -n missing.scn
row lj-matrix "missing run directory" 2 "" --resume missing
row lj-matrix "garbage file" 2 "" -n garbage.scn
row lj-matrix "garbage manifest" 2 "" --resume badrun

row lj-compare "unknown option" 2 "" --bogus results/base
row lj-compare "bad number" 2 "" --alpha x results/base results/base
row lj-compare "out-of-range" 2 "" --alpha 2 results/base results/base
row lj-compare "bad gate rule" 2 "" --fail-on 'cyclic.max>' results/base results/base
row lj-compare "missing file" 2 "" missing.json
row lj-compare "garbage file" 2 "" garbage.json
ROW_STDOUT=/dev/full row lj-compare "unwritable output (stdout full)" 1 "" results/base
NA "lj-compare: bad CPU list (takes no CPUs)"

if command -v perl >/dev/null && command -v gnuplot >/dev/null; then
	R=results/base/cyclic/cgroup=off/run-1.json
	row lj-plot "unknown option" 2 "" --bogus hist $R
	row lj-plot "bad value" 2 "" -f bogus hist $R
	row lj-plot "unwritable output" 2 "" -o keep.json hist $R
	row lj-plot "missing file" 2 "" hist missing.json
	row lj-plot "garbage file" 2 "" hist garbage.json
else
	skip 5 "lj-plot needs perl and gnuplot"
fi
row lj-regress "unknown option" 2 "" --bogus ok.scn
row lj-regress "missing file" 2 "" -b base missing.scn
row lj-regress "garbage file" 2 "" -b base -o results garbage.scn

done_testing
