#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# power.t - --power on this machine as it is: each missing source said once with its reason, nothing fails, the run unchanged.
. "$(dirname "$0")/lib.sh"

export LJ_JOURNAL_DIR=$TMP/j
[ -x "$LJ_BUILD/lj-env" ] || skip_all "lj-env not built"

run_rc lj-env --power -- echo hello
is "$rc" 0 "lj-env --power -- echo: exit 0"
is "$(cat "$TMP/out")" "hello" "the command's output unchanged"
for src in cpufreq cpuidle powercap hwmon battery thermal throttle; do
	# a source this machine has is not "unavailable"; one it lacks is said exactly once
	n=$(grep -c "^power: $src unavailable: " "$TMP/err")
	ok "$([ "$n" -le 1 ] && echo 0 || echo 1)" "$src: said at most once (n=$n)"
done
n=$(grep -c "unavailable: " "$TMP/err")
is "$(grep "unavailable: " "$TMP/err" | grep -vc "(no /sys/")" 0 "every unavailable source names what is missing"
diag "sources missing here: $n"
run_rc lj-env --power --show
is "$rc" 2 "--power with --show: usage error"
grep -q "power needs a command" "$TMP/err"; ok $? "...saying it needs a command"

if [ -x "$LJ_BUILD/lj-cyclic" ]; then
	run_rc lj-cyclic -q -i 1000 -l 50
	plain_rc=$rc plain_lines=$(wc -l <"$TMP/out")
	run_rc lj-cyclic --power -q -i 1000 -l 50 --json "$TMP/c.json"
	ok "$([ "$rc" = "$plain_rc" ] || [ "$rc" = 3 ] || [ "$plain_rc" = 3 ] && echo 0 || echo 1)" "lj-cyclic --power: same exit code as without (rc $rc)"
	is "$(wc -l <"$TMP/out")" "$plain_lines" "...same stdout lines"
	grep -q "^T: 0 " "$TMP/out"; ok $? "...in the same format"
	# cpufreq: a frequency on every cluster line, or "unavailable" said once, never both
	# (a cluster line may still come for the idle share: "power: cpus 0-1: idle 98.9%")
	unavail=$(grep -c "^power: cpufreq unavailable: " "$TMP/err") freq=$(grep -c "^power: cpus .* MHz (" "$TMP/err")
	ok "$([ "$unavail" = 1 ] && [ "$freq" = 0 ] || { [ "$unavail" = 0 ] && [ "$freq" -ge 1 ]; } && echo 0 || echo 1)" \
		"...cpufreq either reported or said unavailable, once (unavailable $unavail, frequency lines $freq)"
	is "$(grep "^power: cpus " "$TMP/err" | grep -Evc '^power: cpus [0-9,-]+: [a-z0-9][^,]*(, [^ ,][^,]*)*$')" 0 \
		"...every cluster line well formed (no empty part)"
	result_validates "$TMP/c.json"
	python3 -c "
import json,sys; d=json.load(open('$TMP/c.json')); p=d['side']['power']['sources']
sys.exit(0 if all(('reason' in v) != v['available'] for v in p.values()) and len(p) == 7 else 1)" 2>/dev/null
	ok $? "the result's power.sources: seven, each available or with a reason"
	python3 -c "
import json,sys; d=json.load(open('$TMP/c.json'))
sys.exit(0 if 'energy_j' in d['summary'] or not d['side']['power']['sources']['powercap']['available'] else 1)" 2>/dev/null
	ok $? "no energy metric without a source (none invented)"
else
	skip 8 "lj-cyclic not built"
fi
done_testing
