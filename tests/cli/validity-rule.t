#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# validity-rule.t - the policy rule end to end, as a user without RLIMIT_RTPRIO: a scenario
# like quick.scn's lj-cyclic (-p 90 --policy-fallback) runs, and lj-compare's headline says
# why its figures are not SCHED_FIFO ones; the same command without --policy-fallback
# fails its cell, as cyclictest would (docs/validity.md, "The policy rule").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/matrix-lib.sh"

[ -x "$LJ_BUILD/lj-matrix" ] && [ -x "$LJ_BUILD/lj-cyclic" ] || skip_all "lj-matrix/lj-cyclic not built"
is_root || skip_all "needs root to become nobody"
can_drop_to_nobody || skip_all "cannot drop to nobody here (setpriv)"
command -v prlimit >/dev/null || skip_all "prlimit not installed (util-linux)"
plan 5
export LJ_RESULT_NO_SYSINFO=1

chmod 711 "$TMP"
mkdir -m 777 "$TMP/u"
cat >"$TMP/u/rule.scn" <<SCN
[matrix]
repeat = 2
[workload cyclic]
command = lj-cyclic -l 100 -i 1000 -q -m -p 90 --policy-fallback
[workload strict]
command = lj-cyclic -l 100 -i 1000 -q -p 90
SCN
# nobody, RLIMIT_RTPRIO 0: SCHED_FIFO is refused whatever the machine's limits
(cd "$TMP/u" && prlimit --rtprio=0 setpriv --reuid=65534 --regid=65534 --clear-groups -- \
	env PATH="$LJ_BUILD:$PATH" LJ_JOURNAL_DIR="$TMP/u/j" "$LJ_BUILD/lj-matrix" -q -o "$TMP/u/store" rule.scn) \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
run=$(cat "$TMP/out")
is "$rc:$([ -d "$run" ] && echo run)" "1:run" "lj-matrix as a user: a run directory, exit 1 (a cell failed)"
is "$(perl -MJSON::PP -0777 -ne 'print "$_->{workload} $_->{state};" for sort { $a->{workload} cmp $b->{workload} } @{ decode_json($_)->{cells} }' "$run/manifest.json")" "cyclic done;strict failed;" \
	"with --policy-fallback the cell is done, without it the cell fails as cyclictest would"
run_rc lj-compare --headline "$run"
grep -q '^  timer wake-up (cyclic, other 0) .* invalid (2 of 2 runs: policy)' "$TMP/out"
ok $? "the headline: SCHED_OTHER figures, invalid, and why (policy)"
run_rc lj-compare --format lava "$run"
grep -q '^lava-test-case cyclic_validity --result fail$' "$TMP/out"
ok $? "a board farm's validity case fails for it"
grep -q 'measuring threads without their policy: sched: fifo 90 -> other' "$run"/strict/*/run-1.json
ok $? "the failed cell's runs keep their result, with the reason"
exit $((_tap_fail > 0))
