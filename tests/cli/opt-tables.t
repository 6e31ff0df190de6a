#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# opt-tables.t - every tool's option tables, as its binary holds them: lj_opt_parse checks
# them at startup (no key or long name twice across a tool's tables, hidden entries too;
# tests/unit/test_opt.c shows the check refusing such tables), so each tool must start;
# and what --dump-options lists has no option twice.
. "$(dirname "$0")/lib.sh"

n=0
for d in "$LJ_SRC"/tools/*/; do
	t=lj-$(basename "$d")
	if [ ! -x "$LJ_BUILD/$t" ]; then
		skip 3 "$t not built in $LJ_BUILD"
		continue
	fi
	n=$((n + 1))
	run_rc "$t" --dump-options
	is "$rc:$(cat "$TMP/err")" "0:" "$t: its option tables pass the startup check"
	dups=$(awk -F'\t' '$1 == "opt" { if ($2 != "") print "-" $2; if ($3 != "") print "--" $3 }' "$TMP/out" | sort | uniq -d)
	is "$dups" "" "$t: no option listed twice"
	run_rc "$t" --help
	is "$rc" 0 "$t --help exits 0"
done
[ "$n" -gt 0 ]
ok $? "$n tools read"

done_testing
