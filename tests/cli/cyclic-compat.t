#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cyclic-compat.t - lj-cyclic and rt-tests' cyclictest print the same lines, in the same layout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cyclic-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
command -v cyclictest >/dev/null || skip_all "cyclictest (rt-tests) not installed"
# cyclictest refuses to run without the right to change policies.
cyclictest -q -l 1 >/dev/null 2>&1 || skip_all "cyclictest does not run here (no privilege?)"
export LJ_RESULT_NO_SYSINFO=1

# "# Thread N: N N ..." lists the cycles whose latency overflowed the -h
# range: how many depends on the machine's noise in that run (on a loaded
# machine some run has none, another 30 "others"), so only its shape counts.
overflow_kind() {
	sed -E 's/^# Thread N:( N)*( # N others)?$/# Thread N: overflow cycles/'
}

# same OPTS...: stdout of both tools, reduced to line kinds (numbers and
# field widths checked, values dropped), must be the same sequence.
same() {
	local unit=us name="$*" try
	[[ " $* " == *" -N "* ]] && unit=ns
	# On a loaded machine cyclictest -x itself prints negative Act/Avg/Max
	# (timer overruns) wider than its fields: such a run says nothing about
	# the format, so one retry is allowed; a layout bug fails both.
	for try in 1 2; do
		cyclictest "$@" >"$TMP/ct.out" 2>/dev/null
		lj-cyclic "$@" >"$TMP/lj.out" 2>/dev/null
		line_kinds "$TMP/ct.out" $unit | overflow_kind >"$TMP/ct.kinds"
		line_kinds "$TMP/lj.out" $unit | overflow_kind >"$TMP/lj.kinds"
		cmp -s "$TMP/ct.kinds" "$TMP/lj.kinds" && break
	done
	if cmp -s "$TMP/ct.kinds" "$TMP/lj.kinds"; then
		ok 0 "same lines as cyclictest: $name"
	else
		ok 1 "same lines as cyclictest: $name"
		diff "$TMP/ct.kinds" "$TMP/lj.kinds" | head -10 | sed 's/^/#   /'
	fi
}

same -q -l 100 -i 1000
same -q -l 100 -i 1000 -t 2
same -q -l 100 -i 1000 -N
same -q -l 100 -i 1000 -d 0 -t 2 -r
same -q -l 100 -i 1000 -h 30 -t 2
same -q -l 100 -i 1000 -H 30 -t 2
same -q -l 100 -i 1000 -H 30
same -q -l 100 -i 1000 -b 1
same -q -l 100 -i 1000 -b 0
same -q -l 50 -i 1000 --spike 1
same -q -l 100 -i 1000 --laptop
same -q -l 100 -i 1000 -x
# cyclictest 2.x's other options (stdout compared; -R's and -s -x's words go to stderr)
same -q -l 100 -i 1000 -t 2 -a all
same -q -l 100 -i 1000 -t 2 -a +0
same -q -l 100 -i 1000 -t 2 -A 100
same -q -l 20 -i 1000 -t 2 --secaligned 100
same -q -l 100 -i 1000 -c 1
same -q -l 100 -i 1000 -s
same -q -l 100 -i 1000 -s -x
same -q -l 100 -i 1000 -R
same -q -l 100 -i 1000 --default-system
same -q -l 100 -i 1000 --dbg_cyclictest
same -q -l 100 -i 1000 -M
same -q -l 20 -i 1000 -v
same -q -l 20 -i 1000 -v -o 4
same -q -l 20 -i 1000 -v -N
same -q '-l 100' '-i 1000'

# Placement as cyclictest 2.x: without -a thread N runs on the N-th allowed
# CPU; the --json files of both say which ("cpu" of each thread).
placement() {	# placement TOOL ARGS...: the thread CPUs its --json reports
	rm -f "$TMP/place.json"
	"$@" --json="$TMP/place.json" >/dev/null 2>"$TMP/place.err" || diag "$1 $*: exit $?: $(head -3 "$TMP/place.err")"
	python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["thread"]
print(" ".join(str(t[k]["cpu"]) for k in sorted(t, key=int)))' "$TMP/place.json" 2>/dev/null
}
if have_python; then
	for args in "-q -l 20 -t 2" "-q -l 20 -t 3 -a 0" "-q -l 20 -t 2 -a all" "-q -l 20 -S" \
		    "-q -l 20 -t 2 -a !0" "-q -l 20 -t 2 -a +1"; do
		is "$(placement lj-cyclic $args)" "$(placement cyclictest $args)" "thread CPUs as cyclictest's: $args"
	done
else
	skip 6 "python3 not installed"
fi

# Live mode: frame counts differ (refresh rates), the set of line kinds may not.
cyclictest -l 100 -i 1000 -t 2 2>/dev/null | line_kinds /dev/stdin us | sort -u >"$TMP/ct.kinds"
lj-cyclic -l 100 -i 1000 -t 2 2>/dev/null | line_kinds /dev/stdin us | sort -u >"$TMP/lj.kinds"
cmp -s "$TMP/ct.kinds" "$TMP/lj.kinds"
ok $? "live mode: the same kinds of lines as cyclictest"
[ $? -eq 0 ] || diff "$TMP/ct.kinds" "$TMP/lj.kinds" | sed 's/^/#   /'

if is_root; then
	same -q -l 100 -i 1000 -m -p 90 -S
	same -q -l 100 -i 1000 -m -p 90 -t 2 --priospread
else
	skip 2 "SCHED_FIFO comparisons need root"
fi

done_testing
