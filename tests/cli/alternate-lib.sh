# SPDX-License-Identifier: GPL-2.0-or-later
# alternate-lib.sh - the checks every run with an instrument's windows
# passes (lj_alternate: LJ_EXPLAIN_ALTERNATE, LJ_POWER_ALTERNATE), for the
# tests that source it after lib.sh. Sourced, never run.

# refused VAR=VALUE OPTION MESSAGE: lj-cyclic OPTION with it in its
# environment exits 2 with MESSAGE as its one line.
refused() {
	run_rc env "$1" lj-cyclic -q -l 10 "$2"
	is "$rc:$(wc -l <"$TMP/err")" "2:1" "$1: exit 2, one line"
	grep -qF "$3" "$TMP/err"
	ok $? "...saying: $3"
}

# windows_ok FILE WHAT BLOCK LOOPS MS WITHOUT WORK ON_WORK: the run in
# FILE measured LOOPS wake-ups at 1 ms with windows of MS ms, its
# windows in BLOCK (.side.explain.alternate), the instrument WITHOUT
# ("detached") in the windows without it, its WORK ("records") counted,
# each whole window with it passing the jq test ON_WORK (".work >= .n"):
# nine checks.
windows_ok() {
	local f=$1 what=$2 b=$3 loops=$4 ms=$5 without=$6 work=$7 on_work=$8
	jq -e --arg w "$without" --arg k "$work" "$b | .without == \$w and .work_is == \$k and .error == null" "$f" >/dev/null
	ok $? "$what: said ($without; $work counted), no error"
	jq -e "$b.windows | length >= ($loops / $ms | floor)" "$f" >/dev/null
	ok $? "$what: a window each $ms ms ($(jq "$b.windows | length" "$f"))"
	jq -e "[$b.windows[] | select(.triple < 2)] | group_by(.triple)
		| map(map(.role) | join(\"\")) == [\"abc\", \"bac\"]" "$f" >/dev/null
	ok $? "$what: B's place in each triple rotates (second, then first)"
	jq -e "$b.windows | all(.on == (.role == \"b\"))" "$f" >/dev/null
	ok $? "$what: the instrument on in B only"
	jq -e "$b | ([.windows[].n] | add) + .excluded == .samples and .samples == $loops and .not_kept == 0" \
		"$f" >/dev/null
	ok $? "$what: each of the $loops samples in one window or left out ($(jq -c "$b | [([.windows[].n] | add), .excluded]" "$f"))"
	# The last window with samples is cut by the run's end, and the switching goes on until the tool stops.
	# None can keep more than 90 % (its first tenth is left out); fewer than 60 % is
	# a stall of the machine's (a VM's host can take the CPU for tens of ms), which
	# a quarter of the windows may have: a window misplaced in time fails them all.
	jq -e "[$b.windows[] | select(.n > 0)][:-1] | length >= ($loops / $ms | floor) - 1 and
		all(.n <= $ms * 9 / 10 and .min_ns <= .p50_ns and .p50_ns <= .p99_ns and .min_ns <= .mean_ns) and
		([.[] | select(.n >= $ms * 6 / 10)] | length) * 4 >= length * 3" "$f" >/dev/null
	ok $? "$what: each whole window keeps at most 90 % of its $ms wake-ups (its first tenth left out), three quarters at least 60 %, min <= p50 <= p99 ($(jq -c "[$b.windows[].n]" "$f"))"
	jq -e "[$b.windows | to_entries[] | select(.key > 0) | (.value.toggle_ns > 0)] ==
		[$b.windows | . as \$w | range(1; length) | (\$w[.].on != \$w[. - 1].on)]" "$f" >/dev/null
	ok $? "$what: switched exactly where the instrument changes"
	jq -e "[$b.windows[] | select(.work != null and .on == false) | .work] | length > 1 and all(. == 0)" "$f" >/dev/null
	ok $? "$what: nothing done in a window without the instrument ($(jq -r "$b.work_is" "$f"))"
	jq -e "[$b.windows[] | select(.work != null and .on) | ($on_work)] | length > 1 and all" "$f" >/dev/null
	ok $? "$what: in each window with it, $on_work ($(jq -c "[$b.windows[] | select(.on) | [.n, .work]]" "$f"))"
}
