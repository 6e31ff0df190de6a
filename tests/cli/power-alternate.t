#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# power-alternate.t - LJ_POWER_ALTERNATE=MS cuts a --power run into
# windows with and without the sampler (docs/power.md, "Its cost"): the
# sampler awake in one window of each triple, its place rotating, asleep
# in the others (no reading taken there, one or more in each window with
# it at 10 Hz); every sample in one window or left out; where no sampler
# thread runs (nothing to read between the run's ends) it says so; a bad
# value is a usage error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/alternate-lib.sh"

[ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-cyclic not built in $LJ_BUILD"
export LJ_RESULT_NO_SYSINFO=1
CPU=$(( $(nproc) - 1 ))
# Each window must keep most of its wake-ups: a FIFO thread where it may (another load cannot delay it).
RT=()
is_root && RT=(-m -p 90)

refused LJ_POWER_ALTERNATE=10 --power "lj-cyclic: LJ_POWER_ALTERNATE: invalid value '10' (a window in milliseconds, 20 to 60000)"
# --explain's variant is not --power's.
refused LJ_POWER_ALTERNATE=250,attached --power "invalid value '250,attached' (a window in milliseconds, 20 to 60000)"

# --perfetto keeps the readings as a series: the sampler thread runs on any machine with cpuidle.
run_rc env LJ_POWER_ALTERNATE=250 lj-cyclic -q -a "$CPU" "${RT[@]}" -i 1000 -l 2500 --power --perfetto "$TMP/p.json" --json "$TMP/w.json"
is "$rc" 0 "lj-cyclic --power with windows exits 0"
if jq -e '.side.power.alternate == null' "$TMP/w.json" >/dev/null; then
	skip 9 "no windows here: $(jq -r .side.power.alternate_unavailable "$TMP/w.json")"
else
	# 10 Hz, from an interval after each wake of the thread.
	windows_ok "$TMP/w.json" sampler .side.power.alternate 2500 250 asleep readings ".work >= 1 and .work <= 3"
fi

# Without a series to keep, a machine with nothing to read between the ends runs no sampler thread.
run_rc env LJ_POWER_ALTERNATE=250 lj-cyclic -q -a "$CPU" -i 1000 -l 300 --power --json "$TMP/n.json"
is "$rc" 0 "without --perfetto: exits 0"
jq -e '.side.power | .alternate != null or (.alternate_unavailable | test("no sampler thread runs here"))' "$TMP/n.json" >/dev/null
ok $? "...with windows, or saying why not ($(jq -r '.side.power.alternate_unavailable // "windows"' "$TMP/n.json"))"
done_testing
